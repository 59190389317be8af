"""Frame times, launch time and memory of the real game (dummy video driver; sound on, through
SDL's disk audio driver writing to the null device).

    python benchmarks/render.py                 # everything below, printed as a table
    python benchmarks/render.py --quick         # a 3,000-frame match excerpt, 8 s of the Expert
    python benchmarks/render.py --smoke         # 120 frames, 5 s: does it run (figures rough)

Figures (each measured in a fresh child process so they do not mix):

* frame time p50 / p99 / max over a computer-vs-computer match (Intermediate opponents) played
  through the real scenes at 1280x800 and 1920x1080 (target p99 < 8 ms): update + draw + flip
  of each frame, animations at the given speed;
* frame time p99 while the Expert is thinking on the table (target < 16.7 ms: its search runs
  in a worker process, so the frame loop keeps its 60 fps);
* launch to first drawn frame: ``python -m koikoi_desktop --frames 1`` wall time, and the
  in-process time from ``App.run`` to the first flip (target < 1 s);
* peak RSS of the match process (target < 200 MB).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))] if s else float("nan")


def _load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def child_match(size: str, speed: str, frames: int | None, seed: int) -> dict[str, object]:
    from koikoi_desktop import app as app_mod

    argv = [
        "--autoplay",
        "--seed",
        str(seed),
        "--size",
        size,
        "--speed",
        speed,
        "--data-dir",
        str(Path(os.environ.get("TMPDIR", "/tmp")) / "koikoi-bench"),
    ]
    if frames:
        argv += ["--frames", str(frames)]
    args = app_mod.parse_args(argv)
    a = app_mod.App(args, record_frames=True)
    t0 = time.perf_counter()
    a.run()
    wall = time.perf_counter() - t0
    ms = a.frame_ms[5:]  # the first frames include rasterising the deck
    return {
        "frames": len(a.frame_ms),
        "p50": _pct(ms, 0.5),
        "p99": _pct(ms, 0.99),
        "max": max(ms),
        "first_frame_s": a.first_frame_at,
        "wall_s": wall,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def child_expert(size: str, seconds: float) -> dict[str, object]:
    """Frames drawn while the Expert (in its worker process) chooses moves."""
    import pygame

    from koikoi_desktop import app as app_mod
    from koikoi_desktop import engine
    from koikoi_desktop.scenes import screens
    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.scenes.table.scene import TableScene

    args = app_mod.parse_args(
        [
            "--size",
            size,
            "--speed",
            "fast",
            "--data-dir",
            str(Path(os.environ.get("TMPDIR", "/tmp")) / "koikoi-bench"),
        ]
    )
    a = app_mod.App(args, record_frames=True)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.stack.push(a.router.build(screens.Title()))
    config = MatchConfig(engine.PRESETS["nintendo"], ("expert", "expert"), 7)
    t = a.router.build(screens.Table(config=config))
    assert isinstance(t, TableScene)
    a.stack.push(t)
    clock = pygame.time.Clock()
    thinking: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        for ev in pygame.event.get():
            a.dispatch(ev)
        a.stack.update(1 / 60)
        a.stack.draw(a.screen)
        pygame.display.flip()
        if t.controller.thinker.busy:
            thinking.append((time.perf_counter() - t0) * 1000)
        clock.tick(60)
    a.shutdown()  # the table closes its thinker; the storage is closed cleanly for the next run
    return {
        "thinking_frames": len(thinking),
        "p50": _pct(thinking, 0.5),
        "p99": _pct(thinking, 0.99),
        "max": max(thinking, default=float("nan")),
    }


def child_launch() -> dict[str, object]:
    from koikoi_desktop import app as app_mod

    args = app_mod.parse_args(
        [
            "--frames",
            "1",
            "--data-dir",
            str(Path(os.environ.get("TMPDIR", "/tmp")) / "koikoi-bench"),
        ]
    )
    a = app_mod.App(args)
    a.run()
    return {"first_frame_s": a.first_frame_at}


def _run_child(*argv: str) -> dict[str, object]:
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        # a real mixer with the game's sounds, written to nowhere at a device's pace (the dummy
        # driver would open no mixer at all: app.py)
        SDL_AUDIODRIVER="disk",
        SDL_DISKAUDIOFILE=os.devnull,
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        PYTHONPATH=str(ROOT),
    )
    out = subprocess.run(
        [sys.executable, __file__, "--child", *argv],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="3000 frames instead of a whole match")
    ap.add_argument(
        "--smoke", action="store_true", help="120 frames and 5 s of the Expert: a test run"
    )
    ap.add_argument("--speed", default="normal", choices=("off", "fast", "normal"))
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--child", nargs="*", help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.child is not None:
        kind, *rest = ns.child
        if kind == "match":
            res = child_match(rest[0], rest[1], int(rest[2]) or None, int(rest[3]))
        elif kind == "expert":
            res = child_expert(rest[0], float(rest[1]))
        else:
            res = child_launch()
        print(json.dumps(res))
        return
    frames = "120" if ns.smoke else "3000" if ns.quick else "0"
    expert_s = "5" if ns.smoke else "8" if ns.quick else "20"
    print(
        f"Koi-Koi Desktop render benchmark (dummy video, disk audio to {os.devnull}, "
        f"speed {ns.speed})"
    )
    print(
        f"  load average before: {_load()} on {os.cpu_count()} CPUs (frame p99 is only "
        "meaningful on a quiet machine: a busy one preempts the frame loop)"
    )
    for size in ("1280x800", "1920x1080"):
        r = _run_child("match", size, ns.speed, frames, str(ns.seed))
        print(
            f"  autoplay match {size}: {r['frames']} frames, frame time p50 {r['p50']:.2f} ms,"
            f" p99 {r['p99']:.2f} ms, max {r['max']:.1f} ms; peak RSS {r['rss_mb']:.0f} MB;"
            f" wall {r['wall_s']:.1f} s"
        )
    r = _run_child("expert", "1280x800", expert_s)
    print(
        f"  while the Expert thinks (1280x800): {r['thinking_frames']} frames, p50 "
        f"{r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, max {r['max']:.1f} ms"
    )
    t0 = time.perf_counter()
    r = _run_child("launch")
    wall = time.perf_counter() - t0
    print(f"  load average after: {_load()}")
    print(
        f"  launch to first frame: {r['first_frame_s']:.3f} s in process; "
        f"{wall:.2f} s for the whole `--frames 1` run (Python start-up and exit included)"
    )


if __name__ == "__main__":
    main()
