"""The coin ledger screen: every recorded match, its rounds, lifetime statistics and export.

Three views under one heading (chips at the top switch between the lists and the statistics):

* ``matches``: the matches newest first, one row each — result, rules ("Custom, based on …" for
  a changed preset), date, opponent and level, a practice mark, rounds, and both final totals.
  The player's matches, or — under their own chip, shown once there are any — the
  computer-vs-computer matches ``--autoplay --record`` wrote (result and totals from Computer
  1's seat);
* ``match``: one match opened to its rounds, every field of RULES.md §11 per round (round
  number, dealer, how it ended, winner, yaku with values, base, each factor, final, the amount
  paid, both balances), plus each seat's koi-koi calls when the record has them;
* ``stats``: lifetime statistics from ``Storage.ledger.stats`` (counters, or SQL aggregates): a
  line chart of both final totals over the last matches (``balance_history``, hover for a
  match's numbers), the win rate per opponent level and per preset as bars, rounds, best round,
  koi-koi success, and how often each yaku was made as bars. Charts are ``ui.charts``, drawn with
  the game's own drawing.

Header buttons export the ledger as CSV or JSON through :meth:`Storage.export` (files go to the
data folder's ``exports/``); the path written is shown at the bottom. Storage warnings (a damaged
file kept aside, a full disk, a second copy of the game) are shown one line each under it.

Input: the wheel scrolls the view under the pointer; up/down select a match (or scroll),
Page Up/Down and Home/End jump, Enter or a click opens a match, left/right switch views (in an
open match: the next older / newer match), Esc goes back (match -> list -> previous screen), Tab
reaches the header buttons.

Decisions:

* The screen reads Storage when it is entered or uncovered (a snapshot): ``draw`` never touches
  the disk, and a match recorded meanwhile appears on the next visit.
* Only the visible rows of the list are drawn, so a ledger of thousands of matches scrolls as
  fast as one of three.
* Computer-vs-computer matches are a filter of the list, never part of the player's list or
  statistics; their seats are named from the seat numbers when drawn ("Computer 1", "Computer 2
  (Intermediate)"), not from the name stored in the language of the day they were recorded.
* Statistics leave practice matches out (storage's definition: hints and undo make them another
  game); a chip counts them in, and the number left out is always shown.
* A warning is translated from its ``ui.storage.<key>`` entry with the notice's parameters (the
  OS reasons "disk full", "permission denied", "read-only" translated too); a key the catalogs do
  not know yet falls back to storage's English sentence, so no warning is ever hidden.
* A long export path is shortened in the middle, so the file name stays readable.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pygame

from koikoi_desktop.engine import DealCheck, RecordError
from koikoi_desktop.i18n import Key, Words, say
from koikoi_desktop.ratings import provisional, shown
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.learning import chip, chip_width, paragraph
from koikoi_desktop.scenes.screen_frame import ScreenFrame, go_back
from koikoi_desktop.storage.cause import refusal_of
from koikoi_desktop.storage.notice import Notice
from koikoi_desktop.storage.rating_rows import RatingPoint
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.charts import Bar, BarChart, LineChart, Series
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Label
from koikoi_desktop.words.deal import check_text, record_check
from koikoi_desktop.words.names import (
    RecordedNames,
    amount_text,
    end_text,
    ending_label,
    factor_text,
    help_label,
    opponent_text,
    options_text,
    recorded_level_label,
    recorded_yaku_name,
    result_label,
    ruleset_label,
    unit_heading,
    unit_word,
)
from koikoi_desktop.words.storage import cause_label, notice_text

if TYPE_CHECKING:
    from koikoi_desktop.storage import Storage
    from koikoi_desktop.storage.models import MatchRecord, RoundEntry
    from koikoi_desktop.storage.stats import LedgerStats, MatchSummary, Tally

#: The chips at the top, in order: (view, computer filter). The computer chip is left out
#: while there are no computer matches.
TABS: tuple[tuple[str, bool], ...] = (("matches", False), ("matches", True), ("stats", False))
MAX_WARNING_LINES = 6
#: A line of text to draw: (text, colour, bold).
Line = tuple[str, tuple[int, int, int], bool]
#: How many of the latest matches the statistics chart shows.
HISTORY = 40
#: How often (seconds) the idle screen looks whether the statistics are counted yet.
COUNTING_POLL = 0.25


# ---------------------------------------------------------------------------------- words


def date_text(when: datetime) -> str:
    """Local date and time, the same digits in every language."""
    try:
        return when.astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError, OSError):
        return when.strftime("%Y-%m-%d %H:%M")


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def percent(rate: float | None) -> str:
    return "—" if rate is None else f"{round(rate * 100)}%"


def shorten_middle(text: str, size: int, width: int) -> str:
    """``text`` cut in the middle with "…" until it fits ``width`` pixels."""
    if gfx.measure(text, size)[0] <= width:
        return text
    keep = len(text)
    while keep > 8:
        keep -= max(1, keep // 20)
        head = keep // 3
        cand = text[:head] + "…" + text[len(text) - (keep - head) :]
        if gfx.measure(cand, size)[0] <= width:
            return gfx.cut(text, cand)
    return gfx.cut(text, text[:4] + "…")


# ---------------------------------------------------------------------------------- scene


class LedgerScene(Scene):
    """The ledger: matches, one match's rounds, lifetime statistics, export, storage warnings.

    It holds the screen's frame (``self.frame``: heading, header buttons, hit regions, scale;
    :mod:`~koikoi_desktop.scenes.screen_frame`)."""

    name = "ledger"

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.frame = ScreenFrame(app, heading=Key("ui.ledger.title"), back=self.close)
        #: The one-line answer of the last command (an export's path, why a review cannot open),
        #: worded when drawn.
        self.message: Label = ""
        self.view = "matches"
        self.records: Sequence[MatchRecord] = []
        self.summaries: Sequence[MatchSummary] = []
        self._stats: LedgerStats | None = None
        #: (match id, unit, your total, opponent's total) of the last matches, oldest first
        #: (read with the statistics, when they are first shown).
        self._history: Sequence[tuple[str, str, int, int]] | None = None
        self._ratings: Sequence[RatingPoint] | None = None
        self.include_practice = False
        #: The list shows the computer-vs-computer matches (their chip) instead of the player's.
        self.computer = False
        #: How many matches each list holds (read with the records).
        self.counts = {False: 0, True: 0}
        self.selected = 0
        self.opened: int | None = None
        self.scroll = {"matches": 0, "match": 0, "stats": 0}
        self.content_h = {"matches": 0, "match": 0, "stats": 0}
        self.export_path: Path | None = None
        #: Storage's notices as they were at the last load, worded when drawn.
        self.notices: list[Notice] = []
        self._generation = 0
        #: The opened match's deal check (match id -> the check and the revealed seed; None: no
        #: record to check), a fact worded when drawn.
        self._deals: dict[str, tuple[DealCheck, int | None] | None] = {}

    # ------------------------------------------------------------------ data
    @property
    def storage(self) -> Storage | None:
        return self.app.storage

    def load(self) -> None:
        """Page views of the ledger (only the rows on screen are read), its statistics (SQL
        aggregates) and the storage warnings."""
        from koikoi_desktop.storage.queries import PagedRows

        store = self.storage
        if store is not None:
            self.counts = {c: store.ledger.count(computer=c) for c in (False, True)}
            if not self.counts[True]:
                self.computer = False
            computer = self.computer
            count = self.counts[computer]
            self.records = PagedRows(  # full records, parsed: read a few at a time
                count,
                lambda offset, limit: store.ledger.page(offset, limit, computer=computer),
                page=10,
            )
            self.summaries = PagedRows(
                count,
                lambda offset, limit: store.ledger.summaries(offset, limit, computer=computer),
            )
        else:
            self.counts = {False: 0, True: 0}
            self.records, self.summaries = [], []
        self._stats = None  # computed when the statistics are first shown
        self._generation = store.ledger.generation if store is not None else 0
        self._history = None
        self._ratings = None
        self.selected = max(0, min(self.selected, len(self.records) - 1))
        if self.opened is not None and self.opened >= len(self.records):
            self.opened, self.view = None, "matches"
        self.notices = list(store.warnings) if store is not None else []

    def warning_lines(self, words: Words) -> list[str]:
        """The storage's notices in ``words``, one line each (the last says how many more)."""
        lines = [notice_text(words, n) for n in self.notices]
        if len(lines) > MAX_WARNING_LINES:
            more = len(lines) - (MAX_WARNING_LINES - 1)
            lines = [*lines[: MAX_WARNING_LINES - 1], words.t("ui.ledger.more_warnings", n=more)]
        return lines

    @property
    def stats(self) -> LedgerStats:
        """Lifetime statistics, computed by SQL the first time they are shown (with 100,000
        matches they take a second or two: the list of matches does not wait for them)."""
        if self._stats is None:
            self._stats = self.compute_stats()
        return self._stats

    @property
    def history(self) -> Sequence[tuple[str, str, int, int]]:
        """The final totals of the last :data:`HISTORY` matches (one SQL query with a limit),
        read when the statistics are first shown."""
        if self._history is None:
            store = self.storage
            self._history = store.ledger.balance_history(HISTORY) if store is not None else []
        return self._history

    @property
    def ratings(self) -> Sequence[RatingPoint]:
        """The player's rating after each of the last :data:`HISTORY` rated matches (one SQL
        query with a limit), read when the statistics are first shown."""
        if self._ratings is None:
            store = self.storage
            self._ratings = store.ledger.rating_history(HISTORY) if store is not None else []
        return self._ratings

    def compute_stats(self) -> LedgerStats:
        store = self.storage
        if store is not None:
            return store.ledger.stats(include_practice=self.include_practice)
        from koikoi_desktop.storage.stats import LedgerStats

        return LedgerStats.empty()

    def enter(self) -> None:
        self.load()
        self.build()

    def still_for(self) -> float:
        """The ledger changes only on input, or when a newer ledger is to be read (damaged rows
        a draw met are set aside on the idle loop's next wake-up, within ``MAX_SLEEP``)."""
        store = self.storage
        if store is not None and store.ledger.generation != self._generation:
            return 0.0
        if store is not None and store.counting:  # its end is taken by update (store.tidy)
            return COUNTING_POLL
        return math.inf

    def update(self, dt: float) -> None:
        """Between frames: damaged rows the last draw skipped are set aside (one counted line),
        and the pages are read again without them."""
        super().update(dt)
        store = self.storage
        if store is None:
            return
        store.tidy()
        if store.ledger.generation != self._generation:
            self.load()

    def resume(self) -> None:
        self.load()
        self.build()

    def resize(self, size: tuple[int, int]) -> None:
        self.frame.size = size
        self.build()

    # ------------------------------------------------------------------ header
    def header_items(self) -> list[tuple[Label, Callable[[], object]]]:
        return [
            (Key("ui.ledger.export_csv"), lambda: self.export("csv")),
            (Key("ui.ledger.export_json"), lambda: self.export("json")),
            (Key("ui.ledger.review"), self.review),
        ]

    def build(self) -> None:
        """The header buttons: the exports (the player's ledger only) and Review, then Back."""
        self.frame.build(self.header_items())
        can_export = bool(self.counts[False]) and self.storage is not None
        for b in self.frame.buttons[:2]:
            b.enabled = can_export  # the export is the player's ledger
        self.frame.buttons[2].enabled = bool(self.records) and self.storage is not None
        self.frame.focus.set(self.frame.buttons)

    def export(self, fmt: Literal["csv", "json"]) -> None:
        """Write the ledger to the data folder's ``exports/`` and say where."""
        store = self.storage
        if store is None or not self.counts[False]:
            return
        try:
            path = store.export(fmt)
        except OSError as exc:
            self.export_path = None
            self.message = Key("ui.ledger.export_failed", reason=cause_label(refusal_of(exc)))
            return
        self.export_path = path
        self.message = Key("ui.ledger.exported", path=str(path))

    def review(self) -> None:
        """Open the review of the opened match (or the selected one in the list): R."""
        store = self.storage
        if store is None or not self.records:
            return
        index = self.opened if self.view == "match" and self.opened is not None else self.selected
        rec = self.record_at(index)
        found = store.ledger.get(rec.match_id) if rec is not None else None
        if rec is None or found is None or not found[1]:
            self.export_path = None
            self.message = Key("ui.ledger.no_record")
            return
        from koikoi_desktop.ai import LEVELS

        level = rec.opponent_level
        me = rec.player_seat
        seats = None
        if self.computer:
            pass  # two computers: nothing to play again from the player's seat
        elif level in LEVELS:
            seats = ("human", level) if me == 0 else (level, "human")
        elif level in ("hotseat", "human"):
            seats = ("human", "human")
        self.app.stack.push(
            self.app.router.build(
                screens.Review(
                    record=found[1],
                    match_id=rec.match_id,
                    names=self.names(rec),
                    viewer=me,
                    seats=seats,
                )
            )
        )

    def close(self) -> None:
        if self.view == "match":
            self.show_list()
            return
        go_back(self.app)

    # ------------------------------------------------------------------ navigation
    def set_view(self, view: str) -> None:
        if view == "match" and self.opened is None:
            return
        self.view = view

    def show_list(self) -> None:
        self.view = "matches"
        if self.opened is not None:
            self.selected = self.opened
            self.ensure_visible()

    def tabs(self) -> list[tuple[str, bool]]:
        """The chips shown: the computer matches' only when there are any."""
        return [t for t in TABS if not t[1] or self.counts[True]]

    def tab(self) -> tuple[str, bool]:
        """The chip that is lit (an open match belongs to its list's chip)."""
        return ("stats", False) if self.view == "stats" else ("matches", self.computer)

    def show_tab(self, view: str, computer: bool) -> None:
        """Switch to a chip's view; choosing the other list reads it from the start."""
        if view == "matches" and computer != self.computer:
            self.computer = computer
            self.opened, self.selected = None, 0
            self.scroll["matches"] = 0
            self.view = "matches"
            self.load()
            self.build()
        elif view == "matches":
            self.show_list()
        else:
            self.set_view(view)

    def open_match(self, index: int) -> None:
        if 0 <= index < len(self.records):
            rec = self.record_at(index)
            if rec is None:  # its record does not read: set aside between frames
                return
            self.deal_check(rec.match_id)
            self.opened = index
            self.selected = index
            self.scroll["match"] = 0
            self.view = "match"

    def toggle_practice(self) -> None:
        self.include_practice = not self.include_practice
        self._stats = None

    def row_h(self) -> int:
        return self.frame.px(66)

    def footer_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if self.message:
            lines.append((say(self.message, self.app.words), theme.OCHRE))
        lines += [(w, theme.DANGER) for w in self.warning_lines(self.app.words)]
        return lines

    def body(self) -> pygame.Rect:
        top = self.frame.px(120)
        foot = len(self.footer_lines()) * self.frame.px(24)
        bottom = self.frame.size[1] - self.frame.px(16) - foot
        return pygame.Rect(
            self.frame.px(24),
            top,
            self.frame.size[0] - self.frame.px(56),
            max(self.frame.px(80), bottom - top),
        )

    def limit(self, view: str) -> int:
        return max(0, self.content_h[view] - self.body().h)

    def scroll_by(self, dy: int) -> None:
        v = self.view
        self.content_h["matches"] = len(self.records) * self.row_h()
        self.scroll[v] = max(0, min(self.limit(v), self.scroll[v] + dy))

    def ensure_visible(self) -> None:
        rh, body = self.row_h(), self.body()
        self.content_h["matches"] = len(self.records) * rh
        top = self.selected * rh
        s = self.scroll["matches"]
        if top < s:
            s = top
        elif top + rh > s + body.h:
            s = top + rh - body.h
        self.scroll["matches"] = max(0, min(self.limit("matches"), s))

    def select(self, index: int) -> None:
        if self.records:
            self.selected = max(0, min(len(self.records) - 1, index))
            self.ensure_visible()

    def handle(self, intent: Intent) -> None:
        """Esc goes back; the frame takes the header buttons, the rows and chips drawn, the
        wheel over the body; then the wheel elsewhere and the keys (see the module docstring);
        a key the ledger does not use moves the header buttons' focus."""
        self.frame.route(intent, back=self.close, wheel=self.on_wheel, key=self.on_key)

    def on_wheel(self, dy: int) -> None:
        self.scroll_by(-dy * self.frame.px(60))

    def on_key(self, intent: Intent) -> bool:
        page = max(1, self.body().h // self.row_h())
        kind = intent.kind
        ends = (IntentKind.HOME, IntentKind.END)
        if kind in (
            IntentKind.UP,
            IntentKind.DOWN,
            IntentKind.PAGE_UP,
            IntentKind.PAGE_DOWN,
            *ends,
        ):
            self.frame.focus.keyboard_used = False
        if self.view == "matches":
            step = {
                IntentKind.UP: -1,
                IntentKind.DOWN: 1,
                IntentKind.PAGE_UP: -page,
                IntentKind.PAGE_DOWN: page,
            }.get(kind, 0)
            if step:
                self.select(self.selected + step)
                return True
            if kind in ends:
                self.select(0 if kind == IntentKind.HOME else len(self.records) - 1)
                return True
            if (
                intent.kind == IntentKind.CONFIRM
                and not self.frame.focus.keyboard_used
                and self.records
            ):
                self.open_match(self.selected)
                return True
        else:
            body_h = self.body().h
            amount = {
                IntentKind.UP: -self.frame.px(48),
                IntentKind.DOWN: self.frame.px(48),
                IntentKind.PAGE_UP: -int(body_h * 0.9),
                IntentKind.PAGE_DOWN: int(body_h * 0.9),
                IntentKind.HOME: -(10**9),
                IntentKind.END: 10**9,
            }.get(kind, 0)
            if amount:
                self.scroll_by(amount)
                return True
        if intent.letter == "r":
            self.review()
            return True
        if intent.kind in (IntentKind.LEFT, IntentKind.RIGHT):
            d = 1 if intent.kind == IntentKind.RIGHT else -1
            if self.view == "match" and self.opened is not None:
                self.open_match(max(0, min(len(self.records) - 1, self.opened + d)))
            else:
                tabs = self.tabs()
                self.show_tab(*tabs[(tabs.index(self.tab()) + d) % len(tabs)])
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        if self.frame.stale(surface.get_size()):
            self.resize(surface.get_size())  # measured again for a new size or language
        self.frame.draw_backdrop(surface)
        self.draw_tabs(surface)
        body = self.body()
        self.frame.wheel(body, self.on_wheel)
        clip = surface.get_clip()
        surface.set_clip(body.inflate(self.frame.px(8), 0))
        if self.storage is None:
            self.draw_empty(surface, body, words.t("ui.ledger.unavailable"), "")
        elif self.view == "match" and self.opened is not None:
            self.draw_match(surface, body)
        elif self.view == "stats":
            self.draw_stats(surface, body)
        else:
            self.draw_list(surface, body)
        surface.set_clip(clip)
        self.draw_scrollbar(surface, body)
        self.draw_footer(surface)
        self.frame.draw_buttons(surface)

    def draw_tabs(self, surface: pygame.Surface) -> None:
        words = self.app.words
        x, y, h = self.frame.px(24), self.frame.px(70), self.frame.px(34)
        f = self.frame.font(15)
        labels = {
            ("matches", False): words.t("ui.ledger.tab.matches", n=self.counts[False]),
            ("matches", True): words.t("ui.ledger.tab.computer", n=self.counts[True]),
            ("stats", False): words.t("ui.ledger.tab.stats"),
        }
        lit = self.tab()
        for tab in self.tabs():
            label = labels[tab]
            w = chip_width(label, f, self.frame.px(14))
            r = pygame.Rect(x, y, w, h)
            chip(surface, r, label, f, active=tab == lit)
            self.frame.hit(r, self._tab_cb(*tab))
            x += w + self.frame.px(8)
        if self.view == "matches" and self.records:
            gfx.blit_text(
                surface,
                words.t("ui.ledger.hint"),
                self.frame.font(13),
                (x + self.frame.px(10), y + h // 2),
                color=theme.MUTED,
                anchor="midleft",
                max_width=max(20, self.frame.size[0] - x - self.frame.px(40)),
            )

    def _tab_cb(self, view: str, computer: bool) -> Callable[[], None]:
        return lambda: self.show_tab(view, computer)

    def draw_scrollbar(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        v = "matches" if self.view == "matches" else self.view
        total = self.content_h[v]
        if total <= body.h or self.storage is None:
            return
        bar_h = max(self.frame.px(30), body.h * body.h // total)
        top = body.y + (body.h - bar_h) * self.scroll[v] // max(1, total - body.h)
        pygame.draw.rect(
            surface,
            theme.PANEL_EDGE,
            pygame.Rect(body.right + self.frame.px(10), top, self.frame.px(6), bar_h),
            border_radius=3,
        )

    def draw_footer(self, surface: pygame.Surface) -> None:
        words = self.app.words
        lines = self.footer_lines()
        lh = self.frame.px(24)
        y = self.frame.size[1] - self.frame.px(12) - lh * len(lines)
        f = self.frame.font(15)
        width = self.frame.size[0] - self.frame.px(48)
        if self.message and self.export_path is not None:  # keep the file name in view
            room = width - gfx.measure(words.t("ui.ledger.exported", path=""), f)[0]
            path = shorten_middle(str(self.export_path), f, room)
            lines[0] = (words.t("ui.ledger.exported", path=path), lines[0][1])
        for text, color in lines:
            gfx.blit_text(
                surface,
                text,
                f,
                (self.frame.px(24), y + lh // 2),
                color=color,
                anchor="midleft",
                max_width=width,
            )
            y += lh

    def draw_empty(self, surface: pygame.Surface, body: pygame.Rect, title: str, text: str) -> None:
        words = self.app.words
        w = min(body.w, self.frame.px(720))
        y = body.y + max(self.frame.px(20), body.h // 5)
        gfx.blit_text(
            surface,
            title,
            self.frame.font(26),
            (body.centerx, y),
            bold=True,
            anchor="midtop",
            color=theme.OCHRE,
            max_width=w,
        )
        y += self.frame.px(48)
        f = self.frame.font(17)
        for line in gfx.wrap(text, f, w) if text else []:
            r = gfx.blit_text(surface, line, f, (body.centerx, y), anchor="midtop", max_width=w)
            y += int(r.h * 1.25)
        if self.storage is not None and self.view == "matches":
            label = words.t("ui.common.new_game")
            bw = max(
                self.frame.px(180),
                gfx.measure(label, self.frame.font(17), bold=True)[0] + self.frame.px(40),
            )
            r = pygame.Rect(0, 0, bw, self.frame.px(44))
            r.midtop = (body.centerx, y + self.frame.px(20))
            pygame.draw.rect(surface, theme.DEEP_RED, r, border_radius=8)
            pygame.draw.rect(surface, theme.PANEL_EDGE, r, width=1, border_radius=8)
            gfx.blit_text(surface, label, self.frame.font(17), r.center, bold=True, anchor="center")
            self.frame.hit(r, self.new_game)

    def new_game(self) -> None:
        self.app.stack.replace(self.app.router.build(screens.NewGame()))

    # ---- the list
    def draw_list(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        words = self.app.words
        rh = self.row_h()
        self.content_h["matches"] = len(self.records) * rh
        if not self.records:
            self.draw_empty(
                surface, body, words.t("ui.ledger.empty.title"), words.t("ui.ledger.empty.text")
            )
            return
        self.scroll["matches"] = min(self.scroll["matches"], self.limit("matches"))
        first = self.scroll["matches"] // rh
        last = min(len(self.records), (self.scroll["matches"] + body.h) // rh + 1)
        for i in range(first, last):
            try:
                summary = self.summaries[i]
            except IndexError:  # damaged rows skipped on this page: fewer lines
                break
            y = body.y + i * rh - self.scroll["matches"]
            r = pygame.Rect(body.x, y, body.w, rh - self.frame.px(6))
            self.draw_row(surface, r, summary, selected=i == self.selected)
            self.frame.hit(r.clip(body), self._open_cb(i))

    def _open_cb(self, i: int) -> Callable[[], None]:
        return lambda: self.open_match(i)

    def draw_row(
        self, surface: pygame.Surface, r: pygame.Rect, s: MatchSummary, *, selected: bool
    ) -> None:
        words = self.app.words
        gfx.draw_panel(surface, r, alpha=225, radius=8)
        if selected:
            pygame.draw.rect(surface, theme.OCHRE, r, width=3, border_radius=8)
        pad = self.frame.px(10)
        badge = pygame.Rect(r.x + pad, r.y + pad, self.frame.px(96), r.h - 2 * pad)
        color = {"win": theme.PINE, "loss": theme.DEEP_RED}.get(s.result, theme.BUTTON_HOVER)
        pygame.draw.rect(surface, color, badge, border_radius=6)
        gfx.blit_text(
            surface,
            result_label(words, s.result),
            self.frame.font(16),
            badge.center,
            bold=True,
            anchor="center",
            max_width=badge.w - 6,
        )
        # the score at the right
        score_w = self.frame.px(190)
        score = f"{s.player_total} : {s.opponent_total}"
        gfx.blit_text(
            surface,
            score,
            self.frame.font(22),
            (r.right - pad, r.y + self.frame.px(8)),
            bold=True,
            anchor="topright",
            max_width=score_w,
        )
        gfx.blit_text(
            surface,
            words.t(
                "ui.ledger.score_caption_computer" if self.computer else "ui.ledger.score_caption",
                unit=unit_word(words, s.unit),
            ),
            self.frame.font(13),
            (r.right - pad, r.bottom - self.frame.px(8)),
            color=theme.MUTED,
            anchor="bottomright",
            max_width=score_w,
        )
        x = badge.right + self.frame.px(14)
        text_w = r.right - pad - score_w - x
        line1 = ruleset_label(words, s.preset, s.custom)
        l1 = gfx.blit_text(
            surface,
            line1,
            self.frame.font(17),
            (x, r.y + self.frame.px(8)),
            bold=True,
            max_width=text_w,
        )
        marks = []
        if s.practice:
            marks.append(words.t("ui.ledger.practice"))
        if s.ending != "completed":
            marks.append(ending_label(words, s.ending))
        if s.help_level:
            marks.append(help_label(words, s.help_level))
        mx = l1.right + self.frame.px(10)
        for mark in marks:
            f = self.frame.font(13)
            mw = chip_width(mark, f, self.frame.px(8))
            if mx + mw > x + text_w:
                break
            mr = pygame.Rect(mx, l1.y + self.frame.px(1), mw, self.frame.px(22))
            pygame.draw.rect(surface, theme.INDIGO, mr, border_radius=mr.h // 2)
            pygame.draw.rect(surface, theme.PAPER, mr, width=1, border_radius=mr.h // 2)
            gfx.blit_text(surface, mark, f, mr.center, anchor="center")
            mx += mw + self.frame.px(6)
        if self.computer:
            first, second = self.computer_names(words, s.opponent_name, s.opponent_level)
            who = words.t("ui.ledger.computer_vs", a=first, b=second)
        else:  # the player sits at seat 0 at a hot seat; a default name is the same at either
            who = words.t(
                "ui.ledger.against", name=opponent_text(words, s.opponent_name, s.opponent_level)
            )
        parts = [date_text(s.date), who, words.t("ui.ledger.rounds_n", n=s.rounds)]
        gfx.blit_text(
            surface,
            " · ".join(parts),
            self.frame.font(14),
            (x, r.bottom - self.frame.px(8)),
            color=theme.MUTED,
            anchor="bottomleft",
            max_width=text_w,
        )

    # ---- one match
    @staticmethod
    def computer_names(words: Words, typed: str, level: str) -> tuple[str, str]:
        """The seats of a computer match as the table named them ("Computer 1", "Computer 2"),
        in ``words``, with seat 2's recorded level."""
        return RecordedNames(typed, level, computer=True).now(words)

    def names(self, rec: MatchRecord) -> RecordedNames:
        """The seats' names of ``rec`` as facts, worded when drawn (the review keeps them, and
        words them in the language of the moment)."""
        return RecordedNames(
            rec.opponent_name, rec.opponent_level, rec.player_seat, computer=self.computer
        )

    def match_header(self, rec: MatchRecord) -> list[tuple[str, int, tuple[int, int, int], bool]]:
        words = self.app.words
        names = self.names(rec).now(words)
        me = rec.player_seat
        unit = unit_word(words, rec.unit)
        result = result_label(words, rec.player_result)
        if self.computer and rec.winner is not None:
            result = words.t("ui.ledger.seat_won", name=names[rec.winner])
        head = f"{result} · {date_text(rec.date)} · " + ruleset_label(
            words, rec.preset, bool(rec.options)
        )
        lines = [(head, 24, theme.OCHRE, True)]
        against = (
            words.t("ui.ledger.computer_vs", a=names[0], b=names[1])
            if self.computer
            else words.t(
                "ui.ledger.against",
                name=opponent_text(words, rec.opponent_name, rec.opponent_level, rec.player_seat),
            )
        )
        sub = [against, words.t("ui.ledger.rounds_n", n=len(rec.rounds))]
        if rec.practice:
            sub.append(words.t("ui.ledger.practice"))
        if rec.ending != "completed":
            sub.append(ending_label(words, rec.ending))
        if rec.help_level:
            sub.append(help_label(words, rec.help_level))
        lines.append((" · ".join(sub), 17, theme.PAPER, False))
        lines.append(
            (
                words.t(
                    "ui.ledger.final_balances",
                    a=names[me],
                    x=rec.final_balances[me],
                    b=names[1 - me],
                    y=rec.final_balances[1 - me],
                    unit=unit,
                ),
                17,
                theme.PAPER,
                True,
            )
        )
        if rec.options:
            lines.append(
                (
                    words.t("ui.ledger.changed_rules", list=options_text(words, rec.options)),
                    15,
                    theme.MUTED,
                    False,
                )
            )
        deals = self._deals.get(rec.match_id)  # checked when the match was opened
        if deals is not None:
            check, seed = deals
            color = (
                theme.MUTED
                if check.verdict in ("fair", "set_up", "no_commitment")
                else theme.DANGER
            )
            lines.append((check_text(words, check, seed), 15, color, False))
        return lines

    def deal_check(self, match_id: str) -> tuple[DealCheck, int | None] | None:
        """The check of a recorded match's deals (engine.verify_deals), read once a match."""
        if match_id not in self._deals:
            store = self.storage
            found = store.ledger.get(match_id) if store is not None else None
            got: tuple[DealCheck, int | None] | None = None
            if found is not None and found[1]:
                try:
                    check, text = record_check(found[1])
                    got = (check, text.seed)
                except RecordError:
                    got = None  # the review says why it cannot replay; nothing to check here
            self._deals[match_id] = got
        return self._deals[match_id]

    def round_lines(self, rec: MatchRecord, e: RoundEntry) -> tuple[list[Line], list[Line]]:
        """The §11 entry of one round as two columns of text lines (text, colour, bold): who and
        how on the left, the score on the right."""
        words = self.app.words
        names = self.names(rec).now(words)
        winner = (
            words.t("ui.ledger.round.winner", name=names[e.winner])
            if e.winner is not None
            else words.t("ui.ledger.round.no_winner")
        )
        left: list[Line] = [
            (f"{words.t('ui.common.round_n', n=e.round)} · {winner}", theme.PAPER, True),
            (words.t("ui.ledger.round.dealer", name=names[e.dealer]), theme.PAPER, False),
            (words.t("ui.summary.ended", reason=end_text(words, e.end)), theme.MUTED, False),
        ]
        calls = e.koikoi_calls
        if calls is not None and any(calls):
            left.append(
                (
                    words.t(
                        "ui.ledger.round.koikoi", a=names[0], x=calls[0], b=names[1], y=calls[1]
                    ),
                    theme.MUTED,
                    False,
                )
            )
        right: list[Line] = []
        if e.yaku:
            items = ", ".join(f"{recorded_yaku_name(words, y.key)} {y.points}" for y in e.yaku)
            right.append((words.t("ui.ledger.round.yaku", list=items), theme.PAPER, False))
        else:
            right.append((words.t("ui.ledger.round.no_yaku"), theme.MUTED, False))
        calc = [words.t("ui.summary.base", n=e.base)]
        calc += [f"× {f.factor} ({factor_text(words, f.name, f.factor)})" for f in e.factors]
        calc.append(f"= {e.final}")
        right.append((words.t("ui.ledger.round.score", calc=" ".join(calc)), theme.PAPER, False))
        right.append(
            (
                words.t("ui.ledger.round.paid", amount=amount_text(words, e.paid, rec.unit)),
                theme.OCHRE,
                True,
            )
        )
        right.append(
            (
                words.t(
                    "ui.ledger.round.balances",
                    a=names[0],
                    x=e.balances[0],
                    b=names[1],
                    y=e.balances[1],
                ),
                theme.PAPER,
                False,
            )
        )
        return left, right

    def record_at(self, index: int) -> MatchRecord | None:
        """The full record of the list's line ``index``; None when it does not read (the row
        is set aside between frames and the list read again)."""
        try:
            summary = self.summaries[index]
            rec = self.records[index]
        except IndexError:
            return None
        if rec.match_id == summary.match_id:
            return rec
        store = self.storage  # the pages shifted past a skipped row: read this one by its id
        found = store.ledger.get(summary.match_id) if store is not None else None
        return None if found is None else found[0]

    def draw_match(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        words = self.app.words
        rec = self.record_at(self.opened or 0)
        if rec is None:
            return
        self.scroll["match"] = min(self.scroll["match"], self.limit("match"))
        y0 = body.y - self.scroll["match"]
        y = y0
        width = body.w - self.frame.px(8)
        for text, size, color, bold in self.match_header(rec):
            y = paragraph(
                surface, text, self.frame.font(size), body.x, y, width, color=color, bold=bold
            )
        y += self.frame.px(10)
        if not rec.rounds:
            y = paragraph(
                surface,
                words.t("ui.ledger.no_rounds"),
                self.frame.font(17),
                body.x,
                y,
                width,
                color=theme.MUTED,
            )
        f = self.frame.font(16)
        pad = self.frame.px(12)
        inner = width - 2 * pad
        two = inner >= self.frame.px(640)  # side by side when there is room, else one column
        left_w = int(inner * 0.42) if two else inner
        right_x = body.x + pad + (left_w + self.frame.px(20) if two else 0)
        right_w = inner - left_w - self.frame.px(20) if two else inner
        for e in rec.rounds:
            left, right = self.round_lines(rec, e)
            lh = pad
            for text, _, bold in left:
                lh = paragraph(None, text, f, 0, lh, left_w, bold=bold)
            rh = lh if not two else pad
            for text, _, bold in right:
                rh = paragraph(None, text, f, 0, rh, right_w, bold=bold)
            h = max(lh, rh) + pad - self.frame.px(4)
            panel = pygame.Rect(body.x, y, width, h)
            if panel.bottom >= body.y and panel.y <= body.bottom:
                gfx.draw_panel(surface, panel, alpha=215, radius=8)
                ty = y + pad
                for text, color, bold in left:
                    ty = paragraph(
                        surface, text, f, body.x + pad, ty, left_w, color=color, bold=bold
                    )
                if two:
                    sep = body.x + pad + left_w + self.frame.px(10)
                    pygame.draw.line(surface, theme.PANEL_EDGE, (sep, y + pad), (sep, y + h - pad))
                    ty = y + pad
                for text, color, bold in right:
                    ty = paragraph(surface, text, f, right_x, ty, right_w, color=color, bold=bold)
            y += h + self.frame.px(8)
        self.content_h["match"] = y - y0

    # ---- statistics
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
        series = [
            Series(
                words.t(now),
                (start, *(p.rating for p in points)),
                theme.OCHRE,
            )
        ]
        rect = pygame.Rect(x, y, w, self.frame.px(200))
        return LineChart(
            rect.inflate(-self.frame.px(20), -self.frame.px(12)),
            series,
            x_labels=[words.t("ui.result.start"), *(str(i) for i in range(1, len(points) + 1))],
            tips=[[], *tips],
            font=self.frame.font(14),
            title=words.t("ui.rating.chart_title"),
        )

    def draw_stats(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        words = self.app.words
        store = self.storage
        if store is not None and store.counting:  # never figures of a ledger that changed
            self.content_h["stats"] = 0
            self.draw_empty(
                surface,
                body,
                words.t("ui.ledger.counting.title"),
                words.t("ui.ledger.counting.text"),
            )
            return
        st = self.stats
        self.scroll["stats"] = min(self.scroll["stats"], self.limit("stats"))
        y0 = body.y - self.scroll["stats"]
        if st is None or (st.overall.matches == 0 and st.practice_matches == 0):
            self.content_h["stats"] = 0
            self.draw_empty(
                surface, body, words.t("ui.ledger.empty.title"), words.t("ui.ledger.empty.stats")
            )
            return
        y = y0
        chart = self.history_chart(body.x, y, body.w - self.frame.px(8))
        if chart is not None:
            panel = chart.rect.inflate(self.frame.px(20), self.frame.px(12))
            gfx.draw_panel(surface, panel, alpha=215, radius=8)
            hover = (
                chart.nearest(self.frame.pointer) if body.collidepoint(self.frame.pointer) else None
            )
            chart.draw(surface, hover=hover)
            y = panel.bottom + self.frame.px(18)
        rating = self.rating_chart(body.x, y, body.w - self.frame.px(8))
        if rating is not None:
            panel = rating.rect.inflate(self.frame.px(20), self.frame.px(12))
            gfx.draw_panel(surface, panel, alpha=215, radius=8)
            hover = (
                rating.nearest(self.frame.pointer)
                if body.collidepoint(self.frame.pointer)
                else None
            )
            rating.draw(surface, hover=hover)
            y = panel.bottom + self.frame.px(18)
        gap = self.frame.px(28)
        col_w = (body.w - gap - self.frame.px(8)) // 2
        left = self.stats_left(surface, st, body.x, y, col_w)
        right = self.stats_right(surface, st, body.x + col_w + gap, y, col_w)
        self.content_h["stats"] = max(left, right) - y0

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
            unit_name = unit_heading(words, unit)
            y = self.line(
                surface,
                words.t(
                    "ui.ledger.stats.won_lost",
                    unit=unit_name,
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
