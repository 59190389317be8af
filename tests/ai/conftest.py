"""Helpers for the opponent tests: build a deal with chosen hands, field and draw pile."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from koikoi_desktop.engine import Rules, new_round
from koikoi_desktop.engine.round import RoundState, deal_positions


def deck_for(
    rules: Rules,
    *,
    dealer: int,
    dealer_hand: Sequence[int],
    other_hand: Sequence[int],
    field: Sequence[int],
    pile_top: Sequence[int] = (),
    seed: int = 0,
) -> list[int]:
    """A deck order (index 0 on top) that deals exactly these hands and field; the draw pile
    starts with ``pile_top`` and continues with the remaining cards shuffled by ``seed``."""
    assert len(dealer_hand) == len(other_hand) == len(field) == 8
    used = [*dealer_hand, *other_hand, *field, *pile_top]
    assert len(set(used)) == len(used)
    rest = [c for c in range(1, 49) if c not in used]
    random.Random(seed).shuffle(rest)
    sources = {"d": list(dealer_hand), "nd": list(other_hand), "f": list(field)}
    deck = [sources[dest].pop(0) for dest, _ in deal_positions(rules)]
    return deck + list(pile_top) + rest


def round_with(rules: Rules, *, dealer: int = 0, **kw: Sequence[int] | int) -> RoundState:
    """A new round dealt from :func:`deck_for`."""
    return new_round(rules, dealer=dealer, deck=deck_for(rules, dealer=dealer, **kw))  # type: ignore[arg-type]


@pytest.fixture
def make_round():
    return round_with
