"""English names of cards, months and yaku for the opponents' explanations.

The UI translates reasons itself (a :class:`~koikoi_desktop.ai.base.Reason` carries card ids and
yaku keys); these are only the plain-English rendering used by ``explain()`` and the arena.

>>> card_name(29), card_name(3), yaku_name("inoshikacho")
('the full moon', 'a pine plain', 'Ino-Shika-Cho')
"""

from __future__ import annotations

from koikoi_desktop.engine.cards import DECK

_PLANTS = (
    "",
    "pine",
    "plum",
    "cherry",
    "wisteria",
    "iris",
    "peony",
    "bush clover",
    "susuki",
    "chrysanthemum",
    "maple",
    "willow",
    "paulownia",
)

_SPECIAL = {
    1: "the crane",
    2: "the pine poetry ribbon",
    5: "the bush warbler",
    6: "the plum poetry ribbon",
    9: "the cherry curtain",
    10: "the cherry poetry ribbon",
    13: "the cuckoo",
    17: "the eight-plank bridge",
    21: "the butterflies",
    22: "the peony blue ribbon",
    25: "the boar",
    29: "the full moon",
    30: "the geese",
    33: "the sake cup",
    34: "the chrysanthemum blue ribbon",
    37: "the deer",
    38: "the maple blue ribbon",
    41: "the rain man",
    42: "the swallow",
    44: "the lightning",
    45: "the phoenix",
}

_YAKU = {
    "goko": "Goko",
    "shiko": "Shiko",
    "ame_shiko": "Ame-Shiko",
    "sanko": "Sanko",
    "hanami": "Hanami",
    "tsukimi": "Tsukimi",
    "inoshikacho": "Ino-Shika-Cho",
    "akaao": "Akatan-Aotan",
    "akatan": "Akatan",
    "aotan": "Aotan",
    "tane": "Tane",
    "tanzaku": "Tanzaku",
    "kasu": "Kasu",
    "trio": "Trio",
    "teshi": "Teshi",
    "kuttsuki": "Kuttsuki",
    "double_tenho": "Double Tenho",
    "lights": "the brights",
}


def card_name(card_id: int) -> str:
    """``'the full moon'``, ``'the wisteria ribbon'``, ``'a pine plain'``."""
    if card_id in _SPECIAL:
        return _SPECIAL[card_id]
    c = DECK[card_id - 1]
    plant = _PLANTS[c.month]
    if c.kind == "ribbon":
        return f"the {plant} ribbon"
    return f"a {plant} plain"


def month_name(month: int) -> str:
    """The month's plant: ``'susuki'``."""
    return _PLANTS[month] if 1 <= month <= 12 else str(month)


def yaku_name(key: str) -> str:
    """The display name of a yaku key."""
    return _YAKU.get(key, key)
