"""How far the review's verdicts are from its sampling noise (issue 45, item 2).

    python benchmarks/review_agreement.py --matches 20 [--rounds 12] [--seed 1] [--worlds 160]

Plays ``--matches`` matches of ``--rounds`` rounds (seeded; Beginner against Intermediate, seats
alternating, so both a weak and a fair seat are judged), then reviews each one twice, with the
review's own worlds and with worlds sampled independently of them (``judge(..., seed=1)``), and
compares the classes decision by decision:

* ``agree``: the share of decisions given the same class by both reviews (target ≥ 95%);
* ``flagged_agree``: of the decisions either review flagged, the share both gave the same class
  (most decisions are plainly good, so ``agree`` alone says little);
* ``two_apart``: decisions whose classes differ by two or more (good against mistake or blunder,
  inaccuracy against blunder; target 0);
* the classes of each review, the decisions left unclear at the cap (a threshold still inside
  the 95% range), the worlds sampled, and the seconds of CPU per review (``review_s``, and per
  12 rounds, the figure to keep under 60 s).

The last line on stdout is one JSON object with every figure.
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
from koikoi_desktop.review.analysis import CLASSES, review_record


def play(seed: int, rounds: int) -> str:
    """A match, Beginner against Intermediate (seats alternate with the seed)."""
    levels = ("beginner", "intermediate") if seed % 2 == 0 else ("intermediate", "beginner")
    bots = [make_opponent(levels[p], seed=seed + p) for p in (0, 1)]
    m = new_match(PRESETS["nintendo"], first_dealer=seed % 2, seed=seed, rounds=rounds)
    while m.outcome is None:
        p = m.round.to_move
        assert p is not None
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    return match_record(m)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=REVIEW_WORLDS)
    args = ap.parse_args(argv)
    decisions = same = two_apart = flagged = flagged_same = 0
    counts = [dict.fromkeys(CLASSES, 0) for _ in range(2)]
    unclear = [0, 0]
    worlds = [0, 0]
    seconds: list[float] = []
    flips: list[dict[str, object]] = []
    for i in range(args.matches):
        record = play(args.seed + i, args.rounds)
        reviews = []
        for k in (0, 1):
            t0 = time.process_time()
            reviews.append(review_record(record, worlds=args.worlds, seed=k))
            seconds.append(time.process_time() - t0)
        a, b = (r.judgements for r in reviews)
        for x, y in zip(a, b, strict=True):
            decisions += 1
            gap = abs(CLASSES.index(x.cls) - CLASSES.index(y.cls))
            same += gap == 0
            two_apart += gap >= 2
            if x.cls != "good" or y.cls != "good":
                flagged += 1
                flagged_same += gap == 0
            if gap:
                flips.append(
                    {
                        "match": i,
                        "round": x.round,
                        "kind": x.kind,
                        "classes": [x.cls, y.cls],
                        "win_loss": [x.win_loss, y.win_loss],
                        "margin": [x.margin, y.margin],
                    }
                )
            for k, j in enumerate((x, y)):
                counts[k][j.cls] += 1
                unclear[k] += not j.clear
                worlds[k] += j.worlds
        agree = same / decisions if decisions else 1.0
        print(
            f"match {i + 1}/{args.matches}: {decisions} decisions so far, agree {agree:.1%}, "
            f"flagged by either {flagged} (same class {flagged_same}), two apart {two_apart}, "
            f"classes {counts[0]}, review {seconds[-2]:.1f} / {seconds[-1]:.1f} s",
            flush=True,
        )
    per12 = [s * 12 / args.rounds for s in seconds]
    summary = {
        "matches": args.matches,
        "rounds": args.rounds,
        "worlds": args.worlds,
        "decisions": decisions,
        "agree": round(same / decisions, 4) if decisions else None,
        "flagged": flagged,
        "flagged_agree": round(flagged_same / flagged, 4) if flagged else None,
        "two_apart": two_apart,
        "classes": counts,
        "unclear": unclear,
        "worlds_sampled": worlds,
        "review_s_mean": round(sum(seconds) / len(seconds), 2) if seconds else None,
        "review_s_max": round(max(seconds), 2) if seconds else None,
        "per_12_rounds_s_mean": round(sum(per12) / len(per12), 2) if per12 else None,
        "disagreements": flips,
    }
    print(
        f"{decisions} decisions in {args.matches} matches: the same class in "
        f"{summary['agree']:.1%}, two classes apart {two_apart}; "
        f"review {summary['review_s_mean']} s of CPU on average (max {summary['review_s_max']})"
    )
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
