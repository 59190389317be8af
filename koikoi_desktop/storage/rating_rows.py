"""The player's rating history in the ledger database: one row per rated match.

No pygame here. The ``ratings`` table is derived data, like the ``totals`` counters: a row is
written by the transaction that records its match (:func:`rate_in_tx`, called from
``LedgerDB._insert_match_in_tx``), so a match and its rating are on disk together or not at all,
and a match recorded twice (its id is already there) is rated once.

**The chain is in recording order.** Each rating starts from the one before it, so the order of
the chain is part of the figures. The order is the one the player lived: the order the matches
were recorded in this ledger (the ``rowid`` of ``matches``), not their dates (a clock set back,
a match finished on another machine and imported, or a match played across midnight in another
time zone would otherwise move a rating the player already saw). :func:`rate_in_tx` appends in
that order, and :func:`rebuild_in_tx` replays in that same order, so a rebuild gives the figures
the player saw (``tests/storage/test_rating.py`` holds the two equal on records with dates out of
order). An import appends its matches in the order of the file, as recorded now; a mend that
rebuilds a match from its record keeps the match's place (its ``rowid``).

**Whole in constant time.** The number of rows is kept as a fact beside the counters, the row
``(-1, 'state', 'rated')`` of ``totals``, added to by the transaction that writes a rating row,
so a clean start checks the table in a few reads (:func:`current`: its columns, the newest row's
checks, and its ``seq`` equal to that count) whatever the size of the ledger. The full check
(:func:`whole`: every row, and one row per rated match of the ledger) reads the whole table and
runs only when the whole file is checked (after an unclean shutdown, or a file another program
changed). A rebuild or a mend removes the fact first (:func:`mark_stale_in_tx`), so a kill in
between leaves a history the next start knows to rebuild.

A match is rated when the player played a computer level (``opponent_level`` one of the measured
levels; hot seat and computer-vs-computer matches are not) and it is not practice, and it
finished: played to its end or conceded (a loss). The level's measured rating is the opponent
(:func:`koikoi_desktop.ratings.level_ratings`), and the match counts for its length
(:func:`koikoi_desktop.ratings.match_weight`: the rounds played over 12; a conceded match
whole), read from the match's own row (``rounds``, ``ending``), so a rebuild weighs every match
as its recording did.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from koikoi_desktop.ratings import (
    MAX_RD,
    MIN_RD,
    RATING_BOUNDS,
    Rating,
    level_ratings,
    match_weight,
    rate_match,
)

from .models import MatchRecord, _stored_date

SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    seq INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL UNIQUE,
    date TEXT NOT NULL,
    level TEXT NOT NULL,
    score REAL NOT NULL,
    before REAL NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL
)
"""
_COLS = ("seq", "match_id", "date", "level", "score", "before", "rating", "rd", "volatility")
#: Endings that finish a match for the rating (a conceded match is a loss).
RATED_ENDINGS = ("completed", "conceded")
#: The checks a row passes (its SQL twin in :func:`_bad_rows`).
_LOW, _HIGH = RATING_BOUNDS  # what rate_match can write, and so what a row may hold
_GOOD = (
    "typeof(seq) = 'integer' AND typeof(match_id) = 'text' AND typeof(date) = 'text' "
    "AND typeof(level) = 'text' AND score IN (0.0, 0.5, 1.0) "
    f"AND typeof(before) = 'real' AND before BETWEEN {_LOW} AND {_HIGH} "
    f"AND typeof(rating) = 'real' AND rating BETWEEN {_LOW} AND {_HIGH} "
    f"AND typeof(rd) = 'real' AND rd BETWEEN {MIN_RD} AND {MAX_RD} "
    "AND typeof(volatility) = 'real' AND volatility > 0 AND volatility < 1"
)


class DamagedHistory(ValueError):
    """A row of the history passed the SQL checks but does not read (its date is garbage): the
    history is derived data, so the caller marks it stale and it is counted again."""


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """The player's rating after one rated match (``before``: just before it)."""

    match_id: str
    date: datetime
    level: str
    score: float
    before: float
    rating: float
    rd: float


def rated(rec: MatchRecord, *, computer: bool) -> bool:
    """Whether ``rec`` moves the player's rating."""
    return (
        not computer
        and not rec.computer
        and not rec.practice
        and rec.ending in RATED_ENDINGS
        and rec.opponent_level in level_ratings()
    )


def _score(result: str) -> float:
    return {"win": 1.0, "draw": 0.5}.get(result, 0.0)


def _latest(conn: sqlite3.Connection) -> Rating:
    row = conn.execute(
        "SELECT rating, rd, volatility FROM ratings ORDER BY seq DESC LIMIT 1"
    ).fetchone()
    return Rating() if row is None else Rating(float(row[0]), float(row[1]), float(row[2]))


_INSERT = (
    "INSERT OR IGNORE INTO ratings (match_id, date, level, score, before, rating, rd, "
    "volatility) VALUES (?,?,?,?,?,?,?,?)"
)
#: The row of ``totals`` that counts the rows of ``ratings`` (absent: the history is stale).
FACT = "practice = -1 AND grp = 'state' AND key = 'rated'"

Row = tuple[str, str, str, float, float, float, float, float]


def _rate(before: Rating, match_id: str, date: str, level: str, result: str, weight: float) -> Row:
    """The row of one match rated after ``before``, counted as ``weight`` of a game."""
    score = _score(result)
    after = rate_match(before, level_ratings()[level].opponent, score, weight)
    return (match_id, date, level, score, before.rating, after.rating, after.rd, after.volatility)


def rate_in_tx(conn: sqlite3.Connection, rec: MatchRecord, *, computer: bool, date: str) -> None:
    """Rate a match just inserted (inside the transaction that inserted it), after the newest
    row: the chain grows in recording order. The row count fact grows with it (while the
    history is stale there is no fact, and the rebuild to come writes the row again)."""
    if not rated(rec, computer=computer):
        return
    weight = match_weight(len(rec.rounds), conceded=rec.ending == "conceded")
    row = _rate(_latest(conn), rec.match_id, date, rec.opponent_level, rec.player_result, weight)
    if conn.execute(_INSERT, row).rowcount == 1:
        conn.execute(f"UPDATE totals SET value = value + 1 WHERE {FACT}")


def _rated_where(good_match: str) -> tuple[str, tuple[str, ...]]:
    """The SQL condition (with its parameters) of a rated row of ``matches``."""
    levels = sorted(level_ratings())
    marks = ",".join("?" * len(levels))
    endings = ",".join("?" * len(RATED_ENDINGS))
    return (
        f"{good_match} AND computer = 0 AND practice = 0 "
        f"AND ending IN ({endings}) AND opponent_level IN ({marks})",
        (*RATED_ENDINGS, *levels),
    )


def chain(conn: sqlite3.Connection, good_match: str) -> list[Row]:
    """The whole history computed again from the ledger's rated matches, in recording order
    (a read: :func:`write_in_tx` writes it). ``good_match`` is the SQL of a ``matches`` row
    that passes the boundary."""
    where, params = _rated_where(good_match)
    rows: list[Row] = []
    current = Rating()
    for match_id, date, level, result, rounds, ending in conn.execute(
        "SELECT match_id, date, opponent_level, result, rounds, ending "
        f"FROM matches WHERE {where} ORDER BY rowid",
        params,
    ):
        weight = match_weight(int(rounds), conceded=ending == "conceded")
        row = _rate(current, str(match_id), str(date), str(level), str(result), weight)
        rows.append(row)
        current = Rating(row[5], row[6], row[7])
    return rows


def write_in_tx(conn: sqlite3.Connection, rows: list[Row]) -> None:
    """Replace the history with ``rows`` (from :func:`chain`) and write its count fact."""
    conn.execute("DROP TABLE IF EXISTS ratings")
    conn.execute(SCHEMA)
    conn.executemany(_INSERT, rows)
    mark_stale_in_tx(conn)
    conn.execute("INSERT INTO totals VALUES (-1, 'state', 'rated', ?)", (len(rows),))


def rebuild_in_tx(conn: sqlite3.Connection, good_match: str) -> None:
    """The whole history again from the ledger's rated matches, in recording order."""
    write_in_tx(conn, chain(conn, good_match))


def mark_stale_in_tx(conn: sqlite3.Connection) -> None:
    """The history is about to change under a rebuild or a mend: without its count fact,
    :func:`current` says it must be rebuilt (also after a kill before the rebuild commits)."""
    conn.execute(f"DELETE FROM totals WHERE {FACT}")


def ensure_table_in_tx(conn: sqlite3.Connection) -> bool:
    """Give the ledger an empty ``ratings`` table when it has none, or one of another shape
    (what :func:`rate_in_tx` writes into), marked stale; True when it did."""
    if _shape_ok(conn):
        return False
    conn.execute("DROP TABLE IF EXISTS ratings")
    conn.execute(SCHEMA)
    mark_stale_in_tx(conn)
    return True


def _shape_ok(conn: sqlite3.Connection) -> bool:
    shape = [(str(r[1]), str(r[2]).upper()) for r in conn.execute("PRAGMA table_info(ratings)")]
    return shape == _SHAPE


def current(conn: sqlite3.Connection) -> bool:
    """Whether the history is whole, in a few reads whatever the size of the ledger: the table
    has its columns, its newest row passes its checks, and that row's ``seq`` is the count of
    rows kept with the counters (see the module docstring)."""
    if not _shape_ok(conn):
        return False
    fact = conn.execute(f"SELECT value FROM totals WHERE {FACT}").fetchone()
    if fact is None or not isinstance(fact[0], int):
        return False
    last = conn.execute(f"SELECT seq, {_GOOD} FROM ratings ORDER BY seq DESC LIMIT 1").fetchone()
    if last is None:
        return fact[0] == 0
    return bool(last[1]) and last[0] == fact[0]


_SHAPE = [
    ("seq", "INTEGER"),
    ("match_id", "TEXT"),
    ("date", "TEXT"),
    ("level", "TEXT"),
    ("score", "REAL"),
    ("before", "REAL"),
    ("rating", "REAL"),
    ("rd", "REAL"),
    ("volatility", "REAL"),
]


def whole(conn: sqlite3.Connection, good_match: str) -> bool:
    """:func:`current`, and every row passes its checks, and the table has one row per rated
    match of the ledger (a read of the whole table: only when the whole file is checked)."""
    if not current(conn):
        return False
    bad = conn.execute(f"SELECT 1 FROM ratings WHERE NOT ({_GOOD}) LIMIT 1").fetchone()
    if bad is not None:
        return False
    # one row per rated match: counted, and every rating's match is a rated one
    where, params = _rated_where(good_match)
    want = conn.execute(f"SELECT COUNT(*) FROM matches WHERE {where}", params).fetchone()[0]
    plain, _ = _rated_where("1")  # the rated columns only (cheap: no boundary checks)
    have = conn.execute(
        f"SELECT COUNT(*) FROM ratings JOIN matches USING (match_id) WHERE {plain}", params
    ).fetchone()[0]
    total = conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    return int(want) == int(have) == int(total)


def _has_table(conn: sqlite3.Connection) -> bool:
    """Whether the ledger has its ratings table (a read-only ledger of an older version has
    none, and cannot be given one)."""
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ratings'"
    ).fetchone()
    return found is not None


def history(conn: sqlite3.Connection, limit: int) -> list[RatingPoint]:
    """The newest ``limit`` points, oldest first (none when the table is not there: a read-only
    ledger from before ratings). Any other database error is the caller's to handle."""
    if not _has_table(conn):
        return []
    rows = conn.execute(
        f"SELECT {', '.join(_COLS)} FROM ratings WHERE {_GOOD} ORDER BY seq DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return [_point(r) for r in reversed(rows)]


def _point(row: Any) -> RatingPoint:
    """A row that passed :data:`_GOOD` as a point; raises :class:`DamagedHistory` when its date
    does not read."""
    try:
        date = _stored_date(row[2])
    except ValueError:
        raise DamagedHistory(f"the rating of {str(row[1])[:64]!r} has no date") from None
    return RatingPoint(
        match_id=str(row[1]),
        date=date,
        level=str(row[3]),
        score=float(row[4]),
        before=float(row[5]),
        rating=float(row[6]),
        rd=float(row[7]),
    )


def of_match(conn: sqlite3.Connection, match_id: str) -> RatingPoint | None:
    """The rating point a match made (None: not rated, not recorded, or no table)."""
    if not _has_table(conn):
        return None
    row = conn.execute(
        f"SELECT {', '.join(_COLS)} FROM ratings WHERE match_id = ? AND {_GOOD}",
        (match_id,),
    ).fetchone()
    return None if row is None else _point(row)
