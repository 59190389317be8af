"""The match context a seat is asked with (issue 13): the engine's own settlement and match end."""

from __future__ import annotations

import random

import pytest

from koikoi_desktop.engine import PRESETS, MatchContext, new_match


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_context_predicts_what_the_match_then_does(preset: str) -> None:
    """Before every move, ``context(seat).after(winner, final)`` of the round's real result
    gives the balances and the match end that the match itself then records."""
    rng = random.Random(7)
    for seed in range(6):
        m = new_match(PRESETS[preset], first_dealer=seed % 2, seed=seed, rounds=3)
        checked = 0
        while m.outcome is None:
            seat = m.round.to_move
            assert seat is not None
            ctx = m.context(seat)
            assert ctx.seat == seat and ctx.balances == m.balances
            assert ctx.rounds_played == len(m.ledger)
            before = len(m.ledger)
            m.apply(rng.choice(m.round.legal_actions()))
            if len(m.ledger) > before:
                entry = m.ledger[before]
                bal, end = ctx.after(entry.winner, entry.final)
                assert bal == entry.balances
                if len(m.ledger) == before + 1:  # no instant next-round end in between
                    assert (end is None) == (m.outcome is None)
                    if end is not None:
                        assert end == m.outcome
                checked += 1
        assert checked >= 1


def test_context_fields_per_preset() -> None:
    nin = MatchContext(0, (12, 20), 4, PRESETS["nintendo"])
    assert (nin.lead, nin.rounds_left, nin.target, nin.unit, nin.bankruptcy) == (
        -8,
        7,
        None,
        "points",
        False,
    )
    race = MatchContext(1, (40, 44), 9, PRESETS["seed-001"])
    assert race.match_end == "target" and race.target == 50 and race.rounds_left is None
    assert race.after(1, 6)[1] is not None and race.after(1, 5)[1] is None
    coins = MatchContext(0, (95, 5), 2, PRESETS["seed-000"])
    assert coins.unit == "coins" and coins.bankruptcy
    bal, end = coins.after(0, 12)
    assert bal == (100, 0) and end is not None and end.reason == "bankruptcy" and end.winner == 0
    extra = MatchContext(0, (10, 4), 12, PRESETS["seed-003"])  # an extra round after a tie
    assert extra.rounds_left == 0 and extra.last_round
    assert extra.after(1, 3)[1] is None  # zero-sum 7-7: one more round
    with pytest.raises(ValueError):
        MatchContext(2, (0, 0), 0, PRESETS["nintendo"])
