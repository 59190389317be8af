"""Contrast of drawn text, read from the pixels (WCAG 2: relative luminance, ratio 4.5:1 for
AA): the frame is drawn once as it is and once with every line of text left out, and each line
is measured between its glyphs' colour and the brightest or darkest background under it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from koikoi_desktop.ui import gfx

AA = 4.5


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def ratio(a: float, b: float) -> float:
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


def _pixels(surface: pygame.Surface, rect: pygame.Rect) -> list[float]:
    r = rect.clip(surface.get_rect())
    return [
        luminance(surface.get_at((x, y))[:3])
        for x in range(r.x, r.right)
        for y in range(r.y, r.bottom)
    ]


def text_contrast(
    surface: pygame.Surface,
    under: Callable[[], None],
    top: Callable[[], None],
    monkeypatch: Any,
) -> list[tuple[str, float]]:
    """Each line ``top`` writes on ``surface`` (an overlay drawn over what ``under`` draws)
    with its worst contrast against what lies under it: the same frame drawn without the
    overlay's text."""
    lines: list[tuple[str, pygame.Rect]] = []
    real = gfx.blit_text

    def spy(target: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> Any:
        rect = real(target, text, size, pos, **kw)
        ink = gfx.text(text, size, bold=kw.get("bold", False)).get_bounding_rect()
        if text.strip() and target is surface:
            lines.append((text, ink.move(rect.topleft).clip(rect)))
        return rect

    def silent(target: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> Any:
        return pygame.Rect(0, 0, 0, 0)

    with monkeypatch.context() as m:
        under()
        m.setattr(gfx, "blit_text", spy)
        top()
        shown = surface.copy()
        m.setattr(gfx, "blit_text", real)
        under()
        m.setattr(gfx, "blit_text", silent)
        top()
        bare = surface.copy()
    out = []
    for text, rect in lines:
        if rect.w < 2 or rect.h < 2:
            continue
        back = _pixels(bare, rect)
        ink = _pixels(shown, rect)
        mid = sorted(back)[len(back) // 2]
        glyph = max(ink, key=lambda v: abs(v - mid))  # the glyphs' core
        worst = min(ratio(glyph, v) for v in back)
        out.append((text, worst))
    return out
