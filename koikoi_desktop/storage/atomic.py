"""Low-level file safety: atomic writes, careful reads, quarantine, and the single-writer lock.

* :func:`atomic_write_bytes`: temporary file in the same directory, write, flush, ``fsync``,
  ``os.replace`` over the target, then ``fsync`` the directory. A crash at any step leaves either
  the old file or the new one, never a mix; a failed write removes its temporary file and raises.
* :func:`decode_text` / :func:`parse_json`: a file is UTF-8 (with or without BOM); a UTF-16/32
  file with a BOM (Windows Notepad's "Unicode") is read too, and a non-UTF-8 file is read as
  Windows-1252/Latin-1 — each such repair is reported so the caller can keep the original aside.
  JSON parsing turns every way a hostile file can fail (deep nesting, 5000-digit integers, NaN)
  into one :class:`BadFile` error or a value the models reject.
* :func:`quarantine`: a damaged file is never deleted. It gets a new name with a UTC timestamp in
  the same directory (``settings.json.damaged-20250101T120000Z``). :func:`keep_aside` does the
  same but leaves the original in place (a hard link, or a copy where links are not supported), so
  the caller can then atomically replace the original with a repaired version: a crash between the
  two steps loses nothing.
* :class:`LedgerLock`: an OS lock (``fcntl.flock`` / ``msvcrt.locking``) on ``ledger.lock``. The OS
  drops it when the process dies, however it dies, so a stale lock cannot exist; the holder writes
  its pid into the file for the other copy's message.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import IO, Any

#: Errors of a full, read-only or otherwise refusing disk (the game keeps going on these).
DISK_ERRNOS = frozenset(
    e
    for e in (
        errno.ENOSPC,
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        getattr(errno, "EDQUOT", None),
        errno.EIO,
        errno.EFBIG,
        errno.ENOENT,
        errno.ENOTDIR,
        errno.EISDIR,
    )
    if e is not None
)


class Damage(StrEnum):
    """What is wrong with a file that does not read (words: ``ui.storage.damage.<value>``)."""

    #: Not text in any encoding the game reads.
    NOT_TEXT = "not_text"
    #: Mostly NUL bytes: binary data.
    BINARY = "binary"
    #: Text, but not JSON.
    NOT_JSON = "not_json"
    #: JSON nested deeper than a parser can follow.
    TOO_DEEP = "too_deep"
    #: Far larger than such a file ever is.
    TOO_LARGE = "too_large"
    #: A folder stands where the file should be.
    A_FOLDER = "a_folder"
    #: JSON, but not the object the file holds (a list, a number...).
    NOT_AN_OBJECT = "not_an_object"


class BadFile(ValueError):
    """A file that cannot be decoded or parsed: ``damage`` says what is wrong (the message,
    for a log or the command line, says it in a few English words)."""

    def __init__(self, message: str, damage: Damage = Damage.NOT_AN_OBJECT) -> None:
        super().__init__(message)
        self.damage = damage


# ----------------------------------------------------------------------------------------- writing


def fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (a no-op where directories cannot be opened)."""
    if os.name == "nt":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a directory; the rename itself already happened
    finally:
        os.close(fd)


@contextlib.contextmanager
def _removed_unless_replaced(tmp_name: str) -> Iterator[None]:
    """The temp file of an atomic write is removed if the block does not finish (whatever
    stopped it, which goes on up unchanged): a failed write leaves no stray file behind."""
    finished = False
    try:
        yield
        finished = True
    finally:
        if not finished:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` atomically: temp file, flush, fsync, os.replace, fsync dir."""
    directory = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    with _removed_unless_replaced(tmp_name):
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    fsync_dir(directory)


def atomic_write_chunks(path: Path, chunks: Iterable[bytes]) -> None:
    """:func:`atomic_write_bytes` for data produced piece by piece (bounded memory).

    ``path`` itself may be a link: ``os.replace`` replaces the link, never the file it points to.
    """
    directory = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    with _removed_unless_replaced(tmp_name):
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    fsync_dir(directory)


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write_bytes` of ``text`` encoded as UTF-8."""
    atomic_write_bytes(path, text.encode("utf-8"))


def remove_stale_temps(directory: Path, *, older_than: float = 600.0) -> int:
    """Remove our leftover ``.NAME.*.tmp`` files (never committed) older than ``older_than`` s."""
    import time

    removed = 0
    now = time.time()
    try:
        entries = list(directory.iterdir())
    except OSError:
        return 0
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        try:
            if now - entry.stat().st_mtime > older_than:
                entry.unlink()
                removed += 1
        except OSError:
            continue
    return removed


# ----------------------------------------------------------------------------------------- reading


def decode_text(raw: bytes) -> tuple[str, str | None]:
    """Decode a file's bytes into ``(text, repair)``; ``repair`` names a non-UTF-8 encoding.

    >>> decode_text('{"a": "é"}'.encode("utf-16"))
    ('{"a": "é"}', 'UTF-16')
    >>> decode_text(b'{"a": "\\xe9"}')
    ('{"a": "é"}', 'Latin-1')
    """
    for bom, name, codec in (
        (codecs.BOM_UTF32_LE, "UTF-32", "utf-32"),
        (codecs.BOM_UTF32_BE, "UTF-32", "utf-32"),
        (codecs.BOM_UTF8, None, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "UTF-16", "utf-16"),
        (codecs.BOM_UTF16_BE, "UTF-16", "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                return raw.decode(codec), name
            except UnicodeDecodeError as exc:
                raise BadFile(f"not valid {codec.upper()} text", Damage.NOT_TEXT) from exc
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    if raw.count(b"\x00") > len(raw) // 8:
        raise BadFile("binary data, not text", Damage.BINARY)
    try:
        return raw.decode("cp1252"), "Latin-1"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "Latin-1"


_HUGE = float("inf")


def _parse_int(text: str) -> int | float:
    # More than 30 digits is far beyond any stored value: keep it a number the models reject
    # (Python refuses int() on 4300+ digits, and a 4000-digit int is no use to anyone).
    if len(text.lstrip("-")) > 30:
        return -_HUGE if text.startswith("-") else _HUGE
    return int(text)


def parse_json(text: str) -> Any:
    """``json.loads`` that fails only with :class:`BadFile` (also on absurd nesting)."""
    try:
        return json.loads(text, parse_int=_parse_int)
    except RecursionError as exc:
        raise BadFile("nested too deeply", Damage.TOO_DEEP) from exc
    except (ValueError, TypeError) as exc:
        raise BadFile(f"not valid JSON ({exc.__class__.__name__})", Damage.NOT_JSON) from exc


def read_bytes(path: Path, *, limit: int | None = None) -> bytes | None:
    """The file's bytes, ``None`` if it does not exist; BadFile when over ``limit`` bytes."""
    try:
        with path.open("rb") as handle:
            if limit is not None:
                data = handle.read(limit + 1)
                if len(data) > limit:
                    raise BadFile(f"larger than {limit // 1024} KiB", Damage.TOO_LARGE)
                return data
            return handle.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise BadFile("a folder, not a file", Damage.A_FOLDER) from exc


# -------------------------------------------------------------------------------------- quarantine


def _aside_name(path: Path, label: str, when: datetime | None = None) -> Path:
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    candidate = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
        n += 1
    return candidate


def quarantine(path: Path, *, label: str = "damaged") -> Path:
    """Rename ``path`` aside (same directory, UTC timestamp); return the new path. Never deletes."""
    target = _aside_name(path, label)
    os.replace(path, target)
    fsync_dir(path.parent)
    return target


def keep_aside(path: Path, *, label: str = "damaged") -> Path:
    """Give ``path``'s content a second, timestamped name while leaving ``path`` in place."""
    target = _aside_name(path, label)
    try:
        os.link(path, target)
    except OSError:
        shutil.copy2(path, target)
        with open(target, "rb") as handle:
            os.fsync(handle.fileno())
    fsync_dir(path.parent)
    return target


# -------------------------------------------------------------------------------------------- lock


class LedgerLock:
    """An exclusive non-blocking OS lock on a file; released by :meth:`release` or process death."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        return self._handle is not None

    def acquire(self) -> bool:
        """Try to take the lock: True when held, False when another process (or handle) holds it.

        Raises OSError when the lock file itself cannot be opened (read-only or missing folder).
        """
        if self._handle is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        handle = os.fdopen(fd, "r+b")
        held = False
        try:
            if not _try_lock(handle):
                return False
            with contextlib.suppress(OSError):
                handle.seek(0)
                handle.truncate()
                handle.write(f"{os.getpid()}\n".encode())
                handle.flush()
            held = True
        finally:
            if not held:  # refused, or stopped on the way: whatever stopped it goes on up
                handle.close()
        self._handle = handle
        return True

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                _unlock(handle)
            handle.close()

    def holder_pid(self) -> int | None:
        """The pid written by the current holder, if readable."""
        try:
            text = self.path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]

else:
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True

    def _unlock(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
