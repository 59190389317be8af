"""The new-match choices the settings make, read through the typed :class:`Settings` model.

A saved preset or opponent name this version does not know (a hand-edited file, a preset from a
newer version) is read as the model's own default: the default lives only in the model.
"""

from __future__ import annotations

from koikoi_desktop import engine
from koikoi_desktop.ai import LEVELS
from koikoi_desktop.storage.models import Settings


def default_preset(settings: Settings) -> str:
    """The saved default preset, or the model's default when no preset has that name."""
    name = settings.default_preset
    return name if name in engine.PRESETS else Settings().default_preset


def default_opponent(settings: Settings, offered: tuple[str, ...] = LEVELS) -> str:
    """The saved default opponent, or the model's default when it is not one ``offered``."""
    level = settings.default_opponent
    return level if level in offered else Settings().default_opponent
