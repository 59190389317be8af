"""Time to rasterise the whole deck (48 cards + back) at table sizes.

This is what happens on every window resize: the sprite cache is cleared and every card is drawn
again from its SVG.  At a 1920x1080 table the cards are about 120x192 px.

    python benchmarks/render_deck.py [--repeat N]

Prints, per card size, the best and median wall time of rasterising all 49 SVGs through
``CardSprites.prewarm`` (pygame.image.load_sized_svg + exact-size fix-up + convert_alpha on a
dummy display), and the slowest single card at the table size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from koikoi_desktop.assets import CardSprites, card_path, load_svg

SIZES = {
    "1280x720 (80x128)": (80, 128),
    "1920x1080 (120x192)": (120, 192),
    "2560x1440 (160x256)": (160, 256),
    "3840x2160 (240x384)": (240, 384),
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ns = ap.parse_args()
    pygame.display.init()
    pygame.display.set_mode((1920, 1080))
    print(f"pygame-ce {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}")
    print("full deck = 48 cards + back, rasterised from SVG, best / median of", ns.repeat)
    for label, size in SIZES.items():
        times = []
        for _ in range(ns.repeat):
            sprites = CardSprites()
            t0 = time.perf_counter()
            sprites.prewarm(size)
            times.append(time.perf_counter() - t0)
        print(
            f"  {label:>22}: best {min(times) * 1000:7.1f} ms   "
            f"median {statistics.median(times) * 1000:7.1f} ms"
        )
    size = SIZES["1920x1080 (120x192)"]
    per = []
    for cid in range(49):
        t0 = time.perf_counter()
        load_svg(card_path(cid), size)
        per.append((time.perf_counter() - t0, cid))
    worst = sorted(per, reverse=True)[:3]
    print(
        "  slowest cards at 120x192: " + ", ".join(f"#{cid} {t * 1000:.1f} ms" for t, cid in worst)
    )
    total_kb = sum(card_path(c).stat().st_size for c in range(49)) / 1024
    print(f"  SVG sizes: {total_kb:.0f} KiB in total")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
