"""The arena: computer opponents play full matches against each other, with duplicate deals.

    python -m koikoi_desktop.ai.arena --preset nintendo --a expert --b intermediate \\
        --matches 400 --seed 1 --jobs 2

Duplicate deals: matches come in pairs that share one seed — the same sequence of deck orders —
and the same first-dealer seat; in the second match of a pair the two sides swap seats, so each
side gets the cards the other had (a pair counts as two matches). Successive pairs alternate the
first dealer's seat. Rounds diverge once the play differs (who wins decides who deals), but the
n-th deal's cards are the same in both matches. The first dealer is set by the arena, not by the
persona rules of R-SETUP-2, so that the seats are truly swapped.

Every decision is asked with the deciding seat's match context (``Match.context(seat)``), as in
the game.

The last line on stdout is one JSON object: match wins and draws, ``win_rate_a`` (draws count
half) with a 95% interval computed over duplicate pairs (pair scores are the independent units),
mean point difference (a − b) per match and per round with a 95% interval, koi-koi calls and
success rate (the caller won that round) per side, decision latency p50/p95 per level, the
thinking budgets, the mean playouts per Expert search, and per level the match-point decisions
and those that threw the match (``match_points``; see :func:`thrown_decision`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from typing import Any

from koikoi_desktop.engine import (
    PRESETS,
    Action,
    IllegalAction,
    KoiKoiCalled,
    MatchContext,
    PlayerView,
    RoundOver,
    new_match,
)
from koikoi_desktop.engine.actions import KOIKOI, STOP

from . import LEVELS, Budget, make_opponent
from .utility import match_point

#: Expert's default arena budget (playouts per decision); play uses ``expert.PLAY_BUDGET``.
ARENA_EXPERT_BUDGET = Budget(playouts=1200)


def _seed(*parts: object) -> int:
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=6).digest(), "little")


def thrown_decision(view: PlayerView, context: MatchContext, action: Action) -> str | None:
    """How a stop-or-koi-koi decision at a match point went (``utility.match_point``): a
    decision *threw the match* when it is

    * a stop that ends the match (the last round of a fixed-length match, a race's target, a
      bankruptcy) with the stopper losing it, while koi-koi was legal and its best case (every
      card the opponent has not captured, paid with one more call) would still have won the
      match — returned as ``"thrown"`` at once; or
    * a koi-koi called when stopping would have won the match (the stopper's total then ahead
      after the last round, the target reached, the opponent bankrupt), after which the caller
      did not win the match (lost or drawn) — returned as ``"pending"``: the arena counts it as
      thrown when the match ends without the caller winning.

    Any other decision at a match point returns ``"kept"``; None: not a match point."""
    point = match_point(view, context)
    if point is None:
        return None
    if point == "stop_loses" and action == STOP:
        return "thrown"
    if point == "stop_wins" and action == KOIKOI:
        return "pending"
    return "kept"


def tune_settings() -> tuple[str, ...]:
    """The names ``--tune`` may set: the Expert's public settings (its attributes with a number,
    a truth value or None, not the state one Expert keeps for itself: seed, budget, last
    playouts)."""
    expert = make_opponent("expert", seed=0)
    own = vars(expert)
    return tuple(
        name
        for name in dir(expert)
        if not name.startswith("_")
        and name not in own
        and (getattr(expert, name) is None or isinstance(getattr(expert, name), int | float))
    )


def parse_tune(text: str) -> dict[str, float | None]:
    """``"horizon=4,prior_weight=0.5"`` as the Expert settings it sets (a number, or ``none``
    for None), in the order given. Raises ValueError, in one line, on an item that is not
    ``name=value``, a value that is not a number, or a name the Expert has no setting of (so a
    typo cannot silently leave the Expert as it was)."""
    settings: tuple[str, ...] | None = None
    out: dict[str, float | None] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not name or not value:
            raise ValueError(f"expected name=value[,name=value...], got {item!r}")
        settings = tune_settings() if settings is None else settings
        if name not in settings:
            raise ValueError(f"the Expert has no setting {name!r} (it has: {', '.join(settings)})")
        try:
            out[name] = None if value == "none" else float(value)
        except ValueError:
            raise ValueError(f"{name}={value!r}: expected a number or none") from None
    return out


def play_match(
    preset: str,
    levels: tuple[str, str],
    budgets: tuple[Budget | None, Budget | None],
    *,
    match_seed: int,
    first_dealer: int,
    a_seat: int,
    bot_seeds: tuple[int, int],
    rounds: int | None = None,
    tune: str = "",
) -> dict[str, Any]:
    """One match, side a in seat ``a_seat``; returns its statistics. ``tune`` sets Expert
    settings for experiments (``"horizon=4,prior_weight=0.5"``: :func:`parse_tune`, which
    refuses a name the Expert has no setting of)."""
    rules = PRESETS[preset]
    side_of = {a_seat: 0, 1 - a_seat: 1}  # seat -> side index (0 = a, 1 = b)
    bots = {
        seat: make_opponent(levels[side], seed=bot_seeds[side], budget=budgets[side])
        for seat, side in side_of.items()
    }
    for key, value in parse_tune(tune).items():
        for seat, side in side_of.items():
            if levels[side] == "expert":
                setattr(bots[seat], key, value)
    m = new_match(rules, first_dealer=first_dealer, seed=match_seed, rounds=rounds)
    latency: list[list[float]] = [[], []]
    playouts: list[list[int]] = [[], []]
    calls = [0, 0]
    rounds_called = [0, 0]
    successes = [0, 0]
    callers: set[int] = set()
    illegal = 0
    match_points = [0, 0]
    thrown = [0, 0]
    pending: list[int] = []  # sides that called koi-koi where a stop won the match
    while m.outcome is None:
        mover = m.round.to_move
        assert mover is not None
        view = m.round.view(mover)
        context = m.context(mover)
        bot = bots[mover]
        t0 = time.perf_counter()
        action = bot.choose(view, context)
        dt = (time.perf_counter() - t0) * 1000.0
        side = side_of[mover]
        verdict = thrown_decision(view, context, action) if view.phase == "decide" else None
        if verdict is not None:
            match_points[side] += 1
            if verdict == "thrown":
                thrown[side] += 1
            elif verdict == "pending":
                pending.append(side)
        latency[side].append(dt)
        if bot.last_playouts:
            playouts[side].append(bot.last_playouts)
        try:
            events = m.apply(action)
        except IllegalAction:
            illegal += 1
            events = m.apply(view.legal[0])
        for e in events:
            if isinstance(e, KoiKoiCalled):
                calls[side_of[e.player]] += 1
                callers.add(side_of[e.player])
            elif isinstance(e, RoundOver):
                for s in callers:
                    rounds_called[s] += 1
                    if e.winner is not None and side_of[e.winner] == s:
                        successes[s] += 1
                callers = set()
    assert m.outcome is not None
    bal = m.outcome.balances
    w = m.outcome.winner
    for side in pending:
        if w is None or side_of[w] != side:
            thrown[side] += 1
    return {
        "winner": None if w is None else side_of[w],
        "diff": bal[a_seat] - bal[1 - a_seat],
        "rounds": len(m.ledger),
        "latency": latency,
        "playouts": playouts,
        "calls": calls,
        "rounds_called": rounds_called,
        "successes": successes,
        "illegal": illegal,
        "match_points": match_points,
        "thrown": thrown,
    }


def _play_pair(job: tuple[Any, ...]) -> list[dict[str, Any]]:
    preset, levels, budgets, seed, i, rounds, tune = job
    match_seed = _seed(seed, "deal", i)
    out = []
    for a_seat in (0, 1):
        out.append(
            play_match(
                preset,
                levels,
                budgets,
                match_seed=match_seed,
                first_dealer=i % 2,
                a_seat=a_seat,
                bot_seeds=(_seed(seed, "a", i, a_seat), _seed(seed, "b", i, a_seat)),
                rounds=rounds,
                tune=tune,
            )
        )
    return out


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100, nearest rank) of ``values`` (None when empty)."""
    if not values:
        return None
    s = sorted(values)
    idx = min(len(s) - 1, max(0, math.ceil(q / 100.0 * len(s)) - 1))
    return s[idx]


def _mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    n = len(xs)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(xs) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


#: One finished match as ``play_match`` returns it.
MatchResult = dict[str, Any]


def _r(x: float | None, d: int = 3) -> float | None:
    return None if x is None else round(x, d)


def _pair_score(pair: list[MatchResult]) -> float:
    """Side a's share of a pair: a win 1, a draw a half, a loss 0, averaged over the two."""
    return sum(1.0 if m["winner"] == 0 else 0.5 if m["winner"] is None else 0.0 for m in pair) / 2


def _outcomes(results: list[list[MatchResult]]) -> dict[str, Any]:
    """Wins, draws and side a's strength: the win rate and the point difference, with their
    95% intervals taken over pairs (the two matches of a pair share their deals)."""
    matches = [m for pair in results for m in pair]
    n = len(matches)
    wins_a = sum(1 for m in matches if m["winner"] == 0)
    wins_b = sum(1 for m in matches if m["winner"] == 1)
    wr, lo, hi = _mean_ci([_pair_score(pair) for pair in results])
    dm, dlo, dhi = _mean_ci([sum(m["diff"] for m in pair) / 2 for pair in results])
    total_rounds = sum(m["rounds"] for m in matches)
    return {
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": n - wins_a - wins_b,
        "win_rate_a": _r(wr),
        "win_rate_a_ci95": [_r(max(0.0, lo)), _r(min(1.0, hi))],
        "strict_win_share_a": _r(wins_a / n if n else 0.0),
        "mean_point_diff_per_match": _r(dm, 2),
        "mean_point_diff_per_match_ci95": [_r(dlo, 2), _r(dhi, 2)],
        "mean_point_diff_per_round": _r(sum(m["diff"] for m in matches) / total_rounds, 3)
        if total_rounds
        else 0.0,
    }


def _koikoi_calls(matches: list[MatchResult]) -> dict[str, dict[str, Any]]:
    """Each side's koi-koi calls: how many, per match, in how many rounds, and how often the
    round was then won."""
    n = len(matches)
    koikoi = {}
    for side, name in ((0, "a"), (1, "b")):
        calls = sum(m["calls"][side] for m in matches)
        rc = sum(m["rounds_called"][side] for m in matches)
        succ = sum(m["successes"][side] for m in matches)
        koikoi[name] = {
            "calls": calls,
            "calls_per_match": round(calls / n, 3) if n else 0.0,
            "rounds_called": rc,
            "success_rate": round(succ / rc, 3) if rc else None,
        }
    return koikoi


def _by_level(
    matches: list[MatchResult], levels: tuple[str, str], field: str
) -> dict[str, list[Any]]:
    """One per-side list field of every match, gathered by level (sides of one level merged)."""
    out: dict[str, list[Any]] = {}
    for m in matches:
        for side in (0, 1):
            out.setdefault(levels[side], []).extend(m[field][side])
    return out


def _latency(lat: dict[str, list[float]]) -> dict[str, dict[str, Any]]:
    return {
        lv: {
            "p50": _r(percentile(xs, 50), 2),
            "p95": _r(percentile(xs, 95), 2),
            "max": _r(max(xs), 2) if xs else None,
            "decisions": len(xs),
        }
        for lv, xs in lat.items()
    }


def _match_points(matches: list[MatchResult], levels: tuple[str, str]) -> dict[str, dict[str, int]]:
    """Match points won and thrown away in the last round, by level."""
    totals: dict[str, dict[str, int]] = {}
    for m in matches:
        for side in (0, 1):
            entry = totals.setdefault(levels[side], {"match_points": 0, "thrown": 0})
            entry["match_points"] += m["match_points"][side]
            entry["thrown"] += m["thrown"][side]
    return totals


def summarize(
    results: list[list[MatchResult]],
    *,
    preset: str,
    levels: tuple[str, str],
    budgets: tuple[Budget | None, Budget | None],
    seed: int,
    jobs: int,
    elapsed: float,
    tune: str = "",
) -> dict[str, Any]:
    """The arena's JSON summary of finished pairs: the run's settings, then each part of the
    result from its own function, in the summary's fixed key order."""
    matches = [m for pair in results for m in pair]
    n = len(matches)
    total_rounds = sum(m["rounds"] for m in matches)
    playouts = _by_level(matches, levels, "playouts")
    return {
        "preset": preset,
        "a": levels[0],
        "b": levels[1],
        "matches": n,
        "pairs": len(results),
        "rounds_per_match": round(total_rounds / n, 2) if n else 0,
        "seed": seed,
        "jobs": jobs,
        **_outcomes(results),
        "koikoi": _koikoi_calls(matches),
        "latency_ms": _latency(_by_level(matches, levels, "latency")),
        "budget": {
            "a": budgets[0].describe() if budgets[0] else None,
            "b": budgets[1].describe() if budgets[1] else None,
        },
        "mean_playouts_per_search": {
            lv: _r(sum(xs) / len(xs), 1) for lv, xs in playouts.items() if xs
        },
        "illegal_moves": sum(m["illegal"] for m in matches),
        "match_points": _match_points(matches, levels),
        "tune": tune or None,
        "elapsed_s": round(elapsed, 1),
    }


def _budget_for(level: str, text: str | None) -> Budget | None:
    if text:
        return Budget.parse(text)
    return ARENA_EXPERT_BUDGET if level == "expert" else None


def main(argv: list[str] | None = None) -> int:
    """Run the arena; print progress to stderr and the JSON summary last on stdout."""
    ap = argparse.ArgumentParser(
        prog="python -m koikoi_desktop.ai.arena",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--preset", default="nintendo", choices=sorted(PRESETS))
    ap.add_argument("--a", default="expert", choices=LEVELS)
    ap.add_argument("--b", default="intermediate", choices=LEVELS)
    ap.add_argument("--matches", type=int, default=400, help="matches (pairs × 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=None, help="override the match length")
    ap.add_argument("--budget-a", default=None, help="e.g. 1200 (playouts) or 300ms")
    ap.add_argument("--budget-b", default=None)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--tune", default="", help="Expert attributes for experiments: k=v,k=v")
    args = ap.parse_args(argv)
    try:
        parse_tune(args.tune)
    except ValueError as exc:
        print(f"arena: --tune: {exc}", file=sys.stderr)
        return 2
    levels = (args.a, args.b)
    budgets = (_budget_for(args.a, args.budget_a), _budget_for(args.b, args.budget_b))
    pairs = max(1, (args.matches + 1) // 2)
    jobs = [
        (args.preset, levels, budgets, args.seed, i, args.rounds, args.tune) for i in range(pairs)
    ]
    t0 = time.perf_counter()
    results: list[list[dict[str, Any]]] = []
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for res in pool.imap_unordered(_play_pair, jobs):
                results.append(res)
                _progress(args, results, pairs, t0)
    else:
        for job in jobs:
            results.append(_play_pair(job))
            _progress(args, results, pairs, t0)
    summary = summarize(
        results,
        preset=args.preset,
        levels=levels,
        budgets=budgets,
        seed=args.seed,
        jobs=args.jobs,
        elapsed=time.perf_counter() - t0,
        tune=args.tune,
    )
    print(
        f"{args.a} vs {args.b} ({args.preset}): {summary['wins_a']}-{summary['wins_b']}"
        f"-{summary['draws']}, win rate {summary['win_rate_a']}, "
        f"points/match {summary['mean_point_diff_per_match']:+}"
    )
    print(json.dumps(summary), flush=True)
    return 0


def _progress(args: argparse.Namespace, results: list[Any], pairs: int, t0: float) -> None:
    if args.quiet:
        return
    done = len(results)
    if done % max(1, pairs // 20) == 0 or done == pairs:
        ms = [m for p in results for m in p]
        wa = sum(1 for m in ms if m["winner"] == 0)
        wb = sum(1 for m in ms if m["winner"] == 1)
        print(
            f"[{time.perf_counter() - t0:7.1f}s] {2 * done}/{2 * pairs} matches  a {wa}  b {wb}",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    raise SystemExit(main())
