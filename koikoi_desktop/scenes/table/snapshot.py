"""What the table's view draws besides the moving cards: a read-only snapshot the controller
builds from the viewer's :class:`~koikoi_desktop.engine.PlayerView` (its own module, so the view
reads the snapshot without importing the controller that makes it: the table's modules import
one way, ``tests/test_table_layers.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_desktop.engine import PlayerView, Rules
from koikoi_desktop.i18n import Words
from koikoi_desktop.scenes.table.text import LogLine


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """What the view draws besides the moving cards: read-only, built from the viewer's view.

    ``view`` is the viewer's view of the round on the table (the finished round while its end
    still animates), ``bases`` both seats' yaku points from their (public) capture piles.
    ``lifted``: the card picked up (0: none), ``held`` while the pointer holds it, ``dragging``
    once it follows the pointer; ``lit``: its target cards; ``cursor``: the keyboard's target
    among them (0: the open field, -1: none); ``focus``: the hand card the keyboard would lift;
    ``asking``: a question or the curtain is up.
    """

    view: PlayerView
    #: The language and name style the snapshot was worded in (the view words the rest in it).
    words: Words
    round_number: int
    balances: tuple[int, int]
    bases: tuple[int, int]
    names: tuple[str, str]
    viewer: int
    rules: Rules
    practice: bool
    #: What the player's help level shows (``ui/helps.py``): the yaku tracker, the hints.
    show_tracker: bool
    show_hints: bool
    computers: frozenset[int]
    dealer_known: bool
    my_turn: bool
    curtain: bool
    lifted: int
    held: bool
    dragging: bool
    #: The lit target the lifted card points at (0: none), the card shown enlarged (0: none).
    hot: int
    inspected: int
    asking: bool
    lit: frozenset[int]
    open_field: bool
    cursor: int
    focus: int
    message: str
    suggestion: str
    #: The move log as facts (``table_text.log_text`` words them when drawn).
    log: tuple[LogLine, ...]
    can_undo: bool
    #: The header's title in place of the round count ("" for a match: the round count).
    title: str = ""
    #: At the start of the player's turn (nothing held), the hand cards that would take
    #: something, as the engine's legal actions and captures say; empty at help level none.
    capturable: frozenset[int] = frozenset()
