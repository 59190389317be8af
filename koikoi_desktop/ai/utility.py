"""The match goal, written once: what a round's result is worth to the seat that decides.

A round result is counted from the deciding seat: ``+final`` when it wins the round scoring
``final``, ``-final`` when the opponent does, ``0`` when nobody scores. :class:`MatchGoal` turns it
into a value for the match the seat is in (an engine :class:`MatchContext`: the balances, rounds
played and the match rules), asking the engine how the round would settle and whether the match
would then end (``MatchContext.after``: RULES.md §11, §12), so no rule is written twice:

* a fixed number of rounds (``nintendo``, ``seed-003``, ``seed-000``'s length): win the match first
  (the higher total after the last round; equal totals are a draw, or one more round under
  ``final_tie = extra_round``), then the margin;
* a race to a target (``seed-001``, first to 50): reach the target first, then the margin;
* coins (``seed-000``): the coins as they are settled — the loser pays at most what he has, so a
  big round against a short purse gains only the purse — and a round that empties a purse ends
  the match at once (bankruptcy): won or lost, with no rounds left to make it up.

The value is ``W × (P(after) − P(now)) + MARGIN × (change of the lead)``, divided by how much one
point moves the lead (2 where the loser pays, 1 where only the winner scores), so it reads in
round points. ``P`` is the chance of winning the match (a draw counts half): exact (1, ½ or 0)
when the engine says the round ends the match; otherwise a normal approximation — the lead over
the spread of the rounds still to come (``ROUND_SD`` per round), or in a race, the distance each
player still has to the target over the spread of the rounds the race should last. ``W`` is that
spread × √(2π) (so a point is worth about one point in an even match with many rounds to go),
but at least ``MATCH_FLOOR``: when few rounds are left, the match outweighs the margin. Without a
match (``context`` None: a lone round) the value is the round result itself.

Where the rules have one (a fixed number of rounds without bankruptcy, in a family whose table
was learned: ``nintendo``, ``seed-003``), ``P`` is read from the learned match-equity table
(``equity``, issue 44: measured in self-play, exact in the last rounds where the normal
approximation is furthest off — one round left and 2 behind is 0.33, not 0.40 — and holding
the dealer's edge); the normal approximation serves the races, the coins and custom settlements.
With the round's ``dealer`` known, :meth:`MatchGoal.settled` reads the table at the next deal
the result makes (R-SETUP-3), and :meth:`MatchGoal.win_chance` too.

Given the round's ``dealer`` and a ``deal_edge`` (what the dealer of a round expects over his
opponent, in round points), :meth:`MatchGoal.settled` also counts who deals the next round
(R-SETUP-3, asked of the engine's ``next_dealer``) in a round that has ended, while
:meth:`MatchGoal.value` of an estimate leaves the deal open. The Expert has it as an arena
option, off (``Expert.deal_edge``: measured too small to move its play).

:func:`match_point` names the decisions whose answer is certain — stopping now wins the match,
or stopping now ends it lost while a koi-koi can still win it — and :func:`certain_decision`
answers them; the Intermediate and the Expert ask it first, and the arena counts the decisions
that went against it (``arena.thrown_decision``).

>>> from koikoi_desktop.engine import PRESETS, MatchContext
>>> goal = MatchGoal(MatchContext(0, (30, 36), 11, PRESETS["nintendo"]))  # last round, 6 behind
>>> goal.result_if(6), goal.result_if(7), goal.result_if(-1)
(0, 1, -1)
>>> [round(goal.value(x) - goal.value(x - 1), 1) for x in (5, 6, 7, 8)]  # a draw, then the match
[0.1, 20.1, 20.1, 0.1]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

from koikoi_desktop.engine import PRESETS, Action, MatchContext, PlayerView
from koikoi_desktop.engine.actions import KOIKOI, STOP
from koikoi_desktop.engine.cards import FULL_MASK
from koikoi_desktop.engine.match import next_dealer
from koikoi_desktop.engine.yaku import payout, scorer_for

from .base import Reason, ReasonKey
from .equity import EquityTable, equity_table

#: Spread (standard deviation) of one round's result, in the preset's unit, for the chance of
#: winning, keyed by the preset a rule set is based on (one based on none of them takes the
#: ``nintendo`` figure). Measured in Intermediate self-play with the match context (``python
#: benchmarks/round_spread.py --matches 400 --seed 1``: a round's spread 8.2 / 26.0 / 5.1 / 7.2,
#: a match's lead over √rounds 8.6 / 59.4 / 6.0 / 14.2, where a round paid by the loser moves
#: the lead twice its points, for nintendo / seed-000 / seed-001 / seed-003) and chosen
#: where the chance after each round predicts how the matches ended best (the lowest Brier score
#: of the spreads × 0.75-1.5); the former single figure, 6, was too small for every preset.
ROUND_SD: Mapping[str, float] = MappingProxyType(
    {"nintendo": 8.0, "seed-000": 20.0, "seed-001": 6.0, "seed-003": 7.3}
)
#: Points a player adds in an average round of a race (half the mean size of a round's result;
#: measured by the same benchmark in ``seed-001``, the race to 50: 2.03).
RACE_PACE = 2.0
#: The least weight of the match result, in round points (a sure win of the match from even).
MATCH_FLOOR = 40.0
#: Weight of one point of lead once the match result is counted.
MARGIN = 0.1


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class MatchGoal:
    """The value of a round's result to ``context.seat`` (see the module docstring)."""

    def __init__(
        self,
        context: MatchContext | None,
        *,
        dealer: int | None = None,
        deal_edge: float = 0.0,
    ) -> None:
        self.context = context
        self.dealer = dealer
        self.deal_edge = deal_edge if dealer is not None else 0.0
        self._memo: dict[int, float] = {}
        self._dealt_memo: dict[int, float] = {}
        self.per_point = 1.0
        self.spread = ROUND_SD["nintendo"]
        self.weight = 0.0
        if context is not None:
            self.per_point = 1.0 if context.rules.settlement == "winner_only" else 2.0
            per_round = ROUND_SD.get(context.rules.based_on, ROUND_SD["nintendo"])
            self.spread = per_round * self.per_point
            sigma = self._sigma(context.balances, context.rounds_left or 0)
            self.weight = max(sigma * math.sqrt(2.0 * math.pi), MATCH_FLOOR * self.per_point)
        self.table = _table_for(context)

    # ------------------------------------------------------------------ the chance of winning
    def _sigma(self, bal: tuple[int, int], rounds: int) -> float:
        """Spread of the lead over what is left of the match."""
        ctx = self.context
        assert ctx is not None
        if ctx.target is not None:
            me, opp = bal[ctx.seat], bal[1 - ctx.seat]
            to_go = max(1.0, min(ctx.target - me, ctx.target - opp) / RACE_PACE)
            return self.spread * math.sqrt(to_go)
        return self.spread * math.sqrt(rounds)

    def _chance(
        self,
        bal: tuple[int, int],
        winner: int | None,
        *,
        continuing: bool,
        shift: float = 0.0,
        deal_next: bool | None = None,
    ) -> float:
        """P(win the match) with balances ``bal`` before the next round (draw = ½); ``winner``
        is the match winner when it has ended (``continuing`` False); ``deal_next``: whether
        the deciding seat deals the next round (None: not known). The learned table where the
        rules have one (``equity``), else the normal spread."""
        ctx = self.context
        assert ctx is not None
        if not continuing:
            return 0.5 if winner is None else (1.0 if winner == ctx.seat else 0.0)
        me, opp = bal[ctx.seat], bal[1 - ctx.seat]
        rounds = max(1, ctx.rounds_left or 0)
        if self.table is not None and self.table.covers(rounds):
            return self.table.chance(lead=me - opp, rounds_left=rounds, deal_next=deal_next)
        if ctx.target is not None:
            sigma = self._sigma(bal, 1)
            return _phi(((ctx.target - opp) - (ctx.target - me) + shift) / sigma)
        sigma = self._sigma(bal, rounds)
        return _phi((me - opp + shift) / sigma)

    # ------------------------------------------------------------------ results
    def after(self, points: int) -> tuple[tuple[int, int], int | None, bool]:
        """(balances, match winner, match over) if the current round's result is ``points``."""
        ctx = self.context
        assert ctx is not None
        seat = ctx.seat
        winner = None if points == 0 else (seat if points > 0 else 1 - seat)
        bal, end = ctx.after(winner, abs(points))
        return bal, (end.winner if end is not None else None), end is not None

    def result_if(self, points: int) -> int | None:
        """+1 (match won), 0 (drawn) or −1 (lost) when a round result of ``points`` ends the
        match; None when the match goes on (or there is no match)."""
        if self.context is None:
            return None
        _, winner, over = self.after(points)
        if not over:
            return None
        return 0 if winner is None else (1 if winner == self.context.seat else -1)

    def _deal_shift(self, points: int) -> float:
        """What the next deal is worth to the deciding seat, in lead (R-SETUP-3): the dealer
        of the next round expects ``deal_edge`` points of it, so the lead after this round is
        counted that much higher when this result makes me the next dealer, lower when it
        makes him (0 without a dealer or an edge)."""
        ctx = self.context
        if not self.deal_edge or ctx is None or self.dealer is None:
            return 0.0
        winner = None if points == 0 else (ctx.seat if points > 0 else 1 - ctx.seat)
        nxt = next_dealer(ctx.rules, self.dealer, winner)
        edge = self.deal_edge * self.per_point
        return edge if nxt == ctx.seat else -edge

    def _deals_next(self, points: int) -> bool | None:
        """Whether the deciding seat deals the round after one ending with ``points`` (None
        without the round's dealer): R-SETUP-3, asked of the engine."""
        ctx = self.context
        if ctx is None or self.dealer is None:
            return None
        winner = None if points == 0 else (ctx.seat if points > 0 else 1 - ctx.seat)
        return next_dealer(ctx.rules, self.dealer, winner) == ctx.seat

    def win_chance(self, points: int) -> float:
        """The chance of winning the match (a draw counts half) if the current round's result
        is ``points``: exact when the engine says the round ends the match, else the normal
        approximation of the module docstring. The match review judges decisions by it.

        >>> from koikoi_desktop.engine import PRESETS, MatchContext
        >>> last = MatchGoal(MatchContext(0, (30, 32), 11, PRESETS["nintendo"]))
        >>> last.win_chance(3), last.win_chance(2), last.win_chance(1)
        (1.0, 0.5, 0.0)
        """
        if self.context is None:
            raise ValueError("a lone round has no match to win")
        bal, winner, over = self.after(points)
        deal_next = self._deals_next(points) if self.table is not None else None
        return self._chance(bal, winner, continuing=not over, deal_next=deal_next)

    def _at(self, points: int, dealt: bool = False) -> float:
        memo = self._dealt_memo if dealt else self._memo
        hit = memo.get(points)
        if hit is not None:
            return hit
        ctx = self.context
        assert ctx is not None
        bal, winner, over = self.after(points)
        shift = self._deal_shift(points) if dealt else 0.0
        deal_next = self._deals_next(points) if dealt else None
        chance = self._chance(bal, winner, continuing=not over, shift=shift, deal_next=deal_next)
        gained = (bal[ctx.seat] - bal[1 - ctx.seat]) - ctx.lead
        v = (self.weight * chance + MARGIN * gained) / self.per_point
        memo[points] = v
        return v

    def value(self, points: float) -> float:
        """The round result ``points`` (fractions: an estimate, interpolated) in round points
        of this match's goal; 0 for a round nobody wins."""
        if self.context is None:
            return points
        lo = math.floor(points)
        if lo == points:
            return self._at(lo) - self._at(0)
        f = points - lo
        return (1.0 - f) * self._at(lo) + f * self._at(lo + 1) - self._at(0)

    def settled(self, points: int) -> float:
        """:meth:`value` of a round that has ended with ``points``, counting who deals the
        next round (``deal_edge``): an estimate of a round still in play (``value``) leaves the
        deal open, a finished one settles it."""
        if self.context is None or (not self.deal_edge and self.table is None):
            return self.value(points)  # the deal not counted: a plain value
        return self._at(points, True) - self._at(0)

    __call__ = value


def _table_for(context: MatchContext | None) -> EquityTable | None:
    """The learned match-equity table for these rules, or None: a race, coins that can run
    out, or a settlement other than its family's (a custom rule set) keep the normal spread."""
    if context is None:
        return None
    rules = context.rules
    if rules.match_end != "rounds" or rules.bankruptcy_ends_match:
        return None
    table = equity_table(rules.based_on)
    if table is None or rules.settlement != PRESETS[rules.based_on].settlement:
        return None
    return table


# --------------------------------------------------------------------------- certain decisions
def stop_points(view: PlayerView) -> int:
    """What stopping now would score (RULES.md §10): the engine's stop value."""
    return view.koikoi_odds().payout


def best_after_koikoi(view: PlayerView) -> int:
    """The most a koi-koi could still score: every card the opponent has not captured added to
    my pile, paid with one more call (an upper bound: a path to it need not exist)."""
    p = view.player
    live = FULL_MASK & ~view.cap_masks[1 - p]
    base = scorer_for(view.rules).base(view.cap_masks[p] | live)
    return payout(
        base,
        view.rules,
        winner_calls=view.calls[p] + 1,
        loser_calls=view.calls[1 - p],
        field_brights=view.field_brights,
    )


def match_point(view: PlayerView, context: MatchContext | None) -> str | None:
    """At a stop-or-koi-koi decision: ``"stop_wins"`` when stopping now wins the match (the
    last round, a race's target, the opponent's bankruptcy); ``"stop_loses"`` when stopping now
    ends the match lost while koi-koi is legal and could still win it; otherwise None."""
    if context is None or view.phase != "decide" or STOP not in view.legal:
        return None
    goal = MatchGoal(context)
    outcome = goal.result_if(stop_points(view))
    if outcome == 1:
        return "stop_wins"
    if outcome == -1 and KOIKOI in view.legal and goal.result_if(best_after_koikoi(view)) == 1:
        return "stop_loses"
    return None


def certain_decision(
    view: PlayerView, context: MatchContext | None
) -> tuple[Action, Reason] | None:
    """The stop-or-koi-koi answer where the match makes it certain (see :func:`match_point`)."""
    point = match_point(view, context)
    if point == "stop_wins":
        return STOP, Reason(ReasonKey.STOP_WINS_MATCH, {"points": stop_points(view)})
    if point == "stop_loses":
        return KOIKOI, Reason(ReasonKey.KOIKOI_FOR_MATCH, {"points": stop_points(view)})
    return None


__all__ = [
    "MARGIN",
    "MATCH_FLOOR",
    "ROUND_SD",
    "MatchGoal",
    "best_after_koikoi",
    "certain_decision",
    "match_point",
    "stop_points",
]
