"""Hypothesis properties over random playouts of every preset and random option combinations.

R-INV-1 (cards conserved), R-INV-2 (8/8/8/24 after the deal, at most 16 turns), R-INV-3 (the draw
pile never runs out), determinism, illegal actions change nothing, views hide hidden cards,
and scores never decrease when a card is added (except where RULES.md says so).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop.engine import (
    PRESETS,
    Action,
    IllegalAction,
    Rules,
    new_match,
    new_round,
    round_record,
    score_yaku,
)
from koikoi_desktop.engine.cards import FULL_MASK, MONTH, mask_of
from koikoi_desktop.engine.deal import instant_win
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.rules import SETTINGS, setting_choices

PRESET_NAMES = sorted(PRESETS)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A preset, possibly with random option changes (never the A-38 combination)."""
    base = PRESETS[draw(st.sampled_from(PRESET_NAMES))]
    changes: dict[str, object] = {}
    if draw(st.booleans()):
        for key in SETTINGS:
            choices = setting_choices(key)
            if choices and draw(st.integers(0, 3)) == 0:
                changes[key] = draw(st.sampled_from(choices))
        if changes.get("one_yaku_per_card") and changes.get("set_yaku_absorb_extras"):
            changes["set_yaku_absorb_extras"] = False
        data = {**base.model_dump(), **changes}
        if data["one_yaku_per_card"] and data["set_yaku_absorb_extras"]:
            data["one_yaku_per_card"] = False
        if data["match_end"] == "rounds" and data["rounds"] is None:
            data["rounds"] = 3
        if data["match_end"] == "target" and data["target_score"] is None:
            data["target_score"] = 50
        if data["settlement"] == "transfer_capped" and data["starting_balance"] <= 0:
            data["starting_balance"] = 100  # capped transfers need coins to pay with
        return Rules.model_validate(data)
    return Rules.model_validate({**base.model_dump(), **changes})


def _walk(rules: Rules, seed: int, depth: int) -> tuple[RoundState, random.Random]:
    """A round of ``seed`` after up to ``depth`` random legal moves (fewer if it ended), and
    the random source that chose them, to go on with."""
    rng = random.Random(seed)
    s = new_round(rules, dealer=seed & 1, rng=rng)
    for _ in range(depth):
        if s.outcome is not None:
            break
        s.apply(rng.choice(s.legal_actions()))
    return s, rng


def _parts(s) -> list[int]:
    return [
        mask_of(s.draw_pile),
        s.field_mask,
        s.hands[0],
        s.hands[1],
        s.caps[0],
        s.caps[1],
        (1 << s.pending_draw) if s.pending_draw else 0,
    ]


def _assert_partition(s) -> None:
    total = 0
    for m in _parts(s):
        assert total & m == 0
        total |= m
    assert total == FULL_MASK


@settings(max_examples=120, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]))
def test_random_playout_invariants(rules: Rules, seed: int, dealer: int) -> None:
    """R-INV-1, R-INV-2, R-INV-3 and "every legal action applies" over a random playout."""
    rng = random.Random(seed)
    s = new_round(rules, dealer=dealer, rng=rng)
    _assert_partition(s)
    if s.outcome is None and s.phase in ("play", "exchange", "declare"):
        assert len(s.hand(0)) == len(s.hand(1)) == 8  # R-INV-2
        assert len(s.field) == 8 and len(s.draw_pile) == 24
    steps = 0
    while s.outcome is None:
        legal = s.legal_actions()
        assert legal, "a running round always has a legal action"
        a = rng.choice(legal)
        assert Action.from_text(str(a)) == a
        s.apply(a)
        _assert_partition(s)
        steps += 1
        assert steps < 200
    assert s.turns[0] + s.turns[1] <= 16  # R-INV-2
    assert s.legal_actions() == []
    assert s.to_move is None
    if s.outcome.winner is None:
        assert s.outcome.final == 0
    else:
        assert s.outcome.final >= s.outcome.base >= 0


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_round(rules: Rules, seed: int) -> None:
    """A round is a function of its seed: same seed, same deal, same moves, same outcome."""

    def play() -> tuple[str, object]:
        rng = random.Random(seed)
        s = new_round(rules, dealer=seed & 1, rng=rng)
        while s.outcome is None:
            s.apply(rng.choice(s.legal_actions()))
        return round_record(s), s.outcome

    assert play() == play()


ALL_ACTIONS = (
    [Action.play(c) for c in range(1, 49)]
    + [Action.play(c, t) for c in range(1, 49, 5) for t in range(1, 49, 3)]
    + [Action.discard(c) for c in range(1, 49)]
    + [Action.draw(t) for t in range(1, 49)]
    + [Action.from_text(x) for x in ("koikoi", "stop", "declare", "exchange", "keep")]
)


@settings(max_examples=80, deadline=None)
@given(
    rules=rule_sets(),
    seed=st.integers(0, 2**32 - 1),
    depth=st.integers(0, 40),
    probe=st.integers(0, 10_000),
)
def test_illegal_actions_raise_and_change_nothing(
    rules: Rules, seed: int, depth: int, probe: int
) -> None:
    """Applying any action that is not legal raises IllegalAction and changes nothing."""
    rng = random.Random(seed)
    s = new_round(rules, dealer=1, rng=rng)
    for _ in range(depth):
        if s.outcome is not None:
            break
        s.apply(rng.choice(s.legal_actions()))
    legal = set(s.legal_actions())
    illegal = [a for a in ALL_ACTIONS if a not in legal]
    before = (round_record(s), _parts(s), s.phase, s.to_move, s.outcome, list(s.refs))
    for a in illegal[probe % max(1, len(illegal)) :][:25]:
        with pytest.raises(IllegalAction) as info:
            s.apply(a)
        assert isinstance(info.value, ValueError)
        assert len(str(info.value)) > 10
    after = (round_record(s), _parts(s), s.phase, s.to_move, s.outcome, list(s.refs))
    assert before == after


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), depth=st.integers(0, 40))
def test_apply_unasked_takes_exactly_the_legal_actions(rules: Rules, seed: int, depth: int) -> None:
    """``apply`` on a state whose legal actions nobody asked for (a replay: it checks a hand
    play against that card's plays alone) takes every legal action and refuses every other."""
    s, _ = _walk(rules, seed, depth)
    legal = set(s.legal_actions())
    for a in ALL_ACTIONS + sorted(legal):
        fresh = s.copy()  # nothing computed for it yet
        if a in legal:
            fresh.apply(a)
        else:
            with pytest.raises(IllegalAction):
                fresh.apply(a)


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), depth=st.integers(0, 30))
def test_view_never_reveals_hidden_cards(rules: Rules, seed: int, depth: int) -> None:
    """A PlayerView holds no opponent hand and no draw-pile order (ARCHITECTURE habit 6)."""
    rng = random.Random(seed)
    s = new_round(rules, dealer=0, rng=rng)
    for _ in range(depth):
        if s.outcome is not None:
            break
        s.apply(rng.choice(s.legal_actions()))
    for p in (0, 1):
        v = s.view(p)
        hidden = s.hands[1 - p] | mask_of(s.draw_pile)
        visible = v.hand_mask | v.field_mask | v.cap_masks[0] | v.cap_masks[1]
        assert visible & hidden == 0
        assert v.unseen_mask & ~hidden & ~s.hands[p] == 0
        assert v.opponent_hand_size == len(s.hand(1 - p))
        text = repr(v)
        for attr in ("pile", "deck", "draw_pile"):
            assert not hasattr(v, attr)
        # the same view results whatever the hidden cards are: nothing else leaks
        assert "deals" not in text


@settings(max_examples=300, deadline=None)
@given(
    rules=rule_sets(),
    cards=st.sets(st.integers(1, 48), max_size=30),
    extra=st.integers(1, 48),
)
def test_score_monotone_when_a_card_is_added(rules: Rules, cards: set[int], extra: int) -> None:
    """`base` never decreases when a card is added (R-YAKU-4, R-YAKU-7 consequences), except
    that `viewing_voided_by_rain_man` lets the rain man (41) void Hanami/Tsukimi (R-YAKU-2)."""
    before = score_yaku(cards, rules).base
    after = score_yaku(cards | {extra}, rules).base
    if rules.viewing_voided_by_rain_man and extra == 41 and 41 not in cards:
        return
    assert after >= before


def test_capped_transfers_from_an_empty_purse_are_refused() -> None:
    """From 0 coins nobody can pay under transfer_capped, so the match could never move (a tie's
    extra rounds, a race): Rules refuses it, and the presets are unaffected."""
    base = PRESETS["seed-000"].model_dump()
    with pytest.raises(ValueError, match="starting balance above 0"):
        Rules.model_validate({**base, "starting_balance": 0})
    assert Rules.model_validate({**base, "starting_balance": 1}).starting_balance == 1


@settings(max_examples=15, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**31))
def test_match_plays_to_the_end(rules: Rules, seed: int) -> None:
    """Random matches end; balances follow the ledger; coins are conserved under transfer."""
    rules = rules.with_rounds(3) if rules.match_end == "rounds" else rules
    m = new_match(rules, first_dealer=seed & 1, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while m.outcome is None:
        if m.can_end_now and rng.random() < 0.05:
            m.end_now()
            break
        m.apply(rng.choice(m.round.legal_actions()))
        steps += 1
        assert steps < 20_000
    assert m.outcome is not None
    if m.ledger:
        assert m.ledger[-1].balances == m.balances
    if rules.settlement == "transfer_capped":
        assert sum(m.balances) == 2 * rules.starting_balance
        assert min(m.balances) >= 0
    a, b = m.balances
    assert m.outcome.winner == (None if a == b else (0 if a > b else 1))


@settings(max_examples=400, deadline=None)
@given(rules=rule_sets(), cards=st.sets(st.integers(1, 48), max_size=40))
def test_fast_base_equals_full_score(rules: Rules, cards: set[int]) -> None:
    """The search hot path's integer total equals the full scorer's (R-YAKU-1, R-YAKU-7)."""
    from koikoi_desktop.engine.yaku import Scorer

    mask = mask_of(cards)
    assert Scorer(rules).base(mask) == score_yaku(cards, rules).base


@settings(max_examples=80, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), depth=st.integers(0, 12))
def test_fast_rollout_follows_the_rules(rules: Rules, seed: int, depth: int) -> None:
    """The simulation path's inline turns are exactly the rules: its recorded moves replay
    through the public ``apply`` to the same outcome and the same piles."""
    from koikoi_desktop.engine.sim import determinize, fast_rollout

    s, rng = _walk(rules, seed, depth)
    if s.outcome is not None:
        return
    d = determinize(s.view(s.to_move), rng)
    start = d.copy()
    moves: list[Action] = []
    fast_rollout(d, rng, record=moves)
    for a in moves:
        start.apply(a)
    assert start.outcome == d.outcome
    assert start.caps == d.caps and start.field_mask == d.field_mask


_VALUES = st.one_of(st.none(), st.integers(0, 20))
#: Hands that hold two fours, a four and pairs, and four pairs.
_SHAPED = [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 9, 10, 11, 12], [1, 2, 5, 6, 9, 10, 13, 14]]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(1, 48), min_size=8, max_size=8, unique=True),
    st.tuples(_VALUES, _VALUES, _VALUES),
    st.sampled_from(
        [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 9, 10, 11, 12], [1, 2, 5, 6, 9, 10, 13, 14]]
    ),
)
def test_an_instant_win_is_the_first_of_the_best_kinds_the_hand_holds(
    hand: list[int], values: tuple[int | None, int | None, int | None], shaped: list[int]
) -> None:
    """R-INSTANT as stated: of the kinds the hand holds (two fours; a four; every month even)
    that the rules value, the highest; on a tie the first in that order."""
    rules = PRESETS["nintendo"].model_copy(
        update=dict(
            zip(("instant_double_tenho", "instant_teshi", "instant_kuttsuki"), values, strict=True)
        )
    )
    for cards in (hand, shaped):
        counts = [sum(1 for c in cards if MONTH[c] == m) for m in range(1, 13)]
        kinds = [
            ("double_tenho", values[0], counts.count(4) >= 2),
            ("teshi", values[1], 4 in counts),
            ("kuttsuki", values[2], all(n % 2 == 0 for n in counts)),
        ]
        held = [(kind, v) for kind, v, holds in kinds if holds and v is not None]
        want = max(held, key=lambda kv: kv[1]) if held else None  # max keeps the first of ties
        assert instant_win(cards, rules) == want
        assert instant_win(mask_of(cards), rules) == want
