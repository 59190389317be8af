"""Test set-up: headless SDL before pygame is ever imported."""

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(autouse=True)
def _i18n_defaults() -> Iterator[None]:
    """Every test starts in English with translated names, whatever an earlier test (or an app it
    started from saved settings) left in the i18n module's two process-wide choices."""
    from koikoi_desktop import i18n

    i18n.set_language("en")
    i18n.set_name_style("translated")
    yield
    i18n.set_language("en")
    i18n.set_name_style("translated")
