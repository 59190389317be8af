"""The ledger's lifetime statistics defined a second time, for the tests only: the oracle.

The game has one definition of its statistics, in SQL (``koikoi_desktop/storage/totals.py``),
used both when a match is recorded and when the counters are rebuilt. This is the same meaning
written again *differently on purpose*: plain Python over the :class:`MatchRecord` values, from
the words of that module's docstring and not from its SQL, so that a mistake in the SQL does not
repeat here. The tests hold the game's figures to it after random recorded matches (practice,
computer against computer, hot seat), after a rebuild of the counters and after a salvage.

Records are taken as the engine writes them (each round number once in a match) and in the order
they were recorded (the order of the best round's tie-break after the date).

>>> compute_stats([]).overall.win_rate is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from koikoi_desktop.storage.models import MatchRecord, RoundEntry
from koikoi_desktop.storage.stats import BestRound, KoikoiStats, LedgerStats, Tally


def _tally(records: list[MatchRecord]) -> Tally:
    results = Counter(r.player_result for r in records)
    return Tally(len(records), results["win"], results["loss"], results["draw"])


def _grouped(records: list[MatchRecord], name: str) -> dict[str, Tally]:
    groups: dict[str, list[MatchRecord]] = {}
    for r in records:
        key = (r.opponent_level or "unknown") if name == "level" else r.preset
        groups.setdefault(key, []).append(r)
    return {key: _tally(groups[key]) for key in sorted(groups)}


def _paid(rounds: list[tuple[MatchRecord, RoundEntry]]) -> dict[str, int]:
    units = sorted({r.unit for r, _ in rounds})
    return {u: sum(e.paid for r, e in rounds if r.unit == u) for u in units}


def _best(won: list[tuple[MatchRecord, RoundEntry]]) -> BestRound | None:
    if not won:
        return None
    order = sorted(range(len(won)), key=lambda i: (-won[i][1].final, won[i][0].date, i))
    rec, e = won[order[0]]
    return BestRound(
        match_id=rec.match_id,
        date=rec.date,
        preset=rec.preset,
        unit=rec.unit,
        opponent_name=rec.opponent_name,
        round=e.round,
        base=e.base,
        final=e.final,
        paid=e.paid,
        yaku=tuple(y.key for y in e.yaku),
    )


def compute_stats(records: Iterable[MatchRecord], *, include_practice: bool = False) -> LedgerStats:
    """What the statistics of these recorded matches must be (see the module docstring)."""
    played = [r for r in records if not r.computer]
    counted = [r for r in played if include_practice or not r.practice]
    rounds = [(r, e) for r in counted for e in r.rounds]
    won = [(r, e) for r, e in rounds if e.winner == r.player_seat]
    lost = [(r, e) for r, e in rounds if e.winner == 1 - r.player_seat]
    known = [(r, e.koikoi_calls) for r, e in rounds if e.koikoi_calls is not None]
    mine = [calls[r.player_seat] for r, calls in known]
    won_after = [
        e for r, e in won if e.koikoi_calls is not None and e.koikoi_calls[r.player_seat] > 0
    ]
    yaku = Counter(y.key for _, e in won for y in e.yaku)
    return LedgerStats(
        overall=_tally(counted),
        practice_matches=sum(1 for r in played if r.practice),
        by_level=_grouped(counted, "level"),
        by_preset=_grouped(counted, "preset"),
        rounds_played=len(rounds),
        rounds_won=len(won),
        rounds_lost=len(lost),
        rounds_drawn=sum(1 for _, e in rounds if e.winner is None),
        best_round=_best(won),
        yaku_made=dict(sorted(yaku.items(), key=lambda kv: (-kv[1], kv[0]))),
        koikoi=KoikoiStats(
            rounds_known=len(known),
            calls=sum(mine),
            rounds_called=sum(1 for n in mine if n > 0),
            rounds_won_after_call=len(won_after),
            opponent_calls=sum(calls[1 - r.player_seat] for r, calls in known),
        ),
        won_by_unit=_paid(won),
        lost_by_unit=_paid(lost),
    )
