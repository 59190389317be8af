"""The ledger's repository: the matches, the saved matches and the reviews in one SQLite database
(``koikoi.sqlite3``), read and written.

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
* **Schema and integrity elsewhere.** The tables, their migrations and the SQL row checks are
  :mod:`.schema`'s; when a start checks the whole file, how a damaged one is set aside and
  rebuilt, and the marker files beside it are :mod:`.integrity`'s. This module is the repository:
  the queries and the writes, the mend of damaged rows and the count of derived data.
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
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

from pydantic import ValidationError

from . import from_record, rating_rows, totals
from .cause import Cause, Refused
from .models import (
    DataRow,
    MatchRecord,
    ReviewRow,
    SavedRow,
    SummaryRow,
    TotalsRow,
    _stored_date,
)
from .schema import (
    _AMOUNT,
    _CHECKS,
    _GOOD_MATCH,
    _GOOD_YAKU,
    _INDEXES,
    _MATCH_COLS,
    _SAVED_COLS,
    _TOTALS_COLS,
    BUSY_TIMEOUT_S,
    SCHEMA_VERSION,
    WAL_LIMIT,
    DatabaseDamaged,
    _check_schema,
    _classify,
    _connect,
    _good_match,
    _is_damage,
    _migrate,
    _quick_check,
    _refused_or_raise,
    _user_version,
)
from .schema import _expected_schema as _expected_schema  # the hostile-folder test reads it here
from .stats import BestRound, LedgerStats, MatchSummary

T = TypeVar("T")


#: What :meth:`LedgerDB.recount` reads before it writes: the counters of each practice flag,
#: the rating history (None: not asked for).
_Counted = tuple[dict[int, totals.Counters] | None, list[rating_rows.Row] | None]


#: An import counts this many matches into the statistics as it adds them; past that, they
#: are counted once, all together, after it (see :meth:`LedgerDB.import_records`).
COUNT_AT_ONCE = 200


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
        else:  # the state rows alone (two reads): a damaged one is damage, not just "stale"
            self._note_bad_totals(state_only=True)
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

    def _note_bad_totals(self, *, state_only: bool = False) -> bool:
        """Note the counter rows that fail the boundary (:meth:`mend` keeps them aside and
        counts again), or with ``state_only`` the state rows alone; True when there were any."""
        where = " WHERE practice = -1 AND grp = 'state'" if state_only else ""
        for rowid, *values in self.conn.execute(
            "SELECT rowid, practice, grp, key, value FROM totals" + where
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
        keyed = (
            (rec, text, from_record.identity(text) if by_content else None) for rec, text in records
        )
        return self.import_identified(keyed, source=source, by_content=by_content)

    def import_identified(
        self,
        records: Iterable[tuple[MatchRecord, str | None, str | None]],
        *,
        source: str,
        by_content: bool = True,
    ) -> tuple[int, int, int]:
        """:meth:`import_records` of matches whose content identity was worked out already
        (an import's workers do it beside the replay: :func:`.from_record.verdicts`), as
        (record, record text, identity or None)."""
        self._writable()
        added = same = conflicts = 0
        with self._transaction():
            known = self._identities() if by_content else set()
            for rec, text, key in records:
                if key is not None and key in known:
                    same += 1
                    continue
                old = self.conn.execute(
                    "SELECT data FROM match_data WHERE match_id = ?", (rec.match_id,)
                ).fetchone()
                if key is not None:
                    known.add(key)
                if old is None:
                    self._insert_match_in_tx(rec, text, count=added < COUNT_AT_ONCE)
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
        self,
        rec: MatchRecord,
        text: str | None,
        *,
        computer: bool = False,
        data: bool = True,
        count: bool = True,
    ) -> bool:
        """Insert a match and its rounds unless its id is taken; True when inserted.

        The record keeps the computer flag (``rec.computer``), so that a salvage or an import
        rebuilds the match as it was. ``data=False``: its ``match_data`` row is already there.
        ``count=False``: the counters are not whole (a large import counts them all after).
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
        if count:
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

    def save_review(self, match_id: str, data: str) -> int:
        """Cache a match review (JSON text) with its match; how many rows were kept aside (1:
        the cached review it replaces was noted damaged by a read, and is kept in
        ``set_aside`` as :meth:`mend` would have kept it, not replaced in silence)."""
        self._writable()
        kept = 0
        with self._transaction():
            old = self.conn.execute(
                "SELECT rowid FROM reviews WHERE match_id = ?", (match_id,)
            ).fetchone()
            noted = None if old is None else ("reviews", int(old[0]))
            values = None if noted not in self.damaged else _row_dict(self.conn, *noted)
            if values is not None:
                self._aside_in_tx(
                    "damaged_reviews", match_id, "a damaged row of reviews", _payload(values)
                )
                kept = 1
            self.conn.execute(
                "INSERT OR REPLACE INTO reviews (match_id, data) VALUES (?, ?)", (match_id, data)
            )
        if noted is not None:
            self.damaged.discard(noted)
        self.set_aside_now += kept
        return kept

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
            # read first: a damaged counter may be the state row deleted just below, and it is
            # still kept aside (with its line), not lost in silence
            found = [(table, rowid, _row_dict(self.conn, table, rowid)) for table, rowid in todo]
            if derived:  # first: the matches rebuilt below are then counted by the recount
                self.conn.execute(
                    "DELETE FROM totals WHERE practice = -1 AND grp = 'state' AND key = 'ok'"
                )
                rating_rows.mark_stale_in_tx(self.conn)
            for table, rowid, values in found:
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
