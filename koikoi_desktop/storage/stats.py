"""Lifetime statistics of the coin ledger, for the ledger screen (no pygame, no files).

Everything is seen from the player's seat (``MatchRecord.player_seat``). Decisions:

* Practice matches are counted (``practice_matches``) but left out of every other figure unless
  ``include_practice=True``: undo and hints make them a different game.
* A drawn match counts in ``matches`` but is neither a win nor a loss; ``win_rate`` is
  wins / matches (a draw lowers it, as it does on any scoreboard), None with no matches.
* "Best round" is the round the player won with the highest ``final`` score (the earliest on a
  tie); coins and points are compared as they are (both are the round's score).
* "Yaku made" counts the yaku of rounds the player won (the ledger lists the winner's yaku).
* Koi-koi success: of the rounds in which the player called koi-koi at least once, the share the
  player went on to win. Only rounds whose entry carries ``koikoi_calls`` count (older records or
  rounds from before a Continue may lack it).

>>> from koikoi_desktop.storage.models import MatchRecord
>>> compute_stats([]).overall.win_rate is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from .models import MatchRecord


@dataclass(frozen=True, slots=True)
class Tally:
    """Match results of one group (all matches, one opponent level, one preset)."""

    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def win_rate(self) -> float | None:
        """wins / matches, None when there are no matches."""
        return self.wins / self.matches if self.matches else None

    def add(self, result: Literal["win", "loss", "draw"]) -> Tally:
        return Tally(
            self.matches + 1,
            self.wins + (result == "win"),
            self.losses + (result == "loss"),
            self.draws + (result == "draw"),
        )


@dataclass(frozen=True, slots=True)
class BestRound:
    """The player's best round: its match, number, score and yaku."""

    match_id: str
    date: datetime
    preset: str
    unit: str
    opponent_name: str
    round: int
    base: int
    final: int
    paid: int
    yaku: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KoikoiStats:
    """The player's koi-koi calls and how often a round with a call was won."""

    rounds_known: int = 0  # rounds whose entries carry koikoi_calls
    calls: int = 0
    rounds_called: int = 0
    rounds_won_after_call: int = 0
    opponent_calls: int = 0

    @property
    def success_rate(self) -> float | None:
        return self.rounds_won_after_call / self.rounds_called if self.rounds_called else None


@dataclass(frozen=True, slots=True)
class LedgerStats:
    """Everything the ledger screen's statistics panel shows."""

    overall: Tally
    practice_matches: int
    by_level: dict[str, Tally]
    by_preset: dict[str, Tally]
    rounds_played: int
    rounds_won: int
    rounds_lost: int
    rounds_drawn: int
    best_round: BestRound | None
    #: yaku key -> times made, most made first (then by key).
    yaku_made: dict[str, int]
    koikoi: KoikoiStats
    #: unit -> total paid to the player in rounds won / paid by the player in rounds lost.
    won_by_unit: dict[str, int] = field(default_factory=dict)
    lost_by_unit: dict[str, int] = field(default_factory=dict)


def compute_stats(records: Iterable[MatchRecord], *, include_practice: bool = False) -> LedgerStats:
    """Lifetime statistics over ``records`` (see the module docstring for the definitions)."""
    overall = Tally()
    practice = 0
    by_level: dict[str, Tally] = {}
    by_preset: dict[str, Tally] = {}
    rounds = won = lost = drawn = 0
    best: BestRound | None = None
    yaku: Counter[str] = Counter()
    k_known = k_calls = k_rounds = k_won = k_opp = 0
    won_units: Counter[str] = Counter()
    lost_units: Counter[str] = Counter()
    for rec in records:
        if rec.practice:
            practice += 1
            if not include_practice:
                continue
        result = rec.player_result
        overall = overall.add(result)
        level = rec.opponent_level or "unknown"
        by_level[level] = by_level.get(level, Tally()).add(result)
        by_preset[rec.preset] = by_preset.get(rec.preset, Tally()).add(result)
        me = rec.player_seat
        for entry in rec.rounds:
            rounds += 1
            if entry.winner is None:
                drawn += 1
            elif entry.winner == me:
                won += 1
                won_units[rec.unit] += entry.paid
                yaku.update(y.key for y in entry.yaku)
                if best is None or entry.final > best.final:
                    best = BestRound(
                        match_id=rec.match_id,
                        date=rec.date,
                        preset=rec.preset,
                        unit=rec.unit,
                        opponent_name=rec.opponent_name,
                        round=entry.round,
                        base=entry.base,
                        final=entry.final,
                        paid=entry.paid,
                        yaku=tuple(y.key for y in entry.yaku),
                    )
            else:
                lost += 1
                lost_units[rec.unit] += entry.paid
            if entry.koikoi_calls is not None:
                k_known += 1
                mine, theirs = entry.koikoi_calls[me], entry.koikoi_calls[1 - me]
                k_calls += mine
                k_opp += theirs
                if mine:
                    k_rounds += 1
                    k_won += entry.winner == me
    return LedgerStats(
        overall=overall,
        practice_matches=practice,
        by_level=dict(sorted(by_level.items())),
        by_preset=dict(sorted(by_preset.items())),
        rounds_played=rounds,
        rounds_won=won,
        rounds_lost=lost,
        rounds_drawn=drawn,
        best_round=best,
        yaku_made=dict(sorted(yaku.items(), key=lambda kv: (-kv[1], kv[0]))),
        koikoi=KoikoiStats(k_known, k_calls, k_rounds, k_won, k_opp),
        won_by_unit=dict(won_units),
        lost_by_unit=dict(lost_units),
    )


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One line of the ledger screen's match list."""

    match_id: str
    date: datetime
    preset: str
    custom: bool
    unit: str
    opponent_name: str
    opponent_level: str
    practice: bool
    result: Literal["win", "loss", "draw"]
    player_total: int
    opponent_total: int
    rounds: int
    ending: str
    help_level: str | None = None


def summarize(rec: MatchRecord) -> MatchSummary:
    """The list line of a match: result and both totals from the player's seat."""
    me = rec.player_seat
    return MatchSummary(
        match_id=rec.match_id,
        date=rec.date,
        preset=rec.preset,
        custom=bool(rec.options),
        unit=rec.unit,
        opponent_name=rec.opponent_name,
        opponent_level=rec.opponent_level,
        practice=rec.practice,
        result=rec.player_result,
        player_total=rec.final_balances[me],
        opponent_total=rec.final_balances[1 - me],
        rounds=len(rec.rounds),
        ending=rec.ending,
        help_level=rec.help_level,
    )


def newest_first(records: Sequence[MatchRecord]) -> list[MatchRecord]:
    """The records newest first (by date; among equal dates, the later recorded first)."""
    order = sorted(range(len(records)), key=lambda i: (records[i].date, i), reverse=True)
    return [records[i] for i in order]
