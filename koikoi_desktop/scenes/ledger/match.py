"""One recorded match, opened from the ledger's list: its header, its rounds, its deals' check.

Every field of RULES.md §11 per round (round number, dealer, how it ended, winner, yaku with
values, base, each factor, final, the amount paid, both balances), plus each seat's koi-koi
calls when the record has them. The header says the result, date, rules, opponent, rounds,
marks (practice, how it ended, the help level), both final totals, the changed rules and the
check of the deals (engine.verify_deals, read once when the match is shown).

Input: the wheel and up/down, Page Up/Down, Home/End scroll; left/right open the next older /
newer match of the same list; R (or the header button) opens its review; Esc or Back returns to
the list, on the row of the match shown last (the record's ``on_leave``).

The screen reads its list's pages from storage itself (a snapshot, read when entered or
uncovered, and again when storage set damaged rows aside: a line gone past the end returns to
the list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from koikoi_desktop.engine import DealCheck, RecordError
from koikoi_desktop.i18n import Key, Label
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.learning import paragraph
from koikoi_desktop.scenes.ledger.common import (
    LedgerRows,
    ScrolledPage,
    date_text,
    draw_empty,
    open_review,
    recorded_names,
    still_for,
)
from koikoi_desktop.scenes.screen_frame import ScreenFrame, go_back
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.words.deal import check_text, record_check
from koikoi_desktop.words.names import (
    amount_text,
    end_text,
    ending_label,
    factor_text,
    help_label,
    opponent_text,
    options_text,
    recorded_yaku_name,
    result_label,
    ruleset_label,
    unit_word,
)

if TYPE_CHECKING:
    from koikoi_desktop.storage import Storage
    from koikoi_desktop.storage.models import MatchRecord, RoundEntry

#: A line of text to draw: (text, colour, bold).
Line = tuple[str, tuple[int, int, int], bool]


class LedgerMatchScene(Scene):
    """One match of the ledger's list (``screen.index`` of the player's list, or of the
    computers' with ``screen.computer``) opened to its rounds."""

    name = "ledger-match"

    def __init__(self, app: AppServices, screen: screens.LedgerMatch) -> None:
        super().__init__(app)
        self.screen = screen
        self.frame = ScreenFrame(app, heading=Key("ui.ledger.title"), back=self.close)
        self.rows = LedgerRows(app.storage, computer=screen.computer)
        self.index = screen.index
        #: Why the review cannot open, worded when drawn.
        self.message: Label = ""
        #: The body under the header: its scroll, its keys and wheel, the footer under it.
        self.page = ScrolledPage(self.frame, lambda: (self.message, self.rows.notices))
        # the page's own, answered by the screen too (every ledger screen has a body to measure)
        self.scroll = self.page.scroll
        self.body = self.page.body
        self.scroll_by = self.page.scroll_by
        #: The deal check of each match shown (match id -> the check and the revealed seed;
        #: None: no record to check), a fact worded when drawn.
        self._deals: dict[str, tuple[DealCheck, int | None] | None] = {}

    # ------------------------------------------------------------------ data
    @property
    def storage(self) -> Storage | None:
        return self.app.storage

    @property
    def computer(self) -> bool:
        return self.rows.computer

    def load(self) -> None:
        self.rows.store = self.storage
        self.rows.read()

    def enter(self) -> None:
        self.load()
        self.open(self.index)
        self.build()

    def resume(self) -> None:
        self.load()
        self.build()
        if self.index >= len(self.rows) and len(self.rows):
            self.open(len(self.rows) - 1)

    def still_for(self) -> float:
        return still_for(self.storage, self.rows.generation)

    def update(self, dt: float) -> None:
        """Between frames: damaged rows the last draw skipped are set aside, the pages read
        again; a match no longer in the list returns to the list."""
        super().update(dt)
        store = self.storage
        if store is None:
            return
        store.tidy()
        if self.rows.stale():
            self.load()
            if self.index >= len(self.rows):
                self.index = max(0, len(self.rows) - 1)
                self.close()

    def resize(self, size: tuple[int, int]) -> None:
        self.frame.size = size
        self.build()

    def build(self) -> None:
        """The header: Review, then Back."""
        self.frame.build([(Key("ui.ledger.review"), self.review)])
        self.frame.buttons[0].enabled = bool(len(self.rows)) and self.storage is not None
        self.frame.focus.set(self.frame.buttons)

    # ------------------------------------------------------------------ commands
    def open(self, index: int) -> None:
        """Show line ``index`` of the list (its deals checked once), from the top."""
        if not 0 <= index < len(self.rows):
            return
        rec = self.rows.record_at(index)
        if rec is None:  # its record does not read: set aside between frames
            return
        self.deal_check(rec.match_id)
        self.index = index
        self.scroll.offset = 0

    def review(self) -> None:
        """Open the review of this match (R)."""
        self.message = open_review(self.app, self.rows, self.index)

    def close(self) -> None:
        """Back to the list, on this match's line."""
        if self.screen.on_leave is not None:
            self.screen.on_leave(self.index)
        go_back(self.app)

    def deal_check(self, match_id: str) -> tuple[DealCheck, int | None] | None:
        """The check of a recorded match's deals (engine.verify_deals), read once a match."""
        if match_id not in self._deals:
            text = self.rows.record_text(match_id)
            got: tuple[DealCheck, int | None] | None = None
            if text:
                try:
                    check, parsed = record_check(text)
                    got = (check, parsed.seed)
                except RecordError:
                    got = None  # the review says why it cannot replay; nothing to check here
            self._deals[match_id] = got
        return self._deals[match_id]

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        self.page.route(intent, back=self.close, key=self.on_key)

    def on_key(self, intent: Intent) -> bool:
        """R opens the review, Left/Right the next older / newer match (the page's keys that
        scroll come first)."""
        kind = intent.kind
        if intent.letter == "r":
            self.review()
            return True
        if kind in (IntentKind.LEFT, IntentKind.RIGHT):
            d = 1 if kind == IntentKind.RIGHT else -1
            self.open(max(0, min(len(self.rows) - 1, self.index + d)))
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        if self.frame.stale(surface.get_size()):
            self.resize(surface.get_size())
        self.frame.draw_backdrop(surface)
        if len(self.rows):  # where the list's chips were: which match, and the keys
            gfx.blit_text(
                surface,
                words.t("ui.ledger.match_hint", n=self.index + 1, total=len(self.rows)),
                self.frame.font(14),
                (self.frame.px(24), self.frame.px(87)),
                color=theme.MUTED,
                anchor="midleft",
                max_width=self.frame.size[0] - self.frame.px(48),
            )
        self.page.draw(surface, self.draw_body)
        self.frame.draw_buttons(surface)

    def draw_body(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        """The match shown, or why there is none."""
        words = self.app.words
        rec = self.rows.record_at(self.index) if self.storage is not None else None
        if self.storage is None:
            draw_empty(surface, self.frame, body, words.t("ui.ledger.unavailable"), "")
        elif rec is None:
            self.scroll.content = 0
            draw_empty(surface, self.frame, body, words.t("ui.ledger.empty.title"), "")
        else:
            self.draw_match(surface, body, rec)

    def header_lines(self, rec: MatchRecord) -> list[tuple[str, int, tuple[int, int, int], bool]]:
        """The match's header: (text, font size, colour, bold) a line."""
        words = self.app.words
        names = recorded_names(rec, computer=self.computer).now(words)
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

    def round_lines(self, rec: MatchRecord, e: RoundEntry) -> tuple[list[Line], list[Line]]:
        """The §11 entry of one round as two columns of text lines (text, colour, bold): who and
        how on the left, the score on the right."""
        words = self.app.words
        names = recorded_names(rec, computer=self.computer).now(words)
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

    def draw_match(self, surface: pygame.Surface, body: pygame.Rect, rec: MatchRecord) -> None:
        words = self.app.words
        self.scroll.clamp(body.h)
        y0 = body.y - self.scroll.offset
        y = y0
        width = body.w - self.frame.px(8)
        for text, size, color, bold in self.header_lines(rec):
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
        self.scroll.content = y - y0
