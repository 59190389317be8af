"""Intermediate: a sound one-ply heuristic (yaku progress, what the play leaves, card counting).

A hand play is scored as

    gain of the capture (my standing, which includes blocking the opponent's yaku)
    − the opponent's expected best reply on the field I leave (card counting: how likely he
      holds a card of each field month, from the unseen cards of that month)
    + half my own draw's expected capture
    + a little for field cards my remaining hand can take next turn.

Koi-koi is called with a score under 7, three or more cards in hand, no opponent yaku one card
away, and a likely improvement (a field card that raises my score and that my hand can take, or
at least 12% of the cards still in play raising it); otherwise it stops. All of it reads the
PlayerView only. :class:`RoundGain` (a capture that reaches a stop is worth what the stop pays)
is Expert's refinement of the capture values; Intermediate keeps the plain change of standing.
"""

from __future__ import annotations

import random

from koikoi_desktop.engine import Action, PlayerView
from koikoi_desktop.engine.actions import KOIKOI, STOP
from koikoi_desktop.engine.cards import (
    ANIMALS,
    BLUE,
    INOSHIKACHO,
    MONTH,
    MONTH_MASK,
    MONTH_MASK_OF,
    NONRAIN_BRIGHTS,
    POETRY,
    RIBBONS,
    ids_of,
)
from koikoi_desktop.engine.yaku import payout

from .base import Opponent, Reason
from .knowledge import Gain, Knowledge, knowledge_for, prob_has


def play_effect(view: PlayerView, a: Action) -> tuple[int, int]:
    """(cards captured, field after) of a hand action, before the draw."""
    field = view.field_mask
    c = a.card
    bit = 1 << c
    if a.kind == "discard":
        return 0, field | bit
    if a.target:
        return bit | (1 << a.target), field & ~(1 << a.target)
    mm = field & MONTH_MASK_OF[c]
    if mm:
        return bit | mm, field & ~mm
    return 0, field | bit


class RoundGain:
    """Capture values that know a yaku ends the race: when a capture gives a player a stop
    (``base > ref``), its value is what stopping pays (RULES.md §10) against his standing now,
    not just the standing's change. Built once per decision from the view."""

    def __init__(self, view: PlayerView, k: Knowledge) -> None:
        self.k = k
        self.refs = view.refs
        self.calls = view.calls
        self.rules = view.rules
        self.fb = view.field_brights

    def for_seat(self, seat: int) -> Gain:
        """``gain(a, b, taken)`` for captures by ``seat`` (pile ``a``) against pile ``b``."""
        k = self.k
        ref = self.refs[seat]
        wc, lc = self.calls[seat], self.calls[1 - seat]
        rules, fb = self.rules, self.fb

        def gain(a: int, b: int, taken: int) -> float:
            if not taken:
                return 0.0
            new = a | taken
            nb = k.base(new)
            if nb > ref:
                pay = payout(nb, rules, winner_calls=wc, loser_calls=lc, field_brights=fb)
                return max(pay - k.standing(a, b), k.standing(new, b) - k.standing(a, b))
            return k.standing(new, b) - k.standing(a, b)

        return gain


def score_play(
    view: PlayerView, a: Action, k: Knowledge, *, careful: bool = True, race: bool = False
) -> float:
    """The score of a hand action (higher is better). ``race``: value captures with
    :class:`RoundGain` (a yaku ends the race) — Expert's prior; Intermediate values them by the
    change of standing alone."""
    me_p = view.player
    me = view.cap_masks[me_p]
    opp = view.cap_masks[1 - me_p]
    rg = RoundGain(view, k)
    my_gain = rg.for_seat(me_p) if race else k.gain
    opp_gain = rg.for_seat(1 - me_p) if race else k.gain
    taken, field = play_effect(view, a)
    score = my_gain(me, opp, taken)
    mine = me | taken
    unseen = view.unseen_mask
    if a.target and MONTH[a.target] != MONTH[a.card]:  # Gaji: the month's field cards are mine
        rest = field & MONTH_MASK[MONTH[a.target]]
        score += 0.7 * k.gain(mine, opp, rest) + 0.5
    if not careful:
        return score
    score -= 0.9 * k.opponent_reply(mine, opp, field, unseen, view.opponent_hand_size, opp_gain)
    score += 0.5 * k.draw_chance(mine, opp, field, unseen, my_gain)
    hand_after = view.hand_mask & ~(1 << a.card)
    follow = 0.0
    n_unseen = unseen.bit_count()
    for c in ids_of(hand_after):
        on = field & MONTH_MASK_OF[c]
        if on and on.bit_count() != 2:
            u = (unseen & MONTH_MASK_OF[c]).bit_count()
            keep = 1.0 - prob_has(u, n_unseen, view.opponent_hand_size)
            follow = max(follow, k.gain(mine, opp, on | (1 << c)) * keep)
    return score + 0.25 * follow


def describe_play(view: PlayerView, a: Action, k: Knowledge) -> Reason:
    """A one-line reason for a hand action or a draw choice, from what it does."""
    me = view.cap_masks[view.player]
    opp = view.cap_masks[1 - view.player]
    if a.kind == "draw":
        return Reason("draw_takes", {"drawn": view.pending_draw, "card": a.target})
    taken, _ = play_effect(view, a)
    c = a.card
    if not taken:
        u = (view.unseen_mask & MONTH_MASK_OF[c]).bit_count()
        if not u:
            return Reason("discard_safe", {"card": c})
        if (view.hand_mask & ~(1 << c)) & MONTH_MASK_OF[c]:
            return Reason("discard_own", {"card": c})
        return Reason("discard_cheap", {"card": c})
    if a.target and MONTH[a.target] != MONTH[c]:
        return Reason("gaji", {"card": a.target, "month": MONTH[a.target]})
    field_taken = taken & ~(1 << c)
    best = max(ids_of(field_taken), key=lambda t: k.worth[t])
    before = k.scorer.score(me)
    after = k.scorer.score(me | taken)
    if after.base > before.base:
        had = set(before.keys())
        new = [y for y in after.yaku if y.key not in had]
        if new:
            return Reason("completes", {"card": best, "yaku": new[0].key})
        grown = max(after.yaku, key=lambda y: y.points)
        return Reason("improves", {"card": best, "yaku": grown.key, "points": after.base})
    for t in k.threats(opp, me):
        fed = _feeds(t.key, field_taken, k)
        if t.missing <= 2 and fed:
            return Reason("blocks", {"card": fed, "yaku": t.key})
    for t in k.threats(me, opp):
        fed = _feeds(t.key, taken, k)
        if t.missing <= 2 and fed:
            return Reason("takes_toward", {"card": fed, "yaku": t.key})
    return Reason("takes", {"card": best, "hand": c})


def _feeds(key: str, cards: int, k: Knowledge) -> int:
    """The most valuable of ``cards`` that counts toward yaku ``key`` (0 if none)."""
    masks = {
        "sanko": NONRAIN_BRIGHTS,
        "hanami": (1 << 9) | (1 << 33),
        "tsukimi": (1 << 29) | (1 << 33),
        "inoshikacho": INOSHIKACHO,
        "akatan": POETRY,
        "aotan": BLUE,
        "tane": ANIMALS,
        "tanzaku": RIBBONS,
        "kasu": k.plain_mask,
    }
    fed = ids_of(cards & masks.get(key, 0))
    return max(fed, key=lambda c: k.worth[c]) if fed else 0


def stop_points(view: PlayerView) -> int:
    """What stopping now would score (RULES.md §10): the engine's stop value."""
    return view.koikoi_odds().payout


def heuristic_koikoi(view: PlayerView, k: Knowledge) -> tuple[Action, Reason]:
    """Stop or koi-koi from risk and reward (the Intermediate rule)."""
    p = view.player
    me = view.cap_masks[p]
    opp = view.cap_masks[1 - p]
    points = stop_points(view)
    opp_threats = k.threats(opp, me)
    closest = opp_threats[0] if opp_threats else None
    if KOIKOI not in view.legal or len(view.hand) <= 2:
        return STOP, Reason("stop_last" if not view.hand else "stop_points", {"points": points})
    opp_has_yaku = k.base(opp) > view.refs[1 - p]
    if closest is not None and (closest.missing <= 1 or opp_has_yaku):
        return STOP, Reason(
            "stop_threat", {"points": points, "n": closest.missing, "yaku": closest.key}
        )
    base = k.base(me)
    if base >= 7 or points >= 7:
        return STOP, Reason("stop_points", {"points": points})
    # what would improve my score: cards still in play that raise my base
    live = ~(me | opp) & ((1 << 49) - 2)
    improvers = [c for c in ids_of(live) if k.base(me | (1 << c)) > base]
    reach = [c for c in improvers if view.field_mask >> c & 1 and view.hand_mask & MONTH_MASK_OF[c]]
    share = len(improvers) / max(1, live.bit_count())
    if len(view.hand) >= 3 and (reach or share >= 0.12):
        return KOIKOI, Reason("koikoi", {"points": points})
    return STOP, Reason("stop_points", {"points": points})


class Intermediate(Opponent):
    """Sound heuristic play; see the module docstring."""

    level = "intermediate"

    def decide(self, view: PlayerView, rng: random.Random) -> tuple[Action, Reason]:
        k = knowledge_for(view.rules)
        if view.phase == "decide":
            return heuristic_koikoi(view, k)
        if view.phase == "draw":
            me = view.cap_masks[view.player]
            opp = view.cap_masks[1 - view.player]
            gain = k.gain
            best = max(
                view.legal,
                key=lambda a: (gain(me, opp, (1 << a.target) | (1 << view.pending_draw)), a.target),
            )
            return best, describe_play(view, best, k)
        scored = [(score_play(view, a, k) + rng.random() * 1e-6, a) for a in view.legal]
        best = max(scored, key=lambda x: x[0])[1]
        return best, describe_play(view, best, k)
