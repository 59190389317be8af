"""Long engine fuzz: a million random actions across every preset and random option sets.

Every setting of the rule set is exercised (each value of each setting appears in the random
rule sets), and after every action the invariants of RULES.md R-INV are checked: the 48 cards
are partitioned (R-INV-1), a capture moves 2 or 4 cards (except the Gaji sweep), hands start at
8/8 with 8 on the field and 24 in the pile (R-INV-2), at most 16 turns and at most one flip
(R-INV-3). Every so often an illegal action is tried: it must raise IllegalAction and change
nothing.

Run: ``python benchmarks/fuzz_engine.py [--actions 1000000] [--seed 1]``. Prints progress and a
JSON summary last; exits 1 on the first violation, printing the round record to replay it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from koikoi_desktop.engine import (
    PRESETS,
    Action,
    IllegalAction,
    Rules,
    new_round,
    round_record,
)
from koikoi_desktop.engine.cards import FULL_MASK, mask_of
from koikoi_desktop.engine.rules import SETTINGS, setting_choices

PROBES = (
    [Action.play(c) for c in range(1, 49)]
    + [Action.draw(t) for t in range(1, 49)]
    + [Action.from_text(x) for x in ("koikoi", "stop", "declare", "exchange", "keep")]
)


def random_rules(rng: random.Random, seen: Counter[tuple[str, object]]) -> Rules:
    base = PRESETS[rng.choice(sorted(PRESETS))]
    data = base.model_dump()
    if rng.random() < 0.8:
        for key in SETTINGS:
            choices = setting_choices(key)
            if choices and rng.random() < 0.3:
                data[key] = rng.choice(choices)
    if data["one_yaku_per_card"] and data["set_yaku_absorb_extras"]:
        data[rng.choice(["one_yaku_per_card", "set_yaku_absorb_extras"])] = False
    if data["match_end"] == "rounds" and data["rounds"] is None:
        data["rounds"] = 12
    if data["match_end"] == "target" and data["target_score"] is None:
        data["target_score"] = 50
    if data["settlement"] == "transfer_capped" and data["starting_balance"] <= 0:
        data["starting_balance"] = 100  # refused by Rules: capped transfers need coins
    rules = Rules.model_validate(data)
    for key in SETTINGS:
        seen[(key, getattr(rules, key))] += 1
    return rules


def partition_ok(s) -> bool:
    total = 0
    for m in (
        mask_of(s.draw_pile),
        s.field_mask,
        s.hands[0],
        s.hands[1],
        s.caps[0],
        s.caps[1],
        (1 << s.pending_draw) if s.pending_draw else 0,
    ):
        if total & m:
            return False
        total |= m
    return total == FULL_MASK


def fail(msg: str, s) -> None:
    print("VIOLATION:", msg)
    print(round_record(s))
    sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seen: Counter[tuple[str, object]] = Counter()
    reasons: Counter[str] = Counter()
    actions = rounds = illegal = 0
    t0 = time.perf_counter()
    while actions < args.actions:
        rules = random_rules(rng, seen)
        s = new_round(rules, dealer=rng.randrange(2), rng=rng)
        if not partition_ok(s):
            fail("cards not partitioned after the deal", s)
        dealt = (len(s.hand(0)), len(s.hand(1)), len(s.field), len(s.draw_pile))
        running = s.outcome is None and s.phase in ("play", "exchange", "declare")
        if running and dealt != (8, 8, 8, 24):
            fail("R-INV-2: the deal is not 8/8/8/24", s)
        while s.outcome is None:
            legal = s.legal_actions()
            if not legal:
                fail("a running round has no legal action", s)
            if rng.random() < 0.05:
                probe = rng.choice(PROBES)
                if probe not in legal:
                    before = round_record(s), list(s.caps), s.field_mask, s.phase
                    try:
                        s.apply(probe)
                    except IllegalAction:
                        illegal += 1
                    else:
                        fail(f"illegal {probe} was accepted", s)
                    if (round_record(s), list(s.caps), s.field_mask, s.phase) != before:
                        fail(f"illegal {probe} changed the state", s)
            caps_before = s.caps[0].bit_count() + s.caps[1].bit_count()
            events = s.apply(rng.choice(legal))
            actions += 1
            moved = s.caps[0].bit_count() + s.caps[1].bit_count() - caps_before
            swept = sum(len(e.cards) for e in events if e.kind == "sweep")
            if (moved - swept) % 2:
                fail("R-INV-1: a capture moved an odd number of cards", s)
            if not partition_ok(s):
                fail("R-INV-1: cards not partitioned", s)
            if s.turns[0] + s.turns[1] > 16:
                fail("R-INV-2: more than 16 turns", s)
            if sum(1 for e in s.history if e.kind == "flip") > 1:
                fail("R-INV-3: more than one empty-field flip", s)
        rounds += 1
        reasons[s.outcome.reason] += 1
        if rounds % 5000 == 0:
            el = time.perf_counter() - t0
            print(f"{actions:,} actions, {rounds:,} rounds, {el:.0f} s", flush=True)
    elapsed = time.perf_counter() - t0
    missing = [(k, v) for k in SETTINGS for v in setting_choices(k) if seen[(k, v)] == 0]
    summary = {
        "actions": actions,
        "rounds": rounds,
        "illegal_probes_rejected": illegal,
        "seconds": round(elapsed, 1),
        "actions_per_s": round(actions / elapsed),
        "end_reasons": dict(reasons),
        "setting_values_never_exercised": [f"{k}={v}" for k, v in missing],
        "violations": 0,
    }
    print(json.dumps(summary))
    if missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
