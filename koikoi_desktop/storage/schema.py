"""The ledger database's schema and row checks: the tables as each version makes them, the
migrations between versions, the SQL that says a row could have been written by the game, and the
one way to open a connection (whatever bytes the file holds, a read raises ``sqlite3.Error``,
classified here as damage or as a disk that refuses).

No pygame here. Decisions:

* **Schema version** is ``PRAGMA user_version`` (:data:`SCHEMA_VERSION`), migrated step by step in
  :data:`MIGRATIONS`. A database from a newer version is opened read-only by the repository
  (:mod:`.ledger_db`): it is shown, never written.
* **A dropped or altered table is damage** (:func:`_check_schema`), not a crash later: the file is
  set aside and rebuilt from what reads (:mod:`.integrity`).
* **Any bytes.** SQLite quotes damaged bytes of the file in its messages (a schema entry's name);
  every statement goes through :class:`_Cursor`, which turns the decoding error Python raises
  instead into SQLITE_CORRUPT, and text that is not UTF-8 reads with U+FFFD.
* **Row checks in SQL** (:data:`_CHECKS`): the aggregates over 100,000 matches skip a row the game
  could not have written without reading it into Python; the pydantic row models of
  :mod:`.models` check the rows a screen is shown.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import totals
from .cause import Cause, Refused

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


def _is_damage(exc: sqlite3.Error) -> bool:
    """True for SQLite's words for a damaged file ("database disk image is malformed"...)."""
    return isinstance(_classify(exc), DatabaseDamaged)


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


_TABLES: Sequence[str] = (
    "matches",
    "match_data",
    "rounds",
    "round_yaku",
    "saved",
    "set_aside",
    "reviews",
)
