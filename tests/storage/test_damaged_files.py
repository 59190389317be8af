"""Hostile and damaged files: truncated, random bytes, wrong types, huge numbers, deep nesting,
wrong encodings, megabytes of junk, newer schema versions. The game always starts, keeps what it
can, never deletes a file, and says so in one line."""

from __future__ import annotations

import json
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop import engine
from koikoi_desktop.storage import Settings, Storage

CUSTOM = {
    "schema_version": 1,
    "language": "ja",
    "sound_volume": 35,
    "player_name": "Hana",
    "help_level": "highlights",
    "window_size": [1600, 900],
}


def _write_ledger(data_dir: Path, h, n: int = 5) -> list:
    recs = [h.make_record(rounds=2) for _ in range(n)]
    with Storage.open(data_dir) as store:
        for r in recs:
            assert store.record_match(r)
    return recs


def _ids(store: Storage) -> list[str]:
    return sorted(r.match_id for r in store.ledger.page(0, 10_000))


# ----------------------------------------------------------------------------------- settings


def test_settings_truncated_anywhere(tmp_path: Path, h) -> None:
    full = json.dumps(CUSTOM, indent=2).encode()
    for cut in range(0, len(full), 5):
        d = tmp_path / f"cut{cut}"
        d.mkdir()
        (d / "settings.json").write_bytes(full[:cut])
        with Storage.open(d) as store:
            assert store.settings == Settings()
            assert [w.key for w in store.warnings] == ["settings_damaged"]
            kept = h.aside(d, "settings.json")
            assert len(kept) == 1 and kept[0].read_bytes() == full[:cut]
            assert store.warnings[0].params["name"] == kept[0].name
        assert json.loads((d / "settings.json").read_text()) == json.loads(
            Settings().model_dump_json()
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    junk=st.binary(max_size=3000),
    name=st.sampled_from(["settings.json", "ledger.jsonl", "autosave.json"]),
)
def test_random_bytes_never_stop_the_game_nor_get_deleted(junk: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / name).write_bytes(junk)
        store = Storage.open(d)
        try:
            assert isinstance(store.settings, Settings)
            store.read_autosave()
            keys = [w.key for w in store.warnings]
            assert len(keys) <= 1
            survivors = [
                p.read_bytes()
                for p in d.iterdir()
                if p.name == name or p.name.startswith(name + ".")
            ]
            assert junk in survivors  # still there, under its name or set aside
            if keys:
                assert any(
                    p.read_bytes() == junk for p in d.iterdir() if p.name.startswith(name + ".")
                )
        finally:
            store.close()


def test_settings_with_wrong_types_keep_the_good_fields(data_dir: Path, h) -> None:
    data_dir.mkdir()
    bad = {
        **CUSTOM,
        "sound_volume": "loud",
        "fullscreen": {"yes": 1},
        "language": 5,
        "music_volume": 12,
    }
    raw = json.dumps(bad).encode()
    (data_dir / "settings.json").write_bytes(raw)
    with Storage.open(data_dir) as store:
        s = store.settings
        assert (s.language, s.sound_volume, s.fullscreen) == ("en", 80, False)  # defaults
        assert (s.player_name, s.music_volume, s.help_level, s.window_size) == (
            "Hana",
            12,
            "highlights",
            (1600, 900),
        )
        assert [w.key for w in store.warnings] == ["settings_repaired"]
        assert "fullscreen, language, sound_volume" in h.said(store.warnings[0])
    [kept] = h.aside(data_dir, "settings.json")
    assert kept.read_bytes() == raw
    with Storage.open(data_dir) as store:  # repaired on disk: quiet from now on
        assert store.warnings == [] and store.settings.player_name == "Hana"


@pytest.mark.parametrize("top", ["[1, 2]", '"settings"', "null", "3"])
def test_settings_that_are_not_an_object(data_dir: Path, top: str) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text(top)
    with Storage.open(data_dir) as store:
        assert store.settings == Settings() and [w.key for w in store.warnings] == [
            "settings_damaged"
        ]


def test_huge_numbers(data_dir: Path) -> None:
    data_dir.mkdir()
    text = (
        json.dumps({**CUSTOM, "ui_scale": 1.5})
        .replace('"sound_volume": 35', '"sound_volume": ' + "9" * 5000)
        .replace('"ui_scale": 1.5', '"ui_scale": 1e999, "quiz_score": -' + "7" * 400)
    )
    (data_dir / "settings.json").write_text(text)
    with Storage.open(data_dir) as store:
        s = store.settings
        assert (s.sound_volume, s.ui_scale, s.quiz_score) == (80, 1.0, 0)
        assert s.language == "ja" and s.player_name == "Hana"
        assert [w.key for w in store.warnings] == ["settings_repaired"]


def test_deep_nesting(tmp_path: Path, h) -> None:
    hopeless = tmp_path / "a"
    hopeless.mkdir()
    (hopeless / "settings.json").write_text("[" * 200_000 + "]" * 200_000)
    with Storage.open(hopeless) as store:
        assert store.settings == Settings() and [w.key for w in store.warnings] == [
            "settings_damaged"
        ]
        assert "nested too deeply" in h.said(store.warnings[0])
    nested_field = tmp_path / "b"
    nested_field.mkdir()
    deep: object = 1
    for _ in range(600):
        deep = {"k": deep}
    (nested_field / "settings.json").write_text(json.dumps({**CUSTOM, "default_options": deep}))
    with Storage.open(nested_field) as store:
        assert store.settings.language == "ja" and store.settings.default_options == {}
        assert [w.key for w in store.warnings] == ["settings_repaired"]


@pytest.mark.parametrize(
    ("encoding", "name"),
    [
        ("utf-16", "Оксана 花子"),
        ("utf-8-sig", "Оксана 花子"),
        ("latin-1", "José Núñez"),
        ("cp1252", "Zoë – €"),
    ],
)
def test_wrong_encodings_are_read_and_converted(
    data_dir: Path, encoding: str, name: str, h
) -> None:
    data_dir.mkdir()
    raw = json.dumps({**CUSTOM, "player_name": name}, ensure_ascii=False).encode(encoding)
    (data_dir / "settings.json").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert store.settings.player_name == name and store.settings.language == "ja"
        if encoding == "utf-8-sig":
            assert store.warnings == []  # a BOM is just UTF-8
        else:
            assert [w.key for w in store.warnings] == ["settings_recoded"]
            [kept] = h.aside(data_dir, "settings.json")
            assert kept.read_bytes() == raw
    on_disk = (data_dir / "settings.json").read_bytes()
    if encoding == "utf-8-sig":
        assert on_disk == raw  # nothing was wrong: left as the player saved it
    else:
        assert json.loads(on_disk.decode("utf-8"))["player_name"] == name


def test_megabytes_of_junk_settings(data_dir: Path, h) -> None:
    data_dir.mkdir()
    junk = random.Random(1).randbytes(3 * 1024 * 1024)
    (data_dir / "settings.json").write_bytes(junk)
    with Storage.open(data_dir) as store:
        assert store.settings == Settings() and [w.key for w in store.warnings] == [
            "settings_damaged"
        ]
    [kept] = h.aside(data_dir, "settings.json")
    assert kept.read_bytes() == junk


def test_settings_from_a_future_version_are_never_overwritten(data_dir: Path) -> None:
    data_dir.mkdir()
    raw = json.dumps({"schema_version": 9, "language": "ja", "new_thing": {"x": 1}}).encode()
    (data_dir / "settings.json").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert store.settings == Settings()
        assert [w.key for w in store.warnings] == ["settings_future"]
        store.settings.language = "sk"
        assert store.save_settings() is False
    assert (data_dir / "settings.json").read_bytes() == raw
    assert sorted(p.name for p in data_dir.iterdir() if "sqlite3" not in p.name) == [
        "settings.json"
    ]


def test_unversioned_settings_are_migrated(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text(json.dumps({"language": "sk"}))
    with Storage.open(data_dir) as store:
        assert store.warnings == [] and store.settings.language == "sk"
    assert json.loads((data_dir / "settings.json").read_text())["schema_version"] == 1


# ---------------------------------------------------------------------------- the database

DB = "koikoi.sqlite3"


def _checkpoint(data_dir: Path) -> None:
    """Fold the WAL into the main file (what a clean quit leaves), so byte edits hit the data."""
    conn = sqlite3.connect(data_dir / DB)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


@pytest.mark.parametrize(
    "damage",
    ["random-bytes", "truncated-header", "zero-length-header", "text-file"],
)
def test_a_database_that_does_not_open_is_set_aside_and_a_fresh_one_made(
    data_dir: Path, h, damage: str
) -> None:
    _write_ledger(data_dir, h, n=3)
    _checkpoint(data_dir)
    raw = (data_dir / DB).read_bytes()
    bad = {
        "random-bytes": random.Random(1).randbytes(len(raw)),
        "truncated-header": raw[:50],
        "zero-length-header": b"\0" * 4096,
        "text-file": b"my notes about koi-koi\n" * 100,
    }[damage]
    (data_dir / DB).write_bytes(bad)
    with Storage.open(data_dir) as store:
        assert [w.key for w in store.warnings] == ["ledger_db_repaired"], store.warnings
        assert store.can_write_ledger and store.ledger.count() == 0
        assert store.record_match(h.make_record())  # the game records again at once
    [kept] = [p for p in h.aside(data_dir, DB) if not p.name.endswith(("-wal", "-shm"))]
    assert kept.read_bytes() == bad  # renamed, never deleted


def test_a_database_failing_quick_check_is_salvaged_row_by_row(data_dir: Path, h) -> None:
    recs = [h.make_record(rounds=12) for _ in range(300)]
    with Storage.open(data_dir) as store:
        for r in recs:
            assert store.record_match(r)
    _checkpoint(data_dir)
    raw = bytearray((data_dir / DB).read_bytes())
    page = 4096
    pages = len(raw) // page
    # wreck two pages in the middle of the file (not the header page)
    for p in (pages // 3, pages // 2):
        raw[p * page + 8 : p * page + 600] = random.Random(p).randbytes(592)
    (data_dir / DB).write_bytes(bytes(raw))
    with Storage.open(data_dir) as store:
        assert [w.key for w in store.warnings] == ["ledger_db_repaired"]
        got = _ids(store)
        assert 0 < len(got) <= len(recs)
        assert set(got) <= {r.match_id for r in recs}
        assert store.warnings[0].params["count"] == len(got)  # the line says how many
    [kept] = [p for p in h.aside(data_dir, DB) if not p.name.endswith(("-wal", "-shm"))]
    assert kept.read_bytes() == bytes(raw)


def test_a_database_from_a_newer_version_is_shown_read_only(data_dir: Path, h) -> None:
    recs = _write_ledger(data_dir, h, n=2)
    conn = sqlite3.connect(data_dir / DB)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    _checkpoint(data_dir)
    before = (data_dir / DB).read_bytes()
    with Storage.open(data_dir) as store:
        assert not store.can_write_ledger
        assert [w.key for w in store.warnings] == ["ledger_future"]
        assert _ids(store) == sorted(r.match_id for r in recs)  # shown
        late = h.make_record()
        assert store.record_match(late) is False  # held in memory, said once
        assert [p[0].match_id for p in store.pending] == [late.match_id]
        store.settings.language = "uk"
        assert store.save_settings()  # the rest of the game goes on
    assert (data_dir / DB).read_bytes() == before


def test_duplicate_ids_are_never_deleted(data_dir: Path, h) -> None:
    """Recording the same match twice keeps one row; importing a *different* match under a
    taken id keeps it aside in the database (never silently dropped)."""
    from .real_ledger import played

    rec, text = played(1, match_id="dup")
    with Storage.open(data_dir) as store:
        assert store.record_match(rec, record_text=text)
        assert store.record_match(rec, record_text=text)  # the same match: nothing changes
        assert store.ledger.count() == 1
        other, other_text = played(2, match_id="dup")  # another match under the same id
        export = data_dir.parent / "other.json"
        from koikoi_desktop.storage.export import write_json

        write_json([(other, other_text)], export)
        assert store.import_ledger(export) == (0, 0, 1)
        assert store.ledger.count() == 1
    conn = sqlite3.connect(data_dir / DB)
    kept = conn.execute("SELECT kind, match_id FROM set_aside").fetchall()
    conn.close()
    assert kept == [("import_conflict", rec.match_id)]


# ------------------------------------------------------------------- importing version 0.1 files


def _old_ledger(recs: list, *, extra: list[str] = ()) -> bytes:  # type: ignore[assignment]
    lines = [r.model_dump_json() for r in recs] + list(extra)
    return ("\n".join(lines) + "\n").encode()


def test_old_files_are_imported_once_and_renamed(data_dir: Path, h) -> None:
    recs = [h.make_record(rounds=2) for _ in range(4)]
    data_dir.mkdir()
    (data_dir / "ledger.jsonl").write_bytes(_old_ledger(recs[:3]))
    (data_dir / "ledger.backup.jsonl").write_bytes(_old_ledger(recs[1:]))  # holds one more
    (data_dir / "ledger.lock").write_bytes(b"")
    with Storage.open(data_dir) as store:
        assert _ids(store) == sorted(r.match_id for r in recs)
        assert [w.key for w in store.warnings] == ["ledger_imported"]
        assert store.warnings[0].params["count"] == 4
    names = sorted(p.name for p in data_dir.iterdir())
    assert "ledger.jsonl.imported" in names and "ledger.backup.jsonl.imported" in names
    assert "ledger.jsonl" not in names and "ledger.lock" not in names
    with Storage.open(data_dir) as store:  # a second start imports nothing and says nothing
        assert store.warnings == [] and store.ledger.count() == 4


def test_a_kill_between_import_and_rename_repeats_harmlessly(data_dir: Path, h) -> None:
    recs = [h.make_record(rounds=2) for _ in range(3)]
    data_dir.mkdir()
    raw = _old_ledger(recs)
    (data_dir / "ledger.jsonl").write_bytes(raw)
    with Storage.open(data_dir):
        pass
    # as if the process died after the database commit, before the rename
    (data_dir / "ledger.jsonl.imported").rename(data_dir / "ledger.jsonl")
    with Storage.open(data_dir) as store:
        assert store.ledger.count() == 3  # same ids: nothing doubled
        assert store.warnings[0].params["count"] == 0


def test_damaged_old_ledger_lines_are_counted_and_the_file_kept(data_dir: Path, h) -> None:
    recs = [h.make_record(rounds=2) for _ in range(3)]
    good = json.loads(recs[1].model_dump_json())
    wrong_types = json.dumps({**good, "match_id": "x1", "rounds": "many", "winner": "me"})
    nested = '{"match_id": "x3", "options": ' + "[" * 100_000 + "]" * 100_000 + "}"
    junk = random.Random(5).randbytes(200_000).replace(b"\n", b" ").decode("latin-1")
    raw = _old_ledger(recs, extra=[wrong_types, nested, "[1, 2, 3]", junk])
    data_dir.mkdir()
    (data_dir / "ledger.jsonl").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert _ids(store) == sorted(r.match_id for r in recs)
        assert [w.key for w in store.warnings] == ["ledger_imported", "ledger_import_bad"]
        assert "old match ledger: 4;" in h.said(store.warnings[1])
    assert (data_dir / "ledger.jsonl.imported").read_bytes() == raw


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_old_ledger_in_a_wrong_encoding(data_dir: Path, h, encoding: str) -> None:
    recs = [h.make_record(player_name=name) for name in ("José", "Zoë", "Ana")]
    data_dir.mkdir()
    (data_dir / "ledger.jsonl").write_bytes(_old_ledger(recs).decode().encode(encoding))
    with Storage.open(data_dir) as store:
        names = sorted(r.opponent_name for r in store.ledger.page(0, 10))
        assert names == sorted(["José", "Zoë", "Ana"])


def test_old_ledger_from_a_future_version_is_left_alone(data_dir: Path, h) -> None:
    recs = [h.make_record(rounds=1) for _ in range(2)]
    future = json.dumps({"schema_version": 5, "match_id": "new", "whatever": [1]})
    raw = _old_ledger(recs, extra=[future])
    data_dir.mkdir()
    (data_dir / "ledger.jsonl").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert [w.key for w in store.warnings] == ["ledger_future"]
        assert store.can_write_ledger  # the new database is ours: play and record go on
    assert (data_dir / "ledger.jsonl").read_bytes() == raw


def test_old_autosave_becomes_the_saved_match(data_dir: Path) -> None:
    m = engine.new_match(engine.PRESETS["nintendo"], first_dealer=0, rounds=1, seed=4)
    rng = random.Random(3)
    for _ in range(6):
        m.apply(rng.choice(m.round.legal_actions()))
    text = engine.match_record(m)
    data_dir.mkdir()
    old = {"schema_version": 1, "record": text, "meta": {"seats": ["human", "beginner"]}}
    (data_dir / "autosave.json").write_text(json.dumps(old))
    with Storage.open(data_dir) as store:
        saved = store.read_autosave()
        assert saved is not None and saved.record == text
        assert saved.meta["match_id"].startswith("legacy-")
    assert (data_dir / "autosave.json.imported").is_file()
    with Storage.open(data_dir) as store:  # imported once: the same row, not a second one
        assert store.db is not None and len(store.db.saved_matches()) == 1


@pytest.mark.parametrize(
    "raw",
    [b"", b'{"schema_version": 1, "record": ', b'{"schema_version": 1, "record": 5}', b"[]"],
)
def test_damaged_old_autosave_is_set_aside_not_offered(data_dir: Path, raw: bytes, h) -> None:
    data_dir.mkdir()
    (data_dir / "autosave.json").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert store.read_autosave() is None
        assert [w.key for w in store.warnings] == ["autosave_damaged"]
    [kept] = h.aside(data_dir, "autosave.json")
    assert kept.read_bytes() == raw


@pytest.mark.parametrize("old_records", [False, True], ids=["flag-in-record", "flag-in-rounds"])
def test_a_salvage_keeps_every_column_and_the_statistics(
    data_dir: Path, h, old_records: bool
) -> None:
    """A repair rebuilds each match as it was: computer matches stay computer matches (out of
    the statistics), practice stays practice, presets and names stay; the statistics after the
    repair equal those before it."""
    with Storage.open(data_dir) as store:
        for i in range(24):
            rec = h.make_record(
                rounds=3 + i % 4,
                winner=i % 3 % 2,
                preset=("nintendo", "seed-000")[i % 2],
                practice=i % 5 == 0,
                player_name=f"Ren {i}",
            )
            assert store.record_match(rec, computer=i % 4 == 0)
        before = store.ledger.stats()
        before_practice = store.ledger.stats(include_practice=True)
        listed = store.ledger.summaries(0, 100)
        total = store.db.count(computer=None)  # type: ignore[union-attr]
    conn = sqlite3.connect(data_dir / DB)
    with conn:
        if old_records:  # records written before the flag was part of them
            conn.execute("UPDATE match_data SET data = json_remove(data, '$.computer')")
        conn.execute("DROP TABLE matches")  # only the records and the rounds are left
    conn.close()
    with Storage.open(data_dir) as store:
        assert [w.key for w in store.warnings] == ["ledger_db_repaired"]
        assert store.ledger.stats() == before
        assert store.ledger.stats(include_practice=True) == before_practice
        assert store.ledger.summaries(0, 100) == listed
        assert store.db.count(computer=None) == total  # type: ignore[union-attr]
