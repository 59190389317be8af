"""Learn the match-equity table the computer values a round's result by (issue 44, item 1).

    python training/match_equity.py --matches 1200 --seed 7 [--checkpoint PATH] [--out PATH]

Two steps, both reproducible from ``--seed``:

1. **Self-play.** The Intermediate plays itself ``--matches`` whole matches of every preset
   family with a fixed number of rounds and no bankruptcy (``nintendo``, ``seed-003``), every
   decision asked with the seat's match context, as in the game. Match ``i`` is dealt and
   played from seeds derived from ``(--seed, family, i)`` alone, so a run stopped and continued
   from its checkpoint (``--checkpoint``, written after every block of matches: the counts so
   far and the matches done) gives the same counts as one run. Each settled round is counted as
   its result seen from its dealer (+final when the dealer wins it, −final when the other seat
   does, 0 when nobody does). The Expert's own self-play would be the truer source but costs
   about 40 times the CPU; the Intermediate plays the same match-aware koi-koi rule, and the
   round-result distribution of the two differs little (benchmarks/EXPERT.md: their rounds'
   spreads and koi-koi success agree within the noise).
2. **The table.** The chance of winning the match (a draw counts ½) from (my lead, rounds left,
   whether I deal the next round) follows from that distribution exactly, by backward induction
   over the rounds: ``P(r, lead, deal) = Σ_d p(d | dealer) · P(r − 1, lead ± step(d), next deal)``
   with the engine's own deal rule (``next_dealer``) and settlement (a round paid by the loser
   moves the lead twice its points). Filling the same table from the matches' own outcomes
   would leave most of its 2 × 24 × 241 cells with a handful of matches; the induction is the
   smoothing (the table is monotone in the lead by construction, and a test checks it). The
   tail of the distribution (results seen fewer than 3 times) is pooled into its neighbours.

The table is written to ``koikoi_desktop/ai/data/match_equity.json`` with the command, the
commit and the number of matches and rounds that made it; ``ai/equity.py`` reads it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

from koikoi_desktop.ai import make_opponent  # noqa: E402
from koikoi_desktop.engine import PRESETS  # noqa: E402
from koikoi_desktop.engine.match import new_match, next_dealer  # noqa: E402

#: The families with a fixed number of rounds and no bankruptcy: the table's keys.
FAMILIES = ("nintendo", "seed-003")
#: Rounds left the table covers (longer matches fall back to ``utility``'s normal spread).
MAX_ROUNDS = 24
#: Largest lead (in points) the table holds; beyond it the match is taken as decided.
MAX_LEAD = 120
#: Results seen fewer times than this are pooled into the nearest result seen more often.
MIN_COUNT = 3
OUT = ROOT / "koikoi_desktop" / "ai" / "data" / "match_equity.json"


def play_block(family: str, seed: int, start: int, stop: int) -> dict[int, dict[int, int]]:
    """Self-play matches ``start``..``stop - 1`` of ``family``: counts of each round result seen
    from its dealer, keyed by whether the round was the dealer's to play (always) -> result."""
    rules = PRESETS[family]
    counts: dict[int, dict[int, int]] = {0: {}}
    fam = FAMILIES.index(family)
    for i in range(start, stop):
        base = (seed * 1_000_003 + fam * 10_007 + i) * 4
        bots = [make_opponent("intermediate", seed=base + s) for s in (0, 1)]
        m = new_match(rules, first_dealer=i % 2, seed=base + 3)
        while m.outcome is None:
            p = m.round.to_move
            assert p is not None
            m.apply(bots[p].choose(m.round.view(p), m.context(p)))
        for e in m.ledger:
            x = 0 if e.winner is None else (e.final if e.winner == e.dealer else -e.final)
            counts[0][x] = counts[0].get(x, 0) + 1
    return counts


def pooled(counts: dict[int, int]) -> dict[int, float]:
    """The distribution of a dealer's result, its rare tail pooled into the nearest result
    (toward 0) seen at least ``MIN_COUNT`` times."""
    common = sorted(x for x, n in counts.items() if n >= MIN_COUNT)
    out: dict[int, float] = {}
    for x, n in counts.items():
        if n >= MIN_COUNT:
            y = x
        else:
            side = [c for c in common if (c <= x if x > 0 else c >= x)]
            y = max(side, key=abs) if x != 0 and side else min(common, key=lambda c: abs(c - x))
        out[y] = out.get(y, 0.0) + n
    total = sum(out.values())
    return {x: n / total for x, n in sorted(out.items())}


def table(dist: dict[int, float], family: str) -> list[list[list[float]]]:
    """``t[r][deal][lead + MAX_LEAD]``: the chance of winning the match with ``r`` rounds left to
    play, ``deal`` 1 when I deal the first of them, leading by ``lead`` (clamped to the range)."""
    rules = PRESETS[family]
    step = 1 if rules.settlement == "winner_only" else 2
    n = 2 * MAX_LEAD + 1

    def final(lead: int) -> float:
        return 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0)

    t: list[list[list[float]]] = [[[final(i - MAX_LEAD) for i in range(n)] for _ in (0, 1)]]
    for _r in range(1, MAX_ROUNDS + 1):
        prev = t[-1]
        row: list[list[float]] = []
        for deal in (0, 1):
            cells = []
            for i in range(n):
                v = 0.0
                for x, p in dist.items():
                    # x is the dealer's result; I am the dealer when deal == 1
                    mine = x if deal else -x
                    winner = None if x == 0 else (1 if mine > 0 else 0)  # 1: me, 0: him
                    dealer_seat = 1 if deal else 0
                    nxt = next_dealer(rules, dealer_seat, winner)
                    j = min(max(i + step * mine, 0), n - 1)
                    v += p * prev[nxt][j]
                cells.append(round(v, 4))
            row.append(cells)
        t.append(row)
    return t


def commit() -> str:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1200, help="matches per family")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--block", type=int, default=50, help="matches between checkpoints")
    ap.add_argument("--checkpoint", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    state: dict[str, object] = {"seed": args.seed, "done": {}, "counts": {}}
    if args.checkpoint is not None and args.checkpoint.exists():
        state = json.loads(args.checkpoint.read_text())
        if state["seed"] != args.seed:
            raise SystemExit(f"{args.checkpoint} was made with seed {state['seed']}")
    done: dict[str, int] = state["done"]  # type: ignore[assignment]
    counts: dict[str, dict[str, int]] = state["counts"]  # type: ignore[assignment]
    t0 = time.process_time()
    for family in FAMILIES:
        while done.get(family, 0) < args.matches:
            a = done.get(family, 0)
            b = min(args.matches, a + args.block)
            got = play_block(family, args.seed, a, b)[0]
            c = counts.setdefault(family, {})
            for x, n in got.items():
                c[str(x)] = c.get(str(x), 0) + n
            done[family] = b
            if args.checkpoint is not None:
                args.checkpoint.write_text(json.dumps(state))
            print(
                f"{family}: {b}/{args.matches} matches, {time.process_time() - t0:.0f} s CPU",
                flush=True,
            )
    out = {
        "what": "P(win the match) by family, rounds left, I deal next (0/1), lead + max_lead",
        "command": "python training/match_equity.py " + " ".join(argv or sys.argv[1:]),
        "commit": commit(),
        "seed": args.seed,
        "level": "intermediate",
        "max_lead": MAX_LEAD,
        "max_rounds": MAX_ROUNDS,
        "families": {},
    }
    for family in FAMILIES:
        raw = {int(x): n for x, n in counts[family].items()}
        dist = pooled(raw)
        out["families"][family] = {  # type: ignore[index]
            "matches": done[family],
            "rounds": sum(raw.values()),
            "dealer_result": {str(x): round(p, 6) for x, p in dist.items()},
            "table": table(dist, family),
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
