"""Yaku progress for the tracker panel: which cards each yaku wants, held, missing or gone.

This is display only: the score itself always comes from the engine (``score_yaku``). The card
sets are the definitions of RULES.md §7.1; a row is left out when the rule set switches the yaku
off (viewing yaku) or gives it no value. A card the opponent has captured can no longer be
taken, so it is marked "gone" (drawn crossed out, not only dimmed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from koikoi_desktop.ui.cards import ANIMALS, BRIGHTS, RIBBONS

PLAIN = frozenset(set(range(1, 49)) - BRIGHTS - ANIMALS - RIBBONS)


@dataclass(frozen=True)
class Row:
    """One tracker row: ``key`` (yaku key), the cards it wants, how many it needs, how many held."""

    key: str
    cards: tuple[int, ...]
    need: int
    held: int
    gone: frozenset[int]
    count_only: bool  # counting yaku (tane, tanzaku, kasu): show a count, not every card

    @property
    def done(self) -> bool:
        return self.held >= self.need

    @property
    def possible(self) -> bool:
        return len(self.cards) - len(self.gone) >= self.need


def rows(
    mine: set[int] | frozenset[int], theirs: set[int] | frozenset[int], rules: Any
) -> list[Row]:
    """Progress rows for the player holding ``mine`` against an opponent holding ``theirs``."""
    out: list[Row] = []

    def add(
        key: str,
        cards: frozenset[int] | set[int],
        need: int,
        *,
        count_only: bool = False,
        value_key: str | None = None,
    ) -> None:
        if rules is not None and rules.value(value_key or key) <= 0:
            return
        cs = tuple(sorted(cards))
        held = len(set(cs) & set(mine))
        out.append(
            Row(
                key,
                cs,
                need,
                min(held, max(need, held)),
                frozenset(set(cs) & set(theirs)),
                count_only,
            )
        )

    add(
        "goko" if len(set(mine) & BRIGHTS) >= 4 else "sanko",
        BRIGHTS,
        5 if len(set(mine) & BRIGHTS) >= 4 else 3,
    )
    if getattr(rules, "viewing_yaku", True):
        add("hanami", {9, 33}, 2, value_key="hanami")
        add("tsukimi", {29, 33}, 2, value_key="tsukimi")
    add("inoshikacho", {21, 25, 37}, 3)
    add("akatan", {2, 6, 10}, 3)
    add("aotan", {22, 34, 38}, 3)
    add("tane", ANIMALS, 5, count_only=True)
    add("tanzaku", RIBBONS, 5, count_only=True)
    plain = set(PLAIN) | ({33} if getattr(rules, "sake_cup_is_plain", False) else set())
    add("kasu", plain, 10, count_only=True)
    return out
