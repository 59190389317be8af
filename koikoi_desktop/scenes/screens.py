"""Every screen, declared once: a frozen record naming the screen and holding its arguments.

A screen that opens another builds the other's record and asks the router for its scene::

    self.app.stack.push(self.app.router.build(screens.Review(record=text, match_id=mid)))

The record is the screen's one declaration: its fields are the screen's arguments, with their
types and defaults, and mypy checks every record built (a wrong or missing argument is a type
error where the screen is opened). The scene takes its record whole
(``ReviewScene(app, screen)``) and reads the fields; the router
(:func:`koikoi_desktop.scenes.build`) turns a record into its scene, one ``case`` per record,
checked exhaustive by mypy (``assert_never``): a record added to :data:`Screen` without its
case is a type error.

Decision: the records live here, below every screen, because the screens open each other in
circles (title -> table -> pause -> title; table -> match result -> new game -> table). A
screen module imports only this module to open any other, never another screen's module, so
the imports stay one way while the arguments are written once. (Before, each screen's
signature was written three times: a ``Screens`` protocol, the factory's method and the
scene's ``__init__``, which mypy kept in step but a person had to write and read thrice.)

To add a screen: write its scene (a class deriving from ``Scene`` whose ``__init__`` takes
``(app)`` or ``(app, screen)``), declare its record here and add it to :data:`Screen`; mypy then
asks for its ``case`` in the router.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pathlib import Path

    from koikoi_desktop.engine import Rules as RuleSet
    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.storage.recorder import Resumed
    from koikoi_desktop.words.names import Names

#: Where ``--scene round-summary`` / ``match-result`` take a seeded table: played on to there.
FastForward = Literal["round-summary", "match-result"]


@dataclass(frozen=True)
class Title:
    """The title menu."""


@dataclass(frozen=True)
class NewGame:
    """The new-game screen (opponent, rules, rounds)."""


@dataclass(frozen=True, kw_only=True)
class Table:
    """The table: a match played (``config``), resumed (``autosave``) or seeded."""

    config: MatchConfig | None = None
    autoplay: bool = False
    #: With no config: a new match of this seed and preset (the command line's).
    seed: int | None = None
    preset: str | None = None
    #: Played on, without drawing, to the round summary or the match result.
    fast_forward: FastForward | None = None
    #: A saved match to continue (the title's Continue).
    autosave: Resumed | None = None


@dataclass(frozen=True)
class Tutorial:
    """The guided first round: the table, with a lesson as its guide."""


@dataclass(frozen=True)
class Pause:
    """The pause menu with no table under it (the table opens its own, over itself)."""


@dataclass(frozen=True)
class Settings:
    """The settings screen."""


@dataclass(frozen=True, kw_only=True)
class Ledger:
    """The ledger: the list of recorded matches (the player's, or with ``computer`` the
    computer-vs-computer ones)."""

    computer: bool = False


@dataclass(frozen=True, kw_only=True)
class LedgerMatch:
    """One recorded match of the ledger's list (line ``index``, newest first), to its rounds;
    ``on_leave`` is told the line shown last (left / right walk the list)."""

    index: int = 0
    computer: bool = False
    on_leave: Callable[[int], None] | None = None


@dataclass(frozen=True, kw_only=True)
class LedgerStats:
    """The ledger's lifetime statistics; a list's chip chosen there tells ``on_list`` which list
    (computer or not) and goes back to it."""

    on_list: Callable[[bool], None] | None = None


@dataclass(frozen=True, kw_only=True)
class Review:
    """The review of a recorded match (or of some of its rounds)."""

    record: str = ""
    #: The ledger's id of the match, when it is in the ledger (keeps its judgements).
    match_id: str | None = None
    names: Names | None = None
    #: The seat whose decisions are judged.
    viewer: int = 0
    start_round: int | None = None
    #: Only these rounds (a round summary's review); None: every round.
    rounds: tuple[int, ...] | None = None
    settled_only: bool = False
    seats: tuple[str, str] | None = None
    #: Judge in the game's process (tests, the command line), not in a worker.
    inline: bool = False


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The rules explained, on a page, for a rule set (the match's, or the settings')."""

    page: str = "turn"
    rules: RuleSet | str | None = None
    preset: str | None = None


@dataclass(frozen=True)
class History:
    """The rules screen opened on the history of hanafuda (the title's "About hanafuda")."""


@dataclass(frozen=True)
class Credits:
    """Who made the game, and the licences."""


@dataclass(frozen=True, kw_only=True)
class MonthReference:
    """The cards month by month (``card``: opened on that card)."""

    month: int | None = None
    card: int = 0
    rules: RuleSet | str | None = None


@dataclass(frozen=True, kw_only=True)
class YakuReference:
    """The yaku, each with its cards and points under a rule set."""

    rules: RuleSet | str | None = None
    yaku: str | None = None


@dataclass(frozen=True, kw_only=True)
class Quiz:
    """The cards quiz; ``on_leave`` is told the card shown last."""

    seed: int | None = None
    on_leave: Callable[[int], None] | None = None


@dataclass(frozen=True)
class Unsaved:
    """Finished matches the disk refused: retry, export, or quit without them."""


@dataclass(frozen=True, kw_only=True)
class MenuOffer:
    """The unpacked game asks to add itself to the desktop's menu."""

    bundle: Path


#: Every screen's record: the router has one case for each.
Screen = (
    Title
    | NewGame
    | Table
    | Tutorial
    | Pause
    | Settings
    | Ledger
    | LedgerMatch
    | LedgerStats
    | Review
    | Rules
    | History
    | Credits
    | MonthReference
    | YakuReference
    | Quiz
    | Unsaved
    | MenuOffer
)
