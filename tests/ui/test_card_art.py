"""The card art: SVG features nanosvg draws, detail, distinctness, sheet, badges and sprites."""

from __future__ import annotations

import importlib.util
import itertools
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from koikoi_desktop.assets import (
    CARD_CODES,
    CardSprites,
    asset_root,
    back_path,
    card_path,
    load_svg,
)
from koikoi_desktop.deck_sheet import render_deck_sheet
from koikoi_desktop.ui import badges

ASSETS = asset_root()
FORBIDDEN = {
    "clipPath",
    "mask",
    "filter",
    "pattern",
    "use",
    "symbol",
    "image",
    "text",
    "foreignObject",
}
FORBIDDEN_ATTRS = {"clip-path", "mask", "filter"}
GRAD_COORDS = ("x1", "y1", "x2", "y2", "cx", "cy", "r", "fx", "fy")


def svg_problems(text: str) -> list[str]:
    """Everything in an SVG document that pygame-ce's nanosvg would ignore or misdraw."""
    problems = []
    root = ET.fromstring(text)
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag in FORBIDDEN:
            problems.append(f"<{tag}>")
        for attr in el.attrib:
            if attr.split("}")[-1] in FORBIDDEN_ATTRS:
                problems.append(f"{attr}= on <{tag}>")
        if (
            tag in ("linearGradient", "radialGradient")
            and el.get("gradientUnits") != "userSpaceOnUse"
        ):
            for c in GRAD_COORDS:
                v = el.get(c)
                if v is not None and not v.strip().endswith("%"):
                    problems.append(f"<{tag}> {c}={v!r} neither % nor userSpaceOnUse")
    return problems


def all_svgs() -> list[Path]:
    return sorted(ASSETS.rglob("*.svg"))


def test_lint_catches_unsupported_features() -> None:
    bad = (
        '<svg xmlns="http://www.w3.org/2000/svg"><defs><clipPath id="c"/>'
        '<linearGradient id="g" x1="0" x2="1"/></defs><text>hi</text>'
        '<use href="#c"/><rect clip-path="url(#c)"/></svg>'
    )
    found = " ".join(svg_problems(bad))
    for needle in ("<clipPath>", "<text>", "<use>", "clip-path=", "x1='0'"):
        assert needle in found
    good = (
        '<svg xmlns="http://www.w3.org/2000/svg"><linearGradient id="g" x1="0%" x2="100%"/>'
        '<radialGradient id="h" gradientUnits="userSpaceOnUse" cx="5" cy="5" r="3"/></svg>'
    )
    assert svg_problems(good) == []


def test_every_svg_under_assets_uses_only_supported_features() -> None:
    files = all_svgs()
    assert len(files) >= 49
    bad = {str(p.relative_to(ASSETS)): svg_problems(p.read_text(encoding="utf-8")) for p in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_card_folder_holds_exactly_the_deck_and_the_back() -> None:
    names = sorted(p.name for p in (ASSETS / "cards").iterdir())
    expected = sorted(
        [f"{i:02d}_{code}.svg" for i, code in enumerate(CARD_CODES, 1)] + ["back.svg"]
    )
    assert names == expected
    assert card_path(1).name == "01_JAN_CRANE.svg"
    assert card_path(44).name == "44_NOV_LIGHTNING.svg"
    assert card_path(0) == back_path()
    with pytest.raises(ValueError):
        card_path(49)


def test_card_codes_match_rules_table() -> None:
    """Codes follow RULES.md §2 (cross-checked with the engine's deck when it is importable)."""
    assert len(CARD_CODES) == 48
    months = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
    for i, code in enumerate(CARD_CODES):
        assert code.startswith(months[i // 4])
    if importlib.util.find_spec("koikoi_desktop.engine") is not None:
        try:
            from koikoi_desktop.engine import DECK
        except ImportError:
            return
        assert [c.code for c in DECK] == list(CARD_CODES)


def test_generator_reproduces_committed_files(tmp_path: Path) -> None:
    """Running assets/source/draw_cards.py again writes the committed files byte for byte."""
    src = ASSETS / "source" / "draw_cards.py"
    if not src.exists():
        pytest.fail("generator script missing")
    sys.path.insert(0, str(src.parent))
    try:
        spec = importlib.util.spec_from_file_location("draw_cards_under_test", src)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.main(["--out", str(tmp_path)])
    finally:
        sys.path.remove(str(src.parent))
    for sub in ("cards", "ui/badges"):
        made = sorted(p.name for p in (tmp_path / sub).iterdir())
        have = sorted(p.name for p in (ASSETS / sub).iterdir())
        assert made == have
        for name in made:
            assert (tmp_path / sub / name).read_bytes() == (ASSETS / sub / name).read_bytes(), name


# ------------------------------------------------------------------ rasterised checks


def raster(card_id: int, size: tuple[int, int]) -> pygame.Surface:
    """Rasterise through assets.load_svg (pygame.image.load_sized_svg, exact size)."""
    return load_svg(card_path(card_id), size)


def colour_stats(surf: pygame.Surface) -> tuple[int, float, float]:
    """(distinct colours, share of the most common colour, mean luminance std-dev)."""
    data = pygame.image.tobytes(surf, "RGB")
    px = [data[i : i + 3] for i in range(0, len(data), 3)]
    counts: dict[bytes, int] = {}
    for p in px:
        counts[p] = counts.get(p, 0) + 1
    lum = [0.3 * p[0] + 0.59 * p[1] + 0.11 * p[2] for p in px]
    mean = sum(lum) / len(lum)
    var = sum((v - mean) ** 2 for v in lum) / len(lum)
    return len(counts), max(counts.values()) / len(px), var**0.5


def mean_abs_diff(a: pygame.Surface, b: pygame.Surface) -> float:
    """Mean absolute per-channel difference (0-255) of two same-sized RGB surfaces."""
    a24 = a.convert(24) if a.get_bitsize() != 24 else a
    b24 = b.convert(24) if b.get_bitsize() != 24 else b
    d1 = a24.copy()
    d1.blit(b24, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d2 = b24.copy()
    d2.blit(a24, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    c1 = pygame.transform.average_color(d1)
    c2 = pygame.transform.average_color(d2)
    return sum(c1[:3]) / 3 + sum(c2[:3]) / 3


def on_table(surf: pygame.Surface) -> pygame.Surface:
    out = pygame.Surface(surf.get_size(), depth=24)
    out.fill((31, 84, 56))
    out.blit(surf, (0, 0))
    return out


@pytest.mark.parametrize("size", [(60, 96), (400, 640)])
def test_every_card_and_the_back_is_detailed(size: tuple[int, int]) -> None:
    min_colours = 60 if size[0] == 60 else 250
    for cid in range(49):
        surf = raster(cid, size)
        assert surf.get_size() == size
        n, top_share, std = colour_stats(surf)
        assert n >= min_colours, (cid, n)
        assert top_share < 0.75, (cid, top_share)
        assert std > 12, (cid, std)


def test_corners_are_rounded_and_transparent() -> None:
    w, h = 400, 640
    for cid in range(49):
        surf = raster(cid, (w, h))
        for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (2, 3), (w - 3, h - 2)):
            assert surf.get_at((x, y)).a == 0, (cid, x, y)
        for x, y in ((w // 2, 1), (1, h // 2), (w // 2, h - 2), (w - 2, h // 2)):
            assert surf.get_at((x, y)).a == 255, (cid, x, y)


def test_every_card_differs_clearly_from_every_other() -> None:
    size = (60, 96)
    surfs = {cid: on_table(raster(cid, size)) for cid in range(49)}
    worst = min(
        ((mean_abs_diff(surfs[a], surfs[b]), a, b) for a, b in itertools.combinations(surfs, 2))
    )
    assert worst[0] > 14, worst
    # and the measure itself sees no difference between a card and itself
    assert mean_abs_diff(surfs[5], surfs[5]) == 0


# ------------------------------------------------------------------ sheet, badges, sprites


def test_deck_sheet_renders_both_variants(tmp_path: Path) -> None:
    both = render_deck_sheet(tmp_path / "both.png", card_height=96)
    bare = render_deck_sheet(tmp_path / "bare.png", card_height=96, badges=False)
    a, b = pygame.image.load(str(both)), pygame.image.load(str(bare))
    assert a.get_width() > 2 * b.get_width() - 20
    assert a.get_height() == b.get_height()
    # the right half of "both" is the badged copy: its first card differs from the bare one
    cw, ch = 60, 96
    gap = 6
    left = a.subsurface((gap, gap, cw, ch))
    right = a.subsurface((b.get_width() + gap + gap, gap, cw, ch))
    assert mean_abs_diff(on_table(left.copy()), on_table(right.copy())) > 3
    assert (
        mean_abs_diff(on_table(left.copy()), on_table(b.subsurface((gap, gap, cw, ch)).copy())) == 0
    )


def test_badge_categories_and_months() -> None:
    glyphs = [badges.card_glyph(i) for i in range(1, 49)]
    assert glyphs.count("bright") == 5
    assert glyphs.count("animal") == 9
    assert glyphs.count("ribbon_poetry") == 3
    assert glyphs.count("ribbon_blue") == 3
    assert glyphs.count("ribbon_red") == 4
    assert glyphs.count("plain") == 24
    assert [badges.card_month(i) for i in (4, 5, 44, 45)] == [1, 2, 11, 12]
    for name in {*glyphs} | {f"month_{m:02d}" for m in range(1, 13)}:
        assert (
            (ASSETS / "ui" / "badges" / (name if name.startswith("month") else f"kind_{name}"))
            .with_suffix(".svg")
            .exists()
        )


def test_badge_draws_in_the_card_corner_and_tells_cards_apart() -> None:
    card = pygame.Rect(10, 20, 120, 192)

    def badge_of(cid: int) -> pygame.Surface:
        surf = pygame.Surface((200, 260), depth=24)
        surf.fill((31, 84, 56))
        r = badges.draw_badge(surf, card, cid)
        assert card.contains(r) and r.topleft[0] < card.centerx and r.bottom < card.centery
        return surf.subsurface(r).copy()

    # month differs (plum vs pine, both plain) and category differs (same month)
    assert mean_abs_diff(badge_of(3), badge_of(7)) > 8
    seen = [badge_of(i) for i in (1, 2, 3, 5, 22, 14)]  # bright, poetry, plain ... red ribbon
    for x, y in itertools.combinations(range(len(seen)), 2):
        if badges.card_month((1, 2, 3, 5, 22, 14)[x]) == badges.card_month((1, 2, 3, 5, 22, 14)[y]):
            assert mean_abs_diff(seen[x], seen[y]) > 2
    # the category glyph alone differs in grey too (works without colour)
    glyph_imgs = []
    for name in ("bright", "animal", "ribbon_poetry", "ribbon_blue", "ribbon_red", "plain"):
        g = pygame.image.load_sized_svg(
            str(ASSETS / "ui" / "badges" / f"kind_{name}.svg"), (32, 32)
        )
        grey = pygame.transform.grayscale(on_table(g))
        glyph_imgs.append(grey)
    for x, y in itertools.combinations(glyph_imgs, 2):
        assert mean_abs_diff(x, y) > 4
    # the back has no badge
    surf = pygame.Surface((50, 50))
    assert badges.draw_badge(surf, pygame.Rect(0, 0, 40, 64), 0).width == 0


def test_card_sprites_cache_and_resize() -> None:
    sprites = CardSprites(max_sizes=2)
    a = sprites.get(1, (120, 192))
    assert a.get_size() == (120, 192)
    assert sprites.get(1, (120, 192)) is a
    sprites.get(0, (60, 96))
    sprites.get(2, (90, 144))
    assert (120, 192) not in sprites.sizes() and len(sprites.sizes()) == 2
    assert sprites.get(1, (120, 192)) is not a
    sprites.clear()
    assert sprites.sizes() == []


def test_badge_rect_scales_with_card() -> None:
    small = badges.badge_rect(pygame.Rect(0, 0, 60, 96))
    big = badges.badge_rect(pygame.Rect(0, 0, 240, 384))
    assert big.width > 3 * small.width
