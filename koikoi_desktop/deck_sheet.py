"""Render the whole deck into one PNG sheet, to look at the card art (and its badges) at once.

``python -m koikoi_desktop.deck_sheet OUT.png [--height N] [--no-badges]``, or from the game,
``python -m koikoi_desktop --render-deck OUT.png``.

Layout: two months per row (eight cards), six rows, then the card back; each card is labelled
with its id.  With ``badges="both"`` (the default) the sheet holds two such blocks side by side:
the bare art on the left and the same cards with their learn-the-suit badges on the right.

The function is self-sufficient: it needs no window (SVG rasterising and PNG saving work without
a display mode), and initialises pygame's font module itself.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Literal

TABLE_GREEN = (31, 84, 56)
LABEL = (220, 228, 210)


def render_deck_sheet(
    path: str | os.PathLike[str], *, card_height: int = 192, badges: bool | Literal["both"] = "both"
) -> Path:
    """Write the deck sheet PNG to ``path`` and return the path.

    ``badges``: ``False`` bare art only, ``True`` with badges only, ``"both"`` side by side.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from koikoi_desktop.assets import CardSprites, card_size_for_height
    from koikoi_desktop.ui.badges import draw_badge

    if not pygame.font.get_init():
        pygame.font.init()
    cw, ch = card_size_for_height(card_height)
    gap = max(4, card_height // 16)
    label_h = max(10, card_height // 12)
    font = pygame.font.Font(None, max(10, label_h + 2))
    cols, rows = 8, 7  # 6 rows of two months, one row for the back
    block_w = cols * (cw + gap) + gap
    block_h = rows * (ch + gap + label_h) + gap
    variants = [False, True] if badges == "both" else [bool(badges)]
    sheet = pygame.Surface((block_w * len(variants) + gap * (len(variants) - 1), block_h))
    sheet.fill(TABLE_GREEN)
    sprites = CardSprites()
    for b, with_badges in enumerate(variants):
        ox = b * (block_w + gap)
        for idx, cid in enumerate([*range(1, 49), 0]):
            col, row = idx % cols, idx // cols
            x = ox + gap + col * (cw + gap)
            y = gap + row * (ch + gap + label_h)
            rect = pygame.Rect(x, y, cw, ch)
            sheet.blit(sprites.get(cid, (cw, ch)), rect)
            if with_badges:
                draw_badge(sheet, rect, cid)
            text = font.render("back" if cid == 0 else str(cid), True, LABEL)
            sheet.blit(text, text.get_rect(midtop=(rect.centerx, rect.bottom + 1)))
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(sheet, str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m koikoi_desktop.deck_sheet",
        description="Render all 48 cards and the back into one PNG.",
    )
    ap.add_argument("out", help="PNG file to write")
    ap.add_argument("--height", type=int, default=192, help="card height in pixels (192)")
    ap.add_argument("--no-badges", action="store_true", help="only the bare card art")
    ns = ap.parse_args(argv)
    out = render_deck_sheet(ns.out, card_height=ns.height, badges=False if ns.no_badges else "both")
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
