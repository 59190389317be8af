"""The round summary: who won and how, the cards behind each yaku, and the full arithmetic.

Shows the ledger entry of RULES.md §11 (base, each multiplier, final, the amount paid, both
balances) and both capture piles grouped by category, with the cards of each scored yaku outlined
(and marked with a dot, so it reads without colour).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


class RoundSummaryScene(MenuScene):
    """Pushed by the table at the end of each round; Continue (Enter) returns to it."""

    name = "round-summary"

    def __init__(
        self,
        app: AppServices,
        *,
        entry: LedgerEntry,
        round_state: RoundState | None = None,
        names: tuple[str, str] = ("", ""),
        rules: Rules | None = None,
        match: Match | None = None,
        autoplay: bool = False,
        viewer: int = 0,
        **kwargs: Any,
    ) -> None:
        super().__init__(app, **kwargs)
        self.entry = entry
        self.round_state = round_state
        self.names = names
        self.rules = rules
        self.match = match
        self.autoplay = autoplay
        self.viewer = viewer
        self.left = AUTO_CONTINUE
        self._static: tuple[tuple[object, ...], pygame.Surface] | None = None

    def items(self) -> list[tuple[Label, Callable[[], None], bool]]:
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
        from koikoi_desktop import scenes

        self.app.stack.push(
            scenes.create(
                "review",
                self.app,
                record=match_record(self.match),
                names=self.names,
                viewer=self.viewer,
                start_round=self.entry.round,
                rounds=[self.entry.round],
                settled_only=True,
            )
        )

    def handle(self, intent: Intent) -> None:
        if intent.kind == "key" and intent.key == pygame.K_r:
            self.review()
            return
        super().handle(intent)

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

    def draw_static(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        s = self.scale
        e = self.entry
        # the content sits in a centred column (not stretched over a wide window)
        pad = max(int(28 * s), (w - int(1100 * s)) // 2)
        y = int(22 * s)
        gfx.blit_text(
            surface,
            self.title_text(),
            theme.font_px(34, s),
            (w // 2, y),
            anchor="midtop",
            bold=True,
            color=theme.OCHRE,
            max_width=w - 40,
        )
        y += int(58 * s)
        fs = theme.font_px(19, s)
        # yaku rows with their cards
        st = self.round_state
        ch = int(92 * s)
        cw = round(ch * 0.625)
        name_w = min(int(w * 0.3), int(340 * s))
        yaku_cards: set[int] = set()
        if e.winner is not None and st is not None and not e.instant:
            for yk in st.yaku(e.winner):
                gfx.blit_text(
                    surface,
                    f"{yaku_name(yk.key)} — {yk.points}",
                    fs,
                    (pad, y + ch // 2),
                    anchor="midleft",
                    max_width=name_w,
                )
                x = pad + name_w + 10
                for c in yk.cards:
                    surface.blit(card_surface(self.app, c, (cw, ch)), (x, y))
                    yaku_cards.add(c)
                    x += cw + 4
                y += ch + int(8 * s)
        elif e.winner is not None:
            for item in e.yaku:
                gfx.blit_text(surface, f"{yaku_name(item[0])} — {item[1]}", fs, (pad, y))
                y += int(fs * 1.5)
            if st is not None and e.instant:
                x = pad
                for c in sorted(st.hand(e.winner)):
                    surface.blit(card_surface(self.app, c, (cw, ch)), (x, y))
                    x += cw + 4
                y += ch + 8
        y += int(6 * s)
        for line in self.arithmetic():
            gfx.blit_text(surface, line, fs, (pad, y), max_width=w - 2 * pad)
            y += int(fs * 1.55)
        # both capture piles
        if st is not None:
            y += int(8 * s)
            sh = int(70 * s)
            sw = round(sh * 0.625)
            for p in (self.viewer, 1 - self.viewer):
                if y + sh + 20 > self.menu_top() - 8:
                    break
                gfx.blit_text(
                    surface,
                    self.names[p],
                    theme.font_px(16, s),
                    (pad, y),
                    bold=True,
                    color=theme.MUTED,
                )
                y += int(theme.font_px(16, s) * 1.6)
                x = pad
                caps = sorted(st.captured(p), key=lambda c: (KIND_ORDER.index(kind_of(c)), c))
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
                    x += int(sw * 0.72)
                y += sh + int(16 * s)

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
