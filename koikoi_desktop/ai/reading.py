"""Reading the opponent: what his plays this round say about the cards he still holds.

A player who leaves a bright on the field and takes a plain card instead most likely has no
card of the bright's month: anybody would have taken it. The Expert deals the hidden cards of
its imagined worlds (``engine.sim.determinize``) with that in mind: every unseen card has a
weight, 1 by default, lowered each time its holder would have passed up a clearly better
capture of its month; the opponent's hand is then drawn with those weights (weighted sampling
without replacement), the rest of the unseen cards forming the draw pile at random.

Only the public record of the round is read (``PlayerView.history``: the deal, every play,
draw, flip and sweep), so the reading sees exactly what a player at the table saw. A card in the
opponent's hand now was in it at every one of his earlier plays (a hand only shrinks), which is
why an earlier pass counts against the cards of that month that are still unseen.

How much a pass says (decision, issue 13): a capture is valued as a player at a glance would —
the cards' worth (``Knowledge.worth``) plus 4 per point of yaku it makes. Passing up a capture
worth 2.5 more than the one made (a bright for a plain card) leaves a weight of
:data:`STRONG_PASS`; 1 more (a ribbon or animal for a plain card), :data:`WEAK_PASS`. The
weights multiply over passes and never fall below :data:`FLOOR`: a beginner, a plan of his own
or a slip can always explain a pass. Calibrated over 30 Intermediate-vs-Intermediate matches: a
card of a month he had passed up once was in his hand 10% of the time against 24% for the
others, whether the gap was large or small (hence the close weights), 3.4% after several passes.

Measured (benchmarks/EXPERT.md, third attempt: 400-match arena runs, seeds 1 and 2): against
the Intermediate the Expert won 0.557 of its matches with the reading and 0.571 without it — no
measurable change either way. Kept because the inference itself is sound and measured (above),
and a player who leaves a bright on the table should see the computer notice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from koikoi_desktop.engine import PlayerView
from koikoi_desktop.engine.cards import MONTH, MONTH_MASK, ids_of, mask_of
from koikoi_desktop.engine.cardset import month_choices
from koikoi_desktop.engine.events import (
    Dealt,
    Discarded,
    Drew,
    Flipped,
    GajiPaired,
    Played,
    Redealt,
    Swept,
)

from .knowledge import Knowledge

#: Weight left to a month's cards by one pass of a much better capture of that month.
STRONG_PASS = 0.3
#: ... and by one pass of a somewhat better capture.
WEAK_PASS = 0.4
#: The least weight a card keeps however often its month was passed up.
FLOOR = 0.1
#: How much better (worth + 4 per yaku point) a passed capture must be to count.
STRONG_GAP = 2.5
WEAK_GAP = 1.0


def _capture_value(k: Knowledge, pile: int, taken: int) -> float:
    """A capture at a glance: the taken field cards' worth plus 4 per point of yaku made."""
    if not taken:
        return 0.0
    worth = k.worth
    v = sum(worth[c] for c in ids_of(taken))
    return v + 4.0 * (k.base(pile | taken) - k.base(pile))


@dataclass(frozen=True, slots=True)
class HandPlay:
    """One hand play of the round as the table saw it: the field and the player's pile just
    before it, the card played and the field cards it took (0: none)."""

    player: int
    field: int
    pile: int
    card: int
    taken: int


def replay_table(view: PlayerView) -> tuple[list[HandPlay], int, tuple[int, int]]:
    """The round's public record replayed: every hand play with the table before it, then the
    field and the two piles now (which must agree with the view's own)."""
    plays: list[HandPlay] = []
    field = 0
    caps = [0, 0]
    for e in view.history:
        if isinstance(e, (Dealt, Redealt)):
            field = mask_of(e.field)
        elif isinstance(e, (Played, Discarded, GajiPaired)):
            p = e.player
            card = e.card
            taken = 0 if isinstance(e, Discarded) else mask_of(e.captured)
            plays.append(HandPlay(p, field, caps[p], card, taken))
            if taken:
                field &= ~taken
                caps[p] |= taken | (1 << card)
            else:
                field |= 1 << card
        elif isinstance(e, Drew):
            taken = mask_of(e.captured)
            if taken:
                field &= ~taken
                caps[e.player] |= taken | (1 << e.card)
            else:
                field |= 1 << e.card
        elif isinstance(e, Flipped):
            field |= 1 << e.card
        elif isinstance(e, Swept):
            swept = mask_of(e.cards)
            field &= ~swept
            caps[e.player] |= swept
    return plays, field, (caps[0], caps[1])


def month_weights(view: PlayerView, k: Knowledge) -> tuple[float, ...]:
    """The weight of each month (index 1-12; index 0 unused) for the opponent's hand, from his
    hand plays this round: 1 where nothing was learnt (see the module docstring)."""
    opp = 1 - view.player
    weights = [1.0] * 13
    for play in replay_table(view)[0]:
        if play.player == opp:
            _weigh_pass(k, weights, play.field, play.pile, play.card, play.taken)
    return tuple(weights)


def _weigh_pass(
    k: Knowledge, weights: list[float], field: int, pile: int, card: int, taken: int
) -> None:
    """Lower the weight of each field month whose capture beat the one made with ``card``."""
    made = _capture_value(k, pile, taken)
    played = MONTH[card]
    for m in range(1, 13):
        choices = month_choices(field & MONTH_MASK[m])
        if not choices or m == played:
            continue
        best = max(_capture_value(k, pile, taken) for taken in choices)  # he would choose
        gap = best - made
        if gap >= STRONG_GAP:
            weights[m] = max(FLOOR, weights[m] * STRONG_PASS)
        elif gap >= WEAK_GAP:
            weights[m] = max(FLOOR, weights[m] * WEAK_PASS)


def sample_opponent_hand(view: PlayerView, weights: tuple[float, ...], rng: random.Random) -> int:
    """The opponent's hand for one imagined world: ``view.opponent_hand_size`` of the unseen
    cards, each drawn with its month's weight (Efraimidis-Spirakis: the largest keys
    ``u ** (1 / w)`` win)."""
    keyed = [(rng.random() ** (1.0 / weights[MONTH[c]]), c) for c in ids_of(view.unseen_mask)]
    keyed.sort(reverse=True)
    return mask_of(c for _, c in keyed[: view.opponent_hand_size])


__all__ = [
    "FLOOR",
    "STRONG_PASS",
    "WEAK_PASS",
    "HandPlay",
    "month_weights",
    "replay_table",
    "sample_opponent_hand",
]
