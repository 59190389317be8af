"""Text drawing with the shipped fonts: one font for Latin/Cyrillic, one for Japanese.

pygame has no glyph fallback, so a label that mixes scripts ("Сосна — 松") is cut into runs of
characters, each run drawn with the first shipped font that has all its glyphs (Noto Sans first,
then Noto Sans CJK JP), and the runs are put side by side on a common baseline.

Call after ``pygame.font.init()`` (works with the dummy video driver; no display needed)::

    surf = render("Кой-кой! こいこい", 24, (240, 230, 210))
    w, h = measure("Shobu", 18, bold=True)
    lines = wrap(long_text, 16, 420)

Decisions:

* Fonts are found in ``assets/fonts`` through ``koikoi_desktop.assets.asset_root()``, else next
  to the package (repo checkout, installed wheel, PyInstaller bundle).
  When no shipped font can be opened (a broken install), pygame's default font is used so the
  game still shows something.
* ``pygame.font.Font`` objects are cached per (font, size, bold); which font draws a character is
  cached per character. ``render`` caches its surfaces (LRU, 512 entries): the returned surface
  is SHARED — ``copy()`` it before changing it (``set_alpha``, ``fill``, ...).
* Bold uses the shipped bold files (real bold faces, not pygame's synthetic emboldening).
* ``wrap`` breaks at spaces; in Japanese (no spaces) it may break between any two characters,
  except before closing punctuation and small kana and after opening brackets (basic kinsoku).
  ``\\n`` in the text forces a break.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from koikoi_desktop.assets import asset_root

if TYPE_CHECKING:  # pygame is imported lazily: nothing happens at import
    import pygame
    import pygame.freetype

Color = tuple[int, int, int] | tuple[int, int, int, int]

#: Font slots, in fallback order: (regular file, bold file).
FONT_FILES: tuple[tuple[str, str], ...] = (
    ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    ("NotoSansJP-Regular.otf", "NotoSansJP-Bold.otf"),
)
LATIN, JAPANESE = 0, 1

_NO_LINE_START = set(
    "、。，．・：；？！゛゜ー）］｝」』〉》】〕ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々…‥,.!?:;)]}»”’%"
)
_NO_LINE_END = set("（［｛「『〈《【〔([{«„“‘")

_fonts: dict[tuple[int, int, bool], pygame.font.Font] = {}
_char_slot: dict[str, int] = {}
_glyph_known: dict[tuple[int, str, bool], bool] = {}
_ft_fonts: dict[tuple[int, bool], pygame.freetype.Font | None] = {}
_RENDER_CACHE_SIZE = 512
_render_cache: OrderedDict[tuple[str, int, tuple[int, ...], bool], pygame.Surface] = OrderedDict()


@cache
def fonts_dir() -> Path:
    """The folder of the shipped fonts."""
    candidate = asset_root() / "fonts"
    if (candidate / FONT_FILES[0][0]).is_file():
        return candidate
    package = Path(__file__).resolve().parent
    roots = [package / "assets", package.parent / "assets"]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        roots.insert(0, Path(bundle) / "assets")
    for root in roots:
        if (root / "fonts" / FONT_FILES[0][0]).is_file():
            return root / "fonts"
    return package.parent / "assets" / "fonts"


def font_path(slot: int, *, bold: bool = False) -> Path:
    """The file of font ``slot`` (``LATIN`` or ``JAPANESE``)."""
    return fonts_dir() / FONT_FILES[slot][1 if bold else 0]


@cache
def font_file_ok(path: Path) -> bool:
    """Whether ``path`` looks like a whole, undamaged TrueType/OpenType file.

    Decision: SDL_ttf opens a truncated or corrupted font without complaint and then crashes the
    whole process (a segmentation fault, no message) on the first metrics call. So before a
    file reaches pygame, its table directory is read, every table must lie inside the file, and
    every table but the glyph outlines has its checksum verified (the sfnt format stores one per
    table; skipping the outlines, 90% of the bytes, keeps this to a few ms for the four shipped
    fonts). A file that fails is not used; pygame's default font stands in.
    """
    import array
    import struct

    try:
        data = Path(path).read_bytes()
    except OSError:
        return False
    if len(data) < 12 or data[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        return False
    (count,) = struct.unpack(">H", data[4:6])
    if count == 0 or 12 + 16 * count > len(data):
        return False
    for i in range(count):
        tag, check, offset, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if offset + length > len(data):
            return False
        if tag in (b"glyf", b"CFF ", b"CFF2"):  # the outlines: 90% of the bytes, read lazily
            continue
        chunk = data[offset : offset + length]
        words = array.array("I")
        words.frombytes(chunk + b"\0" * (-len(chunk) % 4))
        if sys.byteorder == "little":
            words.byteswap()
        total = sum(words)
        if tag == b"head" and length >= 12:  # its checksum leaves out checkSumAdjustment
            total -= int.from_bytes(data[offset + 8 : offset + 12], "big")
        if total & 0xFFFFFFFF != check:
            return False
    return True


def get_font(slot: int, size: int, *, bold: bool = False) -> pygame.font.Font:
    """The cached ``pygame.font.Font`` of a slot at a pixel size."""
    import pygame

    size = max(1, int(size))
    key = (slot, size, bold)
    font = _fonts.get(key)
    if font is None:
        if not pygame.font.get_init():
            pygame.font.init()
        path = font_path(slot, bold=bold)
        try:
            if not font_file_ok(path):
                raise OSError(f"damaged or missing font file {path}")
            font = pygame.font.Font(os.fspath(path), size)
        except (OSError, FileNotFoundError, pygame.error):
            font = pygame.font.Font(None, size)
            font.bold = bold
        _fonts[key] = font
    return font


def slot_for(char: str) -> int:
    """Which font draws ``char``: the first slot whose font has its glyph (else ``LATIN``)."""
    slot = _char_slot.get(char)
    if slot is None:
        slot = LATIN
        if not char.isspace():
            for candidate in range(len(FONT_FILES)):
                if has_glyph(candidate, char):
                    slot = candidate
                    break
        _char_slot[char] = slot
    return slot


def has_glyph(slot: int, char: str, *, bold: bool = False) -> bool:
    """Whether font ``slot`` has a real glyph for ``char`` (not the .notdef box).

    ``pygame.font.Font.metrics`` reports the box's metrics for a missing glyph, so this asks
    ``pygame.freetype``, whose ``get_metrics`` gives None for a character the font lacks.
    """
    key = (slot, char, bold)
    known = _glyph_known.get(key)
    if known is None:
        font = _ft_font(slot, bold)
        metrics = font.get_metrics(char) if font is not None else None
        known = metrics is not None and len(metrics) > 0 and metrics[0] is not None
        _glyph_known[key] = known
    return known


def _ft_font(slot: int, bold: bool) -> pygame.freetype.Font | None:
    """The freetype face of a slot, for glyph checks only (None when the file cannot be read)."""
    import pygame.freetype

    key = (slot, bold)
    if key not in _ft_fonts:
        try:
            if not pygame.freetype.get_init():
                pygame.freetype.init()
            path = font_path(slot, bold=bold)
            if not font_file_ok(path):
                raise OSError(f"damaged or missing font file {path}")
            _ft_fonts[key] = pygame.freetype.Font(os.fspath(path), 16)
        except (OSError, pygame.error):
            _ft_fonts[key] = None
    return _ft_fonts[key]


def missing_glyphs(text: str) -> list[str]:
    """The characters of ``text`` that no shipped font draws, regular or bold (empty: all do)."""
    out: list[str] = []
    for ch in dict.fromkeys(text):
        if ch.isspace():
            continue
        slot = slot_for(ch)
        if not (has_glyph(slot, ch) and has_glyph(slot, ch, bold=True)):
            out.append(ch)
    return out


def runs(text: str) -> Iterator[tuple[int, str]]:
    """Split ``text`` into (slot, substring) runs.

    An ASCII space is always drawn by the Latin font (the Japanese font's space is much narrower,
    so "鶴 · Matsu" would look cramped); other characters go to ``slot_for``.
    """
    current: int | None = None
    start = 0
    for i, ch in enumerate(text):
        slot = LATIN if ch == " " else slot_for(ch)
        if slot != current:
            if current is not None:
                yield current, text[start:i]
            current, start = slot, i
    if current is not None:
        yield current, text[start:]


def line_metrics(size: int, *, bold: bool = False) -> tuple[int, int]:
    """(ascent, height) of one line at ``size`` that fits every slot's font on one baseline."""
    fonts = [get_font(slot, size, bold=bold) for slot in range(len(FONT_FILES))]
    ascent = max(f.get_ascent() for f in fonts)
    descent = max(f.get_height() - f.get_ascent() for f in fonts)
    return ascent, ascent + descent


def line_height(size: int, *, bold: bool = False) -> int:
    """Height of one line of text at ``size`` (use it to stack lines from ``wrap``)."""
    return line_metrics(size, bold=bold)[1]


def measure(text: str, size: int, *, bold: bool = False) -> tuple[int, int]:
    """(width, height) of ``text`` drawn on one line by ``render``."""
    width = sum(get_font(slot, size, bold=bold).size(part)[0] for slot, part in runs(text))
    return width, line_height(size, bold=bold)


def render(text: str, size: int, color: Color, *, bold: bool = False) -> pygame.Surface:
    """``text`` on one line as a transparent surface (SHARED, cached: ``copy()`` to modify)."""
    key = (text, int(size), tuple(color), bold)
    cached = _render_cache.get(key)
    if cached is not None:
        _render_cache.move_to_end(key)
        return cached
    surface = _render_uncached(text, size, color, bold=bold)
    _render_cache[key] = surface
    if len(_render_cache) > _RENDER_CACHE_SIZE:
        _render_cache.popitem(last=False)
    return surface


def _render_uncached(text: str, size: int, color: Color, *, bold: bool) -> pygame.Surface:
    import pygame

    ascent, height = line_metrics(size, bold=bold)
    parts: list[tuple[pygame.Surface, int]] = []
    width = 0
    for slot, part in runs(text):
        font = get_font(slot, size, bold=bold)
        img = font.render(part, True, color)
        parts.append((img, ascent - font.get_ascent()))
        width += font.size(part)[0]
    surface = pygame.Surface((max(1, width), height), pygame.SRCALPHA)
    x = 0
    for img, y in parts:
        surface.blit(img, (x, y))
        x += img.get_width()
    return surface


def _tokens(text: str) -> list[str]:
    """Break opportunities: words with their trailing spaces; each CJK character alone."""
    out: list[str] = []
    word = ""
    for ch in text:
        cjk = slot_for(ch) == JAPANESE or "\u3000" <= ch <= "\u9fff"
        if cjk:
            if ch in _NO_LINE_START and (word or out):
                word += ch  # stays with the previous character
                continue
            if word and word[-1] not in _NO_LINE_END:
                out.append(word)
                word = ""
            word += ch
        elif ch == " ":
            word += ch
            out.append(word)
            word = ""
        else:
            if word and (
                word[-1] == " "
                or (
                    slot_for(word[-1]) == JAPANESE
                    and word[-1] not in _NO_LINE_END
                    and ch not in _NO_LINE_START
                )
            ):
                out.append(word)
                word = ""
            word += ch
    if word:
        out.append(word)
    return out


def wrap(text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    """Lines of ``text`` that each fit in ``width`` pixels at ``size`` (``\\n`` forces a break).

    A word longer than ``width`` is cut between characters. Trailing spaces are dropped.
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for token in _tokens(paragraph):
            candidate = line + token
            if not line or measure(candidate.rstrip(), size, bold=bold)[0] <= width:
                line = candidate
                if measure(line.rstrip(), size, bold=bold)[0] > width:
                    line = _cut_long(line, size, width, bold, lines)
                continue
            lines.append(line.rstrip())
            line = token.lstrip() if token.strip() else ""
            if measure(line.rstrip(), size, bold=bold)[0] > width:
                line = _cut_long(line, size, width, bold, lines)
        lines.append(line.rstrip())
    return lines


def _cut_long(word: str, size: int, width: int, bold: bool, lines: list[str]) -> str:
    """Append full-width pieces of an over-long ``word`` to ``lines``; return the remainder."""
    piece = ""
    for ch in word:
        if piece and measure((piece + ch).rstrip(), size, bold=bold)[0] > width:
            lines.append(piece.rstrip())
            piece = ""
        piece += ch
    return piece


def clear_caches() -> None:
    """Forget fonts and rendered surfaces (e.g. after ``pygame.font.quit()``)."""
    _fonts.clear()
    _char_slot.clear()
    _glyph_known.clear()
    _ft_fonts.clear()
    _render_cache.clear()
