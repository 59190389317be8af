"""What a screen asks of the ledger (:data:`Ledger`): the repository itself, or the empty
ledger a session without a database answers with (:class:`EmptyLedger`); and a list of the
ledger's rows read a page at a time (:class:`PagedRows`).

:attr:`.store.Storage.ledger` is the one way in: the repository (:class:`.ledger_db.LedgerDB`,
where each query is written and documented) when the database is open, else :data:`EMPTY`. A
database that could not be opened (a refusing disk, an unusable folder) was told to the player
in one line when the game started; the screens then show an empty ledger, as they do for a
player who has not finished a match yet, without a check of their own. A screen can call only
what both answer (the type checker says so): the reads, never a write. A new query is written
in the repository, and its empty answer here.

No pygame, no files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar, overload

from .ledger_db import LedgerDB
from .models import MatchRecord
from .rating_rows import RatingPoint
from .stats import LedgerStats, MatchSummary


class EmptyLedger:
    """The ledger of a session whose database could not be opened: no matches, no ratings, no
    reviews; each query answers as :class:`.ledger_db.LedgerDB`'s does for an empty ledger. It
    holds nothing and changes nothing."""

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


#: What a screen reads the ledger through (see the module's docstring).
Ledger = LedgerDB | EmptyLedger

#: The one empty ledger (it has no state).
EMPTY = EmptyLedger()


T = TypeVar("T")


class PagedRows(Sequence[T]):
    """A read-only sequence over ``count`` rows fetched a page at a time (newest first).

    The ledger screen indexes it like a list, but only the pages it looks at are read, and at
    most :attr:`keep` pages are held: with 100,000 matches the screen holds a few hundred rows.
    """

    def __init__(self, count: int, fetch: Callable[[int, int], list[T]], *, page: int = 100):
        self._count = count
        self._fetch = fetch
        self._page = page
        self.keep = 6
        self._pages: dict[int, list[T]] = {}

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        number, offset = divmod(index, self._page)
        rows = self._pages.get(number)
        if rows is None:
            rows = self._fetch(number * self._page, self._page)
            if len(self._pages) >= self.keep:
                self._pages.pop(next(iter(self._pages)))
            self._pages[number] = rows
            self._fetched(number, rows)
        if offset >= len(rows):  # rows that failed the boundary were skipped: one less
            raise IndexError(index)
        return rows[offset]

    def _fetched(self, number: int, rows: list[T]) -> None:
        """A page shorter than the rows counted (damaged rows skipped): the sequence shrinks,
        and the other pages, which may have shifted, are read again."""
        expected = min(self._page, self._count - number * self._page)
        if len(rows) < expected:
            self._count -= expected - len(rows)
            self._pages = {number: rows}
