"""A tiny SVG writer and geometry kit for the card generator.

Only what pygame-ce's nanosvg rasteriser draws is ever emitted: paths, circles, ellipses, rects,
polygons, groups with transforms, solid fills, strokes and opacity.  No clip paths, masks, filters,
patterns, ``<use>``, ``<text>`` or ``<image>``; no gradients at all (flat woodblock colours).

Numbers are written with one decimal so the output is small and byte-for-byte reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from random import Random

Point = tuple[float, float]

# The palette of ART.md, plus a few tints of the same inks (a woodblock printer mixes too).
RED = "#c8321e"
DEEPRED = "#8e1b12"
INK = "#1b1714"
PAPER = "#f4ecd8"
OCHRE = "#d9a02b"
INDIGO = "#24407a"
VIOLET = "#6a3d8f"
PINE = "#2f6b3a"
LEAF = "#5d8a3a"
PINK = "#e59aa5"
# tints
LILAC = "#a07cc4"  # light wisteria / iris
PALEVIOLET = "#d4c0e6"  # wisteria buds, highlights
DEEPVIOLET = "#47265f"  # iris hearts
DARKPINE = "#1d4527"
OLIVE = "#8c8a32"
BROWN = "#7b4722"
GOLD = "#f0c548"
SKY = "#5b79b0"  # light indigo (water, blue ribbon edge)
PALEPINK = "#f6d3d3"
WHITE = "#fbf6ea"
STORM = "#2c3144"  # the rain card's dark sky, light enough for a black hat to show


def f(v: float) -> str:
    """Format a coordinate compactly (one decimal, no trailing zeros)."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    if s == "-0":
        s = "0"
    return s


def pt(p: Point) -> str:
    return f"{f(p[0])},{f(p[1])}"


class Svg:
    """Collects elements; :meth:`text` returns the finished document."""

    def __init__(self, width: int = 200, height: int = 320) -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = []
        self.depth = 1

    def _attrs(
        self,
        fill: str | None,
        stroke: str | None,
        sw: float | None,
        op: float | None,
        extra: str = "",
    ) -> str:
        a = f' fill="{fill}"' if fill else ' fill="none"'
        if stroke:
            a += f' stroke="{stroke}"'
            if sw is not None:
                a += f' stroke-width="{f(sw)}"'
            a += ' stroke-linecap="round" stroke-linejoin="round"'
        if op is not None and op < 1:
            a += f' opacity="{op:.2f}"'
        return a + extra

    def raw(self, s: str) -> None:
        self.parts.append("  " * self.depth + s)

    def path(
        self,
        d: str,
        fill: str | None = None,
        stroke: str | None = None,
        sw: float | None = None,
        op: float | None = None,
        evenodd: bool = False,
    ) -> None:
        extra = ' fill-rule="evenodd"' if evenodd else ""
        self.raw(f'<path d="{d}"{self._attrs(fill, stroke, sw, op, extra)}/>')

    def circle(
        self,
        c: Point,
        r: float,
        fill: str | None = None,
        stroke: str | None = None,
        sw: float | None = None,
        op: float | None = None,
    ) -> None:
        self.raw(
            f'<circle cx="{f(c[0])}" cy="{f(c[1])}" r="{f(r)}"{self._attrs(fill, stroke, sw, op)}/>'
        )

    def ellipse(
        self,
        c: Point,
        rx: float,
        ry: float,
        fill: str | None = None,
        stroke: str | None = None,
        sw: float | None = None,
        op: float | None = None,
        rot: float = 0.0,
    ) -> None:
        tr = f' transform="rotate({f(rot)} {pt(c)})"' if rot else ""
        self.raw(
            f'<ellipse cx="{f(c[0])}" cy="{f(c[1])}" rx="{f(rx)}" ry="{f(ry)}"'
            f"{self._attrs(fill, stroke, sw, op)}{tr}/>"
        )

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str | None = None,
        stroke: str | None = None,
        sw: float | None = None,
        rx: float = 0,
        op: float | None = None,
    ) -> None:
        r = f' rx="{f(rx)}"' if rx else ""
        self.raw(
            f'<rect x="{f(x)}" y="{f(y)}" width="{f(w)}" height="{f(h)}"{r}'
            f"{self._attrs(fill, stroke, sw, op)}/>"
        )

    def poly(
        self,
        pts: Sequence[Point],
        fill: str | None = None,
        stroke: str | None = None,
        sw: float | None = None,
        op: float | None = None,
    ) -> None:
        self.path(poly_d(pts), fill, stroke, sw, op)

    def line(self, pts: Sequence[Point], stroke: str, sw: float, op: float | None = None) -> None:
        self.path(poly_d(pts, close=False), None, stroke, sw, op)

    @contextmanager
    def group(self, transform: str = "", op: float | None = None) -> Iterator[None]:
        a = f' transform="{transform}"' if transform else ""
        if op is not None and op < 1:
            a += f' opacity="{op:.2f}"'
        self.raw(f"<g{a}>")
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            self.raw("</g>")

    def text(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}">'
        )
        return head + "\n" + "\n".join(self.parts) + "\n</svg>\n"


# ---------------------------------------------------------------- geometry


def poly_d(pts: Sequence[Point], close: bool = True) -> str:
    d = "M" + " L".join(pt(p) for p in pts)
    return d + ("Z" if close else "")


def rot(p: Point, ang_deg: float, c: Point = (0.0, 0.0)) -> Point:
    a = math.radians(ang_deg)
    x, y = p[0] - c[0], p[1] - c[1]
    return (c[0] + x * math.cos(a) - y * math.sin(a), c[1] + x * math.sin(a) + y * math.cos(a))


def polar(c: Point, r: float, ang_deg: float) -> Point:
    a = math.radians(ang_deg)
    return (c[0] + r * math.cos(a), c[1] + r * math.sin(a))


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 16) -> list[Point]:
    """Sample a cubic Bezier curve at ``n + 1`` points."""
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u * u * u * p0[0]
                + 3 * u * u * t * p1[0]
                + 3 * u * t * t * p2[0]
                + t * t * t * p3[0],
                u * u * u * p0[1]
                + 3 * u * u * t * p1[1]
                + 3 * u * t * t * p2[1]
                + t * t * t * p3[1],
            )
        )
    return out


def quad(p0: Point, p1: Point, p2: Point, n: int = 12) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
                u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1],
            )
        )
    return out


def smooth_closed(pts: Sequence[Point], tension: float = 1.0) -> str:
    """A closed smooth path through ``pts`` (Catmull-Rom converted to cubic Beziers)."""
    n = len(pts)
    d = "M" + pt(pts[0])
    for i in range(n):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[(i + 1) % n], pts[(i + 2) % n]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6 * tension, p1[1] + (p2[1] - p0[1]) / 6 * tension)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6 * tension, p2[1] - (p3[1] - p1[1]) / 6 * tension)
        d += f" C{pt(c1)} {pt(c2)} {pt(p2)}"
    return d + "Z"


def smooth_open(pts: Sequence[Point]) -> str:
    n = len(pts)
    d = "M" + pt(pts[0])
    for i in range(n - 1):
        p0 = pts[max(i - 1, 0)]
        p1, p2 = pts[i], pts[i + 1]
        p3 = pts[min(i + 2, n - 1)]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d += f" C{pt(c1)} {pt(c2)} {pt(p2)}"
    return d


def tapered(
    pts: Sequence[Point], w0: float, w1: float, *, bulge: float = 0.0, cap: bool = True
) -> str:
    """Outline of a brush stroke along ``pts``, ``w0`` wide at the start and ``w1`` at the end.

    ``bulge`` swells the middle (a brush pressed harder half way), which gives leaves and
    lettering their calligraphic look.
    """
    n = len(pts)
    left: list[Point] = []
    right: list[Point] = []
    for i, p in enumerate(pts):
        a = pts[max(i - 1, 0)]
        b = pts[min(i + 1, n - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln, dx / ln
        t = i / (n - 1) if n > 1 else 0
        w = (w0 + (w1 - w0) * t + bulge * math.sin(math.pi * t)) / 2
        left.append((p[0] + nx * w, p[1] + ny * w))
        right.append((p[0] - nx * w, p[1] - ny * w))
    right.reverse()
    d = "M" + " L".join(pt(p) for p in left)
    if cap and w1 > 0.6 and n > 1:
        e, q = pts[-1], pts[-2]
        dx, dy = e[0] - q[0], e[1] - q[1]
        ln = math.hypot(dx, dy) or 1.0
        tipc = (e[0] + dx / ln * w1 * 0.9, e[1] + dy / ln * w1 * 0.9)
        d += f" Q{pt(tipc)} {pt(right[0])}"
    else:
        d += " L" + pt(right[0])
    d += " L" + " L".join(pt(p) for p in right[1:])
    return d + "Z"


def leaf_d(
    base: Point,
    length: float,
    width: float,
    ang_deg: float,
    *,
    curl: float = 0.0,
    tip_w: float = 0.0,
) -> str:
    """A lanceolate leaf from ``base`` pointing at ``ang_deg`` (0 = right, 90 = down)."""
    a = math.radians(ang_deg)
    ux, uy = math.cos(a), math.sin(a)
    nx, ny = -uy, ux
    tip = (base[0] + ux * length + nx * curl, base[1] + uy * length + ny * curl)
    m1 = (
        base[0] + ux * length * 0.45 + nx * (width + curl * 0.5),
        base[1] + uy * length * 0.45 + ny * (width + curl * 0.5),
    )
    m2 = (
        base[0] + ux * length * 0.45 - nx * (width - curl * 0.5),
        base[1] + uy * length * 0.45 - ny * (width - curl * 0.5),
    )
    return f"M{pt(base)} Q{pt(m1)} {pt(tip)} Q{pt(m2)} {pt(base)}Z"


def star_d(c: Point, r_out: float, r_in: float, n: int, rot_deg: float = -90) -> str:
    pts = []
    for i in range(n * 2):
        r = r_out if i % 2 == 0 else r_in
        pts.append(polar(c, r, rot_deg + i * 180 / n))
    return poly_d(pts)


def rounded_rect_d(x: float, y: float, w: float, h: float, r: float) -> str:
    return (
        f"M{f(x + r)},{f(y)} H{f(x + w - r)} A{f(r)},{f(r)} 0 0 1 {f(x + w)},{f(y + r)} "
        f"V{f(y + h - r)} A{f(r)},{f(r)} 0 0 1 {f(x + w - r)},{f(y + h)} H{f(x + r)} "
        f"A{f(r)},{f(r)} 0 0 1 {f(x)},{f(y + h - r)} V{f(y + r)} "
        f"A{f(r)},{f(r)} 0 0 1 {f(x + r)},{f(y)}Z"
    )


def blob_pts(
    c: Point, rx: float, ry: float, n: int, jitter: float, rng: Random, start: float = 0.0
) -> list[Point]:
    """Points round an ellipse with a little random irregularity (a hand-cut shape)."""
    out = []
    for i in range(n):
        a = start + 360 * i / n + rng.uniform(-jitter, jitter) * 60 / n
        k = 1 + rng.uniform(-jitter, jitter)
        out.append(
            (c[0] + rx * k * math.cos(math.radians(a)), c[1] + ry * k * math.sin(math.radians(a)))
        )
    return out


def below_d(top: str, w: float = 200, h: float = 320, r: float = 12) -> str:
    """Close an open path ``top`` running left (x <= 0) to right (x >= w) down round the
    card's rounded bottom corners, so a ground never pokes out of the card's corners."""
    return (
        top + f" L{f(w)},{f(h - r)} A{f(r)},{f(r)} 0 0 1 {f(w - r)},{f(h)} L{f(r)},{f(h)}"
        f" A{f(r)},{f(r)} 0 0 1 0,{f(h - r)}Z"
    )


def above_d(top: str, w: float = 200, r: float = 12) -> str:
    """Close an open path running left to right up round the card's rounded top corners."""
    return (
        top + f" L{f(w)},{f(r)} A{f(r)},{f(r)} 0 0 0 {f(w - r)},0 L{f(r)},0"
        f" A{f(r)},{f(r)} 0 0 0 0,{f(r)}Z"
    )
