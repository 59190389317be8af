"""Yaku progress for the tracker panel: which cards each yaku wants, held, missing or gone.

Display only, and it never decides what scores: a row is ticked (``made``) only when the
engine's scoring of the captured cards under the rules in play (``engine.score_yaku``) holds that
yaku — or a yaku that took its cards in (Akaao for Akatan and Aotan; an Ino-Shika-Chō counting
every animal for Tane). So Moon, Phoenix and the Rain Man tick nothing under rules where the
Rain Man cannot make Three Brights, as the header's "Yaku: 0" says.

The card sets, the counts and which yaku stands in for which come from the engine
(``engine.yaku.goals``); a row is left out when the rule set switches the yaku off (viewing
yaku) or gives it no value. A card the opponent has captured can
no longer be taken, so it is marked "gone" (drawn crossed out, not only dimmed).
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_desktop.engine import cards as deck
from koikoi_desktop.engine.facts import CARD_KINDS, LIGHT_YAKU
from koikoi_desktop.engine.rules import Rules
from koikoi_desktop.engine.yaku import Goal, Score, goals, score_yaku


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


def _made(goal: Goal, held: set[int], score: Score, cover: dict[str, set[str]]) -> bool:
    """Whether ``score`` holds ``goal``'s yaku, or — the row complete — a yaku that the engine
    says stands in for it (``Goal.covers``) and holds every card of the row the player has."""
    if any(y.key == goal.key for y in score.yaku):
        return True
    return len(held) >= goal.need and any(
        goal.key in cover.get(y.key, ()) and held <= set(y.cards) for y in score.yaku
    )


#: The capture group whose count a counting yaku's count is (the capture piles' captions).
COUNTED_AS = {"animal": "tane", "ribbon": "tanzaku", "plain": "kasu"}


def group_counts(
    mine: set[int] | frozenset[int], theirs: set[int] | frozenset[int], rules: Rules
) -> dict[str, int]:
    """How many cards a capture group holds as the scoring counts them: the count of its
    counting yaku's row (Kasu's plains with the sake cup where the rules count it a plain),
    one source with the tracker; the pile's own count where the rules give that yaku no row.
    """
    by_key = {r.key: r.held for r in rows(mine, theirs, rules)}
    out: dict[str, int] = {}
    for group in CARD_KINDS:
        key = COUNTED_AS.get(group, "")
        if key in by_key:
            out[group] = by_key[key]
        else:
            out[group] = sum(1 for c in mine if deck.kind_of(c) == group)
    return out


def rows(
    mine: set[int] | frozenset[int], theirs: set[int] | frozenset[int], rules: Rules
) -> list[Row]:
    """Progress rows for the player holding ``mine`` against an opponent holding ``theirs``:
    the engine's :func:`~koikoi_desktop.engine.yaku.goals` under ``rules``, ticked from the
    engine's scoring of ``mine``.

    The light yaku share one row: the five brights, with the count the best light yaku held
    needs (Three Brights' count while none is held), counting only the brights that yaku
    takes (the Rain Man alone is 0 of Three Brights' 3). Akaao has no row of its own: its cards are
    the Akatan and Aotan rows'.
    """
    score = score_yaku(mine, rules)
    by_key = {g.key: g for g in goals(rules)}
    cover = {g.key: set(g.covers) for g in by_key.values()}
    mine_set, theirs_set = set(mine), set(theirs)
    out: list[Row] = []

    scored = {y.key: set(y.cards) & mine_set for y in score.yaku}

    def add(goal: Goal, cards: tuple[int, ...] | None = None) -> None:
        shown = cards or goal.cards
        held = set(goal.cards) & mine_set  # only what the yaku counts (no Rain Man for Sanko)
        # a made yaku holds what the engine's scoring counted in it (a sake cup that one
        # yaku only may take goes where the engine put it)
        counted = scored.get(goal.key, held)
        out.append(
            Row(
                goal.key,
                shown,
                goal.need,
                len(counted),
                frozenset(set(shown) & theirs_set),
                goal.counting,
                _made(goal, held, score, cover),
            )
        )

    light = next((y.key for y in score.yaku if y.key in LIGHT_YAKU), None)
    chased = by_key.get(light or "sanko")
    if chased is not None:
        add(chased, deck.ids_of(deck.BRIGHTS))
    for goal in by_key.values():
        if goal.key not in LIGHT_YAKU and goal.key != "akaao":
            add(goal)
    return out
