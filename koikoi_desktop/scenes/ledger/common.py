"""What the ledger's three screens share: the rows read from storage, the words of a recorded
match, and the frame's parts (chips, body, footer, scrollbar, the empty state).

Plain functions and small classes a screen holds and asks (:class:`LedgerRows`,
:class:`Scroll`, :class:`ScrolledPage`); no screen derives from anything here. The screens import
this module, never each other: one opens another through its record in
:mod:`koikoi_desktop.scenes.screens`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

import pygame

from koikoi_desktop.i18n import Key, Label, Words, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.learning import chip, chip_width
from koikoi_desktop.scenes.screen_frame import ScreenFrame
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.words.names import RecordedNames
from koikoi_desktop.words.storage import notice_text

if TYPE_CHECKING:
    from koikoi_desktop.storage import Storage
    from koikoi_desktop.storage.models import MatchRecord
    from koikoi_desktop.storage.notice import Notice
    from koikoi_desktop.storage.stats import MatchSummary

#: The chips at the top of the list and the statistics, in order. The computer chip is left
#: out while there are no computer matches.
Tab = Literal["matches", "computer", "stats"]
TABS: tuple[Tab, ...] = ("matches", "computer", "stats")
MAX_WARNING_LINES = 6
#: How often (seconds) an idle ledger screen looks whether the statistics are counted yet.
COUNTING_POLL = 0.25
#: A colour.
RGB = tuple[int, int, int]


# ---------------------------------------------------------------------------------- words


def date_text(when: datetime) -> str:
    """Local date and time, the same digits in every language."""
    try:
        return when.astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError, OSError):
        return when.strftime("%Y-%m-%d %H:%M")


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


def computer_names(words: Words, typed: str, level: str) -> tuple[str, str]:
    """The seats of a computer match as the table named them ("Computer 1", "Computer 2"),
    in ``words``, with seat 2's recorded level."""
    return RecordedNames(typed, level, computer=True).now(words)


def recorded_names(rec: MatchRecord, *, computer: bool) -> RecordedNames:
    """The seats' names of ``rec`` as facts, worded when drawn (the review keeps them, and
    words them in the language of the moment)."""
    return RecordedNames(rec.opponent_name, rec.opponent_level, rec.player_seat, computer=computer)


def warning_lines(words: Words, notices: Sequence[Notice]) -> list[str]:
    """Storage's notices in ``words``, one line each (the last says how many more)."""
    lines = [notice_text(words, n) for n in notices]
    if len(lines) > MAX_WARNING_LINES:
        more = len(lines) - (MAX_WARNING_LINES - 1)
        lines = [*lines[: MAX_WARNING_LINES - 1], words.t("ui.ledger.more_warnings", n=more)]
    return lines


# ---------------------------------------------------------------------------------- data


class LedgerRows:
    """One list of the ledger (the player's matches, or with ``computer`` the
    computer-vs-computer ones) as page views read from storage: only the rows looked at are
    read. A snapshot: :meth:`read` again when entered, uncovered, or when storage set damaged
    rows aside (:meth:`stale`)."""

    def __init__(self, store: Storage | None, *, computer: bool = False) -> None:
        self.store = store
        self.computer = computer
        #: How many matches each list holds.
        self.counts = {False: 0, True: 0}
        self.records: Sequence[MatchRecord] = []
        self.summaries: Sequence[MatchSummary] = []
        self.generation = 0
        #: Storage's notices as they were at the last read, worded when drawn.
        self.notices: list[Notice] = []

    def read(self) -> None:
        """Both lists' counts, this list's pages, the ledger's generation and the warnings
        (an empty computer list falls back to the player's)."""
        from koikoi_desktop.storage.queries import PagedRows

        store = self.store
        if store is None:
            self.counts = {False: 0, True: 0}
            self.records, self.summaries = [], []
            self.generation, self.notices = 0, []
            return
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
        self.generation = store.ledger.generation
        self.notices = list(store.warnings)

    def __len__(self) -> int:
        return len(self.records)

    def stale(self) -> bool:
        """Storage set damaged rows aside since the last read: the pages shifted."""
        return self.store is not None and self.store.ledger.generation != self.generation

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
        store = self.store  # the pages shifted past a skipped row: read this one by its id
        found = store.ledger.get(summary.match_id) if store is not None else None
        return None if found is None else found[0]

    def record_text(self, match_id: str) -> str:
        """The replayable record of a match ("" when it has none or it does not read)."""
        found = self.store.ledger.get(match_id) if self.store is not None else None
        return (found[1] or "") if found is not None else ""


def still_for(store: Storage | None, generation: int) -> float:
    """How long a ledger screen may sleep: it changes only on input, or when a newer ledger is
    to be read (damaged rows a draw met are set aside on the idle loop's next wake-up, within
    ``MAX_SLEEP``), or when a recount is to be taken (by ``store.tidy`` in ``update``)."""
    if store is not None and store.ledger.generation != generation:
        return 0.0
    if store is not None and store.counting:
        return COUNTING_POLL
    return math.inf


def open_review(app: AppServices, rows: LedgerRows, index: int) -> Label:
    """Open the review of the list's line ``index``; the line to show when it cannot open
    (no record kept), else ""."""
    if rows.store is None or not len(rows):
        return ""
    rec = rows.record_at(index)
    text = rows.record_text(rec.match_id) if rec is not None else ""
    if rec is None or not text:
        return Key("ui.ledger.no_record")
    from koikoi_desktop.ai import LEVELS

    level = rec.opponent_level
    me = rec.player_seat
    seats = None
    if rows.computer:
        pass  # two computers: nothing to play again from the player's seat
    elif level in LEVELS:
        seats = ("human", level) if me == 0 else (level, "human")
    elif level in ("hotseat", "human"):
        seats = ("human", "human")
    app.stack.push(
        app.router.build(
            screens.Review(
                record=text,
                match_id=rec.match_id,
                names=recorded_names(rec, computer=rows.computer),
                viewer=me,
                seats=seats,
            )
        )
    )
    return ""


# ---------------------------------------------------------------------------------- the frame


@dataclass
class Scroll:
    """How far a screen's body is scrolled (``offset``) and how tall its content was drawn."""

    offset: int = 0
    content: int = 0

    def limit(self, body_h: int) -> int:
        return max(0, self.content - body_h)

    def clamp(self, body_h: int) -> None:
        self.offset = max(0, min(self.offset, self.limit(body_h)))

    def by(self, dy: int, body_h: int) -> None:
        self.offset = max(0, min(self.limit(body_h), self.offset + dy))

    def by_key(self, kind: IntentKind, body_h: int, line: int) -> bool:
        """Scroll for a key: Up/Down a ``line``, Page Up/Down nine tenths of the body,
        Home/End to the ends. True when ``kind`` is one of them."""
        amount = {
            IntentKind.UP: -line,
            IntentKind.DOWN: line,
            IntentKind.PAGE_UP: -int(body_h * 0.9),
            IntentKind.PAGE_DOWN: int(body_h * 0.9),
            IntentKind.HOME: -(10**9),
            IntentKind.END: 10**9,
        }.get(kind, 0)
        self.by(amount, body_h)
        return amount != 0


def footer_lines(words: Words, message: Label, notices: Sequence[Notice]) -> list[tuple[str, RGB]]:
    """The lines under the body: the last command's answer, then storage's warnings."""
    lines: list[tuple[str, RGB]] = []
    if message:
        lines.append((say(message, words), theme.OCHRE))
    lines += [(w, theme.DANGER) for w in warning_lines(words, notices)]
    return lines


def body_rect(frame: ScreenFrame, footer: int) -> pygame.Rect:
    """The scrolled body of a ledger screen, above ``footer`` lines."""
    top = frame.px(120)
    bottom = frame.size[1] - frame.px(16) - footer * frame.px(24)
    return pygame.Rect(
        frame.px(24), top, frame.size[0] - frame.px(56), max(frame.px(80), bottom - top)
    )


def tabs(counts: dict[bool, int]) -> list[Tab]:
    """The chips shown: the computer matches' only when there are any."""
    return [t for t in TABS if t != "computer" or counts[True]]


def draw_tabs(
    surface: pygame.Surface,
    frame: ScreenFrame,
    counts: dict[bool, int],
    lit: Tab,
    choose: Callable[[Tab], object],
) -> int:
    """The chips, ``lit`` lit, each a hit region choosing its tab; returns the x after them."""
    words = frame.app.words
    x, y, h = frame.px(24), frame.px(70), frame.px(34)
    f = frame.font(15)
    labels: dict[Tab, str] = {
        "matches": words.t("ui.ledger.tab.matches", n=counts[False]),
        "computer": words.t("ui.ledger.tab.computer", n=counts[True]),
        "stats": words.t("ui.ledger.tab.stats"),
    }
    for tab in tabs(counts):
        label = labels[tab]
        w = chip_width(label, f, frame.px(14))
        r = pygame.Rect(x, y, w, h)
        chip(surface, r, label, f, active=tab == lit)
        frame.hit(r, _choice(choose, tab))
        x += w + frame.px(8)
    return x


def _choice(choose: Callable[[Tab], object], tab: Tab) -> Callable[[], object]:
    return lambda: choose(tab)


def next_tab(counts: dict[bool, int], lit: Tab, step: int) -> Tab:
    """The chip ``step`` (±1) from ``lit``, round the row (Left / Right)."""
    shown = tabs(counts)
    return shown[(shown.index(lit) + step) % len(shown)]


def draw_scrollbar(
    surface: pygame.Surface, frame: ScreenFrame, body: pygame.Rect, scroll: Scroll
) -> None:
    total = scroll.content
    if total <= body.h:
        return
    bar_h = max(frame.px(30), body.h * body.h // total)
    top = body.y + (body.h - bar_h) * scroll.offset // max(1, total - body.h)
    pygame.draw.rect(
        surface,
        theme.PANEL_EDGE,
        pygame.Rect(body.right + frame.px(10), top, frame.px(6), bar_h),
        border_radius=3,
    )


def draw_footer(
    surface: pygame.Surface,
    frame: ScreenFrame,
    lines: list[tuple[str, RGB]],
    export: str | None = None,
) -> None:
    """The footer lines at the bottom; ``export``: the first line is the path an export wrote,
    shortened in the middle so the file name stays in view."""
    words = frame.app.words
    lh = frame.px(24)
    y = frame.size[1] - frame.px(12) - lh * len(lines)
    f = frame.font(15)
    width = frame.size[0] - frame.px(48)
    if export is not None and lines:
        room = width - gfx.measure(words.t("ui.ledger.exported", path=""), f)[0]
        lines[0] = (
            words.t("ui.ledger.exported", path=shorten_middle(export, f, room)),
            lines[0][1],
        )
    for text, color in lines:
        gfx.blit_text(
            surface,
            text,
            f,
            (frame.px(24), y + lh // 2),
            color=color,
            anchor="midleft",
            max_width=width,
        )
        y += lh


def draw_empty(
    surface: pygame.Surface, frame: ScreenFrame, body: pygame.Rect, title: str, text: str
) -> int:
    """A title and a paragraph where the body would be; returns the y under them."""
    w = min(body.w, frame.px(720))
    y = body.y + max(frame.px(20), body.h // 5)
    gfx.blit_text(
        surface,
        title,
        frame.font(26),
        (body.centerx, y),
        bold=True,
        anchor="midtop",
        color=theme.OCHRE,
        max_width=w,
    )
    y += frame.px(48)
    f = frame.font(17)
    for line in gfx.wrap(text, f, w) if text else []:
        r = gfx.blit_text(surface, line, f, (body.centerx, y), anchor="midtop", max_width=w)
        y += int(r.h * 1.25)
    return y


class ScrolledPage:
    """The scrolled body of a ledger screen (one recorded match, the statistics) between its
    header and its footer: where the body is (above the footer's lines), how far it is
    scrolled, the keys and the wheel that scroll it, and what is drawn round its content (the
    clip, the scrollbar, the footer). The screen holds one, tells it where the footer's facts
    are (``footing``: the last command's answer and storage's notices, read when asked), and
    draws the content."""

    def __init__(
        self, frame: ScreenFrame, footing: Callable[[], tuple[Label, Sequence[Notice]]]
    ) -> None:
        self.frame = frame
        self.footing = footing
        #: How far the body is scrolled; its ``content`` height is set by the screen as it
        #: lays the content out.
        self.scroll = Scroll()

    def footer(self) -> list[tuple[str, RGB]]:
        message, notices = self.footing()
        return footer_lines(self.frame.app.words, message, notices)

    def body(self) -> pygame.Rect:
        return body_rect(self.frame, len(self.footer()))

    def limit(self) -> int:
        return self.scroll.limit(self.body().h)

    def scroll_by(self, dy: int) -> None:
        self.scroll.by(dy, self.body().h)

    def route(
        self, intent: Intent, *, back: Callable[[], object], key: Callable[[Intent], bool]
    ) -> None:
        """The screen's ``intent`` through its frame (:meth:`ScreenFrame.route`): the wheel
        scrolls the body, and the scrolling keys come before the screen's own (``key``)."""
        self.frame.route(
            intent, back=back, wheel=self.on_wheel, key=lambda i: self.on_key(i) or key(i)
        )

    def on_wheel(self, dy: int) -> None:
        self.scroll_by(-dy * self.frame.px(60))

    def on_key(self, intent: Intent) -> bool:
        """Up/Down, Page Up/Down, Home/End scroll (the header buttons' focus ring goes out of
        sight: the keys scroll, not move it). True when ``intent`` is one of them."""
        if self.scroll.by_key(intent.kind, self.body().h, self.frame.px(48)):
            self.frame.focus.keyboard_used = False
            return True
        return False

    def draw(
        self, surface: pygame.Surface, content: Callable[[pygame.Surface, pygame.Rect], None]
    ) -> None:
        """``content(surface, body)`` clipped to the body (the wheel over it scrolls), then the
        scrollbar and the footer."""
        body = self.body()
        self.frame.wheel(body, self.on_wheel)
        clip = surface.get_clip()
        surface.set_clip(body.inflate(self.frame.px(8), 0))
        content(surface, body)
        surface.set_clip(clip)
        draw_scrollbar(surface, self.frame, body, self.scroll)
        draw_footer(surface, self.frame, self.footer())
