"""The coach's added decision latency (issue 37): how long after the person's move its line can
be shown.

    python benchmarks/coach_latency.py [--matches 2] [--preset nintendo] [--worlds 160]

Plays ``--matches`` 12-round matches (seeded; an Intermediate in seat 0 — the "person" — against
a Beginner, as at the table), and at every decision of seat 0 with a real choice builds the
coach's :class:`~koikoi_desktop.review.analysis.DecisionPoint` (``review.coach.decision_point``,
before the move) and measures, at the coach's budget (the review's worlds):

* ``inline_ms``: :func:`koikoi_desktop.review.analysis.judge` on this thread (the judgement's
  own cost on one core);
* ``worker_ms``: from :meth:`koikoi_desktop.review.coach.Coach.ask` to the frame whose
  :meth:`~koikoi_desktop.review.coach.Coach.poll` returns the judgement — the coach's worker
  process as the game runs it, polled every 16 ms like the 60 fps frame loop (this is the
  latency the player sees, beside the table's own pace);
* ``dropped``: judgements the coach would have dropped (later than its bound).

Target: worker p95 under 1 s. The last line on stdout is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.arena import percentile
from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.engine import PRESETS, new_match
from koikoi_desktop.review.analysis import DecisionPoint, judge
from koikoi_desktop.review.coach import BOUND, Coach, decision_point

FRAME = 1 / 60


def points(preset: str, matches: int, seed: int) -> list[DecisionPoint]:
    """Seat 0's decisions with a real choice, from ``matches`` seeded matches."""
    out: list[DecisionPoint] = []
    for i in range(matches):
        bots = [
            make_opponent(lv, seed=seed + i + p)
            for p, lv in enumerate(("intermediate", "beginner"))
        ]
        m = new_match(PRESETS[preset], first_dealer=i % 2, seed=seed + i, rounds=12)
        while m.outcome is None:
            p = m.round.to_move
            assert p is not None
            action = bots[p].choose(m.round.view(p), m.context(p))
            if p == 0:
                point = decision_point(m, action)
                if point is not None:
                    out.append(point)
            m.apply(action)
    return out


def stats(xs: list[float]) -> dict[str, float | int]:
    return {
        "n": len(xs),
        "p50": round(percentile(xs, 50) or 0.0, 1),
        "p95": round(percentile(xs, 95) or 0.0, 1),
        "max": round(max(xs), 1) if xs else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--preset", default="nintendo", choices=sorted(PRESETS))
    ap.add_argument("--worlds", type=int, default=REVIEW_WORLDS)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    pts = points(args.preset, args.matches, args.seed)
    inline: list[float] = []
    for p in pts:
        t0 = time.perf_counter()
        judge(p, worlds=args.worlds)
        inline.append((time.perf_counter() - t0) * 1000.0)
    coach = Coach(worlds=args.worlds, bound=BOUND)
    worker: list[float] = []
    try:
        for p in pts:
            t0 = time.perf_counter()
            coach.ask(p)
            while coach.pending and coach.poll() is None and coach.pending:
                time.sleep(FRAME)
            worker.append((time.perf_counter() - t0) * 1000.0)
    finally:
        coach.close()
    out = {
        "preset": args.preset,
        "matches": args.matches,
        "worlds": args.worlds,
        "bound_s": BOUND,
        "decisions": len(pts),
        "inline_ms": stats(inline),
        "worker_ms": stats(worker),
        "dropped": coach.dropped,
    }
    print(
        f"{len(pts)} decisions at {args.worlds} worlds: judgement inline p50 "
        f"{out['inline_ms']['p50']} ms / p95 {out['inline_ms']['p95']} ms; through the coach's "
        f"worker p50 {out['worker_ms']['p50']} ms / p95 {out['worker_ms']['p95']} ms "
        f"(max {out['worker_ms']['max']} ms); dropped {coach.dropped}"
    )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
