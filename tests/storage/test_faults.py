"""Faults injected into writes: a crash between the steps of a settings write, and a disk that
refuses the database (full, read-only, I/O error) — the game goes on, holds what it could not
write, says so once, and writes everything when the disk takes it again."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.storage import Cause, Storage, atomic


class Crash(BaseException):
    """The process dies here (not an OSError: nothing in the program may catch it)."""


def _dies_at(
    step: int, counter: list[str]
) -> Callable[[str, Callable[..., Any]], Callable[..., Any]]:
    def wrap(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def fn(*args: Any, **kwargs: Any) -> Any:
            counter.append(name)
            if len(counter) == step + 1:
                raise Crash(f"killed at {name} #{step}")
            return real(*args, **kwargs)

        return fn

    return wrap


# The steps of one atomic settings write: fsync(tmp), replace, fsync(dir).
STEPS = ["fsync", "replace", "fsync"]


@pytest.mark.parametrize("step", range(len(STEPS)))
def test_crash_between_settings_write_steps_leaves_old_or_new(
    step: int, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Storage.open(data_dir) as store:
        store.settings.player_name = "Old"
        assert store.save_settings()
    store = Storage.open(data_dir)
    store.settings.player_name = "New"
    calls: list[str] = []
    wrap = _dies_at(step, calls)
    monkeypatch.setattr(atomic.os, "fsync", wrap("fsync", os.fsync))
    monkeypatch.setattr(atomic.os, "replace", wrap("replace", os.replace))
    with pytest.raises(Crash):
        store.save_settings()
    assert calls == STEPS[: step + 1]
    monkeypatch.undo()
    store.db.close()  # type: ignore[union-attr]  # the process is gone
    with Storage.open(data_dir) as again:
        assert again.warnings == []
        assert again.settings.player_name == ("New" if step >= 2 else "Old")


# --------------------------------------------------------------------- a refusing database


class _FailingConn:
    """A connection whose writes fail with one of SQLite's own error messages while
    ``on["fault"]`` (a real full disk or I/O error cannot be made on demand in a test; the
    messages are SQLite's for SQLITE_FULL and SQLITE_IOERR)."""

    def __init__(self, real: sqlite3.Connection, on: dict[str, bool], message: str) -> None:
        self._real = real
        self._on = on
        self._message = message

    def execute(self, sql: str, *args: Any) -> Any:
        if self._on["fault"] and sql.lstrip().split()[0].upper() in ("BEGIN", "INSERT"):
            raise sqlite3.OperationalError(self._message)
        return self._real.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _refuse(kind: str, store: Storage, on: dict[str, bool]) -> Callable[[bool], None]:
    """Make ``store``'s database refuse writes the way ``kind`` says; returns a switch."""
    db = store.db
    assert db is not None
    real = db.conn

    def switch(fault: bool) -> None:
        on["fault"] = fault
        if kind == "read-only":  # SQLite's own SQLITE_READONLY, raised by SQLite itself
            real.execute(f"PRAGMA query_only = {int(fault)}")

    if kind == "full":
        db.conn = _FailingConn(real, on, "database or disk is full")  # type: ignore[assignment]
    elif kind == "io-error":
        db.conn = _FailingConn(real, on, "disk I/O error")  # type: ignore[assignment]
    return switch


#: The cause each fault is told as (SQLite's words for it carry no code in this fake; the
#: read-only one is SQLite's own SQLITE_READONLY), and its English words.
REASONS = {
    "full": (Cause.FULL, "the disk is full"),
    "read-only": (Cause.DISK_READ_ONLY, "the disk is read-only"),
    "io-error": (Cause.IO, "a disk input/output error"),
}


@pytest.mark.parametrize("kind", sorted(REASONS))
def test_refusing_disk_goes_on_holds_the_matches_warns_once_and_retries(
    kind: str, data_dir: Path, h
) -> None:
    store = Storage.open(data_dir)
    first = h.make_record()
    assert store.record_match(first)
    on = {"fault": False}
    switch = _refuse(kind, store, on)
    switch(True)
    second, third = h.make_record(rounds=12), h.make_record(rounds=12)
    assert store.record_match(second) is False
    assert store.write_autosave("m-live", "record", {"n": 1}) is False
    assert store.record_match(third) is False
    assert [p[0].match_id for p in store.pending] == [second.match_id, third.match_id]
    assert len(store.warnings) == 1 and store.warnings[0].key == "write_failed_ledger"
    cause, english = REASONS[kind]
    assert store.warnings[0].params["reason"] is cause and english in h.said(store.warnings[0])
    with Storage.open(data_dir) as reader:  # the disk holds the last committed state
        assert [r.match_id for r in reader.ledger.page(0, 10)] == [first.match_id]

    switch(False)  # space freed: the next write of anything saves everything pending
    assert store.write_autosave("m-live", "record", {"n": 2})
    assert store.pending == []
    store.close()
    with Storage.open(data_dir) as again:
        ids = {r.match_id for r in again.ledger.page(0, 10)}
        assert ids == {first.match_id, second.match_id, third.match_id}
        saved = again.read_autosave()
        assert saved is not None and saved.meta["n"] == 2


def test_matches_still_refused_at_quit_are_exported_not_dropped(data_dir: Path, h) -> None:
    store = Storage.open(data_dir)
    on = {"fault": False}
    switch = _refuse("full", store, on)
    switch(True)
    held = [h.make_record() for _ in range(3)]
    for rec in held:
        assert store.record_match(rec, record_text=f"text of {rec.match_id}") is False
    assert not store.retry_pending()
    out = store.export_pending(data_dir.parent / "unsaved.json")
    import json

    doc = json.loads(out.read_text("utf-8"))
    assert [m["match_id"] for m in doc["matches"]] == [r.match_id for r in held]
    assert doc["matches"][0]["record"] == f"text of {held[0].match_id}"
    # and the export is a file the ledger can import later: nothing is lost
    switch(False)
    store.close()
    with Storage.open(data_dir) as again:
        assert again.ledger.count() == 3  # close() retried them once the disk took writes
        # the import replays each record first: these test texts are no real records, so it
        # skips them and says which (with real records they are "already in the ledger")
        result = again.import_ledger_checked(out)
        assert (result.added, result.same) == (0, 0)
        assert [mid for mid, _ in result.skipped] == [r.match_id for r in held]


def test_full_disk_at_first_start(data_dir: Path, monkeypatch: pytest.MonkeyPatch, h) -> None:
    """The settings file cannot be written: one line, the game goes on, written at close."""
    on = {"fault": True}
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if on["fault"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    store = Storage.open(data_dir)
    assert store.settings.language == "en" and store.can_write_ledger
    assert [w.key for w in store.warnings] == ["write_failed_settings"]
    assert store.warnings[0].params["reason"] is Cause.FULL
    assert "(the disk is full)" in h.said(store.warnings[0])
    assert not (data_dir / "settings.json").exists()
    on["fault"] = False
    store.close()  # closing retries what is pending
    assert (data_dir / "settings.json").exists()


def test_data_dir_that_is_a_file(tmp_path: Path, h) -> None:
    blocker = tmp_path / "data"
    blocker.write_bytes(b"not a folder")
    store = Storage.open(blocker)
    assert not store.persistent and [w.key for w in store.warnings] == ["data_dir_unusable"]
    store.settings.language = "ja"
    assert store.save_settings() is False
    rec = h.make_record()
    assert store.record_match(rec) is False
    assert [p[0].match_id for p in store.pending] == [rec.match_id]  # held, not dropped
    assert store.write_autosave("x", "text", {}) is False and store.read_autosave() is None
    store.close()
    assert blocker.read_bytes() == b"not a folder"


def test_missing_nested_data_dir_is_created(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c"
    with Storage.open(target) as store:
        assert store.persistent and store.warnings == []
    assert (target / "settings.json").is_file() and (target / "koikoi.sqlite3").is_file()


def test_copying_a_data_dir_with_stale_temps_is_harmless(data_dir: Path, h) -> None:
    with Storage.open(data_dir) as store:
        store.record_match(h.make_record())
    stale = data_dir / ".settings.json.abc.tmp"
    stale.write_bytes(b'{"half": ')
    os.utime(stale, (1, 1))
    fresh = data_dir / ".settings.json.def.tmp"
    fresh.write_bytes(b"{")
    with Storage.open(data_dir) as store:
        assert store.warnings == [] and store.ledger.count() == 1
    assert not stale.exists() and fresh.exists()  # only old leftovers go; a live write may be fresh
    shutil.rmtree(data_dir)


# ------------------------------------------------- cleanup when a write is stopped part-way


def test_an_atomic_write_stopped_part_way_leaves_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "settings.json"
    target.write_bytes(b"old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(OSError):
        atomic.atomic_write_bytes(target, b"new")
    with pytest.raises(OSError):
        atomic.atomic_write_chunks(target, [b"n", b"ew"])
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_a_lock_stopped_part_way_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = atomic.LedgerLock(tmp_path / "x.lock")

    def interrupted(handle: Any) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "_try_lock", interrupted)
    with pytest.raises(KeyboardInterrupt):
        lock.acquire()
    assert not lock.held
    monkeypatch.undo()
    assert lock.acquire() and lock.held  # nothing left holding the file
    lock.release()


def test_a_failed_schema_migration_is_rolled_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from koikoi_desktop.storage import schema

    conn = sqlite3.connect(tmp_path / "l.sqlite3", isolation_level=None)
    monkeypatch.setitem(schema.MIGRATIONS, 0, "CREATE TABLE first (x); CREATE TABLE broken (;")
    with pytest.raises(sqlite3.Error):
        schema._migrate(conn, 0)
    assert not conn.in_transaction
    tables = conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
    assert tables == [] and conn.execute("PRAGMA user_version").fetchone()[0] == 0
