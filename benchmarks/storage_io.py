"""Storage costs: recording a match as the ledger grows, autosave per move, opening, statistics.

    python benchmarks/storage_io.py [--dir DIR]

Every write is a full atomic rewrite with fsync (file and directory), so these figures depend on
the disk; run with ``--dir`` on the disk players use (the default is a temporary directory).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from koikoi_desktop.engine import PRESETS, match_record, new_match
from koikoi_desktop.storage import MatchRecord, Storage


def _matches(n: int) -> list[MatchRecord]:
    """Real 12-round matches of random play (seed-000: coins, factors, koi-koi calls)."""
    out = []
    rng = random.Random(1)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    templates = []
    for seed in range(20):
        m = new_match(PRESETS["seed-000"], first_dealer=seed % 2, seed=seed)
        events = []
        while m.outcome is None:
            events.extend(m.apply(rng.choice(m.round.legal_actions())))
        templates.append(
            MatchRecord.from_match(
                m, preset="seed-000", unit="coins", opponent_name="Kaede", opponent_level="expert",
                events=events,
            )
        )
    for i in range(n):
        rec = templates[i % len(templates)].model_copy(
            update={"match_id": f"bench{i:06d}", "date": start + timedelta(hours=i)}
        )
        out.append(rec)
    return out


def _ms(samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(len(s) * 0.95))]
    return f"median {statistics.median(s) * 1e3:7.2f} ms  p95 {p95 * 1e3:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="koikoi-bench-"))
    recs = _matches(1000)

    for size in (10, 100, 1000):
        d = base / f"ledger{size}"
        with Storage.open(d) as store:
            store.ledger = list(recs[: size - 10])
            store.flush()
            times = []
            for rec in recs[size - 10 : size]:
                t = time.perf_counter()
                assert store.record_match(rec)
                times.append(time.perf_counter() - t)
        kb = (d / "ledger.jsonl").stat().st_size / 1024
        print(f"record_match, ledger of {size:4d} matches ({kb:7.0f} kB): {_ms(times)}")

        t = time.perf_counter()
        with Storage.open(d) as store:
            opened = time.perf_counter() - t
            t = time.perf_counter()
            store.stats()
            stats_t = time.perf_counter() - t
        print(f"  open {opened * 1e3:7.1f} ms, stats {stats_t * 1e3:6.1f} ms")

    m = new_match(PRESETS["nintendo"], first_dealer=0, seed=7)
    rng = random.Random(3)
    times = []
    with Storage.open(base / "autosave") as store:
        for _ in range(200):
            if m.outcome is not None:
                break
            m.apply(rng.choice(m.round.legal_actions()))
            text = match_record(m)
            t = time.perf_counter()
            store.write_autosave(text, {"preset": "nintendo", "round": m.round_number})
            times.append(time.perf_counter() - t)
    print(f"write_autosave per move ({len(text)} chars of record): {_ms(times)}")

    m = new_match(PRESETS["nintendo"], first_dealer=0, seed=7)
    rng = random.Random(3)
    times = []
    with Storage.open(base / "autosave-bg") as store:
        for _ in range(200):
            if m.outcome is not None:
                break
            m.apply(rng.choice(m.round.legal_actions()))
            text = match_record(m)
            t = time.perf_counter()
            store.write_autosave(text, {"preset": "nintendo"}, background=True)
            times.append(time.perf_counter() - t)
            time.sleep(0.016)  # one frame between moves at the least
    print(f"write_autosave(background=True), caller's cost: {_ms(times)}")


if __name__ == "__main__":
    main()
