"""Asking an opponent off the UI thread, so the table keeps drawing while the computer thinks.

>>> import random
>>> from koikoi_desktop.engine import PRESETS, new_round
>>> from koikoi_desktop.ai import make_opponent
>>> state = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(4))
>>> task = Thinking(make_opponent("intermediate", seed=1), state.view(0), None)  # a lone round
>>> task.wait(5.0) in state.legal_actions()
True

The table starts a :class:`Thinking` when the computer is to move and polls ``done`` from its
``update(dt)``; the answer and its reason are then in ``action`` and ``reason``. A search
releases the interpreter lock often (it is pure Python, switching every few milliseconds), so
the drawing thread keeps its frame rate; Expert's time budget bounds the wait. ``cancel()`` only
drops interest in the answer (the thread ends on its own at the end of the budget).
"""

from __future__ import annotations

import threading

from koikoi_desktop.engine import Action, MatchContext, PlayerView

from .base import Opponent, Reason


class Thinking:
    """One decision computed on a daemon thread."""

    def __init__(self, opponent: Opponent, view: PlayerView, context: MatchContext | None) -> None:
        self.opponent = opponent
        self.view = view
        self.context = context
        self.action: Action | None = None
        self.reason: Reason | None = None
        self.error: BaseException | None = None
        self.cancelled = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="koikoi-ai", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.action = self.opponent.choose(self.view, self.context)
            self.reason = self.opponent.last_reason
        except BaseException as exc:  # reported to the caller through ``error``
            self.error = exc
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        """True once the answer (or an error) is ready."""
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> Action | None:
        """Block until the answer is ready (or ``timeout`` seconds pass); re-raise errors."""
        self._done.wait(timeout)
        if self.error is not None:
            raise self.error
        return self.action

    def cancel(self) -> None:
        """Forget this decision (e.g. the player left the table)."""
        self.cancelled = True
