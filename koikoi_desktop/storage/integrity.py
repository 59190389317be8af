"""The integrity protocol of the ledger database: when a start checks the whole file, how a
damaged file is set aside and rebuilt from every row that still reads, and the marker files beside
the database that carry what one run tells the next.

No pygame here. Decisions (the *why* behind the behaviour the tests check):

* **Damage.** A file that does not open as a database, fails ``PRAGMA quick_check``, or is smaller
  than the game left it at its last clean close (0 bytes included) is renamed aside with a UTC
  timestamp (never deleted); every row that still reads is copied into a fresh database
  (:func:`salvage`: past a damaged page, reading resumes at the first rowid that reads; a damaged
  schema entry does not hide the tables), every match made whole again from its record, and the
  caller shows one line with the counts.
* **The whole-file check only after an unclean shutdown.** ``quick_check`` reads every page (a
  second or two at 100,000 matches), so a clean start skips it. Each running copy keeps a marker
  beside the database (``koikoi.sqlite3-open-<pid>-<token>``, locked while the copy runs, removed
  at its clean close; the operating system drops the lock when the process ends, so a marker
  nobody holds was left behind, on Linux and Windows alike, whatever its process id now names),
  and the last copy to close cleanly writes the file's fingerprint (size, modification time, no
  WAL) to ``koikoi.sqlite3-closed``. A start checks the whole file when a marker is not held (a
  kill, a power cut, a crash), when the file is not the one closed cleanly (no fingerprint yet,
  or another program changed it), or when a read met damage (``koikoi.sqlite3-check``). The
  check runs in :func:`open_or_repair`, before the window opens: every screen reads the database,
  and a repair replaces the file, so nothing may read it while it is checked; the player gets a
  line on stderr while it runs and one line on the title after. Damage met later, in the middle
  of a read, is handled where it happens: the read returns what it could, the player is told
  once, and :func:`mark_for_check` makes the next start check and repair.
* **A marker of any kind is handled once.** One that cannot be removed (a folder, an immutable
  file) is renamed aside or, when it cannot be renamed either, listed in
  ``koikoi.sqlite3-ignored``; either way with one line, and the next starts are clean.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import sys
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import rating_rows
from .atomic import fsync_dir, quarantine
from .cause import Cause, Refused, real_cause
from .ledger_db import LedgerDB, _load_record, _payload, _was_computer
from .notice import NoticeKey
from .paths import DB_FILE
from .schema import (
    _GOOD_MATCH,
    _TABLES,
    DatabaseDamaged,
    _expected_schema,
    _table_shape,
    sqlite_connect,
)


def salvage(damaged: Path, fresh: LedgerDB) -> dict[str, int]:
    """Copy every row that still reads from ``damaged`` into ``fresh``; returns rows per table.

    Rows are read in rowid order; where a read fails part-way, reading resumes at growing rowid
    steps past the failure, so one bad page costs the rows on it, not the rest of the table.
    """
    copied = dict.fromkeys(_TABLES, 0)
    try:
        src = sqlite_connect(damaged.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error:
        return copied
    try:
        # a damaged schema entry (an index's name, a trigger) does not hide the tables: the
        # schema is read as it is, not refused (nothing is written through this connection)
        src.execute("PRAGMA writable_schema=ON")
        with fresh._transaction():
            for table in _TABLES:
                try:  # a dropped table has nothing to copy; an altered one gives what matches
                    have = {c[0] for c in _table_shape(src, table)}
                except sqlite3.Error:
                    continue
                cols = [c[0] for c in _expected_schema()[table] if c[0] in have]
                if not cols:
                    continue
                names = ", ".join(cols)
                for row in _rows(src, table, names):
                    try:
                        cur = fresh.conn.execute(
                            f"INSERT OR IGNORE INTO {table} ({names}) "
                            f"VALUES ({','.join('?' * len(row))})",
                            row,
                        )
                    except sqlite3.IntegrityError:
                        continue  # a row that breaks the schema (NULL key...): not a match
                    copied[table] += cur.rowcount
            _reconcile(fresh)
            fresh._rebuild_totals_in_tx()
            rating_rows.rebuild_in_tx(fresh.conn, _GOOD_MATCH)
            fresh.stale = set()
            fresh.checked = True  # every row was read: the start sweeps them
            copied["matches"] = int(
                fresh.conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
            )
    finally:
        src.close()
    return copied


def _reconcile(db: LedgerDB) -> None:
    """After a salvage, make every match whole again (inside the salvage's transaction).

    A match whose full record survived but whose summary row did not is rebuilt from the record;
    a summary whose full record was lost is kept in ``set_aside`` (with its rounds) and taken
    out of the list, which shows only matches it can open.
    """
    q = db.conn.execute
    for match_id, data, text in q(
        "SELECT match_id, data, record FROM match_data "
        "WHERE match_id NOT IN (SELECT match_id FROM matches)"
    ).fetchall():
        rec = _load_record(data)
        q("DELETE FROM match_data WHERE match_id = ?", (match_id,))
        if rec is None or rec.match_id != match_id:
            db._aside_in_tx("salvaged_unreadable", match_id, "unreadable match", data)
            continue
        computer = rec.computer or _was_computer(db.conn, match_id)
        q("DELETE FROM rounds WHERE match_id = ?", (match_id,))
        q("DELETE FROM round_yaku WHERE match_id = ?", (match_id,))
        db._insert_match_in_tx(rec, text, computer=computer)
    cols = [r[1] for r in q("PRAGMA table_info(matches)")]
    for row in q(
        "SELECT * FROM matches WHERE match_id NOT IN (SELECT match_id FROM match_data)"
    ).fetchall():
        match_id = row[0]
        rounds = q("SELECT * FROM rounds WHERE match_id = ?", (match_id,)).fetchall()
        payload = _payload({"match": dict(zip(cols, row, strict=True)), "rounds": rounds})
        db._aside_in_tx("salvaged_summary", match_id, "only the summary could be read", payload)
        for table in ("matches", "rounds", "round_yaku"):
            q(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))


def _rows(src: sqlite3.Connection, table: str, names: str) -> Iterator[tuple[Any, ...]]:
    """Every row of ``table`` that still reads, in rowid order. Where a read fails (a damaged
    page), reading resumes at the first rowid past it that reads (:func:`_readable_after`),
    so a bad page costs the rows on it, not the rest of the table."""
    last = _LOWEST_ROWID - 1
    while True:
        try:
            cur = src.execute(
                f"SELECT rowid, {names} FROM {table} WHERE rowid > ? ORDER BY rowid", (last,)
            )
            for row in cur:
                last = int(row[0])
                yield tuple(row[1:])
            return
        except sqlite3.Error:
            resume, rows = _readable_after(src, table, names, last)
            yield from rows
            if resume is None:
                return
            last = resume


_LOWEST_ROWID = -(1 << 63) + 1


_HIGHEST_ROWID = (1 << 63) - 1


#: The widest gap past a damaged page searched row by row (a point read for each rowid).
_POINT_READS = 20_000


def _readable_after(
    src: sqlite3.Connection, table: str, names: str, last: int
) -> tuple[int | None, list[tuple[Any, ...]]]:
    """Past a read that failed after rowid ``last``: the smallest ``x`` from which ``rowid > x``
    reads again (searched by doubling, then halving; None when nothing past ``last`` does), and
    the rows between ``last`` and ``x`` that still read one by one (a rowid on an intact page
    next to the damaged one, or on the table's last pages when nothing past them reads). The
    search starts at rowid 0 at the lowest: the game's rowids count up from 1."""

    def reads(after: int) -> bool:
        try:
            src.execute(
                f"SELECT rowid FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT 1", (after,)
            ).fetchall()
        except sqlite3.Error:
            return False
        return True

    last = max(last, 0)
    step = 1
    high: int | None = None
    while last + step < _HIGHEST_ROWID:
        if reads(last + step):
            high = last + step
            break
        step *= 2
    if high is not None:
        low = last + step // 2
        while high - low > 1:
            mid = (low + high) // 2
            if reads(mid):
                high = mid
            else:
                low = mid
    rows: list[tuple[Any, ...]] = []
    for rowid in range(last + 1, min(high or _HIGHEST_ROWID, last + _POINT_READS) + 1):
        try:
            row = src.execute(f"SELECT {names} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.Error:
            continue
        if row is not None:
            rows.append(tuple(row))
    return high, rows


#: Beside the database while a copy has it open: ``koikoi.sqlite3-open-<pid>-<token>``.
OPEN_SUFFIX = "-open-"


#: The fingerprint of the file at the last clean close (see the module docstring).
CLOSED_SUFFIX = "-closed"


#: A read met a damaged page: the next start checks (and repairs) the whole file.
CHECK_SUFFIX = "-check"


_READ_MARK = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


#: The open markers this process holds now, by name, with the descriptor that holds each one's
#: lock (a marker of this pid not here was left behind).
_LIVE_MARKS: dict[str, int] = {}


if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int) -> bool:
        """Take the marker's lock without waiting; False when another process holds it."""
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _lock(fd: int) -> bool:
        """Take the marker's lock without waiting; False when another process holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True


def _held(mark: Path) -> bool:
    """Whether a running copy holds ``mark``'s lock (the copy that wrote it keeps it locked
    while it has the database open). The operating system drops the lock when that process
    ends however it ends, so a marker whose lock can be taken was left behind: by a kill, a
    crash or a power cut. A process id would not do: after a restart the id may belong to
    another program (the marker would look alive and the check be skipped), and Windows has
    no signal 0 to ask. A marker that cannot be opened (a link, a folder) counts as left
    behind: the whole-file check is the safe side."""
    try:
        fd = os.open(mark, _READ_MARK)
    except OSError:
        return False
    try:
        return not _lock(fd)
    finally:
        os.close(fd)  # releases the lock just taken


def _forget_marks_in_child() -> None:
    """A forked child (the thinker's or the sound's worker) shares the parent's marker
    descriptors; it closes its copies so that the lock lives exactly as long as the copy of
    the game that took it, whatever becomes of the child."""
    for fd in _LIVE_MARKS.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _LIVE_MARKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_marks_in_child)


def _write_mark(path: Path, data: bytes) -> None:
    """Write a small marker file; never through a link (``O_NOFOLLOW``, and a fresh name)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _fingerprint(path: Path) -> str | None:
    """The database file as a clean close leaves it: size and modification time, and no WAL
    beside it (the last connection to close folds the WAL in and removes it)."""
    try:
        st = path.stat()
    except OSError:
        return None
    wal = path.with_name(path.name + "-wal")
    return f"{st.st_size} {st.st_mtime_ns} wal={int(wal.exists())}"


def _marks(path: Path) -> Iterator[tuple[Path, bool]]:
    """Every copy's open marker beside ``path`` and whether its copy is still running (a
    marker listed as ignored, see :func:`_put_aside`, is no marker)."""
    try:
        entries = list(path.parent.iterdir())
    except OSError:
        return
    prefix = path.name + OPEN_SUFFIX
    ignored = _ignored(path)
    for entry in entries:
        if not entry.name.startswith(prefix) or _is_ignored(entry, ignored):
            continue
        pid_text = entry.name[len(prefix) :].split("-", 1)[0]
        if pid_text == str(os.getpid()):  # ours: our own lock would answer "held"
            yield entry, entry.name in _LIVE_MARKS
        else:
            yield entry, _held(entry)


def check_reason(path: Path) -> str | None:
    """Why this start must read the whole file (``unclean``: a copy did not close it; ``damage``:
    a read met a damaged page; ``changed``: the file is not the one last closed cleanly), or
    None for a clean start (or a new file)."""
    if not path.exists():
        return None
    check = path.with_name(path.name + CHECK_SUFFIX)
    if check.exists() and not _is_ignored(check, _ignored(path)):
        return "damage"
    running = False
    for _, alive in _marks(path):
        if not alive:
            return "unclean"
        running = True
    if running:  # another copy has it open: it is what that copy is writing
        return None
    closed = _closed_fingerprint(path)
    return None if closed is not None and closed == _fingerprint(path) else "changed"


def _closed_fingerprint(path: Path) -> str | None:
    """The fingerprint the last clean close wrote (None: none, or not one)."""
    try:  # a few bytes, never through a link, whatever is there (a folder, a FIFO)
        fd = os.open(path.with_name(path.name + CLOSED_SUFFIX), _READ_MARK)
        try:
            return os.read(fd, 200).decode("ascii").strip()
        finally:
            os.close(fd)
    except (OSError, UnicodeDecodeError):
        return None


def shrank(path: Path) -> tuple[int, int] | None:
    """(its size now, its size at the last clean close) when the database is smaller than the
    game left it: SQLite never shrinks the file by itself (the game never vacuums), so a file
    cut short, to 0 bytes included, is damage, not a new empty ledger. None otherwise."""
    closed = _closed_fingerprint(path)
    if closed is None:
        return None
    was = closed.split(" ", 1)[0]
    try:
        size = path.stat().st_size
        with path.open("rb") as f:  # (a folder, a FIFO: the open that follows says what it is)
            head = f.read(16) if path.is_file() else b"-"
    except OSError:
        return None
    if not was.isdigit() or size >= int(was):
        return None
    # what is not a database at all (junk, a text file, less than a database's 100-byte
    # header) is told as damage by the open
    whole_head = size == 0 or (head == _SQLITE_HEADER and size >= 100)
    return (size, int(was)) if whole_head else None


_SQLITE_HEADER = b"SQLite format 3\x00"


def _checked(path: Path) -> list[tuple[str, str]]:
    """The whole file was checked (or repaired): the markers that asked for it are removed;
    (name, the name it keeps) of each that was not a file the game writes and was set aside
    instead (see :func:`_put_aside`)."""
    kept = []
    check = path.with_name(path.name + CHECK_SUFFIX)
    marks = [mark for mark, alive in _marks(path) if not alive]
    if os.path.lexists(check) and not _is_ignored(check, _ignored(path)):
        marks.append(check)
    for mark in marks:
        aside = _put_aside(path, mark)
        if aside is not None:
            kept.append((mark.name, aside))
    return kept


#: Beside the database: the markers that could be neither removed nor renamed (an immutable
#: file), one ``name inode`` a line; they are no markers from then on.
IGNORED_SUFFIX = "-ignored"


def _ignored(path: Path) -> set[str]:
    try:  # a few bytes, never through a link
        fd = os.open(path.with_name(path.name + IGNORED_SUFFIX), _READ_MARK)
        try:
            text = os.read(fd, 64 * 1024).decode("utf-8", "replace")
        finally:
            os.close(fd)
    except OSError:
        return set()
    return set(text.splitlines())


def _is_ignored(entry: Path, ignored: set[str]) -> bool:
    if not ignored:
        return False
    try:
        return f"{entry.name} {entry.lstat().st_ino}" in ignored
    except OSError:
        return False


def _put_aside(path: Path, mark: Path) -> str | None:
    """Remove ``mark`` (a marker beside the database at ``path`` that asked for a check, or a
    fingerprint that is not a file); None when it is gone. One that cannot be removed (a
    folder, an immutable file) is renamed aside, or, when it cannot be renamed either, listed
    in ``-ignored``, so that it asks nothing of the next start; the name it keeps is returned
    for the line that says so."""
    try:
        mark.unlink()
        return None
    except FileNotFoundError:
        return None
    except OSError:
        pass
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.aside-{stamp}{mark.name[len(path.name) :]}")
    try:
        os.replace(mark, target)
        return target.name
    except OSError:
        pass
    try:
        line = f"{mark.name} {mark.lstat().st_ino}\n"
        ignored = path.with_name(path.name + IGNORED_SUFFIX)
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(ignored, flags, 0o600)
        try:
            os.write(fd, line.encode("utf-8", "replace"))
        finally:
            os.close(fd)
    except OSError:
        return None  # nothing more can be done from here: it asks again next time
    return mark.name


def _open_mark(db: LedgerDB) -> None:
    """This copy's open marker, locked for as long as this copy has the database open (see
    :func:`_held`); a folder that refuses it leaves none (then the fingerprint written at the
    last clean close no longer matches after any write, which asks the same)."""
    mark = db.path.with_name(f"{db.path.name}{OPEN_SUFFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}")
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(mark, flags, 0o600)
    except OSError:
        return
    try:
        os.write(fd, f"{db.host}\n".encode())
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        with contextlib.suppress(OSError):
            mark.unlink()
        return
    if not _lock(fd):  # a fresh name nobody else can hold: only a file system without locks
        os.close(fd)
        with contextlib.suppress(OSError):
            mark.unlink()
        return
    _LIVE_MARKS[mark.name] = fd
    db.mark = mark


def _release_mark(mark: Path, *, remove: bool) -> None:
    """Drop this process's lock on ``mark`` (and the file, when ``remove``): removed first,
    where the system allows it, so no start sees it unlocked before it is gone."""
    fd = _LIVE_MARKS.pop(mark.name, None)
    removed = False
    if remove:
        with contextlib.suppress(OSError):  # Windows: not while it is open
            mark.unlink()
            removed = True
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
    if remove and not removed:
        with contextlib.suppress(OSError):  # left behind, it asks for a check: the safe side
            mark.unlink()


def closed_cleanly(db: LedgerDB) -> None:
    """After :meth:`LedgerDB.close`: remove this copy's marker and, when no other copy has the
    file open, write its fingerprint, so that the next start skips the whole-file check. A
    copy that met a damaged page keeps its marker, unlocked (the next start checks)."""
    mark, db.mark = db.mark, None
    if mark is None:
        return
    if db.damage_met is not None:
        _release_mark(mark, remove=False)
        return
    _release_mark(mark, remove=True)
    if any(True for _ in _marks(db.path)):
        return  # another copy still writes: the last to close leaves the fingerprint
    fingerprint = _fingerprint(db.path)
    closed = db.path.with_name(db.path.name + CLOSED_SUFFIX)
    if fingerprint is None:
        return
    tmp = closed.with_name(f"{closed.name}.{os.getpid()}.tmp")
    try:
        _write_mark(tmp, fingerprint.encode("ascii"))
        os.replace(tmp, closed)
    except OSError:  # not written (a folder in its place): the next start checks, the safe side
        with contextlib.suppress(OSError):
            tmp.unlink()


def open_or_repair(
    data_dir: Path,
    warn: Callable[..., None],
    progress: Callable[[str], None] | None = None,
) -> LedgerDB:
    """Open the data folder's database, repairing a damaged one (see the module docstring).

    ``warn(key, **params)`` receives the one line for the player (a :class:`.notice.Notice`);
    ``progress(reason)`` is called before a whole-file check (the caller prints a line while it
    runs). Raises :class:`Refused`, with its real cause, when the disk refuses to open or create
    the database at all.
    """
    path = data_dir / DB_FILE
    reason: str | None = None
    try:
        if path.is_symlink() or any(
            (data_dir / (DB_FILE + extra)).is_symlink() for extra in ("-wal", "-shm", "-journal")
        ):
            # nothing the game writes may follow a link (out of the data folder, or anywhere)
            raise Refused(Cause.LINKED)
        _odd_fingerprint(path, warn)
        cut = shrank(path)
        if cut is not None:
            size, was = cut
            return _repaired(path, warn, NoticeKey.LEDGER_SHRANK, size=size, was=was)
        reason = check_reason(path)
        if reason is not None and progress is not None:
            progress(reason)
        db = LedgerDB.open(path, check=reason is not None)
    except Refused as exc:
        refused = real_cause(exc, data_dir)
        if not (path.is_file() and path.stat().st_size > 0):
            raise refused from exc
        # a folder (or disk) that refuses to be written still shows the matches it holds
        try:
            db = LedgerDB.open_read_only(path, refused)
        except DatabaseDamaged:  # nor can it be repaired here: the refusal is what to tell
            raise refused from exc
        warn(NoticeKey.LEDGER_READ_ONLY, reason=refused.cause, detail=refused.detail)
        return db
    except DatabaseDamaged as exc:
        return _repaired(path, warn, NoticeKey.LEDGER_DB_REPAIRED, why=str(exc)[:80])
    if reason is not None:
        _told_aside(_checked(path), warn)
        if reason != "changed":  # a file changed by another program: checked without a word
            warn(NoticeKey.LEDGER_CHECKED)
    if db.read_only:
        warn(NoticeKey.LEDGER_FUTURE)
    else:
        _open_mark(db)
    return db


def _odd_fingerprint(path: Path, warn: Callable[..., None]) -> None:
    """A fingerprint (``-closed``) that is not a regular file (a folder, a FIFO, a link) is
    put aside with its line: else it never matches, and every start checks the whole file."""
    closed = path.with_name(path.name + CLOSED_SUFFIX)
    try:
        mode = closed.lstat().st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode) and not _is_ignored(closed, _ignored(path)):
        _told_aside([(closed.name, _put_aside(path, closed) or closed.name)], warn)


def _told_aside(kept: list[tuple[str, str]], warn: Callable[..., None]) -> None:
    for name, aside in kept:
        warn(NoticeKey.LEDGER_MARKER_ASIDE, name=name, kept=aside)


def _repaired(path: Path, warn: Callable[..., None], key: NoticeKey, **params: object) -> LedgerDB:
    """Set the damaged database aside (never deleted), make a fresh one, copy into it every
    row that still reads, and tell the player (``key`` with ``params``, the count recovered
    and the name the damaged file keeps)."""
    aside = _set_file_aside(path)
    _told_aside(_checked(path), warn)
    with contextlib.suppress(OSError):  # the fingerprint of the file set aside, not the new one
        path.with_name(path.name + CLOSED_SUFFIX).unlink()
    db = LedgerDB.open(path)
    _open_mark(db)
    copied = salvage(aside, db)
    warn(key, **params, count=copied["matches"], name=aside.name)
    return db


def _set_file_aside(path: Path) -> Path:
    """Rename a damaged database (and its -wal/-shm) aside with one timestamp."""
    aside = quarantine(path)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            os.replace(extra, aside.with_name(aside.name + suffix))
    fsync_dir(path.parent)
    return aside


def mark_for_check(db: LedgerDB) -> None:
    """Mark ``db``'s file for the whole-file check and repair at the next start
    (``koikoi.sqlite3-check``). Should the disk refuse the mark, this copy's open marker is kept
    at close instead (see :func:`closed_cleanly`), which asks for the same check."""
    with contextlib.suppress(OSError):  # the open marker left in place asks the same
        _write_mark(db.path.with_name(db.path.name + CHECK_SUFFIX), b"damage met\n")
