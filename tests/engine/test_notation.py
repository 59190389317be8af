"""Text records: actions round-trip, golden recorded rounds replay to the same score, match
records replay exactly, and broken records give clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from koikoi_desktop.engine import (
    PRESETS,
    Action,
    IllegalAction,
    RecordError,
    match_record,
    new_match,
    new_round,
    replay_match,
    replay_round,
    round_record,
)

GOLDEN = Path(__file__).parent / "golden"
EXPECTED = json.loads((GOLDEN / "expected.json").read_text())


@pytest.mark.parametrize(
    "text",
    [
        "play 5",
        "play 5>6",
        "play 44>13",
        "discard 12",
        "draw>7",
        "koikoi",
        "stop",
        "declare",
        "exchange",
        "keep",
    ],
)
def test_action_text_round_trips(text: str) -> None:
    a = Action.from_text(text)
    assert str(a) == text
    assert Action.from_text(str(a)) == a
    assert eval(repr(a), {"Action": Action}) == a


@pytest.mark.parametrize(
    "bad", ["", "play", "play 0", "play 49", "draw 5", "discard 5>6", "koi", "play 5>", "5"]
)
def test_bad_action_text_is_rejected_readably(bad: str) -> None:
    with pytest.raises(IllegalAction) as info:
        Action.from_text(bad)
    assert isinstance(info.value, ValueError)
    assert str(info.value)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_round_replays_to_the_recorded_score(name: str) -> None:
    """Golden rounds (checked by hand against RULES.md) replay to the same outcome."""
    state = replay_round((GOLDEN / f"{name}_round.txt").read_text())
    exp = EXPECTED[name]
    o = state.outcome
    assert o is not None
    assert o.winner == exp["winner"]
    assert o.reason == exp["reason"]
    assert o.base == exp["base"]
    assert o.final == exp["final"]
    assert [[y.key, y.points] for y in o.yaku] == exp["yaku"]
    assert [list(f) for f in o.factors] == exp["factors"]
    assert list(o.calls) == exp["calls"]
    assert [sorted(state.captured(0)), sorted(state.captured(1))] == exp["captured"]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_record_round_trips(name: str) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        s = new_round(PRESETS[name], dealer=seed & 1, rng=rng)
        while s.outcome is None:
            s.apply(rng.choice(s.legal_actions()))
        text = round_record(s)
        t = replay_round(text)
        assert round_record(t) == text
        assert t.outcome == s.outcome
        assert t.caps == s.caps and t.field_mask == s.field_mask


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_match_record_replays_exactly(name: str) -> None:
    rules = PRESETS[name]
    m = new_match(rules, first_dealer=1, seed=11, rounds=3 if name != "seed-001" else None)
    rng = random.Random(4)
    half = None
    while m.outcome is None:
        m.apply(rng.choice(m.round.legal_actions()))
        if half is None and m.rounds_played == 1:
            half = match_record(m)
    text = match_record(m)
    again = replay_match(text)
    assert match_record(again) == text
    assert again.balances == m.balances
    assert again.ledger == m.ledger
    assert again.outcome == m.outcome
    # a record of a match in progress resumes exactly where it was (the autosave)
    assert half is not None
    resumed = replay_match(half)
    assert resumed.outcome is None
    assert resumed.rounds_played == 1
    assert match_record(resumed) == half


def test_ended_early_match_replays() -> None:
    m = new_match(PRESETS["seed-003"], first_dealer=0, seed=2)
    rng = random.Random(2)
    while not m.can_end_now:
        m.apply(rng.choice(m.round.legal_actions()))
    m.end_now()
    again = replay_match(match_record(m))
    assert again.outcome == m.outcome
    assert again.ended_early


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda t: "garbage\n" + t, "not a koikoi-round/1 record"),
        (lambda t: t.replace("dealer ", "dealer 7", 1), "dealer"),
        (lambda t: t.replace("deck 45 ", "deck 45 45 ", 1), "exactly once"),
        (lambda t: t.replace("moves play 34", "moves play 99", 1), "no card 99"),
        (lambda t: t.replace("moves play 34", "moves stop", 1), "does not replay"),
        (lambda t: t.replace('"koikoi_limit":1', '"koikoi_limit":"x"', 1), "rules cannot be read"),
    ],
)
def test_broken_round_records_say_what_is_wrong(mutate, message: str) -> None:
    text = (GOLDEN / "nintendo_round.txt").read_text()
    with pytest.raises(RecordError) as info:
        replay_round(mutate(text))
    assert message in str(info.value)


def test_rounds_or_target_left_empty_is_still_a_valid_rule_set() -> None:
    """Only A-38 is rejected: a fixed-length match without a number plays a year of 12
    rounds, a race without a target races to 50 (R-MATCH-2, R-MATCH-3 defaults)."""
    from koikoi_desktop.engine import Rules

    r = Rules.model_validate({**PRESETS["seed-001"].model_dump(), "match_end": "rounds"})
    assert r.rounds is None and r.match_rounds == 12
    t = Rules.model_validate({**PRESETS["nintendo"].model_dump(), "match_end": "target"})
    assert t.target_score is None and t.match_target == 50
    m = new_match(r, first_dealer=0, seed=1)
    rng = random.Random(1)
    while m.outcome is None:
        m.apply(rng.choice(m.round.legal_actions()))
    assert m.rounds_played >= 12
