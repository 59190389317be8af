"""A choice row's arrows, clicked as a player clicks them (issue 43, Found 4): the "‹" drawn
beside the value at the row's right end steps back, the "›" and the rest of the row forward.
Before, a press left of the row's middle stepped back, so the "‹" (on the right) went forward:
Rounds 12 -> 3 -> 6 -> 12."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import scenes
from koikoi_desktop.i18n import say
from koikoi_desktop.ui.widgets import Choice


def _app(tmp_path: Path, lang: str) -> Any:
    args = appmod.parse_args(["--data-dir", str(tmp_path / "data"), "--lang", lang])
    a = appmod.App(args)
    appmod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.stack.push(scenes.create("title", a))
    return a


def _press(a: Any, pos: tuple[int, int]) -> None:
    a.stack.top.draw(pygame.display.get_surface())  # the player sees the screen, then clicks
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        a.dispatch(pygame.event.Event(kind, pos=pos, button=1))


def _row(scene: Any, words: Any, key: str) -> Choice:
    label = words.t(key)
    return next(
        w
        for w in scene.frame.focus.widgets
        if isinstance(w, Choice) and say(w.label, words) == label
    )


@pytest.mark.parametrize("lang", ["en", "uk", "ja"])
def test_the_back_arrow_on_the_new_game_screen_goes_back(tmp_path: Path, lang: str) -> None:
    a = _app(tmp_path, lang)
    try:
        a.stack.push(scenes.create("new-game", a))
        scene = a.stack.top
        scene.draw(pygame.display.get_surface())
        # the first row with three or more choices (the preset), found again after each press
        # (a new preset lays the rows out anew)
        label = next(
            w.label for w in scene.focus.widgets if isinstance(w, Choice) and len(w.options) > 2
        )

        def row() -> Choice:
            return next(
                w for w in a.stack.top.focus.widgets if isinstance(w, Choice) and w.label == label
            )

        start = row().value
        values = [v for v, _ in row().options]
        zone = row().back_zone
        assert zone is not None
        _press(a, zone.center)
        assert row().value == values[(values.index(start) - 1) % len(values)]
        # the "›" at the row's right end and the label both go forward
        _press(a, (row().rect.right - 12, row().rect.centery))
        assert row().value == start
        _press(a, (row().rect.x + 12, row().rect.centery))
        assert row().value == values[(values.index(start) + 1) % len(values)]
    finally:
        a.close_storage()
        pygame.display.quit()


def test_the_back_arrow_on_the_settings_screen_goes_back(tmp_path: Path) -> None:
    a = _app(tmp_path, "en")
    try:
        a.stack.push(scenes.create("settings", a))
        scene = a.stack.top
        scene.draw(pygame.display.get_surface())
        speed = _row(scene, a.words, "ui.settings.animation_speed")
        start = speed.index
        assert speed.back_zone is not None
        _press(a, speed.back_zone.center)
        assert speed.index == (start - 1) % len(speed.options)
        assert a.settings.animation_speed == speed.value  # the setting itself moved back
    finally:
        a.close_storage()
        pygame.display.quit()
