"""Storage in normal use: first start, settings, ledger, autosave/Continue, lock, stats, export."""

from __future__ import annotations

import csv
import io
import json
import random
import tempfile
from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop.storage import AutosaveData, Storage
from koikoi_desktop.storage.export import read_json_export, to_csv_text
from koikoi_desktop.storage.stats import compute_stats, newest_first, summarize


def test_first_start_writes_default_settings(data_dir: Path) -> None:
    assert not data_dir.exists()
    with Storage.open(data_dir) as store:
        assert store.warnings == [] and store.can_write_ledger and store.ledger == []
    saved = json.loads((data_dir / "settings.json").read_text("utf-8"))
    assert saved["schema_version"] == 1 and saved["language"] == "en"


def test_settings_round_trip(data_dir: Path) -> None:
    with Storage.open(data_dir) as store:
        store.settings.language = "uk"
        store.settings.player_name = "Оксана 花子"
        store.settings.default_options = {"rounds": 6, "koikoi_limit": None}
        assert store.save_settings()
    with Storage.open(data_dir) as store:
        assert store.settings.language == "uk"
        assert store.settings.player_name == "Оксана 花子"
        assert store.settings.default_options == {"rounds": 6, "koikoi_limit": None}
        assert store.warnings == []


def test_ledger_keeps_every_match_in_order_with_backup(data_dir: Path, h) -> None:
    recs = [h.make_record() for _ in range(5)]
    with Storage.open(data_dir) as store:
        for r in recs:
            assert store.record_match(r)
        assert store.record_match(recs[0])  # recording the same match twice adds nothing
        assert len(store.ledger) == 5
    main = (data_dir / "ledger.jsonl").read_bytes()
    assert (data_dir / "ledger.backup.jsonl").read_bytes() == main
    assert len(main.splitlines()) == 5
    with Storage.open(data_dir) as store:
        assert [r.match_id for r in store.ledger] == [r.match_id for r in recs]
        assert store.ledger == recs


def test_second_copy_reads_but_does_not_write(data_dir: Path, h) -> None:
    first = Storage.open(data_dir)
    first.record_match(h.make_record())
    second = Storage.open(data_dir)
    try:
        assert first.can_write_ledger and not second.can_write_ledger
        assert len(second.warnings) == 1 and "Another copy" in second.warnings[0]
        assert second.warnings[0].key == "another_copy"
        assert len(second.ledger) == 1
        before = (data_dir / "ledger.jsonl").read_bytes()
        assert second.record_match(h.make_record()) is False
        assert second.write_autosave("x", {}) is False
        assert (data_dir / "ledger.jsonl").read_bytes() == before
        assert not (data_dir / "autosave.json").exists()
        assert len(second.warnings) == 1  # said once
        first.write_autosave("first's match", {})
        assert second.read_autosave() is None  # Continue belongs to the copy playing it
    finally:
        second.close()
        first.close()
    with Storage.open(data_dir) as third:  # the lock went with the first copy
        assert third.can_write_ledger and third.warnings == []


def test_autosave_resumes_the_exact_match(data_dir: Path) -> None:
    from koikoi_desktop.engine import PRESETS, match_record, new_match
    from koikoi_desktop.engine.notation import replay_match

    m = new_match(PRESETS["nintendo"], first_dealer=1, seed=11)
    rng = random.Random(4)
    store = Storage.open(data_dir)
    for _ in range(40):
        m.apply(rng.choice(m.round.legal_actions()))
        meta = {
            "preset": "nintendo",
            "round": m.round_number,
            "balances": m.balances,
            "at": date(2025, 5, 1),
        }
        assert store.write_autosave(match_record(m), meta)
    store.close()
    with Storage.open(data_dir) as store:
        saved = store.read_autosave()
        assert isinstance(saved, AutosaveData) and saved.meta["preset"] == "nintendo"
        assert saved.meta["at"] == "2025-05-01" and saved.meta["balances"] == list(m.balances)
        resumed = replay_match(saved.record)
        assert resumed.balances == m.balances and resumed.dealer == m.dealer
        assert resumed.round.to_move == m.round.to_move
        assert resumed.round.view(0) == m.round.view(0)
        assert resumed.round.hand(1) == m.round.hand(1)
        assert [str(a) for a in resumed.round.legal_actions()] == [
            str(a) for a in m.round.legal_actions()
        ]
        store.clear_autosave()
        assert store.read_autosave() is None and not store.has_autosave()


def test_statistics(h) -> None:
    recs = [
        h.make_record(rounds=2, winner=0, level="beginner", preset="nintendo", calls=(1, 0)),
        h.make_record(rounds=2, winner=1, level="expert", preset="seed-000", calls=(0, 1)),
        h.make_record(rounds=1, winner=None, level="expert", preset="nintendo", calls=None),
        h.make_record(rounds=3, winner=0, level="expert", practice=True),
    ]
    st = compute_stats(recs)
    assert (st.overall.matches, st.overall.wins, st.overall.losses, st.overall.draws) == (
        3,
        1,
        1,
        1,
    )
    assert st.overall.win_rate == 1 / 3 and st.practice_matches == 1
    assert st.by_level["beginner"].win_rate == 1.0 and st.by_level["expert"].win_rate == 0.0
    assert st.by_preset["nintendo"].matches == 2 and st.by_preset["seed-000"].losses == 1
    # rounds alternate: seat 0 wins rounds 1 (and 3); seat 1 wins round 2
    assert (st.rounds_played, st.rounds_won, st.rounds_lost) == (5, 3, 2)
    assert st.yaku_made == {"akatan": 3, "tane": 3}
    best = max((r.final, m.match_id) for m in recs[:3] for r in m.rounds if r.winner == 0)
    assert st.best_round is not None and st.best_round.final == best[0]
    # koi-koi: rounds with calls known: 4; the player called in the first match's 2 rounds, won 1
    assert (st.koikoi.rounds_known, st.koikoi.rounds_called, st.koikoi.rounds_won_after_call) == (
        4,
        2,
        1,
    )
    assert st.koikoi.success_rate == 0.5
    with_practice = compute_stats(recs, include_practice=True)
    assert with_practice.overall.matches == 4 and with_practice.practice_matches == 1


def test_newest_first_and_summary(h) -> None:
    recs = [h.make_record(seq=s) for s in (5, 1, 9)]
    assert [r.match_id for r in newest_first(recs)] == ["m000009", "m000005", "m000001"]
    line = summarize(recs[0])
    assert line.result == "win" and line.player_total == recs[0].final_balances[0]


def test_exports(data_dir: Path, h) -> None:
    recs = [h.make_record(rounds=3, player_name="=HYPERLINK(1)"), h.make_record(rounds=0)]
    with Storage.open(data_dir) as store:
        for r in recs:
            store.record_match(r)
        csv_path = store.export("csv")
        json_path = store.export("json", data_dir / "out" / ".." / "ledger.json")
    assert csv_path.parent == data_dir / "exports"
    raw = csv_path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(rows) == 4  # 3 rounds + the round-less match's one row
    assert rows[0]["opponent_name"] == "'=HYPERLINK(1)"
    assert rows[0]["yaku"] == "tane:1 akatan:5" and rows[3]["round"] == ""
    assert [r.match_id for r in read_json_export(json_path.read_text("utf-8"))] == [
        r.match_id for r in recs
    ]
    assert read_json_export(json_path.read_text("utf-8")) == recs
    assert to_csv_text([]).strip().split(",")[0] == "match_id"


def test_background_autosave_keeps_the_latest_and_never_resurrects(data_dir: Path) -> None:
    with Storage.open(data_dir) as store:
        for n in range(50):
            assert store.write_autosave(f"move {n}", {"n": n}, background=True)
        saved = store.read_autosave()  # waits for the queued write
        assert saved is not None and saved.record == "move 49"
        for n in range(20):
            store.write_autosave(f"late {n}", {}, background=True)
        store.clear_autosave()
        assert not (data_dir / "autosave.json").exists()
        store.write_autosave("last", {}, background=True)
    with Storage.open(data_dir) as store:  # closing finished the queued write
        saved = store.read_autosave()
        assert saved is not None and saved.record == "last"


def test_background_autosave_failure_is_reported_once(data_dir: Path, monkeypatch) -> None:
    import errno

    from koikoi_desktop.storage import atomic

    def full(*a: object, **k: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with Storage.open(data_dir) as store:
        monkeypatch.setattr(atomic.tempfile, "mkstemp", full)
        for n in range(5):
            store.write_autosave(f"m{n}", {}, background=True)
        assert store.flush()  # nothing else pending; the failure surfaces here
        assert [w.key for w in store.warnings] == ["write_failed_autosave"]
        monkeypatch.undo()
        store.write_autosave("ok", {}, background=True)
        assert store.read_autosave() is not None
        store.write_autosave("ok2", {}, background=True)
        assert len(store.warnings) == 1


names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    opponent=names,
    level=names.map(lambda s: s[:40]),
    yaku_key=names.filter(lambda s: 0 < len(s) <= 40),
)
def test_any_text_survives_the_ledger_and_the_exports(
    h, opponent: str, level: str, yaku_key: str
) -> None:
    rec = h.make_record(rounds=2, player_name=opponent, level=level)
    rec.rounds[0].yaku[0].key = yaku_key
    with tempfile.TemporaryDirectory() as tmp:
        with Storage.open(tmp) as store:
            assert store.record_match(rec)
        with Storage.open(tmp) as store:
            assert store.warnings == [] and store.ledger == [rec]
            rows = list(csv.DictReader(io.StringIO(to_csv_text(store.ledger))))
    assert len(rows) == 2
    shown = rows[0]["opponent_name"]
    assert shown == opponent or (shown == "'" + opponent and opponent[:1] in "=+-@\t\r")


def test_save_settings_keeps_the_object_and_rejects_bad_edits(data_dir: Path) -> None:
    import pytest
    from pydantic import ValidationError

    with Storage.open(data_dir) as store:
        held = store.settings
        held.music_volume = 5
        assert store.save_settings() and store.settings is held
        held.default_options["rounds"] = [1, 2]  # in-place edit: not seen by validate_assignment
        with pytest.raises(ValidationError):
            store.save_settings()
    with Storage.open(data_dir) as store:
        assert store.settings.music_volume == 5 and store.settings.default_options == {}
