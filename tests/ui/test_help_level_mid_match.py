"""The help level changed in Settings during a match takes effect on the table under it at
once (issue 43, Found 8: the capture marks stayed on after "none"), reached as a player reaches
it: Esc, Settings, the help-level row, Back, Back. The match is recorded with the most help it
was played with."""

from __future__ import annotations

from typing import Any

import pygame

from koikoi_desktop.i18n import ENGLISH, say
from koikoi_desktop.ui.widgets import Choice

from .test_table import start_table


def _key(app: Any, key: int) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))


def _press(app: Any, pos: tuple[int, int]) -> None:
    app.stack.top.draw(pygame.display.get_surface())
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        app.dispatch(pygame.event.Event(kind, pos=pos, button=1))


def _seed_with_a_capture(app: Any, pump: Any) -> Any:
    for seed in range(1, 40):
        t = start_table(app, pump, seed)
        if t.controller.snapshot(app.words).capturable:
            return t
        while app.stack.top is not None:
            app.stack.pop()
    raise AssertionError("no seed in 1..39 deals the player a capture")


def test_help_level_none_in_settings_mid_match_turns_the_marks_off(
    ui_app: Any, pump_fn: Any
) -> None:
    t = _seed_with_a_capture(ui_app, pump_fn)
    c = t.controller
    before = c.snapshot(ui_app.words)
    assert before.capturable and before.show_tracker and c.config.help_level == "full"

    _key(ui_app, pygame.K_ESCAPE)
    pause = ui_app.stack.top
    assert pause.name == "pause"
    settings_label = ENGLISH.t("ui.title.settings")
    [settings] = [b for b in pause.buttons if say(b.label, ENGLISH) == settings_label]
    _press(ui_app, settings.rect.center)
    screen = ui_app.stack.top
    assert screen.name == "settings"
    screen.draw(pygame.display.get_surface())
    row = next(
        w
        for w in screen.frame.focus.widgets
        if isinstance(w, Choice) and say(w.label, ENGLISH) == ENGLISH.t("ui.settings.help_level")
    )
    while row.value != "none":
        _press(ui_app, (row.rect.x + 12, row.rect.centery))  # a press on the row: the next level
        row = next(w for w in screen.frame.focus.widgets if w is row or w.label == row.label)
    assert ui_app.settings.help_level == "none"
    _key(ui_app, pygame.K_ESCAPE)  # back to the pause menu
    _key(ui_app, pygame.K_ESCAPE)  # back to the table
    assert ui_app.stack.top is t

    after = c.snapshot(ui_app.words)
    assert after.capturable == frozenset() and not after.show_tracker and not after.show_hints
    assert not c.coaching
    assert c.recorder is not None and c.recorder.help_level == "full"  # the most help it had
