"""``benchmarks/round_spread.py``, the measurement behind ``utility.ROUND_SD``: it records real
matches round by round, and its Brier score judges the chance of winning honestly."""

from __future__ import annotations

import itertools

from koikoi_desktop.ai import utility
from koikoi_desktop.engine import PRESETS
from tests.benchmark_scripts import load_benchmark

round_spread = load_benchmark("round_spread")


def test_records_follow_the_matches_round_by_round() -> None:
    results, leads, records, dealer = round_spread.play("seed-003", "beginner", 3, 5)
    assert len(leads) == 3 and len(results) >= 3 * 12
    # the dealer's result is seat 0's when seat 0 dealt, else its opposite; both seats deal
    assert len(dealer) == len(results)
    assert all(d in (r, -r) for d, r in zip(dealer, results, strict=True))
    assert any(d == r != 0 for d, r in zip(dealer, results, strict=True))
    assert any(d == -r != 0 for d, r in zip(dealer, results, strict=True))
    assert len(records) == len(results) - 3  # every round but each match's last
    start = PRESETS["seed-003"].starting_balance
    first = [ctx for ctx, _, _ in records if ctx.rounds_played == 0]
    assert len(first) == 3 and all(ctx.balances == (start, start) for ctx in first)
    for (ctx, x, _), (nxt, _, _) in itertools.pairwise(records):
        if nxt.rounds_played == ctx.rounds_played + 1:  # the same match: the round settled
            assert nxt.balances[0] - nxt.balances[1] == ctx.lead + 2 * x  # zero-sum: twice
    assert {won for _, _, won in records} <= {0.0, 0.5, 1.0}


def test_brier_rewards_a_right_chance_and_restores_the_table() -> None:
    table = dict(utility.ROUND_SD)
    # coins: no learned table (issue 44), the chance is the normal spread's
    ctx = round_spread.MatchContext(0, (140, 60), 10, PRESETS["seed-000"])
    sure_win = [(ctx, 0, 1.0)] * 4  # 10 ahead with a round to go, and the match was won
    upset = [(ctx, 0, 0.0)] * 4
    assert round_spread.brier(sure_win) < 0.1 < 0.5 < round_spread.brier(upset)
    # a wider spread is less sure of the leader, which costs when he wins
    assert round_spread.brier(sure_win, 1.5) > round_spread.brier(sure_win)
    assert dict(utility.ROUND_SD) == table
