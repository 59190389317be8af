"""The match result: the winner, the final balances, why the match ended, and every round."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from koikoi_desktop import scenes
from koikoi_desktop.engine import Match, Rules
from koikoi_desktop.names import end_text, unit_heading
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.scenes.table_controller import MatchConfig
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.widgets import Label

AUTO_QUIT = 3.0


class MatchResultScene(MenuScene):
    """Shown when the match ends. In autoplay the app quits a few seconds later."""

    name = "match-result"

    def __init__(
        self,
        app: AppServices,
        *,
        match: Match,
        names: tuple[str, str] = ("", ""),
        rules: Rules,
        autoplay: bool = False,
        config: MatchConfig | None = None,
        viewer: int = 0,
        ending: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(app, **kwargs)
        self.match = match
        self.names = names
        self.rules = rules
        self.autoplay = autoplay
        self.config = config
        self.viewer = viewer
        self.ending = ending
        self.left = AUTO_QUIT
        self._static: tuple[tuple[object, ...], pygame.Surface] | None = None

    def items(self) -> list[tuple[Label, Callable[[], None], bool]]:
        return [
            (lambda: gfx.tr("ui.result.again"), self.again, True),
            (lambda: gfx.tr("ui.result.title_screen"), self.to_title, False),
        ]

    def menu_top(self) -> int:
        return self.size[1] - int(130 * self.scale)

    def again(self) -> None:
        cfg = self.config
        if cfg is None:
            self.to_title()
            return
        from dataclasses import replace

        self.app.stack.replace(scenes.create("table", self.app, config=replace(cfg, seed=None)))

    def to_title(self) -> None:
        self.app.stack.reset(scenes.create("title", self.app))

    def on_back(self) -> None:
        self.to_title()

    def update(self, dt: float) -> None:
        if self.autoplay:
            self.left -= dt
            if self.left <= 0 and not self.app.match_finished():
                self.app.quit()

    def draw_static(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        s = self.scale
        m = self.match
        out = m.outcome
        unit = unit_heading(self.rules.unit)
        if self.ending == "conceded":
            title = gfx.tr("ui.result.conceded", name=self.names[self.viewer])
        elif out is None or out.winner is None:
            title = gfx.tr("ui.result.draw")
        else:
            title = gfx.tr("ui.result.winner", name=self.names[out.winner])
        y = int(30 * s)
        gfx.blit_text(
            surface,
            title,
            theme.font_px(40, s),
            (w // 2, y),
            anchor="midtop",
            bold=True,
            color=theme.OCHRE,
            max_width=w - 40,
        )
        y += int(64 * s)
        bal = m.balances
        gfx.blit_text(
            surface,
            f"{self.names[0]} {bal[0]} · {self.names[1]} {bal[1]} {unit}",
            theme.font_px(24, s),
            (w // 2, y),
            anchor="midtop",
            max_width=w - 40,
        )
        y += int(40 * s)
        if out is not None:
            gfx.blit_text(
                surface,
                gfx.tr(f"ui.result.reason.{out.reason}"),
                theme.font_px(18, s),
                (w // 2, y),
                anchor="midtop",
                color=theme.MUTED,
            )
        y += int(40 * s)
        # rounds table
        fs = theme.font_px(16, s)
        cols = [int(w * 0.12), int(w * 0.19), int(w * 0.37), int(w * 0.68), int(w * 0.78)]
        heads = [
            gfx.tr("term.round"),
            gfx.tr("ui.result.col_winner"),
            gfx.tr("ui.result.col_end"),
            gfx.tr("ui.result.col_final"),
            gfx.tr("ui.result.col_balances"),
        ]
        for x, t in zip(cols, heads, strict=True):
            gfx.blit_text(surface, t, fs, (x, y), bold=True, color=theme.MUTED)
        y += int(fs * 1.6)
        row_h = int(fs * 1.45)
        room = (self.menu_top() - 12 - y) // row_h
        ledger = list(m.ledger)
        if len(ledger) > room:
            ledger = ledger[-room:]
        for e in ledger:
            who = self.names[e.winner] if e.winner is not None else "—"
            vals = [
                str(e.round),
                who,
                end_text(e.end),
                str(e.final),
                f"{e.balances[0]} / {e.balances[1]}",
            ]
            for i, (x, t) in enumerate(zip(cols, vals, strict=True)):
                limit = (cols[i + 1] - x - 10) if i + 1 < len(cols) else w - x - 20
                gfx.blit_text(surface, t, fs, (x, y), max_width=limit)
            y += row_h

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
        if self.unsaved_text():
            w, _ = surface.get_size()
            gfx.blit_text(
                surface,
                self.unsaved_text(),
                theme.font_px(16, self.scale),
                (w // 2, self.menu_top() - int(14 * self.scale)),
                anchor="midbottom",
                color=theme.OCHRE,
                max_width=w - 40,
            )

    def unsaved_text(self) -> str:
        """One line while the disk has refused this session's finished matches (they are held
        in memory; quitting asks to retry or export them)."""
        store = getattr(self.app, "storage", None)
        if store is None or not store.pending:
            return ""
        return gfx.tr("ui.storage.ledger_not_saved")
