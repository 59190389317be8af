"""The 48 hanafuda cards with the ids, codes and categories of RULES.md §2 (R-DECK).

Cards are identified by their integer id 1–48; within a month ids run bright → animal → ribbon →
plain. Sets of cards are kept as bit masks (bit ``id`` set for card ``id``) so that scoring and
move generation are a handful of integer operations.

>>> DECK[0]
Card(id=1, code='JAN_CRANE', month=1, kind='bright')
>>> [c.id for c in DECK if c.month == 11]
[41, 42, 43, 44]
>>> month_of(44), kind_of(44), DECK[43].kind
(11, 'plain', 'plain')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["bright", "animal", "ribbon", "plain"]

KINDS: tuple[Kind, ...] = ("bright", "animal", "ribbon", "plain")

#: (code, kind, flags) for ids 1..48, exactly RULES.md §2.
_TABLE: tuple[tuple[str, Kind, tuple[str, ...]], ...] = (
    ("JAN_CRANE", "bright", ()),
    ("JAN_POEM", "ribbon", ("poetry",)),
    ("JAN_PLAIN_1", "plain", ()),
    ("JAN_PLAIN_2", "plain", ()),
    ("FEB_WARBLER", "animal", ()),
    ("FEB_POEM", "ribbon", ("poetry",)),
    ("FEB_PLAIN_1", "plain", ()),
    ("FEB_PLAIN_2", "plain", ()),
    ("MAR_CURTAIN", "bright", ("hanami",)),
    ("MAR_POEM", "ribbon", ("poetry",)),
    ("MAR_PLAIN_1", "plain", ()),
    ("MAR_PLAIN_2", "plain", ()),
    ("APR_CUCKOO", "animal", ()),
    ("APR_RIBBON", "ribbon", ("red_ribbon",)),
    ("APR_PLAIN_1", "plain", ()),
    ("APR_PLAIN_2", "plain", ()),
    ("MAY_BRIDGE", "animal", ()),
    ("MAY_RIBBON", "ribbon", ("red_ribbon",)),
    ("MAY_PLAIN_1", "plain", ()),
    ("MAY_PLAIN_2", "plain", ()),
    ("JUN_BUTTERFLIES", "animal", ("isc",)),
    ("JUN_BLUE", "ribbon", ("blue",)),
    ("JUN_PLAIN_1", "plain", ()),
    ("JUN_PLAIN_2", "plain", ()),
    ("JUL_BOAR", "animal", ("isc",)),
    ("JUL_RIBBON", "ribbon", ("red_ribbon",)),
    ("JUL_PLAIN_1", "plain", ()),
    ("JUL_PLAIN_2", "plain", ()),
    ("AUG_MOON", "bright", ("tsukimi",)),
    ("AUG_GEESE", "animal", ()),
    ("AUG_PLAIN_1", "plain", ()),
    ("AUG_PLAIN_2", "plain", ()),
    ("SEP_SAKE", "animal", ("sake", "hanami", "tsukimi")),
    ("SEP_BLUE", "ribbon", ("blue",)),
    ("SEP_PLAIN_1", "plain", ()),
    ("SEP_PLAIN_2", "plain", ()),
    ("OCT_DEER", "animal", ("isc",)),
    ("OCT_BLUE", "ribbon", ("blue",)),
    ("OCT_PLAIN_1", "plain", ()),
    ("OCT_PLAIN_2", "plain", ()),
    ("NOV_RAINMAN", "bright", ("rain",)),
    ("NOV_SWALLOW", "animal", ()),
    ("NOV_RIBBON", "ribbon", ("red_ribbon",)),
    ("NOV_LIGHTNING", "plain", ("gaji",)),
    ("DEC_PHOENIX", "bright", ()),
    ("DEC_PLAIN_1", "plain", ()),
    ("DEC_PLAIN_2", "plain", ()),
    ("DEC_PLAIN_3", "plain", ()),
)


@dataclass(frozen=True, slots=True)
class Card:
    """One hanafuda card: ``id`` 1–48, a stable ``code``, its ``month`` 1–12 and ``kind``."""

    id: int
    code: str
    month: int
    kind: Kind
    flags: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    @property
    def bit(self) -> int:
        """The card's bit in a card mask."""
        return 1 << self.id

    def __str__(self) -> str:
        return f"{self.id} {self.code}"


DECK: tuple[Card, ...] = tuple(
    Card(i + 1, code, i // 4 + 1, kind, frozenset(flags))
    for i, (code, kind, flags) in enumerate(_TABLE)
)
BY_CODE: dict[str, Card] = {c.code: c for c in DECK}
ALL_IDS: tuple[int, ...] = tuple(range(1, 49))

#: month of each id (index 0 unused).
MONTH: tuple[int, ...] = (0, *(c.month for c in DECK))


def month_of(card_id: int) -> int:
    """Month 1–12 of a card id (RULES.md §0: ``ceil(id / 4)``); ValueError for a non-card.

    The one place the month is worked out: the UI, the AI and the tests ask here (or read
    ``Card.month``), never repeat the arithmetic.
    """
    if not 1 <= card_id <= 48:
        raise ValueError(f"There is no card {card_id!r}: card ids run from 1 to 48.")
    return (card_id + 3) // 4


def kind_of(card_id: int) -> Kind:
    """Category of a card id: bright, animal, ribbon or plain (RULES.md §2).

    >>> kind_of(1), kind_of(33), kind_of(43), kind_of(44)
    ('bright', 'animal', 'ribbon', 'plain')
    """
    return card(card_id).kind


def mask_of(ids: Iterable[int]) -> int:
    """The bit mask of a collection of card ids."""
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def ids_of(mask: int) -> tuple[int, ...]:
    """The card ids in a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


FULL_MASK = mask_of(ALL_IDS)
MONTH_MASK: tuple[int, ...] = (0, *(mask_of(range(4 * m - 3, 4 * m + 1)) for m in range(1, 13)))
#: for each id, the mask of its month (index 0 unused).
MONTH_MASK_OF: tuple[int, ...] = (0, *(MONTH_MASK[month_of(i)] for i in ALL_IDS))

BRIGHTS = mask_of(c.id for c in DECK if c.kind == "bright")
NONRAIN_BRIGHTS = mask_of((1, 9, 29, 45))
RAIN_MAN = 41
ANIMALS = mask_of(c.id for c in DECK if c.kind == "animal")
RIBBONS = mask_of(c.id for c in DECK if c.kind == "ribbon")
PLAIN = mask_of(c.id for c in DECK if c.kind == "plain")
POETRY = mask_of((2, 6, 10))
BLUE = mask_of((22, 34, 38))
RED_RIBBONS = mask_of((14, 18, 26, 43))
INOSHIKACHO = mask_of((21, 25, 37))
SAKE_CUP = 33
CURTAIN = 9
MOON = 29
GAJI = 44
NOVEMBER = MONTH_MASK[11]

KIND_MASK: dict[Kind, int] = {
    "bright": BRIGHTS,
    "animal": ANIMALS,
    "ribbon": RIBBONS,
    "plain": PLAIN,
}


def card(card_id: int) -> Card:
    """The Card with this id (1–48); raises ValueError otherwise."""
    if not isinstance(card_id, int) or not 1 <= card_id <= 48:
        raise ValueError(f"There is no card {card_id!r}: card ids run from 1 to 48.")
    return DECK[card_id - 1]
