"""The simulation path for search AIs: determinize a view, play rounds out fast.

``determinize(view, rng)`` deals the cards a seat cannot see (the opponent's hand, the draw
pile) at random into a complete RoundState consistent with the view. ``rollout(state, rng,
policy)`` plays it to the end through the same rule code as ``apply`` (so the rules cannot
drift) but without validation, move records or event history.

>>> import random
>>> from koikoi_desktop.engine import PRESETS, new_round
>>> s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(2))
>>> d = determinize(s.view(0), random.Random(9))
>>> d.hands[0] == s.hands[0] and d.field_mask == s.field_mask and d.hands[1] != 0
True
>>> winner, final = rollout(d, random.Random(1))
>>> winner in (0, 1, None) and final >= 0
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from koikoi_desktop.engine.actions import KOIKOI, PLAY, PLAY_TO, STOP, Action
from koikoi_desktop.engine.cards import (
    ANIMALS,
    BLUE,
    BRIGHTS,
    INOSHIKACHO,
    MONTH_MASK,
    MONTH_MASK_OF,
    POETRY,
    RIBBONS,
    ids_of,
)
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.view import PlayerView

Policy = Callable[[RoundState, list[Action], random.Random], Action]

#: A rough worth of each card for greedy play (brights > yaku animals/ribbons > others).
CARD_WORTH: tuple[int, ...] = tuple(
    0
    if i == 0
    else 20
    if (BRIGHTS >> i) & 1
    else 12
    if ((INOSHIKACHO | POETRY | BLUE) >> i) & 1 or i == 33
    else 6
    if ((ANIMALS | RIBBONS) >> i) & 1
    else 1
    for i in range(49)
)

#: The summed CARD_WORTH of every set of cards of one month, by mask (the rollout's captures).
_MONTH_SET_WORTH: dict[int, int] = {
    sub: sum(CARD_WORTH[c] for c in ids_of(sub))
    for m in range(1, 13)
    for sub in range(0, MONTH_MASK[m] + 1, 1 << (4 * m - 3))
    if sub & ~MONTH_MASK[m] == 0
}


def determinize(
    view: PlayerView, rng: random.Random, opponent_hand: int | None = None
) -> RoundState:
    """A complete RoundState consistent with ``view``, hidden cards dealt at random
    (``RoundState.from_view``; ``opponent_hand`` fixes the opponent's cards)."""
    return RoundState.from_view(view, rng, opponent_hand)


def random_policy(state: RoundState, legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return legal[int(rng.random() * len(legal))]


def greedy_policy(state: RoundState, legal: list[Action], rng: random.Random) -> Action:
    """Capture the most valuable cards; discard the least valuable; always stop at a yaku.

    Declares instant wins, keeps the dealt hand at an exchange.
    """
    first = legal[0]
    if len(legal) == 1:
        return first
    k = first.kind
    if k in ("koikoi", "declare"):
        return STOP if k == "koikoi" else first
    if k == "exchange":
        return legal[1]
    field = state.field_mask
    worth = CARD_WORTH
    best = first
    best_score = -1000.0
    gain: float
    for a in legal:
        if a.kind == "play":
            c = a.card
            if a.target:
                gain = worth[c] + worth[a.target]
            else:
                mm = field & MONTH_MASK_OF[c]
                if mm:
                    gain = worth[c] + sum(worth[t] for t in ids_of(mm))
                else:
                    gain = -worth[c]
        elif a.kind == "draw":
            gain = float(worth[a.target])
        elif a.kind == "discard":
            gain = -worth[a.card] - 1
        else:
            gain = -500
        gain += rng.random() * 0.5
        if gain > best_score:
            best_score = gain
            best = a
    return best


def rollout(
    state: RoundState, rng: random.Random, policy: Policy = greedy_policy
) -> tuple[int | None, int]:
    """Play ``state`` (modified in place; pass a copy) to the end: (winner, final score)."""
    while state.outcome is None:
        legal = state.fast_legal()
        a = legal[0] if len(legal) == 1 else policy(state, legal, rng)
        state.step(a, events=False)
    out = state.outcome
    return out.winner, out.final


def fast_rollout(
    state: RoundState,
    rng: random.Random,
    *,
    noise: float = 2.0,
    record: list[Action] | None = None,
) -> tuple[int | None, int]:
    """Play ``state`` (modified in place; pass a copy) to the end with a noisy greedy policy.

    The common hand play is chosen inline on the masks and carried out by the rules' own turn
    routine without event records (``RoundState.step(..., events=False)``); everything rarer
    (draw choices, koi-koi decisions — always stop —, instant-win declarations, exchanges) goes
    through ``greedy_policy``. The inline choice is always one of the legal plays (free discards
    and the Gaji pairing only add options it does not take). ``record``, when given, receives
    the actions taken so a test can replay them through ``apply``.
    """
    worth = CARD_WORTH
    set_worth = _MONTH_SET_WORTH
    mmo = MONTH_MASK_OF
    rand = rng.random
    step = state.step
    while state.outcome is None:
        if state.phase != "play" or state.declare_open:
            legal = state.fast_legal()
            a = legal[0] if len(legal) == 1 else greedy_policy(state, legal, rng)
            if record is not None:
                record.append(a)
            step(a, events=False)
            continue
        p = state.to_move
        assert p is not None
        f = state.field_mask
        best = -1e9
        bc = bt = 0
        hh = state.hands[p]
        while hh:
            low = hh & -hh
            hh ^= low
            c = low.bit_length() - 1
            mm = f & mmo[c]
            t = 0
            gain: float
            if not mm:
                gain = -worth[c]
            elif mm.bit_count() == 2:
                lo = mm & -mm
                t1 = lo.bit_length() - 1
                t2 = (mm ^ lo).bit_length() - 1
                t = t1 if worth[t1] >= worth[t2] else t2
                gain = worth[c] + worth[t]
            else:
                gain = worth[c] + set_worth[mm]
            gain = gain + rand() * noise
            if gain > best:
                best = gain
                bc = c
                bt = t
        a = PLAY_TO[bc][bt] if bt else PLAY[bc]
        if record is not None:
            record.append(a)
        step(a, events=False)
    out = state.outcome
    assert out is not None
    return out.winner, out.final


__all__ = [
    "CARD_WORTH",
    "KOIKOI",
    "Policy",
    "determinize",
    "fast_rollout",
    "greedy_policy",
    "random_policy",
    "rollout",
]
