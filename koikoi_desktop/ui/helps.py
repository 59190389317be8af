"""What each help level shows on the table (``Settings.help_level``, ``MatchConfig.help_level``).

* ``full``: lit drop targets (and, at the start of a turn, the hand cards that can take
  something), the yaku tracker (live and dead outs), the numbers on the koi-koi
  panel (what stopping pays, what the opponent would win), the one-line hints;
* ``highlights`` (shown as "light"): lit drop targets (and the hand cards that can take) only;
* ``none``: nothing — the keyboard cursor still shows where a key press would play.

>>> shows("full", "tracker"), shows("highlights", "targets"), shows("highlights", "hints")
(True, True, False)
"""

from __future__ import annotations

from typing import get_args

from koikoi_desktop.storage.models import HelpLevel

#: The levels, in the order the new-game and settings screens offer them: the values a
#: setting and a ledger row may hold (``storage.models.HelpLevel``, the one list of them).
HELP_LEVELS: tuple[str, ...] = get_args(HelpLevel)
SHOWS: dict[str, frozenset[str]] = {
    "full": frozenset({"targets", "tracker", "panel", "hints"}),
    "highlights": frozenset({"targets"}),
    "none": frozenset(),
}


def shows(level: str, what: str) -> bool:
    """Whether help level ``level`` shows ``what`` (targets, tracker, panel or hints); a level
    that is not one of :data:`HELP_LEVELS` is a KeyError (the recorder and the settings model only
    ever hand out those)."""
    return what in SHOWS[level]
