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

from koikoi_desktop.engine.actions import KOIKOI, STOP, Action, Event
from koikoi_desktop.engine.cards import (
    ANIMALS,
    BLUE,
    BRIGHTS,
    INOSHIKACHO,
    MONTH_MASK_OF,
    POETRY,
    RIBBONS,
    ids_of,
)
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.view import PlayerView
from koikoi_desktop.engine.yaku import scorer_for

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


def determinize(view: PlayerView, rng: random.Random) -> RoundState:
    """A complete RoundState consistent with ``view``, hidden cards dealt at random."""
    me = view.player
    opp = 1 - me
    unseen = list(ids_of(view.unseen_mask))
    rng.shuffle(unseen)
    s = RoundState.__new__(RoundState)
    s.rules = view.rules
    s.scorer = scorer_for(view.rules)
    s.dealer = view.dealer
    s.deals = []
    s.deck = ()
    s.moves = []
    s.history = []
    hands = [0, 0]
    pos = 0
    if view.hand_hidden:
        for c in unseen[:8]:
            hands[me] |= 1 << c
        pos = 8
    else:
        hands[me] = view.hand_mask
    for c in unseen[pos : pos + view.opponent_hand_size]:
        hands[opp] |= 1 << c
    pos += view.opponent_hand_size
    s.hands = hands
    s.pile = tuple(unseen[pos:])
    s.pile_pos = 0
    s.caps = [view.cap_masks[0], view.cap_masks[1]]
    s.field_mask = view.field_mask
    s.pending = view.pending_draw
    s.phase = view.phase
    s.to_move = view.to_move
    s.refs = list(view.refs)
    s.calls = list(view.calls)
    s.turns = list(view.turns)
    s.field_brights = view.field_brights
    s.gaji_owner = view.gaji_owner
    s.gaji_month = view.gaji_month
    s.outcome = view.outcome
    last_caller = None
    last_decider = None
    started = [False, False]
    for e in view.history:
        if e.kind == "koikoi":
            last_caller = e.player
        elif e.kind == "yaku":
            last_decider = e.player
        if e.player is not None and e.kind in ("play", "discard", "gaji", "declare"):
            started[e.player] = True
    s.last_caller = last_caller
    s.last_decider = last_decider
    s._declare_open = view.phase == "play" and any(a.kind == "declare" for a in view.legal)
    if view.to_move is not None and view.phase == "play":
        started[view.to_move] = True
    s._first_turn_started = started
    s._legal = None
    s._decided_ref = (
        s.scorer.base(s.caps[view.to_move])
        if view.phase == "decide" and view.to_move is not None
        else 0
    )
    return s


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
        state.step(a)
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

    The common hand/draw turn runs inline on the masks; everything rarer (draw choices with
    forced decisions, koi-koi decisions — always stop —, instant-win declarations,
    exchanges) goes through the shared rule code. The inline choice is always one of the legal
    plays (free discards and the Gaji pairing only add options it does not take). ``record``, when
    given, receives the actions taken so a test can replay them through ``apply``.
    """
    worth = CARD_WORTH
    mmo = MONTH_MASK_OF
    pile = state.pile
    sink: list[Event] = []
    rand = rng.random
    while state.outcome is None:
        if state.phase != "play" or state._declare_open:
            legal = state.fast_legal()
            a = legal[0] if len(legal) == 1 else greedy_policy(state, legal, rng)
            if record is not None:
                record.append(a)
            state.step(a)
            continue
        p = state.to_move
        assert p is not None
        h = state.hands[p]
        f = state.field_mask
        best = -1e9
        bc = bt = 0
        hh = h
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
                gain = worth[c] + sum(worth[x] for x in ids_of(mm))
            gain = gain + rand() * noise
            if gain > best:
                best = gain
                bc = c
                bt = t
        if record is not None:
            record.append(Action.play(bc, bt))
        bit = 1 << bc
        state.hands[p] = h ^ bit
        caps = state.caps[p]
        if bt:
            f ^= 1 << bt
            caps |= bit | (1 << bt)
        else:
            mm = f & mmo[bc]
            if mm:
                f ^= mm
                caps |= bit | mm
            else:
                f |= bit
        pos = state.pile_pos
        if pos >= len(pile):  # R-INV-3: cannot happen
            state.field_mask = f
            state.caps[p] = caps
            state._exhausted(sink)
            break
        d = pile[pos]
        state.pile_pos = pos + 1
        mm = f & mmo[d]
        n = mm.bit_count()
        if n == 0:
            f |= 1 << d
        elif n == 2:
            state.field_mask = f
            state.caps[p] = caps
            state.pending = d
            state.phase = "draw"
            continue
        else:
            f ^= mm
            caps |= (1 << d) | mm
        state.field_mask = f
        state.caps[p] = caps
        state._legal = None
        state._end_turn(p, sink)
        sink.clear()
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
