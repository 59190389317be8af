"""What a screen draws, as text: every string ``gfx.text`` renders while it draws (the UI tests'
one spy on the renderer, instead of a copy in each test module)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pygame
import pytest

from koikoi_desktop.ui import gfx


@contextmanager
def text_spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Within the block, every string rendered is appended to the list it gives."""
    seen: list[str] = []
    real = gfx.text

    def spy(text_: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        seen.append(text_)
        return real(text_, *args, **kwargs)

    monkeypatch.setattr(gfx, "text", spy)
    try:
        yield seen
    finally:
        monkeypatch.setattr(gfx, "text", real)


def texts_drawn(draw: Callable[[], object], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string rendered while ``draw`` runs (one frame), in order."""
    with text_spy(monkeypatch) as seen:
        draw()
    return seen
