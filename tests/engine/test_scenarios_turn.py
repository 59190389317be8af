"""Scenario tests for RULES.md §6: the turn, its invariants, the move text and illegal moves.

Each test names the rule id it checks. The decks are stacked with ``helpers.stacked_deck`` so
that every play and draw is known; the comments trace each turn.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from koikoi_desktop.engine import PRESETS, Action, IllegalAction, new_round, round_record
from tests.engine.helpers import (
    PRESET_NAMES,
    assert_illegal,
    legal_texts,
    month,
    scenario,
    snapshot,
    variant,
)

# --------------------------------------------------------------------------- R-TURN-1 / -2

#: field with three of January, two of February, one of March (R-TURN-1 table m = 3, 2, 1).
TABLE_FIELD = [1, 2, 3, 5, 6, 9, 17, 21]
TABLE_DEALER = [4, 7, 10, 45, 13, 18, 26, 30]
TABLE_ND = [14, 22, 27, 31, 34, 38, 42, 47]


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(
    ("move", "captured", "left_on_field"),
    [
        ("play 45", set(), {45}),  # m = 0: placed face up
        ("play 10", {9, 10}, set()),  # m = 1: both captured
        ("play 7>5", {5, 7}, {6}),  # m = 2: the chosen one, the other stays
        ("play 7>6", {6, 7}, {5}),
        ("play 4", {1, 2, 3, 4}, set()),  # m = 3: all four
    ],
)
def test_r_turn_1_hand_phase_table(name, move, captured, left_on_field) -> None:
    """R-TURN-1: the hand-phase table m = 0, 1, 2, 3 (three of a month dealt to the field are
    not a redeal in any preset: R-DEAL-3, R-INV-4, A-29)."""
    r = PRESETS[name]
    s = scenario(r, 0, TABLE_DEALER, TABLE_ND, TABLE_FIELD, pile=[36])  # 36: no match
    assert s.outcome is None and set(s.field) == set(TABLE_FIELD)
    s.apply(move)
    assert set(s.captured(0)) == captured
    assert left_on_field <= set(s.field)
    assert 36 in s.field  # the draw followed at once (m = 0 for it)
    assert s.to_move == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_turn_1_two_matches_need_a_choice(name) -> None:
    """R-TURN-1: with two field matches `play C` is illegal (the message names the options)."""
    s = scenario(PRESETS[name], 0, TABLE_DEALER, TABLE_ND, TABLE_FIELD, pile=[36])
    assert {"play 7>5", "play 7>6"} <= legal_texts(s) and "play 7" not in legal_texts(s)
    assert_illegal(s, "play 7", "7>5", "7>6")
    assert "play 4" in legal_texts(s) and "play 10" in legal_texts(s)


DRAW_DEALER = [45, 14, 18, 26, 30, 38, 42, 47]
DRAW_ND = [15, 19, 27, 31, 35, 39, 43, 46]


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(
    ("top", "captured", "pending"),
    [(36, set(), False), (11, {9, 11}, False), (8, None, True), (4, {1, 2, 3, 4}, False)],
)
def test_r_turn_2_draw_phase(name, top, captured, pending) -> None:
    """R-TURN-2: the drawn card resolves like the table; with two matches the same player
    chooses with draw>T; a drawn card that matches must capture (no free discard)."""
    r = PRESETS[name]
    s = scenario(r, 0, DRAW_DEALER, DRAW_ND, TABLE_FIELD, pile=[top])
    s.apply("play 45")  # no match: placed
    if pending:
        assert s.to_move == 0
        assert legal_texts(s) == {"draw>5", "draw>6"}
        assert_illegal(s, "play 14")
        s.apply("draw>6")
        assert set(s.captured(0)) == {6, 8} and 5 in s.field
    else:
        assert set(s.captured(0)) == captured
        if not captured:
            assert top in s.field
    assert s.to_move == 1


def test_r_turn_1a_free_discard_seed000() -> None:
    """R-TURN-1a / A-8: seed-000 may place any hand card on the field, even one that matches;
    a month may then gather 3 field cards and the 4th takes all (table m = 3)."""
    r = PRESETS["seed-000"]
    field = [9, 14, 19, 23, 27, 31, 35, 39]
    dealer = [10, 12, 1, 5, 18, 22, 45, 46]
    nd = [11, 2, 6, 26, 30, 34, 38, 47]
    s = scenario(r, 0, dealer, nd, field, pile=[3, 7, 48])
    assert {"discard 10", "play 10"} <= legal_texts(s)
    assert "discard 45" not in legal_texts(s)  # no match: it is simply `play 45`
    s.apply("discard 10")
    assert {9, 10} <= set(s.field) and not s.captured(0)
    s.apply("discard 11")
    assert {9, 10, 11} <= set(s.field) and not s.captured(1)
    s.apply("play 12")
    assert {9, 10, 11, 12} <= set(s.captured(0))


@pytest.mark.parametrize("name", ["nintendo", "seed-001", "seed-003"])
def test_r_turn_1a_no_free_discard_elsewhere(name) -> None:
    """R-TURN-1a: without free discard a matching hand card must capture; `discard` is rejected
    with a message and changes nothing."""
    r = PRESETS[name]
    s = scenario(r, 0, [10, 12, 1, 5, 18, 22, 45, 46], [11, 2, 6, 26, 30, 34, 38, 47],
                 [9, 14, 19, 23, 27, 31, 35, 39], pile=[3, 7, 48])  # fmt: skip
    assert not any(a.startswith("discard") for a in legal_texts(s))
    assert_illegal(s, "discard 10")


# --------------------------------------------------------------------------- R-TURN-1b Gaji

GAJI_FIELD = [1, 2, 9, 35, 13, 17, 21, 25]
GAJI_DEALER = [44, 5, 14, 18, 22, 26, 30, 45]
GAJI_ND = [10, 42, 6, 38, 39, 46, 47, 15]  # 42: a November card in a hand does not count


def test_r_turn_1b_gaji_wild_pairing_and_sweep() -> None:
    """R-TURN-1b / R-END-4 / A-25: with gaji_wild, 44 played from the hand while no other
    November card is face up pairs with any field card; at the round's end its owner sweeps
    the field cards of that month (here the loser: the non-dealer stops with Hanami)."""
    r = variant(PRESETS["seed-003"], gaji_wild=True)
    s = scenario(r, 0, GAJI_DEALER, GAJI_ND, GAJI_FIELD, pile=[48, 33])
    legal = legal_texts(s)
    assert {f"play 44>{t}" for t in GAJI_FIELD} <= legal and "play 44" in legal
    s.apply("play 44>1")  # wild: January becomes the dealer's Gaji month
    assert set(s.captured(0)) == {1, 44} and 2 in s.field
    s.apply("play 10")  # takes 9; the draw 33 takes 35: Hanami (3)
    assert legal_texts(s) == {"koikoi", "stop"}
    s.apply("stop")
    assert s.outcome.winner == 1 and s.outcome.base == 3 and s.outcome.final == 3
    assert set(s.captured(0)) == {1, 2, 44}  # the sweep took 2 (January)
    assert not any(month(c) == 1 for c in s.field)


def test_r_turn_1b_gaji_off_or_november_visible() -> None:
    """R-TURN-1b: without the variant, or with a November card on the field, 44 is ordinary."""
    plain = PRESETS["seed-003"]
    s = scenario(plain, 0, GAJI_DEALER, GAJI_ND, GAJI_FIELD, pile=[48, 33])
    assert not any(a.startswith("play 44>") for a in legal_texts(s))
    r = variant(plain, gaji_wild=True)
    field = [1, 2, 9, 35, 13, 17, 21, 43]
    s = scenario(r, 0, GAJI_DEALER, GAJI_ND, field, pile=[48, 33])
    assert "play 44" in legal_texts(s)
    assert not any(a.startswith("play 44>") for a in legal_texts(s))
    s.apply("play 44")
    assert set(s.captured(0)) == {43, 44}


def test_r_turn_1b_gaji_blocked_by_captured_november() -> None:
    """R-TURN-1b / A-25: a November card in a capture pile also blocks the wild pairing."""
    r = variant(PRESETS["seed-003"], gaji_wild=True)
    s = scenario(r, 0, [42, 44, 5, 14, 18, 22, 30, 45], [10, 6, 38, 39, 46, 47, 15, 34],
                 [43, 1, 9, 35, 13, 17, 21, 25], pile=[48, 40, 36])  # fmt: skip
    assert not any(a.startswith("play 44>") for a in legal_texts(s))  # 43 on the field
    s.apply("play 42")  # takes 43: November is now in a capture pile
    assert {42, 43} <= set(s.captured(0))
    while s.to_move == 1 and s.outcome is None:
        s.apply(s.legal_actions()[0])
    assert s.to_move == 0
    assert not any(month(c) == 11 for c in s.field)
    assert "play 44" in legal_texts(s)
    assert not any(a.startswith("play 44>") for a in legal_texts(s))


def test_r_turn_1b_drawn_gaji_is_not_wild() -> None:
    """R-TURN-1b: card 44 drawn from the pile is never wild (no match: it stays on the field)."""
    r = variant(PRESETS["seed-003"], gaji_wild=True)
    s = scenario(r, 0, [45, 5, 14, 18, 22, 26, 30, 40], GAJI_ND, GAJI_FIELD, pile=[44])
    s.apply("play 45")
    assert 44 in s.field and s.to_move == 1


def test_r_end_4_sweep_then_winner_scored_on_final_piles() -> None:
    """R-END-4: the Gaji owner's sweep happens first; the winner's base is computed on the
    final piles (custom seed-003 with shared cards: Tsukimi 3 at the stop, + Hanami 3 from
    the swept curtain = 6); no new decision follows."""
    r = variant(PRESETS["seed-003"], gaji_wild=True, one_yaku_per_card=False)
    field = [9, 10, 35, 29, 3, 7, 15, 19]
    dealer = [44, 30, 4, 8, 16, 20, 24, 48]
    nd = [42, 26, 38, 40, 46, 47, 27, 36]
    s = scenario(r, 0, dealer, nd, field, pile=[33, 5, 13])
    s.apply("play 44>10")  # Gaji month 3; the draw 33 takes 35
    assert set(s.captured(0)) == {10, 44, 33, 35} and s.to_move == 1
    s.apply("play 26")  # no match; the draw 5 takes 7
    assert s.to_move == 0
    s.apply("play 30")  # takes the moon 29: Tsukimi; the draw 13 takes 15
    assert legal_texts(s) == {"koikoi", "stop"}
    s.apply("stop")
    assert 9 in s.captured(0)  # swept
    assert s.outcome.winner == 0 and s.outcome.base == 6 and s.outcome.final == 6
    assert s.legal_actions() == [] and s.to_move is None


# --------------------------------------------------------------------------- R-TURN-0 flip

FLIP_FIELD = [1, 5, 9, 13, 17, 21, 25, 29]
FLIP_DEALER = [2, 10, 33, 34, 35, 41, 42, 45]
FLIP_ND = [18, 26, 37, 38, 39, 46, 47, 43]
FLIP_PILE = [7, 23, 15, 31, 36, 48]


def _empty_the_field(s) -> None:  # type: ignore[no-untyped-def]
    for mv in ("play 2", "play 18", "play 10", "play 26"):
        s.apply(mv)
    assert s.to_move == 0 and s.outcome is None


def test_r_turn_0_empty_field_flip_seed003() -> None:
    """R-TURN-0 / A-5: seed-003, at the start of a turn with an empty field the top pile card
    is turned onto the field; it captures nothing and the turn still draws."""
    r = PRESETS["seed-003"]
    s = scenario(r, 0, FLIP_DEALER, FLIP_ND, FLIP_FIELD, pile=FLIP_PILE)
    pile_before = s.view(0).pile_size
    _empty_the_field(s)
    # 4 turns drew 4 cards, then the flip took one more
    assert set(s.field) == {36}
    assert s.view(0).pile_size == pile_before - 5
    assert 36 not in s.captured(0) | s.captured(1)
    s.apply("play 34")  # takes the flipped 36; the draw 48 stays on the field
    assert {34, 36} <= set(s.captured(0)) and set(s.field) == {48}


@pytest.mark.parametrize("name", ["nintendo", "seed-000", "seed-001"])
def test_r_turn_0_no_flip_elsewhere(name) -> None:
    """R-TURN-0: other presets do not flip; a card played onto an empty field stays there."""
    r = PRESETS[name]
    s = scenario(r, 0, FLIP_DEALER, FLIP_ND, FLIP_FIELD, pile=FLIP_PILE)
    _empty_the_field(s)
    assert set(s.field) == set()
    s.apply("play 34")  # placed; then the draw 36 takes it
    assert {34, 36} <= set(s.captured(0))


# --------------------------------------------------------------------------- R-TURN-3 decision

DEC_FIELD = [9, 33, 29, 3, 7, 15, 19, 23]
DEC_DEALER = [10, 34, 40, 42, 26, 44, 45, 14]
DEC_ND = [38, 5, 13, 17, 21, 25, 37, 41]


@pytest.mark.parametrize(
    ("name", "base", "final"),
    [("nintendo", 10, 20), ("seed-000", 10, 20), ("seed-001", 10, 10), ("seed-003", 3, 3)],
)
def test_r_turn_3_decision_after_the_draw(name, base, final) -> None:
    """R-TURN-3 / A-43: a yaku made by the hand card is decided only after the draw phase, on
    the base reached by both actions (Hanami by the hand card, Tsukimi by the draw)."""
    r = PRESETS[name]
    s = scenario(r, 0, DEC_DEALER, DEC_ND, DEC_FIELD, pile=[48, 39, 30])
    s.apply("play 10")  # takes 9; the draw 48 stays
    s.apply("play 38")  # no match; the draw 39 takes 38
    assert s.to_move == 0
    s.apply("play 34")  # takes the cup 33 (Hanami); the draw 30 takes the moon 29
    assert {29, 30, 33, 34} <= set(s.captured(0))
    assert s.to_move == 0 and legal_texts(s) == {"koikoi", "stop"}
    s.apply("stop")
    assert (s.outcome.winner, s.outcome.base, s.outcome.final) == (0, base, final)


def test_r_turn_turns_alternate_from_the_dealer() -> None:
    """R-TURN: the dealer takes the first turn, turns alternate and cannot be skipped."""
    for name in PRESET_NAMES:
        for seed in range(20):
            s = new_round(PRESETS[name], dealer=seed % 2, rng=random.Random(seed))
            if s.outcome is not None:
                continue
            rng = random.Random(seed)
            expected = seed % 2
            while s.outcome is None:
                acts = s.legal_actions()
                assert acts, "a running round always has a legal action"
                a = rng.choice(acts)
                if a.kind in ("play", "discard"):
                    assert s.to_move == expected
                    expected = 1 - expected
                s.apply(a)


def test_r_turn_4_capture_piles_public_hands_private() -> None:
    """R-TURN-4: capture piles are face up for both players; a view never shows the opponent's
    hand or the draw pile order."""
    r = PRESETS["nintendo"]
    s = scenario(r, 0, TABLE_DEALER, TABLE_ND, TABLE_FIELD, pile=[36])
    s.apply("play 10")
    for p in (0, 1):
        v = s.view(p)
        assert set(v.captured[0]) == set(s.captured(0)) == {9, 10}
        assert set(v.hand) == set(s.hand(p))
        hidden = set(s.hand(1 - p))
        for f in dataclasses.fields(v):
            val = getattr(v, f.name)
            if isinstance(val, (tuple, frozenset, set, list)) and all(
                isinstance(x, int) for x in val
            ):
                assert not hidden & set(val), f.name
        assert v.opponent_hand_size == len(hidden)


# --------------------------------------------------------------------------- R-INV


def _random_rounds(name: str, n: int, seed0: int = 0, **changes: object):  # type: ignore[no-untyped-def]
    r = variant(PRESETS[name], **changes) if changes else PRESETS[name]
    for seed in range(seed0, seed0 + n):
        s = new_round(r, dealer=seed % 2, rng=random.Random(seed))
        yield s, random.Random(seed + 1000)


def _check_partition(s) -> None:  # type: ignore[no-untyped-def]
    parts = [set(s.hand(0)), set(s.hand(1)), set(s.field), set(s.captured(0)), set(s.captured(1))]
    seen = set().union(*parts)
    assert sum(map(len, parts)) == len(seen), "a card is in two places"
    pending = 1 if any(a.kind == "draw" for a in s.legal_actions()) else 0
    assert len(seen) + s.view(0).pile_size + pending == 48


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_inv_1_cards_partitioned_captures_even(name) -> None:
    """R-INV-1: the 48 cards are always partitioned; captures move 2 or 4 cards."""
    for s, rng in _random_rounds(name, 40):
        while s.outcome is None:
            before = (len(s.captured(0)), len(s.captured(1)))
            s.apply(rng.choice(s.legal_actions()))
            _check_partition(s)
            for p in (0, 1):
                assert (len(s.captured(p)) - before[p]) % 2 == 0
        _check_partition(s)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_inv_2_deal_sizes_and_turn_count(name) -> None:
    """R-INV-2: 8 / 8 / 8 and 24 after the deal; a full round has 16 turns (seed-003: <= 15)."""
    full = 0
    for s, rng in _random_rounds(name, 40, seed0=100):
        if s.outcome is None:
            assert (len(s.hand(0)), len(s.hand(1)), len(s.field)) == (8, 8, 8)
            assert s.view(0).pile_size == 24
        turns = 0
        while s.outcome is None:
            a = rng.choice([a for a in s.legal_actions() if a.kind != "stop"] or s.legal_actions())
            turns += a.kind in ("play", "discard")
            s.apply(a)
        assert turns <= (15 if name == "seed-003" else 16)
        if s.outcome.winner is None or turns >= 15:
            full += 1
            if name != "seed-003" and s.outcome.reason.startswith("exhaustion"):
                assert turns == 16
    assert full > 0


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_inv_3_pile_never_runs_out(name) -> None:
    """R-INV-3 / A-4: the draw pile never runs out (16 draws + at most 1 flip from 24)."""
    for s, rng in _random_rounds(name, 60, seed0=300, flip_when_field_empty=True):
        while s.outcome is None:
            acts = [a for a in s.legal_actions() if a.kind not in ("stop",)] or s.legal_actions()
            s.apply(rng.choice(acts))
            assert s.view(0).pile_size >= 0
        assert s.view(0).pile_size >= 24 - 17


@pytest.mark.parametrize("name", ["nintendo", "seed-001", "seed-003"])
def test_r_inv_4_three_on_field_only_from_the_deal(name) -> None:
    """R-INV-4 / A-29: without free discard, three cards of one month are on the field only if
    they were dealt there."""
    for s, rng in _random_rounds(name, 60, seed0=500):
        dealt = set(s.field)
        while s.outcome is None:
            s.apply(rng.choice(s.legal_actions()))
            for m in range(1, 13):
                cards = {c for c in s.field if month(c) == m}
                if len(cards) >= 3:
                    assert cards <= dealt


# --------------------------------------------------------------------------- text and errors

ALL_TEXTS = ["play 5", "play 5>6", "play 44>1", "discard 12", "draw>7", "koikoi", "stop",
             "declare", "exchange", "keep", "play 48", "draw>48"]  # fmt: skip


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_action_text_round_trip(text) -> None:
    """Issue 2 §3 (R-TURN moves as text): every action kind has one canonical text."""
    a = Action.from_text(text)
    assert str(a) == text
    assert Action.from_text(str(a)) == a
    assert hash(Action.from_text(text)) == hash(a)


@pytest.mark.parametrize("bad", ["fold", "play", "play 0", "play 49", "draw 5", "discard 5>6",
                                 "play 5>", "", "koikoi now", "draw>0"])  # fmt: skip
def test_action_text_rejects_garbage(bad) -> None:
    """Unreadable move text raises IllegalAction, a ValueError with a readable message."""
    with pytest.raises(IllegalAction) as info:
        Action.from_text(bad)
    assert isinstance(info.value, ValueError) and len(str(info.value)) > 10


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_action_text_of_every_legal_action(name) -> None:
    """Every legal action of random rounds round-trips through its text, and applying the text
    is the same as applying the action (R-TURN, issue 2 §3)."""
    for s, rng in _random_rounds(name, 15, seed0=700, hand_exchange=name == "seed-003"):
        twin = new_round(s.rules, dealer=s.dealer, deck=_deck_of(s), rng=random.Random(0))
        while s.outcome is None:
            for a in s.legal_actions():
                assert Action.from_text(str(a)) == a
            a = rng.choice(s.legal_actions())
            s.apply(a)
            twin.apply(str(a))
        assert round_record(s) == round_record(twin)


def _deck_of(s) -> list[int]:  # type: ignore[no-untyped-def]
    line = next(ln for ln in round_record(s).splitlines() if ln.startswith("deck "))
    return [int(x) for x in line.split()[1:]]


def test_illegal_moves_change_nothing() -> None:
    """IllegalAction (a ValueError, readable message) for wrong moves; the state is unchanged
    (round record, legal actions, hands, field, piles)."""
    r = PRESETS["nintendo"]
    s = scenario(r, 0, TABLE_DEALER, TABLE_ND, TABLE_FIELD, pile=[36])
    assert_illegal(s, "play 14", "not in your hand")  # the opponent's card
    assert_illegal(s, "play 7")  # two matches: a choice is needed
    assert_illegal(s, "play 7>9")  # wrong month
    assert_illegal(s, "play 10>5")
    assert_illegal(s, "koikoi")
    assert_illegal(s, "stop")
    assert_illegal(s, "draw>5")
    assert_illegal(s, "declare")
    assert_illegal(s, "exchange")
    assert_illegal(s, "discard 10")
    assert_illegal(s, Action.from_text("play 36"))
    with pytest.raises(ValueError):
        s.apply("nonsense")
    before = snapshot(s)
    s.apply("play 10")
    assert snapshot(s) != before
    assert_illegal(s, "play 4")  # not this player's turn: 4 is in the dealer's hand


def test_illegal_after_round_over() -> None:
    """Once the round is over no action is legal, and trying one changes nothing."""
    r = PRESETS["nintendo"]
    s = scenario(r, 0, [1, 2, 3, 4, 5, 9, 13, 17], pile=[36])  # dealer teshi: over at once
    assert s.outcome is not None and s.legal_actions() == []
    assert_illegal(s, "play 1")
    assert_illegal(s, "stop")


CANDIDATES = [f"play {c}" for c in range(1, 49)] + [f"discard {c}" for c in range(1, 49)] + [
    f"draw>{t}" for t in range(1, 49)] + ["koikoi", "stop", "declare", "exchange", "keep",
    "play 44>1", "play 5>6", "play 1>45"]  # fmt: skip


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_illegal_actions_in_every_phase_change_nothing(name) -> None:
    """R-TURN / R-KOI / R-DEAL-4: in every phase (exchange, declare, play, draw choice,
    decision) every move that is not legal raises IllegalAction and changes nothing."""
    extra = {"hand_exchange": True} if name == "seed-003" else {}
    phases: set[str] = set()
    for s, rng in _random_rounds(name, 12, seed0=900, **extra):
        while s.outcome is None:
            legal = legal_texts(s)
            phases.add("decide" if "stop" in legal else "draw" if any(
                a.startswith("draw>") for a in legal) else "exchange" if "exchange" in legal
                else "play")  # fmt: skip
            for text in rng.sample(CANDIDATES, 12):
                if text not in legal:
                    assert_illegal(s, text)
            s.apply(rng.choice(sorted(legal)))
    assert {"decide", "play"} <= phases


def _cards_named(event: object) -> set[int]:
    """Every card id an event record names (its card, captures, options, swept cards)."""
    out: set[int] = set()
    for f in dataclasses.fields(event):  # type: ignore[arg-type]
        value = getattr(event, f.name)
        if f.name == "card":
            out.add(value)
        elif f.name in ("captured", "options", "cards"):
            out.update(value)
    return out - {0}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_turn_4_views_never_reveal_hidden_cards(name) -> None:
    """R-TURN-4 / R-DEAL-4: over random rounds a view shows its own hand (hidden during the
    exchange decision), the field and both capture piles, never the opponent's hand or the
    pile; the public history mentions no card that was never face up."""
    extra = {"hand_exchange": True} if name == "seed-003" else {}
    for s, rng in _random_rounds(name, 10, seed0=1200, **extra):
        face_up: set[int] = set()
        dealt = [set(s.hand(0)), set(s.hand(1))]
        while True:
            face_up |= set(s.field) | set(s.captured(0)) | set(s.captured(1))
            for p in (0, 1):
                v = s.view(p)
                hidden = set(s.hand(1 - p)) - face_up
                for e in v.history:
                    if e.kind in ("instant_win", "deal", "redeal"):
                        continue  # a declared hand is shown; a deal event shows the field
                    mentioned = _cards_named(e)
                    assert not mentioned & hidden - dealt[p], e
                assert not hidden & set(v.hand) and not hidden & set(v.field)
                assert set(v.captured[0]) == set(s.captured(0))
                assert set(v.captured[1]) == set(s.captured(1))
                if "exchange" not in legal_texts(s):
                    assert set(v.hand) == set(s.hand(p))
                assert v.pile_size == len(
                    set(range(1, 49))
                    - set(s.hand(0))
                    - set(s.hand(1))
                    - set(s.field)
                    - set(s.captured(0))
                    - set(s.captured(1))
                ) - (1 if v.pending_draw else 0)
            if s.outcome is not None:
                break
            s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("bad", [5, None, 3.5])
def test_apply_rejects_non_actions_cleanly(bad) -> None:
    """Issue 2 §4: apply takes an Action or its text; anything else is refused with an
    IllegalAction (or TypeError), never an internal AttributeError, and changes nothing."""
    s = scenario(PRESETS["nintendo"], 0, TABLE_DEALER, TABLE_ND, TABLE_FIELD, pile=[36])
    before = snapshot(s)
    with pytest.raises((IllegalAction, TypeError)):
        s.apply(bad)
    assert snapshot(s) == before


def test_apply_plain_tuple_is_not_an_action() -> None:
    """Issue 2 §3: every applied move has a canonical text in the round record."""
    from koikoi_desktop.engine import replay_round

    s = scenario(PRESETS["nintendo"], 0, TABLE_DEALER, TABLE_ND, TABLE_FIELD, pile=[36])
    before = snapshot(s)
    try:
        s.apply(("play", 10, 0))  # type: ignore[arg-type]
    except (IllegalAction, TypeError):
        assert snapshot(s) == before
        return
    assert "moves play 10" in round_record(s)
    replay_round(round_record(s))
