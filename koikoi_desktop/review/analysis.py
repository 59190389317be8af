"""Judging every decision of a finished match, like a chess engine's analysis.

A *decision* is a moment where the seat to move had two or more legal actions: the card played
(``play``), which of two field cards the drawn card takes (``match``), koi-koi or stop
(``koikoi``), declaring an instant win or not (``declare``), the hand exchange (``exchange``),
the Gaji pairing (``gaji``). Each one is scored by :func:`koikoi_desktop.ai.evaluate.
playout_results` from that seat's :class:`~koikoi_desktop.engine.PlayerView` at that moment only
(plus the public match context), at a fixed budget (``worlds`` determinized deals, default
:data:`~koikoi_desktop.ai.evaluate.REVIEW_WORLDS`) with a random source seeded from the view
(:func:`~koikoi_desktop.ai.evaluate.decision_rng`), so a review is reproducible.

Judgement of one decision:

* ``value`` of each alternative: expected round points from the seat's side; with match
  context (a fixed-length match), also its chance of winning the match.
* ``best``: the alternative with the highest value — by match-win chance when the context is
  known (ties by points), else by points. ``loss``: best's points minus the played move's
  (never below 0); ``win_loss``: the same in match-win chance.
* ``class`` (thresholds :data:`POINT_LIMITS`, :data:`WIN_LIMITS`; the worse of the two):

  ==========  ==================  =====================
  class       loss (points)       win_loss (chance)
  ==========  ==================  =====================
  good        < 1.0               < 5 %
  inaccuracy  1.0 – 2.0           5 – 10 %
  mistake     2.0 – 4.0           10 – 20 %
  blunder     ≥ 4.0               ≥ 20 %
  ==========  ==================  =====================

  Decision: a point is about a sixth of a typical won round, and the loss of a good move
  measured twice with different seeds differs by ~0.3 points at the review budget (measured
  over an Intermediate match), so 1 point is well clear of the noise.
* The exchange (R-DEAL-4) is decided with both hands unseen: keeping and exchanging are worth
  the same by symmetry, so it is always ``good`` and costs no search.
* ``reason``: one line for the best alternative, from the AI's reason keys (``ai.reason.*``,
  translated in every language).

Per seat (:meth:`Review.summary`): decisions, accuracy (mean of 100·e^(−loss/4) — 100 for a
review without losses, 78 for a steady one-point loss), counts per class, mean loss, and the
biggest mistakes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from koikoi_desktop.ai.base import PLAIN_PLAY_REASONS, Reason, ReasonKey, stop_sure
from koikoi_desktop.ai.evaluate import REVIEW_WORLDS, decision_rng, playout_results
from koikoi_desktop.ai.intermediate import describe_play
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.ai.utility import MatchGoal, stop_points
from koikoi_desktop.engine import Action, MatchContext, PlayerView, instant_win
from koikoi_desktop.engine.actions import DECLARE, KEEP, KOIKOI, STOP, is_gaji_pairing
from koikoi_desktop.engine.cards import GAJI

from .timeline import Timeline

#: Bump when the analysis changes: a cached review of another version is computed again.
REVIEW_VERSION = 1
CLASSES: tuple[str, ...] = ("good", "inaccuracy", "mistake", "blunder")
#: Points lost from which a decision is an inaccuracy, a mistake, a blunder.
POINT_LIMITS: tuple[float, float, float] = (1.0, 2.0, 4.0)
#: Match-win chance lost from which a decision is an inaccuracy, a mistake, a blunder.
WIN_LIMITS: tuple[float, float, float] = (0.05, 0.10, 0.20)
#: Accuracy of one decision is 100·exp(−loss / ACCURACY_SCALE).
ACCURACY_SCALE = 4.0
#: How many of a seat's worst decisions the summary lists.
WORST_SHOWN = 3
KINDS: tuple[str, ...] = ("play", "match", "koikoi", "declare", "exchange", "gaji")


# --------------------------------------------------------------------------- decisions
@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision to judge: where it is (``deal``, ``move``), what the seat saw (``view``,
    ``context``) and what it played."""

    deal: int
    move: int
    round: int
    turn: int
    seat: int
    kind: str
    played: Action
    view: PlayerView
    context: MatchContext | None


def decision_kind(view: PlayerView, played: Action) -> str:
    """Which kind of decision ``played`` answered in ``view`` (see the module docstring)."""
    phase = view.phase
    if phase == "exchange":
        return "exchange"
    if phase == "decide":
        return "koikoi"
    if phase == "declare" or played == DECLARE:
        return "declare"
    if phase == "draw":
        return "match"
    if is_gaji_pairing(played):
        return "gaji"
    if played.card == GAJI and any(is_gaji_pairing(a) for a in view.legal):
        return "gaji"
    return "play"


def turn_of(state: Any) -> int:
    """The number of the turn a position belongs to (1-based, both seats counted): a koi-koi
    decision belongs to the turn that made the yaku."""
    done = int(state.turns[0] + state.turns[1])
    return done if state.phase == "decide" else done + 1


def match_context(timeline: Timeline, deal: int, seat: int) -> MatchContext:
    """The public match context of ``seat`` during ``deal``: the balances before the round,
    the rounds settled before it and the match's rules (what the computer is told at the table,
    ``Match.context``), so every kind of match (a fixed length, a race, coins) has a chance of
    winning it (``ai.utility.MatchGoal``)."""
    bal = timeline.deals[deal].balances_before
    return MatchContext(seat, bal, deal, timeline.rules)


def decision_points(
    timeline: Timeline, *, rounds: Sequence[int] | None = None
) -> list[DecisionPoint]:
    """Every decision of the match (or of the given round numbers), in play order."""
    out: list[DecisionPoint] = []
    for d in timeline.deals:
        if rounds is not None and d.round not in rounds:
            continue
        for k, mv in enumerate(d.moves):
            st = d.states[k]
            seat = st.to_move
            if seat is None:
                continue
            legal = st.legal_actions()
            if len(legal) < 2:
                continue
            view = st.view(seat)
            turn = turn_of(st)
            out.append(
                DecisionPoint(
                    deal=d.index,
                    move=k,
                    round=d.round,
                    turn=turn,
                    seat=seat,
                    kind=decision_kind(view, mv),
                    played=mv,
                    view=view,
                    context=match_context(timeline, d.index, seat),
                )
            )
    return out


# --------------------------------------------------------------------------- judgements
@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one decision (JSON round trip: :meth:`as_dict` / :meth:`from_dict`)."""

    deal: int
    move: int
    round: int
    turn: int
    seat: int
    kind: str
    played: str
    best: str
    loss: float
    cls: str
    values: dict[str, float]
    win_loss: float | None = None
    wins: dict[str, float] | None = None
    reason: Reason = field(default_factory=lambda: Reason(ReasonKey.ONLY_MOVE))

    @property
    def value_played(self) -> float:
        return self.values[self.played]

    @property
    def value_best(self) -> float:
        return self.values[self.best]

    @property
    def accuracy(self) -> float:
        return 100.0 * math.exp(-self.loss / ACCURACY_SCALE)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "round": self.round,
            "turn": self.turn,
            "kind": self.kind,
            "played": self.played,
            "best": self.best,
            "loss": self.loss,
            "class": self.cls,
            "deal": self.deal,
            "move": self.move,
            "values": dict(self.values),
            "reason": {"key": self.reason.key, "params": self.reason.params},
        }
        if self.win_loss is not None:
            out["win_loss"] = self.win_loss
        if self.wins is not None:
            out["wins"] = dict(self.wins)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Judgement:
        """Read :meth:`as_dict` back (KeyError/TypeError/ValueError for a damaged entry)."""
        reason = d.get("reason") or {}
        wins = d.get("wins")
        win_loss = d.get("win_loss")
        return cls(
            deal=int(d["deal"]),
            move=int(d["move"]),
            round=int(d["round"]),
            turn=int(d["turn"]),
            seat=int(d["seat"]),
            kind=str(d["kind"]),
            played=str(d["played"]),
            best=str(d["best"]),
            loss=float(d["loss"]),
            cls=str(d["class"]),
            values={str(a): float(v) for a, v in dict(d["values"]).items()},
            win_loss=None if win_loss is None else float(win_loss),
            wins=None if wins is None else {str(a): float(v) for a, v in dict(wins).items()},
            reason=Reason(
                ReasonKey(str(reason.get("key", "only_move"))), dict(reason.get("params", {}))
            ),
        )


def classify(loss: float, win_loss: float | None = None) -> str:
    """The class of a decision from its losses (see the module docstring).

    >>> classify(0.3), classify(1.2), classify(2.5), classify(6.0), classify(0.2, 0.25)
    ('good', 'inaccuracy', 'mistake', 'blunder', 'blunder')
    """
    rank = sum(loss >= x for x in POINT_LIMITS)
    if win_loss is not None:
        rank = max(rank, sum(win_loss >= x for x in WIN_LIMITS))
    return CLASSES[rank]


def judge(point: DecisionPoint, *, worlds: int = REVIEW_WORLDS) -> Judgement:
    """Score every legal alternative of ``point`` from its view and judge the played move."""
    view = point.view
    legal = list(view.legal)
    played = point.played
    if point.kind == "exchange":
        values = {str(a): 0.0 for a in legal}
        return Judgement(
            point.deal,
            point.move,
            point.round,
            point.turn,
            point.seat,
            point.kind,
            str(played),
            str(played),
            0.0,
            "good",
            values,
            reason=Reason(ReasonKey.EXCHANGE_KEEP),
        )
    results = playout_results(view, legal, rng=decision_rng(view), worlds=worlds)
    # rounded as stored, so a cached review reads back exactly equal
    points = {a: round(sum(r) / len(r), 3) for a, r in results.items()}
    ctx = point.context
    wins: dict[Action, float] | None = None
    if ctx is not None:
        chance = MatchGoal(ctx).win_chance
        wins = {a: round(sum(chance(x) for x in r) / len(r), 4) for a, r in results.items()}
    order = {a: i for i, a in enumerate(legal)}

    def rank(a: Action) -> tuple[float, float, int]:
        w = wins[a] if wins is not None else 0.0
        return (w, points[a], -order[a])

    best = max(legal, key=rank)
    if rank(played) >= rank(best):
        best = played
    loss = round(max(0.0, points[best] - points[played]), 3)
    win_loss = None if wins is None else round(max(0.0, wins[best] - wins[played]), 4)
    return Judgement(
        deal=point.deal,
        move=point.move,
        round=point.round,
        turn=point.turn,
        seat=point.seat,
        kind=point.kind,
        played=str(played),
        best=str(best),
        loss=loss,
        cls=classify(loss, win_loss),
        values={str(a): v for a, v in points.items()},
        win_loss=win_loss,
        wins=None if wins is None else {str(a): v for a, v in wins.items()},
        reason=best_reason(view, best, points, worlds),
    )


def best_reason(view: PlayerView, best: Action, points: dict[Action, float], worlds: int) -> Reason:
    """One line on why ``best`` is the move to make, in the AI's reason keys."""
    ev = round(points[best], 2)
    if view.phase == "decide":
        now = stop_points(view)
        if best == STOP:
            koi = points.get(KOIKOI)
            return stop_sure(now, round(koi if koi else 0.0, 2), n=worlds)
        return Reason(ReasonKey.KOIKOI_EV, {"points": now, "ev": ev, "n": worlds})
    if best == DECLARE:
        iw = instant_win(view.hand_mask, view.rules)
        return Reason(
            ReasonKey.DECLARE, {"instant": iw[0] if iw else "", "points": iw[1] if iw else 0}
        )
    if best == KEEP:
        return Reason(ReasonKey.REVIEW_KEEP, {"ev": ev})
    reason = describe_play(view, best, knowledge_for(view.rules))
    if reason.key in PLAIN_PLAY_REASONS:
        if best.kind == "draw":
            return Reason(
                ReasonKey.SEARCH_DRAW,
                {"drawn": view.pending_draw, "card": best.target, "n": worlds, "ev": ev},
            )
        return Reason(ReasonKey.SEARCH, {"card": best.card, "n": worlds, "ev": ev})
    return reason


# --------------------------------------------------------------------------- the review
@dataclass
class Review:
    """The judgements of a match (or of some of its rounds), in play order."""

    judgements: list[Judgement]
    worlds: int = REVIEW_WORLDS
    version: int = REVIEW_VERSION

    def of_seat(self, seat: int) -> list[Judgement]:
        return [j for j in self.judgements if j.seat == seat]

    def seat_summary(self, seat: int) -> dict[str, Any]:
        """Decisions, accuracy, counts per class, mean loss and the biggest mistakes."""
        mine = self.of_seat(seat)
        counts = {c: sum(j.cls == c for j in mine) for c in CLASSES}
        worst = sorted(
            (j for j in mine if j.cls != "good"),
            key=lambda j: (-CLASSES.index(j.cls), -j.loss, j.deal, j.move),
        )[:WORST_SHOWN]
        n = len(mine)
        return {
            "seat": seat,
            "decisions": n,
            "accuracy": round(sum(j.accuracy for j in mine) / n, 1) if n else None,
            "mean_loss": round(sum(j.loss for j in mine) / n, 3) if n else None,
            "counts": counts,
            "worst": [j.as_dict() for j in worst],
        }

    def summary(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "worlds": self.worlds,
            "seats": [self.seat_summary(0), self.seat_summary(1)],
            "limits": {"points": list(POINT_LIMITS), "win_chance": list(WIN_LIMITS)},
        }

    def export(self) -> dict[str, Any]:
        """The ``--review --json`` document: every decision and the summary."""
        return {"decisions": [j.as_dict() for j in self.judgements], "summary": self.summary()}

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": self.version,
                "worlds": self.worlds,
                "judgements": [j.as_dict() for j in self.judgements],
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Review | None:
        """A cached review, or None when it is damaged or from another version."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("version") != REVIEW_VERSION:
                return None
            items = [Judgement.from_dict(d) for d in data["judgements"]]
            return cls(items, worlds=int(data["worlds"]))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None


def iter_judgements(
    points: Sequence[DecisionPoint], *, worlds: int = REVIEW_WORLDS
) -> Iterator[Judgement]:
    """Judge ``points`` one at a time (a worker reports progress between them)."""
    for p in points:
        yield judge(p, worlds=worlds)


def review_record(
    record: str,
    *,
    worlds: int = REVIEW_WORLDS,
    rounds: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a match record (raises ``engine.RecordError`` for one that does not replay)."""
    timeline = Timeline.from_record(record)
    points = decision_points(timeline, rounds=rounds)
    out: list[Judgement] = []
    for i, j in enumerate(iter_judgements(points, worlds=worlds)):
        out.append(j)
        if progress is not None:
            progress(i + 1, len(points))
    return Review(out, worlds=worlds)


__all__ = [
    "CLASSES",
    "KINDS",
    "POINT_LIMITS",
    "REVIEW_VERSION",
    "WIN_LIMITS",
    "DecisionPoint",
    "Judgement",
    "Review",
    "best_reason",
    "classify",
    "decision_kind",
    "decision_points",
    "judge",
    "match_context",
    "review_record",
]
