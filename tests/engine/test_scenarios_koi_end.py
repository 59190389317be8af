"""Scenario tests for RULES.md §8 (stop or koi-koi) and §9 (end of round).

One stacked deal (``koi_deck``) drives the koi-koi flows. Turn by turn:

* T1 dealer ``play 10`` takes the curtain 9; the draw 33 (sake cup) takes 35: Hanami.
* T2 non-dealer ``play 22`` takes 21; the draw 26 takes 25.
* T3 dealer either ``play 4`` (takes 3; the draw 47 stays: nothing new) or ``play 30``
  (takes the moon 29: Tsukimi; Hanami + Tsukimi = 10 where cards are shared).
* T4 non-dealer ``play 38`` takes the deer 37: Ino-Shika-Chō (5); the draw 16 takes 15.
* T5 dealer ``play 46`` takes 47; the draw 1 takes 3 (after T3 = ``play 30``): Sankō too.

Exhaustion rules are checked on seeded random rounds against an oracle written from RULES.md.
"""

from __future__ import annotations

import random

import pytest

from koikoi_desktop.engine import PRESETS, new_match, new_round, payout, score_yaku
from tests.engine.helpers import PRESET_NAMES, assert_illegal, legal_texts, stacked_deck, variant

KOI_FIELD = [9, 35, 21, 25, 37, 29, 3, 15]
KOI_DEALER = [10, 30, 4, 46, 18, 42, 39, 27]
KOI_ND = [22, 38, 6, 11, 14, 19, 43, 48]
KOI_PILE = [33, 26, 47, 16, 1]

HANAMI = {"nintendo": 5, "seed-000": 5, "seed-001": 5, "seed-003": 3}


def koi_deck(rules, dealer=0):
    """The stacked deal described in the module docstring (dealer is player ``dealer``)."""
    return stacked_deck(rules, dealer, KOI_DEALER, KOI_ND, KOI_FIELD, KOI_PILE)


def koi_round(rules):
    s = new_round(rules, dealer=0, deck=koi_deck(rules))
    assert s.outcome is None and s.to_move == 0
    return s


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_koi_1_r_koi_2_first_yaku_gives_a_decision(name) -> None:
    """R-KOI-1 / R-KOI-2: ref starts at 0, so the first yaku gives the choice stop / koi-koi
    at the end of the turn; stopping wins the round with that base (R-KOI)."""
    s = koi_round(PRESETS[name])
    s.apply("play 10")
    assert s.to_move == 0 and legal_texts(s) == {"koikoi", "stop"}
    assert_illegal(s, "play 4")
    s.apply("stop")
    o = s.outcome
    assert (o.winner, o.base, o.final) == (0, HANAMI[name], HANAMI[name])
    assert [y.key for y in o.yaku] == ["hanami"]


@pytest.mark.parametrize(
    ("name", "final", "balances"),
    [("nintendo", 10, (0, 10)), ("seed-000", 10, (90, 110)), ("seed-003", 10, (-10, 10)),
     ("seed-001", 5, (0, 5))],
)  # fmt: skip
def test_r_koi_2_r_koi_3_r_koi_6_opponent_stops_after_a_koikoi(name, final, balances) -> None:
    """R-KOI-2: the opponent of a koi-koi caller may stop as soon as he has a yaku (ref 0);
    R-KOI-3: the caller's turn without improvement passes play; R-KOI-6: only the winner
    scores (the caller's Hanami counts for nothing); R-MULT-3 / A-9 / R-KOI-7 multipliers."""
    r = PRESETS[name]
    m = new_match(r, first_dealer=0, decks=[koi_deck(r)], seed=1)
    m.apply("play 10")
    m.apply("koikoi")
    assert m.round.to_move == 1
    m.apply("play 22")
    m.apply("play 4")  # base 5 = ref 5: no decision (R-KOI-3)
    assert m.round.to_move == 1 and "stop" not in legal_texts(m.round)
    m.apply("play 38")  # Ino-Shika-Chō for the non-dealer
    if name == "nintendo":  # R-KOI-7: forced stop, no action
        assert len(m.ledger) == 1
    else:
        assert legal_texts(m.round) == {"koikoi", "stop"}
        m.apply("stop")
    e = m.ledger[0]
    assert (e.winner, e.base, e.final) == (1, 5, final)
    assert m.balances == balances
    assert m.dealer == 1  # R-SETUP-3: the winner deals next


@pytest.mark.parametrize(("name", "final"), [("nintendo", 20), ("seed-000", 40), ("seed-001", 10)])
def test_r_koi_2_improvement_after_koikoi(name, final) -> None:
    """R-KOI-2: after a koi-koi only base > ref gives a new decision (Hanami 5 -> + Tsukimi 10).
    nintendo: the caller's improvement is a forced Stop (R-KOI-7): base 8+ after one's own
    koi-koi doubles only by 7+ (10 -> 20, §10); seed-000: 10 x 2 (7+) x 2 (one call) = 40."""
    s = koi_round(PRESETS[name])
    s.apply("play 10")
    s.apply("koikoi")
    s.apply("play 22")
    s.apply("play 30")
    if name == "nintendo":
        assert s.outcome is not None and s.to_move is None and s.legal_actions() == []
    else:
        assert s.to_move == 0 and legal_texts(s) == {"koikoi", "stop"}
        s.apply("stop")
    assert (s.outcome.winner, s.outcome.base, s.outcome.final) == (0, 10, final)


def test_r_koi_3_no_improvement_seed003_one_cup() -> None:
    """R-KOI-3: seed-003 Tsukimi does not add to Hanami (one sake cup, R-YAKU-4): base stays 3,
    no decision, play passes."""
    s = koi_round(PRESETS["seed-003"])
    s.apply("play 10")
    s.apply("koikoi")
    s.apply("play 22")
    s.apply("play 30")
    assert s.outcome is None and s.to_move == 1 and "stop" not in legal_texts(s)


@pytest.mark.parametrize(
    ("name", "final"),
    [
        ("seed-000", 15 * 2 * 4 * 2),  # 7+, two own calls, the opponent called (once)
        ("seed-001", 15),  # no multipliers
        ("seed-003", 6 * (1 + 1 + 1)),  # x(1 + k_w + k_l); Sankō 6 (cards not shared)
    ],
)
def test_r_koi_5_unlimited_calls_both_players(name, final) -> None:
    """R-KOI-5: seed presets allow any number of calls by both players, counted separately;
    the winner's final uses k_w and k_l (A-9, A-12)."""
    s = koi_round(PRESETS[name])
    s.apply("play 10")
    s.apply("koikoi")
    s.apply("play 22")
    s.apply("play 30")
    if name != "seed-003":
        s.apply("koikoi")  # second call by the dealer
    s.apply("play 38")
    assert s.to_move == 1 and legal_texts(s) == {"koikoi", "stop"}
    s.apply("koikoi")  # the non-dealer answers with his own call
    s.apply("play 46")  # takes 47; the draw 1 takes 3: Sankō
    assert s.to_move == 0 and legal_texts(s) == {"koikoi", "stop"}
    s.apply("stop")
    assert s.outcome.winner == 0 and s.outcome.final == final
    assert s.outcome.base == (15 if name != "seed-003" else 6)


def test_r_koi_5_nondealer_wins_after_two_calls_seed000() -> None:
    """R-KOI-5 / A-12: the opponent's two calls double the winner's score once."""
    s = koi_round(PRESETS["seed-000"])
    for mv in ("play 10", "koikoi", "play 22", "play 30", "koikoi", "play 38", "stop"):
        s.apply(mv)
    assert (s.outcome.winner, s.outcome.base, s.outcome.final) == (1, 5, 10)


@pytest.mark.parametrize(
    ("limit", "moves", "winner", "final"),
    [
        (0, ["play 10"], 0, 5),  # every decision is a forced Stop
        (1, ["play 10", "koikoi", "play 22", "play 4", "play 38"], 1, 10),
        (1, ["play 10", "koikoi", "play 22", "play 30"], 0, 20),
        (2, ["play 10", "koikoi", "play 22", "play 30", "koikoi", "play 38"], 1, 10),
        (None, ["play 10", "koikoi", "play 22", "play 30", "koikoi", "play 38", "stop"], 1, 10),
    ],
)
def test_r_koi_7_koikoi_limit(limit, moves, winner, final) -> None:
    """R-KOI-7 / A-32: nintendo allows N = 1 call per round for both players together; once N
    calls were made every decision is a forced Stop, with no input (custom N = 0, 2, none)."""
    r = PRESETS["nintendo"] if limit == 1 else variant(PRESETS["nintendo"], koikoi_limit=limit)
    s = koi_round(r)
    for mv in moves[:-1]:
        s.apply(mv)
        assert s.outcome is None
    s.apply(moves[-1])
    assert s.outcome is not None and s.legal_actions() == []
    assert (s.outcome.winner, s.outcome.final) == (winner, final)


def test_r_koi_7_other_player_cannot_answer() -> None:
    """R-KOI-7: in nintendo the non-dealer cannot answer a koi-koi with his own: no decision
    is offered, the round ends with his win doubled by R-MULT-3."""
    s = koi_round(PRESETS["nintendo"])
    for mv in ("play 10", "koikoi", "play 22", "play 4"):
        s.apply(mv)
    assert "koikoi" not in legal_texts(s)
    s.apply("play 38")
    assert s.outcome.winner == 1 and s.outcome.base == 5 and s.outcome.final == 10


# --------------------------------------------------------------------------- random rounds


def playout(rules, seed, p_koi=0.85):
    """Play a seeded random round; return (state, decisions) where decisions lists
    (player, choice) for every stop/koi-koi decision offered ("forced" when none was)."""
    s = new_round(rules, dealer=seed % 2, rng=random.Random(seed))
    rng = random.Random(seed * 7 + 1)
    decisions: list[tuple[int, str]] = []
    while s.outcome is None:
        acts = s.legal_actions()
        names = {str(a) for a in acts}
        p = s.to_move
        if "stop" in names:
            choice = "koikoi" if "koikoi" in names and rng.random() < p_koi else "stop"
            decisions.append((p, choice))
            s.apply(choice)
            continue
        if "declare" in names:
            s.apply("declare")
            continue
        s.apply(rng.choice([a for a in acts if str(a) not in ("keep", "exchange")] or acts))
    return s, decisions


def test_r_koi_4_last_turn_only_stop() -> None:
    """R-KOI-4 / A-14: with an empty hand the decision is Stop only; koi-koi is rejected."""
    found = 0
    for name in ("seed-000", "seed-001", "seed-003"):
        r = PRESETS[name]
        for seed in range(400):
            s = new_round(r, dealer=seed % 2, rng=random.Random(seed))
            rng = random.Random(seed)
            while s.outcome is None:
                names = legal_texts(s)
                if "stop" in names:
                    p = s.to_move
                    if not s.hand(p):
                        assert names == {"stop"}
                        assert_illegal(s, "koikoi", "stop")
                        found += 1
                        s.apply("stop")
                        assert s.outcome is not None and s.outcome.winner == p
                        break
                    s.apply("koikoi")
                    continue
                s.apply(rng.choice(s.legal_actions()))
            if found >= 6:
                return
    assert found > 0


@pytest.mark.parametrize("name", ["seed-000", "nintendo"])
def test_r_end_1_exhaustion_is_a_draw(name) -> None:
    """R-END-1: seed-000 / nintendo: after the 16th turn the round is a draw, whatever yaku and
    calls exist (nintendo: a koi-koi caller who never improved scores nothing, R-KOI-7)."""
    r = PRESETS[name]
    draws = with_calls = 0
    for seed in range(150):
        s, decisions = playout(r, seed)
        if s.outcome.winner is None:
            draws += 1
            assert not s.hand(0) and not s.hand(1)
            assert s.outcome.final == 0
            with_calls += any(c == "koikoi" for _, c in decisions)
    assert draws > 0 and with_calls > 0


@pytest.mark.parametrize("name", ["seed-000", "nintendo"])
def test_r_end_1_draw_in_a_match_moves_nothing(name) -> None:
    """R-END-1 / R-PAY: a drawn round pays nothing; the dealer stays (seed-000) or passes
    (nintendo, A-33)."""
    r = PRESETS[name]
    seen = 0
    for seed in range(40):
        m = new_match(r, first_dealer=0, seed=seed)
        rng = random.Random(seed)
        before = m.balances
        dealer = m.dealer
        while not m.ledger:
            names = legal_texts(m.round)
            m.apply("koikoi" if "koikoi" in names else rng.choice(m.round.legal_actions()))
        e = m.ledger[0]
        if e.winner is None:
            seen += 1
            assert m.balances == before and e.paid == 0 and e.final == 0
            assert m.dealer == (dealer if name == "seed-000" else 1 - dealer)
    assert seen > 0


def test_r_end_2_last_koi_caller_scores_seed001() -> None:
    """R-END-2: seed-001: when the hands run out the most recent koi-koi caller wins with his
    current base (no multipliers); nobody called -> nobody scores."""
    r = PRESETS["seed-001"]
    won = none = 0
    for seed in range(200):
        s, decisions = playout(r, seed)
        o = s.outcome
        if s.hand(0) or s.hand(1) or (decisions and decisions[-1][1] == "stop"):
            continue  # ended by a stop
        callers = [p for p, c in decisions if c == "koikoi"]
        if callers:
            won += 1
            w = callers[-1]
            base = score_yaku(s.captured(w), r).base
            assert (o.winner, o.base, o.final) == (w, base, base)
        else:
            none += 1
            assert o.winner is None and o.final == 0
    assert won > 0 and none > 0


def test_r_end_3_oya_hand_empty_seed003() -> None:
    """R-END-3 / A-26: seed-003 ends right after the Oya's 8th turn (the non-dealer keeps one
    card): void if nobody or the Oya made the last decision, else the non-dealer wins with his
    base and the usual multipliers."""
    r = PRESETS["seed-003"]
    void = nd_win = 0
    for seed in range(300):
        s, decisions = playout(r, seed)
        o = s.outcome
        dealer = s.dealer
        nd = 1 - dealer
        if s.hand(dealer):
            continue  # ended by a stop (or instant win) before the Oya's hand ran out
        if decisions and decisions[-1][1] == "stop":
            continue  # the Oya improved on his last turn and stopped
        assert len(s.hand(nd)) == 1
        if decisions and decisions[-1][0] == nd:
            nd_win += 1
            base = score_yaku(s.captured(nd), r).base
            k_w = sum(1 for p, c in decisions if p == nd and c == "koikoi")
            k_l = sum(1 for p, c in decisions if p == dealer and c == "koikoi")
            assert (o.winner, o.base) == (nd, base)
            assert (
                o.final
                == payout(base, r, winner_calls=k_w, loser_calls=k_l)
                == base * (1 + k_w + k_l)
            )
        else:
            void += 1
            assert o.winner is None and o.final == 0
    assert void > 0 and nd_win > 0


def test_r_end_3_void_round_passes_the_deal() -> None:
    """R-END-3 / R-SETUP-3: after a void round the Oya changes and nobody is paid."""
    r = PRESETS["seed-003"]
    for seed in range(60):
        m = new_match(r, first_dealer=0, seed=seed)
        rng = random.Random(seed)
        while not m.ledger:
            names = legal_texts(m.round)
            m.apply("koikoi" if "koikoi" in names else rng.choice(m.round.legal_actions()))
        e = m.ledger[0]
        if e.winner is None:
            assert m.balances == (0, 0) and m.dealer == 1
            return
    pytest.fail("no void round found")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_end_round_endings(name) -> None:
    """R-END: a round ends by an instant win, a stop, or the hands running out; the winner's
    final equals payout(base) with the calls made (R-MULT), instant wins excepted."""
    r = PRESETS[name]
    for seed in range(80):
        s, decisions = playout(r, seed, p_koi=0.5)
        o = s.outcome
        if o.winner is None:
            assert o.final == 0
            continue
        w = o.winner
        if not decisions and not s.captured(0) and not s.captured(1):
            assert o.final == o.base in (6, 14)  # instant win (R-INSTANT-3)
            continue
        k_w = sum(1 for p, c in decisions if p == w and c == "koikoi")
        k_l = sum(1 for p, c in decisions if p != w and c == "koikoi")
        assert o.base == score_yaku(s.captured(w), r).base
        assert o.final == payout(o.base, r, winner_calls=k_w, loser_calls=k_l)


def test_r_koi_4_nintendo_last_turn_explicit_stop() -> None:
    """R-KOI-4 / R-KOI-7: nintendo, before any koi-koi, a decision with an empty hand is an
    explicit `stop` (the only legal action), not a forced end."""
    r = PRESETS["nintendo"]
    for seed in range(600):
        s = new_round(r, dealer=seed % 2, rng=random.Random(seed))
        rng = random.Random(seed)
        while s.outcome is None:
            names = legal_texts(s)
            if "stop" in names:
                p = s.to_move
                if not s.hand(p):
                    assert names == {"stop"}
                    assert_illegal(s, "koikoi")
                    s.apply("stop")
                    assert s.outcome.winner == p
                    return
                s.apply("stop")
                break
            s.apply(rng.choice(s.legal_actions()))
    pytest.fail("no last-turn decision found")
