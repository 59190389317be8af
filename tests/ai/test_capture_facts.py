"""The computer asks the engine what a card takes (issue 44, item 4): ``engine.cardset``'s
answers are the legal moves, on random positions of every rule set (the Gaji wild included),
and the AI's capture reasoning (``Knowledge.best_capture``, the opponent's reply, the draw,
the reading of passes) goes through it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.engine import PRESETS, Rules, new_round
from koikoi_desktop.engine.actions import ActionKind, capture_mask
from koikoi_desktop.engine.cards import MONTH_MASK_OF, ids_of
from koikoi_desktop.engine.cardset import capture_choices, gaji_open, month_choices
from koikoi_desktop.engine.round import RoundState

from .conftest import round_with


def _variant(name: str, **changes: object) -> Rules:
    return Rules.model_validate({**PRESETS[name].model_dump(), **changes})


RULESETS = (
    *PRESETS.values(),
    _variant("nintendo", gaji_wild=True),
    _variant("seed-000", gaji_wild=True),  # free discard beside the wild pairing
)


def _check(s: RoundState) -> int:
    """Compare the card-set answers with the legal actions at ``s``; return 1 when a Gaji wild
    pairing was legal there."""
    legal = s.legal_actions()
    f = s.field_mask
    p = s.to_move
    assert p is not None
    wild = 0
    if s.phase == "draw":
        expected = month_choices(f & MONTH_MASK_OF[s.pending_draw])
        assert sorted(capture_mask(a, f) for a in legal) == sorted(expected)
        return 0
    if s.phase != "play":
        return 0
    caps = (s.caps[0], s.caps[1])
    open_ = gaji_open(s.rules, f, caps)
    for c in ids_of(s.hands[p]):
        plays = [a for a in legal if a.card == c and a.kind == ActionKind.PLAY]
        taken = sorted(capture_mask(a, f) for a in plays)
        choices = capture_choices(c, f, open_)
        laid = [0] if not f & MONTH_MASK_OF[c] else []  # laid on the field, takes nothing
        assert taken == sorted([*laid, *choices]), (c, ids_of(f))
        if open_ and c == 44 and choices:
            wild = 1
    # the AI's tempo term: the best capture of the hand is the best legal capture
    k = knowledge_for(s.rules)
    me, opp = caps[p], caps[1 - p]
    best = max(
        (
            k.gain(me, opp, (1 << a.card) | capture_mask(a, f))
            for a in legal
            if a.kind == ActionKind.PLAY and capture_mask(a, f)
        ),
        default=0.0,
    )
    assert k.best_capture(s.hands[p], f, me, opp, open_) == max(best, 0.0)
    return wild


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(RULESETS),
    st.integers(0, 2**32 - 1),
    st.integers(0, 1),
)
def test_card_set_answers_are_the_legal_moves(rules: Rules, seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    s = new_round(rules, dealer=dealer, rng=rng)
    while s.outcome is None:
        _check(s)
        s.apply(rng.choice(s.legal_actions()))


def test_the_gaji_wild_pairing_is_an_answer_the_ai_sees() -> None:
    rules = _variant("nintendo", gaji_wild=True)
    s = round_with(
        rules,
        dealer=0,
        dealer_hand=[44, 1, 5, 9, 13, 17, 21, 25],
        other_hand=[2, 6, 10, 14, 18, 22, 26, 29],
        field=[3, 7, 11, 15, 19, 23, 27, 30],
        pile_top=[41],
    )
    assert _check(s) == 1
    k = knowledge_for(rules)
    f = s.field_mask
    # nothing of November on the field or in a pile: the lightning pairs with any field card
    assert len(capture_choices(44, f, True)) == 8
    assert capture_choices(44, f, False) == ()
    assert k.best_capture(1 << 44, f, 0, 0, True) > k.best_capture(1 << 44, f, 0, 0, False) == 0
