"""The pydantic models: defaults, tolerant settings, migrations, engine ledger entries."""

from __future__ import annotations

import json
import random
from collections import namedtuple
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from koikoi_desktop.storage.models import (
    MIGRATIONS,
    FutureVersionError,
    MatchRecord,
    RoundEntry,
    Settings,
    koikoi_calls_from_events,
    load_settings_tolerant,
    migrate,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def test_every_settings_field_has_a_default() -> None:
    s = Settings()
    assert s.schema_version == 1
    assert (s.language, s.animation_speed, s.help_level, s.name_display) == (
        "en",
        "normal",
        "full",
        "translated",
    )
    assert 0 <= s.sound_volume <= 100 and 0 <= s.music_volume <= 100
    assert s.birth_date is None and s.default_options == {}
    assert Settings.model_validate(json.loads(s.model_dump_json())) == s


def test_assignment_is_validated() -> None:
    s = Settings()
    with pytest.raises(ValidationError):
        s.sound_volume = 101
    with pytest.raises(ValidationError):
        s.animation_speed = "slow"  # type: ignore[assignment]
    s.birth_date = date(1990, 4, 2)
    assert s.birth_date.month == 4


def test_bad_fields_fall_back_and_the_rest_is_kept() -> None:
    data = {
        "language": "sk",
        "sound_volume": "loud",
        "music_volume": 33,
        "fullscreen": [1],
        "window_size": "big",
        "ui_scale": float("nan"),
        "birth_date": "2999-01-01",
        "player_name": "  Hana \n Ito ",
        "default_options": {"koikoi_limit": None, "rounds": 6, "bad": {"nested": 1}},
        "unknown_field": 5,
    }
    s, dropped = load_settings_tolerant(data)
    assert dropped == [
        "birth_date",
        "default_options",
        "fullscreen",
        "sound_volume",
        "ui_scale",
        "window_size",
    ]
    assert (s.language, s.music_volume, s.player_name) == ("sk", 33, "Hana Ito")
    assert s.sound_volume == 80 and s.fullscreen is False and s.window_size == (1280, 800)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(sorted(Settings.model_fields)) | st.text(max_size=5), json_values
    )
)
def test_tolerant_loading_never_fails_and_keeps_valid_fields(data: dict[str, Any]) -> None:
    s, dropped = load_settings_tolerant(data)
    for name in Settings.model_fields:
        if name == "schema_version" or name not in data or name in dropped:
            continue
        # a kept field must hold what validating that value alone gives
        alone = Settings.model_validate({name: data[name]})
        assert getattr(s, name) == getattr(alone, name)


def test_unversioned_document_is_migrated_to_current() -> None:
    assert migrate("settings", {"language": "ja"}) == {"language": "ja", "schema_version": 1}


def test_migration_chain_runs_every_step_in_order() -> None:
    seen: list[int] = []

    def step(n: int):
        def run(d: dict[str, Any]) -> dict[str, Any]:
            seen.append(n)
            return {**d, "schema_version": n + 1, f"s{n}": True}

        return run

    chain = {n: step(n) for n in range(3)}
    out = migrate("settings", {"schema_version": 0}, chain=chain, current=3)
    assert seen == [0, 1, 2] and out["schema_version"] == 3 and out["s2"] is True
    with pytest.raises(ValueError, match="no migration"):
        migrate("settings", {"schema_version": 1}, chain={0: chain[0]}, current=3)


def test_future_version_raises() -> None:
    with pytest.raises(FutureVersionError) as err:
        migrate("ledger", {"schema_version": 7})
    assert (err.value.found, err.value.supported) == (7, 1)
    for bad in ("2", -1, True, 1.5):
        with pytest.raises(ValueError):
            migrate("ledger", {"schema_version": bad})
    assert set(MIGRATIONS) == {"settings", "ledger", "autosave"}


def test_real_engine_match_becomes_a_record_and_round_trips() -> None:
    from koikoi_desktop.engine import PRESETS, new_match

    m = new_match(PRESETS["seed-000"], first_dealer=0, seed=5)
    rng = random.Random(2)
    events = []
    while m.outcome is None:
        events.extend(m.apply(rng.choice(m.round.legal_actions())))
    rec = MatchRecord.from_match(
        m,
        preset="seed-000",
        unit="coins",
        opponent_name="Ren",
        opponent_level="beginner",
        events=events,
    )
    assert rec.final_balances == tuple(m.balances) and rec.winner == m.outcome.winner
    assert len(rec.rounds) == len(m.ledger)
    for mine, theirs in zip(rec.rounds, m.ledger, strict=True):
        assert mine.model_dump(exclude={"koikoi_calls"}) == {
            **{k: v for k, v in theirs.as_dict().items() if k != "koikoi_calls"},
            "balances": tuple(theirs.balances),
            "yaku": [{"key": k, "points": v} for k, v in theirs.yaku],
            "factors": [{"name": n, "factor": f} for n, f in theirs.factors],
        }
    assert sum(e.kind == "koikoi" for e in events) == sum(
        sum(r.koikoi_calls or (0, 0)) for r in rec.rounds
    )
    for mine, theirs in zip(rec.rounds, m.ledger, strict=True):
        assert tuple(mine.koikoi_calls or (0, 0)) == theirs.koikoi_calls
    again = MatchRecord.model_validate_json(rec.model_dump_json())
    assert again == rec


def test_koikoi_calls_align_to_the_last_rounds() -> None:
    E = namedtuple("E", "kind player")
    events = [E("koikoi", 0), E("koikoi", 0), E("settled", 0), E("koikoi", 1), E("settled", 0)]
    assert koikoi_calls_from_events(events) == [(2, 0), (0, 1)]
    assert koikoi_calls_from_events(events, rounds=3) == [None, (2, 0), (0, 1)]
    assert koikoi_calls_from_events(events, rounds=1) == [(0, 1)]


@pytest.mark.parametrize(
    "change",
    [
        {"winner": 2},
        {"balances": [1]},
        {"balances": [10**13, 0]},
        {"round": 0},
        {"yaku": [{"key": "", "points": 1}]},
        {"final": [7]},
        {"dealer": None},
    ],
)
def test_round_entry_rejects_nonsense(change: dict[str, Any]) -> None:
    good = {"round": 1, "dealer": 0, "end": "stop", "winner": 0, "balances": [1, 0]}
    RoundEntry.model_validate(good)
    with pytest.raises(ValidationError):
        RoundEntry.model_validate({**good, **change})
