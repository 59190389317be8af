"""The learned value of a round position (issue 44, item 2): what a seat expects the round to pay.

A linear model over where every card lies, seen from the seat valued (``me``): each of the 48
cards in my pile, his pile, on the field, in my hand or in his hand (the draw pile is the
baseline); how far each seat is from each yaku it can still make (an indicator for one, two or
three cards missing of each of ``PROGRESS_GOALS``: the steps of a yaku are not linear in its
cards); the standing of ``knowledge`` (my effective points and potential less his), each seat's
cashed points, who moves, each seat's koi-koi calls, and the tempo (the best capture on the
field of the seat to move, and the other seat's best capture on the same field); one set of
weights for each quarter of the round (turns played 0-3, 4-7, 8-11, 12-15). It is fitted by
``training/leaf_value.py`` (in the repository, not in the wheel; ridge regression on self-play
rounds, the round's result for ``me`` as the target, reproducible from its seed) and shipped as
``data/leaf_value.json`` (a few KB), read here in pure Python: a value is about sixty table
look-ups and two ``Knowledge.best_capture`` calls (some 70 µs at a fresh deal).

Both hands are features: the model values a complete round (a world the search imagined, in
which both hands are dealt), never a player's view, so the Expert stays honest — it only sees
hands it dealt itself from what it may know.

>>> from koikoi_desktop.engine import PRESETS, new_round
>>> import random
>>> s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(3))
>>> m = leaf_model()
>>> isinstance(m.value(s, 0), float)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from koikoi_desktop.engine.cardset import gaji_open
from koikoi_desktop.engine.round import RoundState

from .knowledge import Knowledge

#: Card locations with a weight of their own (the draw pile is the baseline, weight 0).
LOCATIONS = ("my_pile", "his_pile", "field", "my_hand", "his_hand")
#: The yaku whose progress is a feature of its own, for each seat: how many cards each still
#: misses (1, 2 or 3: an indicator each; made, hopeless or further off is the baseline).
PROGRESS_GOALS = (
    "sanko",
    "hanami",
    "tsukimi",
    "inoshikacho",
    "akatan",
    "aotan",
    "tane",
    "tanzaku",
    "kasu",
)
MISSING = (1, 2, 3)
N_CARDS = 48
#: Where the progress indicators start (after the card locations).
PROGRESS0 = len(LOCATIONS) * N_CARDS
N_PROGRESS = 2 * len(PROGRESS_GOALS) * len(MISSING)
#: Dense features after the card locations and the progress indicators: bias, standing, I
#: move, the calls, each seat's cashed points, and the tempo (the best capture on the field, in
#: the standing, of the seat to move and of the other one, signed from ``me``).
DENSE = (
    "bias",
    "standing",
    "to_move",
    "my_calls",
    "his_calls",
    "my_points",
    "his_points",
    "my_tempo_moving",
    "his_reply_to_me",
    "his_tempo_moving",
    "my_reply_to_him",
)
DENSE0 = PROGRESS0 + N_PROGRESS
N_FEATURES = DENSE0 + len(DENSE)
#: Turns played (both seats) where each stage's weights start.
STAGES = (0, 4, 8, 12)
DATA = ("data", "leaf_value.json")


def stage_of(turns_played: int) -> int:
    """The stage (0-3) of a position by the turns both seats have played."""
    return min(len(STAGES) - 1, max(0, turns_played) // 4)


#: Where each of ``PROGRESS_GOALS`` sits in a seat's block of progress indicators.
_GOAL_SLOT = {key: g for g, key in enumerate(PROGRESS_GOALS)}


def _missing(k: Knowledge, pile: int, blocked: int) -> list[int]:
    """For each of ``PROGRESS_GOALS`` (in order) the cards ``pile`` still misses, or 0 when it
    is made, out of reach (``blocked``, the other pile, holds too many) or not played: what
    ``Knowledge.open_goals`` says."""
    out = [0] * len(PROGRESS_GOALS)
    for key, missing, _ in k.open_goals(pile, blocked):
        slot = _GOAL_SLOT.get(key)
        if slot is not None:
            out[slot] = missing
    return out


def sparse_features(s: RoundState, me: int, k: Knowledge) -> tuple[list[int], list[float]]:
    """The indices of the binary features that are 1 (card locations, yaku progress) and the
    dense features' values (``DENSE`` order) of the complete round ``s`` seen from seat
    ``me``."""
    him = 1 - me
    caps = s.caps
    masks = (caps[me], caps[him], s.field_mask, s.hands[me], s.hands[him])
    idx: list[int] = []
    for loc, mask in enumerate(masks):
        off = loc * N_CARDS
        m = mask
        while m:
            low = m & -m
            idx.append(off + low.bit_length() - 1)
            m ^= low
    per_seat = len(PROGRESS_GOALS) * len(MISSING)
    for seat, (pile, blocked) in enumerate(((caps[me], caps[him]), (caps[him], caps[me]))):
        off = PROGRESS0 + seat * per_seat
        for g, miss in enumerate(_missing(k, pile, blocked)):
            if 1 <= miss <= 3:
                idx.append(off + g * len(MISSING) + miss - 1)
    field = s.field_mask
    wild = gaji_open(s.rules, field, (caps[0], caps[1]))
    mine = k.best_capture(s.hands[me], field, caps[me], caps[him], wild)
    his = k.best_capture(s.hands[him], field, caps[him], caps[me], wild)
    moving = s.to_move == me
    dense = [
        1.0,
        k.standing(caps[me], caps[him]),
        1.0 if moving else 0.0,
        float(s.calls[me]),
        float(s.calls[him]),
        k.effective(k.base(caps[me])),
        k.effective(k.base(caps[him])),
        mine if moving else 0.0,
        -his if moving else 0.0,
        0.0 if moving else -his,
        0.0 if moving else mine,
    ]
    return idx, dense


@dataclass(frozen=True)
class LeafModel:
    """The fitted weights: ``weights[stage]`` is ``N_FEATURES`` long (card locations, then
    ``DENSE``)."""

    weights: tuple[tuple[float, ...], ...]
    meta: dict[str, Any]

    def value(self, s: RoundState, me: int, k: Knowledge | None = None) -> float:
        """The expected round result for ``me`` (+points won, −points lost) of the complete
        round ``s``."""
        if k is None:
            from .knowledge import knowledge_for

            k = knowledge_for(s.rules)
        w = self.weights[stage_of(s.turns[0] + s.turns[1])]
        idx, dense = sparse_features(s, me, k)
        v = 0.0
        for i in idx:
            v += w[i]
        for j, x in enumerate(dense):
            v += w[DENSE0 + j] * x
        return v


@cache
def leaf_model() -> LeafModel:
    """The shipped model (package data)."""
    ref = resources.files("koikoi_desktop.ai").joinpath(*DATA)
    data: dict[str, Any] = json.loads(ref.read_text(encoding="utf-8"))
    weights = tuple(tuple(float(x) for x in w) for w in data["weights"])
    if len(weights) != len(STAGES) or any(len(w) != N_FEATURES for w in weights):
        raise ValueError(f"{'/'.join(DATA)} does not fit this model's features")
    meta = {key: v for key, v in data.items() if key != "weights"}
    return LeafModel(weights, meta)


__all__ = [
    "DENSE",
    "DENSE0",
    "LOCATIONS",
    "N_FEATURES",
    "STAGES",
    "LeafModel",
    "leaf_model",
    "sparse_features",
    "stage_of",
]
