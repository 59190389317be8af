"""Ratings of the computer levels on the Elo scale, measured by the arena.

    python benchmarks/level_ratings.py --pairings beginner-intermediate=200 \\
        beginner-expert=40 intermediate-expert=40 --seed 1 --jobs 1 \\
        --out koikoi_desktop/ai/level_ratings.json

A round robin of the levels: every named pairing plays full matches with duplicate deals (the
arena's ``play_match``: pairs of matches on the same deck orders with the seats swapped, the
Expert on the arena's budget). The ratings are the maximum-likelihood Bradley-Terry fit of all
match results on the Elo scale (``P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400))``; a drawn
match counts half a win to each side), with the Beginner pinned at 1000. One virtual drawn match
per pairing keeps the fit finite when one side won every match (its pull is one match in the
pairing's count). The 95% intervals are percentiles of the fit over a bootstrap that resamples
the duplicate pairs (the independent units) within each pairing.

A pairing may name its own seed (``expert-intermediate=400@7002``; ``--seed`` otherwise), and the
same two levels may be named more than once with different seeds: their matches are pooled in
the fit (one pairing, one virtual draw), and the bootstrap resamples the pairs of each seed
apart. So the arena's own duplicate pairs on two seeds — ``--a A --b B`` plays exactly the pairs
of ``A-B`` here, at the same budget — feed the ratings without a match played twice.

Every finished pair is appended to ``--raw`` (JSON lines) as it ends, so an interrupted run
resumes where it stopped; pairs of another preset, or of a seed no pairing names, in that file
are ignored. The output
JSON records the commit, the command, the match counts and results per pairing and the
intervals; the game reads it (``koikoi_desktop.ratings.level_ratings``).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import multiprocessing
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from koikoi_desktop.ai import LEVELS
from koikoi_desktop.ai.arena import ARENA_EXPERT_BUDGET, _mean_ci, _play_pair
from koikoi_desktop.ratings import fit_bradley_terry

ANCHOR = ("beginner", 1000.0)
ROOT = Path(__file__).resolve().parent.parent


def _pairing(text: str) -> tuple[str, str, int, int | None]:
    names, _, rest = text.partition("=")
    count, at, seed = rest.partition("@")
    a, _, b = names.partition("-")
    if (
        a not in LEVELS
        or b not in LEVELS
        or a == b
        or not count.isdigit()
        or (at and not seed.isdigit())
    ):
        raise argparse.ArgumentTypeError(f"expected LEVEL-LEVEL=MATCHES[@SEED], got {text!r}")
    return a, b, int(count), int(seed) if at else None


def _job(job: tuple[Any, ...]) -> tuple[str, int, int, list[dict[str, Any]]]:
    key, args = job
    return key, args[3], args[4], _play_pair(args)


def _score(match: dict[str, Any]) -> float:
    return 1.0 if match["winner"] == 0 else 0.5 if match["winner"] is None else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairings", nargs="+", type=_pairing, required=True)
    ap.add_argument("--preset", default="nintendo")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bootstrap", type=int, default=2000)
    ap.add_argument("--raw", type=Path, default=Path("level_ratings.raw.jsonl"))
    ap.add_argument("--out", type=Path, default=None, help="write the ratings JSON here")
    args = ap.parse_args(argv)

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    pairings = [(a, b, n, args.seed if s is None else s) for a, b, n, s in args.pairings]
    named = [(a, b, s) for a, b, _, s in pairings]
    if len(set(named)) < len(named):
        ap.error("a pairing is named twice with the same seed")
    seeds = {s for *_, s in pairings}
    # the ratings are pinned to the anchor: without a pairing of it there are the pairings'
    # own figures only (the arena's, e.g. expert-intermediate on a seed), and no ratings file
    anchored = any(ANCHOR[0] in (a, b) for a, b, _ in named)
    if args.out is not None and not anchored:
        ap.error(f"--out needs a pairing with the {ANCHOR[0]} (the ratings' anchor)")
    done: dict[tuple[int, str, int], list[dict[str, Any]]] = {}
    if args.raw.exists():
        for line in args.raw.read_text().splitlines():
            rec = json.loads(line)
            if rec["preset"] == args.preset and rec["seed"] in seeds:
                done[(rec["seed"], rec["pairing"], rec["pair"])] = rec["matches"]
    jobs = []
    for a, b, count, seed in pairings:
        key = f"{a}-{b}"
        budgets = tuple(ARENA_EXPERT_BUDGET if lv == "expert" else None for lv in (a, b))
        for i in range((count + 1) // 2):
            if (seed, key, i) not in done:
                jobs.append((key, (args.preset, (a, b), budgets, seed, i, None, "")))
    t0 = time.perf_counter()
    print(f"{len(done)} pairs already played, {len(jobs)} to play", file=sys.stderr)

    def keep(key: str, seed: int, i: int, matches: list[dict[str, Any]]) -> None:
        done[(seed, key, i)] = matches
        slim = [{"winner": m["winner"], "diff": m["diff"]} for m in matches]
        rec = {"preset": args.preset, "seed": seed, "pairing": key, "pair": i}
        with args.raw.open("a") as f:
            f.write(json.dumps({**rec, "matches": slim}) + "\n")
        print(
            f"[{time.perf_counter() - t0:7.1f}s] {key} seed {seed} pair {i}",
            file=sys.stderr,
            flush=True,
        )

    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for key, seed, i, matches in pool.imap_unordered(_job, jobs):
                keep(key, seed, i, matches)
    else:
        for job in jobs:
            keep(*_job(job))

    # pair scores of a (0..2), by pairing and seed: the units the bootstrap resamples
    pairs: dict[tuple[str, str, int], list[float]] = {}
    table = []
    for a, b, count, seed in pairings:
        key = f"{a}-{b}"
        played = [done[(seed, key, i)] for i in range((count + 1) // 2)]
        pairs[(a, b, seed)] = [sum(_score(m) for m in pair) for pair in played]
        ms = [m for pair in played for m in pair]
        # the first-named level's share and points a match with the arena's 95% intervals
        # (over the pairs): for a pairing the arena played, its own figures
        share = _mean_ci([s / 2.0 for s in pairs[(a, b, seed)]])
        diff = _mean_ci([sum(m["diff"] for m in pair) / 2.0 for pair in played])
        table.append(
            {
                "a": a,
                "b": b,
                "seed": seed,
                "matches": len(ms),
                "wins_a": sum(1 for m in ms if m["winner"] == 0),
                "wins_b": sum(1 for m in ms if m["winner"] == 1),
                "draws": sum(1 for m in ms if m["winner"] is None),
                "win_rate_a": round(share[0], 3),
                "win_rate_a_ci95": [round(max(0.0, share[1]), 3), round(min(1.0, share[2]), 3)],
                "points_a": round(diff[0], 2),
                "points_a_ci95": [round(diff[1], 2), round(diff[2], 2)],
            }
        )

    def fit(sample: dict[tuple[str, str, int], list[float]]) -> dict[str, float]:
        # the seeds of one pair of levels pooled (in the first-named order of the two)
        pooled: dict[tuple[str, str], list[float]] = {}
        for (a, b, _), s in sample.items():
            if (b, a) in pooled:
                pooled[(b, a)][0] += 2.0 * len(s) - sum(s)
                pooled[(b, a)][1] += 2.0 * len(s)
            else:
                got = pooled.setdefault((a, b), [0.0, 0.0])
                got[0] += sum(s)
                got[1] += 2.0 * len(s)
        games = [(a, b, score, n) for (a, b), (score, n) in pooled.items()]
        return fit_bradley_terry(games, anchor=ANCHOR)

    best = fit(pairs) if anchored else {}
    rng = random.Random(args.seed)
    boot: dict[str, list[float]] = {lv: [] for lv in best}
    for _ in range(args.bootstrap if anchored else 0):
        sample = {k: [rng.choice(v) for _ in v] for k, v in pairs.items()}
        for lv, r in fit(sample).items():
            boot[lv].append(r)

    def pct(xs: list[float], q: float) -> float:
        s = sorted(xs)
        return s[min(len(s) - 1, int(q * len(s)))]

    levels = {
        lv: {
            "rating": round(best[lv]),
            "ci95": [round(pct(boot[lv], 0.025)), round(pct(boot[lv], 0.975))],
        }
        for lv in sorted(best, key=lambda lv: best[lv])
    }
    summary = {
        "levels": levels,
        "anchor": {"level": ANCHOR[0], "rating": ANCHOR[1]},
        "pairings": table,
        "preset": args.preset,
        "seed": args.seed,
        "seeds": sorted(seeds),
        "bootstrap": args.bootstrap,
        "expert_budget": ARENA_EXPERT_BUDGET.describe(),
        "commit": commit,
        "command": "python benchmarks/level_ratings.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "measured": datetime.date.today().isoformat(),
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }
    names = sorted(levels, key=lambda lv: levels[lv]["rating"])
    for lo, hi in itertools.pairwise(names):
        if levels[lo]["ci95"][1] >= levels[hi]["ci95"][0]:
            print(f"{lo} and {hi} are not separated by their intervals", file=sys.stderr)
    for row in table:
        lo, hi = row["win_rate_a_ci95"]
        plo, phi = row["points_a_ci95"]
        print(
            f"{row['a']}-{row['b']} seed {row['seed']}: {row['matches']} matches, "
            f"{row['wins_a']}-{row['wins_b']}-{row['draws']}, win rate of the first "
            f"{row['win_rate_a']:.3f} ({lo:.3f}-{hi:.3f}), points a match {row['points_a']:+.2f} "
            f"({plo:+.2f} to {phi:+.2f})"
        )
    if not anchored:
        print(f"no ratings: no pairing plays the {ANCHOR[0]}, the ratings' anchor")
    for lv in names:
        low, high = levels[lv]["ci95"]
        print(f"{lv:13s} {levels[lv]['rating']:5d}  ({low}-{high})")
    text = json.dumps(summary, indent=2) + "\n"
    if args.out is not None:
        args.out.write_text(text)
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
