"""The one-ply score's weights: the opponent's expected reply and my draw each move a hand play's
score by their own amount, the Intermediate keeps its weights, and the Expert's prior is built
with the Expert's (issue 13, eighth attempt)."""

from __future__ import annotations

import pytest

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.expert import PRIOR_DRAW, PRIOR_REPLY, Expert
from koikoi_desktop.ai.intermediate import DRAW_WEIGHT, REPLY_WEIGHT, score_play
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.engine import PRESETS, PlayerView

from .conftest import round_with

NINTENDO = PRESETS["nintendo"]


def _view() -> PlayerView:
    # the dealer (to move) may take the cherry curtain or the pine crane, or throw a card away
    s = round_with(
        NINTENDO,
        dealer=0,
        dealer_hand=[11, 3, 17, 21, 25, 37, 41, 45],
        other_hand=[7, 31, 14, 18, 22, 26, 38, 42],
        field=[9, 1, 33, 2, 5, 6, 29, 30],
    )
    return s.view(0)


def test_the_reply_and_the_draw_weigh_what_they_say() -> None:
    view = _view()
    k = knowledge_for(NINTENDO)
    plays = [a for a in view.legal if a.kind in ("play", "discard")]
    replies, draws = [], []
    for a in plays:
        base = score_play(view, a, k, reply=0.0, draw=0.0)
        reply = base - score_play(view, a, k, reply=1.0, draw=0.0)
        draw = score_play(view, a, k, reply=0.0, draw=1.0) - base
        assert reply >= 0.0 and draw >= 0.0
        assert score_play(view, a, k) == pytest.approx(
            base - REPLY_WEIGHT * reply + DRAW_WEIGHT * draw
        )
        replies.append(reply)
        draws.append(draw)
    # some plays leave the opponent more to take than others: the weight changes the ranking
    assert max(replies) > min(replies) and max(draws) > 0.0


def test_the_experts_prior_is_scored_with_the_experts_weights() -> None:
    view = _view()
    k = knowledge_for(NINTENDO)
    expert = make_opponent("expert", seed=1, budget=50)
    assert isinstance(expert, Expert)
    legal = list(view.legal)
    prior = expert._prior(view, k, legal)
    for a in legal:
        assert prior[a] == score_play(view, a, k, race=True, reply=PRIOR_REPLY, draw=PRIOR_DRAW)
    expert.prior_reply, expert.prior_draw = REPLY_WEIGHT, DRAW_WEIGHT
    again = expert._prior(view, k, legal)
    assert again != prior
    assert all(again[a] == score_play(view, a, k, race=True) for a in legal)
