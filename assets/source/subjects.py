"""Drawing helpers for the subjects of the deck: birds, beasts, objects, ribbons and lettering.

Each subject is drawn in its own local coordinates and placed with a group transform
(``translate(x,y) scale(k)``), so a composition can size and mirror it freely.
"""

from __future__ import annotations

import math
from random import Random

from svgkit import (
    DARKPINE,
    DEEPRED,
    GOLD,
    INDIGO,
    INK,
    LEAF,
    LILAC,
    OCHRE,
    OLIVE,
    PAPER,
    PINE,
    PINK,
    RED,
    SKY,
    VIOLET,
    WHITE,
    Point,
    Svg,
    below_d,
    cubic,
    leaf_d,
    polar,
    pt,
    smooth_closed,
    star_d,
    tapered,
)


def catmull(points: list[Point], per: int = 6) -> list[Point]:
    """A dense smooth polyline through ``points`` (for brush strokes)."""
    out: list[Point] = []
    n = len(points)
    for i in range(n - 1):
        p0 = points[max(i - 1, 0)]
        p1, p2 = points[i], points[i + 1]
        p3 = points[min(i + 2, n - 1)]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        seg = cubic(p1, c1, c2, p2, per)
        out += seg if i == 0 else seg[1:]
    return out


def stroke(s: Svg, points: list[Point], w0: float, w1: float, col: str, bulge: float = 0.0) -> None:
    s.path(tapered(catmull(points), w0, w1, bulge=bulge), fill=col)


# ------------------------------------------------------------------ lettering

# Brush strokes of the kana and kanji on the cards, each in a box of -1..1.  Drawn by us as
# plain stroke skeletons; the brush look comes from the tapered outline.
GLYPHS: dict[str, list[list[Point]]] = {
    "a": [
        [(-0.65, -0.5), (0.0, -0.56), (0.55, -0.64)],
        [(-0.08, -0.95), (-0.1, -0.2), (0.0, 0.4), (0.12, 0.85)],
        [
            (0.42, -0.22),
            (0.0, 0.35),
            (-0.5, 0.72),
            (-0.72, 0.3),
            (-0.1, -0.08),
            (0.55, 0.05),
            (0.75, 0.45),
            (0.3, 0.86),
        ],
    ],
    "ka": [
        [(-0.82, -0.32), (0.2, -0.46), (0.5, -0.4), (0.45, 0.2), (0.3, 0.68), (0.08, 0.5)],
        [(-0.05, -0.95), (-0.3, 0.0), (-0.62, 0.82)],
        [(0.66, -0.62), (0.86, -0.18)],
    ],
    "yo": [
        [
            (0.0, -0.92),
            (0.02, 0.1),
            (0.0, 0.58),
            (-0.5, 0.86),
            (-0.66, 0.5),
            (-0.1, 0.36),
            (0.62, 0.8),
        ],
        [(0.04, -0.22), (0.66, -0.3)],
    ],
    "ro": [
        [
            (-0.55, -0.72),
            (0.45, -0.8),
            (-0.55, 0.02),
            (0.3, -0.18),
            (0.7, 0.3),
            (0.35, 0.78),
            (-0.3, 0.86),
        ]
    ],
    "shi": [[(-0.3, -0.92), (-0.35, 0.1), (-0.2, 0.72), (0.2, 0.8), (0.62, 0.3)]],
    "mi": [
        [
            (-0.62, -0.74),
            (0.25, -0.82),
            (-0.3, 0.2),
            (-0.62, 0.55),
            (-0.56, 0.05),
            (0.25, 0.1),
            (0.82, 0.52),
        ],
        [(0.58, -0.24), (0.42, 0.4), (0.2, 0.92)],
    ],
    "no": [
        [
            (0.12, -0.62),
            (-0.1, 0.2),
            (-0.5, 0.7),
            (-0.82, 0.2),
            (-0.45, -0.55),
            (0.3, -0.72),
            (0.82, -0.12),
            (0.6, 0.5),
            (0.2, 0.8),
        ]
    ],
    # 寿 (kotobuki), the inscription of the sake cup
    "kotobuki": [
        [(-0.45, -0.8), (0.45, -0.84)],
        [(-0.62, -0.56), (0.62, -0.6)],
        [(-0.42, -0.32), (0.42, -0.35)],
        [(0.0, -0.98), (0.0, -0.2)],
        [(-0.85, -0.05), (0.0, -0.08), (0.86, -0.1)],
        [(-0.05, -0.16), (-0.28, 0.38), (-0.7, 0.9)],
        [(-0.25, 0.28), (0.3, 0.24), (0.72, 0.22)],
        [(0.42, 0.02), (0.45, 0.6), (0.38, 0.95), (0.16, 0.8)],
        [(0.0, 0.5), (0.12, 0.66)],
    ],
}


def glyph(s: Svg, name: str, c: Point, size: float, col: str, w: float) -> None:
    for strk in GLYPHS[name]:
        pts = [(c[0] + x * size, c[1] + y * size) for x, y in strk]
        if len(pts) == 2:
            mid = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
            pts = [pts[0], mid, pts[1]]
        stroke(s, pts, w * 1.05, w * 0.45, col, bulge=w * 0.35)


def ribbon(
    s: Svg,
    c: Point,
    ang: float,
    length: float,
    width: float,
    *,
    col: str = RED,
    edge: str = DEEPRED,
    inscription: tuple[str, ...] = (),
    ink: str = INK,
    wave: float = 4.0,
) -> None:
    """A tanzaku ribbon hanging through the plant, rotated ``ang`` degrees from vertical.

    Poetry ribbons carry brush lettering drawn as paths; blue ribbons are indigo with a pale
    edge; plain red ribbons carry nothing.
    """
    h = length / 2
    w = width / 2
    left = cubic((-w, -h), (-w + wave, -h * 0.3), (-w - wave, h * 0.3), (-w + 1, h), 10)
    right = cubic((w, -h - 3), (w + wave, -h * 0.3), (w - wave, h * 0.3), (w + 1, h + 4), 10)
    d = "M" + " L".join(pt(p) for p in left) + " L" + " L".join(pt(p) for p in reversed(right))
    with s.group(f"translate({pt(c)}) rotate({ang:.1f})"):
        s.path(d + "Z", fill=edge)
        inner_l = [(x + 2.6, y + (3 if i == 0 else 0)) for i, (x, y) in enumerate(left)]
        inner_r = [(x - 2.6, y) for x, y in right]
        d2 = (
            "M"
            + " L".join(pt(p) for p in inner_l[:-1])
            + " L"
            + " L".join(pt(p) for p in list(reversed(inner_r))[1:])
        )
        s.path(d2 + "Z", fill=col)
        # the knot and fold at the top
        s.path(
            f"M{pt((-w - 2, -h + 2))} L{pt((w + 3, -h - 6))} L{pt((w + 4, -h + 8))} "
            f"L{pt((-w - 1, -h + 14))}Z",
            fill=edge,
        )
        s.path(
            f"M{pt((-w + 1, -h + 12))} L{pt((w + 1, -h + 4))} L{pt((w - 1, -h + 10))}Z",
            fill=col,
            op=0.9,
        )
        if inscription:
            n = len(inscription)
            step = min(width * 0.95, (length - 40) / n)
            y0 = -h + 28 + step / 2
            for i, g in enumerate(inscription):
                wob = math.sin(i * 1.7) * 1.5
                glyph(s, g, (wob, y0 + i * step), step * 0.4, ink, width * 0.1)


# ------------------------------------------------------------------ birds


def crane(s: Svg) -> None:
    """A red-crowned crane standing, facing left; local box about 130 x 190, feet at y 185."""
    # legs
    stroke(s, [(64, 118), (60, 150), (56, 184)], 3.2, 2.4, INK)
    stroke(s, [(76, 116), (80, 148), (84, 180)], 3.2, 2.4, INK)
    for fx, fy in ((56, 184), (84, 180)):
        for da in (-160, -20, -100):
            s.line([(fx, fy), polar((fx, fy), 9, da + 90 + 90)], INK, 2)
    # black tail plumes behind
    for i, (tx, ty) in enumerate(((128, 128), (124, 140), (114, 146), (132, 114))):
        stroke(s, [(96, 102 + i * 2), ((96 + tx) / 2, (102 + ty) / 2 + 4), (tx, ty)], 12, 2, INK)
    # body
    body = [(40, 82), (62, 70), (98, 78), (122, 100), (112, 118), (80, 124), (52, 112), (38, 96)]
    s.path(smooth_closed(body), fill=WHITE)
    # folded wing feather lines
    for i in range(4):
        y = 86 + i * 7
        stroke(s, [(58 + i * 3, y), (84, y + 4), (112 - i * 2, y + 14)], 1.8, 0.4, INK)
    s.path(smooth_closed([(86, 92), (112, 100), (122, 110), (104, 116)]), fill=INK)
    # neck, head, crown, beak
    stroke(s, [(46, 90), (32, 66), (36, 40), (30, 18)], 12, 7, INK)
    stroke(s, [(48, 92), (34, 70), (38, 48)], 5, 2, WHITE)
    s.ellipse((28, 14), 10, 8, fill=INK)
    s.ellipse((31, 17), 6, 4, fill=WHITE)
    s.circle((27, 6), 5.2, fill=RED)
    s.path("M20,12 L-10,-2 L21,18Z", fill=OCHRE)
    s.circle((25, 13), 1.6, fill=PAPER)


def warbler(s: Svg) -> None:
    """A bush warbler perched, facing left; box about 70 x 50, feet at (36, 44)."""
    for i in range(3):
        stroke(s, [(52, 30), (66, 38 + i * 3), (78, 46 + i * 4)], 6, 2, "#5c5a1c")
    s.path(
        smooth_closed([(10, 22), (22, 10), (42, 12), (58, 26), (50, 40), (28, 42), (14, 34)]),
        fill=OLIVE,
    )
    s.path(smooth_closed([(16, 30), (30, 38), (46, 36), (30, 44), (18, 40)]), fill="#c7c07a")
    s.path(smooth_closed([(30, 18), (48, 18), (60, 30), (46, 34), (34, 28)]), fill="#5c5a1c")
    s.circle((16, 16), 10, fill=OLIVE)
    s.path("M7,14 L-4,18 L8,20Z", fill=INK)
    s.circle((13, 14), 3.2, fill=PAPER)
    s.circle((12.5, 14), 1.8, fill=INK)
    for fx in (30, 40):
        s.line([(fx, 40), (fx - 2, 47)], INK, 1.6)


def cuckoo(s: Svg) -> None:
    """A cuckoo (hototogisu) flying up to the left with both wings raised in a V: a plump
    body, a barred white breast, a long rounded tail spotted white and a gold eye-ring; box
    about 120 x 100 (wing tips near y -40)."""
    # long graduated tail with white spots
    s.path(
        smooth_closed([(56, 30), (86, 30), (118, 36), (120, 44), (88, 46), (58, 42)], 0.7), fill=INK
    )
    for x, y in ((80, 33), (96, 36), (110, 39), (84, 44), (102, 45)):
        s.circle((x, y), 1.8, fill=PAPER)
    # far wing, raised and swept back
    s.path("M40,28 C50,8 62,-16 80,-36 C78,-10 70,12 58,32Z", fill="#3b3a44")
    # body and barred breast
    s.path(smooth_closed([(8, 28), (22, 18), (46, 20), (66, 32), (52, 46), (24, 46)]), fill=INK)
    s.path(smooth_closed([(16, 36), (36, 38), (58, 40), (44, 50), (22, 48)]), fill=PAPER)
    for k in range(5):
        x = 22 + k * 7
        s.line([(x, 39), (x - 2, 48)], INK, 1.4)
    # near wing, raised forward, with pale feather lines
    s.path("M26,28 C18,6 14,-16 20,-40 C34,-18 44,4 46,26Z", fill=INK)
    for k in range(3):
        s.line([(28 + k * 4, 22), (22 + k * 4, -14 + k * 6)], "#5a5866", 1.2)
    # head with a gold eye-ring, short beak, yellow feet
    s.circle((12, 24), 9.5, fill=INK)
    s.path("M4,21 L-8,25 L4,28Z", fill=OCHRE)
    s.circle((11, 21), 3.4, fill=GOLD)
    s.circle((10.6, 21), 1.6, fill=INK)
    for x in (34, 40):
        s.line([(x, 48), (x + 4, 54)], GOLD, 2)


def swallow(s: Svg) -> None:
    """A swallow darting down to the left; box about 120 x 90."""
    s.path("M40,40 C56,18 84,2 116,-6 C98,14 76,34 58,46Z", fill=INK)
    s.path("M46,50 C60,64 78,84 108,98 C86,70 70,54 58,44Z", fill="#2a2c40")
    stroke(s, [(62, 44), (90, 52), (122, 48)], 7, 0.8, INK)
    stroke(s, [(62, 46), (86, 60), (112, 72)], 7, 0.8, INK)
    s.path(smooth_closed([(8, 36), (24, 28), (50, 34), (68, 44), (48, 52), (22, 48)]), fill=INK)
    s.path(smooth_closed([(14, 44), (30, 46), (52, 48), (34, 54), (18, 52)]), fill=PAPER)
    s.circle((14, 36), 9, fill=INK)
    s.ellipse((10, 43), 6, 4, fill=RED)
    s.path("M6,34 L-4,38 L7,39Z", fill=INK)
    s.circle((12, 33), 1.6, fill=PAPER)


def goose(s: Svg) -> None:
    """A wild goose flying left: long outstretched neck, heavy body, one wing raised and one
    on the downstroke; box about 70 x 50."""
    s.path("M30,20 C36,4 46,-8 62,-16 C58,0 50,14 42,22Z", fill="#3a3230")
    s.path(smooth_closed([(16, 20), (30, 15), (50, 18), (62, 22), (50, 28), (28, 28)]), fill=INK)
    s.path(tapered([(18, 21), (9, 18), (0, 16)], 6, 3.6, cap=False), fill=INK)
    s.circle((0, 15.5), 4, fill=INK)
    s.path("M-3,14 L-12,16.5 L-3,18Z", fill=INK)
    s.circle((0.5, 14.5), 1.1, fill=PAPER)
    s.path("M26,24 C34,34 40,44 52,52 C50,40 44,30 40,24Z", fill=INK)
    s.path("M30,26 L48,27", stroke="#6b5f58", sw=1.2)


def phoenix(s: Svg) -> None:
    """The phoenix (hō-ō) rising, facing left: a crested head, a raised fan of wing feathers
    banded in the deck's colours and long curling tail plumes with eye spots; box about
    190 x 230, body near (90, 120)."""
    tails: tuple[tuple[str, list[Point]], ...] = (
        (VIOLET, [(100, 128), (120, 170), (104, 210), (80, 226)]),
        (INDIGO, [(104, 126), (138, 160), (150, 200), (136, 226)]),
        (LEAF, [(106, 122), (150, 140), (180, 170), (186, 204)]),
        (RED, [(96, 130), (92, 176), (60, 200), (40, 198)]),
    )
    for col, pts in tails:
        stroke(s, pts, 14, 6, col, bulge=6)
        stroke(s, pts[:3], 4, 1, GOLD)
        e = pts[-1]
        s.circle(e, 9, fill=GOLD)
        s.circle(e, 5, fill=col)
        s.circle(e, 2.2, fill=INK)
    # the raised wing: three bands of feathers fanning up and back
    hub = (96, 112)
    for band, (ln, wd, cols) in enumerate(
        ((96, 9, (INDIGO, LEAF)), (74, 9.5, (GOLD, GOLD)), (48, 10, (RED, DEEPRED)))
    ):
        n = 8 - band
        for i in range(n):
            a = -118 + i * (86 / (n - 1))
            s.path(leaf_d(hub, ln - abs(i - n / 2) * 3, wd, a), fill=cols[i % 2])
            if band == 0:
                tip = polar(hub, (ln - abs(i - n / 2) * 3) * 0.8, a)
                s.circle(tip, 2.6, fill=GOLD)
    # body and scaled breast
    s.path(
        smooth_closed([(70, 104), (92, 96), (116, 110), (118, 134), (98, 146), (76, 132)]),
        fill=GOLD,
    )
    for i in range(3):
        for j in range(3):
            x, y = 80 + j * 11 + i * 3, 112 + i * 9
            s.path(f"M{x},{y} q5,6 10,0", stroke=RED, sw=1.8)
    # neck and head
    s.path("M72,112 C54,96 50,70 58,50 L74,54 C68,72 72,90 86,104Z", fill=RED)
    for i in range(4):
        s.path(f"M{60 + i * 2},{62 + i * 10} q6,5 11,0", stroke=GOLD, sw=1.6)
    s.path(smooth_closed([(48, 40), (62, 32), (76, 42), (72, 56), (54, 56)]), fill=RED)
    s.path("M50,42 L30,50 L50,52Z", fill=GOLD)
    s.path("M54,54 C50,62 52,70 58,72 C60,64 60,58 58,54Z", fill=GOLD)
    s.circle((60, 42), 4, fill=PAPER)
    s.circle((59.5, 42), 2, fill=INK)
    for i, (dx, dy) in enumerate(((26, -22), (34, -12), (38, 0))):
        end = (66 + dx, 36 + dy)
        stroke(
            s,
            [(66, 38), ((66 + end[0]) / 2, (36 + end[1]) / 2 - 4), end],
            3.6,
            1.2,
            (INDIGO, LEAF, INDIGO)[i],
        )
        s.circle(end, 3.2, fill=GOLD)


# ------------------------------------------------------------------ beasts and creatures


def boar(s: Svg) -> None:
    """A boar charging to the left; box about 170 x 110, feet near y 105."""
    dark = "#4d2d1a"
    legs = (
        ((40, 70), (24, 92), (10, 100)),
        ((58, 72), (62, 94), (52, 106)),
        ((122, 66), (140, 86), (150, 102)),
        ((134, 64), (158, 78), (172, 84)),
    )
    for pts in legs:
        stroke(s, list(pts), 12, 5, INK)
    body = [
        (4, 44),
        (18, 26),
        (44, 10),
        (80, 4),
        (120, 12),
        (150, 26),
        (164, 44),
        (150, 64),
        (112, 76),
        (64, 78),
        (30, 70),
        (12, 60),
    ]
    s.path(smooth_closed(body), fill=dark)
    s.path(smooth_closed([(40, 60), (80, 66), (120, 62), (100, 74), (60, 76)]), fill=BROWN2)
    # bristling mane along the back
    for i in range(11):
        x = 30 + i * 10
        y = 12 - math.sin(i / 10 * math.pi) * 8 + 4
        stroke(s, [(x, y + 6), (x + 4, y - 6)], 3, 0.5, INK)
    # head and snout
    s.path(smooth_closed([(-12, 48), (-4, 30), (18, 24), (34, 40), (24, 58), (2, 58)]), fill=dark)
    s.ellipse((-12, 50), 5, 7, fill="#c98a6a")
    s.path("M-2,52 C-6,44 -4,40 0,38 C0,44 2,48 2,52Z", fill=PAPER)
    s.path("M18,26 L26,12 L30,30Z", fill=INK)
    s.circle((8, 38), 3.4, fill=PAPER)
    s.circle((7.5, 38), 1.8, fill=INK)
    stroke(s, [(162, 40), (172, 34), (176, 42)], 3, 1, INK)


BROWN2 = "#8a5a34"


def deer(s: Svg) -> None:
    """A stag standing to the right with its head turned back; box about 150 x 170."""
    coat = "#b3692c"
    for pts in (
        ((46, 110), (42, 140), (40, 168)),
        ((60, 112), (64, 140), (62, 166)),
        ((106, 108), (112, 138), (116, 166)),
        ((118, 104), (128, 134), (134, 160)),
    ):
        stroke(s, list(pts), 9, 4, coat)
        s.ellipse(pts[-1], 4, 2.5, fill=INK)
    body = [(30, 86), (60, 74), (110, 76), (138, 84), (140, 104), (112, 116), (60, 118), (34, 108)]
    s.path(smooth_closed(body), fill=coat)
    s.path(smooth_closed([(44, 106), (80, 112), (118, 108), (90, 118), (56, 118)]), fill=PAPER)
    for x, y in (
        (62, 86),
        (78, 84),
        (96, 88),
        (112, 90),
        (70, 98),
        (88, 100),
        (104, 100),
        (124, 96),
    ):
        s.circle((x, y), 2.6, fill=PAPER)
    stroke(s, [(138, 86), (146, 80), (148, 90)], 6, 3, PAPER)
    # neck turned back and head looking left-behind
    s.path("M36,92 C28,70 30,52 40,40 L56,46 C48,60 50,74 58,82Z", fill=coat)
    s.path(
        smooth_closed([(40, 34), (56, 30), (64, 42), (52, 50), (30, 52), (18, 48), (24, 40)]),
        fill=coat,
    )
    s.ellipse((18, 46), 4, 3.4, fill=INK)
    s.circle((40, 40), 2.6, fill=INK)
    s.path("M54,32 L70,22 L62,38Z", fill=coat)
    # antlers
    stroke(s, [(48, 32), (46, 14), (36, 0), (30, -14)], 3.4, 1.6, INK)
    stroke(s, [(46, 18), (58, 6), (62, -8)], 2.6, 1.2, INK)
    stroke(s, [(38, 2), (48, -6)], 2.2, 1, INK)
    stroke(s, [(52, 32), (58, 18), (70, 10)], 3, 1.4, INK)


def butterfly(s: Svg, wing: str, spot: str, edge: str) -> None:
    """A butterfly seen from above; centred on the origin, about 70 wide."""
    for side in (-1, 1):
        s.path(
            smooth_closed(
                [(0, -2), (side * 18, -26), (side * 38, -30), (side * 36, -8), (side * 14, 2)]
            ),
            fill=edge,
        )
        s.path(
            smooth_closed(
                [(0, -2), (side * 17, -22), (side * 32, -25), (side * 31, -9), (side * 13, 0)]
            ),
            fill=wing,
        )
        s.path(
            smooth_closed(
                [(0, 2), (side * 24, 6), (side * 28, 22), (side * 12, 26), (side * 4, 12)]
            ),
            fill=edge,
        )
        s.path(
            smooth_closed(
                [(0, 3), (side * 20, 7), (side * 23, 19), (side * 11, 22), (side * 4, 11)]
            ),
            fill=wing,
        )
        s.circle((side * 24, -17), 4, fill=spot)
        s.circle((side * 15, 14), 3, fill=spot)
        stroke(s, [(side * 1, -10), (side * 6, -24), (side * 12, -32)], 1.2, 0.6, INK)
        s.circle((side * 12, -32), 1.5, fill=INK)
    s.ellipse((0, 2), 3, 14, fill=INK)


def frog(s: Svg) -> None:
    """A frog leaping up and to the right; box about 50 x 40."""
    stroke(s, [(10, 28), (-4, 36), (-12, 30)], 5, 2.5, LEAF)
    stroke(s, [(14, 30), (4, 44), (-6, 46)], 5, 2.5, LEAF)
    s.path(smooth_closed([(6, 28), (18, 14), (34, 8), (44, 14), (36, 26), (18, 32)]), fill=LEAF)
    s.path(smooth_closed([(14, 26), (30, 20), (40, 20), (30, 28)]), fill="#c7c07a")
    stroke(s, [(36, 20), (46, 26), (52, 22)], 3.5, 2, LEAF)
    s.circle((38, 10), 4, fill=LEAF)
    s.circle((39, 9), 2, fill=GOLD)
    s.circle((39.4, 9), 1, fill=INK)
    for x, y in ((22, 18), (28, 14), (18, 24)):
        s.circle((x, y), 1.6, fill=DARKPINE)


def rain_man(s: Svg) -> None:
    """Ono no Michikaze, the court noble of the rain card, walking left under an umbrella held
    back over his shoulder: a tall black eboshi hat, a bearded face, a dark indigo court robe
    with wide sleeves lined red, white trousers and a red train; box about 150 x 230, feet at
    y 196, the umbrella's top near y -30."""
    robe, fold, trousers = INDIGO, "#17264a", "#ece3cc"
    # the red under-robe's train trailing behind on the ground
    s.path("M64,170 C90,176 120,184 146,194 L142,200 C110,198 84,196 60,194Z", fill=RED)
    # white trousers and black shoes
    s.path("M28,160 L20,192 L44,194 L48,166 L58,166 L62,194 L84,192 L76,158Z", fill=trousers)
    s.ellipse((30, 196), 12, 4, fill=INK)
    s.ellipse((74, 196), 12, 4, fill=INK)
    # the robe: broad stiff shoulders, flaring to the knees
    s.path(
        "M30,80 C20,84 14,98 12,120 L8,172 C40,178 70,178 96,170 C90,140 84,110 76,84 "
        "C66,76 42,76 30,80Z",
        fill=robe,
    )
    for x0, x1 in ((40, 34), (58, 60), (74, 84)):
        s.line([(x0, 110), (x1, 172)], fold, 2)
    s.rect(24, 118, 60, 6, fill=GOLD, rx=2)  # the belt
    # the near sleeve hanging wide, lined red at its opening
    s.path("M32,84 C14,92 2,116 -2,150 C8,160 30,162 44,156 C46,130 44,104 40,88Z", fill=robe)
    s.path("M-2,150 C8,160 30,162 44,156 L42,148 C30,154 12,152 0,142Z", fill=RED)
    s.line([(26, 100), (14, 146)], fold, 2)
    # the far arm raised to the umbrella handle
    s.path("M66,84 C78,88 90,100 92,114 L80,122 C72,112 64,102 58,94Z", fill=robe)
    s.path("M80,122 L92,114 L96,120 L84,128Z", fill=RED)
    # white collar, neck, face in profile, beard
    s.path("M34,80 L48,94 L62,80 L56,76 L48,86 L40,76Z", fill=PAPER)
    s.ellipse((48, 64), 10, 12, fill="#f1d6b8")
    s.path("M39,62 L34,67 L39,69Z", fill="#f1d6b8")
    s.path("M38,72 C40,82 48,84 54,76 C50,78 44,78 38,72Z", fill=INK)
    s.line([(37, 70), (44, 69)], INK, 1.6)
    s.line([(40, 60), (45, 60)], INK, 1.4)
    # the tall black eboshi hat
    s.path("M38,56 C36,40 42,22 60,8 C64,18 64,36 60,56 C52,52 44,52 38,56Z", fill=INK)
    s.path("M44,50 L60,48", stroke="#3a3330", sw=1.4)
    # the umbrella: a red oiled-paper canopy seen from below, gold ribs, black handle
    s.line([(88, 120), (104, -26)], INK, 3)
    s.path("M30,10 C40,-14 76,-34 104,-32 C130,-28 152,-2 160,30 C128,34 76,26 30,10Z", fill=RED)
    s.path("M30,10 C76,26 128,34 160,30 C130,22 80,14 46,4Z", fill=OCHRE)
    for x, y in ((46, 14), (76, 22), (106, 28), (136, 31)):
        s.line([(104, -32), (x, y)], GOLD, 1.5)
    s.circle((104, -32), 4, fill=INK)
    s.circle((88, 120), 4, fill="#f1d6b8")


def drum(s: Svg, c: Point, r: float) -> None:
    """A thunder drum with a three-comma (tomoe) face."""
    s.circle(c, r, fill=OCHRE)
    s.circle(c, r * 0.84, fill=DEEPRED)
    for i in range(10):
        s.circle(polar(c, r * 0.92, i * 36), r * 0.05, fill=INK)
    for i in range(3):
        a = i * 120
        head = polar(c, r * 0.35, a)
        tail_pts = [
            head,
            polar(c, r * 0.5, a + 50),
            polar(c, r * 0.55, a + 110),
            polar(c, r * 0.2, a + 150),
        ]
        s.circle(head, r * 0.22, fill=GOLD)
        stroke(s, tail_pts, r * 0.4, r * 0.05, GOLD)


# ------------------------------------------------------------------ objects


def sake_cup(s: Svg) -> None:
    """A red lacquer sake cup tilted towards us, 寿 in gold inside; box about 130 x 110."""
    s.path("M44,88 L86,88 L92,104 L38,104Z", fill=INK)
    s.ellipse((65, 104), 27, 6, fill=INK)
    s.ellipse((65, 88), 22, 5, fill=GOLD)
    s.path("M4,50 C10,84 40,96 65,96 C90,96 120,84 126,50Z", fill=DEEPRED)
    s.ellipse((65, 46), 62, 38, fill=GOLD)
    s.ellipse((65, 46), 58, 34.5, fill=RED)
    s.ellipse((65, 48), 46, 26, fill="#b02a18")
    glyph(s, "kotobuki", (65, 47), 22, GOLD, 4.2)


def crescent(s: Svg, c: Point, r: float, col: str = GOLD) -> None:
    """A crescent moon opening to the right, thickest (0.45 r) in the middle."""
    s.path(
        f"M{pt((c[0], c[1] - r))} A{r:.1f},{r:.1f} 0 0 0 {pt((c[0], c[1] + r))} "
        f"A{r * 0.55:.1f},{r:.1f} 0 0 1 {pt((c[0], c[1] - r))}Z",
        fill=col,
    )


def bridge(s: Svg, runs: list[tuple[Point, Point]], width: float = 20) -> None:
    """The eight-plank bridge (yatsuhashi): straight runs of boards set zigzag on posts."""
    for (x0, y0), (x1, y1) in runs:
        ang = math.degrees(math.atan2(y1 - y0, x1 - x0))
        ln = math.hypot(x1 - x0, y1 - y0)
        hw = width / 2
        with s.group(f"translate({x0:.1f},{y0:.1f}) rotate({ang:.1f})"):
            for px in range(12, int(ln) - 4, 30):
                s.rect(px, hw - 2, 6, 20, fill=INK)
                s.rect(px, hw + 14, 6, 3, fill=SKY)
            s.rect(0, -hw, ln, width, fill=BROWN2)
            s.rect(0, -hw, ln, width * 0.7, fill=OCHRE)
            for i in range(1, 4):
                y = -hw + i * width / 4
                s.line([(2, y), (ln - 2, y)], BROWN2, 1.0)
            s.rect(0, -hw, ln, width, stroke=INK, sw=1.8)
            for px in range(12, int(ln) - 4, 30):
                s.circle((px + 3, 0), 1.4, fill=INK)


def waves(
    s: Svg,
    y0: float,
    y1: float,
    rng: Random,
    *,
    water: str = INDIGO,
    crest: str = PAPER,
    rows: int = 3,
) -> None:
    """A band of stream water with rows of white wave crests; spans the card's width."""
    d = f"M-5,{y0:.1f} C50,{y0 - 8:.1f} 150,{y0 + 8:.1f} 205,{y0 - 2:.1f}"
    s.path(below_d(d, h=y1), fill=water)
    for r in range(rows):
        y = y0 + 12 + r * (y1 - y0 - 14) / rows
        x = rng.uniform(-10, 10)
        while x < 200:
            w = rng.uniform(16, 26)
            s.path(f"M{x:.1f},{y:.1f} q{w / 2:.1f},-{w / 3:.1f} {w:.1f},0", stroke=crest, sw=1.8)
            x += w + rng.uniform(4, 12)


def maku(s: Svg, y0: float, y1: float) -> None:
    """The hanami curtain: red and white panels hung on a rope, with cherry crests."""
    panels = 5
    pw = 200 / panels
    for i in range(panels):
        x = i * pw
        col = RED if i % 2 == 0 else PAPER
        sag = 6
        d = (
            f"M{x:.1f},{y0:.1f} Q{x + pw / 2:.1f},{y0 + sag * 2:.1f} {x + pw:.1f},{y0:.1f} "
            f"L{x + pw:.1f},{y1:.1f} L{x:.1f},{y1:.1f}Z"
        )
        if i == 0:
            d = (
                f"M0,{y0:.1f} Q{pw / 2:.1f},{y0 + sag * 2:.1f} {pw:.1f},{y0:.1f} "
                f"L{pw:.1f},{y1:.1f} L12,{y1:.1f} A12,12 0 0 1 0,{y1 - 12:.1f}Z"
            )
        if i == panels - 1:
            d = (
                f"M{x:.1f},{y0:.1f} Q{x + pw / 2:.1f},{y0 + sag * 2:.1f} 200,{y0:.1f} "
                f"L200,{y1 - 12:.1f} A12,12 0 0 1 188,{y1:.1f} L{x:.1f},{y1:.1f}Z"
            )
        s.path(d, fill=col)
        fold = DEEPRED if col == RED else "#d9cdb0"
        for k in (0.3, 0.7):
            s.line([(x + pw * k, y0 + 12), (x + pw * k + 2, y1 - 4)], fold, 1.3)
    s.path(
        f"M-5,{y0 - 4:.1f} Q50,{y0 + 8:.1f} 100,{y0 - 2:.1f} Q150,{y0 + 8:.1f} 205,{y0 - 4:.1f}",
        stroke=INK,
        sw=3.2,
    )
    for i in range(panels + 1):
        x = i * pw
        s.path(
            f"M{x - 4:.1f},{y0 - 4:.1f} L{x + 4:.1f},{y0 - 4:.1f} L{x + 2:.1f},{y0 + 10:.1f} "
            f"L{x - 2:.1f},{y0 + 10:.1f}Z",
            fill=INDIGO,
        )
    # the crests along the bottom band
    band = y1 - 44
    s.rect(0, band, 200, 16, fill=INDIGO)
    s.line([(0, band + 2), (200, band + 2)], PAPER, 1)
    s.line([(0, band + 14), (200, band + 14)], PAPER, 1)
    for cx in (50, 150):
        c = (cx, band + 8)
        s.circle(c, 19, fill=INK)
        s.circle(c, 16.5, fill=PAPER)
        petal = "M0,0 C-7,-3 -8,-12 -2.5,-14 L0,-11.5 L2.5,-14 C8,-12 7,-3 0,0Z"
        with s.group(f"translate({pt(c)})"):
            for i in range(5):
                with s.group(f"rotate({i * 72})"):
                    s.path(petal, fill=RED)
            s.circle((0, 0), 3.2, fill=GOLD)


def lightning_bolt(s: Svg, pts: list[Point], w: float, col: str = GOLD) -> None:
    left = [(x - w, y) for x, y in pts]
    right = [(x + w, y + w * 0.6) for x, y in reversed(pts)]
    s.poly(left + right, fill=col)


__all__ = [n for n in dir() if not n.startswith("_")] + [
    "DARKPINE",
    "LILAC",
    "PINE",
    "PINK",
    "VIOLET",
    "star_d",
    "LEAF",
]
