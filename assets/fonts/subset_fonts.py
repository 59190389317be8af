"""Make the small fonts the game ships from the full Noto fonts (run by hand, output committed).

Why: a full Noto Sans CJK collection is ~20 MB per weight. The game needs Latin (English, Slovak),
Cyrillic (Ukrainian ї є ґ і, Russian) and Japanese (kana, the kanji of our catalogs). This script
keeps, per weight:

* ``NotoSans-{Regular,Bold}.ttf`` (Noto Sans, from Debian ``fonts-noto-core``): Latin, Latin-1,
  Latin Extended-A/B, combining marks, Greek, Cyrillic (+ supplement), general punctuation,
  currency, letter-like symbols, arrows, maths operators, geometric shapes the font has.
* ``NotoSansJP-{Regular,Bold}.otf`` (Noto Sans CJK JP, face 0 of Debian ``fonts-noto-cjk``'s
  ``NotoSansCJK-*.ttc``): ASCII, CJK punctuation, hiragana, katakana, full/half-width forms, all
  2,965 JIS X 0208 level-1 kanji (the everyday kanji, so new Japanese text rarely needs a re-run),
  and every character used by ``koikoi_desktop/i18n/*.json``.

Both fonts are under the SIL Open Font License 1.1 (``OFL.txt`` beside this script); subsetting
is a "Modified Version" the licence allows; neither font has a Reserved Font Name we use.

Run after adding Japanese text with rare kanji (``tests/ui/test_i18n.py`` says when)::

    apt-get install -y fonts-noto-core fonts-noto-cjk && pip install fonttools
    python assets/fonts/subset_fonts.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

HERE = Path(__file__).resolve().parent
CATALOGS = HERE.parent.parent / "koikoi_desktop" / "i18n"
NOTO_CORE = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto")

LATIN_RANGES = [
    (0x0020, 0x007E),
    (0x00A0, 0x024F),
    (0x0250, 0x02FF),
    (0x0300, 0x036F),
    (0x0370, 0x03FF),
    (0x0400, 0x052F),
    (0x1E00, 0x1EFF),
    (0x2000, 0x206F),
    (0x20A0, 0x20CF),
    (0x2100, 0x214F),
    (0x2150, 0x218F),
    (0x2190, 0x21FF),
    (0x2200, 0x22FF),
    (0x25A0, 0x25FF),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0xFB00, 0xFB06),
    (0xFFFD, 0xFFFD),
]
JAPANESE_RANGES = [
    (0x0020, 0x007E),
    (0x00A0, 0x00FF),
    (0x2010, 0x2027),
    (0x2030, 0x203B),
    (0x2190, 0x2193),
    (0x25A0, 0x25FF),
    (0x2605, 0x2606),
    (0x3000, 0x303F),
    (0x3040, 0x309F),
    (0x30A0, 0x30FF),
    (0x31F0, 0x31FF),
    (0xFF00, 0xFFEF),
]


def jis_level1_kanji() -> set[int]:
    """The 2,965 kanji of JIS X 0208 level 1 (rows 16-47), decoded through EUC-JP."""
    out: set[int] = set()
    for row in range(16, 48):
        for cell in range(1, 95):
            try:
                ch = bytes([0xA0 + row, 0xA0 + cell]).decode("euc_jp")
            except UnicodeDecodeError:
                continue
            out.add(ord(ch))
    return out


def catalog_chars() -> set[int]:
    chars: set[int] = set()
    for path in sorted(CATALOGS.glob("*.json")):
        for value in json.loads(path.read_text(encoding="utf-8")).values():
            chars.update(ord(c) for c in value)
    return chars


def expand(ranges: list[tuple[int, int]]) -> set[int]:
    return {cp for lo, hi in ranges for cp in range(lo, hi + 1)}


def subset_font(font: TTFont, unicodes: set[int], out: Path) -> None:
    cmap = font.getBestCmap()
    wanted = sorted(cp for cp in unicodes if cp in cmap)
    options = subset.Options()
    options.layout_features = ["kern", "liga", "locl", "ccmp", "mark", "mkmk", "vert", "palt"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False  # FreeType's auto-hinter does well; hints are a large share of size
    options.desubroutinize = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    font.save(out)
    print(f"{out.name}: {len(wanted)} characters, {out.stat().st_size / 1024:.0f} KiB")


def main() -> int:
    latin = expand(LATIN_RANGES) | {c for c in catalog_chars() if c < 0x2E80}
    japanese = expand(JAPANESE_RANGES) | jis_level1_kanji() | catalog_chars()
    for weight in ("Regular", "Bold"):
        subset_font(
            TTFont(NOTO_CORE / f"NotoSans-{weight}.ttf"), latin, HERE / f"NotoSans-{weight}.ttf"
        )
        collection = TTCollection(NOTO_CJK / f"NotoSansCJK-{weight}.ttc")
        jp = collection.fonts[0]
        assert jp["name"].getDebugName(1).startswith("Noto Sans CJK JP"), "face 0 is not JP"
        subset_font(jp, japanese, HERE / f"NotoSansJP-{weight}.otf")
    return 0


if __name__ == "__main__":
    sys.exit(main())
