"""The coin ledger and the saved matches in one SQLite database (``koikoi.sqlite3``).

No pygame here. One :class:`LedgerDB` per running copy of the game; several copies (or a game and
a command-line export) may open the same file at once: SQLite's own locking with a busy timeout
serialises their writes, and there is no lock file of ours.

Decisions (the *why* behind the behaviour the tests check):

* **Exactly once.** A match has an id fixed when it starts (the table makes it, the saved match
  carries it, Continue restores it). Recording a finished match inserts it *and* deletes its
  saved-in-progress row in one ``BEGIN IMMEDIATE … COMMIT`` transaction, and the insert is
  ``INSERT OR IGNORE`` on the primary key. A kill at any instant leaves either the saved row (the
  match can be continued and recorded later) or the recorded match (once): never both, never
  neither, and a second recording of the same match changes nothing.
* **Durability.** WAL journal, ``synchronous=FULL`` (a committed match survives a power cut), and a
  busy timeout of 10 s so two copies recording at the same moment wait for each other.
* **Schema version** is ``PRAGMA user_version`` (:data:`SCHEMA_VERSION`), migrated step by step in
  :data:`MIGRATIONS`. A database from a newer version is opened read-only: it is shown, never
  written, and what this copy would have recorded stays pending in memory (the player is told).
* **Damage.** A file that does not open as a database or fails ``PRAGMA quick_check`` is renamed
  aside with a UTC timestamp (never deleted); every row that still reads is copied into a fresh
  database (:func:`salvage`), and the caller shows one line with the counts.
* **The whole-file check only after an unclean shutdown.** ``quick_check`` reads every page (a
  second or two at 100,000 matches), so a clean start skips it. Each running copy keeps a marker
  beside the database (``koikoi.sqlite3-open-<pid>-<token>``, locked while the copy runs, removed
  at its clean close; the operating system drops the lock when the process ends, so a marker
  nobody holds was left behind, on Linux and Windows alike, whatever its process id now names), and
  the last copy to close cleanly writes the file's fingerprint (size, modification time, no
  WAL) to ``koikoi.sqlite3-closed``. A start checks the whole file when a marker is not held
  (a kill, a power cut, a crash), when the file is not the one closed cleanly (no
  fingerprint yet, or another program changed it), or when a read met damage
  (``koikoi.sqlite3-check``). The check runs in :func:`open_or_repair`, before the window opens:
  every screen reads the database, and a repair replaces the file, so nothing may read it
  while it is checked; the player gets a line on stderr while it runs and one line on the title
  after. Damage met later, in the middle of a read (a page that went bad on a cleanly closed
  file), is handled where it happens: the read returns what it could, the player is told once,
  and ``koikoi.sqlite3-check`` makes the next start check and repair.
* **Nothing is deleted silently.** A saved match that cannot be resumed is moved to the
  ``set_aside`` table with its reason (not deleted); an imported match whose id is already taken
  by a *different* match is kept there too.
* **Thin rows for statistics.** ``matches`` holds only the columns the list and the statistics
  read; each match's full JSON and replayable record text live in ``match_data`` (same id), so
  the SQL aggregates over 100,000 matches scan a few MB instead of the whole file.
* **Bounded reads.** The ledger screen reads one page (:meth:`LedgerDB.page`); the lifetime
  statistics are counters in ``totals`` (schema version 2) added to in the transaction that
  records a match, so the statistics tab reads a few dozen rows whatever the ledger's size; they
  are rebuilt from the rows after an upgrade, a repair or a mend. Both count by the one
  definition of each statistic in :mod:`.totals` (over the new match's rows, or over all).
* **A start independent of the ledger's size.** A clean start reads a few rows: the counters'
  ``state`` row, the rating history's count kept beside it (see :mod:`.rating_rows`), the newest
  saved match. Reading every row happens only when the whole file is checked (after an unclean
  shutdown, see above): then the thin ``matches`` table is swept for rows the game could not
  have written (:meth:`LedgerDB.sweep`) and the rating history is checked row by row.
* **Counting again, off the frame loop.** What is derived from every row (the counters, the
  rating history) is never counted on the frame loop: a mend, an upgrade or a kill mid-count
  leaves it marked stale (:attr:`LedgerDB.stale`), and :meth:`LedgerDB.recount` counts it on a
  worker thread's own connection, written in one transaction; the screens say it is being
  counted meanwhile. (A repair counts at once: it runs before the window opens.)
* **One boundary.** Every row a screen or the engine sees passes a pydantic row model of
  :mod:`.models` (or its SQL twin in the aggregates); a row that fails is skipped by the read,
  noted in :attr:`LedgerDB.damaged`, and set aside by :meth:`LedgerDB.mend` between frames
  (a summary rebuilt from its record when that still reads).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import socket
import sqlite3
import stat
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar, cast, overload

from pydantic import ValidationError

from . import from_record, rating_rows, totals
from .atomic import fsync_dir, quarantine
from .cause import Cause, Refused, real_cause
from .models import (
    DataRow,
    MatchRecord,
    ReviewRow,
    SavedRow,
    SummaryRow,
    TotalsRow,
    _stored_date,
)
from .notice import NoticeKey
from .paths import DB_FILE
from .stats import BestRound, LedgerStats, MatchSummary

T = TypeVar("T")

SCHEMA_VERSION = 2
BUSY_TIMEOUT_S = 10.0
#: The most a WAL left behind by a checkpoint may keep on disk (bytes).
WAL_LIMIT = 256 * 1024

#: SQLite primary result codes that mean "the disk (or another copy) refuses just now": the game
#: goes on, keeps what it could not write in memory and retries at the next write.
REFUSING: dict[int, Cause] = {
    3: Cause.DENIED,  # SQLITE_PERM
    5: Cause.BUSY,  # SQLITE_BUSY
    6: Cause.LOCKED,  # SQLITE_LOCKED
    8: Cause.DISK_READ_ONLY,  # SQLITE_READONLY (told apart from a read-only folder by real_cause)
    10: Cause.IO,  # SQLITE_IOERR
    13: Cause.FULL,  # SQLITE_FULL
    14: Cause.CANT_OPEN,  # SQLITE_CANTOPEN
    11: Cause.DAMAGED,  # SQLITE_CORRUPT (found mid-session: refuse, repair at start)
    26: Cause.DAMAGED,  # SQLITE_NOTADB
}

#: SQLite's words, for an error that carries no result code (a wrapper, an older Python): the
#: only place a cause is read from text.
_REFUSING_WORDS: tuple[tuple[str, Cause], ...] = (
    ("full", Cause.FULL),
    ("readonly", Cause.DISK_READ_ONLY),
    ("read-only", Cause.DISK_READ_ONLY),
    ("locked", Cause.LOCKED),
    ("disk i/o", Cause.IO),
    ("unable to open", Cause.CANT_OPEN),
    ("malformed", Cause.DAMAGED),
    ("not a database", Cause.DAMAGED),
)

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS matches (
    match_id TEXT PRIMARY KEY,
    date TEXT NOT NULL,
    preset TEXT NOT NULL,
    custom INTEGER NOT NULL,
    unit TEXT NOT NULL,
    opponent_name TEXT NOT NULL,
    opponent_level TEXT NOT NULL,
    practice INTEGER NOT NULL,
    computer INTEGER NOT NULL DEFAULT 0,
    player_seat INTEGER NOT NULL,
    winner INTEGER,
    result TEXT NOT NULL,
    player_total INTEGER NOT NULL,
    opponent_total INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    ending TEXT NOT NULL,
    help_level TEXT
);
CREATE INDEX IF NOT EXISTS matches_by_date ON matches(date);
CREATE TABLE IF NOT EXISTS match_data (
    match_id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    record TEXT
);
CREATE TABLE IF NOT EXISTS rounds (
    match_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    winner INTEGER,
    base INTEGER NOT NULL,
    final INTEGER NOT NULL,
    paid INTEGER NOT NULL,
    koikoi0 INTEGER,
    koikoi1 INTEGER,
    -- copied from the match so that statistics read this table alone (no join)
    player_seat INTEGER NOT NULL,
    counted INTEGER NOT NULL,
    practice INTEGER NOT NULL,
    unit TEXT NOT NULL,
    date TEXT NOT NULL,
    PRIMARY KEY (match_id, round)
);
CREATE TABLE IF NOT EXISTS round_yaku (
    match_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    key TEXT NOT NULL,
    points INTEGER NOT NULL,
    -- made by the player (not the opponent), in a match the statistics count (no join)
    mine INTEGER NOT NULL,
    counted INTEGER NOT NULL,
    practice INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS round_yaku_by_match ON round_yaku(match_id, round);
CREATE TABLE IF NOT EXISTS saved (
    match_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    updated TEXT NOT NULL,
    record TEXT NOT NULL,
    meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS set_aside (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    match_id TEXT,
    reason TEXT NOT NULL,
    at TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reviews (
    match_id TEXT PRIMARY KEY,
    data TEXT NOT NULL
);
"""


_TOTALS_COLS = ("practice", "grp", "key", "value")


#: What :meth:`LedgerDB.recount` reads before it writes: the counters of each practice flag,
#: the rating history (None: not asked for).
_Counted = tuple[dict[int, totals.Counters] | None, list[rating_rows.Row] | None]


def _text_ok(col: str, most: int, least: int = 0) -> str:
    return (
        f"(typeof({col}) = 'text' AND length({col}) BETWEEN {least} AND {most} "
        f"AND instr(CAST({col} AS BLOB), x'00') = 0)"
    )


def _int_ok(col: str, lo: int, hi: int, *, null: bool = False) -> str:
    test = f"(typeof({col}) = 'integer' AND {col} BETWEEN {lo} AND {hi})"
    return f"({col} IS NULL OR {test})" if null else test


_AMOUNT = 10**12


def _good_match(p: str = "") -> str:
    """SQL for "this ``matches`` row could have been written by the game" (types and bounds;
    :class:`.models.SummaryRow` checks the rest when the row is shown)."""
    return (
        "("
        + " AND ".join(
            (
                _text_ok(f"{p}match_id", 64, 1),
                _text_ok(f"{p}date", 64, 1),
                _text_ok(f"{p}preset", 40, 1),
                _int_ok(f"{p}custom", 0, 1),
                f"{p}unit IN ('coins', 'points')",
                _text_ok(f"{p}opponent_name", 200),
                _text_ok(f"{p}opponent_level", 40),
                _int_ok(f"{p}practice", 0, 1),
                _int_ok(f"{p}computer", 0, 1),
                _int_ok(f"{p}player_seat", 0, 1),
                _int_ok(f"{p}winner", 0, 1, null=True),
                f"{p}result IN ('win', 'loss', 'draw')",
                _int_ok(f"{p}player_total", -_AMOUNT, _AMOUNT),
                _int_ok(f"{p}opponent_total", -_AMOUNT, _AMOUNT),
                _int_ok(f"{p}rounds", 0, 10_000),
                _text_ok(f"{p}ending", 40),
                f"({p}help_level IS NULL OR {p}help_level IN ('full', 'highlights', 'none'))",
            )
        )
        + ")"
    )


_GOOD_MATCH = _good_match()
_GOOD_ROUND = (
    "("
    + " AND ".join(
        (
            _text_ok("match_id", 64, 1),
            _int_ok("round", 1, 10**6),
            _int_ok("dealer", 0, 1),
            _int_ok("winner", 0, 1, null=True),
            _int_ok("base", -_AMOUNT, _AMOUNT),
            _int_ok("final", -_AMOUNT, _AMOUNT),
            _int_ok("paid", -_AMOUNT, _AMOUNT),
            _int_ok("koikoi0", 0, 100, null=True),
            _int_ok("koikoi1", 0, 100, null=True),
            _int_ok("player_seat", 0, 1),
            _int_ok("counted", 0, 1),
            _int_ok("practice", 0, 1),
            "unit IN ('coins', 'points')",
            _text_ok("date", 64, 1),
        )
    )
    + ")"
)
_GOOD_YAKU = (
    "("
    + " AND ".join(
        (
            _text_ok("match_id", 64, 1),
            _int_ok("round", 1, 10**6),
            _text_ok("key", 40, 1),
            _int_ok("points", -_AMOUNT, _AMOUNT),
            _int_ok("mine", 0, 1),
            _int_ok("counted", 0, 1),
            _int_ok("practice", 0, 1),
        )
    )
    + ")"
)
#: The rows of each table the statistics count from that pass the checks.
_CHECKS: totals.Checks = {"matches": _GOOD_MATCH, "rounds": _GOOD_ROUND, "round_yaku": _GOOD_YAKU}

_MATCH_COLS = (
    "match_id",
    "date",
    "preset",
    "custom",
    "unit",
    "opponent_name",
    "opponent_level",
    "practice",
    "computer",
    "player_seat",
    "winner",
    "result",
    "player_total",
    "opponent_total",
    "rounds",
    "ending",
    "help_level",
)
_SAVED_COLS = ("match_id", "owner", "host", "pid", "updated", "record", "meta")

#: Version 2: the lifetime statistics kept as counters, updated in the transaction that records
#: a match (the statistics tab reads a few dozen rows, whatever the size of the ledger). A row
#: (practice -1, 'state', 'ok') says they are whole; without it they are rebuilt from the rounds.
_SCHEMA_V2 = """
CREATE TABLE IF NOT EXISTS totals (
    practice INTEGER NOT NULL,
    grp TEXT NOT NULL,
    key TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (practice, grp, key)
);
"""

#: Indexes a database of any version gets at open when it lacks them (one build, then nothing):
#: the ledger's lists page through the player's (or the computer's) matches newest first and
#: count them, which over ``matches_by_date`` alone reads every row of the table to test its
#: ``computer`` flag (30 ms at 100,000 matches for a page near the end, on the frame loop);
#: with the flag first, 6 ms. An index is no part of the schema check: a version without it
#: reads the file as before.
_INDEXES = {
    # IF NOT EXISTS: two copies started at once may both find it missing (the second waits for
    # the first one's transaction, then finds it made)
    "matches_by_kind": "CREATE INDEX IF NOT EXISTS matches_by_kind ON matches(computer, date)"
}

#: An import counts this many matches into the statistics as it adds them; past that, they
#: are counted once, all together, after it (see :meth:`LedgerDB.import_records`).
COUNT_AT_ONCE = 200

#: user_version n -> the SQL that brings an n database to n + 1 (0 is a new, empty file).
MIGRATIONS: dict[int, str] = {0: _SCHEMA_V1, 1: _SCHEMA_V2}


class DatabaseDamaged(Exception):
    """The file does not open as a SQLite database, or fails ``PRAGMA quick_check``."""


def refusal(exc: sqlite3.Error) -> Refused | None:
    """A :class:`Refused` for an expected SQLite failure (full, read-only, busy…), else None:
    decided by SQLite's result code, by its words only when it gave no code."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        text = str(exc).lower()
        for needle, named in _REFUSING_WORDS:
            if needle in text:
                return Refused(named)
        return None
    cause = REFUSING.get(code & 0xFF)
    return Refused(cause) if cause is not None else None


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class SavedMatch:
    """A match in progress as saved: its id, the engine's record text and the UI's metadata."""

    match_id: str
    record: str
    meta: dict[str, Any]
    updated: datetime
    #: True when another running copy of the game is playing this match right now.
    in_use_elsewhere: bool


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """What :meth:`LedgerDB.record` did: ``inserted`` False means the id was already recorded."""

    inserted: bool


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if os.name == "nt":  # no signal 0 on Windows: the heartbeat (``updated``) decides there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by another user
    return True


def _none() -> None:
    return None


def _is_damage(exc: sqlite3.Error) -> bool:
    """True for SQLite's words for a damaged file ("database disk image is malformed"...)."""
    return isinstance(_classify(exc), DatabaseDamaged)


F = TypeVar("F", bound=Callable[..., Any])


def _reads(empty: Callable[[], object]) -> Callable[[F], F]:
    """A read that meets a damaged page returns ``empty()`` (what it could not read is not
    shown) and notes the damage (:meth:`LedgerDB.met_damage`). Any other SQLite error goes on
    up."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def read(self: LedgerDB, *args: Any, **kwargs: Any) -> Any:
            try:
                return fn(self, *args, **kwargs)
            except sqlite3.DatabaseError as exc:
                if not _is_damage(exc):
                    raise
                self.met_damage(exc)
                return empty()

        return cast(F, read)

    return wrap


class LedgerDB:
    """The ledger and saved matches of one database file. Open with :meth:`open`."""

    def __init__(self, conn: sqlite3.Connection, path: Path, *, read_only: bool) -> None:
        self.conn = conn
        self.path = path
        self.read_only = read_only
        #: Why a read-only database cannot be written (the folder refuses, or a newer version).
        self.refused: Refused = Refused(Cause.FUTURE)
        #: This running copy's id: its saved match rows carry it.
        self.owner = uuid.uuid4().hex
        self.host = socket.gethostname()[:200]
        #: Rows a read found unreadable, (table, rowid): skipped by the readers, set aside by
        #: :meth:`mend` (never from a screen's draw: a read changes nothing).
        self.damaged: set[tuple[str, int]] = set()
        #: Rows set aside this run (kept in ``set_aside``); matches rebuilt from their record.
        self.set_aside_now = 0
        self.rebuilt_now = 0
        #: Bumped whenever :meth:`mend` moved rows: paged views of the ledger read again.
        self.generation = 0
        #: What SQLite said when a read first met a damaged page this run (None: no damage met).
        self.damage_met: str | None = None
        #: This copy's open marker (see :func:`open_or_repair`); None for other connections.
        self.mark: Path | None = None
        #: The whole file was read at this open (``quick_check``, or a repair): the start also
        #: sweeps the rows and checks the whole rating history (see :meth:`sweep`).
        self.checked = False
        #: Derived data to count again from the ledger (:meth:`recount`): ``"totals"`` (the
        #: statistics counters), ``"ratings"`` (the rating history). Meanwhile the counters are
        #: not read (:meth:`stats` counts by SQL) and the screens say they are being counted.
        self.stale: set[str] = set()

    # ------------------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: Path, *, check: bool = False) -> LedgerDB:
        """Open (creating and migrating if needed) the database at ``path``; with ``check``, an
        existing file first passes ``PRAGMA quick_check`` (a read of every page).

        Raises :class:`DatabaseDamaged` for a file that is not a healthy database, ``Refused``
        when the disk refuses even to open it, and ``FutureDatabase`` handling is done here:
        a newer ``user_version`` opens read-only (``read_only`` is True).
        """
        existed = path.exists()
        try:
            conn = _connect(path)
        except sqlite3.Error as exc:
            raise _classify(exc) from exc
        try:
            version = _user_version(conn)
            if existed and check:
                _quick_check(conn)
            if version > SCHEMA_VERSION:
                conn.close()
                ro = _connect(path, read_only=True)
                return cls(ro, path, read_only=True)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            # the WAL is emptied after every recorded match (see record); what a checkpoint
            # cannot truncate (another copy reading) is cut back to this size
            conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            if version < SCHEMA_VERSION:
                _migrate(conn, version)
            _check_schema(conn)
            db = cls(conn, path, read_only=False)
            db.checked = existed and check
            db._add_indexes()
            db._note_stale()
        except sqlite3.Error as exc:
            conn.close()
            raise _classify(exc) from exc
        except DatabaseDamaged:
            conn.close()
            raise
        except Refused:
            conn.close()
            raise
        return db

    @classmethod
    def attach(cls, path: Path) -> LedgerDB:
        """Another connection to a database this process opened with :meth:`open` (which
        checked, migrated and noted what is stale): for a worker thread (the background saves,
        the recount). A few statements, whatever the size of the ledger. Raises like
        :meth:`open`."""
        try:
            conn = _connect(path)
        except sqlite3.Error as exc:
            raise _classify(exc) from exc
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
        except sqlite3.Error as exc:
            conn.close()
            raise _classify(exc) from exc
        return cls(conn, path, read_only=False)

    @_reads(_none)
    def note_stale_elsewhere(self) -> None:
        """Another copy of the game with the file open set rows aside and marked the counters or
        the rating history stale: note it in :attr:`stale` here too, so that this copy says
        they are being counted (and counts them) instead of counting by SQL on its frame loop.
        A few reads (the counters' ``state`` row, :func:`.rating_rows.current`)."""
        if self.read_only or self.stale:
            return
        if not self._totals_whole():
            self.stale.add("totals")
        if not rating_rows.current(self.conn):
            self.stale.add("ratings")

    def _add_indexes(self) -> None:
        """The :data:`_INDEXES` this file lacks (a read of the schema on a clean start)."""
        have = {
            str(r[0])
            for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")
        }
        missing = [sql for name, sql in _INDEXES.items() if name not in have]
        if missing:
            with self._transaction():
                for sql in missing:
                    self.conn.execute(sql)

    def _note_stale(self) -> None:
        """Note in :attr:`stale` what must be counted again, in a few reads on a clean start
        (the counters' ``state`` row, :func:`.rating_rows.current`); the whole rating history
        is read only when the whole file was checked. An empty ledger is counted here (there is
        nothing to read); otherwise the counting is :meth:`recount`'s, off the frame loop."""
        if not self._totals_whole():
            self._note_bad_totals()  # kept aside by mend before the counters are counted
            self.stale.add("totals")
        whole = rating_rows.whole if self.checked else lambda c, _: rating_rows.current(c)
        if not whole(self.conn, _GOOD_MATCH):
            self.stale.add("ratings")
        if not self.stale:
            return
        empty = self.conn.execute("SELECT 1 FROM matches LIMIT 1").fetchone() is None
        with self._transaction():
            # the table the recording transaction rates into (stale until counted)
            rating_rows.ensure_table_in_tx(self.conn)
            if empty and not self.damaged:
                self._write_counts_in_tx(self.stale, self._count(self.stale))
                self.stale = set()

    def _note_bad_totals(self) -> bool:
        """Note the counter rows that fail the boundary (:meth:`mend` keeps them aside and
        counts again); True when there were any."""
        for rowid, *values in self.conn.execute(
            "SELECT rowid, practice, grp, key, value FROM totals"
        ):
            try:
                TotalsRow.model_validate(dict(zip(_TOTALS_COLS, values, strict=True)))
            except ValidationError:
                self.damaged.add(("totals", int(rowid)))
        return any(table == "totals" for table, _ in self.damaged)

    def _totals_whole(self) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM totals WHERE practice = -1 AND grp = 'state' AND key = 'ok' "
            "AND value = 1"
        ).fetchone()
        return row is not None

    @classmethod
    def open_read_only(cls, path: Path, reason: Refused) -> LedgerDB:
        """Open a database this copy cannot write (a read-only folder or disk, a linked file) to
        show its matches; ``reason`` says why it cannot be written. Raises like :meth:`open`."""
        try:
            try:
                conn = _connect(path, read_only=True)
                _user_version(conn)  # the first read: a WAL file may refuse without its -shm
            except sqlite3.OperationalError:
                # a read-only folder keeps no -shm: read the file as it is (nothing writes it)
                conn = _connect(path, read_only=True, immutable=True)
            _check_schema(conn)
        except sqlite3.Error as exc:
            raise _classify(exc) from exc
        db = cls(conn, path, read_only=True)
        db.refused = reason
        return db

    def close(self) -> None:
        self.conn.close()

    def met_damage(self, exc: BaseException) -> None:
        """A read met a damaged page: remember what SQLite said (the first time). The caller
        tells the player and calls :meth:`mark_for_check` between frames (a read writes
        nothing)."""
        if self.damage_met is None:
            self.damage_met = " ".join(str(exc).split())[:80] or "damaged"

    def mark_for_check(self) -> None:
        """Mark the file for the whole-file check and repair at the next start
        (``koikoi.sqlite3-check``). Should the disk refuse the mark, this copy's open marker is
        kept at close instead (see :func:`closed_cleanly`), which asks for the same check."""
        with contextlib.suppress(OSError):  # the open marker left in place asks the same
            _write_mark(self.path.with_name(self.path.name + CHECK_SUFFIX), b"damage met\n")

    # ------------------------------------------------------------------------------ writing

    def record(self, rec: MatchRecord, *, record_text: str | None, computer: bool = False) -> bool:
        """Record a finished match and drop its saved row, in one transaction.

        Returns True when the match was inserted, False when its id was already recorded (then
        only the saved row is dropped). Raises :class:`Refused` when the disk refuses.
        """
        self._writable()
        with self._transaction():
            inserted = self._insert_match_in_tx(rec, record_text, computer=computer)
            self.conn.execute("DELETE FROM saved WHERE match_id = ?", (rec.match_id,))
        self.checkpoint()
        return inserted

    def checkpoint(self) -> None:
        """Copy the WAL into the database and empty it, so that it never holds more than the
        pages of one match (on a nearly full disk a grown WAL took the space matches needed).

        The match is committed before this runs: a checkpoint the disk refuses loses nothing
        (the WAL stays as it is and the next checkpoint or the next start copies it). It never
        waits: a TRUNCATE checkpoint waits for readers through the busy handler (up to
        ``BUSY_TIMEOUT_S`` on the frame loop at a match's end while the saver thread or another
        copy of the game reads), so the handler is off for it and a busy WAL is left for the
        next one.
        """
        self.conn.execute("PRAGMA busy_timeout=0")
        try:
            with contextlib.suppress(sqlite3.OperationalError):
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            self.conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")

    def _insert_rounds(self, rec: MatchRecord, *, computer: bool) -> None:
        rounds: list[tuple[object, ...]] = []
        yaku: list[tuple[object, ...]] = []
        counted = int(not computer)
        practice = int(rec.practice)
        date = rec.date.astimezone(UTC).isoformat()
        for e in rec.rounds:
            calls = e.koikoi_calls
            rounds.append(
                (
                    rec.match_id,
                    e.round,
                    e.dealer,
                    e.winner,
                    e.base,
                    e.final,
                    e.paid,
                    None if calls is None else calls[0],
                    None if calls is None else calls[1],
                    rec.player_seat,
                    counted,
                    practice,
                    rec.unit,
                    date,
                )
            )
            mine = int(e.winner == rec.player_seat)
            yaku.extend(
                (rec.match_id, e.round, y.key, y.points, mine, counted, practice) for y in e.yaku
            )
        self.conn.executemany(
            "INSERT OR IGNORE INTO rounds VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            rounds,
        )
        self.conn.executemany("INSERT INTO round_yaku VALUES (?,?,?,?,?,?,?)", yaku)

    def import_records(
        self,
        records: Iterable[tuple[MatchRecord, str | None]],
        *,
        source: str,
        by_content: bool = False,
    ) -> tuple[int, int, int]:
        """Merge matches by id in one transaction: (added, already there, conflicting).
        Each added match is recorded as if it had just been played, in the order given.

        With ``by_content`` a match is also known by its record's content
        (:func:`.from_record.identity`): one already in the ledger (or earlier in
        ``records``) under another id is already there, not added again.

        A record whose id is taken by a *different* match is kept in ``set_aside`` (never lost).
        """
        self._writable()
        added = same = conflicts = 0
        with self._transaction():
            known = self._identities() if by_content else set()
            for rec, text in records:
                key = from_record.identity(text) if by_content else None
                if key is not None and key in known:
                    same += 1
                    continue
                old = self.conn.execute(
                    "SELECT data FROM match_data WHERE match_id = ?", (rec.match_id,)
                ).fetchone()
                if key is not None:
                    known.add(key)
                if old is None:
                    self._insert_match_in_tx(rec, text)
                    added += 1
                    if added == COUNT_AT_ONCE:
                        # a large import: counting each match as it comes (a scan of its rows)
                        # costs more than counting them all once, after (:meth:`recount`)
                        self.conn.execute(
                            "DELETE FROM totals WHERE practice = -1 AND grp = 'state' "
                            "AND key = 'ok'"
                        )
                        self.stale.add("totals")
                elif _same_match(old[0], rec):
                    same += 1
                else:
                    conflicts += 1
                    self._aside_in_tx(
                        "import_conflict",
                        rec.match_id,
                        f"id already used ({source})",
                        rec.model_dump_json(),
                    )
        # each match was counted and rated as it was inserted, in the order of the file (the
        # rating chain is in recording order: see rating_rows): nothing to count again
        return added, same, conflicts

    def _identities(self) -> set[str]:
        """The content identity of every recorded match that has a record (one read of the
        records, at an import)."""
        found = set()
        for (text,) in self.conn.execute("SELECT record FROM match_data"):
            key = from_record.identity(text) if isinstance(text, str) else None
            if key is not None:
                found.add(key)
        return found

    def _insert_match_in_tx(
        self, rec: MatchRecord, text: str | None, *, computer: bool = False, data: bool = True
    ) -> bool:
        """Insert a match and its rounds unless its id is taken; True when inserted.

        The record keeps the computer flag (``rec.computer``), so that a salvage or an import
        rebuilds the match as it was. ``data=False``: its ``match_data`` row is already there.
        """
        computer = computer or rec.computer
        if computer != rec.computer:
            rec = rec.model_copy(update={"computer": computer})
        me = rec.player_seat
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO matches (match_id, date, preset, custom, unit, opponent_name, "
            "opponent_level, practice, computer, player_seat, winner, result, player_total, "
            "opponent_total, rounds, ending, help_level) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                rec.match_id,
                rec.date.astimezone(UTC).isoformat(),
                rec.preset,
                int(bool(rec.options)),
                rec.unit,
                rec.opponent_name,
                rec.opponent_level,
                int(rec.practice),
                int(computer),
                me,
                rec.winner,
                rec.player_result,
                rec.final_balances[me],
                rec.final_balances[1 - me],
                len(rec.rounds),
                rec.ending,
                rec.help_level,
            ),
        )
        if cur.rowcount != 1:
            return False
        if data:
            self.conn.execute(
                "INSERT INTO match_data (match_id, data, record) VALUES (?,?,?)",
                (rec.match_id, rec.model_dump_json(), text),
            )
        self._insert_rounds(rec, computer=computer)
        self._count_in_tx(rec.match_id)
        date = rec.date.astimezone(UTC).isoformat()
        rating_rows.rate_in_tx(self.conn, rec, computer=computer, date=date)
        return True

    def save(self, match_id: str, record_text: str, meta: dict[str, Any]) -> None:
        """Save (insert or replace) this copy's match in progress. Raises Refused."""
        self._writable()
        with self._transaction():
            # a late save of a match already recorded must not bring its saved row back
            self.conn.execute(
                "INSERT INTO saved (match_id, owner, host, pid, updated, record, meta) "
                "SELECT ?,?,?,?,?,?,? WHERE NOT EXISTS "
                "(SELECT 1 FROM matches WHERE match_id = ?1) "
                "ON CONFLICT(match_id) DO UPDATE SET owner=excluded.owner, "
                "host=excluded.host, pid=excluded.pid, updated=excluded.updated, "
                "record=excluded.record, meta=excluded.meta",
                (
                    match_id,
                    self.owner,
                    self.host,
                    os.getpid(),
                    _now(),
                    record_text,
                    json.dumps(meta, ensure_ascii=False),
                ),
            )

    def drop_saved(self, match_id: str) -> None:
        """Forget a saved match the player abandoned on purpose (a new game over it)."""
        self._writable()
        with self._transaction():
            self.conn.execute("DELETE FROM saved WHERE match_id = ?", (match_id,))

    def set_saved_aside(self, match_id: str, reason: str) -> None:
        """Move a saved match that cannot be resumed into ``set_aside`` (kept, not deleted)."""
        self._writable()
        with self._transaction():
            row = self.conn.execute(
                "SELECT record, meta FROM saved WHERE match_id = ?", (match_id,)
            ).fetchone()
            if row is None:
                return
            payload = _payload({"record": row[0], "meta": row[1]})
            self._aside_in_tx("saved_match", match_id, reason, payload)
            self.conn.execute("DELETE FROM saved WHERE match_id = ?", (match_id,))

    def claim(self, match_id: str) -> None:
        """This copy now plays ``match_id`` (after Continue): its row carries our owner id."""
        self._writable()
        with self._transaction():
            self.conn.execute(
                "UPDATE saved SET owner = ?, host = ?, pid = ?, updated = ? WHERE match_id = ?",
                (self.owner, self.host, os.getpid(), _now(), match_id),
            )

    def release(self) -> None:
        """This copy is closing: its saved matches are no longer being played by anyone."""
        if self.read_only:
            return
        with self._transaction():
            self.conn.execute("UPDATE saved SET owner = '', pid = 0 WHERE owner = ?", (self.owner,))

    def _aside_in_tx(self, kind: str, match_id: str | None, reason: str, payload: str) -> None:
        self.conn.execute(
            "INSERT INTO set_aside (kind, match_id, reason, at, payload) VALUES (?,?,?,?,?)",
            (kind, match_id, reason[:500], _now(), payload),
        )

    def save_review(self, match_id: str, data: str) -> None:
        """Cache a match review (JSON text) with its match."""
        self._writable()
        with self._transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO reviews (match_id, data) VALUES (?, ?)", (match_id, data)
            )

    # ------------------------------------------------------------------------------ reading

    @_reads(list)
    def saved_matches(self) -> list[SavedMatch]:
        """Saved matches, most recently saved first (a bounded list: one row per copy).

        A row that fails :class:`.models.SavedRow` (a BLOB record, a NUL, a date that is not
        one...) is skipped and noted in :attr:`damaged`; :meth:`mend` sets it aside."""
        rows = self.conn.execute(
            "SELECT rowid, match_id, owner, host, pid, updated, record, meta FROM saved "
            "ORDER BY updated DESC LIMIT 50"
        ).fetchall()
        out = []
        for rowid, *values in rows:
            try:
                row = SavedRow.model_validate(dict(zip(_SAVED_COLS, values, strict=True)))
            except ValidationError:
                self.damaged.add(("saved", int(rowid)))
                continue
            try:
                meta_obj = json.loads(row.meta)
            except (ValueError, RecursionError):
                meta_obj = None
            if not isinstance(meta_obj, dict):
                meta_obj = {"_damaged": True}
            when = row.updated
            elsewhere = row.owner != self.owner and row.host == self.host and _pid_alive(row.pid)
            if os.name == "nt" and elsewhere:  # heartbeat: a copy saves after every move
                elsewhere = (datetime.now(UTC) - when).total_seconds() < 15 * 60
            out.append(SavedMatch(row.match_id, row.record, meta_obj, when, elsewhere))
        return out

    @_reads(int)
    def count(self, *, computer: bool | None = False) -> int:
        """How many matches: the player's (``computer=False``), the computer-vs-computer ones
        (``True``) or all (``None``)."""
        where = "" if computer is None else f" WHERE computer = {int(computer)}"
        return int(self.conn.execute(f"SELECT COUNT(*) FROM matches{where}").fetchone()[0])

    @_reads(list)
    def page(self, offset: int, limit: int, *, computer: bool = False) -> list[MatchRecord]:
        """One page of recorded matches, newest first: the player's, or with ``computer`` the
        computer-vs-computer ones. Rows that do not pass the boundary are skipped and noted in
        :attr:`damaged` (:meth:`mend` sets them aside)."""
        where = f"WHERE computer = {int(computer)} "
        ids = self.conn.execute(
            f"SELECT rowid, match_id FROM matches {where}ORDER BY date DESC, rowid DESC "
            "LIMIT ? OFFSET ?",
            (max(0, limit), max(0, offset)),
        ).fetchall()
        out = []
        for rowid, match_id in ids:
            try:
                found = self._read_data(match_id) if isinstance(match_id, str) else None
            except sqlite3.DatabaseError as exc:  # a damaged page: the other rows still read
                if not _is_damage(exc):
                    raise
                self.met_damage(exc)
                continue
            if found is None:
                self.damaged.add(("matches", int(rowid)))
                continue
            out.append(found[0])
        return out

    def _read_data(self, match_id: str) -> tuple[MatchRecord, str | None] | None:
        """A match's record through the boundary. A damaged summary JSON is made again from
        the record (:func:`.from_record.rebuilt`) and the row noted for :meth:`mend` to write
        it again; None, and the row noted, when the record does not replay either."""
        row = self.conn.execute(
            "SELECT rowid, match_id, data, record FROM match_data WHERE match_id = ?",
            (match_id,),
        ).fetchone()
        if row is None:
            return None
        return self._data_of(int(row[0]), match_id, row[2], row[3])

    def _data_of(
        self, rowid: int, match_id: object, data: object, text: object
    ) -> tuple[MatchRecord, str | None] | None:
        """A ``match_data`` row read (see :meth:`_read_data`)."""
        try:
            row = DataRow.model_validate({"match_id": match_id, "data": data, "record": text})
        except ValidationError:
            row = None
        rec = None if row is None else _load_record(row.data)
        if row is not None and rec is not None and rec.match_id == row.match_id:
            return rec, row.record
        self.damaged.add(("match_data", rowid))
        again = self._rebuilt(match_id, text)
        return None if again is None else (again, cast(str, text))

    def _rebuilt(self, match_id: object, text: object) -> MatchRecord | None:
        """A match's full record made again from its record text and its ``matches`` row
        (None: either does not read, or the record does not replay to the row's totals)."""
        if not isinstance(match_id, str) or not isinstance(text, str) or "\x00" in text:
            return None
        row = self.conn.execute(
            f"SELECT {', '.join(_MATCH_COLS)} FROM matches WHERE match_id = ?", (match_id,)
        ).fetchone()
        if row is None:
            return None
        try:
            summary = SummaryRow.model_validate(dict(zip(_MATCH_COLS, row, strict=True)))
        except ValidationError:
            return None
        return from_record.rebuilt(text, summary)

    @_reads(list)
    def summaries(self, offset: int, limit: int, *, computer: bool = False) -> list[MatchSummary]:
        """The list lines of one page, newest first, read from columns only (no JSON): the
        player's matches, or with ``computer`` the computer-vs-computer ones. Each row passes
        :class:`.models.SummaryRow` (a row that fails is skipped and noted)."""
        rows = self.conn.execute(
            f"SELECT rowid, {', '.join(_MATCH_COLS)} FROM matches "
            "WHERE computer = ? ORDER BY date DESC, rowid DESC LIMIT ? OFFSET ?",
            (int(computer), max(0, limit), max(0, offset)),
        ).fetchall()
        out = []
        for rowid, *values in rows:
            try:
                r = SummaryRow.model_validate(dict(zip(_MATCH_COLS, values, strict=True)))
            except ValidationError:
                self.damaged.add(("matches", int(rowid)))
                continue
            out.append(
                MatchSummary(
                    match_id=r.match_id,
                    date=r.date,
                    preset=r.preset,
                    custom=bool(r.custom),
                    unit=r.unit,
                    opponent_name=r.opponent_name,
                    opponent_level=r.opponent_level,
                    practice=bool(r.practice),
                    result=r.result,
                    player_total=r.player_total,
                    opponent_total=r.opponent_total,
                    rounds=r.rounds,
                    ending=r.ending,
                    help_level=r.help_level,
                )
            )
        return out

    @_reads(_none)
    def get(self, match_id: str) -> tuple[MatchRecord, str | None] | None:
        """One recorded match and its replayable record text (None for old imported matches)."""
        return self._read_data(match_id)

    @_reads(_none)
    def latest_id(self) -> str | None:
        row = self.conn.execute(
            "SELECT match_id FROM matches ORDER BY date DESC, rowid DESC LIMIT 1"
        ).fetchone()
        return None if row is None else str(row[0])

    @_reads(_none)
    def review(self, match_id: str) -> str | None:
        row = self.conn.execute(
            "SELECT rowid, match_id, data FROM reviews WHERE match_id = ?", (match_id,)
        ).fetchone()
        if row is None:
            return None
        try:
            return ReviewRow.model_validate({"match_id": row[1], "data": row[2]}).data
        except ValidationError:
            self.damaged.add(("reviews", int(row[0])))
            return None

    def iter_all(
        self, *, include_computer: bool = True, unread: list[str] | None = None
    ) -> Iterator[tuple[MatchRecord, str | None]]:
        """Every recorded match, streamed (exports), in the order they were recorded: the
        rating history's order (see :mod:`.rating_rows`), so a ledger imported from the export
        rates its matches as this one did. A damaged summary is made again from the record;
        the id of a match that cannot be read (its record does not replay) goes to ``unread``
        (a read sets nothing aside: :meth:`mend` does, between frames or at close)."""
        where = "" if include_computer else " WHERE m.computer = 0"
        lost = unread if unread is not None else []
        try:
            yield from self._iter_all(where, lost)
        except sqlite3.DatabaseError as exc:  # a damaged page: what was read is what there is
            if not _is_damage(exc):
                raise
            self.met_damage(exc)

    def _iter_all(self, where: str, unread: list[str]) -> Iterator[tuple[MatchRecord, str | None]]:
        cur = self.conn.execute(
            "SELECT m.rowid, d.rowid, m.match_id, d.data, d.record FROM matches m "
            f"LEFT JOIN match_data d USING (match_id){where} ORDER BY m.rowid"
        )
        for rowid, data_rowid, match_id, data, text in cur:
            found = None
            if data_rowid is not None:
                found = self._data_of(int(data_rowid), match_id, data, text)
            else:
                self.damaged.add(("matches", int(rowid)))
            if found is None:
                unread.append(_id_or_none(match_id) or f"row {int(rowid)}")
                continue
            yield found

    @_reads(int)
    def aside_count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM set_aside").fetchone()[0])

    def stats(self, *, include_practice: bool = False) -> LedgerStats:
        """Lifetime statistics (defined in :mod:`.totals`).

        Read from the ``totals`` counters (a few dozen rows, whatever the size of the ledger);
        when they are not whole (a database this copy cannot write, or a counter that fails
        the boundary, noted for :meth:`mend`), counted by SQL over the rows instead.
        """
        try:
            counters = self._read_totals()
            if counters is None:
                self._note_bad_rows()
                counters = totals.aggregate(self.conn, _CHECKS)
        except sqlite3.DatabaseError as exc:
            if not _is_damage(exc):
                raise
            self.met_damage(exc)
            counters = {p: totals.Counters() for p in (0, 1)}
        return self._stats_from(counters, include_practice=include_practice)

    @_reads(_none)
    def sweep(self) -> None:
        """Note the rows of ``matches``, ``rounds`` and ``round_yaku`` whose values the game
        could not have written (one scan of each at a start that checked the whole file, no
        JSON): a row whose flags are garbage would otherwise hide from every list, and a
        damaged round drop out of "rounds played" without a word. :meth:`mend` writes them
        again from their match's record."""
        self._note_bad_rows()

    # ---- the counters

    def _read_totals(self) -> dict[int, totals.Counters] | None:
        """The counters as ``totals`` holds them; None when they are not whole, or a row fails
        the boundary (noted for :meth:`mend`)."""
        if "totals" not in self._tables() or not self._totals_whole():
            return None
        counters = {0: totals.Counters(), 1: totals.Counters()}
        for rowid, *values in self.conn.execute(
            "SELECT rowid, practice, grp, key, value FROM totals"
        ):
            try:
                row = TotalsRow.model_validate(dict(zip(_TOTALS_COLS, values, strict=True)))
            except ValidationError:
                row = None
            if row is None or not totals.place(counters, row.practice, row.grp, row.key, row.value):
                self.damaged.add(("totals", int(rowid)))
                return None
        return counters

    def _tables(self) -> set[str]:
        return {
            str(r[0])
            for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }

    def _note_bad_rows(self) -> None:
        """Note the rows the statistics count from that fail the checks (for :meth:`mend`)."""
        for table, good in _CHECKS.items():
            for (rowid,) in self.conn.execute(
                f"SELECT rowid FROM {table} WHERE NOT {good} LIMIT 1000"
            ):
                self.damaged.add((table, int(rowid)))

    def _rebuild_totals_in_tx(self, counted: dict[int, totals.Counters] | None = None) -> None:
        """The counters again from every row (after an upgrade, a repair or a mend), or from
        ``counted`` already (:meth:`recount`), marked whole. The rating history is not touched:
        it is its own call (:func:`.rating_rows.rebuild_in_tx`), and its row count fact, kept
        in the same table, stays (so this is :func:`.totals.rebuild_in_tx` but for that row)."""
        if counted is None:
            counted = totals.aggregate(self.conn, _CHECKS)
        self.conn.execute(f"DELETE FROM totals WHERE NOT ({rating_rows.FACT})")
        totals.add_in_tx(self.conn, counted)
        self.conn.execute("INSERT INTO totals VALUES (-1, 'state', 'ok', 1)")

    def _count(self, what: Iterable[str]) -> _Counted:
        """Read what :meth:`recount` writes: the counters and/or the rating history."""
        counted = chain = None
        if "totals" in what:
            counted = totals.aggregate(self.conn, _CHECKS)
        if "ratings" in what:
            chain = rating_rows.chain(self.conn, _GOOD_MATCH)
        return counted, chain

    def _write_counts_in_tx(self, what: Iterable[str], counted: _Counted) -> None:
        sums, chain = counted
        if "totals" in what:
            self._rebuild_totals_in_tx(sums)
        if "ratings" in what:
            assert chain is not None
            rating_rows.write_in_tx(self.conn, chain)

    def recount(self, what: Iterable[str]) -> None:
        """Count ``what`` (``"totals"``, ``"ratings"``: see :attr:`stale`) again from the
        ledger and write it in one transaction: a kill before its COMMIT leaves it stale, and
        the next start counts again; nothing else is lost.

        Meant for a worker thread's own connection (:meth:`attach`; seconds at 100,000
        matches). The reading is done in a read transaction, which stops no writer (the game
        records and saves meanwhile); the write transaction that follows holds the lock for
        the few dozen counter rows and the rating rows only, and writes only when no other
        connection committed in between (``PRAGMA data_version``). After two such tries the
        reading is done inside the write transaction (correct, and longer). Raises
        :class:`Refused` when the disk refuses, :class:`DatabaseDamaged` when a read meets a
        damaged page.
        """
        self._writable()
        try:
            self._recount(set(what))
        except sqlite3.Error as exc:
            raise _classify(exc) from exc

    def _recount(self, what: set[str]) -> None:
        for _ in range(2):
            try:
                self.conn.execute("BEGIN")
                version = self._data_version()
                counted = self._count(what)
            finally:
                if self.conn.in_transaction:
                    self.conn.execute("COMMIT")  # a read: nothing to keep or lose
            with self._transaction():
                if self._data_version() == version:
                    self._write_counts_in_tx(what, counted)
                    return
        with self._transaction():
            self._write_counts_in_tx(what, self._count(what))

    def _data_version(self) -> int:
        """Changes when another connection committed (read inside a transaction, after its
        snapshot begins)."""
        self.conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def _count_in_tx(self, match_id: str) -> None:
        """Add a match just inserted to the counters (same transaction, same definitions as a
        rebuild: a computer match counts for nothing). Nothing to do while the counters are not
        whole."""
        if "totals" in self._tables() and self._totals_whole():
            totals.add_in_tx(self.conn, totals.aggregate(self.conn, _CHECKS, match_id))

    def _stats_from(
        self, counters: dict[int, totals.Counters], *, include_practice: bool
    ) -> LedgerStats:
        parts = [counters[0], counters[1]] if include_practice else [counters[0]]
        best = totals.best_of(self.conn, (part.best for part in parts if part.best is not None))
        return totals.ledger_stats(
            parts,
            practice_matches=counters[1].counts.get(("overall", "matches"), 0),
            best=None if best is None else self._best_round(best[1], best[2]),
        )

    def _best_round(self, match_id: str, number: int) -> BestRound | None:
        """The best round as the statistics show it: its match's row, the round's and its yaku
        (None when a row fails the checks: noted for :meth:`mend`)."""
        q = self.conn.execute
        row = q(
            "SELECT m.match_id, m.date, m.preset, m.unit, m.opponent_name, r.round, "
            "r.base, r.final, r.paid, m.rowid, r.rowid FROM rounds r "
            "JOIN matches m ON m.match_id = r.match_id "
            f"WHERE r.match_id = ? AND r.round = ? AND {_good_match('m.')}",
            (match_id, number),
        ).fetchone()
        if row is None:
            return None
        try:
            date = _stored_date(row[1])
        except ValueError:
            self.damaged.add(("matches", int(row[9])))
            return None
        if not all(isinstance(v, int) and abs(v) <= _AMOUNT for v in row[5:9]):
            self.damaged.add(("rounds", int(row[10])))
            return None
        keys = q(
            f"SELECT key FROM round_yaku y WHERE match_id = ? AND round = ? AND {_GOOD_YAKU} "
            "ORDER BY rowid",
            (row[0], row[5]),
        )
        return BestRound(
            match_id=row[0],
            date=date,
            preset=row[2],
            unit=row[3],
            opponent_name=row[4],
            round=int(row[5]),
            base=int(row[6]),
            final=int(row[7]),
            paid=int(row[8]),
            yaku=tuple(k for (k,) in keys),
        )

    @_reads(list)
    def rating_history(self, limit: int = 200) -> list[rating_rows.RatingPoint]:
        """The player's rating after each of the newest ``limit`` rated matches, oldest first
        (none while it is counted again: a row that does not read marks it stale)."""
        try:
            return rating_rows.history(self.conn, limit)
        except rating_rows.DamagedHistory:
            self._history_damaged()
            return []

    @_reads(_none)
    def rating_of(self, match_id: str) -> rating_rows.RatingPoint | None:
        """The rating change a recorded match made (None: it was not rated)."""
        try:
            return rating_rows.of_match(self.conn, match_id)
        except rating_rows.DamagedHistory:
            self._history_damaged()
            return None

    def _history_damaged(self) -> None:
        """A rating row does not read: the history is derived from the matches, so it is
        counted again (:meth:`recount`, started between frames); a read writes nothing."""
        if not self.read_only:
            self.stale.add("ratings")

    @_reads(list)
    def balance_history(self, limit: int = 50) -> list[tuple[str, str, int, int]]:
        """(match id, unit, player total, opponent total) of the last ``limit`` matches, oldest
        first (for charts)."""
        rows = self.conn.execute(
            "SELECT match_id, unit, player_total, opponent_total FROM matches "
            f"WHERE {_GOOD_MATCH} AND computer = 0 AND practice = 0 "
            "ORDER BY date DESC, rowid DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [(r[0], r[1], int(r[2]), int(r[3])) for r in reversed(rows)]

    # ------------------------------------------------------------------------------ mending

    def mend(self, limit: int | None = None) -> tuple[int, int]:
        """Set aside the rows the readers noted in :attr:`damaged` (at most ``limit`` of them;
        the rest stay noted, and skipped, for the next call); (rows set aside, matches
        rebuilt).

        A damaged row of ``matches``, ``rounds`` or ``round_yaku`` is derived data: when the
        match's record still reads, the row is kept in ``set_aside`` and the match's rows are
        written again from the record. A match whose record does not read is moved to
        ``set_aside`` whole (its summary, rounds and data), never deleted. A damaged saved
        match or cached review is moved there as it is. A read-only database changes nothing
        (the rows stay skipped). Raises :class:`Refused` when the disk refuses.

        When matches came or went, the counters and the rating history are marked stale in
        the same transaction (:attr:`stale`): counting them again reads every row (seconds at
        100,000 matches), which is :meth:`recount`'s work, off the frame loop; until then the
        screens say they are being counted. A kill in between leaves them stale, and the next
        start counts them.
        """
        if not self.damaged or self.read_only:
            return 0, 0
        if self.damage_met is not None:  # a damaged page: the next start's repair keeps it all
            self.damaged.clear()
            return 0, 0
        todo = sorted(self.damaged)[:limit]
        derived = any(t not in ("saved", "reviews") for t, _ in todo)
        aside = rebuilt = 0
        done: set[str] = set()
        with self._transaction():
            if derived:  # first: the matches rebuilt below are then counted by the recount
                self.conn.execute(
                    "DELETE FROM totals WHERE practice = -1 AND grp = 'state' AND key = 'ok'"
                )
                rating_rows.mark_stale_in_tx(self.conn)
            for table, rowid in todo:
                values = _row_dict(self.conn, table, rowid)
                if values is None:
                    continue
                match_id = values.get("match_id")
                why = f"a damaged row of {table}"
                if table in ("saved", "reviews") or not isinstance(match_id, str):
                    kind = "saved_match" if table == "saved" else f"damaged_{table}"
                    self._aside_in_tx(kind, _id_or_none(match_id), why, _payload(values))
                    self.conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
                    aside += 1
                    continue
                if match_id in done:  # its whole match was handled already
                    continue
                kept, again = self._mend_match_in_tx(match_id, table, values)
                aside += kept
                rebuilt += again
                done.add(match_id)
        self.damaged.difference_update(todo)
        if derived:
            self.stale |= {"totals", "ratings"}
        self.set_aside_now += aside
        self.rebuilt_now += rebuilt
        if aside or rebuilt:
            self.generation += 1
        return aside, rebuilt

    def _mend_match_in_tx(
        self, match_id: str, table: str, values: dict[str, Any]
    ) -> tuple[int, int]:
        """Rebuild a match's derived rows (its summary JSON, its ``matches`` row, its rounds)
        from what still reads: its summary JSON, else its record replayed with the facts of its
        ``matches`` row. Only a match with neither is moved to ``set_aside`` (kept whole)."""
        q = self.conn.execute
        data = q("SELECT data, record FROM match_data WHERE match_id = ?", (match_id,)).fetchone()
        rec = _load_record(data[0]) if data is not None and isinstance(data[0], str) else None
        if rec is not None and rec.match_id != match_id:
            rec = None
        if rec is None and data is not None:
            rec = self._rebuilt(match_id, data[1])
            if rec is not None:  # the summary JSON again, from the record
                self._aside_in_tx(
                    "damaged_row", match_id, "a damaged row of match_data", _payload(values)
                )
                q(
                    "UPDATE match_data SET data = ? WHERE match_id = ?",
                    (rec.model_dump_json(), match_id),
                )
                if table == "match_data":
                    values = {}
        if rec is None:  # nothing to rebuild from: the whole match goes aside, kept
            rows = {
                t: [
                    _row_dict(self.conn, t, r)
                    for (r,) in q(f"SELECT rowid FROM {t} WHERE match_id = ?", (match_id,))
                ]
                for t in ("matches", "match_data", "rounds", "round_yaku")
            }
            self._aside_in_tx(
                "damaged_match", match_id, f"a damaged row of {table}", _payload(rows)
            )
            for t in rows:
                q(f"DELETE FROM {t} WHERE match_id = ?", (match_id,))
            return 1, 0
        text = data[1]
        if text is not None and not (isinstance(text, str) and "\x00" not in text):
            # the record reads but its replay text is not text: keep that aside, drop it here
            self._aside_in_tx(
                "damaged_record", match_id, "a damaged replay record", _payload({"record": text})
            )
            q("UPDATE match_data SET record = NULL WHERE match_id = ?", (match_id,))
            text = None
            if table == "match_data":
                return 1, 0
        if values:
            why = f"a damaged row of {table}"
            self._aside_in_tx("damaged_row", match_id, why, _payload(values))
        computer = rec.computer or _was_computer(self.conn, match_id)
        place = q("SELECT rowid FROM matches WHERE match_id = ?", (match_id,)).fetchone()
        for t in ("matches", "rounds", "round_yaku"):
            q(f"DELETE FROM {t} WHERE match_id = ?", (match_id,))
        self._insert_match_in_tx(rec, text, computer=computer, data=False)
        if place is not None:  # its place in the recording order (the rating chain's)
            q("UPDATE matches SET rowid = ? WHERE match_id = ?", (place[0], match_id))
        return 1, 1

    # ------------------------------------------------------------------------------ helpers

    def _writable(self) -> None:
        if self.read_only:
            raise Refused(self.refused.cause, self.refused.detail)

    def _transaction(self) -> _Tx:
        return _Tx(self.conn)


class _Tx:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (ROLLBACK on any error); sqlite errors that mean the
    disk refuses become :class:`Refused`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _refused_or_raise(exc) from exc

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if exc is None:
            try:
                self.conn.execute("COMMIT")
                return
            except sqlite3.Error as err:
                self._rollback()
                raise _refused_or_raise(err) from err
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise _refused_or_raise(exc) from exc

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            # a failed rollback leaves SQLite to roll back from its journal at the next open
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")


def _refused_or_raise(exc: sqlite3.Error) -> BaseException:
    refused = refusal(exc)
    return refused if refused is not None else exc


class DecodedDamage(sqlite3.DatabaseError):
    """SQLite's own message was not UTF-8: it quotes damaged bytes of the file (a schema entry
    whose name is garbage: "malformed database schema (sqlite_au\\xa9oindex...)"), and Python
    raised ``UnicodeDecodeError`` instead of SQLite's error. It is damage like any other
    (SQLITE_CORRUPT), with the message read as far as it reads."""

    sqlite_errorcode = 11
    sqlite_errorname = "SQLITE_CORRUPT"


def _decoded(exc: UnicodeDecodeError) -> DecodedDamage:
    return DecodedDamage(bytes(exc.object).decode("utf-8", "replace"))


class _Cursor(sqlite3.Cursor):
    """A cursor whose every step turns an undecodable SQLite message into
    :class:`DecodedDamage` (a step runs in ``execute`` and in each fetch)."""

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        try:
            super().execute(sql, parameters)
        except UnicodeDecodeError as exc:
            raise _decoded(exc) from exc
        return self

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> _Cursor:
        try:
            super().executemany(sql, seq_of_parameters)
        except UnicodeDecodeError as exc:
            raise _decoded(exc) from exc
        return self

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except UnicodeDecodeError as exc:
            raise _decoded(exc) from exc

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except UnicodeDecodeError as exc:
            raise _decoded(exc) from exc

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        try:
            return super().fetchmany(size if size is not None else self.arraysize)
        except UnicodeDecodeError as exc:
            raise _decoded(exc) from exc

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except UnicodeDecodeError as exc:
            raise _decoded(exc) from exc


class _Connection(sqlite3.Connection):
    """Every statement through :class:`_Cursor`: whatever bytes the file holds, a read raises a
    ``sqlite3.Error`` (classified by :func:`_classify`), never a decoding error."""

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        return self.cursor(_Cursor).execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> _Cursor:
        return self.cursor(_Cursor).executemany(sql, parameters)

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        try:
            return super().executescript(script)
        except UnicodeDecodeError as exc:
            raise _decoded(exc) from exc


def sqlite_connect(target: str, *, uri: bool = False, **options: Any) -> sqlite3.Connection:
    """``sqlite3.connect`` with :class:`_Connection` (see there), and text that is not UTF-8
    read with U+FFFD (:func:`_text`). Raises ``sqlite3.Error``."""
    try:
        conn = sqlite3.connect(target, uri=uri, factory=_Connection, **options)
    except UnicodeDecodeError as exc:
        raise _decoded(exc) from exc
    conn.text_factory = _text
    return conn


def _connect(path: Path, *, read_only: bool = False, immutable: bool = False) -> sqlite3.Connection:
    if read_only:
        uri = path.resolve().as_uri() + "?mode=ro" + ("&immutable=1" if immutable else "")
        conn = sqlite_connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    else:
        conn = sqlite_connect(
            str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
    conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
    return conn


def _text(raw: bytes) -> str:
    """SQLite text that is not UTF-8 (written by another program) reads with U+FFFD, not an
    exception in the middle of a query."""
    return raw.decode("utf-8", "replace")


def _row_dict(conn: sqlite3.Connection, table: str, rowid: int) -> dict[str, Any] | None:
    cur = conn.execute(f"SELECT * FROM {table} WHERE rowid = ?", (rowid,))
    row = cur.fetchone()
    if row is None:
        return None
    return {d[0]: v for d, v in zip(cur.description, row, strict=True)}


def _json_default(value: object) -> object:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"blob_hex": bytes(value).hex()}
    return repr(value)


def _payload(obj: object) -> str:
    """Any row as JSON text for ``set_aside`` (a BLOB kept as hex, byte for byte)."""
    return json.dumps(obj, default=_json_default, ensure_ascii=True)


def _id_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and len(value) <= 64 and "\x00" not in value else None


def _was_computer(conn: sqlite3.Connection, match_id: str) -> bool:
    """A computer match by what is left of its rows (records from before the flag was kept)."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM matches WHERE match_id = ?1 AND computer = 1) "
        "OR EXISTS (SELECT 1 FROM rounds WHERE match_id = ?1 AND counted = 0)",
        (match_id,),
    ).fetchone()
    return bool(row[0])


_EXPECTED: dict[int, dict[str, list[tuple[str, str, int, int]]]] = {}


def _table_shape(conn: sqlite3.Connection, table: str) -> list[tuple[str, str, int, int]]:
    return [
        (str(r[1]), str(r[2]).upper(), int(r[3]), int(r[5]))
        for r in conn.execute(f"PRAGMA table_info({table})")
    ]


def _expected_schema(version: int = SCHEMA_VERSION) -> dict[str, list[tuple[str, str, int, int]]]:
    """Every table of a database of ``version`` with its columns, as the migrations make it."""
    if version not in _EXPECTED:
        mem = sqlite3.connect(":memory:")
        for step in range(version):
            mem.executescript(MIGRATIONS[step])
        shapes = {t: _table_shape(mem, t) for t in (*_TABLES, "totals")}
        _EXPECTED[version] = {t: shape for t, shape in shapes.items() if shape}
        mem.close()
    return _EXPECTED[version]


def _check_schema(conn: sqlite3.Connection) -> None:
    """Every table with every column as this version writes them: a dropped or altered table
    is damage (the file is set aside and rebuilt from what reads), not a crash later."""
    version = min(_user_version(conn), SCHEMA_VERSION)
    for table, want in _expected_schema(version).items():
        got = _table_shape(conn, table)
        if not got:
            raise DatabaseDamaged(f"the table {table} is missing")
        if got != want:
            raise DatabaseDamaged(f"the table {table} was altered")


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _quick_check(conn: sqlite3.Connection) -> None:
    rows = conn.execute("PRAGMA quick_check").fetchall()
    if [r[0] for r in rows] != ["ok"]:
        raise DatabaseDamaged(str(rows[0][0])[:120] if rows else "quick_check failed")


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        while version < SCHEMA_VERSION:
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    conn.execute(statement)
            version += 1
        conn.execute(f"PRAGMA user_version={version}")
        conn.execute("COMMIT")
    finally:
        if conn.in_transaction:  # not committed: whatever stopped it goes on up
            conn.execute("ROLLBACK")


def _classify(exc: sqlite3.Error) -> BaseException:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    text = str(exc).lower()
    if code in (11, 26) or "not a database" in text or "malformed" in text:
        return DatabaseDamaged(str(exc))
    refused = refusal(exc)
    return refused if refused is not None else exc


def _load_record(data: str) -> MatchRecord | None:
    try:
        return MatchRecord.model_validate_json(data)
    except (ValidationError, ValueError):
        return None


def _same_match(old_json: str, rec: MatchRecord) -> bool:
    old = _load_record(old_json)
    if old is None:
        return False
    a = old.model_dump(mode="json")
    b = rec.model_dump(mode="json")
    for d in (a, b):
        d.pop("app_version", None)
    return a == b


# -------------------------------------------------------------------------------------- salvage

_TABLES: Sequence[str] = (
    "matches",
    "match_data",
    "rounds",
    "round_yaku",
    "saved",
    "set_aside",
    "reviews",
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


# ------------------------------------------------------------------ clean and unclean shutdown

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


Kind = Literal["matches", "rounds"]


class PagedRows(Sequence[T]):
    """A read-only sequence over ``count`` rows fetched a page at a time (newest first).

    The ledger screen indexes it like a list, but only the pages it looks at are read, and at
    most :attr:`keep` pages are held: with 100,000 matches the screen holds a few hundred rows.
    """

    def __init__(self, count: int, fetch: Callable[[int, int], list[T]], *, page: int = 100):
        self._count = count
        self._fetch = fetch
        self._page = page
        self.keep = 6
        self._pages: dict[int, list[T]] = {}

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        number, offset = divmod(index, self._page)
        rows = self._pages.get(number)
        if rows is None:
            rows = self._fetch(number * self._page, self._page)
            if len(self._pages) >= self.keep:
                self._pages.pop(next(iter(self._pages)))
            self._pages[number] = rows
            self._fetched(number, rows)
        if offset >= len(rows):  # rows that failed the boundary were skipped: one less
            raise IndexError(index)
        return rows[offset]

    def _fetched(self, number: int, rows: list[T]) -> None:
        """A page shorter than the rows counted (damaged rows skipped): the sequence shrinks,
        and the other pages, which may have shifted, are read again."""
        expected = min(self._page, self._count - number * self._page)
        if len(rows) < expected:
            self._count -= expected - len(rows)
            self._pages = {number: rows}
