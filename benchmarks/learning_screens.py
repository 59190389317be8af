"""Frame times of the learning screens, and the cost of the engine-derived yaku facts.

    python benchmarks/learning_screens.py [--frames N]

Prints, per screen and window size, the first frame (card art rasterised, text laid out) and the
median / worst of the next N frames (steady state, caches warm), drawn through the real scene
stack on a dummy display; then the time ``yaku_facts`` needs to derive every yaku's value,
feeders, steps and relations for the four presets from ``score_yaku`` (cold cache).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from koikoi_desktop import app as appmod
from koikoi_desktop.scenes import screens

#: (name, the screen's record, which the app's router builds)
SCREENS: list[tuple[str, screens.Screen]] = [
    ("month-reference", screens.MonthReference()),
    ("quiz", screens.Quiz(seed=1)),
    ("yaku-reference", screens.YakuReference(yaku="kasu")),
    ("rules", screens.Rules(page="presets")),
    ("tutorial", screens.Tutorial()),
    ("settings", screens.Settings()),
]
SIZES = [(1280, 800), (1920, 1080)]


def yaku_facts_cold() -> float:
    from koikoi_desktop.engine import PRESETS
    from koikoi_desktop.scenes import yaku_facts as F

    for fn in (F._working_set, F.feeders, F.extra_step, F.relation, F.core):
        fn.cache_clear()
    t = time.perf_counter()
    for rules in PRESETS.values():
        for key in F.existing(rules):
            F.value(key, rules)
            F.extra_step(key, rules)
            F.combines_with(key, rules)
        for c in range(1, 49):
            F.feeds_split(c, rules)
    return (time.perf_counter() - t) * 1000


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=30)
    ns = ap.parse_args()
    data = tempfile.mkdtemp(prefix="koikoi-bench-")
    print(f"pygame-ce {pygame.version.ver}; {ns.frames} steady frames per screen")
    for w, h in SIZES:
        a = appmod.App(appmod.parse_args(["--size", f"{w}x{h}", "--data-dir", data]))
        a.open_storage()
        a.open_window()
        a.open_sprites()
        a.stack.push(a.router.build(screens.Title()))
        surf = pygame.display.get_surface()
        for name, open_screen in SCREENS:
            a.stack.push(a.router.build(open_screen))
            t = time.perf_counter()
            a.stack.draw(surf)
            first = (time.perf_counter() - t) * 1000
            times = []
            for _ in range(ns.frames):
                t = time.perf_counter()
                a.stack.draw(surf)
                times.append((time.perf_counter() - t) * 1000)
            label = name
            print(
                f"{w}x{h} {label:24s} first {first:7.1f} ms   median "
                f"{statistics.median(times):6.1f} ms   worst {max(times):6.1f} ms"
            )
            a.stack.pop()
    print(f"yaku_facts for 4 presets, cold cache: {yaku_facts_cold():.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
