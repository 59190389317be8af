"""Computer opponents for the table, and running them off the UI thread.

The table talks to an opponent through one interface: ``opponent.choose(view, context) ->
Action`` (the seat's PlayerView and its public match context, ``Match.context(seat)``) and
``opponent.explain() -> str`` (a short reason for the last choice). Opponents come from
:mod:`koikoi_desktop.ai` (:func:`make_opponent`); for unknown names :class:`FirstLegal` stands in.

:class:`Thinker` runs ``choose`` in a worker so the frame loop keeps drawing at 60 fps while the
computer thinks. Decision: a thread by default (cheap, and the view needs no pickling); an
opponent that sets ``use_process = True`` (a heavy search that would hold the GIL) runs in a
one-worker process pool instead, so it cannot starve the frame loop. The Expert (a playout
search) runs in the process: the worker builds its own copy of the opponent from ``(level,
seed)`` once and keeps it, so its random stream carries on from move to move. On Linux the pool
forks (no re-import of ``__main__``, so scripts and tests need no main guard); elsewhere it
spawns.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import sys
from typing import Any

OPPONENTS = ("beginner", "intermediate", "expert")


class FirstLegal:
    """Stand-in opponent: takes the first legal action (captures come first in the engine's
    order only by accident; it is a placeholder, not a player)."""

    name = "first-legal"
    use_process = False

    def __init__(self) -> None:
        self._why = ""

    def choose(self, view: Any, context: Any) -> Any:
        legal = list(view.legal)
        pick = legal[0]
        # a little less silly: prefer a capture when the first option only places a card
        for a in legal:
            if a.kind == "stop":
                pick = a
                break
        self._why = f"first legal move: {pick}"
        return pick

    def explain(self) -> str:
        return self._why


def available_opponents() -> list[str]:
    """Names the new-game screen offers."""
    try:
        from koikoi_desktop import ai

        names = getattr(ai, "OPPONENTS", None) or getattr(ai, "LEVELS", None)
        if names:
            return [str(n) for n in names]
    except ImportError:
        pass
    return list(OPPONENTS)


def make_opponent(name: str, *, seed: int | None = None) -> Any:
    """The opponent called ``name`` from the AI package, or the stand-in."""
    try:
        from koikoi_desktop import ai

        opp = ai.make_opponent(name, seed=seed)
    except (ImportError, AttributeError, KeyError, ValueError, LookupError):
        return FirstLegal()
    try:
        setattr(opp, "_kk_spec", (name, seed))  # noqa: B010 - not a declared attribute
        setattr(opp, "use_process", name == "expert")  # noqa: B010
    except AttributeError:
        pass
    return opp


class Why(str):
    """The opponent's one-line reason: ``str`` is its English sentence; ``key`` and ``params``
    (from the AI's ``last_reason``: a template key, card ids, yaku keys, numbers) let the table
    say it in the player's language (``ai.reason.<key>`` in the catalogs). It pickles, so it
    comes back from the worker process intact."""

    key: str
    params: dict[str, Any]

    def __new__(cls, text: str, key: str = "", params: dict[str, Any] | None = None) -> Why:
        obj = super().__new__(cls, text)
        obj.key = key
        obj.params = dict(params or {})
        return obj

    def __reduce__(self) -> Any:
        return (Why, (str(self), self.key, self.params))


def _choose(opponent: Any, view: Any, context: Any) -> tuple[Any, str]:
    """Ask ``opponent`` for its move in ``view`` with the seat's match ``context``."""
    action = opponent.choose(view, context)
    text = opponent.explain() if hasattr(opponent, "explain") else ""
    reason = getattr(opponent, "last_reason", None)
    key = getattr(reason, "key", "")
    values = getattr(reason, "params", {})
    return action, Why(str(text), key if isinstance(key, str) else "", values)


_WORKER_OPPONENTS: dict[Any, Any] = {}


def _choose_in_worker(spec: tuple[str, int | None], view: Any, context: Any) -> tuple[Any, str]:
    """Runs in the worker process: one opponent per spec, kept between moves."""
    opp = _WORKER_OPPONENTS.get(spec)
    if opp is None:
        opp = _WORKER_OPPONENTS[spec] = make_opponent(spec[0], seed=spec[1])
    return _choose(opp, view, context)


class Thinker:
    """Runs one ``choose`` at a time in a worker; ``poll()`` returns (action, reason) when done."""

    def __init__(self) -> None:
        self._threads: cf.ThreadPoolExecutor | None = None
        self._procs: cf.ProcessPoolExecutor | None = None
        self._future: cf.Future[tuple[Any, str]] | None = None
        self._in_thread = False

    @property
    def busy(self) -> bool:
        return self._future is not None

    def submit(self, opponent: Any, view: Any, context: Any) -> None:
        """Start ``opponent.choose(view, context)`` in the worker."""
        spec = getattr(opponent, "_kk_spec", None)
        if getattr(opponent, "use_process", False) and spec is not None:
            if self._procs is None:
                method = "fork" if sys.platform.startswith("linux") else "spawn"
                ctx = multiprocessing.get_context(method)
                self._procs = cf.ProcessPoolExecutor(max_workers=1, mp_context=ctx)
            self._future = self._procs.submit(_choose_in_worker, spec, view, context)
            self._in_thread = False
        else:
            if self._threads is None:
                self._threads = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
            self._future = self._threads.submit(_choose, opponent, view, context)
            self._in_thread = True

    #: How long ``poll`` waits for a thread worker's answer: a blocking wait releases the GIL.
    #: Decision: without it an uncapped frame loop (autoplay, soak, benchmarks) holds the GIL
    #: almost all the time and starves the worker thread — a 1 ms Intermediate decision took up
    #: to a second on a quiet machine. With the 60 fps cap the loop sleeps anyway; 1 ms a frame
    #: while a computer thinks costs nothing visible.
    POLL_WAIT = 0.001

    def poll(self) -> tuple[Any, str] | None:
        """The result once ready (re-raises an error from the opponent)."""
        fut = self._future
        if fut is None:
            return None
        if not fut.done():
            if not self._in_thread:
                return None  # a process worker does not need our GIL
            cf.wait([fut], timeout=self.POLL_WAIT)
            if not fut.done():
                return None
        self._future = None
        return fut.result()

    def cancel(self) -> None:
        if self._future is not None:
            self._future.cancel()
            self._future = None

    def wait(self, timeout: float | None = None) -> tuple[Any, str] | None:
        """Block until the result is ready (tests and the suggest button)."""
        fut = self._future
        if fut is None:
            return None
        cf.wait([fut], timeout=timeout)
        return self.poll()

    def close(self) -> None:
        self.cancel()
        for pool in (self._threads, self._procs):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._threads = self._procs = None
