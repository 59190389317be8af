"""pygame events -> intents: the small vocabulary every scene understands.

Keyboard and mouse map to the same intents so that full keyboard play needs no special cases:
arrows move a focus, Enter confirms, Esc goes back. Pointer events stay pointer events (the table
hit-tests them itself) and are reported as ``press`` / ``move`` / ``release`` with a position.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame


@dataclass(frozen=True)
class Intent:
    """One thing the player asked for. ``kind`` is one of the names below; ``pos`` for pointers."""

    kind: str
    pos: tuple[int, int] = (0, 0)
    key: int = 0
    text: str = ""


KEYS: dict[int, str] = {
    pygame.K_LEFT: "left",
    pygame.K_RIGHT: "right",
    pygame.K_UP: "up",
    pygame.K_DOWN: "down",
    pygame.K_RETURN: "confirm",
    pygame.K_KP_ENTER: "confirm",
    pygame.K_SPACE: "confirm",
    pygame.K_ESCAPE: "back",
    pygame.K_TAB: "next",
    pygame.K_BACKSPACE: "undo",
}


def to_intent(event: pygame.event.Event) -> Intent | None:
    """Translate one pygame event; ``None`` for events no scene cares about."""
    if event.type == pygame.KEYDOWN:
        kind = KEYS.get(event.key)
        if kind == "next" and event.mod & pygame.KMOD_SHIFT:
            kind = "prev"
        if kind is not None:
            return Intent(kind, key=event.key)
        return Intent("key", key=event.key, text=getattr(event, "unicode", "") or "")
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        return Intent("press", pos=event.pos)
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
        return Intent("alt_press", pos=event.pos)
    if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
        return Intent("release", pos=event.pos)
    if event.type == pygame.MOUSEMOTION:
        return Intent("move", pos=event.pos)
    if event.type == pygame.MOUSEWHEEL:
        return Intent("wheel", pos=(0, int(event.y)))
    return None
