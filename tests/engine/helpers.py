"""Scenario helpers for the engine tests: stacked decks and small drivers.

Only the public engine surface is used (``koikoi_desktop.engine`` plus
``koikoi_desktop.engine.round.deal_positions``), as the hidden acceptance tests would.

``stacked_deck`` builds a 48-card deck order that puts the given cards at the deal positions of
RULES.md R-DEAL-2 for the rule set's packet size and order, the given pile cards on top of the
draw pile (top first), and fills every other slot. Filling avoids making pairs inside a hand or
the field (so no accidental instant win or field redeal) while cards of distinct months remain,
and uses plain cards first.

>>> from koikoi_desktop.engine import PRESETS, new_round
>>> r = PRESETS["nintendo"]
>>> deck = stacked_deck(r, dealer=0, dealer_hand=[1, 5], field=[2], pile=[48, 47])
>>> s = new_round(r, dealer=0, deck=deck)
>>> {1, 5} <= s.hand(0), 2 in s.field, len(s.hand(1))
(True, True, 8)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from koikoi_desktop.engine import (
    Action,
    IllegalAction,
    Rules,
    month_of,
    new_round,
    round_record,
)
from koikoi_desktop.engine.round import deal_positions

PRESET_NAMES = ("nintendo", "seed-000", "seed-001", "seed-003")
PLAIN_IDS = frozenset(
    (3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23, 24, 27, 28, 31, 32, 35, 36, 39, 40, 44, 46, 47, 48)
)


def month(card_id: int) -> int:
    """Month 1-12 of a card id (RULES.md §0): the engine's ``month_of``."""
    return month_of(card_id)


def stacked_deck(
    rules: Rules,
    dealer: int = 0,
    dealer_hand: Iterable[int] = (),
    nondealer_hand: Iterable[int] = (),
    field: Iterable[int] = (),
    pile: Iterable[int] = (),
) -> list[int]:
    """A deck order (index 0 on top) dealing exactly these cards under ``rules`` (R-DEAL-2).

    ``dealer`` only documents the call (the deal positions are relative to the dealer).
    ``pile`` lists the top of the draw pile, top first; the rest of the pile is filled after it.
    """
    del dealer  # positions are "d" / "nd" relative to whoever deals
    want = {
        "d": list(dealer_hand),
        "nd": list(nondealer_hand),
        "f": list(field),
    }
    top = list(pile)
    given = want["d"] + want["nd"] + want["f"] + top
    if len(given) != len(set(given)):
        raise ValueError(f"a card is given twice: {sorted(given)}")
    if any(not 1 <= c <= 48 for c in given):
        raise ValueError("card ids run from 1 to 48")
    for k, v in want.items():
        if len(v) > 8:
            raise ValueError(f"{k}: at most 8 cards")
    if len(top) > 24:
        raise ValueError("the pile holds 24 cards")
    spare = [c for c in range(1, 49) if c not in set(given)]
    # plain cards first: fillers then rarely feed a yaku or count as field brights
    fill = sorted(spare, key=lambda c: (c not in PLAIN_IDS, c))
    # Fill hands and field, preferring months not already present in that destination.
    for k in ("f", "d", "nd"):
        while len(want[k]) < 8:
            months = {month(c) for c in want[k]}
            pick = next((c for c in fill if month(c) not in months), fill[0])
            fill.remove(pick)
            spare.remove(pick)
            want[k].append(pick)
    taken = {"d": 0, "nd": 0, "f": 0}
    deck: list[int] = []
    for dest, _ in deal_positions(rules):
        deck.append(want[dest][taken[dest]])
        taken[dest] += 1
    deck += top + spare
    assert sorted(deck) == list(range(1, 49))
    return deck


def scenario(
    rules: Rules,
    dealer: int = 0,
    dealer_hand: Iterable[int] = (),
    nondealer_hand: Iterable[int] = (),
    field: Iterable[int] = (),
    pile: Iterable[int] = (),
):  # type: ignore[no-untyped-def]
    """``new_round`` on a ``stacked_deck`` with these cards."""
    deck = stacked_deck(rules, dealer, dealer_hand, nondealer_hand, field, pile)
    return new_round(rules, dealer=dealer, deck=deck)


def variant(rules: Rules, **changes: object) -> Rules:
    """A custom rule set: the preset with some settings changed (issue 2, section 4)."""
    return Rules.model_validate({**rules.model_dump(), **changes})


def play(state, *moves: str) -> list:  # type: ignore[no-untyped-def]
    """Apply moves given as text; return all events."""
    events: list = []
    for m in moves:
        events += state.apply(m)
    return events


def snapshot(state) -> tuple:  # type: ignore[no-untyped-def]
    """Everything observable about a round, to check that an illegal move changed nothing."""
    return (
        round_record(state),
        state.to_move,
        tuple(str(a) for a in state.legal_actions()),
        state.hand(0),
        state.hand(1),
        state.field,
        state.captured(0),
        state.captured(1),
        state.outcome,
    )


def assert_illegal(state, action: str | Action, *words: str) -> str:  # type: ignore[no-untyped-def]
    """Applying ``action`` raises IllegalAction (a ValueError), changes nothing; the message
    is a readable sentence containing ``words``. Returns the message."""
    before = snapshot(state)
    try:
        state.apply(action)
    except IllegalAction as exc:
        assert isinstance(exc, ValueError)
        msg = str(exc)
    else:  # pragma: no cover - the test fails here
        raise AssertionError(f"{action!s} was accepted")
    assert snapshot(state) == before, "an illegal action changed the state"
    assert (len(msg) > 10 and msg[0].isupper()) or msg[0] in "'\"", msg
    for w in words:
        assert w.lower() in msg.lower(), (w, msg)
    return msg


def legal_texts(state) -> set[str]:  # type: ignore[no-untyped-def]
    """The legal actions now, as text."""
    return {str(a) for a in state.legal_actions()}


def deck_with_top(top: Sequence[int]) -> list[int]:
    """A deck whose first cards are ``top``, then every other card ascending."""
    rest = [c for c in range(1, 49) if c not in set(top)]
    return list(top) + rest


def instant_deck(
    rules: Rules, dealer: int, seat: int, cards: Sequence[int] = (1, 2, 3, 4)
) -> list[int]:
    """A deck giving player ``seat`` the ``cards`` (teshi by default) and the other hand no
    instant win (its cards all of different months)."""
    other = [c for c in (5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45) if c not in cards]
    if seat == dealer:
        return stacked_deck(rules, dealer, dealer_hand=list(cards), nondealer_hand=other[:8])
    return stacked_deck(rules, dealer, nondealer_hand=list(cards), dealer_hand=other[:8])
