"""How long the match review takes for a whole 12-round match (issue 14, item 3).

    python benchmarks/review_speed.py [--matches 3] [--preset nintendo] [--worlds 160]

Plays ``--matches`` 12-round matches (seeded; Beginner against Expert at 300 playouts, seats
alternating, so both a weak and a strong seat are judged), then reviews each one at the
review budget. Two figures per match:

* ``inline_s``: :func:`koikoi_desktop.review.analysis.review_record` on this thread — the
  analysis on one core, nothing else running;
* ``worker_s``: the same through :class:`koikoi_desktop.review.runner.ReviewRunner` (the worker
  process the review screen uses), polled every 16 ms like a 60 fps frame loop.

Target: under 60 s per 12-round match on one core of a 2-core machine. The last line on stdout
is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.engine import PRESETS, match_record, new_match
from koikoi_desktop.review.analysis import decision_points, review_record
from koikoi_desktop.review.runner import ReviewRunner
from koikoi_desktop.review.timeline import Timeline


def play(preset: str, seed: int) -> str:
    """A 12-round match, Beginner against Expert (seats alternate with the seed)."""
    levels = ("beginner", "expert") if seed % 2 == 0 else ("expert", "beginner")
    bots = [make_opponent(levels[p], seed=seed + p, budget=300) for p in (0, 1)]
    m = new_match(PRESETS[preset], first_dealer=seed % 2, seed=seed, rounds=12)
    while m.outcome is None:
        p = m.round.to_move
        assert p is not None
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    return match_record(m)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--preset", default="nintendo")
    ap.add_argument("--worlds", type=int, default=REVIEW_WORLDS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-worker", action="store_true", help="time the inline analysis only")
    args = ap.parse_args(argv)
    rows = []
    for i in range(args.matches):
        record = play(args.preset, args.seed + i)
        timeline = Timeline.from_record(record)
        n = len(decision_points(timeline))
        t0 = time.perf_counter()
        review = review_record(record, worlds=args.worlds)
        inline_s = time.perf_counter() - t0
        row = {
            "rounds": len(timeline.deals),
            "decisions": n,
            "inline_s": round(inline_s, 2),
            "ms_per_decision": round(inline_s * 1000 / max(1, n), 1),
        }
        if not args.no_worker:
            runner = ReviewRunner(timeline, decision_points(timeline), worlds=args.worlds)
            t0 = time.perf_counter()
            runner.start()
            got = 0
            while not runner.finished:
                got += len(runner.poll())
                time.sleep(0.016)
            row["worker_s"] = round(time.perf_counter() - t0, 2)
            assert got == n and runner.error is None
        seats = review.summary()["seats"]
        row["mean_loss"] = [s["mean_loss"] for s in seats]
        rows.append(row)
        print(
            f"match {i + 1}: {row['rounds']} rounds, {n} decisions, inline {row['inline_s']} s "
            f"({row['ms_per_decision']} ms/decision)"
            + (f", worker {row['worker_s']} s" if "worker_s" in row else ""),
            file=sys.stderr,
        )
    worst = max(r["inline_s"] for r in rows)
    print(json.dumps({"worlds": args.worlds, "matches": rows, "worst_inline_s": worst,
                      "target_s": 60}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
