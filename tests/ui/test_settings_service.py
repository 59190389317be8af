"""The one settings service (issue 43): the Settings model is the only home of a setting, what
derives from it is computed from it, and a change made in the settings screen takes effect at
once on the screen under it (found 8: the help level changed to none mid-match, through Esc ->
Settings, left the capture marks on; tests/ui/test_help_level_mid_match.py checks it after
Back, this test while the settings screen is still open over the table)."""

from __future__ import annotations

from typing import Any

import pygame

from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.ui.widgets import Choice, Widget
from tests.ui.test_table import start_table


def click(app: Any, pos: tuple[int, int]) -> None:
    """A real left click: the pygame events, through the app's dispatch (as the loop does)."""
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        app.dispatch(pygame.event.Event(kind, button=1, pos=pos))


def key(app: Any, k: int) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def widget_labelled(widgets: list[Widget], label: str) -> Widget:
    return next(w for w in widgets if getattr(w, "label", None) == Key(label))


def marks(t: TableScene) -> frozenset[int]:
    """The hand cards marked as able to capture, as the table would draw them now."""
    return t.controller.snapshot(t.app.words).capturable


def test_help_level_none_in_settings_mid_match_takes_the_marks_off_at_once(
    ui_app: Any, pump_fn: Any
) -> None:
    a = ui_app
    t = start_table(a, pump_fn, seed=next(s for s in range(40) if _marks_at_start(a, pump_fn, s)))
    assert marks(t)  # help level full: the cards that can capture are marked
    key(a, pygame.K_ESCAPE)  # the pause menu, over the table
    pause = a.stack.top
    assert pause is not None and pause.name == "pause"
    a.stack.draw(a.screen)
    click(a, widget_labelled(pause.focus.widgets, "ui.title.settings").rect.center)
    settings = a.stack.top
    assert settings is not None and settings.name == "settings"
    row = next(
        w
        for _, w in settings.rows
        if isinstance(w, Choice) and w.label == Key("ui.settings.help_level")
    )
    while not settings.viewport().contains(row.rect):  # the wheel brings the row into view
        a.dispatch(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1))
    a.stack.draw(a.screen)
    while row.value != "none":  # "›": the next level
        click(a, (row.rect.right - 12, row.rect.centery))
    assert a.settings.help_level == "none"
    assert not marks(t)  # the table under the settings took it at once
    key(a, pygame.K_ESCAPE)  # back to the pause menu
    key(a, pygame.K_ESCAPE)  # back to the table
    assert a.stack.top is t
    assert not marks(t) and t.controller.config.help_level == "none"
    # the ledger keeps the most help the match was played with
    assert t.controller.recorder is not None and t.controller.recorder.help_level == "full"


def _marks_at_start(app: Any, pump: Any, seed: int) -> bool:
    """The match of ``seed`` starts with a hand card that can capture (so there are marks)."""
    t = start_table(app, pump, seed)
    found = bool(marks(t))
    while app.stack.top is not None:
        app.stack.pop()
    return found


def test_what_derives_from_the_settings_is_read_from_them(ui_app: Any) -> None:
    """The scale, the speed, reduced motion, click-to-move are the model's, never copies: a
    change through the service is what the app reads next, and the app cannot be told another
    value (no setter)."""
    a = ui_app
    new = a.prefs.draft()
    new.ui_scale, new.reduced_motion, new.click_to_move = 1.25, True, True
    a.prefs.apply(new)
    assert (a.ui_scale, a.reduced_motion, a.click_mode) == (1.25, True, True)
    assert a.anim_speed == "off"  # --speed off: the start's choice, until the player picks one
    a.prefs.set_speed("fast")
    assert a.anim_speed == "fast" == a.settings.animation_speed
    for name in ("ui_scale", "anim_speed", "reduced_motion", "click_mode", "words"):
        try:
            setattr(a, name, None)
        except AttributeError:
            continue
        raise AssertionError(f"app.{name} took a value of its own")


def test_the_app_imports_nothing_of_the_opponents() -> None:
    """The app builds screens and services: the coach's and the review's budget is the
    review's own fact (review/coach.py), not the app's."""
    from tests.test_import_cycles import import_graph

    deps = import_graph()["koikoi_desktop.app"]
    assert not [d for d in deps if d.startswith("koikoi_desktop.ai")]
