"""Scenario tests for RULES.md §10-§13: multipliers, settlement, end of match, the rule sets.

Each test names the rule id it checks. Matches are driven with injected deck orders
(``new_match(decks=...)``): instant-win deals settle at once, so whole matches are exact.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from koikoi_desktop.engine import PRESETS, IllegalAction, Rules, new_match, new_round, payout
from tests.engine.helpers import (
    PRESET_NAMES,
    instant_deck,
    legal_texts,
    stacked_deck,
    variant,
)
from tests.engine.test_scenarios_koi_end import KOI_DEALER, KOI_FIELD, KOI_ND, KOI_PILE, koi_deck

# --------------------------------------------------------------------------- §10 R-MULT


@pytest.mark.parametrize(
    ("name", "base", "wc", "lc", "final"),
    [
        ("seed-000", 6, 0, 0, 6), ("seed-000", 7, 0, 0, 14), ("nintendo", 7, 0, 0, 14),
        ("seed-003", 7, 0, 0, 7), ("seed-001", 9, 0, 0, 9),
        # the 7+ test uses base only (4 x 2 for one call = 8 is not doubled again)
        ("seed-000", 4, 1, 0, 8),
    ],
)  # fmt: skip
def test_r_mult_1_seven_plus(name, base, wc, lc, final) -> None:
    """R-MULT-1 / A-11: base >= 7 doubles in seed-000 and nintendo (before other factors)."""
    assert payout(base, PRESETS[name], winner_calls=wc, loser_calls=lc) == final


@pytest.mark.parametrize(
    ("name", "base", "wc", "lc", "final"),
    [
        ("seed-000", 5, 1, 0, 10), ("seed-000", 5, 2, 0, 20), ("seed-000", 5, 3, 0, 40),
        ("seed-003", 5, 1, 0, 10), ("seed-003", 5, 2, 0, 15), ("seed-003", 5, 0, 2, 15),
        ("seed-003", 5, 2, 1, 20), ("seed-003", 8, 1, 1, 24),  # x(1 + k_w + k_l)
        ("seed-001", 5, 3, 2, 5),
        ("nintendo", 8, 1, 0, 16), ("nintendo", 5, 1, 0, 5),  # own call never multiplies
    ],
)  # fmt: skip
def test_r_mult_2_koi_multiplier(name, base, wc, lc, final) -> None:
    """R-MULT-2: double_per_call (seed-000), linear_total_calls (seed-003), none."""
    assert payout(base, PRESETS[name], winner_calls=wc, loser_calls=lc) == final


@pytest.mark.parametrize(
    ("name", "base", "wc", "lc", "final"),
    [
        ("seed-000", 5, 0, 1, 10), ("seed-000", 5, 0, 3, 10),  # once
        ("nintendo", 7, 0, 1, 28), ("nintendo", 6, 0, 1, 12), ("nintendo", 8, 1, 0, 16),
        ("seed-003", 5, 0, 1, 10), ("seed-001", 5, 0, 1, 5),
    ],
)  # fmt: skip
def test_r_mult_3_opponent_koikoi(name, base, wc, lc, final) -> None:
    """R-MULT-3 / A-12 / A-37: winning after the opponent's koi-koi doubles once (seed-000,
    nintendo: 7 -> 28, 6 -> 12; own koi-koi 8 -> 16); seed-003 has it in the linear factor."""
    assert payout(base, PRESETS[name], winner_calls=wc, loser_calls=lc) == final


def test_r_mult_4_bright_field_and_the_224_example() -> None:
    """R-MULT-4 / R-MULT: x(1 + n_field_brights) when on; §10 example seed-000 base 7, two own
    calls, one opponent call, one field bright: 7 x 2 x 4 x 2 x 2 = 224."""
    on = variant(PRESETS["seed-000"], bright_field_multiplier=True)
    assert payout(7, on, winner_calls=2, loser_calls=1, field_brights=1) == 224
    assert payout(7, PRESETS["seed-000"], winner_calls=2, loser_calls=1, field_brights=1) == 112
    assert payout(7, on, winner_calls=2, loser_calls=1, field_brights=0) == 112
    assert payout(5, on, winner_calls=0, loser_calls=0, field_brights=4) == 25
    for name in PRESET_NAMES:
        assert PRESETS[name].bright_field_multiplier is False
        assert payout(5, PRESETS[name], winner_calls=0, loser_calls=0, field_brights=3) == 5


@pytest.mark.parametrize(
    ("changes", "final"),
    [({"seven_plus_double": False}, 7 * 4 * 2), ({"koi_multiplier": "none"}, 7 * 2 * 2),
     ({"opponent_koi_double": False}, 7 * 2 * 4), ({}, 7 * 2 * 4 * 2)],
)  # fmt: skip
def test_r_mult_each_factor_a_toggle(changes, final) -> None:
    """R-MULT / A-27: seed-000's factors are independent toggles."""
    r = variant(PRESETS["seed-000"], **changes)
    assert payout(7, r, winner_calls=2, loser_calls=1) == final


@pytest.mark.parametrize(("field_swap", "factor"), [(None, 3), (41, 4)])
def test_r_mult_4_in_a_round_counts_the_dealt_field(field_swap, factor) -> None:
    """R-MULT-4 / R-DEAL-5 / A-16: the bright count is taken from the field as dealt (curtain
    and moon: 2; with the rain man: 3), even though the winner captured the curtain."""
    r = variant(PRESETS["seed-000"], bright_field_multiplier=True)
    field = [41 if (field_swap and c == 3) else c for c in KOI_FIELD]
    deck = stacked_deck(r, 0, KOI_DEALER, KOI_ND, field, KOI_PILE)
    m = new_match(r, first_dealer=0, decks=[deck], seed=3)
    m.apply("play 10")
    m.apply("stop")
    e = m.ledger[0]
    assert (e.winner, e.base, e.final, e.paid) == (0, 5, 5 * factor, 5 * factor)
    assert m.balances == (100 + 5 * factor, 100 - 5 * factor)


# --------------------------------------------------------------------------- §11 R-PAY


@pytest.mark.parametrize(
    ("name", "changes", "balances"),
    [("seed-000", {}, (105, 95)), ("seed-003", {}, (3, -3)), ("nintendo", {}, (5, 0)),
     ("seed-001", {}, (5, 0)), ("seed-001", {"settlement": "zero_sum"}, (5, -5))],
)  # fmt: skip
def test_r_pay_settlement(name, changes, balances) -> None:
    """R-PAY: transfer_capped (seed-000), zero_sum (seed-003, seed-001 variant), winner_only
    (nintendo, seed-001); the ledger records the round."""
    r = variant(PRESETS[name], **changes) if changes else PRESETS[name]
    m = new_match(r, first_dealer=0, decks=[koi_deck(r)], seed=5)
    m.apply("play 10")
    m.apply("stop")
    assert m.balances == balances
    e = m.ledger[0]
    assert e.round == 1 and e.dealer == 0 and e.winner == 0
    assert [k for k, _ in e.yaku] == ["hanami"]
    assert e.balances == balances and e.paid == e.final == e.base


def test_r_pay_transfer_capped_and_bankruptcy() -> None:
    """R-PAY / R-MATCH-1 / A-21: the loser pays at most his coins; reaching 0 ends the match at
    once, the richer player winning."""
    r = variant(PRESETS["seed-000"], starting_balance=10)
    deck = instant_deck(r, 0, 0, (1, 2, 3, 4, 5, 6, 7, 8))  # double tenho 14
    m = new_match(r, first_dealer=0, decks=[deck], seed=1)
    assert "declare" in legal_texts(m.round)
    m.apply("declare")
    e = m.ledger[0]
    assert (e.final, e.paid) == (14, 10)
    assert m.balances == (20, 0) and sum(m.balances) == 20
    assert m.outcome is not None and m.outcome.winner == 0 and len(m.ledger) == 1
    with pytest.raises(IllegalAction):
        m.apply("play 1")


def _declare_round(m) -> None:  # type: ignore[no-untyped-def]
    """seed-000: whoever holds the instant win declares at his first turn."""
    n = len(m.ledger)
    while len(m.ledger) == n:
        names = legal_texts(m.round)
        if "declare" in names:
            m.apply("declare")
        else:
            m.apply(next(a for a in m.round.legal_actions() if str(a) not in ("stop",)))


@pytest.mark.parametrize(
    ("rounds", "winners", "coins", "result"),
    [(3, [0, 1, 1], 25, 1), (2, [0, 1], 100, None), (3, [0, 0, 1], 25, 0)],
)
def test_r_match_1_seed000_rounds(rounds, winners, coins, result) -> None:
    """R-MATCH-1 / R-SETUP-3: seed-000 ends after the agreed rounds; more coins wins, equal
    coins is a drawn match (A-22); the winner (a declarer) deals next."""
    r = PRESETS["seed-000"]
    decks = []
    dealer = 0
    for w in winners:
        decks.append(instant_deck(r, dealer, w))
        dealer = w
    m = new_match(r, first_dealer=0, rounds=rounds, decks=decks, seed=2)
    assert m.balances == (coins, coins)
    for i, w in enumerate(winners):
        assert m.outcome is None
        _declare_round(m)
        assert m.ledger[i].winner == w and m.ledger[i].final == 6
    assert m.outcome is not None and m.outcome.winner == result
    assert len(m.ledger) == rounds


def _instant_match(rules, winners, rounds=None, extra_decks=()):  # type: ignore[no-untyped-def]
    decks = []
    dealer = 0
    for w in winners:
        decks.append(instant_deck(rules, dealer, w))
        dealer = w
    decks += list(extra_decks)
    return new_match(rules, first_dealer=0, rounds=rounds, decks=decks, seed=9)


def test_r_match_2_seed003_tie_plays_extra_rounds() -> None:
    """R-MATCH-2: seed-003 after 6 (or 12) rounds: equal totals -> one more round, repeated until
    they differ (zero-sum instant wins 6)."""
    r = PRESETS["seed-003"]
    m = _instant_match(r, [0, 1, 0, 1, 0, 1, 1, 0, 0], rounds=6)
    assert [e.balances for e in m.ledger][5] == (0, 0)
    assert len(m.ledger) == 7  # the extra round broke the tie
    assert m.outcome is not None and m.outcome.winner == 1 and m.balances == (-6, 6)
    m = _instant_match(r, [0, 0, 1, 1, 0, 0], rounds=6)
    assert len(m.ledger) == 6 and m.outcome.winner == 0 and m.balances == (12, -12)
    m = _instant_match(r, [1] * 12)
    assert len(m.ledger) == 12 and m.outcome.winner == 1


def test_r_match_2_seed003_end_between_rounds() -> None:
    """R-MATCH-2 / A-44: seed-003 players may end the match between rounds: higher total wins,
    equal totals are a drawn match (no extra round); not mid-round; not in other presets."""
    r = PRESETS["seed-003"]
    normal = stacked_deck(r, 0)
    m = _instant_match(r, [0], extra_decks=[normal])
    assert m.outcome is None and len(m.ledger) == 1
    out = m.end_now()
    assert out.winner == 0 and m.outcome.winner == 0
    m = _instant_match(r, [0, 1], extra_decks=[stacked_deck(r, 1)])
    assert m.balances == (0, 0) and m.dealer == 1
    assert m.end_now().winner is None
    m = _instant_match(r, [0], extra_decks=[normal])
    m.apply(m.round.legal_actions()[0])
    with pytest.raises(IllegalAction):
        m.end_now()
    n = _instant_match(PRESETS["nintendo"], [0], extra_decks=[stacked_deck(PRESETS["nintendo"], 0)])
    with pytest.raises(IllegalAction):
        n.end_now()


def test_r_match_3_seed001_target_50() -> None:
    """R-MATCH-3: seed-001 (instant wins switched on) ends after the round that takes a total to
    50 or more; that player wins."""
    r = variant(PRESETS["seed-001"], instant_teshi=6)
    m = _instant_match(r, [0] * 8 + [1, 0, 0])
    assert len(m.ledger) == 10 and m.balances == (54, 6)
    assert m.outcome is not None and m.outcome.winner == 0


def test_r_match_3_seed001_year_variant() -> None:
    """R-MATCH-3: the "year" variant has no target: after 12 rounds the higher total wins;
    equal totals -> one more round, repeated until different."""
    r = variant(PRESETS["seed-001"], instant_teshi=6)
    m = _instant_match(r, [0, 1] * 6 + [1], rounds=12)
    assert len(m.ledger) == 13 and m.ledger[11].balances == (36, 36)
    assert m.outcome.winner == 1 and m.balances == (36, 42)
    m = _instant_match(r, [0] * 12, rounds=12)
    assert len(m.ledger) == 12 and m.outcome.winner == 0 and m.balances == (72, 0)


def test_r_match_4_nintendo_twelve_rounds() -> None:
    """R-MATCH-4 / A-22: nintendo after 12 rounds: higher total wins, equal totals a draw."""
    r = PRESETS["nintendo"]
    m = _instant_match(r, [0, 1] * 6)
    assert len(m.ledger) == 12 and m.balances == (36, 36)
    assert m.outcome is not None and m.outcome.winner is None
    m = _instant_match(r, [0, 1] * 5 + [1, 1])
    assert m.outcome.winner == 1 and m.balances == (30, 42)


def test_r_match_round_continues_until_outcome() -> None:
    """R-MATCH: a match's current round stays readable after the end; apply then raises."""
    m = _instant_match(PRESETS["nintendo"], [0] * 12)
    assert m.outcome is not None and m.round is not None
    with pytest.raises(IllegalAction):
        m.apply("stop")


# --------------------------------------------------------------------------- §13 rule sets

TABLE_13 = {
    "seed-000": dict(
        unit="coins", match_end="rounds", rounds=12, starting_balance=100,
        settlement="transfer_capped", bankruptcy_ends_match=True, target_score=None,
        final_tie="draw", end_match_anytime=False, first_dealer="oldest_player",
        dealer_after_no_winner="same", deal_packet=4, field_redeal="none", hand_exchange=False,
        bright_field_multiplier=False, instant_teshi=6, instant_kuttsuki=6,
        instant_double_tenho=14, instant_win_timing="first_turn",
        instant_win_declaration="optional", instant_win_multipliers=False, free_discard=True,
        flip_when_field_empty=False, gaji_wild=False, value_goko=10, value_shiko=8,
        value_ame_shiko=7, value_sanko=5, value_inoshikacho=5, value_akatan=5, value_aotan=5,
        value_tane=1, value_tanzaku=1, value_kasu=1, viewing_yaku=True,
        viewing_voided_by_rain_man=False, viewing_value=5, viewing_excluded_by_light_yaku=False,
        sake_cup_is_plain=True, sanko_allows_rain_man=False, one_yaku_per_card=False,
        set_yaku_absorb_extras=False, trio_bonus=None, seven_plus_double=True,
        koi_multiplier="double_per_call", opponent_koi_double=True, koikoi_limit=None,
        exhaustion="draw",
    ),
    "seed-003": dict(
        unit="points", match_end="rounds", rounds=12, starting_balance=0, settlement="zero_sum",
        bankruptcy_ends_match=False, target_score=None, final_tie="extra_round",
        end_match_anytime=True, first_dealer="lowest_month_draw",
        dealer_after_no_winner="alternate", deal_packet=4,
        field_redeal="four_of_a_month_or_four_pairs", hand_exchange=False,
        bright_field_multiplier=False, instant_teshi=6, instant_kuttsuki=6,
        instant_double_tenho=None, instant_win_timing="at_deal",
        instant_win_declaration="automatic", instant_win_multipliers=False, free_discard=False,
        flip_when_field_empty=True, gaji_wild=False, value_goko=15, value_shiko=10,
        value_ame_shiko=8, value_sanko=6, value_inoshikacho=5, value_akatan=6, value_aotan=6,
        value_tane=1, value_tanzaku=1, value_kasu=1, viewing_yaku=True,
        viewing_voided_by_rain_man=False, viewing_value=3, viewing_excluded_by_light_yaku=False,
        sake_cup_is_plain=False, sanko_allows_rain_man=False, one_yaku_per_card=True,
        set_yaku_absorb_extras=False, trio_bonus=None, seven_plus_double=False,
        koi_multiplier="linear_total_calls", opponent_koi_double=False, koikoi_limit=None,
        exhaustion="oya_hand_empty",
    ),
    "seed-001": dict(
        unit="points", match_end="target", rounds=None, starting_balance=0,
        settlement="winner_only", bankruptcy_ends_match=False, target_score=50,
        final_tie="extra_round", end_match_anytime=False, first_dealer="birth_month_reveal",
        dealer_after_no_winner="same", deal_packet=2, field_redeal="none", hand_exchange=False,
        bright_field_multiplier=False, instant_teshi=None, instant_kuttsuki=None,
        instant_double_tenho=None, instant_win_timing="at_deal",
        instant_win_declaration="automatic", instant_win_multipliers=False, free_discard=False,
        flip_when_field_empty=False, gaji_wild=False, value_goko=10, value_shiko=8,
        value_ame_shiko=7, value_sanko=5, value_inoshikacho=5, value_akatan=5, value_aotan=5,
        value_tane=1, value_tanzaku=1, value_kasu=1, viewing_yaku=True,
        viewing_voided_by_rain_man=False, viewing_value=5, viewing_excluded_by_light_yaku=False,
        sake_cup_is_plain=True, sanko_allows_rain_man=False, one_yaku_per_card=False,
        set_yaku_absorb_extras=False, trio_bonus=None, seven_plus_double=False,
        koi_multiplier="none", opponent_koi_double=False, koikoi_limit=None,
        exhaustion="last_koi_caller_scores",
    ),
    "nintendo": dict(
        unit="points", match_end="rounds", rounds=12, starting_balance=0,
        settlement="winner_only", bankruptcy_ends_match=False, target_score=None,
        final_tie="draw", end_match_anytime=False, first_dealer="lowest_month_draw",
        dealer_after_no_winner="alternate", deal_packet=2, field_redeal="four_of_a_month",
        hand_exchange=False, bright_field_multiplier=False, instant_teshi=6, instant_kuttsuki=6,
        instant_double_tenho=None, instant_win_timing="at_deal",
        instant_win_declaration="automatic", instant_win_multipliers=False, free_discard=False,
        flip_when_field_empty=False, gaji_wild=False, value_goko=10, value_shiko=8,
        value_ame_shiko=7, value_sanko=5, value_inoshikacho=5, value_akatan=5, value_aotan=5,
        value_akaao=10, value_tane=1, value_tanzaku=1, value_kasu=1,
        set_yaku_absorb_extras=True, viewing_yaku=True, viewing_voided_by_rain_man=False,
        viewing_value=5, viewing_excluded_by_light_yaku=False, sake_cup_is_plain=True,
        sanko_allows_rain_man=False, one_yaku_per_card=False, trio_bonus=None,
        seven_plus_double=True, koi_multiplier="none", opponent_koi_double=True, koikoi_limit=1,
        exhaustion="draw",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_presets_match_section_13(name) -> None:
    """§13 (R-SETUP-1, R-DEAL, R-INSTANT, R-YAKU, R-MULT, R-KOI, R-END, R-PAY, R-MATCH): every
    preset setting has the value of the tables (None where they say none/off)."""
    r = PRESETS[name]
    wrong = {k: (getattr(r, k), v) for k, v in TABLE_13[name].items() if getattr(r, k) != v}
    assert not wrong


def test_rules_frozen_and_variants() -> None:
    """Rules is a frozen pydantic model; model_validate({**preset.model_dump(), **changes})
    makes a variant; every named choice of §13 is accepted; only A-38 and capped transfers
    from an empty purse (nobody could ever pay) are rejected."""
    assert set(PRESETS) == {"nintendo", "seed-000", "seed-001", "seed-003"}
    r = PRESETS["nintendo"]
    with pytest.raises((ValidationError, TypeError, AttributeError)):
        r.koikoi_limit = 3  # type: ignore[misc]
    assert Rules.model_validate(r.model_dump()) == r
    choices = {
        "settlement": ["transfer_capped", "zero_sum", "winner_only"],
        "koi_multiplier": ["double_per_call", "linear_total_calls", "none"],
        "exhaustion": ["draw", "last_koi_caller_scores", "oya_hand_empty"],
        "field_redeal": ["none", "four_of_a_month", "four_of_a_month_or_four_pairs"],
        "first_dealer": ["oldest_player", "lowest_month_draw", "birth_month_reveal"],
        "dealer_after_no_winner": ["same", "alternate"],
        "instant_win_timing": ["first_turn", "at_deal"],
        "instant_win_declaration": ["optional", "automatic"],
        "final_tie": ["draw", "extra_round"],
        "koikoi_limit": [None, 0, 1, 2],
        "trio_bonus": [None, 3],
        "instant_double_tenho": [None, 14],
    }
    for name in PRESET_NAMES:
        for key, values in choices.items():
            for v in values:
                data = {**PRESETS[name].model_dump(), key: v}
                if v == "transfer_capped" and data["starting_balance"] == 0:
                    with pytest.raises(ValidationError, match="starting balance above 0"):
                        Rules.model_validate(data)
                    data["starting_balance"] = 100
                got = Rules.model_validate(data)
                assert getattr(got, key) == v
    assert Rules.model_validate({**r.model_dump(), "koikoi_limit": "2"}).koikoi_limit == 2
    with pytest.raises(ValidationError):
        Rules.model_validate({**r.model_dump(), "koi_multiplier": "triple"})


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_custom_variant_plays(name) -> None:
    """A custom rule set (every optional rule on that can be) plays a round to the end."""
    import random

    r = PRESETS[name]
    changes = dict(free_discard=True, flip_when_field_empty=True, gaji_wild=True,
                   hand_exchange=True, bright_field_multiplier=True, trio_bonus=3,
                   viewing_value=3, viewing_excluded_by_light_yaku=True)  # fmt: skip
    v = variant(r, **changes)
    for seed in range(10):
        s = new_round(v, dealer=seed % 2, rng=random.Random(seed))
        rng = random.Random(seed)
        while s.outcome is None:
            s.apply(rng.choice(s.legal_actions()))
        assert s.legal_actions() == []


def test_records_replay_rounds_and_matches() -> None:
    """Issue 2 §3: round and match records round-trip through text and replay exactly — a
    redealt deal (R-DEAL-3), instant wins (R-INSTANT), a koi-koi flow and an early end (A-44)."""
    from koikoi_desktop.engine import match_record, replay_match, replay_round, round_record

    r = PRESETS["seed-003"]
    s = new_round(r, dealer=0, deck=koi_deck(r))
    for mv in ("play 10", "koikoi", "play 22", "play 30", "play 38", "stop"):
        s.apply(mv)
    t = replay_round(round_record(s))
    assert t.outcome == s.outcome and round_record(t) == round_record(s)
    bad = stacked_deck(r, 0, field=[1, 2, 5, 6, 13, 14, 17, 18])  # four pairs: redeal
    m = new_match(r, first_dealer=0, seed=4,
                  decks=[bad, instant_deck(r, 0, 1), koi_deck(r, 1)])  # fmt: skip
    assert len(m.ledger) == 1 and m.dealer == 1
    m.apply("play 10")
    m.apply("stop")
    rng_moves = 0
    import random

    rng = random.Random(4)
    while len(m.ledger) < 4 and m.outcome is None:
        m.apply(rng.choice(m.round.legal_actions()))
        rng_moves += 1
    if m.can_end_now:
        m.end_now()
    text = match_record(m)
    again = replay_match(text)
    assert again.ledger == m.ledger and again.balances == m.balances
    assert again.outcome == m.outcome and match_record(again) == text


def test_rules_value_fields_for_every_yaku_key() -> None:
    """§13 / §7.2 (R-YAKU): every yaku key has a readable value_<key> on the rule set."""
    for name, hanami in (("seed-000", 5), ("seed-003", 3), ("seed-001", 5), ("nintendo", 5)):
        r = PRESETS[name]
        assert r.value_hanami == r.value_tsukimi == hanami  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "changes", "rounds"),
    [("seed-000", {}, 3), ("seed-000", {"starting_balance": 8}, None), ("seed-003", {}, 6),
     ("seed-001", {}, None), ("seed-001", {"settlement": "zero_sum"}, None),
     ("nintendo", {}, None)],
)  # fmt: skip
def test_r_pay_r_match_ledger_oracle(name, changes, rounds) -> None:
    """R-PAY / R-MATCH-1..4 / R-SETUP-3: over seeded random matches every ledger entry settles
    as §11 says (paid, balances), the dealer rotates as R-SETUP-3 says, and the match ends
    exactly when §12 says, with the right winner."""
    import random

    r = variant(PRESETS[name], **changes) if changes else PRESETS[name]
    for seed in range(4):
        m = new_match(r, first_dealer=seed % 2, rounds=rounds, seed=seed)
        rr = m.rules
        rng = random.Random(seed)
        while m.outcome is None:
            names = legal_texts(m.round)
            if "declare" in names:
                m.apply("declare")
            elif "koikoi" in names and rng.random() < 0.5:
                m.apply("koikoi")
            else:
                m.apply(rng.choice(m.round.legal_actions()))
        bal = [rr.starting_balance] * 2
        dealer = seed % 2
        for i, e in enumerate(m.ledger):
            assert e.round == i + 1 and e.dealer == dealer
            if e.winner is None:
                assert e.paid == 0
                dealer = dealer if rr.dealer_after_no_winner == "same" else 1 - dealer
            else:
                w, lo = e.winner, 1 - e.winner
                if rr.settlement == "transfer_capped":
                    assert e.paid == min(e.final, bal[lo])
                    bal[w] += e.paid
                    bal[lo] -= e.paid
                elif rr.settlement == "zero_sum":
                    assert e.paid == e.final
                    bal[w] += e.final
                    bal[lo] -= e.final
                else:
                    assert e.paid == e.final
                    bal[w] += e.final
                dealer = w
            assert e.balances == tuple(bal)
            over = (
                (rr.bankruptcy_ends_match and min(bal) <= 0)
                or (rr.match_end == "target" and max(bal) >= rr.target_score)
                or (rr.match_end == "rounds" and i + 1 >= rr.rounds
                    and not (rr.final_tie == "extra_round" and bal[0] == bal[1]))
            )  # fmt: skip
            assert over == (i == len(m.ledger) - 1), (i, bal)
        want = None if bal[0] == bal[1] else (0 if bal[0] > bal[1] else 1)
        assert m.outcome.winner == want and m.balances == tuple(bal)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_next_dealer_is_the_winner_or_per_the_no_winner_rule(name: str) -> None:
    """R-SETUP-3: the winner deals next; a round nobody wins keeps the dealer (seed-000,
    seed-001) or passes the deal (seed-003, nintendo) — the one rule ``Match`` and the match
    goal both ask."""
    from koikoi_desktop.engine.match import next_dealer

    rules = PRESETS[name]
    for dealer in (0, 1):
        assert next_dealer(rules, dealer, 0) == 0
        assert next_dealer(rules, dealer, 1) == 1
        passes = rules.dealer_after_no_winner == "alternate"
        assert next_dealer(rules, dealer, None) == (1 - dealer if passes else dealer)
    assert {n for n in PRESET_NAMES if PRESETS[n].dealer_after_no_winner == "alternate"} == {
        "seed-003",
        "nintendo",
    }
