#!/usr/bin/env python3
"""Generate the 48 hanafuda card SVGs, the card back and the badge pictograms.

Run from anywhere: ``python assets/source/draw_cards.py``.  It rewrites ``assets/cards/*.svg`` and
``assets/ui/badges/*.svg``; the output is deterministic (each card draws with its own
``random.Random(card id)``), so running it again reproduces the committed files byte for byte.

All art here is original to Koi-Koi Desktop (see ``assets/README.md``): the compositions follow
the traditional hanafuda deck as ART.md describes it, the drawing is ours.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent))

import plants as P
import subjects as S
from badge_art import badge_svgs
from svgkit import (
    DARKPINE,
    DEEPRED,
    GOLD,
    INDIGO,
    INK,
    LEAF,
    LILAC,
    OCHRE,
    PAPER,
    PINE,
    PINK,
    RED,
    SKY,
    STORM,
    VIOLET,
    Point,
    Svg,
    above_d,
    below_d,
    leaf_d,
    poly_d,
    rounded_rect_d,
    smooth_open,
    tapered,
)

ROOT = Path(__file__).resolve().parents[1]
W, H, R = 200, 320, 12

CODES = [
    "JAN_CRANE",
    "JAN_POEM",
    "JAN_PLAIN_1",
    "JAN_PLAIN_2",
    "FEB_WARBLER",
    "FEB_POEM",
    "FEB_PLAIN_1",
    "FEB_PLAIN_2",
    "MAR_CURTAIN",
    "MAR_POEM",
    "MAR_PLAIN_1",
    "MAR_PLAIN_2",
    "APR_CUCKOO",
    "APR_RIBBON",
    "APR_PLAIN_1",
    "APR_PLAIN_2",
    "MAY_BRIDGE",
    "MAY_RIBBON",
    "MAY_PLAIN_1",
    "MAY_PLAIN_2",
    "JUN_BUTTERFLIES",
    "JUN_BLUE",
    "JUN_PLAIN_1",
    "JUN_PLAIN_2",
    "JUL_BOAR",
    "JUL_RIBBON",
    "JUL_PLAIN_1",
    "JUL_PLAIN_2",
    "AUG_MOON",
    "AUG_GEESE",
    "AUG_PLAIN_1",
    "AUG_PLAIN_2",
    "SEP_SAKE",
    "SEP_BLUE",
    "SEP_PLAIN_1",
    "SEP_PLAIN_2",
    "OCT_DEER",
    "OCT_BLUE",
    "OCT_PLAIN_1",
    "OCT_PLAIN_2",
    "NOV_RAINMAN",
    "NOV_SWALLOW",
    "NOV_RIBBON",
    "NOV_LIGHTNING",
    "DEC_PHOENIX",
    "DEC_PLAIN_1",
    "DEC_PLAIN_2",
    "DEC_PLAIN_3",
]
POEM_1 = ("a", "ka", "yo", "ro", "shi")  # あかよろし, on the January and February ribbons
POEM_3 = ("mi", "yo", "shi", "no")  # みよしの, on the March ribbon


def file_name(card_id: int) -> str:
    return f"{card_id:02d}_{CODES[card_id - 1]}.svg"


# ------------------------------------------------------------------ card furniture


def base(s: Svg, bg: str = PAPER) -> None:
    s.path(rounded_rect_d(0, 0, W, H, R), fill=bg)


def frame(s: Svg) -> None:
    """The thin dark frame (outer rounded rectangle minus inner), drawn last over the art."""
    s.path(
        rounded_rect_d(0, 0, W, H, R) + " " + rounded_rect_d(5, 5, W - 10, H - 10, 8),
        fill=INK,
        evenodd=True,
    )


def ground(s: Svg, prof: list[Point], fill: str, smooth: bool = True) -> None:
    """Fill from a profile line (left to right, x -5 .. 205) down to the card's bottom."""
    top = smooth_open(prof) if smooth else poly_d(prof, close=False)
    s.path(below_d(top), fill=fill)


def sky(s: Svg, prof: list[Point], fill: str, smooth: bool = True) -> None:
    """Fill from a profile line (left to right) up to the card's top."""
    top = smooth_open(prof) if smooth else poly_d(prof, close=False)
    s.path(above_d(top), fill=fill)


def wavy(y: float, amp: float, rng: Random, n: int = 6, phase: float = 0.0) -> list[Point]:
    return [
        (-5 + 210 * i / n, y + amp * math.sin(i * 1.3 + phase) + rng.uniform(-2, 2))
        for i in range(n + 1)
    ]


def kasumi(s: Svg, y: float, x0: float, x1: float, h: float, fill: str) -> None:
    """A stylised mist band (rounded bar), as prints use to separate planes."""
    s.rect(x0, y, x1 - x0, h, fill=fill, rx=h / 2)


def mirror(s: Svg):  # type: ignore[no-untyped-def]
    return s.group(f"translate({W},0) scale(-1,1)")


def place(s: Svg, x: float, y: float, k: float, flip: bool = False):  # type: ignore[no-untyped-def]
    sx = -k if flip else k
    return s.group(f"translate({x:.1f},{y:.1f}) scale({sx:.2f},{k:.2f})")


# ------------------------------------------------------------------ January: pine


def pine_top(s: Svg, rng: Random, flip: bool = False, low: float = 0.0) -> None:
    def draw() -> None:
        P.pine_bough(
            s,
            (-10, 120 + low),
            (190, 40 + low),
            -40,
            11,
            rng,
            [(0.18, 40, -100), (0.5, 44, -80), (0.82, 38, -60), (0.4, 30, 60)],
        )
        P.pine_bough(
            s, (-10, 60 + low), (110, 18 + low), -20, 7, rng, [(0.55, 32, -110), (0.95, 30, -40)]
        )

    if flip:
        with mirror(s):
            draw()
    else:
        draw()


def card_1(s: Svg, rng: Random) -> None:
    base(s)
    s.circle((116, 104), 66, fill=RED)
    with place(s, 22, 78, 1.2):
        S.crane(s)
    P.pine_bough(
        s, (215, 330), (120, 250), 30, 14, rng, [(0.3, 40, -140), (0.75, 36, -100), (0.98, 32, -60)]
    )
    P.pine_bough(s, (-10, 322), (60, 270), -10, 10, rng, [(0.6, 34, -70), (1.0, 30, -30)])


def card_2(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(262, 6, rng), RED)
    ground(s, wavy(290, 5, rng, phase=2), INK)
    P.pine_bough(
        s,
        (-10, 300),
        (80, 60),
        40,
        16,
        rng,
        [(0.35, 36, -150), (0.62, 42, -20), (0.85, 38, -130), (1.0, 34, -60)],
    )
    P.pine_bough(s, (205, 220), (120, 150), -20, 9, rng, [(0.5, 34, -60), (1.0, 30, -120)])
    S.ribbon(s, (104, 176), 16, 196, 36, inscription=POEM_1)


def card_3(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(178, 10, rng, phase=0.4), RED)
    ground(s, wavy(236, 8, rng, phase=1.5), INK)
    ground(s, wavy(272, 6, rng, phase=3.0), RED)
    ground(s, wavy(300, 4, rng), INK)
    pine_top(s, rng, low=46)


def card_4(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(214, 14, rng, n=4, phase=2.0), INK)
    ground(s, wavy(250, 10, rng, n=5, phase=0.2), RED)
    ground(s, wavy(292, 6, rng, phase=1.0), DEEPRED)
    P.pine_bough(
        s,
        (210, 160),
        (30, 60),
        50,
        12,
        rng,
        [(0.15, 38, -80), (0.45, 44, -100), (0.8, 40, -120), (0.6, 28, 80)],
    )
    P.pine_bough(s, (-10, 250), (90, 170), -30, 9, rng, [(0.6, 34, -70), (1.0, 30, -30)])


# ------------------------------------------------------------------ February: plum


def card_5(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(200, 12, rng, n=4), RED)
    P.plum_branch(
        s,
        [(-8, 256), (50, 214), (96, 222), (150, 160), (170, 110), (150, 60)],
        16,
        rng,
        blossoms=8,
        r=15,
    )
    P.plum_branch(s, [(205, 30), (160, 40), (120, 20), (80, 40)], 8, rng, blossoms=4, r=13, twigs=2)
    with place(s, 44, 156, 1.45):
        S.warbler(s)


def card_6(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(286, 5, rng), RED)
    P.plum_branch(
        s,
        [(-8, 300), (40, 250), (36, 190), (80, 150), (70, 90), (120, 50)],
        16,
        rng,
        blossoms=9,
        r=15,
        twigs=4,
    )
    P.plum_branch(s, [(205, 110), (170, 60), (150, 20)], 9, rng, blossoms=3, r=13, twigs=1)
    S.ribbon(s, (112, 186), -14, 190, 36, inscription=POEM_1)


def card_7(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(282, 6, rng, n=4, phase=2.5), RED)
    P.plum_branch(
        s,
        [(-8, 290), (60, 230), (54, 170), (110, 130), (96, 70), (150, 30)],
        17,
        rng,
        blossoms=11,
        r=16,
        twigs=4,
    )
    P.plum_branch(
        s, [(205, 250), (150, 200), (170, 150), (140, 110)], 10, rng, blossoms=6, r=15, twigs=2
    )


def card_8(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(268, 10, rng, n=4, phase=1), RED)
    P.plum_branch(
        s,
        [(205, 130), (150, 104), (120, 150), (60, 110), (40, 50)],
        16,
        rng,
        blossoms=9,
        r=18,
        twigs=3,
    )
    P.plum_branch(
        s, [(-8, 262), (40, 236), (70, 196), (120, 214)], 11, rng, blossoms=4, r=16, twigs=1
    )


# ------------------------------------------------------------------ March: cherry


def cherry_branch(s: Svg, pts: list[Point], w: float) -> None:
    P.branch(s, pts, w, w * 0.3)


def card_9(s: Svg, rng: Random) -> None:
    base(s)
    cherry_branch(s, [(-8, 60), (60, 80), (130, 50), (205, 70)], 9)
    P.cherry_cloud(s, (60, 66), 62, 44, rng, flowers=8)
    P.cherry_cloud(s, (160, 100), 52, 40, rng, flowers=6)
    P.cherry_cloud(s, (40, 140), 44, 28, rng, flowers=4, fr=10)
    S.maku(s, 160, 320)


def card_10(s: Svg, rng: Random) -> None:
    base(s)
    cherry_branch(s, [(-8, 200), (50, 150), (110, 140), (205, 90)], 10)
    P.cherry_cloud(s, (64, 80), 60, 50, rng, flowers=9)
    P.cherry_cloud(s, (150, 250), 56, 46, rng, flowers=8)
    P.cherry_cloud(s, (160, 60), 38, 30, rng, flowers=4)
    S.ribbon(s, (96, 176), 12, 186, 36, inscription=POEM_3)


def card_11(s: Svg, rng: Random) -> None:
    base(s)
    cherry_branch(s, [(-8, 280), (60, 200), (90, 130), (160, 70), (205, 60)], 12)
    P.cherry_cloud(s, (120, 70), 74, 52, rng, flowers=11)
    P.cherry_cloud(s, (60, 180), 58, 44, rng, flowers=8)
    P.cherry_cloud(s, (150, 270), 50, 36, rng, flowers=6)


def card_12(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(236, 8, rng, n=4), RED)
    kasumi(s, 150, 110, 230, 18, PINK)
    cherry_branch(s, [(205, 240), (130, 170), (90, 90), (-8, 50)], 11)
    P.cherry_cloud(s, (70, 80), 70, 56, rng, flowers=10)
    P.cherry_cloud(s, (140, 200), 60, 46, rng, flowers=8)


# ------------------------------------------------------------------ April: wisteria


def wisteria_top(
    s: Svg,
    rng: Random,
    spots: list[tuple[float, float, float, float]],
    leaves: int = 3,
    width: float = 22,
) -> None:
    P.branch(s, [(-8, 22), (60, 30), (140, 18), (208, 30)], 8, 5)
    for x, y, ln, sway in spots:
        P.wisteria_raceme(s, (x, y), ln, width * rng.uniform(0.9, 1.1), rng, sway)
    for i in range(leaves):
        x = 20 + i * 170 / max(1, leaves - 1)
        P.wisteria_leaves(s, (x, 26), 60 + rng.uniform(-30, 30) + i * 20, 46, rng)


def card_13(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(132, 14, rng, n=4, phase=2), RED)
    S.crescent(s, (130, 200), 66)
    wisteria_top(s, rng, [(26, 24, 140, 8), (70, 26, 96, -6), (168, 20, 110, 10)])
    with s.group("translate(34,230) rotate(14) scale(1.15)"):
        S.cuckoo(s)


def card_14(s: Svg, rng: Random) -> None:
    base(s)
    wisteria_top(
        s, rng, [(28, 24, 220, 10), (76, 26, 150, -8), (150, 20, 190, 6), (184, 26, 120, -4)]
    )
    S.ribbon(s, (110, 190), -10, 180, 34, inscription=())


def card_15(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(286, 5, rng, n=4, phase=0.7), INDIGO)
    wisteria_top(
        s,
        rng,
        [(28, 24, 236, 8), (76, 28, 170, -8), (126, 24, 256, 6), (176, 26, 196, -8)],
        leaves=3,
        width=22,
    )


def card_16(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(250, 10, rng, n=4), RED)
    ground(s, wavy(292, 5, rng, n=4, phase=1), INK)
    wisteria_top(
        s, rng, [(40, 24, 190, 14), (104, 22, 214, -10), (166, 26, 164, 4)], leaves=2, width=27
    )


# ------------------------------------------------------------------ May: iris


def iris_bed(
    s: Svg, rng: Random, xs: list[float], y: float, hmin: float, hmax: float, w: float = 13
) -> None:
    cols = (PINE, LEAF, DARKPINE, LEAF)
    for i, x in enumerate(xs):
        P.iris_blade(
            s,
            (x, y),
            rng.uniform(hmin, hmax),
            rng.uniform(-30, 30),
            w * rng.uniform(0.85, 1.15),
            cols[i % 4],
        )


def card_17(s: Svg, rng: Random) -> None:
    base(s)
    S.waves(s, 120, 320, rng, rows=6)
    iris_bed(s, rng, [24, 44, 64, 136, 158, 178], 142, 80, 130, 11)
    for c, k in (((36, 50), 1.2), ((162, 44), 1.25), ((98, 66), 1.05)):
        P.iris_flower(s, c, k, rng, tilt=rng.uniform(-10, 10))
    S.bridge(
        s, [((-10, 292), (150, 236)), ((140, 244), (26, 184)), ((30, 190), (210, 142))], width=28
    )
    iris_bed(s, rng, [150, 166, 182], 316, 60, 100, 11)
    P.iris_flower(s, (166, 240), 0.9, rng)


def card_18(s: Svg, rng: Random) -> None:
    base(s)
    iris_bed(s, rng, [18, 36, 56, 140, 160, 180], 316, 170, 270)
    for c, k in (((40, 84), 1.45), ((160, 60), 1.4), ((166, 180), 1.3)):
        P.iris_flower(s, c, k, rng, tilt=rng.uniform(-10, 10))
    S.ribbon(s, (100, 176), 10, 186, 34)


def card_19(s: Svg, rng: Random) -> None:
    base(s)
    iris_bed(s, rng, [12, 28, 44, 62, 80, 100, 118, 138, 156, 172, 188], 318, 150, 270, 16)
    for c, k in (((52, 86), 2.0), ((150, 62), 1.9), ((116, 176), 1.7)):
        P.iris_flower(s, c, k, rng, tilt=rng.uniform(-12, 12))


def card_20(s: Svg, rng: Random) -> None:
    base(s)
    S.waves(s, 236, 320, rng, rows=3)
    iris_bed(s, rng, [22, 42, 64, 88, 120, 144, 168, 186], 296, 150, 250, 17)
    for c, k in (((62, 96), 2.2), ((150, 150), 1.9)):
        P.iris_flower(s, c, k, rng, tilt=rng.uniform(-12, 12))


# ------------------------------------------------------------------ June: peony


def card_21(s: Svg, rng: Random) -> None:
    base(s)
    P.peony_leaf(s, (60, 300), 80, -130, PINE)
    P.peony_leaf(s, (140, 300), 80, -50, INK)
    P.peony_leaf(s, (100, 310), 70, -90, LEAF)
    P.peony(s, (64, 232), 44, rng)
    P.peony(s, (150, 250), 38, rng)
    with place(s, 62, 80, 1.15):
        S.butterfly(s, INDIGO, GOLD, INK)
    with s.group("translate(146,140) rotate(25) scale(0.95)"):
        S.butterfly(s, GOLD, RED, INK)


def card_22(s: Svg, rng: Random) -> None:
    base(s)
    P.peony_leaf(s, (100, 330), 110, -120, PINE)
    P.peony_leaf(s, (100, 330), 110, -60, INK)
    P.peony(s, (96, 220), 52, rng)
    P.peony(s, (40, 90), 34, rng)
    P.peony_leaf(s, (-5, 110), 60, -30, LEAF)
    S.ribbon(s, (124, 150), 12, 190, 34, col=INDIGO, edge=INK)


def card_23(s: Svg, rng: Random) -> None:
    base(s)
    P.peony_leaf(s, (40, 330), 110, -70, PINE)
    P.peony_leaf(s, (180, 300), 100, -120, INK)
    P.peony_leaf(s, (120, 120), 70, -40, LEAF)
    P.peony(s, (70, 180), 58, rng)
    P.peony(s, (150, 80), 40, rng)


def card_24(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(262, 8, rng, n=4), RED)
    P.peony_leaf(s, (100, 330), 120, -90, INK)
    P.peony_leaf(s, (20, 250), 80, -50, PINE)
    P.peony_leaf(s, (190, 240), 80, -140, LEAF)
    P.peony(s, (110, 140), 62, rng)


# ------------------------------------------------------------------ July: bush clover


def card_25(s: Svg, rng: Random) -> None:
    base(s)
    P.clover_branch(s, (-8, 160), (40, 20), (140, 10), (200, 110), rng, density=9)
    P.clover_branch(s, (208, 60), (150, 30), (70, 60), (40, 150), rng, density=6, k=1.4)
    with place(s, 20, 186, 0.95):
        S.boar(s)
    ground(s, wavy(300, 3, rng), "#c9b27c")


def card_26(s: Svg, rng: Random) -> None:
    base(s)
    P.clover_branch(s, (-8, 300), (10, 100), (120, 10), (200, 80), rng, density=10)
    P.clover_branch(s, (208, 230), (170, 120), (100, 100), (60, 150), rng, density=6, k=1.5)
    S.ribbon(s, (110, 190), -12, 180, 34)


def card_27(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(276, 6, rng, n=4), RED)
    P.clover_branch(s, (-8, 300), (0, 100), (100, 10), (196, 70), rng, density=10, k=1.9)
    P.clover_branch(s, (-8, 210), (60, 110), (150, 130), (180, 250), rng, density=7, k=1.7)


def card_28(s: Svg, rng: Random) -> None:
    base(s)
    sky(s, wavy(96, 10, rng, n=4, phase=1), RED)
    P.clover_branch(
        s,
        (208, 330),
        (200, 150),
        (90, 90),
        (10, 170),
        rng,
        density=10,
        k=1.9,
        flower=RED,
        leaf_cols=(LEAF, INK, PINE),
    )
    P.clover_branch(s, (208, 236), (130, 200), (60, 230), (40, 310), rng, density=6)


# ------------------------------------------------------------------ August: susuki


def card_29(s: Svg, rng: Random) -> None:
    base(s, RED)
    s.circle((100, 126), 70, fill=PAPER)
    P.susuki_hill(s, 190, rng)


def card_30(s: Svg, rng: Random) -> None:
    base(s, RED)
    for x, y, k in ((40, 44, 1.2), (104, 82, 1.1), (56, 130, 1.0)):
        with place(s, x, y, k):
            S.goose(s)
    P.susuki_hill(s, 200, rng, peak_x=70)


def card_31(s: Svg, rng: Random) -> None:
    """Red sky over a broad double hill, tall plumes standing up from the crest."""
    base(s, RED)
    P.susuki_hill(s, 168, rng, peak_x=150, rows=7, plumes=4, hump=(30, 206, 70))


def card_32(s: Svg, rng: Random) -> None:
    """White sky: a single steep hill from the left, the red of the evening only a band at
    the top, and long grass blades arching across the sky."""
    base(s, PAPER)
    sky(s, wavy(40, 5, rng, n=4), RED)
    P.susuki_hill(s, 150, rng, peak_x=20, rows=7, plumes=2)
    for pts in (
        ((124, 322), (128, 220), (112, 160), (86, 146)),
        ((150, 322), (156, 200), (144, 120), (116, 100)),
        ((178, 322), (176, 230), (186, 170), (204, 158)),
    ):
        blade = S.catmull(list(pts), 8)
        s.path(tapered(blade, 6, 0.4, bulge=2, cap=False), fill=INK)


# ------------------------------------------------------------------ September: chrysanthemum


def chrys_plants(
    s: Svg, rng: Random, flowers: list[tuple[float, float, float, bool]], leaf_k: float = 1.0
) -> None:
    """Chrysanthemums on stems rising from the bottom edge, leaves along the stems;
    each flower is (x, y, radius, red?)."""
    for i, (x, y, r, _red) in enumerate(flowers):
        bx = x + (18 if x < 100 else -18)
        pts = [(bx, 322.0), (bx + (x - bx) * 0.2, y + (322 - y) * 0.6), (x, y + r * 0.5)]
        stem = S.catmull(pts, 8)
        P.branch(s, stem, 4.5, 2.5, DARKPINE)
        n = 3 if 322 - y > 150 else 2
        for j in range(n):
            t = 0.22 + 0.55 * j / max(1, n - 1)
            p = stem[int(t * (len(stem) - 1))]
            side = -1 if (i + j) % 2 else 1
            P.chrys_leaf(
                s,
                p,
                44 * leaf_k * (1.1 - t * 0.4),
                -90 + side * 62,
                rng,
                PINE if (i + j) % 2 else LEAF,
            )
    for x, y, r, red in flowers:
        if red:
            P.chrysanthemum(s, (x, y), r, rng, col=RED, dark=DEEPRED, heart=GOLD)
        else:
            P.chrysanthemum(s, (x, y), r, rng)


def card_33(s: Svg, rng: Random) -> None:
    base(s)
    chrys_plants(s, rng, [(50, 76, 40, False), (152, 66, 32, True), (112, 144, 26, False)], 0.9)
    with place(s, 36, 190, 1.0):
        S.sake_cup(s)


def card_34(s: Svg, rng: Random) -> None:
    base(s)
    chrys_plants(s, rng, [(150, 240, 40, False), (52, 70, 36, True), (40, 200, 28, False)])
    S.ribbon(s, (104, 160), -14, 190, 34, col=INDIGO, edge=INK)


def card_35(s: Svg, rng: Random) -> None:
    base(s)
    chrys_plants(
        s,
        rng,
        [(66, 96, 50, False), (148, 176, 40, False), (90, 250, 30, True), (160, 60, 28, True)],
    )


def card_36(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(276, 8, rng, n=4), INDIGO)
    chrys_plants(s, rng, [(130, 86, 52, True), (58, 190, 42, False)], 1.1)


# ------------------------------------------------------------------ October: maple


def maple_tree(
    s: Svg, rng: Random, pts: list[Point], leaves: list[tuple[float, float, float]], w: float = 10
) -> None:
    """An ink maple branch along ``pts`` with big leaves (x, y, radius) on short twigs;
    mostly vermilion, a few deep red and one ochre, as autumn maple is printed."""
    P.branch(s, pts, w, w * 0.3)
    along = S.catmull(pts, 6)
    for x, y, _r in leaves:
        near = min(along, key=lambda p: (p[0] - x) ** 2 + (p[1] - y) ** 2)
        P.branch(s, [near, ((near[0] + x) / 2, (near[1] + y) / 2 - 4), (x, y)], 3.4, 1.6)
    cols = [RED, RED, DEEPRED, RED, OCHRE, RED, DEEPRED]
    for i, (x, y, r) in enumerate(leaves):
        col = cols[(i + rng.randrange(2)) % len(cols)]
        P.maple_leaf(
            s, (x, y), r, -90 + rng.uniform(-40, 40), col, DEEPRED if col != DEEPRED else INK
        )


def card_37(s: Svg, rng: Random) -> None:
    base(s)
    maple_tree(
        s,
        rng,
        [(-8, 110), (60, 70), (130, 56), (208, 20)],
        [(38, 46, 36), (108, 38, 38), (170, 66, 34), (76, 112, 30), (176, 134, 30)],
    )
    with place(s, 20, 140, 1.05):
        S.deer(s)


def card_38(s: Svg, rng: Random) -> None:
    base(s)
    maple_tree(
        s,
        rng,
        [(-8, 60), (70, 90), (140, 70), (208, 110)],
        [(38, 44, 38), (116, 40, 36), (174, 70, 32)],
        8,
    )
    maple_tree(
        s,
        rng,
        [(208, 300), (140, 250), (80, 270), (-8, 230)],
        [(40, 198, 34), (162, 212, 36), (62, 280, 32), (144, 286, 32)],
        8,
    )
    S.ribbon(s, (100, 164), 12, 180, 34, col=INDIGO, edge=INK)


def card_39(s: Svg, rng: Random) -> None:
    base(s)
    S.waves(s, 268, 320, rng, rows=2)
    maple_tree(
        s,
        rng,
        [(-8, 290), (60, 220), (100, 140), (170, 80), (208, 70)],
        [(46, 56, 44), (134, 44, 44), (58, 154, 40), (160, 152, 42), (124, 230, 38)],
        13,
    )


def card_40(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(250, 10, rng, n=4), RED)
    maple_tree(
        s,
        rng,
        [(208, 200), (140, 150), (70, 90), (-8, 70)],
        [(42, 44, 44), (130, 46, 42), (60, 156, 40), (166, 120, 36), (136, 214, 40)],
        11,
    )


# ------------------------------------------------------------------ November: willow


def willows(
    s: Svg,
    rng: Random,
    tops: list[tuple[float, float, float, float]],
    col: str = LEAF,
    stem: str = INK,
) -> None:
    for x, y, ln, sway in tops:
        P.willow_strand(
            s,
            (x, y),
            ln,
            sway,
            rng,
            col=col,
            stem=stem,
            leaves=max(5, int(ln / 11)),
            col2=PINE if col == LEAF else None,
        )


def card_41(s: Svg, rng: Random) -> None:
    base(s, STORM)
    for _ in range(30):
        x = rng.uniform(0, 210)
        y = rng.uniform(10, 250)
        s.line([(x, y), (x - 7, y + 24)], SKY, 1.3, op=0.8)
    S.waves(s, 262, 320, rng, water=INDIGO, crest=SKY, rows=2)
    P.branch(s, [(-8, 28), (30, 20), (70, 8)], 8, 3, "#4a3a2a")
    willows(
        s,
        rng,
        [(8, 24, 140, 6), (24, 20, 226, 10), (42, 16, 110, -4), (60, 12, 80, 4)],
        col="#b5c43a",
        stem="#8a9a2a",
    )
    with place(s, 54, 82, 0.9):
        S.rain_man(s)
    with place(s, 76, 222, 0.95, flip=True):
        S.frog(s)


def card_42(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(270, 8, rng, n=4), INDIGO)
    sky(s, wavy(44, 6, rng, n=4), INK)
    P.branch(s, [(-8, 40), (60, 30), (130, 40), (208, 28)], 8, 5)
    willows(
        s,
        rng,
        [
            (14, 36, 200, 10),
            (40, 34, 150, -10),
            (150, 38, 236, -6),
            (176, 34, 170, 8),
            (120, 38, 110, 4),
            (70, 32, 96, 6),
            (190, 32, 110, -4),
        ],
    )
    with s.group("translate(30,150) rotate(-30) scale(1.15)"):
        S.swallow(s)


def card_43(s: Svg, rng: Random) -> None:
    base(s)
    P.branch(s, [(-8, 20), (100, 12), (208, 26)], 9, 5)
    S.waves(s, 276, 320, rng, rows=2)
    willows(
        s,
        rng,
        [
            (14, 18, 250, 10),
            (34, 16, 190, -6),
            (56, 14, 230, 8),
            (78, 14, 150, -4),
            (124, 14, 170, 6),
            (146, 14, 240, -8),
            (168, 18, 210, 6),
            (188, 22, 150, -4),
        ],
    )
    S.ribbon(s, (100, 186), -8, 180, 34)


def card_44(s: Svg, rng: Random) -> None:
    base(s, RED)
    # storm clouds: jagged black bands from the top
    for k, (y, amp) in enumerate(((70, 16), (150, 22), (224, 18))):
        pts: list[Point] = [(-5, y)]
        x = -5.0
        i = 0
        while x < 205:
            x += rng.uniform(14, 22)
            pts.append((x, y + (amp if i % 2 else -amp) + rng.uniform(-4, 4)))
            i += 1
        band = [(px, py) for px, py in pts] + [(px, py + 18 + k * 4) for px, py in reversed(pts)]
        s.poly(band, fill=INK)
    S.drum(s, (64, 116), 34)
    S.drum(s, (150, 196), 26)
    S.lightning_bolt(s, [(150, 20), (120, 90), (146, 100), (100, 190), (120, 196), (70, 300)], 5)
    willows(s, rng, [(160, 6, 70, -6), (180, 6, 90, 6), (20, 6, 60, 4)], col=LEAF)


# ------------------------------------------------------------------ December: paulownia


def kiri(
    s: Svg,
    rng: Random,
    crest: tuple[float, float, float],
    leaves: list[tuple[float, float, float, float, str]],
    *,
    leaves_first: bool = False,
    bells: tuple[int, int, int] = (5, 7, 5),
    stalk: float = 1.0,
) -> None:
    """Paulownia: a flower crest (base x, y, blossom length) rising from behind big leaves
    (base x, y, size, angle, colour)."""

    def draw_leaves() -> None:
        for x, y, r, a, col in leaves:
            P.kiri_leaf(s, (x, y), r, a, col, vein=LEAF if col in (DARKPINE, PINE) else PINE)

    if leaves_first:
        draw_leaves()
    P.kiri_crest(s, crest[:2], crest[2], rng, bells=bells, stalk=stalk)
    if not leaves_first:
        draw_leaves()


def card_45(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(150, 8, rng, n=4, phase=1.2), RED)
    kiri(
        s,
        rng,
        (100, 100, 24),
        [(-10, 4, 66, 50, DARKPINE), (210, 4, 66, 130, LEAF)],
        leaves_first=True,
        bells=(3, 5, 3),
        stalk=0.6,
    )
    with place(s, 6, 94, 1.0):
        S.phoenix(s)


def card_46(s: Svg, rng: Random) -> None:
    base(s)
    kiri(
        s,
        rng,
        (100, 214, 30),
        [(26, 326, 76, -62, LEAF), (174, 326, 76, -118, PINE), (100, 340, 86, -90, DARKPINE)],
    )


def card_47(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(214, 10, rng, n=4), RED)
    kiri(s, rng, (100, 222, 28), [(52, 340, 70, -76, PINE), (148, 340, 70, -104, LEAF)])


def card_48(s: Svg, rng: Random) -> None:
    base(s)
    ground(s, wavy(248, 6, rng, n=4), OCHRE)
    kiri(
        s,
        rng,
        (100, 212, 30),
        [(30, 326, 62, -48, DARKPINE), (170, 326, 62, -132, DARKPINE), (100, 346, 82, -90, LEAF)],
    )


# ------------------------------------------------------------------ the back


def draw_back() -> str:
    s = Svg(W, H)
    base(s, DEEPRED)
    # a lattice of small diamonds (hishi) in a slightly darker red
    for row in range(-1, 24):
        for col in range(-1, 12):
            x = col * 20 + (10 if row % 2 else 0)
            y = row * 14
            if 10 < x < 190 and 10 < y < 310:
                s.path(poly_d([(x, y - 5), (x + 7, y), (x, y + 5), (x - 7, y)]), fill="#7a160f")
    s.path(rounded_rect_d(14, 14, W - 28, H - 28, 6), stroke=GOLD, sw=1.6)
    s.path(rounded_rect_d(19, 19, W - 38, H - 38, 4), stroke=GOLD, sw=0.8)
    c = (100, 160)
    s.circle(c, 40, fill=INK)
    s.circle(c, 36, fill=GOLD)
    s.circle(c, 32, fill=DEEPRED)
    for i in range(8):
        a = i * 45
        s.path(leaf_d(c, 28, 7, a), fill=GOLD if i % 2 else RED)
    s.circle(c, 8, fill=GOLD)
    s.circle(c, 4, fill=DEEPRED)
    for cx, cy in ((28, 28), (172, 28), (28, 292), (172, 292)):
        s.path(poly_d([(cx, cy - 7), (cx + 7, cy), (cx, cy + 7), (cx - 7, cy)]), fill=GOLD)
    frame(s)
    return s.text()


CARDS: dict[int, Callable[[Svg, Random], None]] = {i: globals()[f"card_{i}"] for i in range(1, 49)}


def draw_card(card_id: int) -> str:
    s = Svg(W, H)
    CARDS[card_id](s, Random(card_id * 7919))
    frame(s)
    return s.text()


def main(argv: list[str] | None = None) -> int:
    """Write every card, the back and the badges; ``--out DIR`` writes under DIR instead of
    ``assets/`` (the reproducibility test uses it); card ids as arguments redraw only those."""
    args = list(sys.argv[1:] if argv is None else argv)
    root = ROOT
    if "--out" in args:
        i = args.index("--out")
        root = Path(args[i + 1])
        del args[i : i + 2]
    only = {int(a) for a in args if a.isdigit()}
    cards_dir = root / "cards"
    badges_dir = root / "ui" / "badges"
    cards_dir.mkdir(parents=True, exist_ok=True)
    badges_dir.mkdir(parents=True, exist_ok=True)
    for cid in range(1, 49):
        if only and cid not in only:
            continue
        (cards_dir / file_name(cid)).write_text(draw_card(cid), encoding="utf-8", newline="\n")
    if not only:
        (cards_dir / "back.svg").write_text(draw_back(), encoding="utf-8", newline="\n")
        for name, text in badge_svgs().items():
            (badges_dir / name).write_text(text, encoding="utf-8", newline="\n")
    return 0


# silence "imported but unused" for palette names kept for quick edits
_ = (DARKPINE, GOLD, LILAC, VIOLET, PINK)

if __name__ == "__main__":
    raise SystemExit(main())
