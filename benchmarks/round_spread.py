"""Measure the spread of one round's result, the figure behind ``utility.ROUND_SD``.

    python benchmarks/round_spread.py [--matches 200] [--seed 1] [--level intermediate]

``--level`` plays itself ``--matches`` whole matches of every preset, every decision asked with
the seat's match context, as in the game. For each settled round the result is counted from
seat 0 (+final when seat 0 wins it, −final when seat 1 does, 0 for a drawn round); the script
prints, per preset, the mean and the standard deviation of that result and of a match's final
lead divided by √rounds (the two agree when rounds are independent), and the pace: the points a
player adds in an average round (half the mean size of a result; ``utility.RACE_PACE``, how many
rounds a race to a target should last). ``MatchGoal`` turns a lead into a chance of winning the
match with this spread, so both should be the measured ones. The last columns check that chance
(the one the match review shows) against how the matches ended: the mean squared error (Brier
score) of ``MatchGoal.win_chance`` after every round that left the match open, with the table's
spreads as they are (×1.0) and scaled by 0.75, 1.25 and 1.5 — the table is right where ×1.0 scores
lowest. The ``dealer`` column is the round's result counted from its dealer (mean and standard
error): what the deal is worth (R-SETUP-3: the winner deals next), the figure behind the
Expert's ``deal_edge`` study (issue 13, thirteenth attempt).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import make_opponent, utility
from koikoi_desktop.ai.utility import MatchGoal
from koikoi_desktop.engine import PRESETS, MatchContext
from koikoi_desktop.engine.match import new_match

Record = tuple[MatchContext, int, float]  # context before a round, its result, match result


def play(
    preset: str, level: str, matches: int, seed: int
) -> tuple[list[int], list[float], list[Record], list[int]]:
    """Self-play ``matches`` matches of ``preset``: every round's result (from seat 0), each
    match's final lead / √rounds, for every round after which the match went on the context
    before it, its result and the match's result for seat 0 (1, ½ or 0), and every round's
    result from its dealer."""
    rules = PRESETS[preset]
    dealer: list[int] = []
    results: list[int] = []
    leads: list[float] = []
    records: list[Record] = []
    for i in range(matches):
        bots = [make_opponent(level, seed=seed * 1000 + 2 * i + s) for s in (0, 1)]
        m = new_match(rules, first_dealer=i % 2, seed=seed * 100_003 + i)
        while m.outcome is None:
            p = m.round.to_move
            assert p is not None
            m.apply(bots[p].choose(m.round.view(p), m.context(p)))
        outcome = m.outcome
        won = 0.5 if outcome.winner is None else float(outcome.winner == 0)
        before = (rules.starting_balance, rules.starting_balance)
        for n, e in enumerate(m.ledger):
            x = 0 if e.winner is None else (e.final if e.winner == 0 else -e.final)
            results.append(x)
            dealer.append(x if e.dealer == 0 else -x)
            if n + 1 < len(m.ledger):
                records.append((MatchContext(0, before, n, rules), x, won))
            before = e.balances
        bal = outcome.balances
        leads.append((bal[0] - bal[1]) / math.sqrt(len(m.ledger)))
    return results, leads, records, dealer


def brier(records: list[Record], scale: float = 1.0) -> float:
    """Mean squared error of ``MatchGoal.win_chance`` after each round against the match's
    result, with every preset's ``ROUND_SD`` multiplied by ``scale`` (1: as the game has it)."""
    table = dict(utility.ROUND_SD)
    utility.ROUND_SD = {k: v * scale for k, v in table.items()}
    try:
        err = [(MatchGoal(ctx).win_chance(x) - won) ** 2 for ctx, x, won in records]
    finally:
        utility.ROUND_SD = table
    return statistics.fmean(err) if err else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", default="intermediate")
    ap.add_argument("--preset", action="append", help="one preset (repeatable); default all")
    args = ap.parse_args(argv)
    scales = (0.75, 1.0, 1.25, 1.5)
    print(f"{args.level} self-play, {args.matches} matches a preset, seed {args.seed}")
    head = " ".join(f"{'brier×' + str(x):>11}" for x in scales)
    cols = f"{'rounds':>7} {'mean':>6} {'sd':>6} {'lead/√n':>8} {'pace':>5}"
    print(f"{'preset':<10} {cols} {head} {'dealer (se)':>14} {'s':>4}")
    for preset in args.preset or list(PRESETS):
        t0 = time.process_time()
        results, leads, records, dealer = play(preset, args.level, args.matches, args.seed)
        dt = time.process_time() - t0
        briers = " ".join(f"{brier(records, x):>11.4f}" for x in scales)
        dealer_se = statistics.stdev(dealer) / math.sqrt(len(dealer))
        print(
            f"{preset:<10} {len(results):>7} {statistics.fmean(results):>+6.2f}"
            f" {statistics.pstdev(results):>6.2f} {statistics.pstdev(leads):>8.2f}"
            f" {statistics.fmean(abs(r) for r in results) / 2:>5.2f} {briers}"
            f" {statistics.fmean(dealer):>+7.2f} ({dealer_se:.2f})"
            f" {dt:>4.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
