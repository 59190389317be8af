"""The engine answers the questions the table and the AI used to answer themselves (issue 17):
what an action captures, the koi-koi stakes, taking moves back, typed events, the
determinization constructor, card facts.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop import engine
from koikoi_desktop.engine import (
    DECK,
    PRESETS,
    Action,
    Match,
    RoundState,
    kind_of,
    match_record,
    month_of,
    new_match,
    new_round,
    replay_match,
    round_record,
)
from koikoi_desktop.engine.cards import MONTH_MASK
from koikoi_desktop.engine.events import Event, EventKind
from tests.engine.test_properties import rule_sets

MOVING = (engine.Played, engine.GajiPaired, engine.Drew, engine.Discarded)


def _random_round(rules: engine.Rules, seed: int) -> tuple[RoundState, random.Random]:
    rng = random.Random(seed)
    return new_round(rules, dealer=seed & 1, rng=rng), rng


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_captures_is_what_apply_captures(rules: engine.Rules, seed: int) -> None:
    """For every legal action of random rounds, ``captures`` names exactly the field cards the
    applied action's own card took (its first play/draw record), and ``PlayerView.captures``
    agrees."""
    s, rng = _random_round(rules, seed)
    while s.outcome is None:
        view = s.view(s.to_move) if s.to_move is not None else None
        for a in s.legal_actions():
            events = s.copy().apply(a)
            own = next((e for e in events if isinstance(e, MOVING)), None)
            took = () if own is None or isinstance(own, engine.Discarded) else own.captured
            if a.kind in ("play", "discard", "draw"):
                assert own is not None
            assert s.captures(a) == took, (a, events)
            assert view is not None and view.captures(a) == took
        s.apply(rng.choice(s.legal_actions()))


def test_captures_refuses_an_illegal_action_with_the_reason() -> None:
    s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(3))
    with pytest.raises(engine.IllegalAction) as info:
        s.captures("play 10")  # two matches: a target must be chosen
    assert info.value.key == "choose_target" and info.value.params["options"] == (11, 12)
    with pytest.raises(engine.IllegalAction):
        s.view(0).captures(Action.play(10))


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_koikoi_odds_payout_is_what_stopping_scores(rules: engine.Rules, seed: int) -> None:
    """At every stop-or-koi-koi decision the stop value is the round's final score after
    ``stop``; the opponent's payout is what he scores by stopping after a koi-koi with the
    yaku he holds; the seat's view computes the same stakes."""
    s, rng = _random_round(rules, seed)
    while s.outcome is None:
        if s.phase == "decide":
            p = s.to_move
            assert p is not None
            odds = s.koikoi_odds(p)
            assert odds == s.view(p).koikoi_odds()
            if s.gaji_owner is None or not s.field_mask & MONTH_MASK[s.gaji_month]:
                assert odds.base == s.base(p) and odds.yaku == s.yaku(p)
            assert odds.koikoi_allowed == (Action.from_text("koikoi") in s.legal_actions())
            stopped = s.copy()
            stopped.apply("stop")
            assert stopped.outcome is not None and stopped.outcome.final == odds.payout
            assert stopped.outcome.base == odds.base  # a Gaji sweep is scored with the stop
            assert stopped.outcome.factors == odds.factors
            theirs = s.koikoi_odds(1 - p)
            assert odds.opponent_base == theirs.base
            if odds.opponent_base:
                calls = (s.calls[1 - p], s.calls[p] + 1)
                assert odds.opponent_payout == engine.payout(
                    theirs.base,
                    s.rules,
                    winner_calls=calls[0],
                    loser_calls=calls[1],
                    field_brights=s.field_brights,
                )
            else:
                assert odds.opponent_payout == 0
        s.apply(rng.choice(s.legal_actions()))


@settings(max_examples=30, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), back=st.integers(1, 6))
def test_pop_restores_the_exact_position(rules: engine.Rules, seed: int, back: int) -> None:
    """Popping moves restores the state, history and legal moves the round had, and the
    record then replays to it; the popped moves re-apply to the same result."""
    s, rng = _random_round(rules, seed)
    snaps = []
    while s.outcome is None and len(snaps) < 30:
        snaps.append((round_record(s), s.legal_actions(), list(s.history), list(s.caps)))
        s.apply(rng.choice(s.legal_actions()))
    end = (round_record(s), list(s.history), s.outcome)
    popped = []
    for _ in range(min(back, len(snaps))):
        popped.append(s.pop())
        record, legal, history, caps = snaps[len(s.moves)]
        assert (round_record(s), s.legal_actions(), s.history, s.caps) == (
            record,
            legal,
            history,
            caps,
        )
    for a in reversed(popped):
        s.apply(a)
    assert (round_record(s), s.history, s.outcome) == end


def test_pop_with_no_move_and_on_a_determinization_raises() -> None:
    s = new_round(PRESETS["seed-003"], dealer=0, rng=random.Random(8))
    with pytest.raises(IndexError):
        s.pop()
    d = RoundState.from_view(s.view(0), random.Random(1))
    d.apply(d.legal_actions()[0])
    with pytest.raises(ValueError):
        d.pop()


def test_match_undo_takes_back_a_seat_and_the_replies_after_it() -> None:
    """``Match.undo(seat)`` removes that seat's last move of the round and every move after it;
    the match (the same object) then records and replays as if they were never made."""
    m = new_match(PRESETS["seed-000"], first_dealer=0, seed=21)
    rng = random.Random(5)
    positions = [match_record(m)]
    seats = []
    while len(m.move_stack) < 6 and m.outcome is None:
        seats.append(m.round.to_move)
        m.apply(rng.choice(m.round.legal_actions()))
        positions.append(match_record(m))
    assert len(m.move_stack) == 6, "the seed's first round lasts six moves"
    assert list(m.round.movers()) == seats
    seat = seats[-2]
    last = len(seats) - 1 - seats[::-1].index(seat)
    taken = m.undo(seat)
    assert len(taken) == 6 - last and len(m.move_stack) == last
    assert match_record(m) == positions[last]
    assert match_record(replay_match(match_record(m))) == positions[last]
    while m.move_stack:
        m.pop()
    with pytest.raises(IndexError):
        m.pop()
    assert match_record(m) == positions[0]


def test_an_ended_round_is_not_taken_back() -> None:
    m = new_match(PRESETS["nintendo"], first_dealer=1, seed=4)
    rng = random.Random(2)
    while len(m.ledger) == 0:
        m.apply(rng.choice(m.round.legal_actions()))
    if not m.move_stack:
        with pytest.raises(IndexError):
            m.pop()
    assert len(m.ledger) == 1  # the settled round stays settled


def test_from_view_agrees_with_the_view_and_keeps_hidden_cards_hidden() -> None:
    """A determinized round shows the seat exactly its view (own hand, field, piles, legal
    moves, phase) and deals the hidden cards from the unseen ones."""
    rng = random.Random(11)
    for name in sorted(PRESETS):
        s = new_round(PRESETS[name], dealer=1, rng=rng)
        for _ in range(rng.randrange(12)):
            if s.outcome is not None:
                break
            s.apply(rng.choice(s.legal_actions()))
        for seat in (0, 1):
            v = s.view(seat)
            d = RoundState.from_view(v, random.Random(seat))
            w = d.view(seat)
            for f in ("hand", "field", "captured", "phase", "to_move", "legal", "pile_size"):
                assert getattr(w, f) == getattr(v, f), (name, f)
            assert set(d.hand(1 - seat)) | set(d.draw_pile) == set(v.unseen)
            d.check_invariants()


def test_events_are_typed_records_one_class_per_kind() -> None:
    """Every event of random matches is a frozen dataclass of its own class, whose ``kind``
    is an EventKind; the repr rebuilds it; no class is shared by two kinds."""
    by_kind: dict[EventKind, type] = {}
    for seed in range(6):
        m = new_match(PRESETS[sorted(PRESETS)[seed % 4]], first_dealer=seed & 1, seed=seed)
        rng = random.Random(seed)
        events: list[Event] = list(m.round.history)
        while m.outcome is None:
            events += m.apply(rng.choice(m.round.legal_actions()))
        for e in events:
            assert dataclasses.is_dataclass(e) and isinstance(e.kind, EventKind)
            assert by_kind.setdefault(e.kind, type(e)) is type(e)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(e, dataclasses.fields(e)[0].name, 0)
            assert eval(repr(e), vars(engine)) == e
    assert {EventKind.DEAL, EventKind.PLAY, EventKind.DRAW, EventKind.SETTLED} <= set(by_kind)
    assert EventKind.MATCH_OVER in by_kind


def test_enums_compare_as_their_strings() -> None:
    s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(3))
    assert s.phase == "play" and s.phase is engine.Phase.PLAY
    assert s.legal_actions()[0].kind == "play" and isinstance(
        s.legal_actions()[0].kind, engine.ActionKind
    )
    m = Match(PRESETS["nintendo"], first_dealer=0, seed=1)
    rng = random.Random(1)
    while m.outcome is None:
        m.apply(rng.choice(m.round.legal_actions()))
    assert isinstance(m.outcome.reason, engine.MatchEnd)
    assert all(isinstance(e.end, engine.RoundEnd) for e in m.ledger)
    assert f"{m.ledger[0].end}" == m.ledger[0].end.value


def test_month_of_and_kind_of_are_the_deck() -> None:
    assert [month_of(c.id) for c in DECK] == [c.month for c in DECK]
    assert [kind_of(c.id) for c in DECK] == [c.kind for c in DECK]
    for bad in (0, 49):
        with pytest.raises(ValueError):
            kind_of(bad)


# ---------------------------------------------------------------- yaku goals (one source)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_goals_agree_with_the_scorer(preset: str, data: st.DataObject) -> None:
    """``need`` of a goal's cards make its yaku (or one that covers it); one fewer never does.

    The tracker and the computer opponents read what to collect from ``goals``; this ties it to
    what ``score_yaku`` pays, so the two cannot drift apart."""
    rules = PRESETS[preset]
    for goal in engine.goals(rules):
        others = [c for c in goal.cards if c not in goal.requires]
        extra = goal.need - len(goal.requires)
        cards = list(goal.requires) + data.draw(
            st.lists(st.sampled_from(others), min_size=extra, max_size=extra, unique=True)
        )
        keys = set(engine.score_yaku(cards, rules).keys())
        covering = {g.key for g in engine.goals(rules) if goal.key in g.covers}
        assert goal.key in keys or keys & covering, (goal.key, cards, keys)
        fewer = engine.score_yaku(cards[:-1], rules).keys()
        assert goal.key not in fewer, (goal.key, cards[:-1])


def test_goals_follow_the_rules() -> None:
    nintendo = PRESETS["nintendo"]
    keys = [g.key for g in engine.goals(nintendo)]
    assert "hanami" in keys and "akaao" in keys
    off = nintendo.model_copy(update={"viewing_yaku": False, "value_tane": 0})
    keys_off = [g.key for g in engine.goals(off)]
    assert "hanami" not in keys_off and "tsukimi" not in keys_off and "tane" not in keys_off
    cup = next(g for g in engine.goals(nintendo) if g.key == "kasu")
    assert (33 in cup.cards) == nintendo.sake_cup_is_plain
    sanko = next(g for g in engine.goals(nintendo) if g.key == "sanko")
    assert (41 in sanko.cards) == nintendo.sanko_allows_rain_man
