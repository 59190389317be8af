"""Asking an opponent off the frame thread, so the table keeps drawing while the computer thinks.

>>> import random
>>> from koikoi_desktop.engine import PRESETS, new_round
>>> from koikoi_desktop.ai import make_opponent
>>> state = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(4))
>>> thinker = Thinker()
>>> thinker.submit(make_opponent("intermediate", seed=1), state.view(0), None)  # a lone round
>>> action, why = thinker.wait(30.0)
>>> action in state.legal_actions(), isinstance(why, Reason)
(True, True)
>>> thinker.close()

The table has one :class:`Thinker`. When a computer seat is to move it calls ``submit`` with the
seat's view and its match context (``Match.context(seat)``: the scoreboard a player at the table
sees) and then ``poll()`` from every frame until the answer (the action and its reason) is there.

Decisions:

* A thread by default (cheap, and the view needs no pickling). Expert (a playout search that
  would hold the interpreter lock) runs in a worker process instead, so it cannot starve the
  frame loop: the worker builds its own copy of the opponent from its level, seed, budget and
  persona once and keeps it, so its random stream carries on from move to move. The worker is a
  :class:`koikoi_desktop.processes.Worker`: it forks on Linux, spawns elsewhere, dies with the
  game, and :meth:`Thinker.close` kills it even in the middle of a search.
* The executor can be injected: ``Thinker(InlineExecutor())`` decides on the calling thread
  during ``submit``, so a test, the monkey or the soak advances by moves and frames, never by
  waiting for wall-clock time that a loaded machine stretches.
* An opponent's error is re-raised by ``poll`` / ``wait`` (the table must not go on quietly
  with a broken opponent).
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from typing import Any

from koikoi_desktop.engine import Action, MatchContext, PlayerView
from koikoi_desktop.processes import Worker

from .base import Budget, Opponent, Persona, Reason

#: An opponent's answer: the action and why (a fact; the table words it in the player's
#: language with ``koikoi_desktop.words.reasons.reason_text``).
Decision = tuple[Action, Reason]


def decide(opponent: Opponent, view: PlayerView, context: MatchContext | None) -> Decision:
    """``opponent``'s action in ``view`` with the seat's match ``context`` (None: a lone round)
    and its reason (on the calling thread)."""
    action = opponent.choose(view, context)
    return action, opponent.last_reason


Spec = tuple[str, int | None, Budget | None, Persona]
_WORKER_OPPONENTS: dict[Spec, Opponent] = {}


def _decide_in_worker(spec: Spec, view: PlayerView, context: MatchContext | None) -> Decision:
    """Runs in the worker process: one opponent per spec, kept between moves."""
    from koikoi_desktop.ai.levels import make_opponent

    opp = _WORKER_OPPONENTS.get(spec)
    if opp is None:
        level, seed, budget, persona = spec
        opp = _WORKER_OPPONENTS[spec] = make_opponent(level, seed, budget, persona=persona)
    return decide(opp, view, context)


class InlineExecutor(cf.Executor):
    """An executor that runs each task at once on the calling thread (see the module
    docstring): the future is done when ``submit`` returns; an error propagates from
    ``submit`` itself."""

    def submit(  # type: ignore[override]
        self, fn: Callable[..., Decision], /, *args: Any, **kwargs: Any
    ) -> cf.Future[Decision]:
        future: cf.Future[Decision] = cf.Future()
        future.set_result(fn(*args, **kwargs))
        return future


class Thinker:
    """Runs one decision at a time in a worker; ``poll()`` returns (action, reason) when done."""

    #: How long ``poll`` waits for a thread worker's answer: a blocking wait releases the GIL.
    #: Decision: without it an uncapped frame loop (autoplay, soak, benchmarks) holds the GIL
    #: almost all the time and starves the worker thread — a 1 ms Intermediate decision took up
    #: to a second on a quiet machine. With the 60 fps cap the loop sleeps anyway; 1 ms a frame
    #: while a computer thinks costs nothing visible.
    POLL_WAIT = 0.001

    def __init__(self, executor: cf.Executor | None = None) -> None:
        self._given = executor
        self._threads: cf.ThreadPoolExecutor | None = None
        self._procs: Worker | None = None
        self._future: cf.Future[Decision] | None = None
        self._may_wait = False

    @property
    def busy(self) -> bool:
        """A decision was asked for and not yet taken with ``poll``."""
        return self._future is not None

    def submit(self, opponent: Opponent, view: PlayerView, context: MatchContext | None) -> None:
        """Ask ``opponent`` for its move in ``view`` with the seat's match ``context`` (one
        question at a time)."""
        if self._given is not None:
            self._future = self._given.submit(decide, opponent, view, context)
            self._may_wait = True
        elif opponent.level == "expert":
            if self._procs is None:
                self._procs = Worker("koikoi-expert")
            spec = (opponent.level, opponent.seed, opponent.budget, opponent.persona)
            self._future = self._procs.submit(_decide_in_worker, spec, view, context)
            self._may_wait = False  # a process worker does not need our GIL
        else:
            if self._threads is None:
                self._threads = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
            self._future = self._threads.submit(decide, opponent, view, context)
            self._may_wait = True

    def poll(self) -> Decision | None:
        """The answer once ready (re-raises an error from the opponent), else None."""
        fut = self._future
        if fut is None:
            return None
        if not fut.done():
            if not self._may_wait:
                return None
            cf.wait([fut], timeout=self.POLL_WAIT)
            if not fut.done():
                return None
        self._future = None
        return fut.result()

    def wait(self, timeout: float | None = None) -> Decision | None:
        """Block until the answer is ready (or ``timeout`` seconds pass)."""
        fut = self._future
        if fut is None:
            return None
        cf.wait([fut], timeout=timeout)
        return self.poll()

    def settle(self, timeout: float | None = None) -> bool:
        """Block until the answer is ready (or ``timeout`` seconds pass) without taking it:
        the next ``poll`` returns it. True when it is ready (or nothing was asked)."""
        fut = self._future
        if fut is None:
            return True
        cf.wait([fut], timeout=timeout)
        return fut.done()

    def cancel(self) -> None:
        """Forget the question asked (its answer, when it comes, is dropped)."""
        if self._future is not None:
            self._future.cancel()
            self._future = None

    def close(self) -> None:
        """Cancel and shut the workers down (the table is left): a worker process ends now,
        even in the middle of a search (nothing waits for it, at exit neither)."""
        self.cancel()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.stop()
        self._threads = self._procs = None
