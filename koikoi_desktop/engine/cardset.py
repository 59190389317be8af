"""Card-set questions the AI and the UI ask of the engine (R-TURN-1, R-TURN-1b, R-TURN-2).

Sets of cards are bit masks (``cards.mask_of``). This module answers, once, the questions a
player asks while looking at the table: which cards of a month lie on the field, what a card
takes from the field under these rules (one or three cards of its month; a choice between two;
with ``gaji_wild``, the lightning pairs with any field card while the other November cards are
neither on the field nor captured), and whether the Gaji wild pairing is open. The engine's own
move generation (``RoundState.legal_actions``) is built from :func:`capture_choices`, so an AI
that asks here reasons with exactly the legal moves.

>>> from koikoi_desktop.engine.cards import ids_of, mask_of
>>> field = mask_of([1, 2, 5, 9, 10, 11])
>>> ids_of(month_on_field(field, 3))
(1, 2)
>>> [ids_of(m) for m in capture_choices(3, field)]  # two of the month: choose one
[(1,), (2,)]
>>> [ids_of(m) for m in capture_choices(12, field)]  # three of the month: all of them
[(9, 10, 11)]
>>> capture_choices(40, field)  # nothing of its month: laid on the field
()
>>> [ids_of(m) for m in capture_choices(44, field, gaji_open=True)]  # the Gaji wild pairing
[(1,), (2,), (5,), (9,), (10,), (11,)]
"""

from __future__ import annotations

from koikoi_desktop.engine.cards import GAJI, MONTH_MASK, MONTH_MASK_OF, NOVEMBER
from koikoi_desktop.engine.rules import Rules


def month_on_field(field: int, card: int) -> int:
    """The field cards (a mask) of ``card``'s month, ``card`` itself excluded."""
    return field & MONTH_MASK_OF[card] & ~(1 << card)


def month_choices(on: int) -> tuple[int, ...]:
    """What a card takes when ``on`` (a mask) are the field cards of its month: nothing (an
    empty tuple), one card or all three (one choice), or one of two (two choices)."""
    if not on:
        return ()
    if on.bit_count() == 2:
        low = on & -on
        return (low, on ^ low)
    return (on,)


def gaji_open(rules: Rules, field: int, caps: tuple[int, int]) -> bool:
    """Whether the lightning (card 44) may pair with any field card now (R-TURN-1b): the rules
    allow the Gaji wild and no November card lies on the field or in a capture pile."""
    return rules.gaji_wild and not ((field | caps[0] | caps[1]) & NOVEMBER)


def capture_choices(card: int, field: int, gaji_open: bool = False) -> tuple[int, ...]:
    """Each set of field cards (a mask) that playing ``card`` from the hand onto ``field`` may
    take (empty: the card is laid on the field). ``gaji_open`` (:func:`gaji_open`): the
    lightning with nothing of its month on the field pairs with any one field card instead.
    A drawn card takes what :func:`month_choices` says (the wild pairing is a hand play)."""
    on = field & MONTH_MASK_OF[card]
    if on:
        return month_choices(on)
    if gaji_open and card == GAJI:
        out = []
        f = field
        while f:
            low = f & -f
            f ^= low
            out.append(low)
        return tuple(out)
    return ()


def months_of(mask: int) -> tuple[int, ...]:
    """The months (1-12) that have a card in ``mask``, ascending."""
    return tuple(m for m in range(1, 13) if mask & MONTH_MASK[m])


__all__ = ["capture_choices", "gaji_open", "month_choices", "month_on_field", "months_of"]
