"""Beginner: plays plausibly and makes the mistakes beginners make.

It captures whenever it can and grabs what looks valuable (brights, animals, ribbons) by face,
not by what its pile needs; it never looks at what a play leaves on the field for the opponent
and never counts cards; when nothing matches it lays down a card it does not care about, or just
any card; now and then it plays a card without much thought; and it loves koi-koi — it keeps
calling for more while the opponent closes in.
"""

from __future__ import annotations

import random

from koikoi_desktop.engine import Action, MatchContext, PlayerView
from koikoi_desktop.engine.actions import EXCHANGE, KEEP, KOIKOI, STOP, hand_capture

from .base import Opponent, Reason, ReasonKey
from .intermediate import describe_play
from .knowledge import knowledge_for
from .utility import stop_points

#: Chance of an absent-minded move (any legal play).
CARELESS = 0.3
#: Chance of calling koi-koi when it may (while the score is still small).
GREEDY = 0.6


class Beginner(Opponent):
    """A plausible, beatable opponent; see the module docstring."""

    level = "beginner"

    def decide_exchange(self, view: PlayerView, rng: random.Random) -> tuple[Action, Reason]:
        if rng.random() < 0.5:
            return EXCHANGE, Reason(ReasonKey.EXCHANGE_SWAP)
        return KEEP, Reason(ReasonKey.EXCHANGE_KEEP)

    def decide(
        self, view: PlayerView, context: MatchContext | None, rng: random.Random
    ) -> tuple[Action, Reason]:
        # the match context is ignored: a beginner plays the round in front of him
        k = knowledge_for(view.rules)
        worth = k.worth
        if view.phase == "decide":
            points = stop_points(view)
            if KOIKOI in view.legal and points < 6 and rng.random() < GREEDY:
                return KOIKOI, Reason(ReasonKey.KOIKOI_GREEDY, {"points": points})
            return STOP, Reason(ReasonKey.STOP_POINTS, {"points": points})
        if view.phase == "draw":
            best = max(view.legal, key=lambda a: worth[a.target] + rng.random() * 0.5)
            return best, describe_play(view, best, k)
        plays = [a for a in view.legal if a.kind in ("play", "discard")]
        if rng.random() < CARELESS:
            a = plays[int(rng.random() * len(plays))]
            return a, describe_play(view, a, k)

        def face(a: Action) -> float:
            taken, _ = hand_capture(a, view.field_mask)
            if taken:
                return 10 + sum(worth[c] for c in _ids(taken)) + rng.random()
            return -worth[a.card] + rng.random() * 2

        best = max(plays, key=face)
        taken, _ = hand_capture(best, view.field_mask)
        if taken and max(worth[c] for c in _ids(taken)) >= 4:
            return best, Reason(
                ReasonKey.TAKES_PRETTY, {"card": max(_ids(taken), key=lambda c: worth[c])}
            )
        return best, describe_play(view, best, k)


def _ids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
