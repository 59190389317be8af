"""Drawing helpers for the twelve month plants (one or two functions per plant).

Every helper draws into an :class:`svgkit.Svg` in card coordinates (viewBox 0 0 200 320) and takes
a ``random.Random`` for the small irregularities of a hand-cut block, so the same seed always
draws the same card.
"""

from __future__ import annotations

import math
from random import Random

from svgkit import (
    BROWN,
    DARKPINE,
    DEEPRED,
    DEEPVIOLET,
    GOLD,
    INK,
    LEAF,
    LILAC,
    OCHRE,
    PALEPINK,
    PALEVIOLET,
    PAPER,
    PINE,
    PINK,
    RED,
    VIOLET,
    Point,
    Svg,
    below_d,
    blob_pts,
    cubic,
    leaf_d,
    polar,
    poly_d,
    pt,
    rot,
    smooth_closed,
    smooth_open,
    tapered,
)


def branch(s: Svg, pts: list[Point], w0: float, w1: float, col: str = INK) -> None:
    """A tapered ink branch along a polyline."""
    s.path(tapered(pts, w0, w1), fill=col)


def curve_branch(
    s: Svg, p0: Point, p1: Point, p2: Point, p3: Point, w0: float, w1: float, col: str = INK
) -> list[Point]:
    pts = cubic(p0, p1, p2, p3, 18)
    branch(s, pts, w0, w1, col)
    return pts


# ------------------------------------------------------------------ 1 pine


def pine_cluster(s: Svg, c: Point, r: float, ang: float, rng: Random) -> None:
    """A fan of pine needles opening towards ``ang`` (degrees, -90 = up)."""
    span = 170
    n = 14
    outer = [c]
    for i in range(n + 1):
        a = ang - span / 2 + span * i / n
        outer.append(polar(c, r * (1 + rng.uniform(-0.04, 0.06)), a))
    s.path(smooth_closed(outer, 0.5), fill=DARKPINE)
    inner = [c]
    for i in range(n + 1):
        a = ang - span / 2 + 8 + (span - 16) * i / n
        inner.append(polar(c, r * (0.86 + rng.uniform(-0.03, 0.03)), a))
    s.path(smooth_closed(inner, 0.5), fill=PINE)
    k = 19
    for i in range(k):
        a = ang - span / 2 + 10 + (span - 20) * i / (k - 1) + rng.uniform(-2, 2)
        p0 = polar(c, r * 0.22, a)
        p1 = polar(c, r * rng.uniform(0.8, 0.95), a)
        s.line([p0, p1], DARKPINE, r * 0.045)
    s.circle(c, r * 0.16, fill=INK)


def pine_bough(
    s: Svg,
    base: Point,
    tip: Point,
    bend: float,
    w: float,
    rng: Random,
    clusters: list[tuple[float, float, float]],
) -> None:
    """A bending ink bough from ``base`` to ``tip`` with needle fans.

    ``clusters`` holds (t along the bough, radius, opening angle) for each fan.
    """
    mx, my = (base[0] + tip[0]) / 2, (base[1] + tip[1]) / 2
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    ln = math.hypot(dx, dy) or 1
    nx, ny = -dy / ln, dx / ln
    c1 = (mx - dx * 0.2 + nx * bend, my - dy * 0.2 + ny * bend)
    c2 = (mx + dx * 0.2 + nx * bend * 0.6, my + dy * 0.2 + ny * bend * 0.6)
    pts = cubic(base, c1, c2, tip, 20)
    fans = []
    for t, r, a in clusters:
        p = pts[round(t * (len(pts) - 1))]
        c = polar(p, r * 0.35, a)
        branch(s, [p, lerp2(p, c, 0.5), c], w * 0.45, w * 0.3)
        fans.append((c, r, a))
    branch(s, pts, w, w * 0.35)
    # bark knots
    for t in (0.25, 0.55):
        p = pts[int(t * 20)]
        s.ellipse(p, w * 0.18, w * 0.1, fill=DEEPRED, op=0.8)
    for c, r, a in fans:
        pine_cluster(s, c, r, a, rng)


def lerp2(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


# ------------------------------------------------------------------ 2 plum


def plum_blossom(s: Svg, c: Point, r: float, rng: Random, col: str = RED) -> None:
    rot0 = rng.uniform(0, 72)
    for i in range(5):
        s.circle(polar(c, r * 0.52, rot0 + 72 * i), r * 0.5, fill=col)
    s.circle(c, r * 0.34, fill=PAPER)
    for i in range(6):
        s.circle(polar(c, r * 0.22, rot0 + 60 * i), r * 0.07, fill=DEEPRED)
    s.circle(c, r * 0.1, fill=OCHRE)


def plum_bud(s: Svg, c: Point, r: float, col: str = RED) -> None:
    s.circle(c, r, fill=col)
    s.path(
        f"M{pt((c[0] - r, c[1] + r * 0.2))} Q{pt((c[0], c[1] + r * 1.6))} "
        f"{pt((c[0] + r, c[1] + r * 0.2))}Z",
        fill=INK,
    )


def plum_branch(
    s: Svg,
    pts: list[Point],
    w0: float,
    rng: Random,
    *,
    blossoms: int = 4,
    r: float = 11,
    twigs: int = 3,
) -> list[Point]:
    """An angular plum branch (straight segments, sharp turns) with blossoms and buds."""
    branch(s, pts, w0, w0 * 0.25)
    spots: list[Point] = []
    for i in range(1, len(pts)):
        a, b = pts[i - 1], pts[i]
        seg_ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        if i <= twigs:
            side = -1 if i % 2 else 1
            start = lerp2(a, b, 0.5)
            tw_ang = seg_ang + side * rng.uniform(35, 55)
            tl = rng.uniform(18, 30)
            end = polar(start, tl, tw_ang)
            branch(s, [start, lerp2(start, end, 0.5), end], w0 * 0.3, 1.0)
            spots.append(end)
        spots.append(lerp2(a, b, rng.uniform(0.6, 0.9)))
        spots.append(lerp2(a, b, rng.uniform(0.2, 0.4)))
    spots.append(pts[-1])
    rng.shuffle(spots)
    for i, p in enumerate(spots):
        if i < blossoms:
            plum_blossom(s, p, r * rng.uniform(0.85, 1.1), rng)
        else:
            plum_bud(s, p, r * 0.3)
    return spots


# ------------------------------------------------------------------ 3 cherry


def cherry_flower(
    s: Svg, c: Point, r: float, rot0: float, fill: str = PAPER, heart: str = RED
) -> None:
    petal = (
        f"M0,0 C{-0.5 * r:.1f},{-0.25 * r:.1f} {-0.55 * r:.1f},{-0.95 * r:.1f} "
        f"{-0.16 * r:.1f},{-r:.1f} L0,{-0.82 * r:.1f} L{0.16 * r:.1f},{-r:.1f} "
        f"C{0.55 * r:.1f},{-0.95 * r:.1f} {0.5 * r:.1f},{-0.25 * r:.1f} 0,0Z"
    )
    with s.group(f"translate({pt(c)})"):
        for i in range(5):
            with s.group(f"rotate({rot0 + 72 * i:.1f})"):
                s.path(petal, fill=fill)
        s.circle((0, 0), r * 0.28, fill=heart)
        for i in range(5):
            s.line([(0, 0), polar((0, 0), r * 0.45, rot0 + 36 + 72 * i)], heart, r * 0.06)


def scallop_d(pts: list[Point], c: Point, bump: float) -> str:
    """A cloud outline: outward bumps between consecutive points round centre ``c``."""
    d = "M" + pt(pts[0])
    n = len(pts)
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        m = lerp2(a, b, 0.5)
        dx, dy = m[0] - c[0], m[1] - c[1]
        ln = math.hypot(dx, dy) or 1
        ctrl = (m[0] + dx / ln * bump, m[1] + dy / ln * bump)
        d += f" Q{pt(ctrl)} {pt(b)}"
    return d + "Z"


def cherry_cloud(
    s: Svg,
    c: Point,
    rx: float,
    ry: float,
    rng: Random,
    *,
    flowers: int = 9,
    base: str = PALEPINK,
    fr: float = 11,
) -> None:
    pts = blob_pts(c, rx, ry, 11, 0.12, rng)
    s.path(scallop_d(pts, c, min(rx, ry) * 0.28), fill=PINK)
    pts2 = blob_pts(c, rx * 0.86, ry * 0.82, 10, 0.1, rng)
    s.path(scallop_d(pts2, c, min(rx, ry) * 0.2), fill=base)
    placed: list[Point] = []
    tries = 0
    while len(placed) < flowers and tries < 400:
        tries += 1
        a = rng.uniform(0, 2 * math.pi)
        k = math.sqrt(rng.uniform(0, 1)) * 0.85
        p = (c[0] + math.cos(a) * rx * k, c[1] + math.sin(a) * ry * k)
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) > fr * 1.55 for q in placed):
            placed.append(p)
    for i, p in enumerate(placed):
        fill = PAPER if i % 3 else PINK
        heart = RED if i % 3 else DEEPRED
        cherry_flower(s, p, fr * rng.uniform(0.85, 1.1), rng.uniform(0, 72), fill, heart)


# ------------------------------------------------------------------ 4 wisteria


def wisteria_raceme(
    s: Svg, top: Point, length: float, width: float, rng: Random, sway: float = 0.0
) -> None:
    """A hanging flower cluster on a black stalk: a solid violet body, widest a little below
    the top and tapering to a point, covered in rows of florets set in chevrons that pale
    towards the buds at the tip (the body gives the cluster its mass at thumbnail size)."""
    n = 20
    start = (top[0], top[1] + 10)
    spine = [
        top,
        *cubic(
            start,
            (top[0] + sway * 0.3, top[1] + length * 0.3),
            (top[0] + sway, top[1] + length * 0.7),
            (top[0] + sway * 1.2, top[1] + length),
            n,
        ),
    ]
    s.line(spine[:3], INK, 2.4)
    s.path(tapered(spine[1:], width * 1.1, width * 0.15, bulge=width * 0.55), fill=VIOLET)
    rows = int(length / 6.2)
    for j in range(rows):
        t = j / rows
        p = spine[1 + min(int(t * n), n)]
        half = width * (1.1 - 0.95 * t + 0.55 * math.sin(math.pi * t)) * 0.42
        k = 3 if half > width * 0.36 else 2 if half > width * 0.16 else 1
        rr = width * 0.28 * (1 - t * 0.4)
        for i in range(k):
            off = 0.0 if k == 1 else -half + 2 * half * i / (k - 1)
            q = (p[0] + off + rng.uniform(-0.8, 0.8), p[1] + abs(off) * 0.35)
            col = LILAC if (i + j) % 2 else VIOLET
            if t > 0.72:
                col = PALEVIOLET if (i + j) % 2 else LILAC
            tilt = 0 if k == 1 else (25 if off < 0 else -25) if abs(off) > 1 else 0
            s.ellipse(q, rr, rr * 0.62, fill=col, rot=tilt)
            if col == VIOLET:
                s.ellipse((q[0], q[1] - rr * 0.3), rr * 0.55, rr * 0.25, fill=PALEVIOLET, rot=tilt)


def wisteria_leaves(
    s: Svg, base: Point, ang: float, length: float, rng: Random, col: str = LEAF
) -> None:
    """A pinnate wisteria leaf: a stalk with paired leaflets."""
    end = polar(base, length, ang)
    s.line([base, end], DARKPINE, 1.3)
    for i in range(4):
        t = 0.25 + 0.22 * i
        p = lerp2(base, end, t)
        for side in (-1, 1):
            s.path(leaf_d(p, length * 0.32, length * 0.07, ang + side * 55), fill=col)
    s.path(leaf_d(end, length * 0.3, length * 0.07, ang), fill=col)


# ------------------------------------------------------------------ 5 iris


def iris_blade(s: Svg, base: Point, height: float, lean: float, w: float, col: str = LEAF) -> None:
    tip = (base[0] + lean, base[1] - height)
    pts = cubic(
        base,
        (base[0], base[1] - height * 0.4),
        (base[0] + lean * 0.4, base[1] - height * 0.8),
        tip,
        14,
    )
    s.path(tapered(pts, w, 0.2, bulge=w * 0.3, cap=False), fill=col)


def iris_petal(s: Svg, c: Point, ln: float, wd: float, ang: float, col: str) -> None:
    """A spatulate petal from ``c``: a narrow claw widening to a broad rounded blade."""
    pts = [
        (0.0, -0.08),
        (0.3, -0.2),
        (0.62, -0.5),
        (0.9, -0.46),
        (1.0, 0.0),
        (0.9, 0.46),
        (0.62, 0.5),
        (0.3, 0.2),
        (0.0, 0.08),
    ]
    s.path(
        smooth_closed([rot((c[0] + x * ln, c[1] + y * wd), ang, c) for x, y in pts], 0.8), fill=col
    )


def iris_flower(s: Svg, c: Point, k: float, rng: Random, tilt: float = 0.0) -> None:
    """A Japanese iris in bloom: a green sheath on the stem, three narrow upright standards
    and three broad drooping falls, each fall marked with a white and yellow signal."""
    with s.group(f"translate({pt(c)}) rotate({tilt:.1f}) scale({k:.2f})"):
        s.path(tapered([(0, 6), (0.5, 26), (0, 46)], 3.4, 2.6, cap=False), fill=DARKPINE)
        s.path(leaf_d((0, 22), 16, 3.6, -96), fill=LEAF)
        for sa, ln, col in ((-90, 24, LILAC), (-114, 21, VIOLET), (-66, 21, VIOLET)):
            iris_petal(s, (0, 1), ln, 7.5, sa + rng.uniform(-4, 4), col)
        for a0, ln in ((142, 24), (38, 24), (94, 19)):
            a = a0 + rng.uniform(-5, 5)
            iris_petal(s, (0, 1), ln, 13, a, VIOLET)
            iris_petal(s, polar((0, 1), 3, a), ln * 0.62, 4.4, a, PAPER)
            s.circle(polar((0, 1), ln * 0.42, a), 2.2, fill=GOLD)
        s.circle((0, 1), 3.2, fill=DEEPVIOLET)


# ------------------------------------------------------------------ 6 peony


def peony(s: Svg, c: Point, r: float, rng: Random, *, col: str = RED, dark: str = DEEPRED) -> None:
    layers = (
        (dark, 8, 0.56, 0.52),
        (col, 7, 0.42, 0.44),
        (PINK, 6, 0.26, 0.34),
        (col, 5, 0.14, 0.26),
    )
    for fill, n, dist, size in layers:
        a0 = rng.uniform(0, 360)
        for i in range(n):
            a = a0 + 360 * i / n + rng.uniform(-8, 8)
            p = polar(c, r * dist, a)
            pts = blob_pts(p, r * size, r * size * 0.8, 7, 0.14, rng, start=a)
            s.path(smooth_closed(pts), fill=fill)
    for _ in range(9):
        s.circle(polar(c, r * rng.uniform(0.02, 0.14), rng.uniform(0, 360)), r * 0.05, fill=GOLD)


def peony_leaf(
    s: Svg, base: Point, length: float, ang: float, col: str = PINE, vein: str = DARKPINE
) -> None:
    """A deeply cut, three-part peony leaf."""
    for da, k in ((-38, 0.72), (38, 0.72), (0, 1.0)):
        a = ang + da
        tip = polar(base, length * k, a)
        s.path(leaf_d(base, length * k, length * 0.17, a), fill=col)
        s.line([base, lerp2(base, tip, 0.85)], vein, max(0.8, length * 0.025))
        # a side lobe
        mid = lerp2(base, tip, 0.45)
        s.path(leaf_d(mid, length * 0.38 * k, length * 0.1, a + (25 if da >= 0 else -25)), fill=col)


# ------------------------------------------------------------------ 7 bush clover


def clover_branch(
    s: Svg,
    p0: Point,
    p1: Point,
    p2: Point,
    p3: Point,
    rng: Random,
    *,
    w: float = 4.2,
    flower: str = RED,
    leaf_cols: tuple[str, ...] = (LEAF, INK, PINE),
    density: int = 9,
    k: float = 1.7,
) -> None:
    """An arching bush-clover stem with rounded trefoil leaves and sprays of red pea flowers.

    Flowers hang on the outer (lower) side of the arch, leaves stand on the inner side, as the
    classic cards draw them; ``k`` scales leaves and flowers.
    """
    pts = cubic(p0, p1, p2, p3, 30)
    branch(s, pts, w, 1.4)
    for i in range(1, density + 1):
        t = i / (density + 0.6)
        j = min(int(t * 30), 29)
        p, q = pts[j], pts[j + 1]
        ang = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
        up = -1 if math.cos(math.radians(ang)) >= 0 else 1  # the side facing the sky
        size = k * (1 - t * 0.3)
        lc = leaf_cols[i % len(leaf_cols)]
        stalk_end = polar(p, 5 * size, ang + up * 55)
        s.line([p, stalk_end], INK, 1.3)
        for da in (-42, 0, 42):
            a = ang + up * 55 + da
            s.ellipse(polar(stalk_end, 5.4 * size, a), 5.8 * size, 3.4 * size, fill=lc, rot=a)
        # a spray of pea flowers on the other side
        fa = ang - up * 62 + rng.uniform(-10, 10)
        fl = polar(p, 4 * size, fa)
        end = polar(fl, 18 * size, fa + rng.uniform(-12, 12))
        s.line([p, end], INK, 1.1)
        for m in range(6):
            fp = lerp2(fl, end, m / 5)
            side = 2.2 * size * (1 if m % 2 else -1)
            fp = polar(fp, side, fa + 90)
            col = (flower, PINK, flower, DEEPRED, flower, PINK)[m]
            r = 5 * size * (1 - m * 0.09)
            s.ellipse(fp, r, r * 0.72, fill=col, rot=fa + 90 + rng.uniform(-30, 30))
    s.ellipse(pts[-1], 3.8 * k, 2.8 * k, fill=flower)


# ------------------------------------------------------------------ 8 susuki


def susuki_hill(
    s: Svg,
    top_y: float,
    rng: Random,
    *,
    peak_x: float = 100,
    grass: str = PAPER,
    rows: int = 5,
    plumes: int = 3,
    hump: tuple[float, float, float] | None = None,
) -> None:
    """The black grassy hill of August with white grass strokes and plumes above it;
    ``hump`` (peak x, top y, half width) adds a second, smaller hill in front."""

    def ridge(x: float, lift: float = 0.0) -> float:
        u = (x - peak_x) / 150
        y = top_y + 110 * u * u
        if hump:
            v = (x - hump[0]) / hump[2]
            y = min(y, hump[1] + 60 * v * v)
        return y + lift

    prof = [(x, ridge(x)) for x in range(-10, 221, 10)]
    d = "M" + pt(prof[0]) + " " + smooth_open(prof)[len("M" + pt(prof[0])) :]
    s.path(below_d(d), fill=INK)
    # rows of grass blades following the ridge
    for row in range(rows):
        lift = 10 + row * 22
        x = -6 + rng.uniform(0, 8)
        while x < 206:
            base = (x, ridge(x, lift) + 14)
            if base[1] > 296 and not 16 < x < 184:  # keep the card's rounded corners clear
                x += 8
                continue
            h = rng.uniform(16, 24)
            lean = rng.uniform(-6, 6) + (x - peak_x) * 0.06
            pts = cubic(
                base,
                (base[0], base[1] - h * 0.5),
                (base[0] + lean * 0.6, base[1] - h),
                (base[0] + lean, base[1] - h * 1.05),
                8,
            )
            s.path(tapered(pts, 1.9, 0.2, cap=False), fill=grass)
            x += rng.uniform(6, 10)
    # susuki plumes and long arching blades standing above the crest
    for k in range(plumes):
        x = 24 + (k + rng.uniform(0.1, 0.9)) * 152 / plumes
        y0 = ridge(x) + 6
        h = rng.uniform(48, 76)
        lean = rng.uniform(8, 20) * (1 if k % 2 else -1)
        top = (x + lean, y0 - h)
        pts = cubic((x, y0), (x, y0 - h * 0.6), (x + lean * 0.4, y0 - h), top, 12)
        s.path(tapered(pts, 2.4, 0.8), fill=INK)
        side = 1 if lean > 0 else -1
        for j in range(6):
            ln = rng.uniform(16, 26)
            a0 = -90 + side * (20 + j * 14)
            start = pts[9 + j % 4]
            mid = polar(start, ln * 0.5, a0)
            end = polar(mid, ln * 0.5, a0 + side * 40)
            s.path(tapered(cubic(start, mid, mid, end, 6), 2.6, 0.3, cap=False), fill=INK)
        blade = cubic(
            (x + 6, y0),
            (x + 10, y0 - h * 0.5),
            (x + side * 30, y0 - h * 0.6),
            (x + side * 44, y0 - h * 0.3),
            10,
        )
        s.path(tapered(blade, 3.2, 0.3, bulge=1.2, cap=False), fill=INK)


# ------------------------------------------------------------------ 9 chrysanthemum


def chrysanthemum(
    s: Svg,
    c: Point,
    r: float,
    rng: Random,
    *,
    col: str = GOLD,
    dark: str = OCHRE,
    heart: str = DEEPRED,
) -> None:
    n = 22
    a0 = rng.uniform(0, 20)
    for i in range(n):
        a = a0 + 360 * i / n
        s.ellipse(polar(c, r * 0.62, a), r * 0.4, r * 0.12, fill=dark, rot=a)
    for i in range(n - 4):
        a = a0 + 8 + 360 * i / (n - 4)
        s.ellipse(polar(c, r * 0.42, a), r * 0.32, r * 0.11, fill=col, rot=a)
    s.circle(c, r * 0.24, fill=dark)
    for i in range(7):
        s.circle(polar(c, r * 0.13, 360 * i / 7 + a0), r * 0.06, fill=heart)


def chrys_leaf(
    s: Svg, base: Point, length: float, ang: float, rng: Random, col: str = PINE
) -> None:
    """A lobed chrysanthemum leaf with a dark midrib."""
    tip = polar(base, length, ang)
    pts: list[Point] = [base]
    for i, side in ((1, 1), (2, 1), (3, 1)):
        p = lerp2(base, tip, i / 4)
        pts.append(polar(p, length * 0.3 * (1.1 - i / 5), ang + 80 * side))
        pts.append(polar(lerp2(base, tip, i / 4 + 0.12), length * 0.12, ang + 80 * side))
    pts.append(tip)
    for i in (3, 2, 1):
        pts.append(polar(lerp2(base, tip, i / 4 + 0.12), length * 0.12, ang - 80))
        p = lerp2(base, tip, i / 4)
        pts.append(polar(p, length * 0.3 * (1.1 - i / 5), ang - 80))
    s.path(smooth_closed(pts, 0.8), fill=col)
    s.line([base, lerp2(base, tip, 0.9)], DARKPINE, 1.2)


# ------------------------------------------------------------------ 10 maple


def maple_leaf_d(c: Point, r: float, ang: float) -> str:
    """A seven-lobed maple leaf outline with broad, sharp-tipped lobes (reads at small size)."""
    lobes = ((-132, 0.42), (-88, 0.74), (-44, 0.94), (0, 1.0), (44, 0.94), (88, 0.74), (132, 0.42))
    pts: list[Point] = [polar(c, r * 0.14, ang + 180)]
    for i, (da, k) in enumerate(lobes):
        a = ang + da
        spread = 21 if abs(da) < 100 else 26
        pts += [
            polar(c, r * k * 0.52, a - spread),
            polar(c, r * k * 0.8, a - 11),
            polar(c, r * k, a),
            polar(c, r * k * 0.8, a + 11),
            polar(c, r * k * 0.52, a + spread),
        ]
        if i < len(lobes) - 1:
            pts.append(polar(c, r * 0.36, ang + (da + lobes[i + 1][0]) / 2))
    return poly_d(pts)


def maple_leaf(s: Svg, c: Point, r: float, ang: float, col: str = RED, vein: str = DEEPRED) -> None:
    """A seven-lobed maple leaf; ``ang`` is where the middle lobe points (-90 = up)."""
    s.line([c, polar(c, r * 0.55, ang + 180)], INK, max(0.8, r * 0.07))
    s.path(maple_leaf_d(c, r, ang), fill=col)
    for da, k in ((0, 0.75), (-44, 0.68), (44, 0.68), (-88, 0.5), (88, 0.5)):
        s.line([polar(c, r * 0.1, ang + da), polar(c, r * k, ang + da)], vein, max(0.6, r * 0.03))


# ------------------------------------------------------------------ 11 willow


def willow_strand(
    s: Svg,
    top: Point,
    length: float,
    sway: float,
    rng: Random,
    *,
    col: str = LEAF,
    stem: str = INK,
    leaves: int = 9,
    lw: float = 2.0,
    col2: str | None = None,
    lk: float = 1.0,
) -> None:
    """A hanging willow twig with narrow leaves pointing down along it (two greens)."""
    pts = cubic(
        top,
        (top[0] + sway * 0.2, top[1] + length * 0.4),
        (top[0] + sway * 0.8, top[1] + length * 0.7),
        (top[0] + sway, top[1] + length),
        20,
    )
    s.line(pts, stem, lw)
    for i in range(leaves):
        t = 0.12 + 0.86 * i / max(1, leaves - 1)
        p = pts[min(int(t * 20), 20)]
        side = 1 if i % 2 else -1
        c = col2 if (col2 and i % 3 == 1) else col
        s.path(
            leaf_d(p, rng.uniform(16, 21) * lk, 4.2 * lk, 90 + side * rng.uniform(14, 28)), fill=c
        )


# ------------------------------------------------------------------ 12 paulownia


def kiri_leaf(
    s: Svg, base: Point, r: float, ang: float, col: str = LEAF, vein: str = DARKPINE
) -> None:
    """A broad paulownia leaf: heart-shaped with a notch at the stalk, a pointed tip and two
    pointed side lobes, three main veins from the base; ``ang`` is where the tip points."""
    s.line([polar(base, -r * 0.15, ang), polar(base, r * 0.12, ang)], INK, r * 0.06)
    c = polar(base, r * 0.62, ang)

    def at(k: float, da: float) -> Point:
        return polar(c, r * k, ang + da)

    pts = [
        polar(base, r * 0.14, ang),
        at(0.56, 152),
        at(0.74, 118),
        at(0.7, 88),
        at(0.86, 56),
        at(0.66, 30),
        at(1.0, 0),
        at(0.66, -30),
        at(0.86, -56),
        at(0.7, -88),
        at(0.74, -118),
        at(0.56, -152),
    ]
    s.path(smooth_closed(pts, 0.7), fill=col)
    root = polar(base, r * 0.12, ang)
    for end, w in ((at(0.92, 0), 0.045), (at(0.78, 56), 0.035), (at(0.78, -56), 0.035)):
        s.line([root, end], vein, r * w)
        for k in (0.35, 0.65):
            p = lerp2(root, end, k)
            da = math.degrees(math.atan2(end[1] - root[1], end[0] - root[0]))
            for side in (-1, 1):
                s.line([p, polar(p, r * 0.22 * (1.2 - k), da + side * 45)], vein, r * 0.022)


def kiri_bell(
    s: Svg, base: Point, ln: float, ang: float, *, col: str = LILAC, shade: str = VIOLET
) -> None:
    """One paulownia blossom: a brown calyx cup at ``base`` and a pale violet bell flaring
    to a three-lobed mouth ``ln`` further on, pointing at ``ang`` (-90 = up)."""

    def at(x: float, y: float) -> Point:
        return rot((base[0] + x * ln, base[1] + y * ln), ang, base)

    body = [
        at(0.16, -0.13),
        at(0.5, -0.22),
        at(0.78, -0.34),
        at(0.98, -0.22),
        at(1.02, 0),
        at(0.98, 0.22),
        at(0.78, 0.34),
        at(0.5, 0.22),
        at(0.16, 0.13),
    ]
    s.path(smooth_closed(body, 0.8), fill=col)
    s.path(
        smooth_closed(
            [at(0.2, 0.04), at(0.55, 0.12), at(0.8, 0.3), at(0.56, 0.22), at(0.22, 0.13)], 0.8
        ),
        fill=shade,
    )
    s.ellipse(at(0.86, 0), ln * 0.1, ln * 0.2, fill=PAPER, rot=ang)
    s.circle(at(0.84, 0), ln * 0.06, fill=shade)
    s.ellipse(at(0.12, 0), ln * 0.16, ln * 0.15, fill=BROWN, rot=ang)


def kiri_head(s: Svg, base: Point, height: float, ln: float, bells: int, rng: Random) -> None:
    """A crest-like flower head on an upright stalk ``height`` tall from ``base``: the
    blossoms stand in pairs, one to each side (lower pairs spread wider), and one on top."""
    pairs = (bells - 1) // 2
    step = ln * 0.62
    top = (base[0], base[1] - height)
    s.path(tapered([base, lerp2(base, top, 0.5), top], ln * 0.18, ln * 0.1), fill=INK)
    for k in range(pairs):
        p = (top[0], top[1] + (pairs - k) * step - ln * 0.05)
        spread = 70 - k * 40 / max(1, pairs)
        for side in (-1, 1):
            kiri_bell(s, p, ln * rng.uniform(0.94, 1.04), -90 + side * spread + rng.uniform(-4, 4))
    kiri_bell(s, (top[0], top[1] + ln * 0.05), ln * 1.04, -90 + rng.uniform(-3, 3))


def kiri_crest(
    s: Svg,
    base: Point,
    ln: float,
    rng: Random,
    *,
    bells: tuple[int, int, int] = (5, 7, 5),
    gap: float = 1.9,
    stalk: float = 1.3,
) -> None:
    """The paulownia as the family crest draws it: three upright flower heads of 5, 7 and 5
    blossoms side by side, the middle one taller, on stalks rising from ``base`` (which the
    leaves drawn after them hide)."""
    for dx, n in ((-gap, bells[0]), (gap, bells[2]), (0, bells[1])):
        pairs = (n - 1) // 2
        h = ln * (stalk + pairs * 0.62) + (0 if dx else ln * 0.62)
        kiri_head(s, (base[0] + dx * ln, base[1]), h, ln, n, rng)


__all__ = [n for n in dir() if not n.startswith("_")] + ["rot"]
