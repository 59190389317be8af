"""The match result: the winner, the final balances, why the match ended, and the match round by
round as a line chart of both balances (a round's winner, yaku and payment on hover).

Decisions: the chart (``ui.charts.LineChart``) starts at the starting balances and has one step
per settled round; pointing at a step — or left/right — shows that round. The two buttons sit
side by side under the chart, so the chart gets the height of the screen. Everything but the
hover is drawn once per size into a cached layer.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from koikoi_desktop.engine import Match, Rules, match_record
from koikoi_desktop.engine.events import MatchOver
from koikoi_desktop.engine.match import LedgerEntry
from koikoi_desktop.i18n import Key, say
from koikoi_desktop.ratings import provisional, shown
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.storage.rating_rows import RatingPoint
from koikoi_desktop.ui import gfx, sound_cues, theme
from koikoi_desktop.ui.charts import LineChart, Series
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, Label
from koikoi_desktop.words.names import (
    Names,
    amount_text,
    end_text,
    factor_text,
    names_now,
    unit_word,
)

AUTO_QUIT = 3.0


class MatchResultScene(MenuScene):
    """Shown when the match ends. In autoplay the app quits a few seconds later."""

    name = "match-result"

    def __init__(
        self,
        app: AppServices,
        *,
        match: Match,
        names: Names = ("", ""),
        rules: Rules,
        autoplay: bool = False,
        config: MatchConfig | None = None,
        viewer: int = 0,
        ending: str = "",
        match_id: str | None = None,
    ) -> None:
        super().__init__(app)
        self.match = match
        #: The seats' names (facts, worded when drawn: :meth:`seat_names`).
        self.names = names
        self.rules = rules
        self.autoplay = autoplay
        self.config = config
        self.viewer = viewer
        self.ending = ending
        self.match_id = match_id
        self.left = AUTO_QUIT
        self._static: tuple[tuple[object, ...], pygame.Surface] | None = None
        self.hover: int | None = None
        self.chart: LineChart | None = None
        #: The rating change this match made (read once: None when it was not rated).
        self.rating: RatingPoint | None = None

    def seat_names(self) -> tuple[str, str]:
        """The seats' names in the app's words of the moment."""
        return names_now(self.names, self.app.words)

    def enter(self) -> None:
        super().enter()
        store = self.app.storage
        if store is not None and self.match_id is not None:
            self.rating = store.ledger.rating_of(self.match_id)
        out = self.match.outcome
        if out is not None and self.ending != "conceded":
            seats = self.config.seats if self.config is not None else ("human", "computer")
            self.app.cues.show("result", MatchOver(out.winner, out.reason), sound_cues.ours(seats))

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return [
            (Key("ui.result.again"), self.again, True),
            (Key("ui.result.review"), self.review, False),
            (Key("ui.result.title_screen"), self.to_title, False),
        ]

    def build(self) -> None:
        """The two buttons side by side at the bottom, then the chart above them."""
        s = self.scale
        f = theme.font_px(21, s)
        bh, gap = int(48 * s), int(16 * s)
        labels = [say(label, self.app.words) for label, _, _ in self.items()]
        bw = max(int(260 * s), *(gfx.measure(t, f, bold=True)[0] + int(40 * s) for t in labels))
        total = len(labels) * bw + (len(labels) - 1) * gap
        x = (self.size[0] - total) // 2
        y = self.size[1] - bh - int(22 * s)
        self.buttons = []
        for label, cb, primary in self.items():
            self.buttons.append(Button(label, cb, pygame.Rect(x, y, bw, bh), primary=primary))
            x += bw + gap
        self.focus.set(self.buttons)
        self.chart = self.make_chart()

    def menu_top(self) -> int:
        return self.buttons[0].rect.y if self.buttons else self.size[1] - int(70 * self.scale)

    def header_bottom(self) -> int:
        s = self.scale
        rating = 0
        if self.rating is not None:
            rating = int(30 * s) + (int(24 * s) if provisional(self.rating.rd) else 0)
        return int(30 * s) + int(64 * s) + 2 * int(36 * s) + rating

    def rating_text(self) -> str:
        """ "Your rating 1184 → 1203 (+19)" after a rated match ("1000 → 1107? (+107)" while
        the rating is provisional), else empty."""
        words = self.app.words
        p = self.rating
        if p is None:
            return ""
        before, after = round(p.before), round(p.rating)
        return words.t(
            "ui.rating.change",
            before=before,
            after=shown(p.rating, p.rd),
            delta=f"{after - before:+d}",
        )

    def chart_rect(self) -> pygame.Rect:
        s = self.scale
        w = min(self.size[0] - int(48 * s), int(1240 * s))
        top = self.header_bottom()
        bottom = self.menu_top() - int(18 * s)
        if self.unsaved_text():  # its line sits between the chart and the buttons
            bottom -= theme.font_px(16, s) + int(14 * s)
        r = pygame.Rect(0, top, w, max(int(120 * s), bottom - top))
        r.centerx = self.size[0] // 2
        return r

    def unit_label(self) -> str:
        words = self.app.words
        return unit_word(words, self.rules.unit)

    def make_chart(self) -> LineChart | None:
        """Both balances from the start through every settled round, one tooltip per round."""
        words = self.app.words
        m = self.match
        start = m.rules.starting_balance
        ledger = list(m.ledger)
        steps = [(start, start)] + [tuple(e.balances) for e in ledger]
        labels = [words.t("ui.result.start")] + [str(e.round) for e in ledger]
        tips: list[list[str]] = [[]] + [self.round_tip(e) for e in ledger]
        colors = (theme.OCHRE, theme.PINK)
        series = [
            Series(
                self.seat_names()[p],
                tuple(float(b[p]) for b in steps),
                colors[i],
                "circle" if i == 0 else "square",
            )
            for i, p in enumerate((self.viewer, 1 - self.viewer))
        ]
        r = self.chart_rect().inflate(-int(24 * self.scale), -int(16 * self.scale))
        r.h -= self.hint_h()  # the hint's own strip under the step labels
        return LineChart(
            r,
            series,
            x_labels=labels,
            tips=tips,
            font=theme.font_px(15, self.scale),
            title=words.t("ui.result.chart_title"),
        )

    def hint_h(self) -> int:
        return theme.font_px(14, self.scale) + int(8 * self.scale)

    def round_tip(self, e: LedgerEntry) -> list[str]:
        """The tooltip of one round: who won it, with which yaku, the multipliers that turned
        the base into the final score (as the round summary writes them), what was paid."""
        words = self.app.words
        if e.winner is None:
            lines = [words.t("ui.summary.no_winner", n=e.round), end_text(words, e.end)]
        else:
            lines = [words.t_person("ui.summary.winner", self.seat_names()[e.winner], n=e.round)]
            lines += [f"{words.yaku_name(k)} {pts}" for k, pts in e.yaku]
            if e.instant:
                lines.append(words.t(f"ui.instant.{e.instant}"))
            if e.factors:  # 10 → 20 needs its "× 2 (7 or more)"
                parts = [words.t("ui.summary.base", n=e.base)]
                parts += [f"× {f} ({factor_text(words, name, f)})" for name, f in e.factors]
                lines.append(" ".join(parts) + f" = {e.final}")
            paid = amount_text(words, e.paid, self.rules.unit)
            lines.append(words.t("ui.ledger.round.paid", amount=paid))
        return lines

    def review(self) -> None:
        """The review of this match, every decision replayed and judged (R)."""
        if self.match is None:
            return
        seats = self.config.seats if self.config is not None else None
        self.app.stack.push(
            self.app.router.build(
                screens.Review(
                    record=match_record(self.match),
                    match_id=self.match_id,
                    names=self.names,
                    viewer=self.viewer,
                    seats=seats,
                )
            )
        )

    def handle(self, intent: Intent) -> None:
        if intent.letter == "r":
            self.review()
            return
        if self.chart is not None:
            if intent.kind == IntentKind.MOVE:
                self.hover = self.chart.nearest(intent.pos)
            elif intent.kind in (IntentKind.LEFT, IntentKind.RIGHT):
                last = len(self.chart.x_labels) - 1
                d = 1 if intent.kind == IntentKind.RIGHT else -1
                start = self.hover if self.hover is not None else (last if d < 0 else -1)
                self.hover = max(0, min(last, start + d))
                return
        super().handle(intent)

    def again(self) -> None:
        cfg = self.config
        if cfg is None:
            self.to_title()
            return
        from dataclasses import replace

        self.app.stack.replace(self.app.router.build(screens.Table(config=replace(cfg, seed=None))))

    def to_title(self) -> None:
        self.app.stack.reset(self.app.router.build(screens.Title()))

    def on_back(self) -> None:
        self.to_title()

    def still_for(self) -> float:
        """Only an autoplay run's countdown moves here; a person's screen waits for input."""
        return 0.0 if self.autoplay else math.inf

    def update(self, dt: float) -> None:
        if self.autoplay:
            self.left -= dt
            if self.left <= 0 and not self.app.match_finished():
                self.app.request_quit()

    def title_text(self) -> str:
        words = self.app.words
        out = self.match.outcome
        if self.ending == "conceded":
            return words.t_person("ui.result.conceded", self.seat_names()[self.viewer])
        if out is None or out.winner is None:
            return words.t("ui.result.draw")
        return words.t_person("ui.result.winner", self.seat_names()[out.winner])

    def draw_static(self, surface: pygame.Surface) -> None:
        words = self.app.words
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        s = self.scale
        m = self.match
        y = int(30 * s)
        gfx.blit_text(
            surface,
            self.title_text(),
            theme.font_px(40, s),
            (w // 2, y),
            anchor="midtop",
            bold=True,
            color=theme.OCHRE,
            max_width=w - 40,
        )
        y += int(64 * s)
        me, bal = self.viewer, m.balances
        gfx.blit_text(
            surface,
            words.t(
                "ui.ledger.final_balances",
                unit=self.unit_label(),
                a=self.seat_names()[me],
                x=bal[me],
                b=self.seat_names()[1 - me],
                y=bal[1 - me],
            ),
            theme.font_px(24, s),
            (w // 2, y),
            anchor="midtop",
            max_width=w - 40,
        )
        y += int(36 * s)
        if m.outcome is not None:
            gfx.blit_text(
                surface,
                words.t(f"ui.result.reason.{m.outcome.reason}"),
                theme.font_px(18, s),
                (w // 2, y),
                anchor="midtop",
                color=theme.MUTED,
                max_width=w - 40,
            )
        if self.rating_text():
            gfx.blit_text(
                surface,
                self.rating_text(),
                theme.font_px(21, s),
                (w // 2, y + int(32 * s)),
                anchor="midtop",
                bold=True,
                color=theme.PAPER,
                max_width=w - 40,
            )
            if self.rating is not None and provisional(self.rating.rd):
                gfx.blit_text(
                    surface,
                    words.t("ui.rating.provisional"),
                    theme.font_px(15, s),
                    (w // 2, y + int(60 * s)),
                    anchor="midtop",
                    color=theme.MUTED,
                    max_width=w - 40,
                )
        if self.chart is not None:
            gfx.draw_panel(surface, self.chart_rect(), alpha=215, radius=10)
            self.chart.draw(surface)
            panel = self.chart_rect()
            gfx.blit_text(
                surface,
                words.t("ui.result.chart_hint"),
                theme.font_px(14, s),
                (panel.right - int(12 * s), panel.bottom - int(8 * s)),
                anchor="bottomright",
                color=theme.MUTED,
                max_width=panel.w - int(24 * s),
            )

    def draw(self, surface: pygame.Surface) -> None:
        """The text and chart do not change while the screen is up: render them once; the
        hovered round is drawn over them."""
        words = self.app.words
        key = (surface.get_size(), words, bool(self.unsaved_text()))
        cached = self._static
        if cached is None or cached[0] != key:
            self.size = surface.get_size()
            self.build()  # the chart's room depends on the size and on the unsaved line
            layer = surface.copy()
            self.draw_static(layer)
            cached = self._static = (key, layer)
        surface.blit(cached[1], (0, 0))
        if self.chart is not None and self.hover is not None:
            self.chart.draw(surface, hover=self.hover)
        self.focus.draw(surface, self.app.words, font=theme.font_px(21, self.scale))
        if self.unsaved_text():
            w, _ = surface.get_size()
            gfx.blit_text(
                surface,
                self.unsaved_text(),
                theme.font_px(16, self.scale),
                (w // 2, self.menu_top() - int(10 * self.scale)),
                anchor="midbottom",
                color=theme.OCHRE,
                max_width=w - 40,
            )

    def unsaved_text(self) -> str:
        """One line while the disk has refused this session's finished matches (they are held
        in memory; quitting asks to retry or export them)."""
        words = self.app.words
        store = self.app.storage
        if store is None or not store.pending:
            return ""
        return words.t("ui.storage.ledger_not_saved")
