"""The round summary: who won and how, the cards behind each yaku, and the full arithmetic.

Shows the ledger entry of RULES.md §11 (base, each multiplier, final, the amount paid, both
balances) and both capture piles grouped by category, with the cards of each scored yaku outlined
(and marked with a dot, so it reads without colour).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pygame

from koikoi_desktop.engine import LedgerEntry, Match, RoundState, Rules, match_record
from koikoi_desktop.names import end_text, factor_text, instant_name, unit_heading, yaku_name
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.cards import KIND_ORDER, card_surface, kind_of
from koikoi_desktop.ui.input import Intent
from koikoi_desktop.ui.widgets import Label

AUTO_CONTINUE = 2.0
#: The heights (at scale 1) the summary's cards may take: the largest that fills the window.
CARD_HEIGHTS = (56, 70, 92, 116, 150)


class RoundSummaryScene(MenuScene):
    """Pushed by the table at the end of each round; Continue (Enter) returns to it."""

    name = "round-summary"

    def __init__(
        self,
        app: AppServices,
        *,
        entry: LedgerEntry,
        round_state: RoundState | None = None,
        names: Sequence[str] = ("", ""),
        rules: Rules | None = None,
        match: Match | None = None,
        autoplay: bool = False,
        viewer: int = 0,
    ) -> None:
        super().__init__(app)
        self.entry = entry
        self.round_state = round_state
        self.names = names
        self.rules = rules
        self.match = match
        self.autoplay = autoplay
        self.viewer = viewer
        self.left = AUTO_CONTINUE
        self._static: tuple[tuple[object, ...], pygame.Surface] | None = None

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return [
            (lambda: gfx.tr("ui.common.continue"), self.on_back, True),
            (lambda: gfx.tr("ui.summary.review"), self.review, False),
        ]

    def menu_top(self) -> int:
        return self.size[1] - int(70 * self.scale)

    def build(self) -> None:
        """Continue and Review this round side by side (the piles need the height)."""
        super().build()
        s = self.scale
        gap = int(16 * s)
        total = sum(b.rect.w for b in self.buttons) + gap * (len(self.buttons) - 1)
        x = self.size[0] // 2 - total // 2
        for b in self.buttons:
            b.rect.topleft = (x, self.menu_top())
            x += b.rect.w + gap

    def review(self) -> None:
        """This round replayed move by move, both hands open, each decision judged (R)."""
        if self.match is None or self.entry is None:
            return
        self.app.stack.push(
            self.app.screens.review(
                record=match_record(self.match),
                names=self.names,
                viewer=self.viewer,
                start_round=self.entry.round,
                rounds=[self.entry.round],
                settled_only=True,
            )
        )

    def handle(self, intent: Intent) -> None:
        if intent.letter == "r":
            self.review()
            return
        super().handle(intent)

    def still_for(self) -> float:
        """Only an autoplay run's countdown moves here; a person's screen waits for input."""
        return 0.0 if self.autoplay else math.inf

    def update(self, dt: float) -> None:
        if self.autoplay:
            self.left -= dt
            if self.left <= 0:
                self.on_back()

    def unit(self) -> str:
        return unit_heading(self.rules.unit if self.rules is not None else "points")

    def title_text(self) -> str:
        e = self.entry
        if e.winner is None:
            return gfx.tr("ui.summary.no_winner", n=e.round)
        return gfx.tr_person("ui.summary.winner", self.names[e.winner], n=e.round)

    def arithmetic(self) -> list[str]:
        e = self.entry
        lines = [gfx.tr("ui.summary.ended", reason=end_text(e.end))]
        if e.winner is None:
            lines.append(gfx.tr("ui.summary.nothing_paid"))
        else:
            if e.instant:
                lines.append(
                    gfx.tr("ui.summary.instant", kind=instant_name(e.instant), value=e.base)
                )
            parts = [gfx.tr("ui.summary.base", n=e.base)]
            parts += [f"× {f} ({factor_text(name, f)})" for name, f in e.factors]
            lines.append(" ".join(parts) + f" = {e.final}")
            coins = getattr(self.rules, "unit", "points") == "coins"
            key = "ui.summary.paid_coins" if coins else "ui.summary.paid_points"
            lines.append(gfx.tr_person(key, self.names[e.winner], n=e.paid))
        lines.append(
            gfx.tr(
                "ui.summary.balances",
                a=self.names[0],
                x=e.balances[0],
                b=self.names[1],
                y=e.balances[1],
                unit=self.unit(),
            )
        )
        return lines

    def tally(self) -> list[tuple[str, tuple[int, ...], str]]:
        """The score as a column of rows (label, cards, number): each yaku with its cards and
        points (or the instant win with the hand), the base, each multiplier, the round's
        total. Empty for a round nobody won."""
        e = self.entry
        st = self.round_state
        if e.winner is None:
            return []
        rows: list[tuple[str, tuple[int, ...], str]] = []
        if e.instant:
            hand = tuple(sorted(st.hand(e.winner))) if st is not None else ()
            rows.append((instant_name(e.instant), hand, str(e.base)))
        elif st is not None:
            rows += [(yaku_name(y.key), tuple(y.cards), str(y.points)) for y in st.yaku(e.winner)]
        else:
            rows += [(yaku_name(item[0]), (), str(item[1])) for item in e.yaku]
        if e.factors:
            rows.append((gfx.tr("ui.summary.tally_base"), (), str(e.base)))
            rows += [(factor_text(name, f), (), f"× {f}") for name, f in e.factors]
        rows.append((gfx.tr("ui.summary.tally_total"), (), str(e.final)))
        return rows

    def draw_static(self, surface: pygame.Surface) -> None:
        """Title; the tally (each yaku with its cards and points, the multipliers, the total)
        in a centred column whose cards grow to fill the window; how it ended and what was
        paid; both capture piles, the yaku cards outlined."""
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        s = self.scale
        e = self.entry
        st = self.round_state
        gfx.blit_text(
            surface,
            self.title_text(),
            theme.font_px(34, s),
            (w // 2, int(18 * s)),
            anchor="midtop",
            bold=True,
            color=theme.OCHRE,
            max_width=w - 40,
        )
        top = int(18 * s) + int(theme.font_px(34, s) * 1.5)
        bottom = self.menu_top() - int(12 * s)
        fs = theme.font_px(21, s)
        lh = int(fs * 1.5)
        rows = self.tally()
        card_rows = [r for r in rows if r[1]]
        text_rows = len(rows) - len(card_rows)
        notes = self.arithmetic_notes()
        piles = st is not None
        # card height: what fills the height left after the text, within bounds
        fixed = text_rows * lh + len(notes) * lh + int(40 * s) + (2 * lh if piles else 0)
        share = len(card_rows) + (2 * 0.62 if piles else 0)
        ch = int((bottom - top - fixed) / max(1.0, share) - 10 * s)
        # a few fixed heights only (each size is rasterised and cached, as the table's are)
        ladder = [int(v * s) for v in CARD_HEIGHTS]
        ch = max([v for v in ladder if v <= ch] or ladder[:1])
        col_w = min(w - int(60 * s), max(int(900 * s), int(w * 0.78)))
        num_w = int(110 * s)
        name_w = min(int(col_w * 0.32), int(380 * s))
        most = max((len(r[1]) for r in card_rows), default=1)
        cw = round(ch * 0.625)
        room = col_w - name_w - num_w - int(20 * s)
        while most * (cw + 6) > room and ch > ladder[0]:  # many cards: smaller, on one row
            ch = max([v for v in ladder if v < ch] or ladder[:1])
            cw = round(ch * 0.625)
        # the capture piles: the largest fixed height that still fits below the tally
        above = sum(ch + int(10 * s) if r[1] else lh for r in rows) + len(notes) * lh
        above += int(24 * s)
        room_h = (bottom - top - above) // 2 - lh - int(10 * s)
        n_caps = max((len(st.captured(p)) for p in (0, 1)), default=0) if st is not None else 0
        piles_w = w - int(60 * s)
        fits = [
            v
            for v in (int(x * 0.62) for x in ladder)
            if v <= room_h and round(v * 0.625) * (0.72 * n_caps + 2.5) <= piles_w
        ]
        sh = max(fits or [int(ladder[0] * 0.62)])
        sw = round(sh * 0.625)
        total = above + ((sh + lh + int(10 * s)) * 2 if piles else 0)
        y = top + max(0, (bottom - top - total) // 2)
        x0 = (w - col_w) // 2
        yaku_cards: set[int] = set()
        last = len(rows) - 1
        for i, (label, cards, number) in enumerate(rows):
            row_h = ch + int(10 * s) if cards else lh
            cy = y + row_h // 2
            is_total = i == last
            if is_total or (not cards and i > 0 and rows[i - 1][1]):
                pygame.draw.line(surface, theme.PANEL_EDGE, (x0, y), (x0 + col_w, y), 2)
            gfx.blit_text(
                surface,
                label,
                fs,
                (x0, cy),
                anchor="midleft",
                bold=is_total,
                color=theme.OCHRE if is_total else theme.PAPER,
                max_width=name_w + (room if not cards else 0),
            )
            x = x0 + name_w
            for c in cards:
                surface.blit(card_surface(self.app, c, (cw, ch)), (x, y + int(5 * s)))
                yaku_cards.add(c)
                x += cw + 6
            gfx.blit_text(
                surface,
                number,
                theme.font_px(26 if is_total else 22, s),
                (x0 + col_w, cy),
                anchor="midright",
                bold=True,
                color=theme.OCHRE if is_total else theme.PAPER,
            )
            y += row_h
        y += int(12 * s)
        for line in notes:
            gfx.blit_text(surface, line, fs, (w // 2, y), anchor="midtop", max_width=col_w)
            y += lh
        y += int(12 * s)
        if st is None:
            return
        for p in (self.viewer, 1 - self.viewer):
            caps = sorted(st.captured(p), key=lambda c: (KIND_ORDER.index(kind_of(c)), c))
            step = int(sw * 0.72)
            width = step * max(0, len(caps) - 1) + sw + (sw // 2) * 3
            x = (w - width) // 2
            gfx.blit_text(
                surface,
                self.names[p],
                theme.font_px(17, s),
                (w // 2, y),
                anchor="midtop",
                bold=True,
                color=theme.MUTED,
            )
            y += lh
            last_kind = None
            for c in caps:
                if last_kind is not None and kind_of(c) != last_kind:
                    x += sw // 2
                last_kind = kind_of(c)
                r = pygame.Rect(x, y, sw, sh)
                surface.blit(card_surface(self.app, c, (sw, sh)), r)
                if p == e.winner and c in yaku_cards:
                    pygame.draw.rect(
                        surface, theme.OCHRE, r.inflate(4, 4), width=3, border_radius=4
                    )
                    pygame.draw.circle(surface, theme.PAPER, (r.centerx, r.bottom + 6), 3)
                x += step
            y += sh + int(10 * s)

    def arithmetic_notes(self) -> list[str]:
        """The lines under the tally: how the round ended, what was paid, the balances."""
        lines = self.arithmetic()
        e = self.entry
        if e.winner is None:
            return lines
        # the tally shows the instant win and the base-times-factors line already
        keep = [lines[0]]
        keep += lines[-2:]
        return keep

    def draw(self, surface: pygame.Surface) -> None:
        """The text and cards do not change while the screen is up: render them once."""
        key = (surface.get_size(), gfx.tr("ui.common.continue"))
        cached = self._static
        if cached is None or cached[0] != key:
            layer = surface.copy()
            self.draw_static(layer)
            cached = self._static = (key, layer)
        surface.blit(cached[1], (0, 0))
        self.focus.draw(surface, font=theme.font_px(21, self.scale))
