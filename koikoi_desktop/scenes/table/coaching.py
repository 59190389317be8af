"""The coach at the table (no pygame): when it judges, the judgement it hands back once the
table is at rest, and that its worker stopped (``review.coach`` does the judging).

The controller holds one :class:`TableCoach`: it asks it to judge each decision of the person
and, once a frame, for a verdict to speak (a mistake or a blunder), which it words into the
log and the message line.
"""

from __future__ import annotations

from collections.abc import Callable

from koikoi_desktop.review.analysis import DecisionPoint, Judgement
from koikoi_desktop.review.coach import SPOKEN, Coach

#: How long the coach's line stays on the message line (it stays in the move log).
COACH_SECONDS = 8.0


class TableCoach:
    """Judges the person's decisions in the background (``coach`` None: never); ``on`` reads
    the setting that turns it off, when asked."""

    def __init__(self, coach: Coach | None, on: Callable[[], bool] = lambda: True) -> None:
        self.coach = coach
        self.on = on
        #: A verdict back from the coach, held until the table is at rest (so its line comes
        #: after the move it speaks of, in the log and on the screen).
        self._verdict: Judgement | None = None
        #: The player was told that the coach stopped (its worker process died).
        self._stop_told = False

    def judges(self, *, help_level: str, people: int, lesson: bool) -> bool:
        """The coach judges now: help level full, one person against the computer (not hot
        seat, not computer against computer), not a lesson (its own commentary), the setting
        on."""
        return (
            self.coach is not None
            and help_level == "full"
            and people == 1
            and not lesson
            and self.on()
        )

    def ask(self, point: DecisionPoint) -> None:
        if self.coach is not None:
            self.coach.ask(point)

    def heard(self, *, at_rest: bool) -> tuple[bool, Judgement | None]:
        """Once a frame: (the worker has just stopped: say so once, a verdict to speak now,
        only ``at_rest``; a good move or an inaccuracy is not spoken)."""
        if self.coach is None:
            return False, None
        j = self.coach.poll()
        stopped = self.coach.stopped and not self._stop_told
        if stopped:
            self._stop_told = True
        if j is not None and j.cls in SPOKEN:
            self._verdict = j
        if self._verdict is None or not at_rest:
            return stopped, None
        j, self._verdict = self._verdict, None
        return stopped, j

    def drop(self) -> None:
        """A verdict on a move taken back is not said."""
        if self.coach is not None:
            self.coach.drop()
        self._verdict = None

    def close(self) -> None:
        if self.coach is not None:
            self.coach.close()
