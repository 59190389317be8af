"""The player's rating history in the ledger database: one row per rated match.

No pygame here. The ``ratings`` table is derived data, like the ``totals`` counters: a row is
written by the transaction that records its match (:func:`rate_in_tx`, called from
``LedgerDB._insert_match_in_tx``), so a match and its rating are on disk together or not at all,
and a match recorded twice (its id is already there) is rated once. When the table is missing,
altered, holds a row that fails its checks, or does not have one row per rated match, it is
rebuilt from the ledger (:func:`rebuild_in_tx`: every rated match again, oldest first), as it is
after an import, a mend or a salvage (older matches may have arrived).

A match is rated when the player played a computer level (``opponent_level`` one of the measured
levels; hot seat and computer-vs-computer matches are not) and it is not practice, and it
finished: played to its end or conceded (a loss). The level's measured rating is the opponent
(:func:`koikoi_desktop.ratings.level_ratings`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from koikoi_desktop.ratings import MAX_RD, MIN_RD, RATING_BOUNDS, Rating, level_ratings, rate_match

from .models import MatchRecord

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


def _insert(
    conn: sqlite3.Connection,
    match_id: str,
    date: str,
    level: str,
    result: str,
    before: Rating | None = None,
) -> Rating:
    """Rate one match after ``before`` (the newest row when None); returns the new rating."""
    before = before or _latest(conn)
    score = _score(result)
    after = rate_match(before, level_ratings()[level].opponent, score)
    conn.execute(
        "INSERT OR IGNORE INTO ratings (match_id, date, level, score, before, rating, rd, "
        "volatility) VALUES (?,?,?,?,?,?,?,?)",
        (match_id, date, level, score, before.rating, after.rating, after.rd, after.volatility),
    )
    return after


def rate_in_tx(conn: sqlite3.Connection, rec: MatchRecord, *, computer: bool, date: str) -> None:
    """Rate a match just inserted (inside the transaction that inserted it)."""
    if rated(rec, computer=computer):
        _insert(conn, rec.match_id, date, rec.opponent_level, rec.player_result)


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


def _rated_matches(conn: sqlite3.Connection, good_match: str) -> list[tuple[str, str, str, str]]:
    where, params = _rated_where(good_match)
    rows = conn.execute(
        "SELECT match_id, date, opponent_level, result FROM matches "
        f"WHERE {where} ORDER BY date, match_id",
        params,
    ).fetchall()
    return [(str(a), str(b), str(c), str(d)) for a, b, c, d in rows]


def rebuild_in_tx(conn: sqlite3.Connection, good_match: str) -> None:
    """The whole history again from the ledger's rated matches, oldest first."""
    conn.execute("DROP TABLE IF EXISTS ratings")
    conn.execute(SCHEMA)
    current = Rating()
    for match_id, date, level, result in _rated_matches(conn, good_match):
        current = _insert(conn, match_id, date, level, result, current)


def whole(conn: sqlite3.Connection, good_match: str) -> bool:
    """The table is there with its columns, every row passes its checks, and it has one row per
    rated match of the ledger."""
    shape = [(str(r[1]), str(r[2]).upper()) for r in conn.execute("PRAGMA table_info(ratings)")]
    want = [
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
    if shape != want:
        return False
    bad = conn.execute(f"SELECT 1 FROM ratings WHERE NOT ({_GOOD}) LIMIT 1").fetchone()
    if bad is not None:
        return False
    # one row per rated match: counted, and every rating's match is a rated one (the order is
    # the recording's, or a rebuild's after an import or a mend)
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
    return [
        RatingPoint(
            match_id=str(r[1]),
            date=datetime.fromisoformat(str(r[2])),
            level=str(r[3]),
            score=float(r[4]),
            before=float(r[5]),
            rating=float(r[6]),
            rd=float(r[7]),
        )
        for r in reversed(rows)
    ]


def of_match(conn: sqlite3.Connection, match_id: str) -> RatingPoint | None:
    """The rating point a match made (None: not rated, not recorded, or no table)."""
    if not _has_table(conn):
        return None
    row = conn.execute(
        f"SELECT {', '.join(_COLS)} FROM ratings WHERE match_id = ? AND {_GOOD}",
        (match_id,),
    ).fetchone()
    if row is None:
        return None
    return RatingPoint(
        match_id=str(row[1]),
        date=datetime.fromisoformat(str(row[2])),
        level=str(row[3]),
        score=float(row[4]),
        before=float(row[5]),
        rating=float(row[6]),
        rd=float(row[7]),
    )
