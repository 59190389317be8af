"""The ledger's list: every recorded match newest first, one row each, and the export.

A row: result, rules ("Custom, based on …" for a changed preset), date, opponent and level, a
practice mark, rounds, and both final totals. The player's matches, or — under their own chip,
shown once there are any — the computer-vs-computer matches ``--autoplay --record`` wrote
(result and totals from Computer 1's seat). The statistics chip opens the statistics screen; a
row (click, or Enter on the selected one) opens the match screen; coming back, the list is read
again and the row the match screen was left on is selected.

Header buttons export the ledger as CSV or JSON through :meth:`Storage.export` (files go to the
data folder's ``exports/``; the path written is shown at the bottom) and open the review of the
selected match (R). Storage warnings (a damaged file kept aside, a full disk, a second copy of
the game) are shown one line each under it.

Input: the wheel scrolls; up/down select a match, Page Up/Down and Home/End jump, Enter or a
click opens it, left/right move between the chips, Tab reaches the header buttons, Esc goes back.

Decisions:

* The screen reads Storage when it is entered or uncovered (a snapshot): ``draw`` never touches
  the disk, and a match recorded meanwhile appears on the next visit.
* Only the visible rows are drawn, so a ledger of thousands of matches scrolls as fast as one of
  three.
* Computer-vs-computer matches are a filter of the list, never part of the player's list or
  statistics; their seats are named from the seat numbers when drawn ("Computer 1", "Computer 2
  (Intermediate)"), not from the name stored in the language of the day they were recorded.
* A long export path is shortened in the middle, so the file name stays readable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pygame

from koikoi_desktop.i18n import Key, Label
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.learning import chip_width
from koikoi_desktop.scenes.ledger.common import (
    LedgerRows,
    Scroll,
    Tab,
    body_rect,
    computer_names,
    date_text,
    draw_empty,
    draw_footer,
    draw_scrollbar,
    draw_tabs,
    footer_lines,
    next_tab,
    open_review,
    still_for,
)
from koikoi_desktop.scenes.screen_frame import ScreenFrame, go_back
from koikoi_desktop.storage.cause import refusal_of
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.words.names import (
    ending_label,
    help_label,
    opponent_text,
    result_label,
    ruleset_label,
    unit_word,
)
from koikoi_desktop.words.storage import cause_label

if TYPE_CHECKING:
    from koikoi_desktop.storage import Storage
    from koikoi_desktop.storage.stats import MatchSummary


class LedgerListScene(Scene):
    """The list of recorded matches (the player's or the computers'), its export and warnings.

    It holds the screen's frame (``self.frame``) and the rows read from storage
    (``self.rows``)."""

    name = "ledger"

    def __init__(self, app: AppServices, screen: screens.Ledger | None = None) -> None:
        super().__init__(app)
        self.frame = ScreenFrame(app, heading=Key("ui.ledger.title"), back=self.close)
        self.rows = LedgerRows(app.storage, computer=screen.computer if screen else False)
        #: The one-line answer of the last command (an export's path, why a review cannot open),
        #: worded when drawn.
        self.message: Label = ""
        self.export_path: Path | None = None
        self.selected = 0
        self.scroll = Scroll()

    # ------------------------------------------------------------------ data
    @property
    def storage(self) -> Storage | None:
        return self.app.storage

    @property
    def computer(self) -> bool:
        """The list shows the computer-vs-computer matches (their chip) instead of the player's."""
        return self.rows.computer

    def load(self) -> None:
        """Page views of the list (only the rows on screen are read) and the warnings."""
        self.rows.store = self.storage
        self.rows.read()
        self.selected = max(0, min(self.selected, len(self.rows) - 1))

    def enter(self) -> None:
        self.load()
        self.build()

    def resume(self) -> None:
        self.load()
        self.build()
        self.ensure_visible()

    def still_for(self) -> float:
        return still_for(self.storage, self.rows.generation)

    def update(self, dt: float) -> None:
        """Between frames: damaged rows the last draw skipped are set aside (one counted line),
        and the pages are read again without them."""
        super().update(dt)
        store = self.storage
        if store is None:
            return
        store.tidy()
        if self.rows.stale():
            self.load()

    def resize(self, size: tuple[int, int]) -> None:
        self.frame.size = size
        self.build()

    # ------------------------------------------------------------------ header
    def build(self) -> None:
        """The header buttons: the exports (the player's ledger only) and Review, then Back."""
        self.frame.build(
            [
                (Key("ui.ledger.export_csv"), lambda: self.export("csv")),
                (Key("ui.ledger.export_json"), lambda: self.export("json")),
                (Key("ui.ledger.review"), self.review),
            ]
        )
        can_export = bool(self.rows.counts[False]) and self.storage is not None
        for b in self.frame.buttons[:2]:
            b.enabled = can_export  # the export is the player's ledger
        self.frame.buttons[2].enabled = bool(len(self.rows)) and self.storage is not None
        self.frame.focus.set(self.frame.buttons)

    def export(self, fmt: Literal["csv", "json"]) -> None:
        """Write the ledger to the data folder's ``exports/`` and say where."""
        store = self.storage
        if store is None or not self.rows.counts[False]:
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
        """Open the review of the selected match (R)."""
        said = open_review(self.app, self.rows, self.selected)
        if said:
            self.export_path, self.message = None, said

    def close(self) -> None:
        go_back(self.app)

    # ------------------------------------------------------------------ navigation
    def choose(self, tab: Tab) -> None:
        """A chip chosen: the other list is read from its start; the statistics open over."""
        if tab == "stats":
            self.app.stack.push(self.app.router.build(screens.LedgerStats(on_list=self.show)))
        else:
            self.show(tab == "computer")

    def show(self, computer: bool) -> None:
        """Show the player's list or the computers' (the statistics' chips come back here)."""
        if computer == self.computer:
            return
        self.rows.computer = computer
        self.selected, self.scroll.offset = 0, 0
        self.load()
        self.build()

    def open_match(self, index: int) -> None:
        """Open the match on line ``index`` (its record read first: a row that does not read is
        set aside between frames)."""
        if not 0 <= index < len(self.rows) or self.rows.record_at(index) is None:
            return
        self.selected = index
        self.app.stack.push(
            self.app.router.build(
                screens.LedgerMatch(index=index, computer=self.computer, on_leave=self.came_back)
            )
        )

    def came_back(self, index: int) -> None:
        """The match screen was left on line ``index``: select it."""
        self.selected = index

    def row_h(self) -> int:
        return self.frame.px(66)

    def footer(self) -> list[tuple[str, tuple[int, int, int]]]:
        return footer_lines(self.app.words, self.message, self.rows.notices)

    def body(self) -> pygame.Rect:
        return body_rect(self.frame, len(self.footer()))

    def limit(self) -> int:
        return self.scroll.limit(self.body().h)

    def scroll_by(self, dy: int) -> None:
        self.scroll.content = len(self.rows) * self.row_h()
        self.scroll.by(dy, self.body().h)

    def ensure_visible(self) -> None:
        rh, body = self.row_h(), self.body()
        self.scroll.content = len(self.rows) * rh
        top = self.selected * rh
        s = self.scroll.offset
        if top < s:
            s = top
        elif top + rh > s + body.h:
            s = top + rh - body.h
        self.scroll.offset = max(0, min(self.limit(), s))

    def select(self, index: int) -> None:
        if len(self.rows):
            self.selected = max(0, min(len(self.rows) - 1, index))
            self.ensure_visible()

    def handle(self, intent: Intent) -> None:
        """Esc goes back; the frame takes the header buttons, the rows and chips drawn, the
        wheel over the body; then the wheel elsewhere and the keys (see the module docstring);
        a key the list does not use moves the header buttons' focus."""
        self.frame.route(intent, back=self.close, wheel=self.on_wheel, key=self.on_key)

    def on_wheel(self, dy: int) -> None:
        self.scroll_by(-dy * self.frame.px(60))

    def on_key(self, intent: Intent) -> bool:
        page = max(1, self.body().h // self.row_h())
        kind = intent.kind
        ends = (IntentKind.HOME, IntentKind.END)
        steps = {
            IntentKind.UP: -1,
            IntentKind.DOWN: 1,
            IntentKind.PAGE_UP: -page,
            IntentKind.PAGE_DOWN: page,
        }
        if kind in steps or kind in ends:
            self.frame.focus.keyboard_used = False
        if kind in steps:
            self.select(self.selected + steps[kind])
            return True
        if kind in ends:
            self.select(0 if kind == IntentKind.HOME else len(self.rows) - 1)
            return True
        if kind == IntentKind.CONFIRM and not self.frame.focus.keyboard_used and len(self.rows):
            self.open_match(self.selected)
            return True
        if intent.letter == "r":
            self.review()
            return True
        if kind in (IntentKind.LEFT, IntentKind.RIGHT):
            lit: Tab = "computer" if self.computer else "matches"
            step = 1 if kind == IntentKind.RIGHT else -1
            self.choose(next_tab(self.rows.counts, lit, step))
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        if self.frame.stale(surface.get_size()):
            self.resize(surface.get_size())  # measured again for a new size or language
        self.frame.draw_backdrop(surface)
        x = draw_tabs(
            surface,
            self.frame,
            self.rows.counts,
            "computer" if self.computer else "matches",
            self.choose,
        )
        if len(self.rows):
            gfx.blit_text(
                surface,
                words.t("ui.ledger.hint"),
                self.frame.font(13),
                (x + self.frame.px(10), self.frame.px(87)),
                color=theme.MUTED,
                anchor="midleft",
                max_width=max(20, self.frame.size[0] - x - self.frame.px(40)),
            )
        body = self.body()
        self.frame.wheel(body, self.on_wheel)
        clip = surface.get_clip()
        surface.set_clip(body.inflate(self.frame.px(8), 0))
        if self.storage is None:
            draw_empty(surface, self.frame, body, words.t("ui.ledger.unavailable"), "")
        else:
            self.draw_list(surface, body)
        surface.set_clip(clip)
        if self.storage is not None:
            draw_scrollbar(surface, self.frame, body, self.scroll)
        export = str(self.export_path) if self.message and self.export_path else None
        draw_footer(surface, self.frame, self.footer(), export)
        self.frame.draw_buttons(surface)

    def draw_empty_list(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        """No match recorded yet: say so, and offer a new game."""
        words = self.app.words
        y = draw_empty(
            surface,
            self.frame,
            body,
            words.t("ui.ledger.empty.title"),
            words.t("ui.ledger.empty.text"),
        )
        label = words.t("ui.common.new_game")
        f = self.frame.font(17)
        bw = max(self.frame.px(180), gfx.measure(label, f, bold=True)[0] + self.frame.px(40))
        r = pygame.Rect(0, 0, bw, self.frame.px(44))
        r.midtop = (body.centerx, y + self.frame.px(20))
        pygame.draw.rect(surface, theme.DEEP_RED, r, border_radius=8)
        pygame.draw.rect(surface, theme.PANEL_EDGE, r, width=1, border_radius=8)
        gfx.blit_text(surface, label, f, r.center, bold=True, anchor="center")
        self.frame.hit(r, self.new_game)

    def new_game(self) -> None:
        self.app.stack.replace(self.app.router.build(screens.NewGame()))

    def draw_list(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        rh = self.row_h()
        self.scroll.content = len(self.rows) * rh
        if not len(self.rows):
            self.draw_empty_list(surface, body)
            return
        self.scroll.clamp(body.h)
        first = self.scroll.offset // rh
        last = min(len(self.rows), (self.scroll.offset + body.h) // rh + 1)
        for i in range(first, last):
            try:
                summary = self.rows.summaries[i]
            except IndexError:  # damaged rows skipped on this page: fewer lines
                break
            y = body.y + i * rh - self.scroll.offset
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
        gfx.blit_text(
            surface,
            f"{s.player_total} : {s.opponent_total}",
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
        l1 = gfx.blit_text(
            surface,
            ruleset_label(words, s.preset, s.custom),
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
            first, second = computer_names(words, s.opponent_name, s.opponent_level)
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
