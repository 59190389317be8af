"""Idle costs nothing: the app's real loop sleeps on events while the screen is still, and
still shows what time brings (the card info after the pointer rests) and what moves (cards, the
computer's turn) at full rate.

No test here times anything: they count what the loop did (waits, frames drawn). The CPU it
saves is measured by ``benchmarks/idle_cpu.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as app_mod
from koikoi_desktop import engine, scenes
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.scene import HOVER_DELAY, TableScene

from .conftest import pump


def waits_then_quit(
    a: Any,
    monkeypatch: pytest.MonkeyPatch,
    calls: int,
    *,
    real: bool,
    seen: Callable[[], Any] | None,
) -> list[tuple[int, Any]]:
    """Watch the app's sleeps (``App.wait_for_events``): record each timeout in ms (and
    ``seen()`` at that moment); the sleep after ``calls`` brings a window-close event. ``real``:
    really sleep; else come back at once with no event."""
    log: list[tuple[int, Any]] = []
    real_wait = a.wait_for_events

    def wait(timeout: float) -> list[pygame.event.Event]:
        log.append((round(timeout * 1000), seen() if seen is not None else None))
        if len(log) > calls:
            return [pygame.event.Event(pygame.QUIT)]
        return real_wait(timeout) if real else []

    monkeypatch.setattr(a, "wait_for_events", wait)
    return log


def test_the_title_sleeps_instead_of_drawing(ui_app: Any, monkeypatch) -> None:
    a = ui_app
    a.stack.push(scenes.create("title", a))
    assert a.stack.still_for() == math.inf  # nothing on the title moves by itself
    log = waits_then_quit(a, monkeypatch, 5, real=False, seen=None)
    assert a.loop() == 0
    # one frame drawn, then only waits, each short enough to see a signal, and none drew
    assert a.frame == 1
    assert [t for t, _ in log] == [round(app_mod.MAX_SLEEP * 1000)] * 6


def test_the_month_reference_sleeps_too(ui_app: Any, monkeypatch) -> None:
    a = ui_app
    a.stack.push(scenes.create("title", a))
    a.stack.push(scenes.create("month-reference", a))
    log = waits_then_quit(a, monkeypatch, 3, real=False, seen=None)
    a.loop()
    assert a.frame == 1 and len(log) == 4


def test_the_ledger_sleeps_too(ui_app: Any, monkeypatch) -> None:
    """The ledger reads the database between frames (damaged rows, a newer ledger) but, with
    nothing to read, it only changes on input: it sleeps like the title."""
    a = ui_app
    a.stack.push(scenes.create("title", a))
    a.stack.push(scenes.create("ledger", a))
    assert a.stack.still_for() == math.inf
    log = waits_then_quit(a, monkeypatch, 3, real=False, seen=None)
    a.loop()
    assert a.frame == 1 and len(log) == 4


def start_table(a: Any, seed: int = 5) -> TableScene:
    a.stack.push(scenes.create("title", a))
    t = TableScene(
        a,
        screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), seed)),
    )
    a.stack.push(t)
    assert t.prompt is not None and t.prompt.key == ("first",)
    t.prompt.widgets[-1].activate()
    c = t.controller
    assert pump(t, lambda: c.my_turn() and c.state.phase == "play" and not c.busy)
    return t


def test_the_table_waiting_for_the_player_sleeps_and_the_card_info_still_comes(
    ui_app: Any, monkeypatch
) -> None:
    """The pointer comes to rest on a field card: the loop sleeps until the card-info delay is
    up (not a frame drawn meanwhile), then shows the card's info, then sleeps again."""
    a = ui_app
    t = start_table(a)
    t.update(0.0)
    assert t.still_for() == math.inf  # the player's turn, nothing moving, nothing pointed at
    card = sorted(t.controller.state.field)[0]
    x, y, w, h = t.director.sprites[card].box
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEMOTION,
            pos=(round(x + w / 2), round(y + h / 2)),
            rel=(1, 1),
            buttons=(0, 0, 0),
        )
    )
    log = waits_then_quit(a, monkeypatch, 6, real=True, seen=lambda: (t.inspected, a.frame))
    a.loop()
    timeouts = [ms for ms, _ in log]
    # the first frame (the motion) is drawn; then waits up to the hover delay, not 60 fps
    assert log[0][1] == (0, 1)
    assert all(0 < ms <= app_mod.MAX_SLEEP * 1000 for ms in timeouts)
    assert sum(timeouts[:3]) >= HOVER_DELAY * 1000 - 20
    # the info came by time alone, with no event, and stayed while the loop slept; the window
    # closing then puts the quit question over the table, which hides it (issue 46), so what
    # counts is the last sleep before the close
    inspected, frames = log[6][1]
    assert inspected == card
    assert frames <= 3  # the motion's frame, the info's frame (and at most one spare)


def test_moving_cards_and_the_computer_s_turn_run_every_frame(ui_app: Any) -> None:
    a = ui_app
    t = start_table(a)
    c = t.controller
    c.apply(c.state.legal_actions()[0])  # the player's move: cards fly, then the computer's turn
    t.update(1 / 60)
    assert t.still_for() == 0.0
    assert pump(t, lambda: not c.my_turn() and not c.busy, 5)
    assert t.still_for() == 0.0  # the computer's turn: the controller moves on by itself
    assert pump(t, lambda: c.my_turn() and not c.busy)
    t.update(0.0)
    assert t.still_for() > 0
    # a one-line message fades by itself: the loop wakes for it
    c.message, c.message_left = "hello", 1.5
    assert t.still_for() == pytest.approx(1.5)


def test_a_prompt_over_the_table_waits_until_its_reveal_is_shown(ui_app: Any) -> None:
    a = ui_app
    a.prefs.set_speed("normal")  # the reveal is staged (off shows it at once)
    a.stack.push(scenes.create("title", a))
    t = TableScene(
        a, screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), 5))
    )
    a.stack.push(t)
    prompt = t.prompt
    assert prompt is not None and a.stack.top is prompt
    assert a.stack.still_for() == 0.0  # the first-dealer cards turn over
    pump(prompt, lambda: prompt.reveal is None or prompt.reveal.done)
    prompt.update(1 / 60)
    assert a.stack.still_for() > 0  # then it waits for the player's answer


def test_the_review_sleeps_once_its_analysis_is_done(ui_app: Any, monkeypatch) -> None:
    from koikoi_desktop.ai import make_opponent
    from koikoi_desktop.scenes.review import scene as review_mod

    monkeypatch.setattr(review_mod, "WORLDS", 4)
    m = engine.new_match(engine.PRESETS["nintendo"], first_dealer=0, seed=4, rounds=1)
    bots = [make_opponent("beginner", seed=4), make_opponent("intermediate", seed=5)]
    while m.outcome is None:
        p = m.round.to_move
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    a = ui_app
    a.stack.push(scenes.create("title", a))
    rv = a.stack.push(a.router.build(screens.Review(record=engine.match_record(m), inline=True)))
    assert isinstance(rv, review_mod.ReviewScene) and rv.runner is not None
    assert a.stack.still_for() == review_mod.ANALYSIS_LOOK  # the progress is looked at
    assert pump(rv, lambda: rv.runner is None, 600)
    assert a.stack.still_for() == math.inf
