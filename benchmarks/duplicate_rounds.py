"""Compare two ways of playing a round on duplicate deals: points a round, with little noise.

    python benchmarks/duplicate_rounds.py --a expert-prior --b intermediate [--pairs 2000]
        [--seed 1] [--preset nintendo] [--budget 1200]

Each pair is one shuffled deck played twice as a lone round (no match context): ``--a`` in seat 0
and ``--b`` in seat 1, then the seats swapped with the same deck and the same dealer seat, so
both sides hold each hand once. A pair's score is half the difference of ``--a``'s two results
(+points won, −points lost); the script prints their mean and standard error. Two players that
choose alike score exactly 0.

A chooser is a level (``beginner``, ``intermediate``, ``expert`` with ``--budget`` playouts a
decision) or ``expert-prior``: the Expert's one-ply prior alone (``Expert._prior`` with the
Expert's reading of the opponent's passes, as its search starts from it), with the
Intermediate's draw and koi-koi choices.

Why (issue 13, eighth attempt): the arena needs 400 matches to see 0.05 of win rate, and a match
spreads about 29 points; one-ply players here run about 35 pairs a second and 2,000 pairs
already give a standard error of about 0.03 points a round (0.4 a 12-round match), so a change
to a one-ply evaluation can be screened in a minute. The Expert itself runs at the speed of its
search (about 0.7 s a round at 1,200 playouts) and, its choices being sampled, pairs less alike.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import LEVELS, make_opponent
from koikoi_desktop.ai.base import Opponent
from koikoi_desktop.ai.expert import Expert
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.engine import PRESETS, Action, PlayerView, Rules
from koikoi_desktop.engine.round import new_round

Chooser = Callable[[PlayerView], Action]
CHOOSERS = (*LEVELS, "expert-prior")


def chooser(name: str, budget: int, seed: int) -> Chooser:
    """The chooser called ``name`` (see the module docstring)."""
    if name not in CHOOSERS:
        raise SystemExit(f"duplicate_rounds: no chooser {name!r}; choose one of {CHOOSERS}")
    if name != "expert-prior":
        bot = make_opponent(name, seed=seed, budget=budget if name == "expert" else None)
        return lambda view: bot.choose(view, None)
    inter: Opponent = make_opponent("intermediate", seed=seed)
    expert = make_opponent("expert", seed=seed)
    assert isinstance(expert, Expert)

    def prior(view: PlayerView) -> Action:
        legal = list(view.legal)
        if view.phase != "play" or any(a.kind not in ("play", "discard") for a in legal):
            return inter.choose(view, None)
        # the Expert's own prior, with its own reading of the opponent: whatever it becomes
        k = knowledge_for(view.rules)
        scores = expert._prior(view, k, legal, expert._weights(view, k))
        return max(legal, key=scores.__getitem__)

    return prior


def play_round(
    rules: Rules, deck: list[int], dealer: int, seats: tuple[Chooser, Chooser], redeal_seed: int
) -> int:
    """One lone round from ``deck`` (a redeal, if the rules call for one, shuffled from
    ``redeal_seed``), each seat's choices by ``seats``; the result for seat 0."""
    s = new_round(rules, dealer=dealer, deck=deck, rng=random.Random(redeal_seed))
    while s.outcome is None:
        # ``apply``, not the search's ``step``: it keeps the round's public record, which the
        # Expert's reading of the opponent (``reading``) reads from the view
        legal = s.legal_actions()
        if len(legal) == 1:
            s.apply(legal[0])
            continue
        p = s.to_move
        assert p is not None
        s.apply(seats[p](s.view(p)))
    return s.outcome.points_for(0)


def duplicate(rules: Rules, a: Chooser, b: Chooser, pairs: int, seed: int) -> list[float]:
    """Each pair's score for ``a`` (half the difference of its results in the two seats)."""
    rng = random.Random(seed)
    scores: list[float] = []
    for i in range(pairs):
        deck = list(range(1, 49))
        rng.shuffle(deck)
        redeal = seed * 1_000_003 + i
        first = play_round(rules, deck, i % 2, (a, b), redeal)
        second = play_round(rules, deck, i % 2, (b, a), redeal)
        scores.append((first - second) / 2)
    return scores


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="expert-prior")
    ap.add_argument("--b", default="intermediate")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", choices=sorted(PRESETS), default="nintendo")
    ap.add_argument("--budget", type=int, default=1200)
    args = ap.parse_args(argv)
    if args.pairs < 2:
        ap.error("--pairs must be 2 or more")
    a = chooser(args.a, args.budget, 1)
    b = chooser(args.b, args.budget, 1)  # the same seed: alike choosers choose alike
    t0 = time.perf_counter()
    scores = duplicate(PRESETS[args.preset], a, b, args.pairs, args.seed)
    mean = statistics.fmean(scores)
    se = statistics.pstdev(scores) / len(scores) ** 0.5
    print(
        f"{args.a} vs {args.b} ({args.preset}, seed {args.seed}): {args.pairs} pairs, "
        f"{mean:+.3f} points a round (se {se:.3f}), {time.perf_counter() - t0:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
