"""The deal and its at-once results: packet order (R-DEAL-2), deck checks, instant wins
(R-INSTANT), and the Outcome value a round ends with (RULES.md §9-§10).

>>> from koikoi_desktop.engine.rules import PRESETS
>>> [d for d, _ in deal_positions(PRESETS["nintendo"])][:6]
['nd', 'nd', 'f', 'f', 'd', 'd']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from koikoi_desktop.engine.cards import MONTH_MASK, mask_of
from koikoi_desktop.engine.events import RoundEnd
from koikoi_desktop.engine.rules import Rules
from koikoi_desktop.engine.yaku import Yaku

#: R-DEAL-2: for each deal order, the destination of each packet of a pass.
_ORDERS = {"nd-d-f": ("nd", "d", "f"), "nd-f-d": ("nd", "f", "d")}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended (RULES.md §9-§10).

    ``winner`` is 0, 1 or None (draw / void round); ``reason`` a :class:`RoundEnd` (``stop``,
    ``forced_stop``, ``instant_win``, ``exhaustion_draw``, ``exhaustion_last_caller``,
    ``exhaustion_no_caller``, ``oya_hand_empty_void``, ``oya_hand_empty_win``). ``base`` is the
    winner's yaku total (or the instant-win value), ``factors`` the multipliers applied as
    (name, factor), ``final`` the round's score, ``yaku`` the winner's scored yaku, ``calls``
    (winner's, loser's) koi-koi calls.
    """

    winner: int | None
    reason: RoundEnd
    base: int = 0
    final: int = 0
    yaku: tuple[Yaku, ...] = ()
    factors: tuple[tuple[str, int], ...] = ()
    calls: tuple[int, int] = (0, 0)
    instant: str = ""

    def points_for(self, seat: int) -> int:
        """The round's result counted from ``seat``: ``+final`` when it won, ``-final`` when
        the other seat won, 0 when nobody did.

        >>> Outcome(1, RoundEnd.STOP, final=6).points_for(0)
        -6
        """
        if self.winner is None:
            return 0
        return self.final if self.winner == seat else -self.final


def instant_win(hand: Iterable[int] | int, rules: Rules) -> tuple[str, int] | None:
    """The best instant win (kind, value) a dealt hand holds under ``rules`` (R-INSTANT).

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> instant_win([1, 2, 3, 4, 5, 6, 7, 8], PRESETS["seed-000"])
    ('double_tenho', 14)
    >>> instant_win([1, 2, 5, 6, 9, 10, 13, 17], PRESETS["nintendo"]) is None
    True
    """
    h = hand if isinstance(hand, int) else mask_of(hand)
    counts = [(h & m).bit_count() for m in _MONTHS]
    fours = counts.count(4)
    best: tuple[str, int] | None = None
    # in this order, a later kind only where it is worth more (a dealt hand rarely holds any)
    if fours >= 2 and rules.instant_double_tenho is not None:
        best = ("double_tenho", rules.instant_double_tenho)
    if (
        fours
        and rules.instant_teshi is not None
        and (best is None or rules.instant_teshi > best[1])
    ):
        best = ("teshi", rules.instant_teshi)
    value = rules.instant_kuttsuki
    if value is not None and (best is None or value > best[1]) and not any(c & 1 for c in counts):
        best = ("kuttsuki", value)
    return best


#: The twelve months' card masks, January first.
_MONTHS = MONTH_MASK[1:13]


def deal_positions(rules: Rules) -> tuple[tuple[str, int], ...]:
    """R-DEAL-2: for deck index 0..23, (destination, pass) with destination nd, d or f."""
    return _positions(rules.deal_order, rules.deal_packet)


@cache
def _positions(deal_order: str, packet: int) -> tuple[tuple[str, int], ...]:
    order = _ORDERS[deal_order]
    out: list[tuple[str, int]] = []
    for pas in range(8 // packet):
        for dest in order:
            out.extend((dest, pas) for _ in range(packet))
    return tuple(out)


def deal_slots(rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """:func:`deal_positions` grouped: the deck indices dealt to the field, to the dealer and
    to the non-dealer (what a deal reads, once per rule set)."""
    return _slots(rules.deal_order, rules.deal_packet)


@cache
def _slots(
    deal_order: str, packet: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    positions = _positions(deal_order, packet)
    field, dealer, other = (
        tuple(i for i, (dest, _) in enumerate(positions) if dest == want)
        for want in ("f", "d", "nd")
    )
    return field, dealer, other


_CARD_IDS = frozenset(range(1, 49))


def _check_deck(deck: Sequence[int]) -> tuple[int, ...]:
    d = tuple(map(int, deck))
    if len(d) != 48 or set(d) != _CARD_IDS:
        raise ValueError("A deck order must list each of the 48 card ids (1-48) exactly once.")
    return d
