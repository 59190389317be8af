"""Decision latency of each computer level, as the table would see it (issue 5, item 4).

    python benchmarks/ai_latency.py [--rounds 12] [--preset nintendo] [--levels expert ...]

Each level plays ``--rounds`` rounds (whole matches of 12, or fewer) in seat 0 against an
Intermediate in seat 1, with its play budget (Expert: ``koikoi_desktop.ai.PLAY_BUDGET``, or
``--expert-budget``). Every decision of seat 0 is timed with ``time.perf_counter`` around
``choose(view, context)`` (with the seat's match context, as in the game); the script prints
p50 / p95 / max per level, over all decisions and over the decisions with a real choice (two or
more legal actions). Targets: Beginner and Intermediate p95 < 50 ms, Expert p95 < 1 s.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import LEVELS, PLAY_BUDGET, Budget, make_opponent
from koikoi_desktop.ai.arena import percentile
from koikoi_desktop.engine import PRESETS, new_match


def measure(level: str, preset: str, rounds: int, seed: int, budget: Budget | None) -> dict:
    bot = make_opponent(level, seed=seed, budget=budget)
    rival = make_opponent("intermediate", seed=seed + 1)
    all_ms: list[float] = []
    choice_ms: list[float] = []
    played = 0
    match_no = 0
    while played < rounds:
        m = new_match(PRESETS[preset], first_dealer=match_no % 2, seed=seed + match_no)
        match_no += 1
        while m.outcome is None and played < rounds:
            seat = m.round.to_move
            assert seat is not None
            view = m.round.view(seat)
            if seat == 0:
                t0 = time.perf_counter()
                action = bot.choose(view, m.context(seat))
                ms = (time.perf_counter() - t0) * 1000.0
                all_ms.append(ms)
                if len(view.legal) > 1:
                    choice_ms.append(ms)
            else:
                action = rival.choose(view, m.context(seat))
            before = len(m.ledger)
            m.apply(action)
            played += len(m.ledger) - before

    def stats(xs: list[float]) -> dict:
        return {
            "n": len(xs),
            "p50": round(percentile(xs, 50) or 0.0, 2),
            "p95": round(percentile(xs, 95) or 0.0, 2),
            "max": round(max(xs), 2) if xs else 0.0,
        }

    return {
        "level": level,
        "budget": (budget or (PLAY_BUDGET if level == "expert" else None)).describe()
        if level == "expert"
        else None,
        "all": stats(all_ms),
        "choices": stats(choice_ms),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--preset", default="nintendo", choices=sorted(PRESETS))
    ap.add_argument("--levels", nargs="*", default=list(LEVELS), choices=LEVELS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--expert-budget", default=None, help="e.g. 550ms or 1200 (playouts)")
    args = ap.parse_args()
    budget = Budget.parse(args.expert_budget) if args.expert_budget else None
    results = []
    for level in args.levels:
        r = measure(
            level, args.preset, args.rounds, args.seed, budget if level == "expert" else None
        )
        results.append(r)
        a, c = r["all"], r["choices"]
        print(
            f"{level:12s} all decisions: n={a['n']:4d} p50={a['p50']:8.2f} ms "
            f"p95={a['p95']:8.2f} ms max={a['max']:8.2f} ms | with a choice: n={c['n']:4d} "
            f"p50={c['p50']:8.2f} ms p95={c['p95']:8.2f} ms",
            flush=True,
        )
    print(json.dumps({"preset": args.preset, "rounds": args.rounds, "levels": results}))


if __name__ == "__main__":
    main()
