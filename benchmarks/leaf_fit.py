"""Fit the Expert's look-ahead score (issue 13): how a round's result follows a position.

    python benchmarks/leaf_fit.py [--rounds 4000] [--seed 1] [--preset nintendo]

Intermediate plays itself for ``--rounds`` rounds. At every play-phase position before any
koi-koi the script records, for the player to move: the standing (``Knowledge.standing``: his
yaku and potential less the opponent's), his best capture on the field (``best_capture``) and
the opponent's best capture on the same field; and, once the round is over, the round's result
for him (+points won, −points lost, 0). It prints the least-squares fit of the result on those
three figures (and on the standing alone) by stage of the round and pooled from turn 4 — where
the Expert's look-ahead, 4 turns, stops — with the share of the variance each explains (R²).
``Expert.leaf_weight``, ``leaf_mover`` and ``leaf_reply`` are the pooled coefficients.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.engine import PRESETS
from koikoi_desktop.engine.round import new_round

Row = tuple[int, float, float, float, int]  # turn, standing, mine, his, result


def positions(preset: str, rounds: int, seed: int) -> list[Row]:
    rules = PRESETS[preset]
    k = knowledge_for(rules)
    rng = random.Random(seed)
    bots = [make_opponent("intermediate", seed=seed), make_opponent("intermediate", seed=seed + 1)]
    rows: list[Row] = []
    for r in range(rounds):
        s = new_round(rules, dealer=r % 2, rng=rng)
        seen: list[tuple[int, int, float, float, float]] = []
        while s.outcome is None:
            p = s.to_move
            assert p is not None
            if s.phase == "play" and not (s.calls[0] or s.calls[1]):
                me, opp, field = s.caps[p], s.caps[1 - p], s.field_mask
                seen.append(
                    (
                        p,
                        s.turns[0] + s.turns[1],
                        k.standing(me, opp),
                        k.best_capture(s.hands[p], field, me, opp),
                        k.best_capture(s.hands[1 - p], field, opp, me),
                    )
                )
            action, _ = bots[p].decide(s.view(p), None, rng)
            s.step(action, events=False)
        outcome = s.outcome
        for p, turn, standing, mine, his in seen:
            rows.append((turn, standing, mine, his, outcome.points_for(p)))
    return rows


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the normal equations are tiny)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(xs: list[list[float]], ys: list[float]) -> tuple[list[float], float]:
    """Least squares of ``ys`` on the columns of ``xs`` plus a constant: (coefficients, R²)."""
    rows = [[*x, 1.0] for x in xs]
    n = len(rows[0])
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    aty = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(n)]
    beta = solve(ata, aty)
    mean = sum(ys) / len(ys)
    resid = sum(
        (y - sum(b * v for b, v in zip(beta, r, strict=True))) ** 2
        for r, y in zip(rows, ys, strict=True)
    )
    total = sum((y - mean) ** 2 for y in ys)
    return beta, 1.0 - resid / total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="nintendo", choices=sorted(PRESETS))
    args = ap.parse_args()
    rows = positions(args.preset, args.rounds, args.seed)
    print(f"{len(rows):,} positions of {args.rounds:,} rounds ({args.preset}, seed {args.seed})")
    print("turns   positions  standing alone (slope, R²)   standing / mine / his (R²)")
    stages = (("0-3", 0, 4), ("4-7", 4, 8), ("8-11", 8, 12), ("12+", 12, 99), ("4+ pooled", 4, 99))
    for label, lo, hi in stages:
        part = [r for r in rows if lo <= r[0] < hi]
        ys = [float(r[4]) for r in part]
        one, r2_one = fit([[r[1]] for r in part], ys)
        three, r2_three = fit([[r[1], r[2], r[3]] for r in part], ys)
        print(
            f"{label:<14}{len(part):>8,}  {one[0]:6.3f}  {r2_one:.3f}        "
            f"{three[0]:6.3f} {three[1]:6.3f} {three[2]:6.3f}  {r2_three:.3f}"
        )


if __name__ == "__main__":
    main()
