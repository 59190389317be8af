"""Input is translated once: ``ui/input.py`` turns every key, button and gesture into an intent
whose kind is an :class:`IntentKind`, and no scene compares a pygame key code."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pygame
import pytest

import koikoi_desktop
from koikoi_desktop.ui import input as ui_input
from koikoi_desktop.ui.intents import Intent, IntentKind

SCENES = Path(koikoi_desktop.__file__).resolve().parent / "scenes"


def test_no_scene_reads_a_key_code() -> None:
    """Not one ``pygame.K_…`` (nor ``pygame.KMOD_…``, nor an event's ``.key``) under scenes/."""
    found = []
    for path in sorted(SCENES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "pygame"
                and node.attr.startswith(("K_", "KMOD_", "KEYDOWN", "KEYUP"))
            ):
                found.append(f"{path.name}:{node.lineno} pygame.{node.attr}")
    assert found == []


def test_the_intent_kind_is_the_enum() -> None:
    hints = typing.get_type_hints(Intent)
    assert hints["kind"] is IntentKind
    assert all(isinstance(kind, IntentKind) for kind in ui_input.KEYS.values())


def _key(key: int, mod: int = 0, text: str = "") -> Intent | None:
    return ui_input.to_intent(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=text))


def test_every_key_and_button_becomes_an_intent_of_the_enum() -> None:
    """Each key code pygame names, each mouse button and gesture: an intent of a known kind."""
    codes = sorted({getattr(pygame, n) for n in dir(pygame) if n.startswith("K_")})
    for code in codes:
        intent = _key(code)
        assert intent is not None and isinstance(intent.kind, IntentKind), code
    pointer = [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(3, 4)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=(3, 4)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(3, 4)),
        pygame.event.Event(pygame.MOUSEMOTION, pos=(3, 4), rel=(1, 1), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2),
    ]
    kinds = [ui_input.to_intent(e) for e in pointer]
    assert [i.kind if i else None for i in kinds] == [
        IntentKind.PRESS,
        IntentKind.ALT_PRESS,
        IntentKind.RELEASE,
        IntentKind.MOVE,
        IntentKind.WHEEL,
    ]
    assert kinds[0] is not None and kinds[0].pos == (3, 4)
    assert kinds[4] is not None and kinds[4].pos == (0, -2)


@pytest.mark.parametrize(
    ("key", "mod", "text", "kind", "letter"),
    [
        (pygame.K_TAB, pygame.KMOD_LSHIFT, "\t", IntentKind.PREV, ""),
        (pygame.K_TAB, 0, "\t", IntentKind.NEXT, ""),
        (pygame.K_PAGEDOWN, 0, "", IntentKind.PAGE_DOWN, ""),
        (pygame.K_F11, 0, "", IntentKind.FULLSCREEN, ""),
        (pygame.K_SPACE, 0, " ", IntentKind.CONFIRM, ""),
        (pygame.K_q, pygame.KMOD_LSHIFT, "Q", IntentKind.KEY, "q"),
        (pygame.K_7, 0, "7", IntentKind.KEY, ""),
    ],
)
def test_keys_translate_to_kinds_letters_and_text(
    key: int, mod: int, text: str, kind: IntentKind, letter: str
) -> None:
    intent = _key(key, mod, text)
    assert intent == Intent(kind, text=text, letter=letter)
