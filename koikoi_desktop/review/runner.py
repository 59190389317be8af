"""Running the review's analysis off the frame loop.

:class:`ReviewRunner` judges a match's decisions in a worker process, one decision per
task, in play order; the screen calls :meth:`ReviewRunner.poll` every frame and gets the
judgements finished since the last call (so the moves already judged are shown while the rest
are computed, with a progress bar).

Decisions:

* A process, not a thread: the analysis is pure-Python search that would hold the interpreter
  lock and starve the frame loop (the same reason the Expert opponent thinks in a process, see
  :class:`koikoi_desktop.ai.worker.Thinker`): a :class:`koikoi_desktop.processes.Worker` (it
  dies with the game, and :meth:`ReviewRunner.close` kills it in the middle of a judgement).
* Tasks carry the record text and the decision's place (deal, move), never a view object: the
  worker replays the record once (kept for the following tasks) and builds the view itself.
* ``inline=True`` judges on the calling thread, a few decisions per :meth:`poll` (tests and the
  command line, where no frame loop is waiting).
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Sequence
from typing import TYPE_CHECKING

from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.processes import Worker

from .analysis import DecisionPoint, Judgement, Review, decision_points, judge
from .timeline import Timeline

if TYPE_CHECKING:
    from koikoi_desktop.storage import Storage

_CACHE: dict[str, dict[tuple[int, int], DecisionPoint]] = {}


def _judge_in_worker(record: str, deal: int, move: int, worlds: int) -> Judgement:
    """Runs in the worker: replay ``record`` (once per record) and judge one decision."""
    points = _CACHE.get(record)
    if points is None:
        _CACHE.clear()
        timeline = Timeline.from_record(record)
        points = _CACHE[record] = {(p.deal, p.move): p for p in decision_points(timeline)}
    return judge(points[(deal, move)], worlds=worlds)


class ReviewRunner:
    """Judges ``points`` (decisions of ``timeline``) in the background; see the module doc."""

    def __init__(
        self,
        timeline: Timeline,
        points: Sequence[DecisionPoint],
        *,
        worlds: int = REVIEW_WORLDS,
        inline: bool = False,
    ) -> None:
        self.timeline = timeline
        self.points = list(points)
        self.worlds = worlds
        self.inline = inline
        self.done = 0
        self._worker: Worker | None = None
        self._futures: list[cf.Future[Judgement]] = []
        self.error: BaseException | None = None

    @property
    def total(self) -> int:
        return len(self.points)

    @property
    def finished(self) -> bool:
        return self.done >= self.total or self.error is not None

    @property
    def progress(self) -> float:
        return 1.0 if not self.points else self.done / len(self.points)

    def start(self) -> None:
        """Queue every decision (nothing to do inline)."""
        if self.inline or not self.points or self._futures:
            return
        self._worker = Worker("koikoi-review")
        record = self.timeline.record
        self._futures = [
            self._worker.submit(_judge_in_worker, record, p.deal, p.move, self.worlds)
            for p in self.points
        ]

    def poll(self, *, budget: int = 1) -> list[Judgement]:
        """The judgements finished since the last call, in play order. Inline, judges up to
        ``budget`` decisions now. An error in the worker stops the run (``error``)."""
        out: list[Judgement] = []
        if self.finished:
            return out
        if self.inline:
            while self.done < self.total and len(out) < budget:
                out.append(judge(self.points[self.done], worlds=self.worlds))
                self.done += 1
            return out
        while self.done < len(self._futures) and self._futures[self.done].done():
            fut = self._futures[self.done]
            exc = fut.exception()
            if exc is not None:
                self.error = exc
                self.close()
                break
            out.append(fut.result())
            self.done += 1
        if self.done >= self.total:
            self.close()
        return out

    def wait(self, timeout: float | None = None) -> list[Judgement]:
        """Block until every decision is judged (or ``timeout``); returns what was new."""
        if self.inline:
            return self.poll(budget=self.total)
        cf.wait(self._futures, timeout=timeout)
        return self.poll()

    def close(self) -> None:
        """Stop: queued decisions are dropped and the worker ends now, in the middle of a
        judgement too (leaving the screen, or the game, waits for nothing)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()


def cached_review(store: Storage, match_id: str, *, worlds: int = REVIEW_WORLDS) -> Review | None:
    """The review cached with match ``match_id`` in ``store``, when it is readable, of this
    analysis version and of the same budget; else None (it is computed again)."""
    text = store.ledger.review(match_id)
    if text is None:
        return None
    review = Review.from_json(text)
    if review is None or review.worlds != worlds:
        return None
    return review


__all__ = ["ReviewRunner", "cached_review"]
