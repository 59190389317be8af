"""The values the ledger screen shows: the lifetime statistics and a line of the match list
(no pygame, no files).

What each statistic means, and its one definition, is in :mod:`.totals`; these are the values
it gives. ``win_rate`` is wins / matches (a draw lowers it, as on any scoreboard), None with no
matches; the koi-koi ``success_rate`` is the share of the rounds with a call that the player
won.

>>> LedgerStats.empty().overall.win_rate is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
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

    @classmethod
    def empty(cls) -> LedgerStats:
        """The statistics of a ledger without matches (or one that cannot be read)."""
        return cls(Tally(), 0, {}, {}, 0, 0, 0, 0, None, {}, KoikoiStats())


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
