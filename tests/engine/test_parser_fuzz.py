"""The text parsers raise only their documented errors on any input (issue 12, item 10).

``Action.from_text`` raises :class:`IllegalAction`; ``replay_round`` / ``replay_match`` raise
:class:`RecordError` — never ``RecursionError``, ``TypeError``, ``IndexError`` or anything else,
whatever a damaged save or a hand-edited file holds. Digits are ASCII only.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop import engine
from koikoi_desktop.engine import (
    Action,
    IllegalAction,
    RecordError,
    notation,
    replay_match,
    replay_round,
)


def _match_text(moves: int = 9) -> str:
    m = engine.new_match(engine.PRESETS["nintendo"], first_dealer=1, rounds=2, seed=11)
    rng = random.Random(2)
    for _ in range(moves):
        m.apply(rng.choice(m.round.legal_actions()))
    return engine.match_record(m)


MATCH = _match_text()
ROUND = engine.round_record(engine.replay_match(MATCH).round)

ACTION_ALPHABET = st.sampled_from([*list("playdiscrw>0123456789 ;-_\t３٣①"), "koikoi", "stop"])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=30), st.lists(ACTION_ALPHABET, max_size=12).map("".join)))
def test_action_from_text_raises_only_illegal_action(text: str) -> None:
    try:
        act = Action.from_text(text)
    except IllegalAction:
        return
    assert Action.from_text(str(act)) == act  # whatever parses round-trips


@pytest.mark.parametrize("text", ["play ３", "play 1>١", "draw>٣", "play 1_0", "discard ²"])
def test_action_digits_are_ascii_only(text: str) -> None:
    with pytest.raises(IllegalAction):
        Action.from_text(text)


@pytest.mark.parametrize("bad", [None, 5, b"play 1", ["play 1"]])
def test_action_from_non_text(bad: object) -> None:
    with pytest.raises(TypeError):
        Action.from_text(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, 5, b"format koikoi-match/1", ["x"]])
def test_record_parsers_refuse_non_text_with_type_error(bad: object) -> None:
    for parse in (replay_match, replay_round):
        with pytest.raises(TypeError):
            parse(bad)  # type: ignore[arg-type]


def test_over_long_texts_are_refused_before_they_are_read() -> None:
    """A record of a million moves (and a move of a million characters) is refused at the
    door: the parsers never read that much (it used to take 8-50 s)."""
    big = MATCH + "moves " + "play 1;" * 1_000_000
    for parse in (replay_match, replay_round):
        with pytest.raises(RecordError, match="too long"):
            parse(big)
    with pytest.raises(IllegalAction, match="too long"):
        Action.from_text("play 1" + " " * 1_000_000)


def _mutations() -> st.SearchStrategy[str]:
    lines = MATCH.splitlines()
    junk = st.one_of(
        st.text(max_size=40),
        st.sampled_from(
            [
                "seed ３",
                "seed 1_0",
                "first-dealer 7",
                "deal 2",
                "deck " + " ".join(["1"] * 48),
                "deck " + "1 " * 100_000,
                "moves play 99",
                "rules " + "[" * 20_000,
                "rules {}",
                'rules {"rounds": 100000}',
                "rules []",
                "ended-early",
                "moves " + "play 1;" * 2000,
                "format koikoi-round/1",
                "seed " + "9" * 5000,
            ]
        ),
    )
    return st.tuples(st.integers(0, len(lines)), st.integers(0, 3), st.lists(junk, max_size=3)).map(
        lambda t: "\n".join(lines[: t[0]] + t[2] + lines[t[0] + t[1] :])
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_replay_match_raises_only_record_error(text: str) -> None:
    with contextlib.suppress(RecordError):
        replay_match(text)


_MOVE_TEXTS = ["play 5", "play 5>6", "discard 12", "draw>7", "koikoi", "stop", "keep", "play 49"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(_MOVE_TEXTS), st.text(alphabet=" ;>playdrwstok0123456789")),
        max_size=8,
    ),
    st.sampled_from(["; ", ";", " ; ", ";  "]),
)
def test_a_moves_line_read_at_once_reads_as_each_move_read_alone(
    moves: list[str], sep: str
) -> None:
    """A moves line as the game writes it is read at once (each canonical text looked up);
    whatever the line, the moves are those :meth:`Action.from_text` reads, or the same error."""
    rest = sep.join(moves)

    def alone() -> object:
        try:
            return [Action.from_text(m) for m in rest.split(";") if m.strip()]
        except ValueError as exc:
            return f"line 1: {exc}"

    try:
        got: object = notation._parse_moves(1, rest)
    except RecordError as exc:
        got = str(exc)
    assert got == alone()


def _outcome_of(text: str, *, events: bool) -> object:
    """What a replay gives (the record, the rounds, the totals, the outcome and the state of the
    round in play), or the error it raises."""
    try:
        m = replay_match(text, events=events)
    except RecordError as exc:
        return str(exc)
    r = m.round
    state = (r.hands, r.caps, r.field_mask, r.phase, r.to_move, r.moves, r.pile_pos)
    return engine.match_record(m), m.ledger, m.balances, m.outcome, state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_a_replay_without_event_records_checks_and_plays_the_same(text: str) -> None:
    """``events=False`` (how an import checks a record) refuses what a full replay refuses, with
    the same words, and plays what it plays to the same rounds, totals, outcome and state."""
    assert _outcome_of(text, events=False) == _outcome_of(text, events=True)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(engine.PRESETS)), st.integers(0, 10_000), st.integers(1, 4))
def test_a_played_match_replays_the_same_without_event_records(
    preset: str, seed: int, rounds: int
) -> None:
    m = engine.new_match(engine.PRESETS[preset], first_dealer=seed % 2, seed=seed, rounds=rounds)
    rng = random.Random(seed)
    while m.outcome is None and len(m.ledger) < rounds:
        m.apply(rng.choice(m.round.legal_actions()))
    text = engine.match_record(m)
    assert _outcome_of(text, events=False) == _outcome_of(text, events=True)
    quiet = replay_match(text, events=False)
    assert quiet.ledger == m.ledger and quiet.balances == m.balances


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_replay_of_any_text_raises_only_record_error(text: str) -> None:
    for replay in (replay_match, replay_round):
        with contextlib.suppress(RecordError):
            replay(text)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("seed 11", "seed ١١"),
        lambda t: t.replace("first-dealer 1", "first-dealer ۱"),
        lambda t: t.replace("rules {", "rules " + "[" * 50_000 + "{", 1),
    ],
)
def test_replay_rejects_non_ascii_digits_and_deep_nesting(edit) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError):
        replay_match(edit(MATCH))


def test_the_round_record_parser_too() -> None:
    assert replay_round(ROUND).to_move in (0, 1)
    with pytest.raises(RecordError):
        replay_round(ROUND.replace("dealer ", "dealer ٠", 1))
