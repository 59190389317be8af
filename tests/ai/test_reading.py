"""Reading the opponent (``ai.reading``): the round's public record replayed, what a pass of a
better capture says about his hand, and the worlds dealt with it.

* the replay of the public record ends on the view's own field and piles, in every preset and
  option set, at any point of a round (property);
* a bright left on the field for a plain capture lowers the weight of the bright's month, and
  only that; the weights come from the public record alone (a different hidden deal behind the
  same view reads the same);
* hands drawn with the weights hold the passed month's cards less often, and
  ``RoundState.from_view(opponent_hand=...)`` deals exactly the chosen hand (a hand that does
  not fit the view is a ValueError).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.ai.reading import (
    STRONG_PASS,
    month_weights,
    replay_table,
    sample_opponent_hand,
)
from koikoi_desktop.engine import PRESETS, Action, new_round
from koikoi_desktop.engine.cards import DECK, MONTH_MASK, mask_of
from koikoi_desktop.engine.round import RoundState

from .conftest import round_with
from .test_fair_and_legal import RULESETS

NINTENDO = PRESETS["nintendo"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 60),
)
def test_the_replay_ends_on_the_table_the_view_shows(name: str, seed: int, steps: int) -> None:
    rules = RULESETS[name]
    rng = random.Random(seed)
    s = new_round(rules, dealer=seed % 2, rng=rng)
    for _ in range(steps):
        if s.outcome is not None:
            break
        s.apply(rng.choice(s.legal_actions()))
    for seat in (0, 1):
        view = s.view(seat)
        plays, field, caps = replay_table(view)
        assert field == view.field_mask
        assert caps == view.cap_masks
        for play in plays:  # each hand play's table is one the player could see
            assert play.card and not play.field >> play.card & 1
            assert play.taken & ~play.field == 0


def _kind(card: int) -> str:
    return next(c.kind for c in DECK if c.id == card)


def _passed_bright(dealer_hand: list[int], seed: int = 0) -> RoundState:
    """Seat 0 (the dealer, first to play) takes a plain card of February while the crane, the
    January bright, lies on the field; seat 1 watches."""
    field = [1, 7, 11, 15, 19, 23, 27, 40]
    mine = [33, 34, 35, 37, 38, 41, 42, 45]
    s = round_with(
        NINTENDO,
        dealer=0,
        dealer_hand=dealer_hand,
        other_hand=mine,
        field=field,
        pile_top=[48],  # the draw goes to the field; the rest by seed
        seed=seed,
    )
    assert _kind(1) == "bright" and _kind(7) == "plain" and _kind(8) == "plain"
    s.apply(Action.from_text("play 8"))
    while s.to_move == 0 and s.outcome is None:  # a pending draw choice: the first option
        s.apply(s.legal_actions()[0])
    return s


def test_a_bright_passed_up_lowers_its_month_only() -> None:
    k = knowledge_for(NINTENDO)
    s = _passed_bright([8, 12, 16, 20, 24, 28, 32, 36])
    weights = month_weights(s.view(1), k)
    assert weights[1] == pytest.approx(STRONG_PASS)
    assert all(w == 1.0 for m, w in enumerate(weights) if m not in (0, 1))
    # the player's own plays say nothing about his own hand
    assert month_weights(s.view(0), k) == (1.0,) * 13


def test_the_reading_uses_the_public_record_only() -> None:
    k = knowledge_for(NINTENDO)
    a = _passed_bright([8, 12, 16, 20, 24, 28, 32, 36], seed=1)
    b = _passed_bright([8, 2, 16, 20, 24, 28, 32, 36], seed=2)  # he did hold a January card
    assert a.view(1).field_mask == b.view(1).field_mask
    assert month_weights(a.view(1), k) == month_weights(b.view(1), k)


def test_hands_drawn_with_the_weights_hold_the_passed_month_less_often() -> None:
    k = knowledge_for(NINTENDO)
    view = _passed_bright([8, 12, 16, 20, 24, 28, 32, 36]).view(1)
    weights = month_weights(view, k)
    january = MONTH_MASK[1] & view.unseen_mask
    assert january  # cards 2-4 are unseen from seat 1
    rng = random.Random(5)
    n = 3000
    read = plain = 0
    for _ in range(n):
        hand = sample_opponent_hand(view, weights, rng)
        assert hand.bit_count() == view.opponent_hand_size
        assert hand & ~view.unseen_mask == 0
        read += (hand & january).bit_count()
        plain += (sample_opponent_hand(view, (1.0,) * 13, rng) & january).bit_count()
    expected = n * january.bit_count() * view.opponent_hand_size / view.unseen_mask.bit_count()
    assert plain == pytest.approx(expected, rel=0.1)  # equal weights: a uniform deal
    assert read < 0.55 * plain


def test_from_view_deals_the_chosen_opponent_hand() -> None:
    s = new_round(NINTENDO, dealer=0, rng=random.Random(4))
    s.apply(s.legal_actions()[0])
    view = s.view(1)
    unseen = sorted(c for c in range(1, 49) if view.unseen_mask >> c & 1)
    hand = mask_of(unseen[: view.opponent_hand_size])
    w = RoundState.from_view(view, random.Random(1), hand)
    assert w.hands[0] == hand and w.hands[1] == view.hand_mask
    assert mask_of(w.pile) == view.unseen_mask & ~hand
    assert w.legal_actions() == s.legal_actions()
    with pytest.raises(ValueError):
        RoundState.from_view(view, random.Random(1), hand | view.hand_mask)
    with pytest.raises(ValueError):
        RoundState.from_view(view, random.Random(1), mask_of(unseen[:3]))


def test_the_expected_reply_counts_his_cards_with_the_weights() -> None:
    k = knowledge_for(NINTENDO)
    view = _passed_bright([8, 12, 16, 20, 24, 28, 32, 36]).view(1)
    weights = month_weights(view, k)
    me, opp = view.cap_masks[1], view.cap_masks[0]
    args = (me, opp, view.field_mask, view.unseen_mask, view.opponent_hand_size)
    plain = k.opponent_reply(*args)
    read = k.opponent_reply(*args, weights=weights)
    assert 0 < read < plain  # the crane is the best reply, and he most likely cannot take it
    assert k.opponent_reply(*args, weights=(1.0,) * 13) == pytest.approx(plain)
