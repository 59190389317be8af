"""The ledger's lifetime statistics, opened from the list's chip.

From ``Storage.ledger.stats`` (counters, or SQL aggregates): a line chart of both final totals
over the last matches (``balance_history``, hover for a match's numbers), the player's rating
after each rated match, the win rate per opponent level and per preset as bars, rounds, best
round, koi-koi success, and how often each yaku was made as bars. Charts are ``ui.charts``,
drawn with the game's own drawing.

The chips stay at the top with this one lit: a list's chip (or left/right past the ends) returns
to the list below, showing that list (the record's ``on_list``). Esc or Back returns.

Decisions:

* The figures are read when first drawn (with 100,000 matches they take a second or two), again
  when storage set damaged rows aside, and never while storage counts them again: the screen
  says it is counting and looks again every :data:`~.common.COUNTING_POLL` seconds.
* Statistics leave practice matches out (storage's definition: hints and undo make them another
  game); a chip counts them in, and the number left out is always shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from koikoi_desktop.i18n import Key
from koikoi_desktop.ratings import provisional, shown
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.learning import chip, chip_width, paragraph
from koikoi_desktop.scenes.ledger.common import (
    ScrolledPage,
    Tab,
    date_text,
    draw_empty,
    draw_tabs,
    next_tab,
    still_for,
)
from koikoi_desktop.scenes.screen_frame import ScreenFrame, go_back
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.charts import Bar, BarChart, LineChart, Series
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.words.names import (
    amount_text,
    recorded_level_label,
    recorded_yaku_name,
    ruleset_label,
    unit_heading,
    unit_word,
)

if TYPE_CHECKING:
    from koikoi_desktop.storage import Storage
    from koikoi_desktop.storage.notice import Notice
    from koikoi_desktop.storage.rating_rows import RatingPoint
    from koikoi_desktop.storage.stats import LedgerStats, Tally

#: How many of the latest matches the charts show.
HISTORY = 40


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def percent(rate: float | None) -> str:
    return "—" if rate is None else f"{round(rate * 100)}%"


class LedgerStatsScene(Scene):
    """Lifetime statistics of the player's ledger, with the charts of totals and rating."""

    name = "ledger-stats"

    def __init__(self, app: AppServices, screen: screens.LedgerStats | None = None) -> None:
        super().__init__(app)
        self.screen = screen or screens.LedgerStats()
        self.frame = ScreenFrame(app, heading=Key("ui.ledger.title"), back=self.close)
        self.include_practice = False
        #: How many matches each list holds (for the chips), read when entered.
        self.counts = {False: 0, True: 0}
        self.notices: list[Notice] = []
        #: The body under the header: its scroll, its keys and wheel, the footer under it.
        self.page = ScrolledPage(self.frame, lambda: ("", self.notices))
        # the page's own, answered by the screen too (every ledger screen has a body to measure)
        self.scroll = self.page.scroll
        self.body = self.page.body
        self.scroll_by = self.page.scroll_by
        self.limit = self.page.limit
        self._generation = 0
        self._stats: LedgerStats | None = None
        #: (match id, unit, your total, opponent's total) of the last matches, oldest first.
        self._history: Sequence[tuple[str, str, int, int]] | None = None
        self._ratings: Sequence[RatingPoint] | None = None

    # ------------------------------------------------------------------ data
    @property
    def storage(self) -> Storage | None:
        return self.app.storage

    def load(self) -> None:
        """The chips' counts and the warnings; the figures are read again when next drawn."""
        store = self.storage
        if store is None:
            self.counts, self.notices, self._generation = {False: 0, True: 0}, [], 0
        else:
            self.counts = {c: store.ledger.count(computer=c) for c in (False, True)}
            self.notices = list(store.warnings)
            self._generation = store.ledger.generation
        self._stats = self._history = self._ratings = None

    @property
    def stats(self) -> LedgerStats:
        """Lifetime statistics, computed the first time they are shown."""
        if self._stats is None:
            store = self.storage
            if store is not None:
                self._stats = store.ledger.stats(include_practice=self.include_practice)
            else:
                from koikoi_desktop.storage.stats import LedgerStats

                self._stats = LedgerStats.empty()
        return self._stats

    @property
    def history(self) -> Sequence[tuple[str, str, int, int]]:
        """The final totals of the last :data:`HISTORY` matches (one SQL query with a limit)."""
        if self._history is None:
            store = self.storage
            self._history = store.ledger.balance_history(HISTORY) if store is not None else []
        return self._history

    @property
    def ratings(self) -> Sequence[RatingPoint]:
        """The player's rating after each of the last :data:`HISTORY` rated matches."""
        if self._ratings is None:
            store = self.storage
            self._ratings = store.ledger.rating_history(HISTORY) if store is not None else []
        return self._ratings

    def enter(self) -> None:
        self.load()
        self.build()

    def resume(self) -> None:
        self.load()
        self.build()

    def still_for(self) -> float:
        return still_for(self.storage, self._generation)

    def update(self, dt: float) -> None:
        """Between frames: damaged rows set aside and a recount taken (``store.tidy``); the
        figures read again after rows were set aside."""
        super().update(dt)
        store = self.storage
        if store is None:
            return
        store.tidy()
        if store.ledger.generation != self._generation:
            self.load()

    def resize(self, size: tuple[int, int]) -> None:
        self.frame.size = size
        self.build()

    def build(self) -> None:
        self.frame.build()

    # ------------------------------------------------------------------ commands
    def choose(self, tab: Tab) -> None:
        """A list's chip: back to the list, showing that list."""
        if tab == "stats":
            return
        computer = tab == "computer"
        if self.screen.on_list is not None:
            self.screen.on_list(computer)
            go_back(self.app)
        else:  # opened alone (``--scene ledger-stats``): the list takes its place
            self.app.stack.replace(self.app.router.build(screens.Ledger(computer=computer)))

    def close(self) -> None:
        go_back(self.app)

    def toggle_practice(self) -> None:
        self.include_practice = not self.include_practice
        self._stats = None

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        self.page.route(intent, back=self.close, key=self.on_key)

    def on_key(self, intent: Intent) -> bool:
        """Left/Right: the chip beside this one, round the row (the page's keys that scroll
        come first)."""
        kind = intent.kind
        if kind in (IntentKind.LEFT, IntentKind.RIGHT):
            self.choose(next_tab(self.counts, "stats", 1 if kind == IntentKind.RIGHT else -1))
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.frame.stale(surface.get_size()):
            self.resize(surface.get_size())
        self.frame.draw_backdrop(surface)
        draw_tabs(surface, self.frame, self.counts, "stats", self.choose)
        self.page.draw(surface, self.draw_body)
        self.frame.draw_buttons(surface)

    def draw_body(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        """The figures, or why there are none."""
        if self.storage is None:
            self.scroll.content = 0
            draw_empty(surface, self.frame, body, self.app.words.t("ui.ledger.unavailable"), "")
        else:
            self.draw_stats(surface, body)

    def history_chart(self, x: int, y: int, w: int) -> LineChart | None:
        """Both final totals of the last matches (the latest match's unit only), oldest left."""
        words = self.app.words
        rows = list(self.history)
        if not rows:
            return None
        unit = rows[-1][1]
        rows = [r for r in rows if r[1] == unit]
        you, them = words.t("ui.common.you"), words.t("ui.common.opponent")
        word = unit_word(words, unit)
        tips = [
            [f"#{i}", words.t("ui.ledger.final_balances", unit=word, a=you, x=r[2], b=them, y=r[3])]
            for i, r in enumerate(rows, start=1)
        ]
        series = [
            Series(you, tuple(float(r[2]) for r in rows), theme.OCHRE),
            Series(them, tuple(float(r[3]) for r in rows), theme.PINK, "square"),
        ]
        rect = pygame.Rect(x, y, w, self.frame.px(230))
        return LineChart(
            rect.inflate(-self.frame.px(20), -self.frame.px(12)),
            series,
            x_labels=[str(i) for i in range(1, len(rows) + 1)],
            tips=tips,
            font=self.frame.font(14),
            title=words.t("ui.ledger.stats.history", n=len(rows), unit=word),
        )

    def rating_chart(self, x: int, y: int, w: int) -> LineChart | None:
        """The player's rating after each rated match, oldest left (a match's level, result
        and change on hover); None before the first rated match."""
        words = self.app.words
        points = list(self.ratings)
        if not points:
            return None
        results = {1.0: "win", 0.5: "draw", 0.0: "loss"}
        tips = [
            [
                date_text(p.date),
                f"{recorded_level_label(words, p.level)}: "
                + words.t(f"ui.ledger.result.{results.get(p.score, 'loss')}"),
                f"{round(p.before)} → {shown(p.rating, p.rd)}",
            ]
            for p in points
        ]
        start = points[0].before
        now = "ui.rating.series_provisional" if provisional(points[-1].rd) else "ui.rating.series"
        series = [Series(words.t(now), (start, *(p.rating for p in points)), theme.OCHRE)]
        rect = pygame.Rect(x, y, w, self.frame.px(200))
        return LineChart(
            rect.inflate(-self.frame.px(20), -self.frame.px(12)),
            series,
            x_labels=[words.t("ui.result.start"), *(str(i) for i in range(1, len(points) + 1))],
            tips=[[], *tips],
            font=self.frame.font(14),
            title=words.t("ui.rating.chart_title"),
        )

    def draw_chart(self, surface: pygame.Surface, body: pygame.Rect, chart: LineChart) -> int:
        """A chart on its panel (the point under the pointer told); returns the y under it."""
        panel = chart.rect.inflate(self.frame.px(20), self.frame.px(12))
        gfx.draw_panel(surface, panel, alpha=215, radius=8)
        pointer = self.frame.pointer
        chart.draw(surface, hover=chart.nearest(pointer) if body.collidepoint(pointer) else None)
        return panel.bottom + self.frame.px(18)

    def draw_stats(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        words = self.app.words
        store = self.storage
        if store is not None and store.counting:  # never figures of a ledger that changed
            self.scroll.content = 0
            draw_empty(
                surface,
                self.frame,
                body,
                words.t("ui.ledger.counting.title"),
                words.t("ui.ledger.counting.text"),
            )
            return
        st = self.stats
        if st.overall.matches == 0 and st.practice_matches == 0:
            self.scroll.content = 0
            draw_empty(
                surface,
                self.frame,
                body,
                words.t("ui.ledger.empty.title"),
                words.t("ui.ledger.empty.stats"),
            )
            return
        self.scroll.clamp(body.h)
        y0 = body.y - self.scroll.offset
        y = y0
        chart = self.history_chart(body.x, y, body.w - self.frame.px(8))
        if chart is not None:
            y = self.draw_chart(surface, body, chart)
        rating = self.rating_chart(body.x, y, body.w - self.frame.px(8))
        if rating is not None:
            y = self.draw_chart(surface, body, rating)
        gap = self.frame.px(28)
        col_w = (body.w - gap - self.frame.px(8)) // 2
        left = self.stats_left(surface, st, body.x, y, col_w)
        right = self.stats_right(surface, st, body.x + col_w + gap, y, col_w)
        self.scroll.content = max(left, right) - y0

    def section(self, surface: pygame.Surface, title: str, x: int, y: int, w: int) -> int:
        gfx.blit_text(
            surface, title, self.frame.font(19), (x, y), bold=True, color=theme.OCHRE, max_width=w
        )
        y += self.frame.px(28)
        pygame.draw.line(
            surface, theme.PANEL_EDGE, (x, y - self.frame.px(4)), (x + w, y - self.frame.px(4))
        )
        return y + self.frame.px(4)

    def line(
        self,
        surface: pygame.Surface,
        text: str,
        x: int,
        y: int,
        w: int,
        *,
        color: tuple[int, int, int] = theme.PAPER,
        bold: bool = False,
    ) -> int:
        return paragraph(surface, text, self.frame.font(16), x, y, w, color=color, bold=bold)

    def stats_left(self, surface: pygame.Surface, st: LedgerStats, x: int, y: int, w: int) -> int:
        words = self.app.words
        o = st.overall
        y = self.section(surface, words.t("ui.ledger.stats.matches"), x, y, w)
        y = self.line(
            surface,
            words.t("ui.ledger.stats.summary", n=o.matches, w=o.wins, l=o.losses, d=o.draws),
            x,
            y,
            w,
        )
        y = self.line(
            surface,
            words.t("ui.ledger.stats.win_rate", rate=percent(o.win_rate)),
            x,
            y,
            w,
            bold=True,
        )
        key = (
            "ui.ledger.stats.practice_included"
            if self.include_practice
            else "ui.ledger.stats.practice_excluded"
        )
        y = self.line(surface, words.t(key, n=st.practice_matches), x, y, w, color=theme.MUTED)
        label = words.t("ui.ledger.stats.count_practice")
        f = self.frame.font(14)
        r = pygame.Rect(
            x,
            y + self.frame.px(4),
            min(w, chip_width(label, f, self.frame.px(12))),
            self.frame.px(30),
        )
        chip(surface, r, label, f, active=self.include_practice)
        self.frame.hit(r, self.toggle_practice)
        y = r.bottom + self.frame.px(18)
        named: tuple[tuple[str, dict[str, Tally], Callable[[str], str]], ...] = (
            (
                words.t("ui.ledger.stats.by_level"),
                st.by_level,
                lambda k: recorded_level_label(words, k),
            ),
            (
                words.t("ui.ledger.stats.by_preset"),
                st.by_preset,
                lambda p: ruleset_label(words, p, False),
            ),
        )
        for title, groups, name_of in named:
            y = self.section(surface, title, x, y, w)
            y = self.rate_bars(
                surface, x, y, w, [(capitalized(name_of(k)) or "—", t) for k, t in groups.items()]
            )
            y += self.frame.px(14)
        y = self.section(surface, words.t("ui.ledger.stats.rounds"), x, y, w)
        y = self.line(
            surface,
            words.t(
                "ui.ledger.stats.rounds_summary",
                n=st.rounds_played,
                w=st.rounds_won,
                l=st.rounds_lost,
                d=st.rounds_drawn,
            ),
            x,
            y,
            w,
        )
        for unit in sorted(set(st.won_by_unit) | set(st.lost_by_unit)):
            y = self.line(
                surface,
                words.t(
                    "ui.ledger.stats.won_lost",
                    unit=unit_heading(words, unit),
                    won=st.won_by_unit.get(unit, 0),
                    lost=st.lost_by_unit.get(unit, 0),
                ),
                x,
                y,
                w,
            )
        return y

    def rate_bars(
        self, surface: pygame.Surface, x: int, y: int, w: int, rows: Sequence[tuple[str, Tally]]
    ) -> int:
        """The win rate of each group as a bar (full = every match won), with won / played."""
        words = self.app.words
        gfx.blit_text(
            surface,
            words.t("ui.ledger.stats.rate_caption"),
            self.frame.font(13),
            (x, y),
            color=theme.MUTED,
            max_width=w,
        )
        y += self.frame.px(22)
        if not rows:
            gfx.blit_text(surface, "—", self.frame.font(15), (x, y), color=theme.MUTED)
            return y + self.frame.px(24)
        bars = [
            Bar(
                name, t.win_rate or 0.0, f"{percent(t.win_rate)} · {t.wins}/{t.matches}", theme.PINE
            )
            for name, t in rows
        ]
        return BarChart((x, y), w, bars, font=self.frame.font(15), maximum=1.0).draw(surface)

    def stats_right(self, surface: pygame.Surface, st: LedgerStats, x: int, y: int, w: int) -> int:
        words = self.app.words
        y = self.section(surface, words.t("ui.ledger.stats.best_round"), x, y, w)
        b = st.best_round
        if b is None:
            y = self.line(surface, words.t("ui.ledger.stats.none_yet"), x, y, w, color=theme.MUTED)
        else:
            y = self.line(
                surface,
                words.t(
                    "ui.ledger.stats.best_line",
                    amount=amount_text(words, b.final, b.unit),
                    n=b.round,
                    date=date_text(b.date),
                    preset=ruleset_label(words, b.preset, False),
                ),
                x,
                y,
                w,
                bold=True,
            )
            if b.yaku:
                y = self.line(
                    surface,
                    words.t(
                        "ui.ledger.round.yaku",
                        list=", ".join(recorded_yaku_name(words, k) for k in b.yaku),
                    ),
                    x,
                    y,
                    w,
                    color=theme.MUTED,
                )
        y += self.frame.px(14)
        k = st.koikoi
        y = self.section(surface, words.t("ui.ledger.stats.koikoi"), x, y, w)
        if k.rounds_known == 0:
            y = self.line(
                surface, words.t("ui.ledger.stats.koikoi_unknown"), x, y, w, color=theme.MUTED
            )
        else:
            y = self.line(
                surface, words.t("ui.ledger.stats.koikoi_rounds", n=k.rounds_called), x, y, w
            )
            y = self.line(surface, words.t("ui.ledger.stats.koikoi_calls", n=k.calls), x, y, w)
            y = self.line(
                surface,
                words.t(
                    "ui.ledger.stats.koikoi_success",
                    n=k.rounds_won_after_call,
                    total=k.rounds_called,
                    rate=percent(k.success_rate),
                ),
                x,
                y,
                w,
                bold=True,
            )
            y = self.line(
                surface,
                words.t("ui.ledger.stats.koikoi_opponent", n=k.opponent_calls),
                x,
                y,
                w,
                color=theme.MUTED,
            )
        y += self.frame.px(14)
        y = self.section(surface, words.t("ui.ledger.stats.yaku_made"), x, y, w)
        if not st.yaku_made:
            return self.line(
                surface, words.t("ui.ledger.stats.none_yet"), x, y, w, color=theme.MUTED
            )
        bars = [
            Bar(recorded_yaku_name(words, key), float(n), str(n)) for key, n in st.yaku_made.items()
        ]
        return BarChart((x, y), w, bars, font=self.frame.font(15)).draw(surface)
