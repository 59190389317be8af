"""The table's computer seats and their thinking (no pygame): which seats the computer plays,
the short pause before each move (so it can be followed), and the one
:class:`~koikoi_desktop.ai.Thinker` each move is thought through in the background.

The controller holds one :class:`ComputerSeats` and asks it, once a frame on a computer's
turn, for the move once it is ready; what a move does to the match stays the controller's.
"""

from __future__ import annotations

from koikoi_desktop.ai import Opponent, Thinker, decide, make_opponent
from koikoi_desktop.ai.base import Reason
from koikoi_desktop.engine import Action, Match

#: Seconds a computer seat waits before it moves, by animation speed (so a move can be followed).
CPU_PAUSE = {"off": 0.05, "fast": 0.3, "normal": 0.75}


class ComputerSeats:
    """The computer seats of one table (``seats``: "human" or an opponent level per seat)."""

    def __init__(self, seats: tuple[str, str], *, seed: int | None, thinker: Thinker) -> None:
        self.thinker = thinker
        self.opponents: dict[int, Opponent] = {}
        self.delay = 0.0
        self.seat(seats, seed=seed)

    def seat(self, seats: tuple[str, str], *, seed: int | None) -> None:
        """Seat the computer players of ``seats``, each with its seed (the match's seed plus
        the seat: the same seeds as when the match started, so a resumed match plays on as
        it would have)."""
        self.opponents = {
            p: make_opponent(seats[p], seed=None if seed is None else seed + p)
            for p in (0, 1)
            if seats[p] != "human"
        }

    def turn(self, p: int, dt: float, match: Match, speed: str) -> tuple[Action, Reason] | None:
        """Seat ``p``'s move once it is ready (after the pause, thought in the background);
        None while it waits or thinks."""
        if not self.thinker.busy:
            self.delay += dt
            if self.delay < CPU_PAUSE.get(speed, 0.5):
                return None
            self.thinker.submit(self.opponents[p], match.round.view(p), match.context(p))
            return None
        result = self.thinker.poll()
        if result is None:
            return None
        self.delay = 0.0
        return result

    def now(self, p: int, match: Match) -> tuple[Action, Reason]:
        """Seat ``p``'s move decided at once, on this thread (playing ahead to an end screen)."""
        return decide(self.opponents[p], match.round.view(p), match.context(p))

    def cancel(self) -> None:
        """Forget a move being thought about (a move was taken back)."""
        self.thinker.cancel()
        self.delay = 0.0

    def close(self) -> None:
        self.thinker.close()
