"""The game's facts as data, in one module: what the AI, the UI and storage list by name.

Each fact is written once, here or in the engine (and only named here): the card kinds, the
lights (the five bright cards and the four bright yaku), how many cards a counting yaku needs,
the computer's levels and the kinds of seat a match records. A screen that lists the kinds or
the levels, the settings and the saved-match models, and the opponents all import them from
here, so a new level or a changed rule is one edit. Words for them are made when drawn
(``words.names``); these are keys, never text. It sits in the engine package (pure data, no
rule of play) because the opponents import the engine only.

>>> LEVELS
('beginner', 'intermediate', 'expert')
>>> SEAT_KINDS
('human', 'beginner', 'intermediate', 'expert')
>>> LIGHT_CARDS, CARD_KINDS[0], YAKU_NEEDS["kasu"]
((1, 9, 29, 41, 45), 'bright', 10)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, get_args

from koikoi_desktop.engine.cards import BRIGHTS, KINDS, Kind, ids_of
from koikoi_desktop.engine.yaku import KASU_NEED, LIGHT_YAKU, TANE_NEED, TANZAKU_NEED

#: The card kinds, bright first (RULES.md §2): the groups a pile or a reference is drawn in
#: (typed as text, like LEVELS: screens look them up by the keys they read).
CARD_KINDS: tuple[str, ...] = KINDS
#: The five bright cards ("lights"), by id.
LIGHT_CARDS: tuple[int, ...] = ids_of(BRIGHTS)
#: How many cards each counting yaku needs (RULES.md §7), the engine's constants.
YAKU_NEEDS: Mapping[str, int] = MappingProxyType(
    {"tane": TANE_NEED, "tanzaku": TANZAKU_NEED, "kasu": KASU_NEED}
)

#: A computer opponent's level, weakest first.
Level = Literal["beginner", "intermediate", "expert"]
LEVELS: tuple[str, ...] = get_args(Level)
#: Who sits in a seat of a recorded match: a person, or a computer of a level.
SeatKind = Literal["human", Level]
SEAT_KINDS: tuple[str, ...] = get_args(SeatKind)

__all__ = [
    "CARD_KINDS",
    "LEVELS",
    "LIGHT_CARDS",
    "LIGHT_YAKU",
    "SEAT_KINDS",
    "YAKU_NEEDS",
    "Kind",
    "Level",
    "SeatKind",
]
