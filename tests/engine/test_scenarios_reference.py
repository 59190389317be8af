"""Differential scenario test: the engine against a small reference model written from RULES.md.

The reference (``Ref``) implements §4-§10 directly from the text — the deal mapping (R-DEAL-2),
field redeal (R-DEAL-3), exchange (R-DEAL-4), bright count (R-DEAL-5), instant wins
(R-INSTANT-1..3), the turn (R-TURN-0..3 with free discard and Gaji), the decision (R-KOI-2..7),
the exhaustion rules (R-END-1..4) and the multipliers (via ``payout``, tested on its own) — using
``score_yaku`` for the yaku total. Seeded random rounds of every preset and of custom rule sets
are played on both; at every step the legal moves must be the same, and at the end the outcome.
"""

from __future__ import annotations

import random

import pytest

from koikoi_desktop.engine import PRESETS, new_round, payout, round_record, score_yaku
from tests.engine.helpers import PRESET_NAMES, month, variant
from tests.engine.test_scenarios_deal import DEAL_TABLE

BRIGHTS = {1, 9, 29, 41, 45}
NOVEMBER = {41, 42, 43, 44}


def deal_table(rules) -> list[str]:  # type: ignore[no-untyped-def]
    if rules.deal_packet == 4:
        return DEAL_TABLE["seed-000"]
    return DEAL_TABLE["nintendo"] if rules.deal_order == "nd-f-d" else DEAL_TABLE["seed-001"]


def month_counts(cards) -> dict[int, int]:  # type: ignore[no-untyped-def]
    out: dict[int, int] = {}
    for c in cards:
        out[month(c)] = out.get(month(c), 0) + 1
    return out


def needs_redeal(rules, field) -> bool:  # type: ignore[no-untyped-def]
    counts = month_counts(field)
    if rules.field_redeal == "none":
        return False
    if 4 in counts.values():
        return True
    return rules.field_redeal == "four_of_a_month_or_four_pairs" and all(
        v % 2 == 0 for v in counts.values()
    )


def ref_instant(rules, hand) -> int | None:  # type: ignore[no-untyped-def]
    counts = month_counts(hand)
    fours = sum(1 for v in counts.values() if v == 4)
    values = []
    if fours >= 2 and rules.instant_double_tenho is not None:
        values.append(rules.instant_double_tenho)
    if fours >= 1 and rules.instant_teshi is not None:
        values.append(rules.instant_teshi)
    if all(v % 2 == 0 for v in counts.values()) and rules.instant_kuttsuki is not None:
        values.append(rules.instant_kuttsuki)
    return max(values) if values else None


class Ref:
    """The reference round. ``legal()`` gives move texts; ``apply(text)`` plays one."""

    def __init__(self, rules, dealer, deck) -> None:  # type: ignore[no-untyped-def]
        self.r = rules
        self.dealer = dealer
        nd = 1 - dealer
        self.hands = [set(), set()]
        self.field: set[int] = set()
        for i, dest in enumerate(deal_table(rules)):
            {"d": self.hands[dealer], "nd": self.hands[nd], "f": self.field}[dest].add(deck[i])
        self.pile = list(deck[24:])
        self.caps = [set(), set()]
        self.refs = [0, 0]
        self.calls = [0, 0]
        self.last_caller: int | None = None
        self.last_decider: int | None = None
        self.gaji: tuple[int, int] | None = None
        self.first_turn_done = [False, False]
        self.declare_open = False
        self.pending = 0
        self.outcome: tuple | None = None
        self.field_brights = len(self.field & BRIGHTS)
        self.to_move: int | None = nd
        self.phase = "exchange"
        if not rules.hand_exchange:
            self.after_exchange()

    # -- flow
    def after_exchange(self) -> None:
        self.to_move = self.dealer
        if self.r.instant_win_timing == "at_deal":
            for p in (self.dealer, 1 - self.dealer):
                v = ref_instant(self.r, self.hands[p])
                if v is not None:
                    if self.r.instant_win_declaration == "automatic":
                        self.instant(p, v)
                        return
                    self.phase, self.to_move = "declare", p
                    return
        self.begin_turn()

    def begin_turn(self) -> None:
        p = self.to_move
        self.phase = "play"
        if self.r.instant_win_timing == "first_turn" and not self.first_turn_done[p]:
            self.first_turn_done[p] = True
            v = ref_instant(self.r, self.hands[p])
            if v is not None:
                if self.r.instant_win_declaration == "automatic":
                    self.instant(p, v)
                    return
                self.declare_open = True
        if self.r.flip_when_field_empty and not self.field:
            self.field.add(self.pile.pop(0))

    def instant(self, p, v) -> None:  # type: ignore[no-untyped-def]
        final = v
        if self.r.instant_win_multipliers:
            final = payout(v, self.r, winner_calls=self.calls[p], loser_calls=self.calls[1 - p],
                           field_brights=self.field_brights)  # fmt: skip
        self.outcome = (p, v, final)
        self.to_move = None
        self.phase = "over"

    def legal(self) -> set[str]:
        p = self.to_move
        if self.phase == "over":
            return set()
        if self.phase == "exchange":
            return {"exchange", "keep"}
        if self.phase == "declare":
            return {"declare", "keep"}
        if self.phase == "draw":
            return {f"draw>{t}" for t in self.field if month(t) == month(self.pending)}
        if self.phase == "decide":
            return {"koikoi", "stop"} if self.hands[p] else {"stop"}
        out = {"declare"} if self.declare_open else set()
        visible_nov = (self.field | self.caps[0] | self.caps[1]) & NOVEMBER
        for c in self.hands[p]:
            match = [t for t in self.field if month(t) == month(c)]
            if len(match) == 2:
                out |= {f"play {c}>{t}" for t in match}
            else:
                out.add(f"play {c}")
            if match and self.r.free_discard:
                out.add(f"discard {c}")
            if c == 44 and self.r.gaji_wild and not visible_nov:
                out |= {f"play 44>{t}" for t in self.field}
        return out

    def capture(self, p, card, targets) -> None:  # type: ignore[no-untyped-def]
        self.field -= set(targets)
        self.caps[p] |= {card, *targets}

    def resolve(self, p, card) -> bool:  # type: ignore[no-untyped-def]
        """Resolve a card against the field; False when a choice is pending."""
        match = [t for t in self.field if month(t) == month(card)]
        if not match:
            self.field.add(card)
        elif len(match) == 2:
            return False
        else:
            self.capture(p, card, match)
        return True

    def apply(self, text: str) -> None:
        p = self.to_move
        assert p is not None and text in self.legal(), text
        if text in ("exchange", "keep") and self.phase == "exchange":
            if text == "exchange":
                self.hands.reverse()
            self.after_exchange()
            return
        if self.phase == "declare":
            if text == "declare":
                self.instant(p, ref_instant(self.r, self.hands[p]))
                return
            if p == self.dealer and ref_instant(self.r, self.hands[1 - p]) is not None:
                self.to_move = 1 - p
                return
            self.to_move = self.dealer
            self.begin_turn()
            return
        if text == "declare":
            self.instant(p, ref_instant(self.r, self.hands[p]))
            return
        if text == "koikoi":
            self.calls[p] += 1
            self.refs[p] = score_yaku(self.caps[p], self.r).base
            self.last_caller = p
            self.after_turn(p)
            return
        if text == "stop":
            self.finish(p)
            return
        if text.startswith("draw>"):
            self.capture(p, self.pending, [int(text[5:])])
            self.pending = 0
            self.end_turn(p)
            return
        self.declare_open = False
        verb, _, rest = text.partition(" ")
        c, _, t = rest.partition(">")
        card = int(c)
        self.hands[p].discard(card)
        if verb == "discard":
            self.field.add(card)
        elif t:
            if month(int(t)) != month(card):
                self.gaji = (p, month(int(t)))
            self.capture(p, card, [int(t)])
        else:
            assert self.resolve(p, card)
        d = self.pile.pop(0)
        if not self.resolve(p, d):
            self.pending = d
            self.phase = "draw"
            return
        self.end_turn(p)

    def end_turn(self, p) -> None:  # type: ignore[no-untyped-def]
        base = score_yaku(self.caps[p], self.r).base
        if base > self.refs[p]:
            self.last_decider = p
            lim = self.r.koikoi_limit
            if lim is not None and sum(self.calls) >= lim:
                self.finish(p)
                return
            self.phase = "decide"
            return
        self.after_turn(p)

    def after_turn(self, p) -> None:  # type: ignore[no-untyped-def]
        if self.r.exhaustion == "oya_hand_empty":
            if p == self.dealer and not self.hands[p]:
                nd = 1 - self.dealer
                self.finish(nd if self.last_decider == nd else None)
                return
        elif not self.hands[0] and not self.hands[1]:
            if self.r.exhaustion == "last_koi_caller_scores":
                self.finish(self.last_caller)
            else:
                self.finish(None)
            return
        self.to_move = 1 - p
        self.begin_turn()

    def finish(self, w) -> None:  # type: ignore[no-untyped-def]
        if self.gaji is not None:
            owner, m = self.gaji
            sweep = {c for c in self.field if month(c) == m}
            self.field -= sweep
            self.caps[owner] |= sweep
        self.to_move = None
        self.phase = "over"
        if w is None:
            self.outcome = (None, 0, 0)
            return
        base = score_yaku(self.caps[w], self.r).base
        final = payout(base, self.r, winner_calls=self.calls[w], loser_calls=self.calls[1 - w],
                       field_brights=self.field_brights)  # fmt: skip
        self.outcome = (w, base, final)


OPTIONS = {
    "free_discard": [False, True],
    "flip_when_field_empty": [False, True],
    "gaji_wild": [False, True],
    "hand_exchange": [False, True],
    "bright_field_multiplier": [False, True],
    "koikoi_limit": [None, 0, 1, 2],
    "exhaustion": ["draw", "last_koi_caller_scores", "oya_hand_empty"],
    "instant_win_timing": ["first_turn", "at_deal"],
    "instant_win_declaration": ["optional", "automatic"],
    "instant_win_multipliers": [False, True],
    "field_redeal": ["none", "four_of_a_month", "four_of_a_month_or_four_pairs"],
    "instant_double_tenho": [None, 14],
}


def compare(rules, seed: int) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    dealer = seed % 2
    deck = list(range(1, 49))
    rng.shuffle(deck)
    if rng.random() < 0.15:  # make instant wins and redeals frequent enough to matter
        hand_at = [i for i, d in enumerate(deal_table(rules)) if d == "d"][:4]
        for i, c in zip(hand_at, (45, 46, 47, 48), strict=True):
            j = deck.index(c)
            deck[i], deck[j] = deck[j], deck[i]
    s = new_round(rules, dealer=dealer, deck=deck, rng=random.Random(seed + 1))
    field = {deck[i] for i, d in enumerate(deal_table(rules)) if d == "f"}
    redeal = needs_redeal(rules, field)
    assert (round_record(s).count("\ndeck ") > 1) == redeal, (sorted(field), rules.field_redeal)
    if redeal:
        line = round_record(s).splitlines()
        decks = [ln for ln in line if ln.startswith("deck ")]
        deck = [int(x) for x in decks[-1].split()[1:]]
    ref = Ref(rules, dealer, deck)
    steps = 0
    while True:
        legal = {str(a) for a in s.legal_actions()}
        assert legal == ref.legal(), (steps, sorted(legal ^ ref.legal()))
        assert s.to_move == ref.to_move
        assert set(s.field) == ref.field and set(s.hand(0)) == ref.hands[0]
        assert set(s.captured(0)) == ref.caps[0] and set(s.captured(1)) == ref.caps[1]
        if not legal:
            break
        names = sorted(legal)
        if "koikoi" in legal and rng.random() < 0.6:
            a = "koikoi"
        else:
            a = rng.choice(names)
        s.apply(a)
        ref.apply(a)
        steps += 1
    o = s.outcome
    assert o is not None and ref.outcome is not None
    assert (o.winner, o.base, o.final) == ref.outcome, (o, ref.outcome)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_turn_r_koi_r_end_reference_presets(name) -> None:
    """R-TURN / R-KOI / R-END / R-INSTANT / R-DEAL: every preset agrees with the reference
    model on every legal-move set and every outcome over seeded random rounds."""
    for seed in range(150):
        compare(PRESETS[name], seed)


def test_r_turn_r_koi_r_end_reference_custom() -> None:
    """R-TURN-1a / R-TURN-1b / R-TURN-0 / R-DEAL-4 / R-KOI-7 / R-END-1..4 / R-MULT-4: custom
    rule sets (random option combinations) agree with the reference model."""
    rng = random.Random(99)
    for seed in range(300):
        base = PRESETS[rng.choice(PRESET_NAMES)]
        changes = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.5}
        compare(variant(base, **changes), 10_000 + seed)
