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

With the seat's :class:`~koikoi_desktop.engine.MatchContext` the same playouts also give each
alternative's **chance of winning the match** (``ai.utility.MatchGoal.win_chance``: the
engine's own settlement and match-end rules, the AI's estimate of the rounds still to come).

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
import random
from collections.abc import Callable, Sequence

from koikoi_desktop.engine import Action, PlayerView
from koikoi_desktop.engine.sim import determinize, rollout

from .base import view_key
from .expert import RACE_BONUS, playout_policy
from .knowledge import knowledge_for

#: The review's fixed budget: determinized worlds per decision. Every legal alternative is
#: played out once in each world, so a decision with n alternatives costs n × 160 playouts.
REVIEW_WORLDS = 160


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
            rollout(s, random.Random(seed), policy)
            assert s.outcome is not None
            out[a].append(s.outcome.points_for(me))
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
    of ``utility(points)`` when one is given (e.g. ``MatchGoal(ctx).win_chance``)."""
    results = playout_results(view, actions, rng=rng, worlds=worlds)
    if utility is None:
        return {a: sum(r) / len(r) for a, r in results.items()}
    return {a: sum(utility(x) for x in r) / len(r) for a, r in results.items()}


__all__ = [
    "REVIEW_WORLDS",
    "decision_rng",
    "evaluate_actions",
    "playout_results",
]
