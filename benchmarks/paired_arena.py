"""Two variants of the Expert on the same duplicate deals, compared pair by pair.

    python benchmarks/paired_arena.py --seed 101 --matches 200 --a "" --b "prior_weight=0.6" \\
        --jobs 2

Each variant is the Expert with a ``--tune`` string of the arena (``""``: as shipped; names
the Expert has no setting of are refused), and plays the arena's duplicate pairs 0, 1, ... of
``--seed`` against ``--opponent`` (``koikoi_desktop.ai.arena``: a pair is two matches on the
same deck orders with the seats swapped; the pair's index fixes its deals, its first dealer and
both players' seeds, whatever the tune). So pair i of A and pair i of B are the same deals with
the same seeds, and only the Expert's settings differ: their difference is measured without
the deals' luck, and a variant played against itself differs by exactly 0.

Each finished pair is appended as one JSON line to the variant's raw file (``--raw-a`` and
``--raw-b``; by default ``paired-<preset>-<seed>-<opponent>-<rounds>-<budget>-<tune>.jsonl``
in the current folder), keyed by the pair's index and the settings that decide its games: the
preset, the seed, the opponent, the match length, the budgets and the tune. A stopped run
resumes and plays only the pairs missing, and a baseline's file serves any number of B's (it
is played once). A raw file written with other settings is refused, never mixed.

Printed, each in one currency with its 95% interval: each variant's win rate against the
opponent (a draw counts half) and its points a match (its balance minus the opponent's), over
its pairs; then the paired difference B − A of both over the pairs both variants finished,
and the verdict: "B better" or "A better" when the interval excludes 0, else "within the
noise". A pair is the unit everywhere: its two matches share their deals, so the intervals are
normal intervals over pairs (mean ± 1.96 standard errors of the pair values; for the
difference, of the per-pair differences B − A). The JSON summary is the last line on stdout.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

from koikoi_desktop.ai import LEVELS, Budget
from koikoi_desktop.ai.arena import _budget_for, _mean_ci, _play_pair, parse_tune
from koikoi_desktop.engine import PRESETS

ROOT = Path(__file__).resolve().parent.parent
#: The fields of a raw line that decide its games (with the pair's index): a file whose lines
#: differ in one of them from the run's is refused.
KEY_FIELDS = ("preset", "seed", "opponent", "rounds", "budget", "opponent_budget", "tune")


class Refused(Exception):
    """A bad flag or a raw file of other settings: one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise Refused(message)


def canonical_tune(text: str) -> str:
    """The tune as the raw files key it: ``parse_tune``'s settings written back in one
    spelling (``"prior_weight=0.60, horizon=none"`` → ``"prior_weight=0.6,horizon=none"``)."""
    return ",".join(
        f"{name}={'none' if value is None else repr(value).removesuffix('.0')}"
        for name, value in parse_tune(text).items()
    )


class Variant:
    """One side of the comparison: its name (A or B), tune, raw file and finished pairs."""

    def __init__(self, name: str, tune: str, raw: Path, key: dict[str, Any]) -> None:
        self.name = name
        self.tune = tune
        self.raw = raw
        self.key = {**key, "tune": tune}
        #: pair index -> the pair's two matches (``winner``: 0 the Expert, 1 the opponent,
        #: None a draw; ``diff``: the Expert's balance minus the opponent's)
        self.pairs: dict[int, list[dict[str, Any]]] = {}
        #: the commits the raw file's pairs were played at
        self.commits: set[str] = set()

    def load(self) -> None:
        """The pairs already in the raw file; Refused when a line is not a pair record or was
        played with other settings."""
        if not self.raw.exists():
            return
        for n, line in enumerate(self.raw.read_text(encoding="utf-8").splitlines(), 1):
            try:
                rec = json.loads(line)
                pair, matches = int(rec["pair"]), rec["matches"]
            except (ValueError, KeyError, TypeError):
                raise Refused(f"{self.raw}: line {n} is not a pair record") from None
            for field in KEY_FIELDS:
                if rec.get(field) != self.key[field]:
                    raise Refused(
                        f"{self.raw} was played with {field} {rec.get(field)!r}, not "
                        f"{self.key[field]!r} (--raw-{self.name.lower()}: give another file)"
                    )
            self.pairs[pair] = matches
            self.commits.add(str(rec.get("commit")))

    def keep(self, pair: int, matches: list[dict[str, Any]], commit: str) -> None:
        """A finished pair, appended to the raw file as one line."""
        slim = [{k: m[k] for k in ("winner", "diff", "rounds")} for m in matches]
        self.pairs[pair] = slim
        rec = {**self.key, "pair": pair, "commit": commit, "matches": slim}
        with self.raw.open("a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")


def _score(pair: list[dict[str, Any]]) -> float:
    """The Expert's share of a pair: a win 1, a draw a half, a loss 0, over the two matches."""
    return sum(1.0 if m["winner"] == 0 else 0.5 if m["winner"] is None else 0.0 for m in pair) / 2


def _points(pair: list[dict[str, Any]]) -> float:
    """The Expert's points a match over a pair (its balance minus the opponent's)."""
    return sum(float(m["diff"]) for m in pair) / 2


def _interval(xs: list[float], digits: int) -> tuple[float | None, list[float] | None]:
    """The mean and its normal 95% interval over ``xs`` (pairs); no interval under 2 pairs."""
    if not xs:
        return None, None
    mean, lo, hi = _mean_ci(xs)
    return round(mean, digits), ([round(lo, digits), round(hi, digits)] if len(xs) > 1 else None)


def _verdict(ci: list[float] | None) -> str:
    if ci is None:
        return "too few pairs"
    if ci[0] > 0:
        return "B better"
    if ci[1] < 0:
        return "A better"
    return "within the noise"


def _side(v: Variant, pairs: list[int]) -> dict[str, Any]:
    played = [v.pairs[i] for i in pairs]
    ms = [m for pair in played for m in pair]
    win_rate, win_ci = _interval([_score(p) for p in played], 3)
    points, points_ci = _interval([_points(p) for p in played], 2)
    return {
        "tune": v.tune,
        "raw": str(v.raw),
        "pairs": len(played),
        "matches": len(ms),
        "wins": sum(1 for m in ms if m["winner"] == 0),
        "losses": sum(1 for m in ms if m["winner"] == 1),
        "draws": sum(1 for m in ms if m["winner"] is None),
        "win_rate": win_rate,
        "win_rate_ci95": win_ci,
        "points": points,
        "points_ci95": points_ci,
    }


def _paired(a: Variant, b: Variant, pairs: list[int]) -> dict[str, Any]:
    both = [i for i in pairs if i in a.pairs and i in b.pairs]
    dw = [_score(b.pairs[i]) - _score(a.pairs[i]) for i in both]
    dp = [_points(b.pairs[i]) - _points(a.pairs[i]) for i in both]
    win_rate, win_ci = _interval(dw, 3)
    points, points_ci = _interval(dp, 2)
    return {
        "pairs": len(both),
        "b_ahead": sum(1 for d in dw if d > 0),
        "a_ahead": sum(1 for d in dw if d < 0),
        "win_rate": win_rate,
        "win_rate_ci95": win_ci,
        "win_rate_verdict": _verdict(win_ci),
        "points": points,
        "points_ci95": points_ci,
        "points_verdict": _verdict(points_ci),
        "interval": "normal, over pairs",
    }


def _job(job: tuple[str, tuple[Any, ...]]) -> tuple[str, int, list[dict[str, Any]]]:
    name, arena_job = job
    return name, arena_job[4], _play_pair(arena_job)


def _default_raw(key: dict[str, Any], tune: str) -> Path:
    rounds = "full" if key["rounds"] is None else f"r{key['rounds']}"
    budget = key["budget"].replace(" playouts", "")
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", tune) or "shipped"
    return Path(
        f"paired-{key['preset']}-{key['seed']}-{key['opponent']}-{rounds}-{budget}-{slug}.jsonl"
    )


def _tune_flag(flag: str, text: str) -> str:
    try:
        return canonical_tune(text)
    except ValueError as exc:
        raise Refused(f"--{flag} {text!r}: {exc}") from None


def _playout_budget(text: str | None, level: str) -> Budget | None:
    budget = _budget_for(level, text)
    if budget is not None and budget.ms is not None:
        raise ValueError("a time budget does not replay the same games; give playouts (1200)")
    return budget


def _ci_text(ci: list[float] | None, fmt: str) -> str:
    return "no interval" if ci is None else f"{ci[0]:{fmt}} to {ci[1]:{fmt}}"


def _report(side: dict[str, Any], label: str) -> str:
    if not side["pairs"]:
        return f"{label}: no pairs"
    return (
        f"{label}: {side['matches']} matches {side['wins']}-{side['losses']}-{side['draws']}, "
        f"win rate {side['win_rate']:.3f} ({_ci_text(side['win_rate_ci95'], '.3f')}), "
        f"points a match {side['points']:+.2f} ({_ci_text(side['points_ci95'], '+.2f')})"
    )


def run(argv: list[str] | None) -> int:
    ap = _Parser(
        prog="python benchmarks/paired_arena.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--matches", type=int, default=200, help="matches a variant (pairs × 2)")
    ap.add_argument("--a", default="", help='tune of variant A (k=v,k=v; "": as shipped)')
    ap.add_argument("--b", required=True, help="tune of variant B")
    ap.add_argument(
        "--opponent",
        default="intermediate",
        choices=[lv for lv in LEVELS if lv != "expert"],
        help="the level both variants play (not the Expert: a tune would change it too)",
    )
    ap.add_argument("--preset", default="nintendo", choices=sorted(PRESETS))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--raw-a", type=Path, default=None, help="variant A's pairs (JSON lines)")
    ap.add_argument("--raw-b", type=Path, default=None, help="variant B's pairs (JSON lines)")
    ap.add_argument("--rounds", type=int, default=None, help="override the match length")
    ap.add_argument("--budget", default=None, help="the Expert's playouts (the arena's: 1200)")
    args = ap.parse_args(argv)
    if args.matches < 1 or args.jobs < 1 or (args.rounds is not None and args.rounds < 1):
        raise Refused("--matches, --jobs and --rounds must be at least 1")
    tunes = (_tune_flag("a", args.a), _tune_flag("b", args.b))
    try:
        budgets = (_playout_budget(args.budget, "expert"), _budget_for(args.opponent, None))
    except ValueError as exc:
        raise Refused(f"--budget {args.budget!r}: {exc}") from None
    key = {
        "preset": args.preset,
        "seed": args.seed,
        "opponent": args.opponent,
        "rounds": args.rounds,
        "budget": budgets[0].describe() if budgets[0] else None,
        "opponent_budget": budgets[1].describe() if budgets[1] else None,
    }
    raws = (
        args.raw_a or _default_raw(key, tunes[0]),
        args.raw_b or _default_raw(key, tunes[1]),
    )
    a = Variant("A", tunes[0], raws[0], key)
    one_file = raws[0].resolve() == raws[1].resolve()
    if one_file and tunes[0] != tunes[1]:
        raise Refused(f"--raw-a and --raw-b are the same file {raws[0]} for two tunes")
    # the same tune in the same file: one variant, played once, on both sides
    b = a if one_file else Variant("B", tunes[1], raws[1], key)
    variants = [a] if b is a else [a, b]
    for v in variants:
        v.load()

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    pairs = list(range((args.matches + 1) // 2))
    levels = ("expert", args.opponent)
    jobs = [
        (v.name, (args.preset, levels, budgets, args.seed, i, args.rounds, v.tune))
        for i in pairs  # A's pair i next to B's, so a stopped run leaves the most paired
        for v in variants
        if i not in v.pairs
    ]
    for v in variants:
        todo = sum(1 for name, _ in jobs if name == v.name)
        other = sorted(v.commits - {commit})
        print(
            f"{v.name} ({v.tune or 'as shipped'}, {v.raw}): {len(pairs) - todo} pairs already "
            f"played, {todo} to play"
            + (
                f" (the file has pairs played at {', '.join(other)}, not {commit})" if other else ""
            ),
            file=sys.stderr,
        )
    by_name = {v.name: v for v in variants}
    t0 = time.perf_counter()

    def keep(name: str, i: int, matches: list[dict[str, Any]], done: int) -> None:
        by_name[name].keep(i, matches, commit)
        print(
            f"[{time.perf_counter() - t0:7.1f}s] {name} pair {i} ({done}/{len(jobs)})",
            file=sys.stderr,
            flush=True,
        )

    if args.jobs > 1 and len(jobs) > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for done, (name, i, matches) in enumerate(pool.imap_unordered(_job, jobs), 1):
                keep(name, i, matches, done)
    else:
        for done, job in enumerate(jobs, 1):
            keep(*_job(job), done)

    sides = {"a": _side(a, pairs), "b": _side(b, pairs)}
    paired = _paired(a, b, pairs)
    summary = {
        **key,
        "pairs": len(pairs),
        "a": sides["a"],
        "b": sides["b"],
        "paired": paired,
        "commit": commit,
        "command": "python benchmarks/paired_arena.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "played_pairs": len(jobs),
        "jobs": args.jobs,
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }
    print(
        f"the Expert vs the {args.opponent} ({args.preset}, seed {args.seed}, "
        f"{key['budget']}), {len(pairs)} duplicate pairs a variant"
    )
    print(_report(sides["a"], f"A {a.tune or '(as shipped)'}"))
    print(_report(sides["b"], f"B {b.tune or '(as shipped)'}"))
    if paired["pairs"]:
        print(
            f"B - A over {paired['pairs']} pairs: win rate {paired['win_rate']:+.3f} "
            f"({_ci_text(paired['win_rate_ci95'], '+.3f')}): {paired['win_rate_verdict']}; "
            f"points a match {paired['points']:+.2f} ({_ci_text(paired['points_ci95'], '+.2f')}):"
            f" {paired['points_verdict']}"
        )
    print(json.dumps(summary), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; a bad flag or a refused raw file is one line on stderr, status 2."""
    try:
        return run(argv)
    except Refused as exc:
        print(f"paired_arena: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
