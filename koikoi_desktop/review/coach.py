"""The coach: the review's judgement of the player's own decisions, during play (issue 37).

At help level *full*, with one person at the table against the computer, each decision the
person makes is judged by :func:`koikoi_desktop.review.analysis.judge` on a
:class:`~koikoi_desktop.review.analysis.DecisionPoint` built exactly as the review builds it
(:func:`decision_point`: the seat's view before the move, the public match context, the same
kind and turn), at the review's budget, so the review afterwards gives the same verdict. A
mistake or a blunder becomes a :class:`CoachNote` (a typed fact; the table words it when drawn).

Decisions:

* Off the frame loop, in a worker process (the judgement is pure-Python search that
  would hold the interpreter lock, as the Expert's does — see :class:`koikoi_desktop.ai.worker.
  Thinker`), from :class:`koikoi_desktop.processes.Worker` (its worker dies with the game,
  and :meth:`Coach.close` ends it at once). The executor can be injected: the tests and the
  real-window test pass :class:`koikoi_desktop.ai.InlineExecutor` (judged during ``ask``) or
  a thread pool.
* A budget, never a wait: :meth:`Coach.poll` is asked every frame and returns a judgement only
  when it is done; one that is not done within :data:`BOUND` seconds of the move, or when the
  player makes the next decision (a new :meth:`Coach.ask`), or is taken back, is dropped. The
  table never blocks on it; a dropped judgement's line is simply never shown.
* Only one question at a time: the newest decision is the one worth a line.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from koikoi_desktop.ai.base import Reason
from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.engine import Action, Match
from koikoi_desktop.processes import Worker

from .analysis import DecisionPoint, Judgement, decision_kind, judge, turn_of

#: Seconds after the move within which a judgement must be done, or it is dropped.
BOUND = 2.0
#: The classes the coach speaks about (the review's; thresholds in ``analysis``).
SPOKEN: tuple[str, ...] = ("mistake", "blunder")


@dataclass(frozen=True, slots=True)
class CoachNote:
    """What the coach says about one decision, as facts: the review's class and the figure it
    was classed by (the match-win chance lost, and the half-width of its 95% range), the expected
    round points of the move played
    and of the best one (the second figure), the review's reason for the best move, the move
    played and the best one (action text), where it was made (round; the review's deal and move
    indexes), and whether Undo is offered (practice)."""

    cls: str
    win_loss: float
    margin: float
    value_played: float
    value_best: float
    reason: Reason
    played: str
    best: str
    round: int
    deal: int
    move: int
    undo: bool = False

    @classmethod
    def of(cls, j: Judgement, *, undo: bool) -> CoachNote:
        return cls(
            j.cls,
            j.win_loss,
            j.margin,
            j.value_played,
            j.value_best,
            j.reason,
            j.played,
            j.best,
            j.round,
            j.deal,
            j.move,
            undo,
        )


def decision_point(match: Match, action: Action) -> DecisionPoint | None:
    """The decision ``action`` answers in ``match``'s round now (before it is applied), as the
    review builds it from the record (``analysis.decision_points``: the deal's index, the
    move's index in the deal, the view of the seat to move, the match context); None when the
    seat had no choice."""
    st = match.round
    seat = st.to_move
    if seat is None or len(st.legal_actions()) < 2:
        return None
    view = st.view(seat)
    return DecisionPoint(
        deal=len(match.deals) - 1,
        move=len(st.moves),
        round=match.round_number,
        turn=turn_of(st),
        seat=seat,
        kind=decision_kind(view, action),
        played=action,
        view=view,
        context=match.context(seat),
    )


def _judge(point: DecisionPoint, worlds: int) -> Judgement:
    """The worker's task (a module-level function, so it pickles to a process)."""
    return judge(point, worlds=worlds)


class Coach:
    """Judges one decision at a time in the background (see the module docstring)."""

    def __init__(
        self,
        executor: cf.Executor | None = None,
        *,
        worlds: int | None = None,
        bound: float = BOUND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._given = executor
        self._procs: Worker | None = None
        #: Worlds per judgement: the review's unless given (a test lowers it), so both agree.
        self.worlds = REVIEW_WORLDS if worlds is None else worlds
        self.bound = bound
        self.clock = clock
        self._future: cf.Future[Judgement] | None = None
        self._asked = 0.0
        #: How many judgements were dropped for being late (the tests read it).
        self.dropped = 0
        #: The worker process died: the coach says nothing more at this table.
        self.stopped = False

    @property
    def pending(self) -> bool:
        """A judgement was asked for and is neither taken nor dropped."""
        return self._future is not None

    def _executor(self) -> cf.Executor:
        if self._given is not None:
            return self._given
        if self._procs is None:
            self._procs = Worker("koikoi-coach")
        return self._procs

    def ask(self, point: DecisionPoint) -> None:
        """Judge ``point`` (a question still open is dropped: the newest decision counts)."""
        if self.stopped:
            return
        self.drop()
        self._asked = self.clock()
        self._future = self._executor().submit(_judge, point, self.worlds)

    def poll(self) -> Judgement | None:
        """The judgement once done (re-raises the evaluator's error); None while it is being
        made, and for good once it is later than the bound (it is dropped).

        A worker process that died (killed by the system, out of memory) is an expected
        failure, not the game's: the coach stops for the rest of the table (:attr:`stopped`,
        which the table tells the player once) and the match goes on."""
        fut = self._future
        if fut is None:
            return None
        if fut.done():
            self._future = None
            try:
                return fut.result()
            except BrokenProcessPool:
                self.stopped = True
                self.close()
                return None
        if self.clock() - self._asked > self.bound:
            self.drop()
            self.dropped += 1
        return None

    def drop(self) -> None:
        """Forget the open question (its answer, when it comes, is never read)."""
        if self._future is not None:
            self._future.cancel()
            self._future = None

    def close(self) -> None:
        """Drop the question and shut the worker down (the table is left)."""
        self.drop()
        if self._procs is not None:
            self._procs.stop()  # its judgement would be dropped: it ends now
            self._procs = None


__all__ = ["BOUND", "SPOKEN", "Coach", "CoachNote", "decision_point"]
