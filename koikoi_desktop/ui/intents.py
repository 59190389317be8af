"""The intents: what the player asks for, as values a scene or the table controller reads.

No pygame here (the table controller, which has no pygame, takes intent kinds): the translation
from pygame's keys, buttons and gestures lives in :mod:`koikoi_desktop.ui.input`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class IntentKind(StrEnum):
    """What the player asked for, whatever key, button or gesture said it."""

    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"
    PAGE_UP = "page_up"
    PAGE_DOWN = "page_down"
    HOME = "home"
    END = "end"
    CONFIRM = "confirm"
    BACK = "back"
    NEXT = "next"
    PREV = "prev"
    UNDO = "undo"
    #: F11: fullscreen and back (the app handles it; no scene sees it).
    FULLSCREEN = "fullscreen"
    #: Any other key: a letter shortcut (``letter``) and what it types (``text``).
    KEY = "key"
    PRESS = "press"
    ALT_PRESS = "alt_press"
    RELEASE = "release"
    MOVE = "move"
    WHEEL = "wheel"


@dataclass(frozen=True)
class Intent:
    """One thing the player asked for: its ``kind``; ``pos`` for pointers (the wheel's steps in
    ``pos[1]``); for keys, the ``text`` the key types and, for a letter key, its lower-case
    ``letter`` (the same letter whatever the modifiers)."""

    kind: IntentKind
    pos: tuple[int, int] = (0, 0)
    text: str = ""
    letter: str = ""
