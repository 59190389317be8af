"""Draw the application icon from our card art: ``koikoi-desktop.svg`` and PNGs of every size.

Run from the repository root (the outputs are committed; run it again when the card art
changes)::

    python packaging/icons/make_icons.py

The icon is a fan of three bright cards — Crane and Sun (January), the Cherry Curtain (March)
and the Full Moon (August) — on a rounded tile of the table's green felt, with a thin gold rim.
Sizes 48 and up show the fan; 16, 24 and 32 show the crane card alone, because three cards at
16 pixels are mush.

Decisions:

* The SVG icon embeds the three card SVGs as nested ``<svg>`` elements (each clips its own art
  to the card, as the game does) inside rotated groups: one self-contained file for the icon
  theme, with no reference to other files.
* The PNGs are composed with pygame, not by rasterising the SVG icon: SDL_image's SVG renderer
  does not clip nested ``<svg>`` viewports, while each card SVG on its own renders exactly as in
  the game. The geometry (tile, rim, card size, pivot and angles) is shared by both outputs, and
  every PNG is drawn at twice its size and smooth-scaled down for clean edges.
"""

from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CARDS = ROOT / "assets" / "cards"
NAME = "koikoi-desktop"

#: Every PNG size written (hicolor theme, Windows .ico, macOS .icns).
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
SMALL = 32  # this size and below: the single-card variant

# Geometry on a 512 x 512 canvas.
CANVAS = 512
TILE = (24, 24, 464, 464)  # x, y, w, h
TILE_RADIUS = 100
FELT = "#1f6b45"
FELT_DARK = "#124a2e"
GOLD = "#d9a441"
CARD_W, CARD_H = 200, 320  # the art's viewBox
FAN = (  # (card file, angle in degrees clockwise)
    ("09_MAR_CURTAIN.svg", -16.0),
    ("29_AUG_MOON.svg", 16.0),
    ("01_JAN_CRANE.svg", 0.0),
)
FAN_SCALE = 0.88  # card height 282 px
PIVOT = (256.0, 600.0)  # the fan turns about this point, below the tile
FAN_BOTTOM = 420.0  # bottom edge of the upright card
SINGLE_SCALE = 1.22  # the small variant: one card, upright and centred
SHADOW = (7.0, 9.0)  # drop shadow offset


def _card_body(name: str) -> str:
    """The inner markup of a card SVG (everything inside its root element)."""
    text = (CARDS / name).read_text(encoding="utf-8")
    m = re.search(r"<svg\b[^>]*>(.*)</svg>\s*$", text, re.S)
    if m is None:
        raise ValueError(f"{name}: not a single <svg> element")
    return m.group(1).strip()


def _rounded_rect(x: float, y: float, w: float, h: float, r: float, **attrs: str) -> str:
    extra = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{r:g}" {extra}/>'


def _placements(small: bool) -> list[tuple[str, float, float, float, float]]:
    """(card file, left, top, scale, angle) of each card, bottom-most first."""
    if small:
        s = SINGLE_SCALE
        w, h = CARD_W * s, CARD_H * s
        return [("01_JAN_CRANE.svg", (CANVAS - w) / 2, (CANVAS - h) / 2, s, 0.0)]
    s = FAN_SCALE
    w, h = CARD_W * s, CARD_H * s
    return [(name, PIVOT[0] - w / 2, FAN_BOTTOM - h, s, angle) for name, angle in FAN]


def svg_icon(small: bool = False) -> str:
    """The icon as SVG text."""
    x, y, w, h = TILE
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CANVAS}" height="{CANVAS}" '
        f'viewBox="0 0 {CANVAS} {CANVAS}">',
        "<title>Koi-Koi Desktop</title>",
        '<defs><radialGradient id="felt" cx="50%" cy="40%" r="65%">'
        f'<stop offset="0" stop-color="{FELT}"/><stop offset="1" stop-color="{FELT_DARK}"/>'
        "</radialGradient></defs>",
        _rounded_rect(x, y, w, h, TILE_RADIUS, fill="url(#felt)"),
        _rounded_rect(
            x + 10,
            y + 10,
            w - 20,
            h - 20,
            TILE_RADIUS - 10,
            fill="none",
            stroke=GOLD,
            stroke_width="5",
            stroke_opacity="0.8",
        ),
    ]
    for name, left, top, s, angle in _placements(small):
        cw, ch = CARD_W * s, CARD_H * s
        rot = "" if small else f' transform="rotate({angle:g} {PIVOT[0]:g} {PIVOT[1]:g})"'
        parts.append(f"<g{rot}>")
        parts.append(
            _rounded_rect(
                left + SHADOW[0],
                top + SHADOW[1],
                cw,
                ch,
                12 * s,
                fill="#000000",
                fill_opacity="0.35",
            )
        )
        parts.append(
            f'<svg x="{left:g}" y="{top:g}" width="{cw:g}" height="{ch:g}" '
            f'viewBox="0 0 {CARD_W} {CARD_H}">{_card_body(name)}</svg>'
        )
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _hex(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _tile(size: int, k: float):  # type: ignore[no-untyped-def]
    """The felt tile with its rim, at scale ``k`` (pixels per canvas unit)."""
    import pygame

    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    x, y, w, h = (round(v * k) for v in TILE)
    tile = pygame.Rect(x, y, w, h)
    inner, outer = _hex(FELT), _hex(FELT_DARK)
    steps = 24
    for i in range(steps):  # a stepped radial gradient, dark rim to light centre
        t = i / (steps - 1)
        col = tuple(round(outer[c] + (inner[c] - outer[c]) * t) for c in range(3))
        r = tile.inflate(-round(w * 0.5 * t), -round(h * 0.5 * t))
        r.centery = tile.top + round(h * (0.5 - 0.1 * t))
        r = r.clip(tile)
        pygame.draw.rect(surf, col, r, border_radius=round(TILE_RADIUS * k * (1 - 0.6 * t)))
    mask = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), tile, border_radius=round(TILE_RADIUS * k))
    surf.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    rim = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(
        rim,
        (*_hex(GOLD), 204),
        tile.inflate(-round(20 * k), -round(20 * k)),
        width=max(1, round(5 * k)),
        border_radius=round((TILE_RADIUS - 10) * k),
    )
    surf.blit(rim, (0, 0))
    return surf


def _blit_rotated(dest, img, left: float, top: float, angle: float, k: float) -> None:  # type: ignore[no-untyped-def]
    """Blit ``img`` (placed at canvas ``left, top`` when upright) turned ``angle`` degrees
    clockwise about the fan's pivot."""
    import pygame

    cx = left + img.get_width() / (2 * k)
    cy = top + img.get_height() / (2 * k)
    a = math.radians(angle)
    dx, dy = cx - PIVOT[0], cy - PIVOT[1]
    nx = PIVOT[0] + dx * math.cos(a) - dy * math.sin(a)
    ny = PIVOT[1] + dx * math.sin(a) + dy * math.cos(a)
    turned = pygame.transform.rotate(img, -angle) if angle else img
    dest.blit(turned, turned.get_rect(center=(round(nx * k), round(ny * k))))


def png_icon(size: int):  # type: ignore[no-untyped-def]
    """The icon as a pygame Surface of ``size`` x ``size`` pixels."""
    import pygame

    big = size * 2
    k = big / CANVAS
    surf = _tile(big, k)
    for name, left, top, s, angle in _placements(size <= SMALL):
        cw, ch = round(CARD_W * s * k), round(CARD_H * s * k)
        shadow = pygame.Surface((cw, ch), pygame.SRCALPHA)
        pygame.draw.rect(
            shadow, (0, 0, 0, 90), shadow.get_rect(), border_radius=max(1, round(12 * s * k))
        )
        _blit_rotated(surf, shadow, left + SHADOW[0], top + SHADOW[1], angle, k)
        card = pygame.image.load_sized_svg(str(CARDS / name), (cw, ch))
        if card.get_size() != (cw, ch):  # SDL_image may round up by a pixel
            exact = pygame.Surface((cw, ch), pygame.SRCALPHA)
            exact.blit(card, (0, 0))
            card = exact
        _blit_rotated(surf, card, left, top, angle, k)
    return pygame.transform.smoothscale(surf, (size, size))


def main(out_dir: Path = HERE) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{NAME}.svg").write_text(svg_icon(), encoding="utf-8")
    (out_dir / f"{NAME}-small.svg").write_text(svg_icon(small=True), encoding="utf-8")
    for size in SIZES:
        pygame.image.save(png_icon(size), str(out_dir / f"{NAME}-{size}.png"))
    print(
        f"icons written to {out_dir}: {NAME}.svg, {NAME}-small.svg and PNG sizes "
        + ", ".join(map(str, SIZES))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE))
