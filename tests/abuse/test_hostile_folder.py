"""Whatever is in the data folder, the game starts, says what it found, and loses nothing.

A hypothesis test writes one arbitrary value (NUL, huge text, a wrong type, a BLOB, NULL, a
negative or huge number, a future date) into one column of one row of each table of a real
database (matches played by the engine, a saved match, a cached review), or into one field of
``settings.json``, then runs the game as a player does, in one process with the dummy video
driver: the title screen, Continue, the ledger's list, a match's rounds, the statistics tab and
the review of every match. Nothing may raise; a value the boundary refuses leaves its row set
aside in the database and a counted line for the player; no match id disappears.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pygame
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from koikoi_desktop import app as app_mod
from koikoi_desktop import engine, scenes
from koikoi_desktop.ai import InlineExecutor, make_opponent
from koikoi_desktop.scenes.review import scene as review_mod
from koikoi_desktop.storage import Storage
from koikoi_desktop.storage.ledger_db import _expected_schema
from koikoi_desktop.storage.models import (
    DataRow,
    MatchRecord,
    ReviewRow,
    SavedMeta,
    SavedRow,
    Settings,
    SummaryRow,
    TotalsRow,
    load_settings_tolerant,
)
from koikoi_desktop.storage.recorder import MatchRecorder


def _played(seed: int, seats: tuple[str, str], rounds: int = 2) -> engine.Match:
    m = engine.new_match(
        engine.PRESETS["nintendo"], first_dealer=seed % 2, seed=seed, rounds=rounds
    )
    bots = [make_opponent("beginner", seed=seed), make_opponent("intermediate", seed=seed + 1)]
    while m.outcome is None:
        p = m.round.to_move
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    return m


@cache
def template() -> Path:
    """A data folder as a player leaves it: two matches, a computer match, a saved match, a
    cached review and custom settings."""
    root = Path(tempfile.mkdtemp(prefix="koikoi-template-"))
    with Storage.open(root) as store:
        for i, seats in enumerate((("human", "beginner"), ("human", "expert"))):
            rec = MatchRecorder(
                store,
                match_id=f"player{i}",
                seats=seats,
                names=("You", f"Ren {i}"),
                rules=engine.PRESETS["nintendo"],
                practice=False,
            )
            assert rec.match_ended(_played(3 + i, seats))
        cpu = MatchRecorder(
            store,
            match_id="cpu0",
            seats=("beginner", "intermediate"),
            names=("A", "B"),
            rules=engine.PRESETS["nintendo"],
            practice=False,
            computer=True,
        )
        assert cpu.match_ended(_played(9, ("beginner", "intermediate")))
        m = engine.new_match(engine.PRESETS["nintendo"], first_dealer=0, seed=5, rounds=3)
        m.apply(m.round.legal_actions()[0])
        saver = MatchRecorder(
            store,
            match_id="saved0",
            seats=("human", "beginner"),
            names=("You", "Aki"),
            rules=engine.PRESETS["nintendo"],
            practice=False,
        )
        assert store.write_autosave("saved0", engine.match_record(m), saver.meta(m))
        assert store.save_review("player0", json.dumps({"version": -1})) is None
        store.settings.player_name = "Hana"
        store.save_settings()
    return root


def _columns() -> list[tuple[str, str]]:
    return [
        (table, col[0])
        for table, cols in _expected_schema().items()
        if table != "set_aside"
        for col in cols
    ]


HOSTILE = st.one_of(
    st.sampled_from(
        [
            None,
            "",
            "\x00",
            "Ren\x00",
            "a\x01b",
            "x" * 300_000,
            "9999-12-31T23:59:59-23:59",
            "2999-01-01T00:00:00+00:00",
            "0001-01-01T00:00:00+14:00",
            "not a date",
            "{}",
            "[]",
            '{"schema_version": 1}',
            -1,
            -(2**63),
            2**63 - 1,
            10**13,
            1.5,
            float("inf"),
            b"",
            b"\x00\xff",
            b'{"a": 1}',
            "win",
            "coins",
            2,
        ]
    ),
    st.text(max_size=20),
    st.binary(max_size=20),
    st.integers(),
)


def _bad_row(table: str, row: dict[str, Any], conn: sqlite3.Connection, rowid: int) -> bool:
    """Does the row fail the game's boundary (then it must end up set aside)?"""
    try:
        if table == "matches":
            if row["computer"] == 1:
                return False  # computer matches are not listed (the statistics check them)
            SummaryRow.model_validate(row)
        elif table == "match_data":
            data = DataRow.model_validate(row)
            rec = MatchRecord.model_validate_json(data.data)
            return rec.match_id != data.match_id
        elif table == "saved":
            saved = SavedRow.model_validate(row)
            SavedMeta.model_validate({**json.loads(saved.meta), "match_id": saved.match_id})
            engine.replay_match(saved.record)
        elif table == "reviews":
            if row["match_id"] not in ("player0", "player1"):
                return False  # a cache row of no match is never read (nor harmful)
            ReviewRow.model_validate(row)
        elif table == "totals":
            TotalsRow.model_validate(row)
        elif table in ("rounds", "round_yaku"):
            # derived rows: the statistics read counters kept when matches are recorded, not
            # these (checked when the counters are rebuilt); a damaged one must not crash
            return False
    except (ValidationError, ValueError, TypeError):  # TypeError: a meta that is no object
        return True
    return False


def _run_the_game(data: Path) -> Any:
    """Title, Continue, the ledger (list, a match, statistics), the review of every match."""
    args = app_mod.parse_args(["--data-dir", str(data), "--speed", "off"])
    a = app_mod.App(args)
    a.ai_executor = InlineExecutor()
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    surface = a.screen

    def frames(n: int = 2) -> None:
        for _ in range(n):
            a.stack.update(1 / 60)
            a.stack.draw(surface)

    try:
        a.stack.push(scenes.create("title", a))
        frames()
        if a.continue_match():
            frames(3)
            a.stack.pop()
        ledger = a.stack.push(scenes.create("ledger", a))
        frames()
        for i in range(len(ledger.rows.summaries)):
            ledger.open_match(i)
            match = a.stack.top
            frames()
            if match is not ledger:  # opened (a row that does not read stays on the list)
                match.review()
                if a.stack.top is not match:
                    frames(2)
                    a.stack.pop()
                match.close()
            frames()
        ledger.choose("stats")
        frames(3)
        a.stack.pop_to("title")
        frames()
        return list(a.storage.warnings)
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        a.close_storage()
        pygame.display.quit()


def _ids_anywhere(data: Path) -> str:
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    conn.text_factory = lambda b: b.decode("utf-8", "replace")
    try:
        parts = [
            repr(conn.execute(f"SELECT * FROM {t}").fetchall())
            for t in ("matches", "match_data", "saved", "set_aside")
        ]
    finally:
        conn.close()
    return " ".join(parts)


@pytest.fixture(autouse=True)
def _small_review(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_mod, "WORLDS", 2)
    monkeypatch.delenv("KOIKOI_DATA_DIR", raising=False)


@pytest.mark.slow
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(target=st.sampled_from(_columns()), row=st.integers(0, 5), value=HOSTILE)
def test_any_value_in_any_column_starts_and_is_set_aside(
    target: tuple[str, str], row: int, value: object
) -> None:
    table, column = target
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(template(), data)
        conn = sqlite3.connect(data / "koikoi.sqlite3")
        rowids = [r for (r,) in conn.execute(f"SELECT rowid FROM {table} ORDER BY rowid")]
        assume(rowids)
        rowid = rowids[row % len(rowids)]
        owner = (
            conn.execute(f"SELECT match_id FROM {table} WHERE rowid = ?", (rowid,)).fetchone()[0]
            if table != "totals"
            else None
        )
        try:
            with conn:
                conn.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (value, rowid))
        except (sqlite3.IntegrityError, OverflowError):
            conn.close()
            # NOT NULL, a taken key (the salvage's business), or no SQLite value at all
            assume(False)
        cur = conn.execute(f"SELECT * FROM {table} WHERE rowid = ?", (rowid,))
        values = dict(zip([d[0] for d in cur.description], cur.fetchone(), strict=True))
        # the full record of a computer match is read by exports only, not by any screen
        bad = _bad_row(table, values, conn, rowid) and not (
            table == "match_data" and owner == "cpu0"
        )
        conn.close()

        warnings = _run_the_game(data)

        everything = _ids_anywhere(data)
        for match_id in ("player0", "player1", "cpu0", "saved0"):
            assert match_id in everything, f"{match_id} is gone"
        if bad:
            conn = sqlite3.connect(data / "koikoi.sqlite3")
            aside = conn.execute("SELECT COUNT(*) FROM set_aside").fetchone()[0]
            conn.close()
            keys = {w.key for w in warnings}
            assert aside >= 1, (table, column, value)
            assert keys & {"rows_set_aside", "autosave_damaged"}, (table, column, warnings)


SETTING_VALUES = st.one_of(
    HOSTILE, st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.none())
)


@pytest.mark.slow
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    field=st.sampled_from(sorted(set(Settings.model_fields) - {"schema_version"})),
    value=SETTING_VALUES,
)
def test_any_value_in_any_setting_falls_back_and_is_named(field: str, value: object) -> None:
    assume(not isinstance(value, bytes))  # JSON has no bytes
    if isinstance(value, float):
        value = "inf"
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(template(), data)
        path = data / "settings.json"
        doc = json.loads(path.read_text())
        doc[field] = value
        path.write_text(json.dumps(doc))
        _, dropped = load_settings_tolerant(doc)
        warnings = _run_the_game(data)
        if dropped:
            [line] = [w for w in warnings if w.key == "settings_repaired"]
            assert field in str(line.params["fields"])


def test_a_nul_in_the_player_name_is_named_and_the_table_starts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(template(), data)
    doc = json.loads((data / "settings.json").read_text())
    doc["player_name"] = "Ha\x00na"
    (data / "settings.json").write_text(json.dumps(doc))
    warnings = _run_the_game(data)
    named = [w.key for w in warnings if "player_name" in str(w.params.get("fields", ""))]
    assert named == ["settings_repaired"]
    with Storage.open(data) as store:
        assert store.settings.player_name == ""


@pytest.mark.parametrize(
    "sql",
    [
        "DROP TABLE saved",
        "ALTER TABLE matches DROP COLUMN help_level",
        "ALTER TABLE rounds RENAME COLUMN paid TO payment",
        "ALTER TABLE reviews ADD COLUMN extra TEXT",
    ],
)
def test_a_missing_or_altered_table_is_rebuilt_and_the_old_file_kept(
    tmp_path: Path, sql: str
) -> None:
    data = tmp_path / "data"
    shutil.copytree(template(), data)
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    with conn:
        conn.execute(sql)
    conn.close()
    warnings = _run_the_game(data)
    assert [w.key for w in warnings].count("ledger_db_repaired") == 1
    assert any(p.name.startswith("koikoi.sqlite3.damaged-") for p in data.iterdir())
    with Storage.open(data) as store:
        assert {s.match_id for s in store.ledger.summaries(0, 10)} == {"player0", "player1"}
        st_ = store.ledger.stats()
        assert st_.overall.matches == 2


def test_a_saved_match_stored_as_a_blob_is_set_aside_with_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(template(), data)
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    with conn:
        conn.execute("UPDATE saved SET record = CAST(record AS BLOB)")
    conn.close()
    warnings = _run_the_game(data)
    assert [w.key for w in warnings].count("autosave_damaged") == 1
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    kinds = conn.execute("SELECT kind, match_id FROM set_aside").fetchall()
    conn.close()
    assert kinds == [("saved_match", "saved0")]


def test_a_date_that_is_not_one_does_not_stop_the_ledger(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(template(), data)
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    with conn:
        conn.execute("UPDATE matches SET date = 'yesterday' WHERE match_id = 'player1'")
    conn.close()
    warnings = _run_the_game(data)
    assert "rows_set_aside" in {w.key for w in warnings}
    with Storage.open(data) as store:  # rebuilt from its record: nothing lost
        assert {s.match_id for s in store.ledger.summaries(0, 10)} == {"player0", "player1"}
