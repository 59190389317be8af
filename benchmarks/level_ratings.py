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

Every finished pair is appended to ``--raw`` (JSON lines) as it ends, so an interrupted run
resumes where it stopped; pairs of another preset or seed in that file are ignored. The output
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
from koikoi_desktop.ai.arena import ARENA_EXPERT_BUDGET, _play_pair
from koikoi_desktop.ratings import fit_bradley_terry

ANCHOR = ("beginner", 1000.0)
ROOT = Path(__file__).resolve().parent.parent


def _pairing(text: str) -> tuple[str, str, int]:
    names, _, count = text.partition("=")
    a, _, b = names.partition("-")
    if a not in LEVELS or b not in LEVELS or a == b or not count.isdigit():
        raise argparse.ArgumentTypeError(f"expected LEVEL-LEVEL=MATCHES, got {text!r}")
    return a, b, int(count)


def _job(job: tuple[Any, ...]) -> tuple[str, int, list[dict[str, Any]]]:
    key, args = job
    return key, args[4], _play_pair(args)


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
    done: dict[tuple[str, int], list[dict[str, Any]]] = {}
    if args.raw.exists():
        for line in args.raw.read_text().splitlines():
            rec = json.loads(line)
            if rec["preset"] == args.preset and rec["seed"] == args.seed:
                done[(rec["pairing"], rec["pair"])] = rec["matches"]
    jobs = []
    for a, b, count in args.pairings:
        key = f"{a}-{b}"
        budgets = tuple(ARENA_EXPERT_BUDGET if lv == "expert" else None for lv in (a, b))
        for i in range((count + 1) // 2):
            if (key, i) not in done:
                jobs.append((key, (args.preset, (a, b), budgets, args.seed, i, None, "")))
    t0 = time.perf_counter()
    print(f"{len(done)} pairs already played, {len(jobs)} to play", file=sys.stderr)

    def keep(key: str, i: int, matches: list[dict[str, Any]]) -> None:
        done[(key, i)] = matches
        slim = [{"winner": m["winner"], "diff": m["diff"]} for m in matches]
        rec = {"preset": args.preset, "seed": args.seed, "pairing": key, "pair": i}
        with args.raw.open("a") as f:
            f.write(json.dumps({**rec, "matches": slim}) + "\n")
        print(f"[{time.perf_counter() - t0:7.1f}s] {key} pair {i}", file=sys.stderr, flush=True)

    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for key, i, matches in pool.imap_unordered(_job, jobs):
                keep(key, i, matches)
    else:
        for job in jobs:
            keep(*_job(job))

    pairs: dict[tuple[str, str], list[float]] = {}  # pair scores of a (0..2)
    table = []
    for a, b, count in args.pairings:
        key = f"{a}-{b}"
        played = [done[(key, i)] for i in range((count + 1) // 2)]
        pairs[(a, b)] = [sum(_score(m) for m in pair) for pair in played]
        ms = [m for pair in played for m in pair]
        table.append(
            {
                "a": a,
                "b": b,
                "matches": len(ms),
                "wins_a": sum(1 for m in ms if m["winner"] == 0),
                "wins_b": sum(1 for m in ms if m["winner"] == 1),
                "draws": sum(1 for m in ms if m["winner"] is None),
            }
        )

    def fit(sample: dict[tuple[str, str], list[float]]) -> dict[str, float]:
        games = [(a, b, sum(s), 2.0 * len(s)) for (a, b), s in sample.items()]
        return fit_bradley_terry(games, anchor=ANCHOR)

    best = fit(pairs)
    rng = random.Random(args.seed)
    boot: dict[str, list[float]] = {lv: [] for lv in best}
    for _ in range(args.bootstrap):
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
