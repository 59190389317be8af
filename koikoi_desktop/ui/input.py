"""pygame events -> intents: the small vocabulary every scene understands.

This module is the one place that knows pygame's key codes and mouse buttons: every key, button
and gesture becomes an :class:`Intent` whose ``kind`` is an :class:`IntentKind`, and no scene
compares a key code (``tests/ui/test_input.py`` holds both to it).

Keyboard and mouse map to the same intents so that full keyboard play needs no special cases:
arrows move a focus, Enter confirms, Esc goes back. Pointer events stay pointer events (the table
hit-tests them itself) and are reported as ``press`` / ``move`` / ``release`` with a position.
A letter key is a ``KEY`` intent with its ``letter`` (a scene's shortcut: "R" reviews, "M" opens
the month reference) and the ``text`` it types (for a text field).
"""

from __future__ import annotations

import pygame

from koikoi_desktop.ui.intents import Intent, IntentKind

__all__ = ["KEYS", "Intent", "IntentKind", "to_intent"]


KEYS: dict[int, IntentKind] = {
    pygame.K_LEFT: IntentKind.LEFT,
    pygame.K_RIGHT: IntentKind.RIGHT,
    pygame.K_UP: IntentKind.UP,
    pygame.K_DOWN: IntentKind.DOWN,
    pygame.K_PAGEUP: IntentKind.PAGE_UP,
    pygame.K_PAGEDOWN: IntentKind.PAGE_DOWN,
    pygame.K_HOME: IntentKind.HOME,
    pygame.K_END: IntentKind.END,
    pygame.K_RETURN: IntentKind.CONFIRM,
    pygame.K_KP_ENTER: IntentKind.CONFIRM,
    pygame.K_SPACE: IntentKind.CONFIRM,
    pygame.K_ESCAPE: IntentKind.BACK,
    pygame.K_TAB: IntentKind.NEXT,
    pygame.K_BACKSPACE: IntentKind.UNDO,
    pygame.K_F11: IntentKind.FULLSCREEN,
}


def _letter(key: int) -> str:
    """``"q"`` for the Q key, ``""`` for a key that is not a letter."""
    return chr(key) if pygame.K_a <= key <= pygame.K_z else ""


def to_intent(event: pygame.event.Event) -> Intent | None:
    """Translate one pygame event; ``None`` for events no scene cares about."""
    if event.type == pygame.KEYDOWN:
        text = getattr(event, "unicode", "") or ""
        kind = KEYS.get(event.key, IntentKind.KEY)
        if kind is IntentKind.NEXT and event.mod & pygame.KMOD_SHIFT:
            kind = IntentKind.PREV
        return Intent(kind, text=text, letter=_letter(event.key))
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        return Intent(IntentKind.PRESS, pos=event.pos)
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
        return Intent(IntentKind.ALT_PRESS, pos=event.pos)
    if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
        return Intent(IntentKind.RELEASE, pos=event.pos)
    if event.type == pygame.MOUSEMOTION:
        return Intent(IntentKind.MOVE, pos=event.pos)
    if event.type == pygame.MOUSEWHEEL:
        return Intent(IntentKind.WHEEL, pos=(0, int(event.y)))
    return None
