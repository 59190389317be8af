"""Engine speed on one core: random-vs-random rounds per second for each preset.

Three paths are measured:

* the public surface: ``new_round`` + ``legal_actions`` + ``apply`` (validation, events, records),
  and the same through whole matches (``new_match``: settlement and the deals' chance streams);
* the simulation path the Expert AI uses: ``sim.determinize`` of a view + ``sim.fast_rollout``
  (inline common turns, shared rule code for the rest; no validation, no records), and for
  comparison ``sim.rollout`` with the random and the greedy policy;
* ``score_yaku`` calls per second, memoised (as in play) and cold (every pile scored afresh).

Run: ``python benchmarks/engine_speed.py [--seconds 2]``. Prints one line per figure and a JSON
summary last.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from koikoi_desktop.engine import PRESETS, new_match, new_round, score_yaku
from koikoi_desktop.engine.sim import (
    determinize,
    fast_rollout,
    greedy_policy,
    random_policy,
    rollout,
)
from koikoi_desktop.engine.yaku import _compute


def public_rounds(rules, seconds: float) -> float:
    rng = random.Random(1)
    n = 0
    t0 = time.perf_counter()
    while True:
        s = new_round(rules, dealer=n & 1, rng=rng)
        while s.outcome is None:
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])
        n += 1
        if n % 50 == 0 and time.perf_counter() - t0 >= seconds:
            break
    return n / (time.perf_counter() - t0)


def match_rounds(rules, seconds: float) -> float:
    """Whole matches through ``Match`` (its deals come from the seed's chance streams), in
    rounds per second."""
    rng = random.Random(4)
    rounds = 0
    seed = 0
    t0 = time.perf_counter()
    while True:
        m = new_match(rules, first_dealer=seed & 1, seed=seed)
        while m.outcome is None:
            legal = m.round.legal_actions()
            m.apply(legal[int(rng.random() * len(legal))])
        rounds += len(m.deals)
        seed += 1
        if time.perf_counter() - t0 >= seconds:
            break
    return rounds / (time.perf_counter() - t0)


def sim_rounds(rules, seconds: float, policy) -> float:
    """Determinize a view and play it out; ``policy`` None = ``fast_rollout``."""
    rng = random.Random(2)
    views = [new_round(rules, dealer=i & 1, rng=rng).view(i & 1) for i in range(64)]
    n = 0
    t0 = time.perf_counter()
    while True:
        s = determinize(views[n & 63], rng)
        if policy is None:
            fast_rollout(s, rng)
        else:
            rollout(s, rng, policy)
        n += 1
        if n % 50 == 0 and time.perf_counter() - t0 >= seconds:
            break
    return n / (time.perf_counter() - t0)


def score_calls(rules, seconds: float, cold: bool) -> float:
    rng = random.Random(3)
    piles = [frozenset(rng.sample(range(1, 49), rng.randint(0, 24))) for _ in range(2000)]
    masks = [sum(1 << c for c in p) for p in piles]
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if cold:
            for m in masks[:200]:
                _compute(m, rules)
            n += 200
        else:
            for p in piles:
                score_yaku(p, rules)
            n += len(piles)
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = ap.parse_args()
    summary: dict[str, dict[str, float]] = {}
    for name, rules in PRESETS.items():
        row = {
            "public_rounds_per_s": public_rounds(rules, args.seconds),
            "match_rounds_per_s": match_rounds(rules, args.seconds),
            "sim_random_rounds_per_s": sim_rounds(rules, args.seconds, random_policy),
            "sim_greedy_rounds_per_s": sim_rounds(rules, args.seconds, greedy_policy),
            "sim_fast_rounds_per_s": sim_rounds(rules, args.seconds, None),
            "score_yaku_per_s_memoised": score_calls(rules, args.seconds / 2, cold=False),
            "score_yaku_per_s_cold": score_calls(rules, args.seconds / 2, cold=True),
        }
        summary[name] = {k: round(v) for k, v in row.items()}
        for k, v in summary[name].items():
            print(f"{name:9s} {k:28s} {v:>10,d}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
