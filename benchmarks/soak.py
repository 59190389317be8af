"""Soak: computer-vs-computer matches through the real scenes, watching memory.

    python benchmarks/soak.py --matches 100       # the long run (about 10-20 minutes)
    python benchmarks/soak.py --seconds 20        # a short run by the clock
    python benchmarks/soak.py --matches 3 --rounds 3 --sync-ai   # CI: test_soak_short.py

The app is built as ``python -m koikoi_desktop --autoplay --speed off`` builds it (dummy video
driver, a private data folder, animations off, no frame cap, 1/60 s of simulated time per frame)
and driven by the same steps as ``App.loop``: events to ``App.dispatch``, ``stack.update``,
``stack.draw``, ``display.flip``. Every frame is drawn, every round summary and match result is
shown for its (simulated) seconds. When the match result asks the app to quit, the next match
starts on a fresh table with the next seed, as "Play again" would.

Printed: frames, matches, rounds, elapsed time and frame rate, RSS at start, after the warm-up,
final and peak, the growth after the warm-up, a least-squares slope of RSS per match after the
warm-up, and the threads and open file descriptors at the end (a leak of either shows there).

Decisions:

* Warm-up: the first 10% of the matches (at least 2) or, with ``--seconds``, the first quarter of
  the time; caches (card sprites, text renders, fonts, the AI's memos) fill then. RSS is sampled
  after ``gc.collect()`` at the end of every later match, and the growth is the median of the
  last samples minus the median of the first ones (a tenth of the samples each, at most 10): the
  allocator makes single samples jump by several MB either way, medians do not.
* RSS is read from ``/proc/self/status`` (VmRSS, VmHWM); elsewhere ``resource.getrusage`` gives
  the peak only. Before each post-warm-up sample, glibc's ``malloc_trim(0)`` hands freed heap
  pages back to the system (where glibc is there), so a sample measures memory the game still
  holds rather than pages the allocator keeps for reuse: without it RSS swings by ~8 MB from one
  match to the next with no trend (a 100-match run: decade means 114.8, 116.9, 116.3, 117.1,
  122.6, 124.9, 124.9, 111.8, 123.7 MB), which hides a real leak as well as it fakes one.
* ``--max-growth-mb`` turns the figure into a verdict (exit status 1 when exceeded); the issue's
  bar is 10 MB over 100 matches.
* ``--sync-ai``: the computer seats decide on the frame that asks (the app's injected
  ``InlineExecutor``) instead of in their worker. A run bounded by ``--matches`` is then the
  same run on any machine, however loaded: the test asserts what it did (matches, rounds,
  frames, memory), never how fast.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

MB = 1024 * 1024


def _trim() -> None:
    """Return freed heap pages to the system (glibc only; a no-op elsewhere)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def rss() -> tuple[int, int]:
    """(current RSS, peak RSS) in bytes."""
    cur = peak = 0
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    cur = int(line.split()[1]) * 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) * 1024
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        cur = peak
    return cur, peak


def open_fds() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


def slope(points: list[tuple[int, int]]) -> float:
    """Least-squares slope of (match, bytes) points, in bytes per match."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else 0.0


def build_app(
    data_dir: Path, seed: int, preset: str | None, size: str, sync_ai: bool = False
) -> Any:
    from koikoi_desktop import app as app_mod
    from koikoi_desktop.ai import InlineExecutor

    argv = [
        "--autoplay",
        "--speed",
        "off",
        "--seed",
        str(seed),
        "--data-dir",
        str(data_dir),
        "--size",
        size,
    ]
    if preset:
        argv += ["--preset", preset]
    args = app_mod.parse_args(argv)
    a = app_mod.App(args)
    if sync_ai:
        a.ai_executor = InlineExecutor()
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.running = True
    return a


def new_table(a: Any, seed: int, preset: str | None, rounds: int | None) -> None:
    """Title underneath, a computer-vs-computer table on top (as ``--autoplay`` starts)."""
    from koikoi_desktop import engine
    from koikoi_desktop.scenes import screens

    a.stack.reset(a.router.build(screens.Title()))
    if rounds is None:
        a.stack.push(a.router.build(screens.Table(autoplay=True, seed=seed, preset=preset)))
        return
    from koikoi_desktop.scenes.match_config import MatchConfig

    rules = engine.PRESETS[preset or "nintendo"].with_rounds(rounds)
    config = MatchConfig(rules, ("intermediate", "intermediate"), seed)
    a.stack.push(a.router.build(screens.Table(autoplay=True, config=config)))


def soak(
    *,
    matches: int | None,
    seconds: float | None,
    seed: int = 1,
    preset: str | None = None,
    rounds: int | None = None,
    size: str = "1280x800",
    quiet: bool = False,
    sync_ai: bool = False,
) -> dict[str, Any]:
    """Play until ``matches`` matches ended or ``seconds`` passed; returns the figures."""
    import pygame

    start_rss, _ = rss()
    t0 = time.perf_counter()
    tmp = tempfile.TemporaryDirectory(prefix="koikoi-soak-")
    a = build_app(Path(tmp.name) / "data", seed, preset, size, sync_ai)
    new_table(a, seed, preset, rounds)
    frames = done = played = 0
    warm_matches = max(2, (matches or 0) // 10)
    warm_rss: int | None = None
    warm_at = 0.0
    samples: list[tuple[int, int]] = []

    def finished() -> bool:
        if matches is not None and done >= matches:
            return True
        return seconds is not None and time.perf_counter() - t0 >= seconds

    while not finished():
        for event in pygame.event.get():
            a.dispatch(event)
        a.stack.update(a.fixed_dt)
        top = a.stack.top
        if top is not None:
            a.stack.draw(a.screen)
            pygame.display.flip()
            frames += 1
        if a.running and top is not None:
            continue
        # the match result asked to quit: count the match, then "play again" with the next seed
        result = a.stack.find("match-result")
        m = getattr(result, "match", None)
        if m is None:
            raise RuntimeError(f"the app stopped without a match result: {a.stack.names()}")
        done += 1
        played += len(m.ledger)
        new_table(a, seed + done, preset, rounds)
        a.running = True
        warm = (
            done >= warm_matches
            if matches is not None
            else (seconds is not None and time.perf_counter() - t0 >= seconds / 4)
        )
        if warm:
            gc.collect()
            _trim()
            now, _ = rss()
            if warm_rss is None:
                warm_rss, warm_at = now, time.perf_counter() - t0
            samples.append((done, now))
        if not quiet:
            print(
                f"  match {done}: {len(m.ledger)} rounds, frame {frames}, "
                f"RSS {rss()[0] / MB:.1f} MB",
                flush=True,
            )
    elapsed = time.perf_counter() - t0
    gc.collect()
    final, peak = rss()
    threads = threading.active_count()
    fds = open_fds()
    while a.stack.top is not None:
        a.stack.pop()
    pygame.display.quit()
    tmp.cleanup()
    growth = None
    if samples:
        w = max(1, min(10, len(samples) // 10))
        first = statistics.median(y for _, y in samples[:w])
        last = statistics.median(y for _, y in samples[-w:])
        warm_rss, growth = int(first), int(last - first)
    return {
        "frames": frames,
        "matches": done,
        "rounds": played,
        "seconds": round(elapsed, 1),
        "fps": round(frames / elapsed, 1) if elapsed else 0.0,
        "warmup_matches": warm_matches if matches is not None else None,
        "warmup_seconds": round(warm_at, 1),
        "rss_start_mb": round(start_rss / MB, 1),
        "rss_after_warmup_mb": round(warm_rss / MB, 1) if warm_rss is not None else None,
        "rss_final_mb": round(final / MB, 1),
        "rss_peak_mb": round(peak / MB, 1),
        "growth_after_warmup_mb": round(growth / MB, 2) if growth is not None else None,
        "slope_kb_per_match": round(slope(samples) / 1024, 1),
        "threads_at_end": threads,
        "open_fds_at_end": fds,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, help="stop after this many matches")
    p.add_argument("--seconds", type=float, help="stop after this many seconds")
    p.add_argument("--seed", type=int, default=1, help="seed of the first match (then +1 each)")
    p.add_argument("--preset", help="rule preset (default: the settings' default)")
    p.add_argument("--rounds", type=int, help="rounds per match (default: the preset's)")
    p.add_argument("--size", default="1280x800", help="window size")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--max-growth-mb", type=float, help="exit 1 if RSS grew more after warm-up")
    p.add_argument("--quiet", action="store_true", help="no line per match")
    p.add_argument(
        "--sync-ai",
        action="store_true",
        help="the computer decides on the frame that asks (a run bounded by --matches "
        "is the same on any machine)",
    )
    args = p.parse_args(argv)
    if args.matches is None and args.seconds is None:
        args.seconds = 20.0
    figures = soak(
        matches=args.matches,
        seconds=args.seconds,
        seed=args.seed,
        preset=args.preset,
        rounds=args.rounds,
        size=args.size,
        quiet=args.quiet,
        sync_ai=args.sync_ai,
    )
    width = max(len(k) for k in figures)
    for k, v in figures.items():
        print(f"{k:<{width}}  {v}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1), encoding="utf-8")
    growth = figures["growth_after_warmup_mb"]
    if args.max_growth_mb is not None and growth is not None and growth > args.max_growth_mb:
        print(f"FAIL: RSS grew {growth} MB after warm-up (limit {args.max_growth_mb} MB)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
