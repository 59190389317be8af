"""Where everything sits on the table, for any window size (recomputed on resize).

The bottom seat is the viewer (the human, or the player whose turn it is in hot seat); the top
seat is the opponent. Bands from the top: header, opponent (hand + capture pile), the turn
banner's strip, field (draw pile, revealed card, field slots in two rows), viewer's capture
pile, viewer's hand. A capture band has two caption lines per group (category and count; the
yaku it is closest to) above its cards. A sidebar
on the right holds the yaku tracker and the move log. Card height follows the window height,
limited so eight hand cards and the field always fit the width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from koikoi_desktop.engine.facts import CARD_KINDS

CARD_RATIO = 0.625  # width / height (ART.md: viewBox 200 x 320)
GROUPS = CARD_KINDS
GROUP_SHARE = (0.19, 0.25, 0.25, 0.31)
#: How far apart the opponent's face-down hand cards sit (a share of a small card's width).
OPP_STEP = 0.45


@dataclass
class TableLayout:
    """Rects of a table of ``size`` pixels. Build with :func:`compute`."""

    size: tuple[int, int]
    scale: float
    header: pygame.Rect
    sidebar: pygame.Rect
    main: pygame.Rect
    card: tuple[int, int]
    small: tuple[int, int]
    opp_band: pygame.Rect
    opp_hand: pygame.Rect
    opp_caps: dict[str, pygame.Rect]
    field_band: pygame.Rect
    pile: pygame.Rect
    reveal: pygame.Rect
    field_area: pygame.Rect
    my_caps: dict[str, pygame.Rect]
    my_band: pygame.Rect
    hand_area: pygame.Rect
    message: pygame.Rect
    lift: int
    gap: int
    #: Distance between the opponent's hand cards, in small-card widths (OPP_STEP: overlapping
    #: backs at the table; more than 1: side by side, readable, in a review's open hands).
    opp_step: float = OPP_STEP
    #: The turn banner's strip (whose turn, which step), between the opponent and the field.
    turn: pygame.Rect = field(default_factory=pygame.Rect)
    #: Height of a capture group's caption (category and count) and of its "close to" line.
    caption: int = 18
    near: int = 14
    field_cache: dict[int, list[pygame.Rect]] = field(default_factory=dict)

    def field_slots(self, n: int) -> list[pygame.Rect]:
        """Rects of ``n`` field slots (at least 16; two rows, columns added as needed)."""
        n = max(16, n + (n % 2))
        if n in self.field_cache:
            return self.field_cache[n]
        cols = n // 2
        cw, ch = self.card
        area = self.field_area
        step = min(cw + self.gap, (area.w - cw) / max(1, cols - 1))
        total_w = step * (cols - 1) + cw
        x0 = area.x + (area.w - total_w) / 2
        row_gap = max(self.gap, (area.h - 2 * ch) // 3)
        y0 = area.y + (area.h - 2 * ch - row_gap) // 2
        out = []
        for i in range(n):
            col, row = i // 2, i % 2
            out.append(pygame.Rect(round(x0 + col * step), y0 + row * (ch + row_gap), cw, ch))
        self.field_cache[n] = out
        return out

    def hand_slots(self, n: int, *, top: bool = False) -> list[pygame.Rect]:
        """Rects of ``n`` hand cards, centred (the opponent's are small and overlapping)."""
        if n <= 0:
            return []
        if top:
            cw, ch = self.small
            area = self.opp_hand
            step = min(cw * self.opp_step, (area.w - cw) / max(1, n - 1))
        else:
            cw, ch = self.card
            area = self.hand_area
            step = min(cw + self.gap, (area.w - cw) / max(1, n - 1))
        total = step * (n - 1) + cw
        x0 = area.x + (area.w - total) / 2 if not top else area.x
        y = area.y + (area.h - ch) // 2 if top else area.bottom - ch
        return [pygame.Rect(round(x0 + i * step), y, cw, ch) for i in range(n)]

    def cap_slots(self, group: str, n: int, *, top: bool) -> list[pygame.Rect]:
        """Rects of ``n`` captured cards of ``group`` (overlapping left to right)."""
        area = (self.opp_caps if top else self.my_caps)[group]
        cw, ch = self.small
        if n <= 0:
            return []
        step = min(cw * 0.5, (area.w - cw) / max(1, n - 1))
        y = area.bottom - ch
        return [pygame.Rect(round(area.x + i * step), y, cw, ch) for i in range(n)]


def compute(
    size: tuple[int, int], ui_scale: float = 1.0, *, open_hand: bool = False
) -> TableLayout:
    """The layout for a window of ``size`` at UI scale ``ui_scale`` (1.0 = normal).

    ``open_hand``: the opponent's hand is shown face up (the match review), so its eight small
    cards sit side by side, readable, and its capture groups take the rest of the band."""
    w, h = size
    s = min(w / 1280, h / 800) * ui_scale
    gap = max(6, round(8 * s))
    header = pygame.Rect(0, 0, w, max(30, round(38 * s)))
    side_w = max(round(250 * s), round(w * 0.22))
    sidebar = pygame.Rect(w - side_w, header.bottom, side_w, h - header.bottom)
    main = pygame.Rect(0, header.bottom, w - side_w, h - header.bottom)
    caption = max(16, round(20 * s))
    # the "close to" line: its text's own height plus room for a last-move outline (a few
    # pixels around the pile's cards) below it
    near = max(20, round(22 * s) + 3)
    turn_h = max(24, round(32 * s))
    # card height: by height share, limited by width (pile + reveal + 8 field columns)
    ch = min(h * 0.17 * ui_scale, (main.w - 3 * gap) / (10.4 * CARD_RATIO + 0.12), h * 0.2)
    ch = int(ch)
    cw = round(ch * CARD_RATIO)
    sh = round(ch * 0.56)
    sw = round(sh * CARD_RATIO)
    lift = round(ch * 0.14)
    # vertical bands
    band_small = sh + caption + near
    fixed = band_small * 2 + ch + lift + 2 * ch + 6 * gap + turn_h
    spare = max(0, main.h - fixed)
    y = main.y + gap + spare // 8
    opp_band = pygame.Rect(main.x + gap, y, main.w - 2 * gap, band_small)
    y = opp_band.bottom + gap // 2 + spare // 16
    turn = pygame.Rect(main.x + gap, y, main.w - 2 * gap, turn_h)
    y = turn.bottom + gap // 2 + spare // 16
    field_h = 2 * ch + gap * 2 + spare // 4
    field_band = pygame.Rect(main.x + gap, y, main.w - 2 * gap, field_h)
    y = field_band.bottom + gap + spare // 8
    my_band = pygame.Rect(main.x + gap, y, main.w - 2 * gap, band_small)
    y = my_band.bottom + gap
    hand_area = pygame.Rect(main.x + gap, y, main.w - 2 * gap, main.bottom - y - gap)
    # opponent: hand on the left, capture groups to the right
    opp_step = (sw + max(3, gap // 2)) / sw if open_hand else OPP_STEP
    opp_hand = pygame.Rect(
        opp_band.x, opp_band.y + caption + near, round(sw * (1 + opp_step * 7)), sh
    )
    opp_caps = _groups(
        pygame.Rect(
            opp_hand.right + 3 * gap,
            opp_band.y,
            opp_band.right - opp_hand.right - 3 * gap,
            band_small,
        )
    )
    my_caps = _groups(my_band)
    pile = pygame.Rect(field_band.x, field_band.centery - ch // 2, cw, ch)
    reveal = pygame.Rect(pile.right + gap, pile.y, cw, ch)
    field_area = pygame.Rect(
        reveal.right + 2 * gap,
        field_band.y,
        field_band.right - reveal.right - 2 * gap,
        field_band.h,
    )
    message = pygame.Rect(main.x, my_band.y - caption - gap // 2, main.w, caption + gap)
    return TableLayout(
        size=size,
        scale=s,
        header=header,
        sidebar=sidebar,
        main=main,
        card=(cw, ch),
        small=(sw, sh),
        opp_band=opp_band,
        opp_hand=opp_hand,
        opp_caps=opp_caps,
        field_band=field_band,
        pile=pile,
        reveal=reveal,
        field_area=field_area,
        my_caps=my_caps,
        my_band=my_band,
        hand_area=hand_area,
        message=message,
        lift=lift,
        gap=gap,
        opp_step=opp_step,
        turn=turn,
        caption=caption,
        near=near,
    )


def _groups(area: pygame.Rect) -> dict[str, pygame.Rect]:
    out: dict[str, pygame.Rect] = {}
    x = float(area.x)
    gap = 10
    usable = area.w - gap * (len(GROUPS) - 1)
    for name, share in zip(GROUPS, GROUP_SHARE, strict=True):
        gw = usable * share
        out[name] = pygame.Rect(round(x), area.y, math.floor(gw), area.h)
        x += gw + gap
    return out
