"""What a Koi-Koi player knows about cards: yaku progress, card counting, field risk.

Everything here reads card masks (bit ``id`` per card, as in the engine) and a rule set, so the
same evaluation serves every preset: yaku values come from the rules, scoring from the engine's
memoised scorer.

The central quantity is the *standing* of a player: the effective points he holds now (his yaku
total, doubled at 7+ where the rules say so) plus a *potential* for each yaku he can still
complete — its value times a progress weight, zero once the opponent's pile makes it impossible.
The change of standing (mine minus the opponent's) when cards move is what a capture is worth;
capturing a card the opponent needs lowers his potential, so blocking falls out of the same sum.

>>> from koikoi_desktop.engine import PRESETS, mask_of
>>> k = knowledge_for(PRESETS["nintendo"])
>>> k.gain(mask_of([21, 25]), 0, mask_of([37])) > k.gain(mask_of([21, 25]), 0, mask_of([3]))
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import comb

from koikoi_desktop.engine import cards as deck
from koikoi_desktop.engine.cards import (
    ANIMALS,
    BLUE,
    BRIGHTS,
    INOSHIKACHO,
    MONTH_MASK,
    NONRAIN_BRIGHTS,
    POETRY,
    RIBBONS,
)
from koikoi_desktop.engine.cardset import capture_choices, month_choices, months_of
from koikoi_desktop.engine.rules import PerRules, Rules
from koikoi_desktop.engine.yaku import Scorer, goals, scorer_for

RAIN = 1 << deck.RAIN_MAN
SAKE = 1 << deck.SAKE_CUP
CURTAIN = 1 << deck.CURTAIN
MOON = 1 << deck.MOON
GAJI_BIT = 1 << deck.GAJI

Gain = Callable[[int, int, int], float]

#: The set yaku a player builds card by card (their cards and counts: ``engine.goals``).
_SETS = ("inoshikacho", "akatan", "aotan")


def _progress(have: int, need: int) -> float:
    """How much of a yaku's value a partial set is worth (convex: the last card matters most)."""
    if have <= 0:
        return 0.0
    f = have / need
    return 0.55 * f * f


@dataclass(frozen=True, slots=True)
class Threat:
    """A yaku a player can still make: ``key``, cards ``missing``, ``value`` when made."""

    key: str
    missing: int
    value: int


#: Entries kept in :meth:`Knowledge.potential`'s memo before it starts afresh. Decision (issue 9
#: soak): one Expert decision adds 6-12k entries and one Intermediate match about 8k, and hits
#: across decisions are rare, so 15k (under 3 MB) costs no measurable playouts, while the former
#: 300k let a long session's memory climb by some 50 MB before the first clear.
POT_CACHE_MAX = 15_000


class Knowledge:
    """Evaluation helpers for one rule set (get one with :func:`knowledge_for`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.scorer: Scorer = scorer_for(rules)
        r = rules
        self.v_sanko = r.value_sanko
        self.v_shiko = r.value_shiko
        self.v_view = r.viewing_value if r.viewing_yaku else 0
        #: What each yaku asks for under these rules (the engine's goals), as card masks.
        self.goals = {g.key: g for g in goals(r)}
        self.goal_mask = {g.key: deck.mask_of(g.cards) for g in self.goals.values()}
        self.sets = tuple(
            (k, self.goal_mask[k], self.goals[k].need, self.goals[k].value)
            for k in _SETS
            if k in self.goals
        )
        self.plain_mask = self.goal_mask.get("kasu", 0)
        #: The counting yaku (Tane, Tanzaku, Kasu): key, cards, how many they need, value.
        self.counting = tuple(
            (g.key, self.goal_mask[g.key], g.need, g.value)
            for g in self.goals.values()
            if g.counting
        )
        self.seven = r.seven_plus_double
        self._pot: dict[tuple[int, int], float] = {}
        self.worth = self._static_worth()

    # ------------------------------------------------------------------ static worth
    def _static_worth(self) -> tuple[float, ...]:
        """A card's worth at a glance (for quick policies): brights and key cards first."""
        out = [0.0]
        for c in range(1, 49):
            bit = 1 << c
            if bit & NONRAIN_BRIGHTS:
                w = 2.0 + self.v_sanko
            elif bit & RAIN:
                w = 3.0
            elif bit & SAKE:
                w = 2.0 + self.v_view * 0.8 + 1.0
            elif bit & (INOSHIKACHO | POETRY | BLUE):
                w = 4.0
            elif bit & (ANIMALS | RIBBONS):
                w = 1.6
            else:
                w = 1.0
            out.append(w)
        return tuple(out)

    # ------------------------------------------------------------------ points
    def effective(self, base: int) -> float:
        """Points a yaku total is worth when cashed (7+ doubles where the rules say so)."""
        return float(base * 2 if self.seven and base >= 7 else base)

    def base(self, pile: int) -> int:
        """The engine's yaku total of a pile."""
        return self.scorer.base(pile)

    def potential(self, pile: int, blocked: int) -> float:
        """Worth of the yaku ``pile`` can still complete while ``blocked`` (the opponent's
        pile) holds the cards it holds."""
        key = (pile, blocked)
        hit = self._pot.get(key)
        if hit is not None:
            return hit
        v = 0.0
        # brights: Sanko needs 3 of the 4 non-rain brights
        h = (pile & NONRAIN_BRIGHTS).bit_count()
        b = (blocked & NONRAIN_BRIGHTS).bit_count()
        if h < 3 and 4 - b >= 3:
            v += self.v_sanko * _progress(h, 3)
        elif h == 3 and b == 0:
            v += (self.v_shiko - self.v_sanko) * 0.3
        # viewing yaku: curtain or moon with the sake cup
        if self.v_view and not (blocked & SAKE):
            for bright in (CURTAIN, MOON):
                if blocked & bright:
                    continue
                have = (pile & (bright | SAKE)).bit_count()
                if have == 1:
                    v += self.v_view * (0.45 if pile & SAKE else 0.3)
        # the three-card sets
        for _, mask, need, value in self.sets:
            if blocked & mask:
                continue
            have = (pile & mask).bit_count()
            if have < need:
                v += value * _progress(have, need)
        # the counting yaku (Tane, Tanzaku, Kasu), each as the engine's goal says
        for _, mask, need, _ in self.counting:
            have = (pile & mask).bit_count()
            avail = mask.bit_count() - (blocked & mask).bit_count()
            if have < need <= avail:
                v += 1.6 * _progress(have, need)
            elif have >= need:
                v += 0.2
        if len(self._pot) > POT_CACHE_MAX:
            self._pot.clear()
        self._pot[key] = v
        return v

    def standing(self, me: int, opp: int) -> float:
        """My effective points and potential minus the opponent's."""
        return (
            self.effective(self.scorer.base(me))
            + self.potential(me, opp)
            - self.effective(self.scorer.base(opp))
            - self.potential(opp, me)
        )

    def gain(self, me: int, opp: int, taken: int) -> float:
        """How much my standing rises when I capture the cards ``taken``."""
        if not taken:
            return 0.0
        return self.standing(me | taken, opp) - self.standing(me, opp)

    def best_capture(
        self, hand: int, field: int, me: int, opp: int, gaji_open: bool = False
    ) -> float:
        """The most my standing can rise (:meth:`gain`) by playing one card of ``hand`` onto
        ``field`` this turn (0 when no card of it captures): the tempo the player to move holds.
        What a card may take is the engine's answer (``cardset.capture_choices``; ``gaji_open``
        as ``cardset.gaji_open`` says for the round).

        >>> from koikoi_desktop.engine import PRESETS, mask_of
        >>> k = knowledge_for(PRESETS["nintendo"])
        >>> k.best_capture(mask_of([1]), mask_of([2, 5]), 0, 0) > 0
        True
        >>> k.best_capture(mask_of([1]), mask_of([5]), 0, 0)
        0.0
        """
        best = 0.0
        h = hand
        while h:
            low = h & -h
            h ^= low
            for taken in capture_choices(low.bit_length() - 1, field, gaji_open):
                g = self.gain(me, opp, low | taken)
                if g > best:
                    best = g
        return best

    # ------------------------------------------------------------------ threats
    def open_goals(self, pile: int, blocked: int) -> list[tuple[str, int, int]]:
        """The yaku ``pile`` can still make that it does not hold yet, as (key, cards missing,
        value), in the engine's goal order: each as the engine's goal for these rules asks (its
        cards and how many), out of reach once ``blocked`` (the other pile) holds too many of
        them or one card of a set. The one answer to "how far is this pile from each yaku":
        :meth:`threats` sorts it, and the learned value (on the look-ahead's hot path) reads it
        as it is."""
        out: list[tuple[str, int, int]] = []
        sanko = self.goals.get("sanko")
        if sanko is not None:  # any of its cards will do (the Rain Man too where rules allow)
            mask = self.goal_mask["sanko"]
            h = (pile & mask).bit_count()
            if h < sanko.need <= mask.bit_count() - (blocked & mask).bit_count():
                out.append(("sanko", sanko.need - h, sanko.value))
        if self.v_view and not (blocked & SAKE):
            for key, bright in (("hanami", CURTAIN), ("tsukimi", MOON)):
                if not blocked & bright and (pile & (bright | SAKE)) != bright | SAKE:
                    out.append((key, 2 - (pile & (bright | SAKE)).bit_count(), self.v_view))
        for key, mask, need, value in self.sets:
            have = (pile & mask).bit_count()
            if not blocked & mask and have < need:
                out.append((key, need - have, value))
        for key, mask, need, value in self.counting:
            have = (pile & mask).bit_count()
            if have < need <= mask.bit_count() - (blocked & mask).bit_count():
                out.append((key, need - have, value))
        return out

    def threats(self, pile: int, blocked: int) -> list[Threat]:
        """The yaku ``pile`` can still make that it does not hold yet (:meth:`open_goals`),
        closest first."""
        out = [Threat(*goal) for goal in self.open_goals(pile, blocked)]
        out.sort(key=lambda t: (t.missing, -t.value))
        return out

    # ------------------------------------------------------------------ field and counting
    def opponent_reply(
        self,
        me: int,
        opp: int,
        field: int,
        unseen: int,
        opp_hand: int,
        gain: Gain | None = None,
        weights: tuple[float, ...] | None = None,
    ) -> float:
        """Expected best capture the opponent's next hand card makes from ``field`` (in my
        standing), from the count of unseen cards of each month (card counting). ``gain(a, b,
        taken)`` values a capture for pile ``a`` against ``b`` (default :meth:`gain`);
        ``weights`` (by month, ``reading.month_weights``) scale the odds that he holds one."""
        gain = gain or self.gain
        if opp_hand <= 0 or not field:
            return 0.0
        n_unseen = unseen.bit_count()
        options: list[tuple[float, float]] = []
        for m in months_of(field):
            u = (unseen & MONTH_MASK[m]).bit_count()
            if not u:
                continue
            p = prob_has(u, n_unseen, opp_hand)
            if weights is not None and p < 1.0:
                w = weights[m]
                p = w * p / (w * p + 1.0 - p)
            g = max(gain(opp, me, taken) for taken in month_choices(field & MONTH_MASK[m]))
            if g > 0:
                options.append((g, p))
        options.sort(reverse=True)
        exp = 0.0
        miss = 1.0
        for g, p in options:
            exp += g * p * miss
            miss *= 1 - p
        return exp

    def draw_chance(
        self, me: int, opp: int, field: int, unseen: int, gain: Gain | None = None
    ) -> float:
        """Expected gain of my own draw from ``field`` (the top card is one of the unseen)."""
        gain = gain or self.gain
        n_unseen = unseen.bit_count()
        if not n_unseen:
            return 0.0
        total = 0.0
        for m in months_of(field):
            u = (unseen & MONTH_MASK[m]).bit_count()
            if not u:
                continue
            g = max(gain(me, opp, taken) for taken in month_choices(field & MONTH_MASK[m]))
            total += g * u / n_unseen
        return total


def prob_has(u: int, n: int, k: int) -> float:
    """P(a hand of ``k`` cards drawn from ``n`` unseen cards holds one of ``u`` given cards)."""
    if u <= 0 or k <= 0:
        return 0.0
    if n - u < k:
        return 1.0
    return 1.0 - comb(n - u, k) / comb(n, k)


_KNOWLEDGE: PerRules[Knowledge] = PerRules(Knowledge, limit=32)


def knowledge_for(rules: Rules) -> Knowledge:
    """The shared :class:`Knowledge` of a rule set (one per equal rule set: ``PerRules``)."""
    return _KNOWLEDGE.get(rules)


__all__ = ["BRIGHTS", "Knowledge", "Threat", "knowledge_for", "prob_has"]
