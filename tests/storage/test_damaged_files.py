"""Hostile and damaged files: truncated, random bytes, wrong types, huge numbers, deep nesting,
wrong encodings, megabytes of junk, newer schema versions. The game always starts, keeps what it
can, never deletes a file, and says so in one line."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop.storage import Settings, Storage

CUSTOM = {
    "schema_version": 1,
    "language": "ja",
    "sound_volume": 35,
    "player_name": "Hana",
    "help_level": "highlights",
    "window_size": [1600, 900],
}


def _write_ledger(data_dir: Path, h, n: int = 5) -> tuple[list, bytes]:
    recs = [h.make_record(rounds=2) for _ in range(n)]
    with Storage.open(data_dir) as store:
        for r in recs:
            assert store.record_match(r)
    return recs, (data_dir / "ledger.jsonl").read_bytes()


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
            assert kept[0].name in store.warnings[0]
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
        assert "fullscreen, language, sound_volume" in store.warnings[0]
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


def test_deep_nesting(tmp_path: Path) -> None:
    hopeless = tmp_path / "a"
    hopeless.mkdir()
    (hopeless / "settings.json").write_text("[" * 200_000 + "]" * 200_000)
    with Storage.open(hopeless) as store:
        assert store.settings == Settings() and [w.key for w in store.warnings] == [
            "settings_damaged"
        ]
        assert "nested too deeply" in store.warnings[0]
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
    assert sorted(p.name for p in data_dir.iterdir()) == ["ledger.lock", "settings.json"]


def test_unversioned_settings_are_migrated(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text(json.dumps({"language": "sk"}))
    with Storage.open(data_dir) as store:
        assert store.warnings == [] and store.settings.language == "sk"
    assert json.loads((data_dir / "settings.json").read_text())["schema_version"] == 1


# ------------------------------------------------------------------------------------- ledger


def test_truncated_ledger_with_backup_loses_nothing(data_dir: Path, h) -> None:
    recs, full = _write_ledger(data_dir, h)
    rng = random.Random(7)
    for cut in sorted(rng.sample(range(1, len(full) - 1), 8)):
        (data_dir / "ledger.jsonl").write_bytes(full[:cut])
        with Storage.open(data_dir) as store:
            assert [r.match_id for r in store.ledger] == [r.match_id for r in recs]
            if full[:cut].endswith(b"}"):
                continue  # cut exactly at a line's end: still a valid ledger, nothing to say
            assert [w.key for w in store.warnings] == ["ledger_repaired"]
        assert (data_dir / "ledger.jsonl").read_bytes() == full  # repaired in place


def test_truncated_ledger_without_backup_keeps_every_whole_line(data_dir: Path, h) -> None:
    recs, full = _write_ledger(data_dir, h)
    line_ends = [i for i, b in enumerate(full) if b == ord("\n")]
    rng = random.Random(3)
    for n, cut in enumerate(sorted(rng.sample(range(1, len(full)), 12))):
        d = data_dir.parent / f"c{n}"
        d.mkdir()
        (d / "ledger.jsonl").write_bytes(full[:cut])
        whole = sum(end <= cut for end in line_ends)  # lines complete within the prefix
        with Storage.open(d) as store:
            got = [r.match_id for r in store.ledger]
            assert got == [r.match_id for r in recs][: len(got)]
            assert len(got) in (whole, whole + 1)  # +1: the cut fell right after a closing brace
            damaged = h.aside(d, "ledger.jsonl")
            if store.warnings:
                assert [w.key for w in store.warnings] == ["ledger_repaired"]
                assert len(damaged) == 1 and damaged[0].read_bytes() == full[:cut]
            else:
                assert damaged == []


def test_ledger_lines_with_wrong_types_huge_numbers_and_nesting(data_dir: Path, h) -> None:
    recs, full = _write_ledger(data_dir, h, n=3)
    (data_dir / "ledger.backup.jsonl").unlink()
    lines = full.decode().splitlines()
    good = json.loads(lines[1])
    wrong_types = {**good, "match_id": "x1", "rounds": "many", "winner": "me"}
    huge = {**good, "match_id": "x2", "final_balances": [int("9" * 400), 0]}
    huger = lines[1].replace('"final_balances":[', '"final_balances":[' + "9" * 5000 + ",0,")
    nested = '{"match_id": "x3", "options": ' + "[" * 100_000 + "]" * 100_000 + "}"
    not_object = "[1, 2, 3]"
    body = [
        lines[0],
        json.dumps(wrong_types),
        json.dumps(huge),
        huger,
        nested,
        not_object,
        lines[2],
    ]
    raw = ("\n".join(body) + "\n").encode()
    (data_dir / "ledger.jsonl").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert [r.match_id for r in store.ledger] == [recs[0].match_id, recs[2].match_id]
        assert [w.key for w in store.warnings] == ["ledger_repaired"]
        assert "5 unreadable lines" in store.warnings[0]
    [kept] = h.aside(data_dir, "ledger.jsonl")
    assert kept.read_bytes() == raw


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_ledger_in_a_wrong_encoding(data_dir: Path, h, encoding: str) -> None:
    recs = [h.make_record(player_name=name) for name in ("José", "Zoë", "Ana")]
    text = "\n".join(r.model_dump_json() for r in recs) + "\n"
    data_dir.mkdir()
    (data_dir / "ledger.jsonl").write_bytes(text.encode(encoding))
    with Storage.open(data_dir) as store:
        assert [r.opponent_name for r in store.ledger] == ["José", "Zoë", "Ana"]
        assert [w.key for w in store.warnings] == ["ledger_recoded"]
    assert (data_dir / "ledger.jsonl").read_text("utf-8") == text


def test_megabytes_of_junk_around_good_ledger_lines(data_dir: Path, h) -> None:
    recs, full = _write_ledger(data_dir, h, n=3)
    (data_dir / "ledger.backup.jsonl").unlink()
    rng = random.Random(5)
    junk = [rng.randbytes(1024 * 1024).replace(b"\n", b" ") for _ in range(4)]
    lines = full.splitlines()
    raw = b"\n".join([junk[0], lines[0], junk[1], lines[1], junk[2], lines[2], junk[3]])
    (data_dir / "ledger.jsonl").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert [r.match_id for r in store.ledger] == [r.match_id for r in recs]
        assert [w.key for w in store.warnings] == ["ledger_repaired"]
    assert h.aside(data_dir, "ledger.jsonl")[0].read_bytes() == raw


def test_ledger_from_a_future_version_is_left_alone(data_dir: Path, h) -> None:
    recs, full = _write_ledger(data_dir, h, n=2)
    future = json.dumps({"schema_version": 5, "match_id": "new", "whatever": [1]})
    raw = full + future.encode() + b"\n"
    (data_dir / "ledger.jsonl").write_bytes(raw)
    backup = (data_dir / "ledger.backup.jsonl").read_bytes()
    with Storage.open(data_dir) as store:
        assert not store.can_write_ledger
        assert [w.key for w in store.warnings] == ["ledger_future"]
        assert [r.match_id for r in store.ledger] == [r.match_id for r in recs]  # shown, read-only
        assert store.record_match(h.make_record()) is False
        store.settings.language = "uk"
        assert store.save_settings()  # the rest of the game goes on
    assert (data_dir / "ledger.jsonl").read_bytes() == raw
    assert (data_dir / "ledger.backup.jsonl").read_bytes() == backup


def test_missing_ledger_is_restored_from_backup(data_dir: Path, h) -> None:
    recs, full = _write_ledger(data_dir, h, n=3)
    (data_dir / "ledger.jsonl").unlink()
    with Storage.open(data_dir) as store:
        assert [r.match_id for r in store.ledger] == [r.match_id for r in recs]
        assert [w.key for w in store.warnings] == ["ledger_restored"]
    assert (data_dir / "ledger.jsonl").read_bytes() == full


def test_damaged_backup_is_replaced_at_the_next_write(data_dir: Path, h) -> None:
    _recs, _full = _write_ledger(data_dir, h, n=2)
    (data_dir / "ledger.backup.jsonl").write_bytes(b"\x00garbage")
    with Storage.open(data_dir) as store:
        assert store.warnings == [] and len(store.ledger) == 2
        store.record_match(h.make_record())
    assert (data_dir / "ledger.backup.jsonl").read_bytes() == (
        data_dir / "ledger.jsonl"
    ).read_bytes()


def test_second_copy_does_not_repair_the_ledger(data_dir: Path, h) -> None:
    _recs, full = _write_ledger(data_dir, h, n=3)
    owner = Storage.open(data_dir)
    broken = full[:-20]
    (data_dir / "ledger.jsonl").write_bytes(broken)
    other = Storage.open(data_dir)
    try:
        assert [w.key for w in other.warnings] == ["another_copy", "ledger_damaged_readonly"]
        assert len(other.ledger) == 3  # merged with the backup, in memory only
        assert (data_dir / "ledger.jsonl").read_bytes() == broken
        assert h.aside(data_dir, "ledger.jsonl") == []
    finally:
        other.close()
        owner.close()


# ----------------------------------------------------------------------------------- autosave


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b'{"schema_version": 1, "record": ',
        b'{"schema_version": 1, "record": 5}',
        b"\xff\xfe\x00junk",
        b"[]",
    ],
)
def test_damaged_autosave_is_set_aside_not_offered(data_dir: Path, raw: bytes, h) -> None:
    data_dir.mkdir()
    (data_dir / "autosave.json").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert store.read_autosave() is None
        assert [w.key for w in store.warnings] == ["autosave_damaged"]
        assert store.read_autosave() is None and len(store.warnings) == 1
    [kept] = h.aside(data_dir, "autosave.json")
    assert kept.read_bytes() == raw


def test_autosave_the_engine_cannot_replay_is_set_aside(data_dir: Path, h) -> None:
    with Storage.open(data_dir) as store:
        store.write_autosave("not a match record", {})
        saved = store.read_autosave()
        assert saved is not None
        store.discard_autosave("the match record does not replay")
        assert store.read_autosave() is None
        assert "does not replay" in store.warnings[-1]
    assert len(h.aside(data_dir, "autosave.json")) == 1


def test_autosave_from_a_future_version_is_left_alone(data_dir: Path) -> None:
    data_dir.mkdir()
    raw = json.dumps({"schema_version": 3, "record": "future"}).encode()
    (data_dir / "autosave.json").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert store.read_autosave() is None
        assert [w.key for w in store.warnings] == ["autosave_future"]
        assert store.write_autosave("mine", {}) is False
        store.clear_autosave()
    assert (data_dir / "autosave.json").read_bytes() == raw


def test_unversioned_ledger_lines_are_upgraded_quietly(data_dir: Path, h) -> None:
    recs = [h.make_record(rounds=1) for _ in range(2)]
    lines = []
    for r in recs:
        d = json.loads(r.model_dump_json())
        del d["schema_version"]
        lines.append(json.dumps(d))
    raw = ("\n".join(lines) + "\n").encode()
    data_dir.mkdir()
    (data_dir / "ledger.jsonl").write_bytes(raw)
    with Storage.open(data_dir) as store:
        assert store.warnings == [] and store.ledger == recs
    assert all(
        json.loads(x)["schema_version"] == 1
        for x in (data_dir / "ledger.jsonl").read_text().splitlines()
    )
    [old] = h.aside(data_dir, "ledger.jsonl")
    assert ".before-upgrade-" in old.name and old.read_bytes() == raw


def test_second_copy_restoring_from_backup_writes_nothing(data_dir: Path, h) -> None:
    _write_ledger(data_dir, h, n=2)
    (data_dir / "ledger.jsonl").unlink()
    owner = Storage.open(data_dir)  # restores and rewrites the main file
    (data_dir / "ledger.jsonl").unlink()
    other = Storage.open(data_dir)
    try:
        assert len(other.ledger) == 2 and other.pending == frozenset()
        assert not (data_dir / "ledger.jsonl").exists()
        other.settings.language = "sk"
        assert other.save_settings()
    finally:
        other.close()
        owner.close()
