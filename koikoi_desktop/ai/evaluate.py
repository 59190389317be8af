"""Scoring every legal alternative of one decision with the Expert's search machinery.

This is the evaluator behind the match review (:mod:`koikoi_desktop.review`). Like every
opponent it sees one seat's :class:`~koikoi_desktop.engine.PlayerView` only (plus, optionally,
the public match context); hidden cards never reach it.

How a decision is scored (the Expert's machinery, ``engine.sim.determinize`` and the Expert's
race-aware ``playout_policy``, without its prior or successive halving, so every alternative
gets the same number of samples):

* ``worlds`` times, the cards the seat cannot see are dealt at random into a complete round
  consistent with the view (``determinize``);
* in each world, *every* alternative is applied and the round is played to its end by the
  playout policy for both seats (common random numbers: the alternatives are compared in the
  same worlds with the same playout randomness, which makes their differences far less noisy
  than their values);
* a playout's result is the round's points from the seat's side: +points won, −points lost,
  0 for a drawn round. An alternative's value is the mean: **expected round points**.

With a :class:`MatchContext` the same playouts also give each alternative's **chance of
winning the match** (:func:`win_chance`, a normal approximation of the rounds still to come).

Decision (measured, ``benchmarks/review_speed.py``): playouts run to the end of the round
(the Expert's play search stops after 4 turns and scores the position with a heuristic;
that is stronger for *choosing*, but only a finished round has a value in points, which is
what a review reports). Full-round playouts cost ~0.1 ms each here, so the review budget
(:data:`REVIEW_WORLDS` worlds per decision) reviews a 12-round match in well under a minute.

>>> import random
>>> from koikoi_desktop.engine import PRESETS, new_round
>>> s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(3))
>>> view = s.view(0)
>>> values = evaluate_actions(view, list(view.legal), rng=random.Random(1), worlds=8)
>>> sorted(values) == sorted(view.legal)
True
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from koikoi_desktop.engine import Action, PlayerView
from koikoi_desktop.engine.sim import determinize, rollout

from .base import view_key
from .expert import RACE_BONUS, ROUND_SD, playout_policy
from .knowledge import knowledge_for

#: The review's fixed budget: determinized worlds per decision. Every legal alternative is
#: played out once in each world, so a decision with n alternatives costs n × 160 playouts.
REVIEW_WORLDS = 160


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The public match state around a round, from one seat's side.

    ``lead``: the seat's balance minus the opponent's before this round; ``rounds_after``:
    rounds still to come after this one in a fixed-length match (None: a target race or an
    open-ended match, where no win chance is computed).

    MERGE NOTE (issue 13): the AI now receives a richer public match context and a per-preset
    match utility. Build this object from it (or replace :func:`win_chance` by that utility):
    it is the only place the review turns round points into a match value.
    """

    lead: float
    rounds_after: int | None


def win_chance(context: MatchContext, points: float) -> float:
    """The chance of winning the match if this round ends ``points`` from the seat's side
    (negative: lost). After the last round it is certain (1, 0, or ½ for a tie); before, a
    normal approximation of the rounds still to come (the Expert's ``ROUND_SD`` spread per
    round).

    >>> last, early = MatchContext(lead=-2, rounds_after=0), MatchContext(lead=0, rounds_after=6)
    >>> win_chance(last, 3), win_chance(last, 2), win_chance(last, 1)
    (1.0, 0.5, 0.0)
    >>> 0.5 < win_chance(early, 3) < 0.7, win_chance(early, 0)
    (True, 0.5)
    """
    margin = context.lead + points
    rounds = context.rounds_after or 0
    if rounds <= 0:
        return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    sd = ROUND_SD * math.sqrt(rounds)
    return 0.5 * (1.0 + math.erf(margin / (sd * math.sqrt(2.0))))


def decision_rng(view: PlayerView, salt: str = "review") -> random.Random:
    """The fixed random source of one decision's evaluation: seeded from what the view shows
    (never from hidden cards), so a decision is always scored the same way."""
    digest = hashlib.blake2b(view_key(view) + salt.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "little"))


def playout_results(
    view: PlayerView,
    actions: Sequence[Action],
    *,
    rng: random.Random,
    worlds: int = REVIEW_WORLDS,
) -> dict[Action, list[int]]:
    """Every playout's result (round points from the seat's side) of each action, world by
    world: ``out[a][i]`` is action ``a`` in world ``i``."""
    if not actions:
        return {}
    k = knowledge_for(view.rules)
    policy = playout_policy(k, RACE_BONUS)
    me = view.player
    out: dict[Action, list[int]] = {a: [] for a in actions}
    for _ in range(max(1, worlds)):
        world = determinize(view, rng)
        seed = rng.getrandbits(32)
        for a in actions:
            s = world.copy()
            s.step(a)
            winner, final = rollout(s, random.Random(seed), policy)
            out[a].append(0 if winner is None else final if winner == me else -final)
    return out


def evaluate_actions(
    view: PlayerView,
    actions: Sequence[Action],
    *,
    rng: random.Random,
    worlds: int = REVIEW_WORLDS,
    utility: Callable[[float], float] | None = None,
) -> dict[Action, float]:
    """The value of each action: its mean playout result (expected round points), or the mean
    of ``utility(points)`` when one is given (e.g. ``lambda x: win_chance(ctx, x)``)."""
    results = playout_results(view, actions, rng=rng, worlds=worlds)
    if utility is None:
        return {a: sum(r) / len(r) for a, r in results.items()}
    return {a: sum(utility(x) for x in r) / len(r) for a, r in results.items()}


__all__ = [
    "REVIEW_WORLDS",
    "MatchContext",
    "decision_rng",
    "evaluate_actions",
    "playout_results",
    "win_chance",
]
