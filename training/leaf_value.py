"""Fit the Expert's learned look-ahead value (``koikoi_desktop/ai/value.py``; issue 44, item 2).

    python training/leaf_value.py --rounds 24000 --block 400 --seed 11 \\
        [--checkpoint PATH] [--out PATH]

1. **Self-play.** Two Intermediates play ``--rounds`` lone nintendo rounds, in blocks of
   ``--block``; block ``b`` is dealt and played from seeds derived from ``(--seed, b)`` alone.
   Every play-phase position is a sample twice, once from each seat: its features
   (``value.sparse_features``: where each card lies, the standing, who moves, the calls) and the
   round's result for that seat as the target.
2. **Sufficient statistics.** Each stage of the round (``value.STAGES``) accumulates XᵀX, Xᵀy
   and the count. They are all a least-squares fit needs, so the checkpoint (``--checkpoint``,
   JSON, written after every block) holds them and the blocks done: a run stopped and continued
   gives the same sums, in the same order, as one run.
3. **The fit.** Ridge regression per stage (``--ridge`` on every weight but the bias), solved in
   pure Python; the held-out check (``--holdout``: every n-th block kept out of the fit) prints
   R² of the model and of the standing alone on those blocks. Decision (issue 44, fifteenth
   attempt in benchmarks/EXPERT.md): ridge 300, the best of 300 / 1,000 / 3,000 / 10,000 on the
   held-out blocks of the shipped run (R² 0.2329 / 0.2315 / 0.2298 / 0.2250; the fit is flat
   there, 440,000 positions against some 300 weights a stage). A run stopped and continued
   from its checkpoint may be fitted again with another ``--ridge`` without playing anything
   but the held-out blocks.

The weights go to ``koikoi_desktop/ai/data/leaf_value.json`` with the command, the commit, the
seed and the number of rounds and positions.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

from koikoi_desktop.ai import make_opponent  # noqa: E402
from koikoi_desktop.ai.knowledge import knowledge_for  # noqa: E402
from koikoi_desktop.ai.value import (  # noqa: E402
    DENSE,
    DENSE0,
    LOCATIONS,
    N_FEATURES,
    PROGRESS_GOALS,
    STAGES,
    sparse_features,
    stage_of,
)
from koikoi_desktop.engine import PRESETS, new_round  # noqa: E402

OUT = ROOT / "koikoi_desktop" / "ai" / "data" / "leaf_value.json"
F = N_FEATURES

Sample = tuple[int, list[int], list[float], float]  # stage, card indices, dense, target


def play_block(seed: int, block: int, rounds: int) -> list[Sample]:
    """Self-play ``rounds`` lone rounds of block ``block``: every play-phase position, from
    both seats."""
    rules = PRESETS["nintendo"]
    k = knowledge_for(rules)
    out: list[Sample] = []
    for r in range(rounds):
        base = ((seed * 1_000_003 + block) * 10_007 + r) * 4
        bots = [make_opponent("intermediate", seed=base + s) for s in (0, 1)]
        s = new_round(rules, dealer=r % 2, rng=random.Random(base + 3))
        pos: list[tuple[int, list[int], list[float], int]] = []
        while s.outcome is None:
            p = s.to_move
            assert p is not None
            if s.phase == "play":
                st = stage_of(s.turns[0] + s.turns[1])
                for me in (0, 1):
                    idx, dense = sparse_features(s, me, k)
                    pos.append((st, idx, dense, me))
            s.apply(bots[p].choose(s.view(p), None))
        for st, idx, dense, me in pos:
            out.append((st, idx, dense, float(s.outcome.points_for(me))))
    return out


def empty_stats() -> dict[str, list[float] | int]:
    return {"xtx": [0.0] * (F * F), "xty": [0.0] * F, "yy": 0.0, "n": 0}  # type: ignore[dict-item]


def accumulate(stats: list[dict[str, object]], samples: list[Sample]) -> None:
    for st, idx, dense, y in samples:
        d = stats[st]
        xtx: list[float] = d["xtx"]  # type: ignore[assignment]
        xty: list[float] = d["xty"]  # type: ignore[assignment]
        nz = [(i, 1.0) for i in idx] + [(DENSE0 + j, x) for j, x in enumerate(dense) if x]
        for i, xi in nz:
            row = i * F
            xty[i] += xi * y
            for j, xj in nz:
                xtx[row + j] += xi * xj
        d["yy"] = float(d["yy"]) + y * y  # type: ignore[arg-type]
        d["n"] = int(d["n"]) + 1  # type: ignore[call-overload]


def solve(a: list[float], b: list[float], ridge: float) -> list[float]:
    """(A + ridge·I′) w = b by Gaussian elimination with partial pivoting (I′: every weight
    but the bias); unused features get weight 0."""
    n = len(b)
    m = [[*a[i * n : (i + 1) * n], b[i]] for i in range(n)]
    for i in range(n):
        if i != DENSE0:  # the bias is not shrunk
            m[i][i] += ridge
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        if abs(piv) < 1e-12:
            continue
        inv = 1.0 / piv
        rowc = m[c]
        for r in range(c + 1, n):
            f = m[r][c] * inv
            if f:
                rowr = m[r]
                for j in range(c, n + 1):
                    rowr[j] -= f * rowc[j]
    w = [0.0] * n
    for i in range(n - 1, -1, -1):
        if abs(m[i][i]) < 1e-12:
            continue
        s = m[i][n] - sum(m[i][j] * w[j] for j in range(i + 1, n))
        w[i] = s / m[i][i]
    return w


def r2(samples: list[Sample], weights: list[list[float]]) -> tuple[float, float]:
    """R² on ``samples`` of the model and of the best line through the standing alone."""
    ys = [y for *_, y in samples]
    mean = sum(ys) / len(ys)
    tot = sum((y - mean) ** 2 for y in ys)
    res = 0.0
    xs = [d[1] for _, _, d, _ in samples]
    mx = sum(xs) / len(xs)
    sxy = sum((x - mx) * (y - mean) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs) or 1.0
    slope = sxy / sxx
    res_std = sum((y - mean - slope * (x - mx)) ** 2 for x, y in zip(xs, ys, strict=True))
    for st, idx, dense, y in samples:
        w = weights[st]
        v = sum(w[i] for i in idx) + sum(w[DENSE0 + j] * x for j, x in enumerate(dense))
        res += (y - v) ** 2
    return 1.0 - res / tot, 1.0 - res_std / tot


def commit() -> str:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--block", type=int, default=200, help="rounds between checkpoints")
    ap.add_argument("--holdout", type=int, default=10, help="every n-th block is held out")
    ap.add_argument("--ridge", type=float, default=300.0)
    ap.add_argument("--checkpoint", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    blocks = max(1, args.rounds // args.block)
    state: dict[str, object] = {
        "seed": args.seed,
        "block": args.block,
        "blocks_done": 0,
        "stats": [empty_stats() for _ in STAGES],
    }
    if args.checkpoint is not None and args.checkpoint.exists():
        state = json.loads(args.checkpoint.read_text())
        if (state["seed"], state["block"]) != (args.seed, args.block):
            raise SystemExit(f"{args.checkpoint} was made with another --seed or --block")
    stats: list[dict[str, object]] = state["stats"]  # type: ignore[assignment]
    t0 = time.process_time()
    held: list[Sample] = []
    done = int(state["blocks_done"])  # type: ignore[call-overload]
    for b in range(done, blocks):
        samples = play_block(args.seed, b, args.block)
        if args.holdout and b % args.holdout == args.holdout - 1:
            held.extend(samples)  # held out: not in the sums (held-out blocks are replayed)
        else:
            accumulate(stats, samples)
        state["blocks_done"] = b + 1
        if args.checkpoint is not None:
            args.checkpoint.write_text(json.dumps(state))
        print(f"block {b + 1}/{blocks}, {time.process_time() - t0:.0f} s CPU", flush=True)
    if args.holdout and done:  # held-out blocks played before a resume: play them again
        for b in range(args.holdout - 1, done, args.holdout):
            held.extend(play_block(args.seed, b, args.block))
    weights = []
    for d in stats:
        w = solve(d["xtx"], d["xty"], args.ridge)  # type: ignore[arg-type]
        weights.append([round(x, 4) for x in w])
    positions = [int(d["n"]) for d in stats]  # type: ignore[call-overload]
    fit_rounds = sum(
        args.block
        for b in range(blocks)
        if not (args.holdout and b % args.holdout == args.holdout - 1)
    )
    report = {}
    if held:
        model, standing = r2(held, weights)
        report = {"holdout_r2": round(model, 4), "holdout_r2_standing": round(standing, 4)}
        print(
            f"held-out R²: model {model:.4f}, standing alone {standing:.4f} ({len(held)} samples)"
        )
    out = {
        "what": "ridge fit of the round result per stage: card locations "
        + "/".join(LOCATIONS)
        + ", each seat's cards missing (1/2/3) of "
        + "/".join(PROGRESS_GOALS)
        + ", then "
        + "/".join(DENSE),
        "command": "python training/leaf_value.py " + " ".join(argv or sys.argv[1:]),
        "commit": commit(),
        "seed": args.seed,
        "rounds": fit_rounds,
        "positions": positions,
        "ridge": args.ridge,
        **report,
        "weights": weights,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
