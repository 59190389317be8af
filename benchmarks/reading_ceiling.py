"""How much can the opponent's plays tell of his hand? The ceiling of any reading of him.

    python benchmarks/reading_ceiling.py [--matches 30] [--seed 1] [--rounds 4] [--pool 400]
        [--eps 0.05]

Two Intermediates play short nintendo matches. At every play decision of seat 0 after seat 1 has
played a card from his hand this round, three readings give each card seat 0 cannot see the
chance that it is in seat 1's hand, and each is scored by its log loss per unseen card against
his true hand (0 would be knowing it):

* ``uniform``: every unseen card alike (his hand size over the unseen cards);
* ``month weights``: the Expert's reading as shipped (``reading.month_weights``: the months of
  captures he passed up are less likely), estimated from ``--pool`` hands drawn with it;
* ``his own policy``: ``--pool`` hands drawn uniformly, each weighted by the chance that the
  Intermediate holding it (then: the hand now and every card he has played since) makes exactly
  his plays this round — his own score (``intermediate.score_play``), ties shared, ``eps`` for a
  play it would not make (so a pool keeps hands near the truth, and its estimate steady; the
  pool's effective size is printed). This reading knows exactly how he chooses, which no player
  at the table does: it is the ceiling of what his plays can tell.

The last column is the share of the gap between ``uniform`` and the truth that a reading closes.
Why (issue 13, thirteenth attempt): an Expert that sees his true hand wins 0.68 of its matches
against the Intermediate, one that sees a random half of it about as much (benchmarks/EXPERT.md),
so the target of 0.65 could be reached by reading his hand — if his plays told enough of it.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.intermediate import score_play
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.ai.reading import month_weights, sample_opponent_hand
from koikoi_desktop.engine import PRESETS, Action, MatchContext, PlayerView
from koikoi_desktop.engine.cards import ids_of
from koikoi_desktop.engine.match import new_match
from koikoi_desktop.engine.round import RoundState

NINTENDO = PRESETS["nintendo"]
READINGS = ("uniform", "month weights", "his own policy")
#: Scores this close are a tie (the Intermediate adds noise of 1e-6 to break them).
TIE = 1e-9


@dataclass(frozen=True)
class HisPlay:
    """One of seat 1's hand plays: the round before it, what he played, his match context."""

    before: RoundState
    action: Action
    context: MatchContext


@dataclass(frozen=True)
class Position:
    """A play decision of seat 0 after seat 1's plays this round, and seat 1's true hand."""

    view: PlayerView
    his_hand: int
    his_plays: tuple[HisPlay, ...]


def positions(matches: int, seed: int, rounds: int) -> Iterator[Position]:
    """Intermediate self-play; every play decision of seat 0 once seat 1 has played this
    round (the position, his hand and his plays this round so far)."""
    for i in range(matches):
        m = new_match(NINTENDO, first_dealer=i % 2, seed=seed * 1000 + i, rounds=rounds)
        bots = [make_opponent("intermediate", seed=seed * 7919 + 2 * i + s) for s in (0, 1)]
        current: RoundState | None = None
        plays: list[HisPlay] = []
        while m.outcome is None:
            if m.round is not current:
                current, plays = m.round, []
            p = m.round.to_move
            assert p is not None
            view = m.round.view(p)
            context = m.context(p)
            if p == 0 and view.phase == "play" and plays:
                yield Position(view, m.round.hands[1], tuple(plays))
            action = bots[p].choose(view, context)
            if p == 1 and view.phase == "play":
                plays.append(HisPlay(m.round.copy(), action, context))
            m.apply(action)


def likelihood(plays: tuple[HisPlay, ...], hand: int, eps: float) -> float:
    """The chance that the Intermediate holding ``hand`` now (and, at each play, every card he
    has played since) makes exactly ``plays``: at each, 1 / the number of actions tied for his
    best score (``intermediate.score_play``; he breaks ties at random) when his action is one
    of them, else ``eps``."""
    held = hand
    chance = 1.0
    for play in reversed(plays):
        held |= 1 << play.action.card
        s = play.before.copy()
        s.hands[1] = held
        view = s.view(1)
        k = knowledge_for(view.rules)
        scores = {a: score_play(view, a, k) for a in view.legal}
        top = max(scores.values())
        best = [a for a, x in scores.items() if x >= top - TIE]
        chance *= 1.0 / len(best) if play.action in best else eps
        if chance < 1e-12:
            return 0.0
    return chance


def estimates(
    pos: Position, pool: int, eps: float, rng: random.Random
) -> tuple[dict[str, dict[int, float]], float]:
    """Each reading's chance for every unseen card, and the policy pool's effective size."""
    view = pos.view
    unseen = ids_of(view.unseen_mask)
    size = view.opponent_hand_size
    out: dict[str, dict[int, float]] = {"uniform": dict.fromkeys(unseen, size / len(unseen))}
    weights = month_weights(view, knowledge_for(view.rules))
    counts = dict.fromkeys(unseen, 0.0)
    for _ in range(pool):
        for c in ids_of(sample_opponent_hand(view, weights, rng)):
            counts[c] += 1.0
    out["month weights"] = {c: n / pool for c, n in counts.items()}
    mass = dict.fromkeys(unseen, 0.0)
    total = square = 0.0
    for _ in range(pool):
        hand = sum(1 << c for c in rng.sample(unseen, size))
        w = likelihood(pos.his_plays, hand, eps)
        total += w
        square += w * w
        for c in ids_of(hand):
            mass[c] += w
    if total > 0:
        out["his own policy"] = {c: x / total for c, x in mass.items()}
    else:  # no drawn hand fits his plays (eps 0): he told nothing we could use
        out["his own policy"] = out["uniform"]
    return out, (total * total / square if square else 0.0)


def log_loss(chance: dict[int, float], hand: int) -> float:
    """Summed log loss of ``chance`` (card -> probability in his hand) against ``hand``."""
    loss = 0.0
    for c, p in chance.items():
        p = min(0.995, max(0.005, p))
        loss -= math.log(p if (hand >> c) & 1 else 1.0 - p)
    return loss


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--pool", type=int, default=400)
    ap.add_argument("--eps", type=float, default=0.05)
    args = ap.parse_args(argv)
    if args.matches < 1 or args.rounds < 1 or args.pool < 1 or not 0.0 <= args.eps < 1.0:
        raise SystemExit(
            "reading_ceiling: --matches, --rounds and --pool must be at least 1, "
            "--eps from 0 up to (not including) 1"
        )
    rng = random.Random(args.seed)
    loss = dict.fromkeys(READINGS, 0.0)
    cards = decisions = 0
    sizes: list[float] = []
    t0 = time.process_time()
    for pos in positions(args.matches, args.seed, args.rounds):
        chance, ess = estimates(pos, args.pool, args.eps, rng)
        for name in READINGS:
            loss[name] += log_loss(chance[name], pos.his_hand)
        cards += len(chance["uniform"])
        decisions += 1
        sizes.append(ess)
    if not decisions:
        print("reading_ceiling: no position to read (seat 1 never played before seat 0)")
        return 1
    print(
        f"{args.matches} matches of {args.rounds} rounds, seed {args.seed}: {decisions} decisions,"
        f" {cards} unseen cards; pool {args.pool}, eps {args.eps}, effective size median"
        f" {statistics.median(sizes):.0f} (least {min(sizes):.1f});"
        f" {time.process_time() - t0:.0f} s of CPU"
    )
    base = loss["uniform"] / cards
    for name in READINGS:
        x = loss[name] / cards
        print(f"{name:<15} log loss {x:.4f} a card, closes {(base - x) / base:6.1%} of the gap")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
