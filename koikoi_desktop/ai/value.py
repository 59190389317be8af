"""The learned value of a round position (issue 44, item 2): what a seat expects the round to pay.

A linear model over where every card lies, seen from the seat valued (``me``): each of the 48
cards in my pile, his pile, on the field, in my hand or in his hand (the draw pile is the
baseline), plus the standing of ``knowledge`` (my effective points and potential less his),
who moves, and each seat's koi-koi calls; one set of weights for each quarter of the round
(turns played 0-3, 4-7, 8-11, 12-15). It is fitted by ``training/leaf_value.py`` (in the
repository, not in the wheel; ridge regression on self-play rounds, the round's result for
``me`` as the target, reproducible from its seed) and shipped as ``data/leaf_value.json`` (a
few KB), read here in pure Python: a value is about fifty table look-ups.

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

from koikoi_desktop.engine.round import RoundState

from .knowledge import Knowledge

#: Card locations with a weight of their own (the draw pile is the baseline, weight 0).
LOCATIONS = ("my_pile", "his_pile", "field", "my_hand", "his_hand")
#: Dense features after the card locations: bias, standing, I move, my calls, his calls.
DENSE = ("bias", "standing", "to_move", "my_calls", "his_calls")
N_CARDS = 48
N_FEATURES = len(LOCATIONS) * N_CARDS + len(DENSE)
#: Turns played (both seats) where each stage's weights start.
STAGES = (0, 4, 8, 12)
DATA = ("data", "leaf_value.json")


def stage_of(turns_played: int) -> int:
    """The stage (0-3) of a position by the turns both seats have played."""
    return min(len(STAGES) - 1, max(0, turns_played) // 4)


def sparse_features(s: RoundState, me: int, k: Knowledge) -> tuple[list[int], list[float]]:
    """The indices of the card-location features that are 1 and the dense features' values
    (``DENSE`` order) of the complete round ``s`` seen from seat ``me``."""
    him = 1 - me
    masks = (s.caps[me], s.caps[him], s.field_mask, s.hands[me], s.hands[him])
    idx: list[int] = []
    for loc, mask in enumerate(masks):
        off = loc * N_CARDS
        m = mask
        while m:
            low = m & -m
            idx.append(off + low.bit_length() - 1)
            m ^= low
    dense = [
        1.0,
        k.standing(s.caps[me], s.caps[him]),
        1.0 if s.to_move == me else 0.0,
        float(s.calls[me]),
        float(s.calls[him]),
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
        base = len(LOCATIONS) * N_CARDS
        for j, x in enumerate(dense):
            v += w[base + j] * x
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
    "LOCATIONS",
    "N_FEATURES",
    "STAGES",
    "LeafModel",
    "leaf_model",
    "sparse_features",
    "stage_of",
]
