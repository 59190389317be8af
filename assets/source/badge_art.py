"""The learn-the-suit badge pictograms: one 64x64 SVG per month plant and per card category.

Written by ``draw_cards.py`` into ``assets/ui/badges/``; the plant pictograms reuse the card
generator's plant helpers so a badge looks like its month's cards.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import plants as P
from svgkit import DEEPRED, GOLD, INDIGO, INK, LEAF, PAPER, PINE, PINK, RED, Svg, star_d


def badge_svgs() -> dict[str, str]:
    """Small 64x64 pictograms: one per month plant and one per card category."""
    out: dict[str, str] = {}
    rng = Random(99)

    def pic(draw: Callable[[Svg], None]) -> str:
        s = Svg(64, 64)
        draw(s)
        return s.text()

    def pine(s: Svg) -> None:
        P.pine_cluster(s, (32, 44), 28, -90, rng)

    def plum(s: Svg) -> None:
        P.plum_blossom(s, (32, 32), 28, rng)

    def cherry(s: Svg) -> None:
        P.cherry_flower(s, (32, 34), 30, 0, PINK, DEEPRED)

    def wisteria(s: Svg) -> None:
        P.wisteria_raceme(s, (32, 2), 60, 22, rng)

    def iris(s: Svg) -> None:
        P.iris_flower(s, (32, 24), 1.3, rng)

    def peony(s: Svg) -> None:
        P.peony(s, (32, 32), 28, rng)

    def clover(s: Svg) -> None:
        P.clover_branch(
            s,
            (6, 64),
            (6, 28),
            (44, 20),
            (58, 50),
            rng,
            w=3,
            density=3,
            k=1.6,
            leaf_cols=(LEAF, PINE),
        )

    def susuki(s: Svg) -> None:
        s.circle((40, 22), 16, fill=GOLD)
        s.path("M-2,64 Q32,20 66,64Z", fill=INK)
        for x in (14, 24, 34, 44, 54):
            s.path(f"M{x},60 q2,-14 {8 if x > 32 else -8},-20", stroke=PAPER, sw=2.2)

    def chrys(s: Svg) -> None:
        P.chrysanthemum(s, (32, 32), 30, rng)

    def maple(s: Svg) -> None:
        P.maple_leaf(s, (32, 34), 30, -90)

    def willow(s: Svg) -> None:
        for x, sw in ((14, 6), (30, -4), (46, 8)):
            P.willow_strand(s, (x, 0), 62, sw, rng, leaves=5)

    def paulownia(s: Svg) -> None:
        P.kiri_crest(s, (32, 44), 12, rng, bells=(3, 5, 3), gap=1.75, stalk=0.5)
        P.kiri_leaf(s, (32, 72), 18, -90, LEAF)

    for m, fn in enumerate(
        (
            pine,
            plum,
            cherry,
            wisteria,
            iris,
            peony,
            clover,
            susuki,
            chrys,
            maple,
            willow,
            paulownia,
        ),
        start=1,
    ):
        out[f"month_{m:02d}.svg"] = pic(fn)

    def bright(s: Svg) -> None:
        s.path(star_d((32, 32), 30, 14, 8), fill=GOLD, stroke=INK, sw=3)
        s.circle((32, 32), 11, fill=RED, stroke=INK, sw=3)

    def animal(s: Svg) -> None:
        s.ellipse((32, 42), 15, 12, fill=BROWN_, stroke=INK, sw=3)
        for x, y in ((12, 24), (24, 12), (40, 12), (52, 24)):
            s.ellipse((x, y), 6.5, 8, fill=BROWN_, stroke=INK, sw=3)

    def strip(s: Svg, fill: str) -> None:
        s.path("M20,2 L46,6 L44,62 L18,58Z", fill=fill, stroke=INK, sw=3)

    def poetry(s: Svg) -> None:
        strip(s, RED)
        for y in (14, 29, 44):
            s.path(f"M25,{y} l12,-3 l-10,9", stroke=PAPER, sw=4.5)

    def blue(s: Svg) -> None:
        strip(s, INDIGO)
        s.path("M24,10 L40,12 L38,54 L22,52Z", stroke=PAPER, sw=2.5)

    def red(s: Svg) -> None:
        strip(s, RED)

    def plain(s: Svg) -> None:
        s.circle((32, 32), 12, fill=PAPER, stroke=INK, sw=4)

    for name, fn in (
        ("bright", bright),
        ("animal", animal),
        ("ribbon_poetry", poetry),
        ("ribbon_blue", blue),
        ("ribbon_red", red),
        ("plain", plain),
    ):
        out[f"kind_{name}.svg"] = pic(fn)
    return out


BROWN_ = "#9a5b2c"
