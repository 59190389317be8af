"""Hot seat (the curtain hides the hands between turns) and practice mode (undo, suggest)."""

from __future__ import annotations

from typing import Any

from koikoi_desktop import engine

from .test_table import start_table


def test_hot_seat_curtain_between_turns(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 5, seats=("human", "human"))
    first = t.state.to_move
    assert t.viewer == first and not t.curtain
    t.apply(next(a for a in t.state.legal_actions() if a.kind == "play"))
    assert pump_fn(t, lambda: t.curtain or t.state.to_move == first or t.prompt is not None)
    if t.state.to_move != first and t.state.phase == "play":
        assert t.curtain and t.prompt is not None and t.prompt.opaque
        assert t.director.hide_hands == {0, 1}  # nobody's cards show behind the curtain
        t.prompt.widgets[-1].activate()  # Ready
        assert t.viewer == t.state.to_move and not t.curtain


def test_practice_undo_restores_the_position(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 8, seats=("human", "beginner"), practice=True)
    hand = sorted(t.state.hand(0))
    before = engine.match_record(t.match)
    t.apply(next(a for a in t.state.legal_actions() if a.kind == "play"))
    pump_fn(t, lambda: t.my_turn() or t.prompt is not None or t.waiting_summary)
    if t.waiting_summary or t.match.round_number != 1:
        return  # the round ended at once: nothing to undo in it
    assert t.can_undo()
    t.undo()
    assert sorted(t.state.hand(0)) == hand
    assert engine.match_record(t.match) == before


def test_practice_suggest_names_a_move(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 8, seats=("human", "beginner"), practice=True)
    t.suggest()
    assert t.suggestion
