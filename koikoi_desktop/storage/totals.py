"""The ledger's lifetime statistics: one definition of each, and the ``totals`` counters kept
from it.

No pygame here. What the statistics say, everything seen from the player's seat:

* Computer-vs-computer matches count for nothing. Practice matches are counted apart (counters
  with ``practice`` 1) and left out of every figure but ``practice_matches`` unless the player
  counts them in: undo and hints make them a different game.
* A match is won, lost or drawn; a drawn match counts in ``matches`` but is neither a win nor a
  loss (``Tally.win_rate`` is wins / matches). A match with no opponent level counts as
  "unknown".
* A round (each round number of a match once) is won by the player's seat, lost to the other
  seat, or drawn (no winner). "Won" / "lost" per unit: what was paid to the player in the
  rounds won, and by the player in the rounds lost.
* "Yaku made": the yaku of the rounds the player won.
* Koi-koi: only the rounds whose entry carries the calls count (older records, or rounds from
  before a Continue, may lack them): the player's calls, the rounds with at least one, those of
  them the player won, and the opponent's calls.
* "Best round": the round the player won with the highest ``final`` score; on a tie the earlier
  (by date, then in the order recorded). Coins and points are compared as they are.

Decisions (the *why*):

* **One definition, in SQL over the rows.** :data:`STATISTICS` says for each counter its group
  and key in ``totals``, the table it counts and its SQL aggregate; :data:`BEST` says which round
  is the best. Recording a match runs that same aggregate restricted to the new match
  (``match_id = ?``, through the tables' indexes on the id) and adds the result to the counters
  in the recording transaction (:func:`add_in_tx` of :func:`aggregate`); a rebuild (an upgrade,
  a repair, a mend) runs it over every row (:func:`rebuild_in_tx`); a ledger whose counters are
  not whole (one this copy cannot write) is read by running it too. Before, a match was added
  by a second definition in Python over its :class:`~.models.MatchRecord` beside the SQL of the
  rebuild, and only a test held the two together. SQL is the definition that has to exist (a
  rebuild over 100,000 matches reads the thin rows, not each match's JSON), and over one match
  it costs a fraction of a millisecond (``benchmarks/ledger_totals.py``).
* **The tests hold the counters to an oracle written differently on purpose**
  (``tests/storage/stats_oracle.py``: plain Python over the records), after random recorded
  matches, a rebuild and a salvage. It is not part of the game.
* **The ``totals`` rows are as schema version 2 wrote them** ((practice, group, key, value), the
  best round as key ``"<match id> <round>"`` with its final as value), so a ledger counted by an
  earlier version is read as it is. A value of NULL adds nothing (no counter row is written).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .stats import BestRound, KoikoiStats, LedgerStats, Tally

Table = Literal["matches", "rounds", "round_yaku"]

#: The rows of each table that count: those of a match the player played (not computer against
#: computer). ``rounds`` and ``round_yaku`` carry the flag and ``practice`` copied from the match.
COUNTED: dict[Table, str] = {
    "matches": "computer = 0",
    "rounds": "counted = 1",
    "round_yaku": "counted = 1",
}


@dataclass(frozen=True, slots=True)
class Statistic:
    """One counter of each practice flag: ``value`` (an SQL aggregate over the counted rows of
    ``table``; NULL adds nothing) stored as (``grp``, ``key``). With ``per`` (SQL over a row)
    there is one counter for each value of it, and that value is the key."""

    table: Table
    grp: str
    key: str
    value: str
    per: str = ""


_RESULTS = (
    ("matches", "COUNT(*)"),
    ("wins", "SUM(result = 'win')"),
    ("losses", "SUM(result = 'loss')"),
    ("draws", "SUM(result = 'draw')"),
)
_LEVEL = "CASE WHEN opponent_level = '' THEN 'unknown' ELSE opponent_level END"
_WON = "winner = player_seat"
_LOST = "winner = 1 - player_seat"
_MY_CALLS = "(CASE WHEN player_seat = 0 THEN koikoi0 ELSE koikoi1 END)"
_THEIR_CALLS = "(CASE WHEN player_seat = 0 THEN koikoi1 ELSE koikoi0 END)"

#: Every lifetime counter: the one definition of the statistics (the module docstring says it
#: in words).
STATISTICS: tuple[Statistic, ...] = (
    *(Statistic("matches", "overall", name, sql) for name, sql in _RESULTS),
    *(Statistic("matches", f"level:{name}", "", sql, per=_LEVEL) for name, sql in _RESULTS),
    *(Statistic("matches", f"preset:{name}", "", sql, per="preset") for name, sql in _RESULTS),
    Statistic("rounds", "rounds", "played", "COUNT(*)"),
    Statistic("rounds", "rounds", "won", f"SUM({_WON})"),
    Statistic("rounds", "rounds", "lost", f"SUM({_LOST})"),
    Statistic("rounds", "rounds", "drawn", "SUM(winner IS NULL)"),
    Statistic("rounds", "won", "", f"SUM(CASE WHEN {_WON} THEN paid END)", per="unit"),
    Statistic("rounds", "lost", "", f"SUM(CASE WHEN {_LOST} THEN paid END)", per="unit"),
    Statistic("rounds", "koikoi", "known", "SUM(koikoi0 IS NOT NULL)"),
    Statistic("rounds", "koikoi", "calls", f"SUM({_MY_CALLS})"),
    Statistic("rounds", "koikoi", "called", f"SUM({_MY_CALLS} > 0)"),
    Statistic("rounds", "koikoi", "won_after", f"SUM({_MY_CALLS} > 0 AND {_WON})"),
    Statistic("rounds", "koikoi", "opponent_calls", f"SUM({_THEIR_CALLS})"),
    Statistic("round_yaku", "yaku", "", "SUM(CASE WHEN mine = 1 THEN 1 END)", per="key"),
)

#: The best round of each practice flag among the counted rounds ``{where}`` selects:
#: (practice, final, match id, round).
BEST = (
    "SELECT practice, final, match_id, round FROM (SELECT practice, final, match_id, round, "
    "row_number() OVER (PARTITION BY practice ORDER BY final DESC, date ASC, rowid ASC) AS n "
    "FROM rounds WHERE {where} AND " + _WON + ") WHERE n = 1"
)

_TALLY = tuple(name for name, _ in _RESULTS)
_ROUNDS = ("played", "won", "lost", "drawn")
_KOIKOI = ("known", "calls", "called", "won_after", "opponent_calls")

#: The rows of a table that pass its checks (SQL), as the ledger defines them.
Checks = Mapping[Table, str]
#: (final, match id, round) of a best round.
BestKey = tuple[int, str, int]


@dataclass
class Counters:
    """The counters of one practice flag: (group, key) -> value, and the best round."""

    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    best: BestKey | None = None

    def add(self, grp: str, key: str, value: int) -> None:
        self.counts[(grp, key)] = self.counts.get((grp, key), 0) + value


# ------------------------------------------------------------------------------ counting by SQL


@dataclass(frozen=True, slots=True)
class Query:
    """The SQL that counts the statistics of one table. Each row it gives is (practice, the
    value of each of ``per``, the value of each of ``stats``): grouped by every ``per`` of the
    table at once (one scan), so the rows of a statistic with another key, or none, add up."""

    stats: tuple[Statistic, ...]
    per: tuple[str, ...]
    sql: str


def queries(checks: Checks, *, one_match: bool) -> list[Query]:
    """The queries that count :data:`STATISTICS`, one per table; ``one_match``: of the rows of
    the match ``?`` alone."""
    out = []
    for table in COUNTED:
        stats = tuple(stat for stat in STATISTICS if stat.table == table)
        per = tuple(dict.fromkeys(stat.per for stat in stats if stat.per))
        columns = ", ".join(("practice", *per, *(stat.value for stat in stats)))
        group = ", ".join(str(n) for n in range(1, len(per) + 2))
        sql = (
            f"SELECT {columns} FROM {table} "
            f"WHERE {_where(table, checks, one_match=one_match)} GROUP BY {group}"
        )
        out.append(Query(stats, per, sql))
    return out


def _where(table: Table, checks: Checks, *, one_match: bool) -> str:
    return f"{checks[table]} AND {COUNTED[table]}" + (" AND match_id = ?" if one_match else "")


def add_rows(into: Mapping[int, Counters], query: Query, rows: Iterable[tuple[Any, ...]]) -> None:
    """Add the rows of a :class:`Query` to the counters of their practice flag."""
    width = len(query.per)
    for practice, *columns in rows:
        names = dict(zip(query.per, columns[:width], strict=True))
        counters = into[int(practice)]
        for stat, value in zip(query.stats, columns[width:], strict=True):
            if value is not None:
                counters.add(stat.grp, str(names[stat.per]) if stat.per else stat.key, int(value))


def aggregate(
    conn: sqlite3.Connection, checks: Checks, match_id: str | None = None
) -> dict[int, Counters]:
    """The counters of each practice flag by SQL over every row that passes ``checks`` (or over
    the rows of the match ``match_id`` alone)."""
    out = {0: Counters(), 1: Counters()}
    one_match = match_id is not None
    args = () if match_id is None else (match_id,)
    for query in queries(checks, one_match=one_match):
        add_rows(out, query, conn.execute(query.sql, args))
    where = _where("rounds", checks, one_match=one_match)
    for practice, final, best_id, number in conn.execute(BEST.format(where=where), args):
        out[int(practice)].best = (int(final), str(best_id), int(number))
    return out


# --------------------------------------------------------------------------- the totals table


def add_in_tx(conn: sqlite3.Connection, counters: Mapping[int, Counters]) -> None:
    """Add counters to ``totals`` (in the caller's transaction); a better round replaces the
    best."""
    for practice, part in counters.items():
        conn.executemany(
            "INSERT INTO totals VALUES (?,?,?,?) ON CONFLICT (practice, grp, key) "
            "DO UPDATE SET value = value + excluded.value",
            [(practice, grp, key, v) for (grp, key), v in part.counts.items()],
        )
        if part.best is not None:
            _keep_best_in_tx(conn, practice, part.best)


def _keep_best_in_tx(conn: sqlite3.Connection, practice: int, best: BestKey) -> None:
    current = conn.execute(
        "SELECT rowid, key, value FROM totals WHERE practice = ? AND grp = 'best'", (practice,)
    ).fetchone()
    if current is not None:
        old = best_key(str(current[1]), int(current[2])) or (int(current[2]), "", 0)
        if best_of(conn, [old, best]) == old:
            return
        conn.execute("DELETE FROM totals WHERE rowid = ?", (current[0],))
    final, match_id, number = best
    conn.execute(
        "INSERT INTO totals VALUES (?, 'best', ?, ?)", (practice, f"{match_id} {number}", final)
    )


def place(into: Mapping[int, Counters], practice: int, grp: str, key: str, value: int) -> bool:
    """Place a row of ``totals`` (one its row model passed) in the counters; False when it can be
    no counter (a best round whose key names no round)."""
    counters = into.get(practice)
    if counters is None:  # the state row
        return True
    if grp != "best":
        counters.counts[(grp, key)] = value
        return True
    counters.best = best_key(key, value)
    return counters.best is not None


def best_key(key: str, final: int) -> BestKey | None:
    """The best round a ``totals`` row keeps as key ``"<match id> <round>"`` and value final."""
    match_id, _, number = key.rpartition(" ")
    return (final, match_id, int(number)) if number.isdigit() else None


def rebuild_in_tx(conn: sqlite3.Connection, checks: Checks) -> None:
    """The counters again from every row, marked whole (in the caller's transaction)."""
    conn.execute("DELETE FROM totals")
    add_in_tx(conn, aggregate(conn, checks))
    conn.execute("INSERT INTO totals VALUES (-1, 'state', 'ok', 1)")


def best_of(conn: sqlite3.Connection, candidates: Iterable[BestKey]) -> BestKey | None:
    """The best of these rounds: the highest final; on a tie the earlier round by date (the
    first given among equal dates)."""
    return min(candidates, key=lambda b: (-b[0], _round_date(conn, b[1], b[2])), default=None)


def _round_date(conn: sqlite3.Connection, match_id: str, number: int) -> str:
    row = conn.execute(
        "SELECT date FROM rounds WHERE match_id = ? AND round = ?", (match_id, number)
    ).fetchone()
    return str(row[0]) if row is not None else ""


# ------------------------------------------------------------------------ the statistics value


def ledger_stats(
    parts: Sequence[Counters], *, practice_matches: int, best: BestRound | None
) -> LedgerStats:
    """The statistics the counters of ``parts`` (one or both practice flags) say together."""
    c: dict[tuple[str, str], int] = {}
    for part in parts:
        for k, v in part.counts.items():
            c[k] = c.get(k, 0) + v
    rounds = [c.get(("rounds", k), 0) for k in _ROUNDS]
    return LedgerStats(
        overall=Tally(*(c.get(("overall", t), 0) for t in _TALLY)),
        practice_matches=practice_matches,
        by_level=_tallies(c, "level"),
        by_preset=_tallies(c, "preset"),
        rounds_played=rounds[0],
        rounds_won=rounds[1],
        rounds_lost=rounds[2],
        rounds_drawn=rounds[3],
        best_round=best,
        yaku_made=dict(sorted(_keyed(c, "yaku").items(), key=lambda kv: (-kv[1], kv[0]))),
        koikoi=KoikoiStats(*(c.get(("koikoi", k), 0) for k in _KOIKOI)),
        won_by_unit=_keyed(c, "won", zero=True),
        lost_by_unit=_keyed(c, "lost", zero=True),
    )


def _tallies(c: Mapping[tuple[str, str], int], grp: str) -> dict[str, Tally]:
    """Match results per value of a grouped statistic (level, preset), by name; a name with no
    match left out."""
    names = sorted(k for (g, k), n in c.items() if g == f"{grp}:matches" and n)
    return {n: Tally(*(c.get((f"{grp}:{t}", n), 0) for t in _TALLY)) for n in names}


def _keyed(c: Mapping[tuple[str, str], int], grp: str, *, zero: bool = False) -> dict[str, int]:
    """The counters of a group by key (in key order); zero ones only with ``zero``."""
    return {k: v for (g, k), v in sorted(c.items()) if g == grp and (v or zero)}
