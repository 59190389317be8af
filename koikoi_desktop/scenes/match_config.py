"""What a match is started with: decided by the new-game screen (or the tutorial, the review, the
command line) and played by the table.

Decision: a module of its own at the top of ``scenes/``, not in the table's controller, so the
new-game screen, the tutorial, the match result and the review name it without importing the
table (their imports went down into ``scenes/table`` for one dataclass).
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_desktop.engine import Rules
from koikoi_desktop.i18n import Label
from koikoi_desktop.words.names import SeatNames


@dataclass
class MatchConfig:
    """What the new-game screen decides."""

    rules: Rules
    seats: tuple[str, str] = ("human", "intermediate")
    seed: int | None = None
    practice: bool = False
    #: Names a person typed for the seats ("" for none: the seat's default name, rendered
    #: in the language of the moment), or the names as facts.
    names: SeatNames | tuple[str, str] | None = None
    #: "full" (lit targets, yaku tracker, koi-koi panel numbers, hints), "highlights" (lit
    #: targets only) or "none" (``ui/helps.py``; Settings.help_level's values).
    help_level: str = "full"
    #: Play a recorded deal again (the review): its dealer and deck order(s), dealt first.
    deal: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    #: False: nothing of this match is saved or put in the ledger (the guided first round is a
    #: lesson, not a recorded match).
    recorded: bool = True
    #: Shown in the header instead of "Round n of m" (the guided round: a lesson, not round 1
    #: of a 12-round match); worded when drawn (in the language of the moment).
    title: Label = ""
