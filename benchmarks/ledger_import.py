"""A ledger export imported and written again at size, through the real command line: wall time
and peak memory of ``--import-ledger`` and of ``--export-ledger``.

    python benchmarks/ledger_import.py [--matches 20000] [--rounds 12] [--cache DIR]

The export holds ``--matches`` distinct real matches, as the game records them: the nintendo
preset, whole matches of 12 rounds by default (``--rounds N`` for shorter ones), every move a
random legal one for both seats (about 14 moves a round, 170 a match), the opponent's level
cycling beginner / intermediate / expert, each match with its replayable record (about 8 kB of
JSON a match, half of it the record). They are made on every core and kept in ``--cache``
(default: ``koikoi-bench-import`` in the temporary folder) for later runs. The
import runs ``python -m koikoi_desktop --import-ledger`` into an empty data folder: the file is
read as a stream, every record replayed by the engine on all cores, every match merged and
rated. Then ``--export-ledger`` writes the ledger out again. Peak memory is the largest process
of each command (the game's, or one of its workers), from ``getrusage``; CPU seconds are those
of all of its processes; the machine's load is printed before and after each command (on a
shared machine the wall time is worth only as much as the load beside it).

Targets (issue 42): 20,000 matches import in at most 60 s on a 2-core machine; 100,000 import
with peak memory under 300 MB; export the same.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from koikoi_desktop import engine
from koikoi_desktop.processes import stop_pool, worker_pool
from koikoi_desktop.storage import MatchRecord
from koikoi_desktop.storage.export import write_json
from koikoi_desktop.storage.importing import workers
from koikoi_desktop.storage.recorder import MatchRecorder

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2024, 1, 1, tzinfo=UTC)
LEVELS = ("beginner", "intermediate", "expert")


def played(args: tuple[int, int | None]) -> tuple[MatchRecord, str]:
    """Match number ``n`` (its own seed), played to its end with random legal moves."""
    n, rounds = args
    rules = engine.PRESETS["nintendo"]
    match = engine.new_match(rules, first_dealer=n % 2, rounds=rounds, seed=10_000 + n)
    rng = random.Random(n)
    while match.outcome is None:
        match.apply(rng.choice(match.round.legal_actions()))
    recorder = MatchRecorder(
        None,
        match_id=f"bench{n:07d}",
        seats=("human", LEVELS[n % 3]),
        names=("", ""),
        rules=rules,
        practice=False,
    )
    rec = recorder.record_of(match).model_copy(update={"date": T0 + timedelta(minutes=n)})
    return rec, engine.match_record(match)


def made(matches: int, rounds: int | None) -> Iterator[tuple[MatchRecord, str]]:
    """The matches in order, played on every core (a few hundred in flight at a time)."""
    pool = worker_pool(workers())
    try:
        step = 512
        for start in range(0, matches, step):
            todo = [(n, rounds) for n in range(start, min(matches, start + step))]
            yield from pool.map(played, todo, chunksize=32)
    finally:
        stop_pool(pool)


def export_file(cache: Path, matches: int, rounds: int | None) -> Path:
    path = cache / f"export-{matches}-{rounds or 'full'}.json"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        began = time.perf_counter()
        write_json(made(matches, rounds), path)
        took = time.perf_counter() - began
        print(f"made the export of {matches:,} matches in {took:.0f} s (kept in {cache})")
    return path


#: Runs the game and prints the peak memory (kB) of its largest process and the CPU seconds
#: of all of them (the game and its workers): a fresh process of its own, so one command's
#: figures are not another's.
_MEASURED = (
    "import resource, subprocess, sys; "
    "done = subprocess.run([sys.executable, '-m', 'koikoi_desktop', *sys.argv[1:]]); "
    "use = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(use.ru_maxrss, use.ru_utime + use.ru_stime, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def command(*argv: str) -> tuple[float, float, float, str]:
    """(seconds, peak MB of its largest process, CPU seconds, its output) of one run of the
    game."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYTHONPATH"] = str(ROOT)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{argv[-2]} failed ({done.returncode}): {done.stderr[-2000:]}")
    peak, cpu = done.stderr.strip().splitlines()[-1].split()
    return took, int(peak) / 1024, float(cpu), done.stdout.strip()


def _load() -> float:
    """The machine's load over the last minute (NaN where the system does not say)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=12, help="rounds a match (12: full)")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "koikoi-bench-import"
    )
    args = parser.parse_args()
    rounds = None if args.rounds >= 12 else args.rounds
    source = export_file(args.cache, args.matches, rounds)
    size = source.stat().st_size / 1e6
    load = _load()
    print(
        f"{args.matches:,} matches of {args.rounds} rounds, {size:.0f} MB, {workers()} cores, "
        f"load {load:.1f}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        for what, argv in (
            ("import", ("--import-ledger", str(source))),
            ("export", ("--export-ledger", str(Path(tmp) / "again.json"))),
        ):
            began = _load()
            took, peak, cpu, out = command("--data-dir", str(data), *argv)
            print(out.splitlines()[0])
            print(
                f"{what}: {took:.1f} s ({args.matches / took:,.0f} matches/s), peak {peak:.0f} MB,"
                f" {cpu:.1f} CPU s (load {began:.1f} before, {_load():.1f} after)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
