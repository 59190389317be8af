"""Judging every decision of a finished match, like a chess engine's analysis.

A *decision* is a moment where the seat to move had two or more legal actions: the card played
(``play``), which of two field cards the drawn card takes (``match``), koi-koi or stop
(``koikoi``), declaring an instant win or not (``declare``), the hand exchange (``exchange``),
the Gaji pairing (``gaji``). Each one is scored by :func:`koikoi_desktop.ai.evaluate.
playout_results` from that seat's :class:`~koikoi_desktop.engine.PlayerView` at that moment only
(plus the public match context), at a fixed budget (``worlds`` determinized deals, default
:data:`~koikoi_desktop.ai.evaluate.REVIEW_WORLDS`) with a random source seeded from the view
(:func:`~koikoi_desktop.ai.evaluate.decision_rng`), so a review is reproducible.

Judgement of one decision, in **one currency: the chance of winning the match** (issue 45).
The computer plays for the match, and the review and the coach judge in the same terms; early in
a long match that chance follows the expected points closely, near the end it does not (a
koi-koi that risks a match already won costs the match, whatever it adds in points).

* ``wins`` of each alternative: its chance of winning the match (``ai.utility.MatchGoal.
  win_chance`` of every playout's round result; a draw counts half). Without a match context (a
  lone round) the round is the match: a round won counts 1, a round nobody wins ½.
* ``values``: its expected round points from the seat's side (the second figure).
* ``best``: the alternative with the highest chance (ties by points, then the legal order).
  ``win_loss``: best's chance minus the played move's (never below 0), the figure a decision is
  classed by and the headline of a flagged one ("-21% chance to win the match"). ``loss``: best's
  expected points minus the played move's, the second figure; it may be negative (stopping on a
  won match scores fewer points than a koi-koi, and is still the better move).
* **Confidence before a verdict.** Every alternative is played out in the same sampled worlds
  with the same playout randomness (common random numbers), so the difference between two
  alternatives is measured far more precisely than either value. ``margin`` is 1.96 standard
  errors of the paired difference (best minus played, world by world): a 95% range. The
  first batch is ``worlds`` worlds; while a class threshold lies inside ``win_loss ± margin``,
  another batch of ``worlds`` is sampled, up to :data:`MAX_BATCHES` batches, in which only the
  move played, the best one and the alternatives not clearly below the best are played out (the
  worlds are the same whichever are; an alternative clearly worse than the best keeps the value
  of the worlds it had). ``worlds`` (of a judgement) counts the worlds of the move played;
  ``clear`` says that no threshold was left inside the range.
* ``class``: the class of the lower end of the range, ``win_loss − margin``, against fixed
  thresholds :data:`LIMITS` in match-win chance (lichess classes chess moves the same way, by
  fixed drops of its winning chances):

  ==========  =========================================
  class       match-win chance lost (lower end of 95%)
  ==========  =========================================
  good        below 3 %
  inaccuracy  3 % – 6 %
  mistake     6 % – 12 %
  blunder     12 % or more
  ==========  =========================================

  Decision: lichess's drops (5 / 10 / 15 points of winning chance) are made for a game that one
  move can decide; a match of Koi-Koi is a sum of rounds, and in round 1 of a 12-round Nintendo
  match at even scores one expected point is worth about 1.4% of the match. The thresholds are
  chosen so that there the old point limits keep their meaning (2 points ≈ 3%, 4 points ≈ 6%, a
  yaku with a koi-koi, 8-9 points, ≈ 12%); later in the match, and in short matches, the same
  points weigh more, and a decision that risks a won match is a blunder whatever it scores.
  So a class is given only when the loss is clearly past its threshold; a decision whose loss
  the budget cannot tell from the threshold gets the class below (a measured loss past a
  threshold that is not clear is said as such on the screen).
* The exchange (R-DEAL-4) is decided with both hands unseen: keeping and exchanging are worth
  the same by symmetry, so it is always ``good`` and costs no search.
* ``reason``: one line for the best alternative, from the AI's reason keys (``ai.reason.*``,
  translated in every language).

**Accuracy** (per seat, :meth:`Review.seat_summary`) is made from the same per-decision losses:
a decision's accuracy is ``100 · e^(−win_loss / 0.22)`` (100 for no loss, 87 at an
inaccuracy's 3 %, 76 at 6 %, 58 at 12 %, 40 at 20 %: close to lichess's published curve,
``103.17 · e^(−0.04354 · drop%) − 3.17``, without its offset), and a seat's accuracy is the mean
over its decisions, **rounded down** to a whole percent. Every flagged decision lost at least
3 %, so a seat with any flagged decision is never shown 100 % (the mean is below 100 and is
rounded down), and the figure falls as the losses grow.

Per seat also: counts per class, the mean chance lost, and the biggest mistakes (by class, then
by chance lost).
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
REVIEW_VERSION = 2
CLASSES: tuple[str, ...] = ("good", "inaccuracy", "mistake", "blunder")
#: Match-win chance lost (the lower end of its 95% range) from which a decision is an
#: inaccuracy, a mistake, a blunder (lichess's drops: see the module docstring).
LIMITS: tuple[float, float, float] = (0.03, 0.06, 0.12)
#: The half-width of the 95% range of a difference, in its standard errors.
Z95 = 1.96
#: At most this many batches of ``worlds`` worlds for one decision (more only near a threshold).
MAX_BATCHES = 4
#: Accuracy of one decision is 100·exp(−win_loss / ACCURACY_SCALE).
ACCURACY_SCALE = 0.22
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
    """The verdict on one decision (JSON round trip: :meth:`as_dict` / :meth:`from_dict`):
    ``win_loss`` the match-win chance lost (the currency, 0-1), ``margin`` its 95% half-range,
    ``loss`` the expected round points lost (signed), ``worlds`` how many worlds were sampled,
    ``clear`` whether no class threshold was left inside the range (module docstring)."""

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
    win_loss: float = 0.0
    wins: dict[str, float] = field(default_factory=dict)
    reason: Reason = field(default_factory=lambda: Reason(ReasonKey.ONLY_MOVE))
    margin: float = 0.0
    worlds: int = 0
    clear: bool = True

    @property
    def value_played(self) -> float:
        return self.values[self.played]

    @property
    def value_best(self) -> float:
        return self.values[self.best]

    @property
    def accuracy(self) -> float:
        """This decision's accuracy, 0-100, from its match-win chance lost."""
        return accuracy_of(self.win_loss)

    @property
    def flagged(self) -> bool:
        return self.cls != "good"

    @property
    def past_threshold(self) -> bool:
        """The measured loss is past a class threshold the range does not clear (the class
        given is the one below: said as such on the screen)."""
        return classify(self.win_loss) != self.cls

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "round": self.round,
            "turn": self.turn,
            "kind": self.kind,
            "played": self.played,
            "best": self.best,
            "win_loss": self.win_loss,
            "margin": self.margin,
            "loss": self.loss,
            "class": self.cls,
            "clear": self.clear,
            "worlds": self.worlds,
            "deal": self.deal,
            "move": self.move,
            "values": dict(self.values),
            "wins": dict(self.wins),
            "reason": {"key": self.reason.key, "params": self.reason.params},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Judgement:
        """Read :meth:`as_dict` back (KeyError/TypeError/ValueError for a damaged entry)."""
        reason = d.get("reason") or {}
        klass = str(d["class"])
        if klass not in CLASSES:
            raise ValueError(f"unknown class {klass!r}")
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
            cls=klass,
            values={str(a): float(v) for a, v in dict(d["values"]).items()},
            win_loss=float(d["win_loss"]),
            wins={str(a): float(v) for a, v in dict(d["wins"]).items()},
            reason=Reason(
                ReasonKey(str(reason.get("key", "only_move"))), dict(reason.get("params", {}))
            ),
            margin=float(d["margin"]),
            worlds=int(d["worlds"]),
            clear=bool(d["clear"]),
        )


def accuracy_of(win_loss: float) -> float:
    """A decision's accuracy (0-100) from the match-win chance it lost (module docstring).

    >>> [round(accuracy_of(x)) for x in (0.0, 0.05, 0.10, 0.15, 0.20, 0.5)]
    [100, 80, 63, 51, 40, 10]
    """
    return 100.0 * math.exp(-max(0.0, win_loss) / ACCURACY_SCALE)


def classify(win_loss: float) -> str:
    """The class of a match-win chance lost (0-1) by the thresholds :data:`LIMITS`; a judgement
    classes the lower end of its range (:func:`class_of`).

    >>> [classify(x) for x in (0.0, 0.029, 0.03, 0.059, 0.06, 0.119, 0.12, 0.9)]
    ['good', 'good', 'inaccuracy', 'inaccuracy', 'mistake', 'mistake', 'blunder', 'blunder']
    """
    return CLASSES[sum(win_loss >= x - 1e-12 for x in LIMITS)]


def class_of(win_loss: float, margin: float) -> str:
    """The class of a loss measured ``win_loss ± margin``: the class of its lower end.

    >>> class_of(0.21, 0.03), class_of(0.14, 0.03), class_of(0.04, 0.0), class_of(0.04, 0.02)
    ('blunder', 'mistake', 'inaccuracy', 'good')
    """
    return classify(win_loss - margin)


def is_clear(win_loss: float, margin: float) -> bool:
    """No class threshold lies strictly inside ``win_loss ± margin``.

    >>> is_clear(0.01, 0.005), is_clear(0.025, 0.01), is_clear(0.3, 0.1), is_clear(0.13, 0.02)
    (True, False, True, False)
    """
    return not any(win_loss - margin < x < win_loss + margin for x in LIMITS)


def _round_chance(points: int) -> float:
    """A lone round's "match": won 1, nobody 0.5, lost 0."""
    return 1.0 if points > 0 else 0.5 if points == 0 else 0.0


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a − b`` world by world (common random numbers)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = _mean(diffs)
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _contends(best: Sequence[float], other: Sequence[float]) -> bool:
    """``other`` is not clearly below ``best`` (the 95% range of their paired difference
    reaches 0)."""
    diff, se = _paired(best, other)
    return diff - Z95 * se <= 0.0


def judge(point: DecisionPoint, *, worlds: int = REVIEW_WORLDS, seed: int = 0) -> Judgement:
    """Score every legal alternative of ``point`` from its view and judge the played move
    (``worlds`` worlds a batch; more batches only near a class threshold: module docstring).
    ``seed`` 0 samples the review's own worlds; another seed samples worlds independent of
    them (``benchmarks/review_agreement.py`` compares two such reviews)."""
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
            wins={str(a): 0.5 for a in legal},
            reason=Reason(ReasonKey.EXCHANGE_KEEP),
        )
    ctx = point.context
    goal = MatchGoal(ctx).win_chance if ctx is not None else _round_chance
    known: dict[int, float] = {}  # a round's result -> the chance it leaves (few distinct ones)

    def chance(x: int) -> float:
        hit = known.get(x)
        if hit is None:
            hit = known[x] = goal(x)
        return hit

    rng = decision_rng(view) if seed == 0 else decision_rng(view, f"review-{seed}")
    step = max(1, worlds)
    results: dict[Action, list[int]] = {a: [] for a in legal}
    chances: dict[Action, list[float]] = {a: [] for a in legal}
    order = {a: i for i, a in enumerate(legal)}
    live = list(legal)  # the alternatives sampled in the next batch
    for batch in range(MAX_BATCHES):
        for a, r in playout_results(view, live, rng=rng, worlds=step).items():
            results[a] += r
            chances[a] += [chance(x) for x in r]
        rank = {a: (_mean(chances[a]), _mean(results[a]), -order[a]) for a in live}
        best = max(live, key=rank.__getitem__)
        if rank[played] >= rank[best]:
            best = played
        diff, se = _paired(chances[best], chances[played])
        margin = Z95 * se
        if is_clear(diff, margin) or batch == MAX_BATCHES - 1:
            break
        # sampled on: the move played, the best, and every alternative not clearly below the
        # best (the worlds are the same whichever alternatives are played out in them)
        live = [a for a in live if a in (best, played) or _contends(chances[best], chances[a])]
    n = len(results[played])
    # rounded as stored, so a cached review reads back exactly equal
    points = {a: round(_mean(r), 3) for a, r in results.items()}
    wins = {a: round(_mean(c), 4) for a, c in chances.items()}
    win_loss = round(max(0.0, wins[best] - wins[played]), 4)
    margin = round(margin, 4)
    return Judgement(
        deal=point.deal,
        move=point.move,
        round=point.round,
        turn=point.turn,
        seat=point.seat,
        kind=point.kind,
        played=str(played),
        best=str(best),
        loss=round(points[best] - points[played], 3),
        cls=class_of(win_loss, margin),
        values={str(a): v for a, v in points.items()},
        win_loss=win_loss,
        wins={str(a): v for a, v in wins.items()},
        reason=best_reason(view, best, points, n),
        margin=margin,
        worlds=n,
        clear=is_clear(win_loss, margin),
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
def seat_accuracy(judgements: Sequence[Judgement]) -> int | None:
    """A seat's accuracy: the mean of its decisions' accuracies rounded down to a whole
    percent (None without decisions), so 100 only when no decision lost anything, and never
    beside a flagged one.

    >>> good = Judgement(0, 0, 1, 1, 0, "play", "a", "a", 0.0, "good", {})
    >>> bad = Judgement(0, 1, 1, 1, 0, "play", "a", "b", 0.0, "blunder", {}, win_loss=0.2)
    >>> seat_accuracy([good] * 3), seat_accuracy([good] * 999 + [bad]), seat_accuracy([])
    (100, 99, None)
    """
    if not judgements:
        return None
    return math.floor(sum(j.accuracy for j in judgements) / len(judgements) + 1e-9)


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
            key=lambda j: (-CLASSES.index(j.cls), -j.win_loss, j.deal, j.move),
        )[:WORST_SHOWN]
        n = len(mine)
        return {
            "seat": seat,
            "decisions": n,
            "accuracy": seat_accuracy(mine),
            "mean_win_loss": round(sum(j.win_loss for j in mine) / n, 4) if n else None,
            "mean_loss": round(sum(j.loss for j in mine) / n, 3) if n else None,
            "counts": counts,
            "worst": [j.as_dict() for j in worst],
        }

    def summary(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "worlds": self.worlds,
            "seats": [self.seat_summary(0), self.seat_summary(1)],
            "limits": {"win_chance": list(LIMITS), "range": "95%", "batches": MAX_BATCHES},
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
    points: Sequence[DecisionPoint], *, worlds: int = REVIEW_WORLDS, seed: int = 0
) -> Iterator[Judgement]:
    """Judge ``points`` one at a time (a worker reports progress between them)."""
    for p in points:
        yield judge(p, worlds=worlds, seed=seed)


def review_record(
    record: str,
    *,
    worlds: int = REVIEW_WORLDS,
    rounds: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    seed: int = 0,
) -> Review:
    """Review a match record (raises ``engine.RecordError`` for one that does not replay)."""
    timeline = Timeline.from_record(record)
    points = decision_points(timeline, rounds=rounds)
    out: list[Judgement] = []
    for i, j in enumerate(iter_judgements(points, worlds=worlds, seed=seed)):
        out.append(j)
        if progress is not None:
            progress(i + 1, len(points))
    return Review(out, worlds=worlds)


__all__ = [
    "CLASSES",
    "KINDS",
    "LIMITS",
    "MAX_BATCHES",
    "REVIEW_VERSION",
    "DecisionPoint",
    "Judgement",
    "Review",
    "accuracy_of",
    "best_reason",
    "class_of",
    "classify",
    "decision_kind",
    "decision_points",
    "is_clear",
    "judge",
    "match_context",
    "review_record",
    "seat_accuracy",
]
