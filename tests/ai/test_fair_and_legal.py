"""Every level plays legally under every preset and option, and never sees hidden cards.

* property: over random positions of random deals (hypothesis), each level answers with one of
  the view's legal actions, under the four presets and variants switching the optional rules on;
* complete (short) matches under every preset, each level on each side, without an illegal move;
* the hidden-information property: the same view reached with a different hidden deal (the
  opponent's hand and the pile order permuted) gets the same decision for a fixed seed.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from koikoi_desktop.ai import LEVELS, make_opponent
from koikoi_desktop.engine import PRESETS, Rules, new_match, new_round
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.words.reasons import reason_text


def _variant(name: str, **changes: object) -> Rules:
    return Rules.model_validate({**PRESETS[name].model_dump(), **changes})


RULESETS: dict[str, Rules] = {
    **PRESETS,
    "seed-003+variants": _variant(
        "seed-003", gaji_wild=True, hand_exchange=True, trio_bonus=3, bright_field_multiplier=True
    ),
    "seed-000+options": _variant(
        "seed-000",
        viewing_voided_by_rain_man=True,
        viewing_value=3,
        viewing_excluded_by_light_yaku=True,
        bright_field_multiplier=True,
    ),
    "seed-001+instant": _variant("seed-001", instant_teshi=6, instant_kuttsuki=6),
    "nintendo+gaji": _variant("nintendo", gaji_wild=True, koikoi_limit=2),
}
EXPERT_BUDGET = 40


def _random_position(rules: Rules, seed: int, steps: int) -> tuple[RoundState, list[int]]:
    rng = random.Random(seed)
    deck = list(range(1, 49))
    rng.shuffle(deck)
    s = new_round(rules, dealer=seed % 2, deck=deck, rng=rng)
    for _ in range(steps):
        if s.outcome is not None:
            break
        s.apply(rng.choice(s.legal_actions()))
    return s, deck


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 40),
)
def test_every_level_answers_legally(name: str, seed: int, steps: int) -> None:
    s, _ = _random_position(RULESETS[name], seed, steps)
    assume(s.to_move is not None)
    view = s.view(s.to_move)
    for level in LEVELS:
        bot = make_opponent(level, seed=seed, budget=EXPERT_BUDGET)
        action = bot.choose(view, None)
        assert action in view.legal, (level, view.phase, action)
        said = reason_text(ENGLISH, bot.last_reason)  # every reason has its words
        assert said and "{" not in said and not said.startswith("ai.reason."), said


def test_complete_matches_under_every_rule_set() -> None:
    for i, (name, rules) in enumerate(sorted(RULESETS.items())):
        for a, b in (("beginner", "intermediate"), ("expert", "beginner")):
            bots = [
                make_opponent(a, seed=i, budget=EXPERT_BUDGET),
                make_opponent(b, seed=i + 1, budget=EXPERT_BUDGET),
            ]
            m = new_match(rules, first_dealer=i % 2, seed=i, rounds=2)
            moves = 0
            while m.outcome is None:
                seat = m.round.to_move
                assert seat is not None
                m.apply(bots[seat].choose(m.round.view(seat), m.context(seat)))  # raises if illegal
                moves += 1
            assert m.outcome is not None and len(m.ledger) >= 1, name
            assert moves > 0 or all(e.end == "instant_win" for e in m.ledger)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 30),
)
def test_same_view_different_hidden_deal_same_decision(name: str, seed: int, steps: int) -> None:
    rules = RULESETS[name]
    s, deck = _random_position(rules, seed, steps)
    assume(s.to_move is not None and len(s.deals) == 1)
    me = s.to_move
    view = s.view(me)
    # permute the cards this seat cannot see among their places in the deck
    unseen = set(view.unseen)
    places = [i for i, c in enumerate(deck) if c in unseen]
    shuffled = [deck[i] for i in places]
    random.Random(seed + 1).shuffle(shuffled)
    other = list(deck)
    for i, c in zip(places, shuffled, strict=True):
        other[i] = c
    t = new_round(rules, dealer=s.dealer, deck=other)
    for move in s.moves:
        if t.outcome is not None:
            break
        t.apply(move)
    twin = t.view(me) if t.to_move == me else None
    assume(twin is not None and twin == view)  # e.g. not when the new hand is an instant win
    if s.phase != "exchange":
        assert s.hands[1 - me] != t.hands[1 - me] or s.draw_pile != t.draw_pile or not unseen
    for level in LEVELS:
        a = make_opponent(level, seed=11, budget=EXPERT_BUDGET).choose(view, None)
        b = make_opponent(level, seed=11, budget=EXPERT_BUDGET).choose(twin, None)
        assert a == b, (level, view.phase)
