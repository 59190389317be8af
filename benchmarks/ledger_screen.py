"""The ledger screen with a large ledger: opening it, and frame times of each view.

    python benchmarks/ledger_screen.py [--matches N] [--frames F]

Records N matches (copies of a few real engine matches, 12 rounds each) into a temporary data
folder through Storage, then through the real App on a dummy display prints: the time
``Storage.open`` takes to read and validate the ledger, the time the screen takes to enter (sort
newest first, summarise, compute lifetime statistics), and per view and window size the first
frame and the median / worst of the next F frames while scrolling.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from koikoi_desktop import app as appmod
from koikoi_desktop import engine, scenes
from koikoi_desktop.storage import MatchRecord, Storage

SIZES = [(1024, 640), (1920, 1080)]


def played(preset: str, seed: int) -> MatchRecord:
    rules = engine.PRESETS[preset]
    m = engine.new_match(rules, first_dealer=0, seed=seed)
    rng = random.Random(seed)
    events = []
    while m.outcome is None:
        events += m.apply(rng.choice(m.round.legal_actions()))
    return MatchRecord.from_match(
        m,
        preset=preset,
        unit=rules.unit,
        opponent_level="expert",
        events=events,
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=2000)
    ap.add_argument("--frames", type=int, default=120)
    opts = ap.parse_args()
    base = [played(p, 1 + i) for i, p in enumerate(("nintendo", "seed-000", "seed-003"))]
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    recs = [
        base[i % 3].model_copy(update={"match_id": f"m{i}", "date": t0 + timedelta(hours=i)})
        for i in range(opts.matches)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        with Storage.open(tmp) as store:
            store.ledger.extend(recs[:-1])
            store.record_match(recs[-1])
        size_kb = (Path(tmp) / "ledger.jsonl").stat().st_size / 1024
        t = time.perf_counter()
        Storage.open(tmp).close()
        print(
            f"{opts.matches} matches, ledger.jsonl {size_kb:.0f} kB: "
            f"Storage.open {1000 * (time.perf_counter() - t):.0f} ms"
        )
        for size in SIZES:
            args = appmod.parse_args(["--data-dir", tmp, "--size", f"{size[0]}x{size[1]}"])
            app = appmod.App(args)
            appmod.sdl_defaults(args)
            app.open_storage()
            app.open_window()
            app.open_sprites()
            scene = scenes.create("ledger", app)
            t = time.perf_counter()
            app.stack.push(scene)
            enter_ms = 1000 * (time.perf_counter() - t)
            surface = app.screen
            row = [f"{size[0]}x{size[1]}: enter {enter_ms:.0f} ms"]
            for view in ("matches", "match", "stats"):
                if view == "match":
                    scene.open_match(0)
                else:
                    scene.show_list() if view == "matches" else scene.set_view(view)
                t = time.perf_counter()
                scene.draw(surface)
                first = 1000 * (time.perf_counter() - t)
                times = []
                for i in range(opts.frames):
                    scene.on_wheel(-1 if (i // 20) % 2 == 0 else 1)  # scroll down, then up
                    t = time.perf_counter()
                    scene.draw(surface)
                    times.append(1000 * (time.perf_counter() - t))
                row.append(
                    f"{view} first {first:.1f} ms, median {statistics.median(times):.2f}"
                    f" / worst {max(times):.2f} ms"
                )
            print("; ".join(row))
            while app.stack.top is not None:
                app.stack.pop()
            app.storage.close()
            pygame.display.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
