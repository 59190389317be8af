"""Faults injected into writes: crashes between steps, full and read-only disks, refused locks."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.storage import Storage, atomic
from koikoi_desktop.storage.atomic import LedgerLock


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


# The steps of one ledger commit: fsync(tmp), replace, fsync(dir) for the main file, then the same
# for the backup. Crash before each of them (and check the step list is what we think it is).
STEPS = ["fsync", "replace", "fsync", "fsync", "replace", "fsync"]


def _ids(store: Storage) -> list[str]:
    return [r.match_id for r in store.ledger]


@pytest.mark.parametrize("step", range(len(STEPS)))
def test_crash_between_write_steps_keeps_every_earlier_entry(
    step: int, data_dir: Path, h, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Storage.open(data_dir)
    earlier = [h.make_record() for _ in range(3)]
    for r in earlier:
        assert store.record_match(r)
    late = h.make_record()
    calls: list[str] = []
    wrap = _dies_at(step, calls)
    monkeypatch.setattr(os, "fsync", wrap("fsync", os.fsync))
    monkeypatch.setattr(os, "replace", wrap("replace", os.replace))
    with pytest.raises(Crash):
        store.record_match(late)
    assert calls == STEPS[: step + 1]
    monkeypatch.undo()
    store._lock.release()  # the process is gone: so is its lock

    with Storage.open(data_dir) as again:
        assert again.warnings == []  # nothing damaged: each file is one committed version
        assert _ids(again)[:3] == [r.match_id for r in earlier]
        # committed once the main file was replaced (step 1 done), never half-there
        assert _ids(again)[3:] == ([late.match_id] if step >= 2 else [])
        nxt = h.make_record()
        assert again.record_match(nxt)
    with Storage.open(data_dir) as final:
        assert _ids(final)[-1] == nxt.match_id and len(final.ledger) == (5 if step >= 2 else 4)
        assert (data_dir / "ledger.backup.jsonl").read_bytes() == (
            data_dir / "ledger.jsonl"
        ).read_bytes()


class _FullFile:
    """An open file whose writes fail like a full disk."""

    def __init__(self, handle: Any) -> None:
        self._h = handle

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._h, name)

    def __enter__(self) -> _FullFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._h.close()


def _inject(kind: str, monkeypatch: pytest.MonkeyPatch, on: dict[str, bool]) -> None:
    """Make every write fail at ``kind`` while ``on["fault"]`` is true."""
    if kind == "write-ENOSPC":
        real_fdopen = os.fdopen

        def fdopen(fd: int, *a: Any, **k: Any) -> Any:
            handle = real_fdopen(fd, *a, **k)
            return _FullFile(handle) if on["fault"] else handle

        monkeypatch.setattr(atomic.os, "fdopen", fdopen)
    elif kind == "fsync-ENOSPC":
        real_fsync = os.fsync

        def fsync(fd: int) -> None:
            if on["fault"]:
                raise OSError(errno.ENOSPC, "No space left on device")
            real_fsync(fd)

        monkeypatch.setattr(atomic.os, "fsync", fsync)
    elif kind == "create-EACCES":
        real_mkstemp = atomic.tempfile.mkstemp

        def mkstemp(*a: Any, **k: Any) -> Any:
            if on["fault"]:
                raise PermissionError(errno.EACCES, "Permission denied")
            return real_mkstemp(*a, **k)

        monkeypatch.setattr(atomic.tempfile, "mkstemp", mkstemp)
    elif kind == "replace-EACCES":
        real_replace = os.replace

        def replace(a: Any, b: Any) -> None:
            if on["fault"]:
                raise PermissionError(errno.EACCES, "Permission denied")
            real_replace(a, b)

        monkeypatch.setattr(atomic.os, "replace", replace)
    else:  # pragma: no cover
        raise AssertionError(kind)


FAULTS = ["write-ENOSPC", "fsync-ENOSPC", "create-EACCES", "replace-EACCES"]


@pytest.mark.parametrize("kind", FAULTS)
def test_refusing_disk_goes_on_warns_once_and_retries(
    kind: str, data_dir: Path, h, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Storage.open(data_dir)
    first = h.make_record()
    assert store.record_match(first)
    on = {"fault": True}
    _inject(kind, monkeypatch, on)

    second, third = h.make_record(), h.make_record()
    assert store.record_match(second) is False
    assert store.write_autosave("record", {"n": 1}) is False
    store.settings.music_volume = 7
    assert store.save_settings() is False
    assert store.record_match(third) is False
    assert _ids(store) == [first.match_id, second.match_id, third.match_id]  # still in memory
    assert store.pending == {"ledger", "settings"}
    assert len(store.warnings) == 1 and store.warnings[0].key == "write_failed_ledger"
    reason = "the disk is full" if "ENOSPC" in kind else "permission denied"
    assert reason in store.warnings[0]
    leftovers = [p.name for p in data_dir.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
    with Storage.open(data_dir) as reader:  # the disk holds the last committed state
        assert _ids(reader) == [first.match_id]

    on["fault"] = False  # space freed: the next write of anything saves everything pending
    assert store.write_autosave("record", {"n": 2})
    assert store.pending == frozenset()
    store.close()
    with Storage.open(data_dir) as again:
        assert _ids(again) == [first.match_id, second.match_id, third.match_id]
        assert again.settings.music_volume == 7
        saved = again.read_autosave()
        assert saved is not None and saved.meta == {"n": 2}
        on["fault"] = True  # a new episode warns again, once
        assert again.record_match(h.make_record()) is False
        assert again.record_match(h.make_record()) is False
        assert [w.key for w in again.warnings] == ["write_failed_ledger"]
        on["fault"] = False


def test_full_disk_at_first_start(data_dir: Path, monkeypatch: pytest.MonkeyPatch, h) -> None:
    on = {"fault": True}
    _inject("write-ENOSPC", monkeypatch, on)
    store = Storage.open(data_dir)
    assert store.settings.language == "en" and store.can_write_ledger
    assert [w.key for w in store.warnings] == ["write_failed_settings"]
    assert not (data_dir / "settings.json").exists()
    assert store.record_match(h.make_record()) is False
    assert len(store.warnings) == 1
    on["fault"] = False
    store.close()  # closing retries what is pending
    assert (data_dir / "settings.json").exists() and (data_dir / "ledger.jsonl").exists()


def test_lock_file_cannot_be_made_then_can(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, h
) -> None:
    """A read-only folder: no lock file, no writes; both are retried at the next write."""
    on = {"fault": True}
    real_acquire = LedgerLock.acquire

    def acquire(self: LedgerLock) -> bool:
        if on["fault"]:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_acquire(self)

    monkeypatch.setattr(LedgerLock, "acquire", acquire)
    _inject("create-EACCES", monkeypatch, on)
    store = Storage.open(data_dir)
    assert store.lock_state == "unavailable" and store.can_write_ledger
    rec = h.make_record()
    assert store.record_match(rec) is False
    on["fault"] = False
    assert store.flush()
    assert store.lock_state == "held"
    other = Storage.open(data_dir)
    assert not other.can_write_ledger and _ids(other) == [rec.match_id]
    other.close()
    store.close()


def test_another_copy_takes_the_lock_while_we_could_not(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, h
) -> None:
    on = {"fault": True}
    real_acquire = LedgerLock.acquire

    def acquire(self: LedgerLock) -> bool:
        if on["fault"]:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_acquire(self)

    monkeypatch.setattr(LedgerLock, "acquire", acquire)
    store = Storage.open(data_dir)
    on["fault"] = False
    owner = Storage.open(data_dir)
    assert owner.lock_state == "held"
    store.record_match(h.make_record())  # finds the lock taken: stops recording, says so
    assert store.lock_state == "busy" and not store.can_write_ledger
    assert [w.key for w in store.warnings] == ["another_copy"]
    assert owner.ledger == [] and not (data_dir / "ledger.jsonl").exists()
    owner.close()
    store.close()


def test_data_dir_that_is_a_file(tmp_path: Path, h) -> None:
    blocker = tmp_path / "data"
    blocker.write_bytes(b"not a folder")
    store = Storage.open(blocker)
    assert not store.persistent and [w.key for w in store.warnings] == ["data_dir_unusable"]
    store.settings.language = "ja"
    assert store.save_settings() is False
    assert store.record_match(h.make_record()) is False and len(store.ledger) == 1
    assert store.write_autosave("x", {}) is False and store.read_autosave() is None
    store.close()
    assert blocker.read_bytes() == b"not a folder"


def test_missing_nested_data_dir_is_created(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c"
    with Storage.open(target) as store:
        assert store.persistent and store.warnings == []
    assert (target / "settings.json").is_file()


def test_copying_a_data_dir_with_stale_temps_is_harmless(data_dir: Path, h) -> None:
    with Storage.open(data_dir) as store:
        store.record_match(h.make_record())
    stale = data_dir / ".ledger.jsonl.abc.tmp"
    stale.write_bytes(b'{"half": ')
    os.utime(stale, (1, 1))
    fresh = data_dir / ".settings.json.def.tmp"
    fresh.write_bytes(b"{")
    with Storage.open(data_dir) as store:
        assert store.warnings == [] and len(store.ledger) == 1
    assert not stale.exists() and fresh.exists()  # only old leftovers go; a live write may be fresh
    shutil.rmtree(data_dir)
