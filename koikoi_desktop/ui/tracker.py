"""Yaku progress for the tracker panel: which cards each yaku wants, held, missing or gone.

Display only, and it never decides what scores: a row is ticked (``made``) only when the
engine's scoring of the captured cards under the rules in play (``engine.score_yaku``) holds that
yaku — or a yaku that took its cards in (Akaao for Akatan and Aotan; an Ino-Shika-Chō counting
every animal for Tane). So Moon, Phoenix and the Rain Man tick nothing under rules where the
Rain Man cannot make Three Brights, as the header's "Yaku: 0" says.

The card sets come from the engine's deck (``engine.cards``); a row is left out when the rule set
switches the yaku off (viewing yaku) or gives it no value. A card the opponent has captured can
no longer be taken, so it is marked "gone" (drawn crossed out, not only dimmed).
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_desktop.engine import cards as deck
from koikoi_desktop.engine.rules import Rules
from koikoi_desktop.engine.yaku import Score, score_yaku

LIGHTS = ("goko", "shiko", "ame_shiko", "sanko")


@dataclass(frozen=True)
class Row:
    """One tracker row: ``key`` (yaku key), the cards it wants, how many it needs, how many held,
    and whether the engine's score holds it (``made``)."""

    key: str
    cards: tuple[int, ...]
    need: int
    held: int
    gone: frozenset[int]
    count_only: bool  # counting yaku (tane, tanzaku, kasu): show a count, not every card
    made: bool = False

    @property
    def done(self) -> bool:
        """Ticked: the engine scores this yaku (never a count of the tracker's own)."""
        return self.made

    @property
    def possible(self) -> bool:
        return self.made or len(self.cards) - len(self.gone) >= self.need


def _made(key: str, held: set[int], need: int, score: Score) -> bool:
    """Whether ``score`` holds yaku ``key``, or — the row complete — a yaku that absorbed it
    (its cards include every card of the row the player holds)."""
    if any(y.key == key for y in score.yaku):
        return True
    return len(held) >= need and any(
        _absorbs(y.key, key) and held <= set(y.cards) for y in score.yaku
    )


def _absorbs(big: str, small: str) -> bool:
    """Yaku ``big`` can stand for ``small`` (the sets of RULES.md §7: a ribbon set over the
    ribbons, Ino-Shika-Chō over the animals)."""
    return (big, small) in {
        ("akaao", "akatan"),
        ("akaao", "aotan"),
        ("akaao", "tanzaku"),
        ("akatan", "tanzaku"),
        ("aotan", "tanzaku"),
        ("inoshikacho", "tane"),
    }


def rows(
    mine: set[int] | frozenset[int], theirs: set[int] | frozenset[int], rules: Rules
) -> list[Row]:
    """Progress rows for the player holding ``mine`` against an opponent holding ``theirs``,
    ticked from the engine's scoring of ``mine`` under ``rules``."""
    score = score_yaku(mine, rules)
    mine_set, theirs_set = set(mine), set(theirs)
    out: list[Row] = []

    def add(
        key: str,
        cards: tuple[int, ...],
        need: int,
        *,
        count_only: bool = False,
        value_key: str | None = None,
    ) -> None:
        if rules.value(value_key or key) <= 0:
            return
        held = set(cards) & mine_set
        out.append(
            Row(
                key,
                cards,
                need,
                len(held),
                frozenset(set(cards) & theirs_set),
                count_only,
                _made(key, held, need, score),
            )
        )

    brights = deck.ids_of(deck.BRIGHTS)
    light = next((y.key for y in score.yaku if y.key in LIGHTS), None)
    need = {"goko": 5, "shiko": 4, "ame_shiko": 4, "sanko": 3}
    add(light or "sanko", brights, need[light or "sanko"])
    if rules.viewing_yaku:
        add("hanami", (9, 33), 2)
        add("tsukimi", (29, 33), 2)
    add("inoshikacho", deck.ids_of(deck.INOSHIKACHO), 3)
    add("akatan", deck.ids_of(deck.POETRY), 3)
    add("aotan", deck.ids_of(deck.BLUE), 3)
    add("tane", deck.ids_of(deck.ANIMALS), 5, count_only=True)
    add("tanzaku", deck.ids_of(deck.RIBBONS), 5, count_only=True)
    plain = deck.PLAIN | ((1 << 33) if rules.sake_cup_is_plain else 0)
    add("kasu", deck.ids_of(plain), 10, count_only=True)
    return out
