"""Which sound goes with what the table shows: the one map from animated moments to effects.

The table's director reports each moment of its animation as it starts (a packet dealt, a card
laid down or slid onto its match, cards flying to a capture pile, a card turned over, a banner
for a yaku, a koi-koi call, a stop or the end of a round) with the engine event behind it; the
match result reports the end of the match. :meth:`SoundCues.show` turns that into one effect of
:mod:`koikoi_desktop.ui.audio` — nowhere else in the game decides which sound plays.

Decisions:

* Good or bad news is told from the side of the people at the table: a round or match won by a
  human seat (by seat 0 when the computer plays itself) plays the bright jingle, else the dark
  one. A round or match without a winner plays nothing.
* The same effect is not started twice within ``REPEAT_S`` seconds, and no effect within
  ``GAP_S`` of the previous one (real time): a skipped animation (a click, or the "off" speed)
  starts all its steps in one frame and would otherwise stack sounds into a loud burst. At a
  person's pace the moments of the table are at least a tenth of a second apart (0.115 s between
  dealt packets at "fast"), so nothing is lost there; an uncapped ``--autoplay`` (simulated time
  ten to twenty times faster than the clock) is held to ten effects a second. Measured: started
  every few milliseconds, effects made the frame loop wait (p99 2 ms, up to 8 ms a start: each
  effect that ends takes the interpreter lock on SDL's audio thread), and an autoplay match took
  a third longer.
* ``KOIKOI_SOUND_LOG=FILE`` (read by the app) appends one line per cue: real time, effect,
  whether it started, and — under SDL's ``disk`` audio driver — how many bytes of audio the
  driver had written by then, so a test can find the cue in the written file.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection
from typing import IO, TYPE_CHECKING

from koikoi_desktop.engine import Event
from koikoi_desktop.engine.events import MatchOver, RoundOver

if TYPE_CHECKING:
    from koikoi_desktop.ui.audio import Audio

#: (moment, event kind) -> effect; a moment with the kind "*" matches any event.
CUES: dict[tuple[str, str], str] = {
    ("deal", "*"): "deal",
    ("place", "*"): "card_place",
    ("onto", "*"): "card_place",
    ("capture", "*"): "capture",
    ("flip", "*"): "draw_flip",
    ("announce", "yaku"): "yaku",
    ("announce", "instant_win"): "yaku",
    ("announce", "koikoi"): "koikoi",
    ("announce", "stop"): "stop",
    ("announce", "redeal"): "deal",
}
#: Moments whose effect depends on who won: the round's end and the match's end.
ENDINGS: dict[tuple[str, str], tuple[str, str]] = {
    ("announce", "round_over"): ("round_won", "round_lost"),
    ("result", "match_over"): ("match_won", "match_lost"),
}
REPEAT_S = 0.05
GAP_S = 0.1


class SoundCues:
    """Plays the effect for each shown moment through ``audio`` (an ``Audio`` or None)."""

    def __init__(self, audio: Audio | None = None, *, log: IO[str] | None = None) -> None:
        self.audio = audio
        self.log = log
        self._last: dict[str, float] = {}
        self._last_any = -1.0

    @staticmethod
    def effect_for(moment: str, ev: Event | None, ours: Collection[int] = (0,)) -> str | None:
        """The effect of ``moment`` showing event ``ev`` (None for silence). ``ours``: the
        seats whose wins are good news.

        >>> from koikoi_desktop.engine.events import Drew, RoundEnd, RoundOver
        >>> SoundCues.effect_for("capture", Drew(player=1, card=3, captured=(4,)))
        'capture'
        >>> SoundCues.effect_for("announce", RoundOver(1, 6, RoundEnd.STOP), ours=(0,))
        'round_lost'
        """
        kind = "" if ev is None else str(ev.kind)
        ending = ENDINGS.get((moment, kind))
        if ending is not None:
            winner = ev.winner if isinstance(ev, (RoundOver, MatchOver)) else None
            if winner is None:
                return None
            return ending[0] if winner in ours else ending[1]
        return CUES.get((moment, kind)) or CUES.get((moment, "*"))

    def show(
        self, moment: str, ev: Event | None = None, ours: Collection[int] = (0,)
    ) -> str | None:
        """Play the effect of ``moment`` (see :data:`CUES`); returns its name, if any."""
        name = self.effect_for(moment, ev, ours)
        if name is None:
            return None
        now = time.perf_counter()
        if now - self._last.get(name, -1.0) < REPEAT_S or now - self._last_any < GAP_S:
            self._write(now, name, "repeat")
            return name
        self._last[name] = self._last_any = now
        started = bool(self.audio is not None and self.audio.play(name))
        self._write(now, name, "played" if started else "silent")
        return name

    def listener(self, ours: Callable[[], Collection[int]]) -> Callable[[str, Event | None], None]:
        """A ``(moment, event)`` callback for the table's director; ``ours()`` names the seats
        whose wins are good news (asked at each moment: seats can change on a resume)."""

        def on_show(moment: str, ev: Event | None) -> None:
            self.show(moment, ev, ours())

        return on_show

    def _write(self, now: float, name: str, what: str) -> None:
        if self.log is None:
            return
        written = -1
        if os.environ.get("SDL_AUDIODRIVER") == "disk":
            path = os.environ.get("SDL_DISKAUDIOFILE", "sdlaudio.raw")
            written = os.path.getsize(path) if os.path.exists(path) else 0
        self.log.write(f"{now:.4f}\t{name}\t{what}\t{written}\n")


def ours(seats: Collection[str]) -> list[int]:
    """The seats whose wins are good news: the human seats, else seat 0 (computer vs computer).

    >>> ours(("intermediate", "human")), ours(("beginner", "expert"))
    ([1], [0])
    """
    return [p for p, seat in enumerate(seats) if seat == "human"] or [0]


def table_listener(
    cues: SoundCues, seats: Callable[[], Collection[str]]
) -> Callable[[str, Event | None], None]:
    """The director's ``on_show`` for a table: the app's cues, seen from its human seats
    (``seats()`` is asked at each moment: seats can change on a resume)."""
    return cues.listener(lambda: ours(seats()))
