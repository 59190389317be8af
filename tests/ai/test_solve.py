"""The Expert's endgame solver (``expert._solve``, ``Expert.solve_from``): each imagined world
is played to the end of the round by two players who see every card, alpha-beta over the
remaining plays, draw captures and koi-koi calls, valued by the match goal."""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.expert import Expert, _solve
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.ai.utility import MatchGoal
from koikoi_desktop.engine import PRESETS, MatchContext, new_round
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.sim import determinize

NINTENDO = PRESETS["nintendo"]


def _late(seed: int, turns: int) -> RoundState | None:
    """A round of two Intermediates (deal ``seed``) stopped at the first choice (a play, a draw's
    capture, a stop or koi-koi) once ``turns`` turns are played, or None if it ended before."""
    s = new_round(NINTENDO, dealer=seed % 2, rng=random.Random(seed))
    bots = [make_opponent("intermediate", seed=1), make_opponent("intermediate", seed=2)]
    while s.outcome is None:
        if sum(s.turns) >= turns and len(s.legal_actions()) > 1:
            return s
        p = s.to_move
        assert p is not None
        s.apply(bots[p].choose(s.view(p), None))
    return None


def _minimax(s: RoundState, me: int, goal: MatchGoal) -> float:
    """Every line to the end, no pruning: what ``_solve`` must equal."""
    if s.outcome is not None:
        return goal(s.outcome.points_for(me))
    values = []
    for a in s.legal_actions():
        c = s.copy()
        c.step(a, events=False)
        values.append(_minimax(c, me, goal))
    return max(values) if s.to_move == me else min(values)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.integers(11, 15), me=st.integers(0, 1))
def test_the_pruned_solve_is_the_full_minimax(seed: int, turns: int, me: int) -> None:
    s = _late(seed, turns)
    if s is None:
        return
    ctx = MatchContext(me, (12, 20), 9, NINTENDO)  # behind with three rounds left
    for goal in (MatchGoal(None), MatchGoal(ctx)):
        assert _solve(s.copy(), me, goal, -math.inf, math.inf) == _minimax(s, me, goal)


def test_the_solved_search_values_an_action_by_its_mean_minimax_over_the_unseen_cards() -> None:
    """From ``solve_from`` on, an action's value (less the prior) is the mean, over the worlds
    the Expert imagines, of the fully played-out minimax: it must agree with the same mean over
    worlds dealt independently, and differ from the look-ahead playouts' value."""
    s = next(s for seed in range(50) if (s := _late(seed, 12)) is not None and s.phase == "play")
    seat = s.to_move
    assert seat is not None
    view = s.view(seat)
    expert = make_opponent("expert", seed=3, budget=400 * len(view.legal))
    assert isinstance(expert, Expert)
    expert.read_hand = False  # the unseen cards dealt uniformly, as below
    expert.solve_from = 12
    solved = expert.evaluate(view, None)
    prior = expert._prior(view, knowledge_for(NINTENDO), list(view.legal))
    rng = random.Random(99)
    worlds = [determinize(view, rng) for _ in range(400)]
    expert.solve_from = None
    played = expert.evaluate(view, None)
    differs = False
    for a in view.legal:
        values = []
        for w in worlds:
            c = w.copy()
            c.step(a, events=False)
            values.append(_minimax(c, seat, MatchGoal(None)))
        mean = sum(values) / len(values)
        se = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values) / len(values))
        search = solved[a] - expert.prior_weight * prior[a]
        assert abs(search - mean) <= 4 * math.sqrt(2) * se + 1e-9
        differs |= not math.isclose(solved[a], played[a])
    assert differs
