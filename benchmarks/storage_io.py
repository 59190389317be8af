"""Storage costs with an empty ledger and with 100,000 recorded matches, in one run: the real game
started on the ledger screen (wall time and peak memory of the whole process), opening the data
folder, the statistics tab, the longest frame on the ledger screen, the longest frame while a
damaged row met on screen is set aside and the statistics are counted again, and recording a
match / saving the match in progress.

    python benchmarks/storage_io.py [--cache DIR] [--sizes 0,100000]

Each recorded match is a real 12-round match (seed-000 rules, random play) with its replayable
record text, as the game writes it. Filling 100,000 takes minutes, so each filled ledger is kept
in ``--cache`` (default: ``koikoi-bench-cache`` in the temporary folder) and reused by later
runs while it holds that many matches; the run leaves it as it found it (closed cleanly, so every
start measured here is a clean start). Every write is one SQLite transaction with
``synchronous=FULL``, so the figures depend on the disk: put the cache on the disk players use.

Targets (issue 35): with 100,000 matches the game reaches the ledger screen within 1 s of the
same start with an empty ledger, with peak RSS under 400 MB; the statistics tab under 200 ms; no
frame on the frame loop over 50 ms, also while damaged rows are mended.
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
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from koikoi_desktop import engine
from koikoi_desktop.engine import PRESETS, new_match
from koikoi_desktop.storage import MatchRecord, Storage
from koikoi_desktop.storage.recorder import MatchRecorder

ROOT = Path(__file__).resolve().parents[1]
Rows = list[tuple[MatchRecord, str]]


def _templates() -> Rows:
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


def _rows(templates: Rows, start: int, n: int) -> Iterator[tuple[MatchRecord, str]]:
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
    return f"median {statistics.median(s) * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms"


def _ledger(cache: Path, templates: Rows, size: int) -> Path:
    """The data folder with ``size`` recorded matches: the cached one, or filled now. Opened
    once before anything is measured, so that what an earlier version left to count (or an
    unclean end of an earlier run) is done before the measured starts, which are clean."""
    d = cache / f"ledger{size}"
    with Storage.open(d) as store:
        have = store.ledger.count()
        if have != size:
            assert store.db is not None
            if have:
                raise SystemExit(f"{d} holds {have} matches, not {size}: remove it")
            t = time.perf_counter()
            for done in range(0, size, 5000):
                step = min(5000, size - done)
                store.db.import_records(_rows(templates, done, step), source="benchmark")
            print(f"(filled {size:,} matches in {time.perf_counter() - t:.0f} s, kept in {d})")
        store.wait_for_counting()
    return d


def _writes(d: Path, extra: Rows) -> None:
    """Record 10 matches and save 10 matches in progress, then take them out again (not timed:
    the counters and the rating history counted again), leaving the ledger as it was."""
    with Storage.open(d) as store:
        db = store.db
        assert db is not None
        rec_t, save_t = [], []
        for rec, text in extra:
            t = time.perf_counter()
            assert store.write_autosave(rec.match_id, text, {"round": 12})
            save_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            assert store.record_match(rec, record_text=text)
            rec_t.append(time.perf_counter() - t)
        ids = [(rec.match_id,) for rec, _ in extra]
        with db._transaction():
            for table in ("matches", "match_data", "rounds", "round_yaku"):
                db.conn.executemany(f"DELETE FROM {table} WHERE match_id = ?", ids)
        db.recount({"totals", "ratings"})
    print(f"  record a match (and drop its saved row): {_ms(rec_t)}")
    print(f"  save the match in progress (synchronous): {_ms(save_t)}")


def _opens(d: Path) -> None:
    opens, tab = [], []
    for _ in range(3):
        t = time.perf_counter()
        with Storage.open(d) as store:
            opens.append(time.perf_counter() - t)
            for include in (False, True, False):  # the tab, and its practice switch both ways
                s = time.perf_counter()
                store.ledger.stats(include_practice=include)
                tab.append(time.perf_counter() - s)
    print(f"  open the data folder: {_ms(opens)}; the statistics tab: {_ms(tab)}")


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


def _frames(d: Path, *, mend: bool) -> tuple[float, str, float]:
    """The game's frames (update, draw, flip) on the ledger screen, in this process with the
    dummy video driver: entering it from the title, the list, scrolling to the oldest match,
    opening it, the statistics tab and its practice switch. With ``mend``, the newest match's
    summary is damaged first (through the game's own connection, so the file still closes
    cleanly): the list meets it, it is set aside and rebuilt between frames, and the frames go
    on over the statistics tab, at most 60 a second as in the game (which draws that screen
    four times a second while it waits), until the statistics are counted again. Returns (the
    longest frame in seconds, what it was, the seconds the recount took; 0 without ``mend``)."""
    import pygame

    from koikoi_desktop import app as app_mod
    from koikoi_desktop import scenes

    args = app_mod.parse_args(["--data-dir", str(d), "--speed", "off", "--size", "1280x800"])
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    store = a.storage
    assert store is not None and store.db is not None and a.screen is not None
    if mend:
        with store.db._transaction():
            store.db.conn.execute(
                "UPDATE matches SET date = 'soon' WHERE rowid = "
                "(SELECT rowid FROM matches ORDER BY date DESC LIMIT 1)"
            )
    worst: tuple[float, str] = (0.0, "")

    def frame(what: str, before: object = None, *, timed: bool = True) -> None:
        nonlocal worst
        t = time.perf_counter()
        if callable(before):
            before()
        a.stack.update(1 / 60)
        a.stack.draw(a.screen)
        pygame.display.flip()
        if timed:
            worst = max(worst, (time.perf_counter() - t, what))

    def key(k: int) -> None:
        a.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))

    recount = 0.0
    try:
        a.stack.push(scenes.create("title", a))
        for _ in range(3):  # the first frames draw the art (not the ledger's)
            frame("the title", timed=False)
        frame("entering the ledger", lambda: a.stack.push(scenes.create("ledger", a)))
        for _ in range(5):
            frame("the list")
        if mend:
            t = time.perf_counter()
            frame("the statistics tab (counting)", lambda: key(pygame.K_RIGHT))
            while store.counting:  # at most 60 frames a second, as the game's loop
                start = time.perf_counter()
                frame("the statistics tab (counting)")
                time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - start)))
            recount = time.perf_counter() - t
            frame("the statistics tab (counted)")
            key(pygame.K_LEFT)
        for k, what in (
            (pygame.K_END, "scrolling to the oldest match"),
            (pygame.K_RETURN, "opening a match"),
            (pygame.K_ESCAPE, "back to the list"),
            (pygame.K_RIGHT, "the statistics tab"),
        ):
            frame(what, lambda k=k: key(k))
            frame(what)
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        a.close_storage()
        pygame.display.quit()
    return worst[0], worst[1], recount


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "koikoi-bench-cache"
    )
    parser.add_argument("--sizes", default="0,100000")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    templates = _templates()
    extra = list(_rows(templates, 10_000_000, 10))
    screens: dict[int, float] = {}
    for size in (int(x) for x in args.sizes.split(",")):
        d = _ledger(args.cache, templates, size)
        mb = (d / "koikoi.sqlite3").stat().st_size / 2**20
        print(f"{size:,} matches (database {mb:.0f} MB):")
        runs = [_game_to_ledger_screen(d) for _ in range(3)]
        screens[size] = statistics.median(r[0] for r in runs)
        rss = max(r[1] for r in runs)
        print(
            f"  the game started on the ledger screen (3 frames, whole process): "
            f"median {screens[size]:.2f} s of {[round(r[0], 2) for r in runs]}, "
            f"peak RSS {rss:.0f} MB"
        )
        _opens(d)
        longest, what, _ = _frames(d, mend=False)
        print(f"  the longest frame on the ledger screen: {longest * 1e3:.1f} ms ({what})")
        if size:
            longest, what, recount = _frames(d, mend=True)
            print(
                f"  a damaged row met on screen, set aside, the statistics counted again on a "
                f"worker thread in {recount:.1f} s: longest frame {longest * 1e3:.1f} ms ({what})"
            )
        _writes(d, extra)
    if len(screens) > 1:
        low, high = min(screens), max(screens)
        print(
            f"ledger screen at {high:,} matches vs {low:,}: {screens[high] - screens[low]:+.2f} s"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"(benchmark process peak RSS {peak:.0f} MB)")


if __name__ == "__main__":
    main()
