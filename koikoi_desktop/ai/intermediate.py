"""Intermediate: a sound one-ply heuristic (yaku progress, what the play leaves, card counting).

A hand play is scored as

    gain of the capture (my standing, which includes blocking the opponent's yaku)
    − the opponent's expected best reply on the field I leave (card counting: how likely he
      holds a card of each field month, from the unseen cards of that month)
    + half my own draw's expected capture
    + a little for field cards my remaining hand can take next turn.

Stop or koi-koi: first the answers the match makes certain (``utility.certain_decision``: a
stop that wins the match is taken, a stop that loses it is not while a koi-koi can still win);
then a simple expected-value rule (:func:`koikoi_estimate`). From what is left it estimates, turn
by turn in the order the turns come (the opponent first), my chance of capturing a card that
raises my score (on the field within reach of my hand, in my draw) against the opponent's chance
of capturing one of his *finishers* (a card that gives him a stop); each side's result is what
that stop would pay (after my call: his win doubled where the rules say so), and a round that
runs out pays what the exhaustion rule gives. Each result is valued by the match goal
(``utility.MatchGoal``), and koi-koi is called when the expectation beats the sure stop by
``KOI_EDGE`` points.

Defence (every level above Beginner): once the opponent has called koi-koi, a capture of one of
his finishers (or, when he has none, a card of his nearest yaku) is worth what his stop would pay
(:func:`defence`), and his replies on the field I leave are valued as round-ending wins
(:class:`RoundGain`), so the cards that complete his yaku are taken or kept off the field.

All of it reads the PlayerView and the match context only. :class:`RoundGain` (a capture that
reaches a stop is worth what the stop pays) is Expert's refinement of the capture values;
Intermediate keeps the plain change of standing until the opponent calls koi-koi.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from koikoi_desktop.engine import Action, MatchContext, PlayerView
from koikoi_desktop.engine.actions import (
    KOIKOI,
    STOP,
    capture_mask,
    hand_capture,
    is_gaji_pairing,
)
from koikoi_desktop.engine.cards import (
    FULL_MASK,
    MONTH,
    MONTH_MASK,
    MONTH_MASK_OF,
    ids_of,
)
from koikoi_desktop.engine.cardset import capture_choices, month_on_field
from koikoi_desktop.engine.yaku import payout

from .base import Opponent, Reason, ReasonKey, stop_sure
from .knowledge import Gain, Knowledge, knowledge_for, prob_has
from .utility import MatchGoal, certain_decision, stop_points

#: Koi-koi must beat the sure stop by this many points (of the match goal) in expectation.
KOI_EDGE = 0.5
#: Weight of the opponent's stop when a play takes one of his finishers after his koi-koi.
DEFENCE_WEIGHT = 0.8
#: Weights, in a hand play's score, of the opponent's expected best reply on the field it leaves
#: and of my own draw's expected capture (the Intermediate's; the Expert's prior sets its own).
REPLY_WEIGHT = 0.9
DRAW_WEIGHT = 0.5


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
    view: PlayerView,
    a: Action,
    k: Knowledge,
    *,
    careful: bool = True,
    race: bool = False,
    weights: tuple[float, ...] | None = None,
    reply: float = REPLY_WEIGHT,
    draw: float = DRAW_WEIGHT,
) -> float:
    """The score of a hand action (higher is better). ``race``: value captures with
    :class:`RoundGain` (a yaku ends the race) — Expert's prior; Intermediate values them by the
    change of standing alone. ``weights``: what the opponent's plays revealed of his hand
    (``reading.month_weights``, Expert's prior), for his expected reply. ``reply`` and ``draw``:
    the weights of his expected best reply and of my draw's expected capture."""
    me_p = view.player
    me = view.cap_masks[me_p]
    opp = view.cap_masks[1 - me_p]
    rg = RoundGain(view, k)
    defending = view.calls[1 - me_p] > 0
    my_gain = rg.for_seat(me_p) if race else k.gain
    opp_gain = rg.for_seat(1 - me_p) if race or defending else k.gain
    taken, field = hand_capture(a, view.field_mask)
    score = my_gain(me, opp, taken)
    if defending:
        score += defence(view, taken, k)
    mine = me | taken
    unseen = view.unseen_mask
    if is_gaji_pairing(a):  # the month's field cards are swept into my pile at the end
        rest = field & MONTH_MASK[MONTH[a.target]]
        score += 0.7 * k.gain(mine, opp, rest) + 0.5
    if not careful:
        return score
    score -= reply * k.opponent_reply(
        mine, opp, field, unseen, view.opponent_hand_size, opp_gain, weights
    )
    score += draw * k.draw_chance(mine, opp, field, unseen, my_gain)
    hand_after = view.hand_mask & ~(1 << a.card)
    follow = 0.0
    n_unseen = unseen.bit_count()
    for c in ids_of(hand_after):
        choices = capture_choices(c, field)
        if len(choices) == 1:  # a sure capture next turn (a choice of two is left aside)
            u = (unseen & MONTH_MASK_OF[c]).bit_count()
            keep = 1.0 - prob_has(u, n_unseen, view.opponent_hand_size)
            follow = max(follow, k.gain(mine, opp, choices[0] | (1 << c)) * keep)
    return score + 0.25 * follow


def describe_play(view: PlayerView, a: Action, k: Knowledge) -> Reason:
    """A one-line reason for a hand action or a draw choice, from what it does."""
    me = view.cap_masks[view.player]
    opp = view.cap_masks[1 - view.player]
    if a.kind == "draw":
        return Reason(ReasonKey.DRAW_TAKES, {"drawn": view.pending_draw, "card": a.target})
    taken, _ = hand_capture(a, view.field_mask)
    c = a.card
    if not taken:
        # the player's own card of that month first: it can pair the laid card, so "nobody
        # can pair it" would not be true
        if (view.hand_mask & ~(1 << c)) & MONTH_MASK_OF[c]:
            return Reason(ReasonKey.DISCARD_OWN, {"card": c})
        if not view.unseen_mask & MONTH_MASK_OF[c]:
            return Reason(ReasonKey.DISCARD_SAFE, {"card": c})
        return Reason(ReasonKey.DISCARD_CHEAP, {"card": c})
    if is_gaji_pairing(a):
        return Reason(ReasonKey.GAJI, {"card": a.target, "month": MONTH[a.target]})
    field_taken = taken & ~(1 << c)
    best = max(ids_of(field_taken), key=lambda t: k.worth[t])
    before = k.scorer.score(me)
    after = k.scorer.score(me | taken)
    if after.base > before.base:
        had = set(before.keys())
        new = [y for y in after.yaku if y.key not in had]
        if new:
            return Reason(ReasonKey.COMPLETES, {"card": best, "yaku": new[0].key})
        grown = max(after.yaku, key=lambda y: y.points)
        return Reason(ReasonKey.IMPROVES, {"card": best, "yaku": grown.key, "points": after.base})
    if view.calls[1 - view.player] > 0:
        blocked = field_taken & block_targets(view, k)
        if blocked:
            card = max(ids_of(blocked), key=lambda t: k.worth[t])
            yaku = _completes(k, opp, me, card)
            if yaku:
                return Reason(ReasonKey.BLOCKS_KOIKOI, {"card": card, "yaku": yaku})
    for t in k.threats(opp, me):
        fed = _feeds(t.key, field_taken, k)
        if t.missing <= 2 and fed:
            return Reason(ReasonKey.BLOCKS, {"card": fed, "yaku": t.key})
    for t in k.threats(me, opp):
        fed = _feeds(t.key, taken, k)
        if t.missing <= 2 and fed:
            return Reason(ReasonKey.TAKES_TOWARD, {"card": fed, "yaku": t.key})
    return Reason(ReasonKey.TAKES, {"card": best, "hand": c})


def _feeds(key: str, cards: int, k: Knowledge) -> int:
    """The most valuable of ``cards`` that counts toward yaku ``key`` (0 if none)."""
    fed = ids_of(cards & k.goal_mask.get(key, 0))
    return max(fed, key=lambda c: k.worth[c]) if fed else 0


def finishers(view: PlayerView, seat: int, k: Knowledge) -> int:
    """Cards that would give ``seat`` a stop if captured next (``base > ref``): cards neither
    pile holds and the decider's own hand does not hold (those are out of the other's reach)."""
    pile = view.cap_masks[seat]
    other = view.cap_masks[1 - seat]
    out = FULL_MASK & ~(pile | other)
    if seat != view.player:
        out &= ~view.hand_mask
    ref = view.refs[seat]
    found = 0
    for c in ids_of(out):
        if k.base(pile | (1 << c)) > ref:
            found |= 1 << c
    return found


def block_targets(view: PlayerView, k: Knowledge) -> int:
    """The cards to keep from the opponent: his finishers, or when he has none, the cards still
    free of his nearest yaku (the fewest cards missing)."""
    opp = 1 - view.player
    fin = finishers(view, opp, k)
    if fin:
        return fin
    threats = k.threats(view.cap_masks[opp], view.cap_masks[view.player])
    if not threats:
        return 0
    near = threats[0].missing
    free = FULL_MASK & ~(view.cap_masks[0] | view.cap_masks[1] | view.hand_mask)
    mask = 0
    for t in threats:
        if t.missing == near:
            for c in ids_of(free):
                if _feeds(t.key, 1 << c, k):
                    mask |= 1 << c
    return mask


def _completes(k: Knowledge, pile: int, other: int, card: int) -> str:
    """The yaku that ``card`` completes or raises for ``pile`` (or the nearest it feeds)."""
    before = {y.key: y.points for y in k.scorer.score(pile).yaku}
    for y in k.scorer.score(pile | (1 << card)).yaku:
        if y.points > before.get(y.key, 0):
            return y.key
    for t in k.threats(pile, other):
        if _feeds(t.key, 1 << card, k):
            return t.key
    return ""


def defence(view: PlayerView, taken: int, k: Knowledge) -> float:
    """After the opponent's koi-koi: what a capture of ``taken`` keeps from him — for each of
    his finishers taken, what the stop it gives him would pay, weighted ``DEFENCE_WEIGHT``; for
    a card of his nearest yaku, a share of that yaku's value."""
    if not taken:
        return 0.0
    opp = 1 - view.player
    pile = view.cap_masks[opp]
    fin = finishers(view, opp, k)
    best = 0.0
    for c in ids_of(taken & fin):
        base = k.base(pile | (1 << c))
        pay = payout(
            base,
            view.rules,
            winner_calls=view.calls[opp],
            loser_calls=view.calls[view.player],
            field_brights=view.field_brights,
        )
        best = max(best, float(pay))
    if best:
        return DEFENCE_WEIGHT * best
    near = taken & block_targets(view, k)
    if near:
        threats = k.threats(pile, view.cap_masks[view.player])
        return 0.3 * DEFENCE_WEIGHT * (threats[0].value if threats else 1.0)
    return 0.0


@dataclass(frozen=True, slots=True)
class KoiEstimate:
    """The koi-koi rule's numbers: ``stop`` points now; chances that I improve first
    (``p_me``), that the opponent reaches a stop first (``p_opp``) or neither (``p_none``);
    what each pays (``win``, ``loss`` as a positive amount, ``exhausted`` signed); ``ev`` the
    expectation and ``sure`` the stop's value, both in the match goal's points."""

    stop: int
    p_me: float
    p_opp: float
    p_none: float
    win: float
    loss: float
    exhausted: float
    ev: float
    sure: float


def _pay(view: PlayerView, base: int, winner_calls: int, loser_calls: int) -> float:
    """What a stop on ``base`` pays, given each side's koi-koi calls."""
    return float(
        payout(
            base,
            view.rules,
            winner_calls=winner_calls,
            loser_calls=loser_calls,
            field_brights=view.field_brights,
        )
    )


def _calls_after_koikoi(view: PlayerView) -> tuple[int, int]:
    """My calls counting the koi-koi being weighed, and the opponent's."""
    return view.calls[view.player] + 1, view.calls[1 - view.player]


@dataclass(frozen=True, slots=True)
class _MyChances:
    """My improvements (cards still in play that raise my base): ``win`` the mean of what
    stopping on one pays; the chance of capturing one on my first turn (``first``), on a later
    turn from the hand (``later``), and in each draw (``draw``)."""

    win: float
    first: float
    later: float
    draw: float


def _improvers(view: PlayerView, k: Knowledge) -> list[int]:
    """Cards still in play that would raise my base."""
    me, opp = view.cap_masks[view.player], view.cap_masks[1 - view.player]
    base = k.base(me)
    live = FULL_MASK & ~(me | opp)
    return [c for c in ids_of(live) if k.base(me | (1 << c)) > base]


def _first_turn_chance(view: PlayerView, mine: list[int]) -> float:
    """Capturing an improver on my next turn by a hand-field pair; the opponent moves first and
    may take a field card I aim at."""
    field, unseen, hand = view.field_mask, view.unseen_mask, view.hand_mask
    n_u = max(1, unseen.bit_count())
    reach = [
        c
        for c in mine
        if (field >> c & 1 and hand & MONTH_MASK_OF[c])
        or (hand >> c & 1 and month_on_field(field, c))
    ]
    take_first = 0.0
    for c in reach:
        u = (unseen & MONTH_MASK_OF[c]).bit_count()
        risk = prob_has(u, n_u, view.opponent_hand_size) if field >> c & 1 else 0.0
        take_first = max(take_first, 0.9 * (1.0 - 0.5 * risk))
    return take_first


def _later_chance(view: PlayerView, mine: list[int]) -> float:
    """Capturing an improver on a later turn with a card of its month from my hand."""
    unseen = view.unseen_mask
    hand_months = 0
    for c in ids_of(view.hand_mask):
        hand_months |= MONTH_MASK_OF[c]
    later = sum(1 for c in mine if unseen >> c & 1 and hand_months >> c & 1)
    return min(0.5, 2.0 * later / max(1, unseen.bit_count()))


def _draw_chance(view: PlayerView, mine: list[int]) -> float:
    """Drawing an improver that captures, or a card of an improver's month on the field."""
    field, unseen = view.field_mask, view.unseen_mask
    field_aims = 0  # months of the improvers lying on the field
    for c in mine:
        if field >> c & 1:
            field_aims |= MONTH_MASK_OF[c]
    draw_hits = sum(
        1 for d in ids_of(unseen) if (d in mine and month_on_field(field, d)) or field_aims >> d & 1
    )
    return draw_hits / max(1, unseen.bit_count())


def _my_chances(view: PlayerView, k: Knowledge) -> _MyChances:
    mine = _improvers(view, k)
    me = view.cap_masks[view.player]
    calls_me, calls_opp = _calls_after_koikoi(view)
    win = sum(_pay(view, k.base(me | (1 << c)), calls_me, calls_opp) for c in mine) / max(
        1, len(mine)
    )
    return _MyChances(
        win,
        _first_turn_chance(view, mine),
        _later_chance(view, mine),
        _draw_chance(view, mine),
    )


@dataclass(frozen=True, slots=True)
class _Threat:
    """The opponent's chance of a stop on each of his turns (``per_turn``), the extra chance
    from yaku two cards short on his later turns (``near``), and what his stop costs me
    (``loss``, a positive amount)."""

    per_turn: float
    near: float
    loss: float


def _opponent_threat(view: PlayerView, k: Knowledge) -> _Threat:
    o = 1 - view.player
    me, opp = view.cap_masks[view.player], view.cap_masks[o]
    field, unseen = view.field_mask, view.unseen_mask
    n_u = max(1, unseen.bit_count())
    opp_h = view.opponent_hand_size
    calls_me, calls_opp = _calls_after_koikoi(view)
    # the opponent's finishers: cards that give him a stop
    fin = finishers(view, o, k)
    r_hand = 0.0
    r_draw_cards = 0
    loss_sum = 0.0
    for c in ids_of(fin):
        loss_sum += _pay(view, k.base(opp | (1 << c)), calls_opp, calls_me)
        if field >> c & 1:
            u = (unseen & MONTH_MASK_OF[c]).bit_count()
            r_hand = 1.0 - (1.0 - r_hand) * (1.0 - prob_has(u, n_u, opp_h))
            r_draw_cards += u
        elif unseen >> c & 1 and month_on_field(field, c):
            r_hand = 1.0 - (1.0 - r_hand) * (1.0 - min(1.0, opp_h / n_u))
            r_draw_cards += 1
    r = 1.0 - (1.0 - r_hand) * (1.0 - min(1.0, r_draw_cards / n_u))
    loss = loss_sum / fin.bit_count() if fin else 0.0
    near = [t for t in k.threats(opp, me) if t.missing == 2]
    if not near:
        return _Threat(r, 0.0, loss)
    two = _pay(view, near[0].value, calls_opp, calls_me)
    loss = (loss * r + two * 0.05 * len(near)) / max(1e-9, r + 0.05 * len(near))
    return _Threat(r, min(0.3, 0.05 * len(near)), loss)


def _race(mine: _MyChances, threat: _Threat, my_turns: int, opp_turns: int) -> tuple[float, ...]:
    """The turns to come, the opponent first, then me, alternately: the chances that I improve
    first, that he reaches a stop first, and that neither does."""
    p_me = p_opp = 0.0
    alive = 1.0
    for i in range(max(my_turns, opp_turns)):
        if i < opp_turns:
            rr = 1.0 - (1.0 - threat.per_turn) * (1.0 - (threat.near if i else 0.0))
            p_opp += alive * rr
            alive *= 1.0 - rr
        if i < my_turns:
            q = 1.0 - (1.0 - (mine.first if i == 0 else mine.later)) * (1.0 - mine.draw)
            p_me += alive * q
            alive *= 1.0 - q
    return p_me, p_opp, alive


def _exhaustion_pays_me(view: PlayerView) -> bool:
    """A round that runs out: the last caller scores (seed-001), or the non-dealer who called
    last (seed-003); otherwise nobody."""
    rules = view.rules
    return rules.exhaustion == "last_koi_caller_scores" or (
        rules.exhaustion == "oya_hand_empty" and view.dealer != view.player
    )


def koikoi_estimate(view: PlayerView, k: Knowledge, goal: MatchGoal) -> KoiEstimate:
    """The expected value of a koi-koi from what is left (see the module docstring): my
    chances, the opponent's threat, the race between them, each end valued by the goal."""
    stop = stop_points(view)
    mine = _my_chances(view, k)
    threat = _opponent_threat(view, k)
    p_me, p_opp, alive = _race(mine, threat, len(view.hand), view.opponent_hand_size)
    base = k.base(view.cap_masks[view.player])
    exhausted = _pay(view, base, *_calls_after_koikoi(view)) if _exhaustion_pays_me(view) else 0.0
    ev = p_me * goal(mine.win) + p_opp * goal(-threat.loss) + alive * goal(exhausted)
    return KoiEstimate(stop, p_me, p_opp, alive, mine.win, threat.loss, exhausted, ev, goal(stop))


def heuristic_koikoi(
    view: PlayerView, k: Knowledge, context: MatchContext | None = None
) -> tuple[Action, Reason]:
    """Stop or koi-koi: the match's certain answers, then the expected-value rule."""
    points = stop_points(view)
    if KOIKOI not in view.legal:
        return STOP, Reason(
            ReasonKey.STOP_LAST if not view.hand else ReasonKey.STOP_POINTS, {"points": points}
        )
    certain = certain_decision(view, context)
    if certain is not None:
        return certain
    est = koikoi_estimate(view, k, MatchGoal(context))
    if est.ev > est.sure + KOI_EDGE:
        return KOIKOI, Reason(ReasonKey.KOIKOI_EV, {"points": points, "ev": est.ev})
    p = view.player
    threats = k.threats(view.cap_masks[1 - p], view.cap_masks[p])
    if threats and threats[0].missing <= 1 and est.p_opp > est.p_me:
        return STOP, Reason(
            ReasonKey.STOP_THREAT,
            {"points": points, "n": threats[0].missing, "yaku": threats[0].key},
        )
    return STOP, stop_sure(points, est.ev)


class Intermediate(Opponent):
    """Sound heuristic play; see the module docstring."""

    level = "intermediate"

    def decide(
        self, view: PlayerView, context: MatchContext | None, rng: random.Random
    ) -> tuple[Action, Reason]:
        k = knowledge_for(view.rules)
        if view.phase == "decide":
            return heuristic_koikoi(view, k, context)
        if view.phase == "draw":
            me = view.cap_masks[view.player]
            opp = view.cap_masks[1 - view.player]
            gain = k.gain
            drawn, field = 1 << view.pending_draw, view.field_mask
            best = max(
                view.legal,
                key=lambda a: (gain(me, opp, capture_mask(a, field) | drawn), a.target),
            )
            return best, describe_play(view, best, k)
        scored = [(score_play(view, a, k) + rng.random() * 1e-6, a) for a in view.legal]
        best = max(scored, key=lambda x: x[0])[1]
        return best, describe_play(view, best, k)
