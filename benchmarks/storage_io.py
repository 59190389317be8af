"""Storage costs with 1,000 and 100,000 recorded matches: recording a match, saving the match in
progress, opening the data folder, and the real game reaching the ledger screen (wall time and
peak memory of the whole process).

    python benchmarks/storage_io.py [--dir DIR] [--sizes 1000,100000]

Each recorded match is a real 12-round match (seed-000 rules, random play) with its replayable
record text, as the game writes it. Every write is one SQLite transaction with
``synchronous=FULL``, so the figures depend on the disk: run with ``--dir`` on the disk players
use (the default is a temporary directory). Targets (issues 12 and 35): with 100,000 matches
the game reaches the ledger screen within 1 s of the same start with 1,000, with peak RSS under
400 MB, and the statistics tab (lifetime counters) takes under 200 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from koikoi_desktop import engine
from koikoi_desktop.engine import PRESETS, new_match
from koikoi_desktop.storage import MatchRecord, Storage
from koikoi_desktop.storage.recorder import MatchRecorder

ROOT = Path(__file__).resolve().parents[1]


def _templates() -> list[tuple[MatchRecord, str]]:
    """20 real 12-round matches of random play, as the table's recorder turns them into rows."""
    rng = random.Random(1)
    out = []
    for seed in range(20):
        m = new_match(PRESETS["seed-000"], first_dealer=seed % 2, seed=seed)
        while m.outcome is None:
            m.apply(rng.choice(m.round.legal_actions()))
        rec = MatchRecorder(
            None,
            match_id="t",
            seats=("human", "expert"),
            names=("You", "Kaede"),
            rules=m.rules,
            practice=False,
        ).record_of(m)
        out.append((rec, engine.match_record(m)))
    return out


def _rows(templates: list[tuple[MatchRecord, str]], start: int, n: int):  # type: ignore[no-untyped-def]
    t0 = datetime(2020, 1, 1, tzinfo=UTC)
    for i in range(start, start + n):
        rec, text = templates[i % len(templates)]
        yield (
            rec.model_copy(update={"match_id": f"bench{i:07d}", "date": t0 + timedelta(hours=i)}),
            text,
        )


def _ms(samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(len(s) * 0.95))]
    return f"median {statistics.median(s) * 1e3:7.2f} ms, p95 {p95 * 1e3:7.2f} ms"


def _fill(d: Path, templates: list[tuple[MatchRecord, str]], size: int) -> float:
    t = time.perf_counter()
    with Storage.open(d) as store:
        assert store.db is not None
        done = 0
        while done < size:
            step = min(5000, size - done)
            store.db.import_records(_rows(templates, done, step), source="benchmark")
            done += step
    return time.perf_counter() - t


def _game_to_ledger_screen(d: Path) -> tuple[float, float]:
    """Start the real game on the ledger screen, draw 3 frames, quit: (seconds, peak RSS MB)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    code = (
        "import resource, runpy, sys; "
        "sys.argv = ['koikoi-desktop', '--scene', 'ledger', '--frames', '3', "
        f"'--data-dir', {str(d)!r}]; "
        "from koikoi_desktop import app\n"
        "try:\n    app.main(sys.argv[1:])\n"
        "finally:\n    print('RSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - t
    rss_kb = int(next(ln for ln in out.stdout.splitlines() if ln.startswith("RSS")).split()[1])
    return wall, rss_kb / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--sizes", default="1000,100000")
    args = parser.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="koikoi-bench-"))
    templates = _templates()
    extra = list(_rows(templates, 10_000_000, 20))
    for size in (int(x) for x in args.sizes.split(",")):
        d = base / f"ledger{size}"
        filled = _fill(d, templates, size)
        mb = (d / "koikoi.sqlite3").stat().st_size / 2**20
        print(f"{size:,} matches: database {mb:.0f} MB (filled in {filled:.1f} s)")
        with Storage.open(d) as store:
            rec_t, save_t = [], []
            for rec, text in extra[:10]:
                t = time.perf_counter()
                assert store.write_autosave(rec.match_id, text, {"round": 12})
                save_t.append(time.perf_counter() - t)
                t = time.perf_counter()
                assert store.record_match(rec, record_text=text)
                rec_t.append(time.perf_counter() - t)
            print(f"  record a match (and drop its saved row): {_ms(rec_t)}")
            print(f"  save the match in progress (synchronous): {_ms(save_t)}")
            assert store.db is not None
            for rec, _ in extra[:10]:  # leave the database as it was filled
                for table in ("matches", "match_data", "rounds", "round_yaku"):
                    store.db.conn.execute(
                        f"DELETE FROM {table} WHERE match_id = ?", (rec.match_id,)
                    )
            with store.db._transaction():  # and its statistics counters (not timed)
                store.db._rebuild_totals_in_tx()
        opens = []
        for _ in range(3):
            t = time.perf_counter()
            with Storage.open(d) as store:
                opens.append(time.perf_counter() - t)
        t = time.perf_counter()
        with Storage.open(d) as store:
            s = time.perf_counter()
            store.stats()
            tab = [time.perf_counter() - s]
            for include in (True, False):  # the tab's practice switch, both ways
                s = time.perf_counter()
                store.stats(include_practice=include)
                tab.append(time.perf_counter() - s)
            first_page = store.ledger_summaries(0, 50)
        stats_t = time.perf_counter() - t
        assert len(first_page) == 50
        print(
            f"  open the data folder: {_ms(opens)}; open + statistics + first page "
            f"{stats_t * 1e3:.0f} ms; the statistics tab alone {_ms(tab)}"
        )
        runs = [_game_to_ledger_screen(d) for _ in range(3)]
        wall = statistics.median(r[0] for r in runs)
        rss = max(r[1] for r in runs)
        print(
            f"  the game started on the ledger screen (3 frames, whole process): "
            f"median {wall:.2f} s, peak RSS {rss:.0f} MB"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"(benchmark process peak RSS {peak:.0f} MB)")


if __name__ == "__main__":
    main()
