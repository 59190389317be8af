"""What a screen asks of the ledger: the read side of the repository (:class:`Ledger`), and the
empty ledger a session without a database answers with (:class:`EmptyLedger`).

:attr:`.store.Storage.ledger` is the one way in: the repository itself
(:class:`.ledger_db.LedgerDB`, whose reads these are) when the database is open, else
:data:`EMPTY`. A database that could not be opened (a refusing disk, an unusable folder) was
told to the player in one line when the game started; the screens then show an empty ledger,
as they do for a player who has not finished a match yet, without a check of their own.

No pygame, no files.
"""

from __future__ import annotations

from typing import Protocol

from .models import MatchRecord
from .rating_rows import RatingPoint
from .stats import LedgerStats, MatchSummary


class Ledger(Protocol):
    """The ledger's queries (see :class:`.ledger_db.LedgerDB` for what each reads and how a
    damaged row is skipped and noted)."""

    @property
    def generation(self) -> int:
        """Changes whenever rows were set aside or counted again: a paged view reads again."""
        ...

    def count(self, *, computer: bool | None = False) -> int:
        """How many matches: the player's, the computer-vs-computer ones (``computer=True``) or
        all (``None``)."""
        ...

    def page(self, offset: int, limit: int, *, computer: bool = False) -> list[MatchRecord]:
        """Recorded matches ``offset`` … ``offset + limit``, newest first (one screen page)."""
        ...

    def summaries(self, offset: int, limit: int, *, computer: bool = False) -> list[MatchSummary]:
        """The list lines of :meth:`page` (columns only)."""
        ...

    def get(self, match_id: str) -> tuple[MatchRecord, str | None] | None:
        """A recorded match and its replayable record text (None: not recorded)."""
        ...

    def latest_id(self) -> str | None:
        """The newest recorded match's id (None: none yet)."""
        ...

    def balance_history(self, limit: int = 50) -> list[tuple[str, str, int, int]]:
        """(match id, unit, player total, opponent total) of the last ``limit`` matches, oldest
        first; practice left out."""
        ...

    def rating_history(self, limit: int = 200) -> list[RatingPoint]:
        """The player's rating after each of the newest ``limit`` rated matches, oldest first."""
        ...

    def rating_of(self, match_id: str) -> RatingPoint | None:
        """The rating change a recorded match made (None: not rated, or not recorded)."""
        ...

    def review(self, match_id: str) -> str | None:
        """The cached review (JSON text) of a recorded match, if one was saved."""
        ...

    def stats(self, *, include_practice: bool = False) -> LedgerStats:
        """Lifetime statistics."""
        ...


class EmptyLedger:
    """The ledger of a session whose database could not be opened: no matches, no ratings, no
    reviews. It holds nothing and changes nothing."""

    generation = 0

    def count(self, *, computer: bool | None = False) -> int:
        return 0

    def page(self, offset: int, limit: int, *, computer: bool = False) -> list[MatchRecord]:
        return []

    def summaries(self, offset: int, limit: int, *, computer: bool = False) -> list[MatchSummary]:
        return []

    def get(self, match_id: str) -> tuple[MatchRecord, str | None] | None:
        return None

    def latest_id(self) -> str | None:
        return None

    def balance_history(self, limit: int = 50) -> list[tuple[str, str, int, int]]:
        return []

    def rating_history(self, limit: int = 200) -> list[RatingPoint]:
        return []

    def rating_of(self, match_id: str) -> RatingPoint | None:
        return None

    def review(self, match_id: str) -> str | None:
        return None

    def stats(self, *, include_practice: bool = False) -> LedgerStats:
        return LedgerStats.empty()


#: The one empty ledger (it has no state).
EMPTY: Ledger = EmptyLedger()
