"""The round summary: who won and how, the cards behind each yaku, and the full arithmetic.

Shows the ledger entry of RULES.md §11 (base, each multiplier, final, the amount paid, both
balances) and both capture piles grouped by category, with the cards of each scored yaku outlined
(and marked with a dot, so it reads without colour).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from koikoi_desktop.engine import LedgerEntry, Match, RoundState, Rules, match_record
from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.cards import KIND_ORDER, card_surface, kind_of
from koikoi_desktop.ui.input import Intent
from koikoi_desktop.ui.widgets import Label
from koikoi_desktop.words.names import (
    Names,
    end_text,
    factor_text,
    instant_name,
    names_now,
    unit_heading,
)

AUTO_CONTINUE = 2.0
#: The heights (at scale 1) the summary's cards may take: the largest that fills the window.
CARD_HEIGHTS = (56, 70, 92, 116, 150)
#: A summary card's width to its height.
CARD_RATIO = 0.625
#: The capture piles' cards to the tally's, and the step between overlapping pile cards.
PILE_SHRINK = 0.62
PILE_STEP = 0.72

#: One row of the tally: its label, the cards behind it (may be none), its number.
TallyRow = tuple[str, tuple[int, ...], str]


@dataclass(frozen=True, slots=True)
class RowBox:
    """Where one tally row goes: the row (column wide), the label's width, each card's place,
    whether a rule goes above it, whether it is the total."""

    row: TallyRow
    rect: pygame.Rect
    label_width: int
    cards: tuple[pygame.Rect, ...]
    rule: bool
    total: bool


@dataclass(frozen=True, slots=True)
class PileBox:
    """Where one capture pile goes: the seat, its name's midtop, each card's place."""

    seat: int
    name_at: tuple[int, int]
    cards: tuple[tuple[int, pygame.Rect], ...]


@dataclass(frozen=True, slots=True)
class SummaryLayout:
    """The round summary's places, worked out from the window and the content only."""

    title_at: tuple[int, int]
    text_px: int
    tally: tuple[RowBox, ...]
    #: The midtop of each line under the tally, and their width.
    notes: tuple[tuple[int, int], ...]
    note_width: int
    piles: tuple[PileBox, ...]


def _ladder_step(ladder: Sequence[int], at_most: float) -> int:
    """The largest of the fixed card heights not above ``at_most`` (the smallest if none)."""
    return max([v for v in ladder if v <= at_most] or ladder[:1])


def tally_card_height(
    ladder: Sequence[int], free: int, rows: Sequence[TallyRow], room: int, piles: bool, s: float
) -> int:
    """The tally's card height: what fills the ``free`` height left after the text (the piles
    taking 0.62 of a row each), one of the fixed heights, smaller while the longest row's cards
    do not fit the ``room`` beside the labels."""
    card_rows = [r for r in rows if r[1]]
    share = len(card_rows) + (2 * PILE_SHRINK if piles else 0)
    ch = _ladder_step(ladder, int(free / max(1.0, share) - 10 * s))
    most = max((len(r[1]) for r in card_rows), default=1)
    while most * (round(ch * CARD_RATIO) + 6) > room and ch > ladder[0]:
        ch = max([v for v in ladder if v < ch] or ladder[:1])
    return ch


def pile_card_height(ladder: Sequence[int], room_h: int, n_caps: int, width: int) -> int:
    """The capture piles' card height: the largest fixed one that fits ``room_h`` and lays the
    longest pile (``n_caps`` cards) within ``width``."""
    fits = [
        v
        for v in (int(x * PILE_SHRINK) for x in ladder)
        if v <= room_h and round(v * CARD_RATIO) * (PILE_STEP * n_caps + 2.5) <= width
    ]
    return max(fits or [int(ladder[0] * PILE_SHRINK)])


def tally_boxes(
    rows: Sequence[TallyRow],
    col: pygame.Rect,
    name_w: int,
    room: int,
    card: tuple[int, int],
    lh: int,
    s: float,
) -> tuple[RowBox, ...]:
    """The tally's rows down the column ``col`` (from its top): a card row as tall as its cards,
    a text row a line; a rule above the total and above the first text row after cards."""
    cw, ch = card
    y = col.y
    boxes = []
    for i, (label, cards, number) in enumerate(rows):
        row_h = ch + int(10 * s) if cards else lh
        total = i == len(rows) - 1
        x = col.x + name_w
        places = tuple(
            pygame.Rect(x + k * (cw + 6), y + int(5 * s), cw, ch) for k in range(len(cards))
        )
        boxes.append(
            RowBox(
                row=(label, cards, number),
                rect=pygame.Rect(col.x, y, col.w, row_h),
                label_width=name_w + (room if not cards else 0),
                cards=places,
                rule=total or (not cards and i > 0 and bool(rows[i - 1][1])),
                total=total,
            )
        )
        y += row_h
    return tuple(boxes)


def pile_boxes(
    piles: Sequence[tuple[int, Sequence[int]]],
    w: int,
    y: int,
    card: tuple[int, int],
    lh: int,
    s: float,
) -> tuple[PileBox, ...]:
    """Each pile centred from ``y`` down: its name, then its cards overlapping, half a card
    more between categories."""
    sw, sh = card
    step = int(sw * PILE_STEP)
    boxes = []
    for seat, caps in piles:
        width = step * max(0, len(caps) - 1) + sw + (sw // 2) * 3
        x = (w - width) // 2
        name_at = (w // 2, y)
        y += lh
        places = []
        last_kind = None
        for c in caps:
            if last_kind is not None and kind_of(c) != last_kind:
                x += sw // 2
            last_kind = kind_of(c)
            places.append((c, pygame.Rect(x, y, sw, sh)))
            x += step
        y += sh + int(10 * s)
        boxes.append(PileBox(seat, name_at, tuple(places)))
    return tuple(boxes)


def summary_layout(
    size: tuple[int, int],
    s: float,
    menu_top: int,
    rows: Sequence[TallyRow],
    n_notes: int,
    piles: Sequence[tuple[int, Sequence[int]]],
) -> SummaryLayout:
    """Where the title, the tally, the notes and the capture piles (seat and sorted cards, in
    the order shown; none without a round state) go: the tally in a centred column whose cards
    grow to fill the window, everything centred in the height between the title and the menu."""
    w, _h = size
    top = int(18 * s) + int(theme.font_px(34, s) * 1.5)
    bottom = menu_top - int(12 * s)
    fs = theme.font_px(21, s)
    lh = int(fs * 1.5)
    has_piles = bool(piles)
    ladder = [int(v * s) for v in CARD_HEIGHTS]
    col_w = min(w - int(60 * s), max(int(900 * s), int(w * 0.78)))
    name_w = min(int(col_w * 0.32), int(380 * s))
    room = col_w - name_w - int(110 * s) - int(20 * s)
    text_rows = sum(1 for r in rows if not r[1])
    fixed = text_rows * lh + n_notes * lh + int(40 * s) + (2 * lh if has_piles else 0)
    ch = tally_card_height(ladder, bottom - top - fixed, rows, room, has_piles, s)
    above = sum(ch + int(10 * s) if r[1] else lh for r in rows) + n_notes * lh
    above += int(24 * s)
    room_h = (bottom - top - above) // 2 - lh - int(10 * s)
    n_caps = max((len(caps) for _seat, caps in piles), default=0)
    sh = pile_card_height(ladder, room_h, n_caps, w - int(60 * s))
    total = above + ((sh + lh + int(10 * s)) * 2 if has_piles else 0)
    y = top + max(0, (bottom - top - total) // 2)
    col = pygame.Rect((w - col_w) // 2, y, col_w, 0)
    tally = tally_boxes(rows, col, name_w, room, (round(ch * CARD_RATIO), ch), lh, s)
    y = (tally[-1].rect.bottom if tally else y) + int(12 * s)
    notes = tuple((w // 2, y + i * lh) for i in range(n_notes))
    y += n_notes * lh + int(12 * s)
    return SummaryLayout(
        title_at=(w // 2, int(18 * s)),
        text_px=fs,
        tally=tally,
        notes=notes,
        note_width=col_w,
        piles=pile_boxes(piles, w, y, (round(sh * CARD_RATIO), sh), lh, s),
    )


class RoundSummaryScene(MenuScene):
    """Pushed by the table at the end of each round; Continue (Enter) returns to it."""

    name = "round-summary"

    def __init__(
        self,
        app: AppServices,
        *,
        entry: LedgerEntry,
        round_state: RoundState | None = None,
        names: Names = ("", ""),
        rules: Rules | None = None,
        match: Match | None = None,
        autoplay: bool = False,
        viewer: int = 0,
    ) -> None:
        super().__init__(app)
        self.entry = entry
        self.round_state = round_state
        #: The seats' names (facts, worded when drawn: :meth:`seat_names`).
        self.names = names
        self.rules = rules
        self.match = match
        self.autoplay = autoplay
        self.viewer = viewer
        self.left = AUTO_CONTINUE
        self._static: tuple[tuple[object, ...], pygame.Surface] | None = None

    def seat_names(self) -> tuple[str, str]:
        """The seats' names in the app's words of the moment."""
        return names_now(self.names, self.app.words)

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return [
            (Key("ui.common.continue"), self.on_back, True),
            (Key("ui.summary.review"), self.review, False),
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
            self.app.router.build(
                screens.Review(
                    record=match_record(self.match),
                    names=self.names,
                    viewer=self.viewer,
                    start_round=self.entry.round,
                    rounds=(self.entry.round,),
                    settled_only=True,
                )
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
        words = self.app.words
        return unit_heading(words, self.rules.unit if self.rules is not None else "points")

    def title_text(self) -> str:
        words = self.app.words
        e = self.entry
        if e.winner is None:
            return words.t("ui.summary.no_winner", n=e.round)
        return words.t_person("ui.summary.winner", self.seat_names()[e.winner], n=e.round)

    def arithmetic(self) -> list[str]:
        words = self.app.words
        e = self.entry
        lines = [words.t("ui.summary.ended", reason=end_text(words, e.end))]
        if e.winner is None:
            lines.append(words.t("ui.summary.nothing_paid"))
        else:
            if e.instant:
                lines.append(
                    words.t("ui.summary.instant", kind=instant_name(words, e.instant), value=e.base)
                )
            parts = [words.t("ui.summary.base", n=e.base)]
            parts += [f"× {f} ({factor_text(words, name, f)})" for name, f in e.factors]
            lines.append(" ".join(parts) + f" = {e.final}")
            coins = getattr(self.rules, "unit", "points") == "coins"
            key = "ui.summary.paid_coins" if coins else "ui.summary.paid_points"
            lines.append(words.t_person(key, self.seat_names()[e.winner], n=e.paid))
        lines.append(
            words.t(
                "ui.summary.balances",
                a=self.seat_names()[0],
                x=e.balances[0],
                b=self.seat_names()[1],
                y=e.balances[1],
                unit=self.unit(),
            )
        )
        return lines

    def tally(self) -> list[tuple[str, tuple[int, ...], str]]:
        """The score as a column of rows (label, cards, number): each yaku with its cards and
        points (or the instant win with the hand), the base, each multiplier, the round's
        total. Empty for a round nobody won."""
        words = self.app.words
        e = self.entry
        st = self.round_state
        if e.winner is None:
            return []
        rows: list[tuple[str, tuple[int, ...], str]] = []
        if e.instant:
            hand = tuple(sorted(st.hand(e.winner))) if st is not None else ()
            rows.append((instant_name(words, e.instant), hand, str(e.base)))
        elif st is not None:
            rows += [
                (words.yaku_name(y.key), tuple(y.cards), str(y.points)) for y in st.yaku(e.winner)
            ]
        else:
            rows += [(words.yaku_name(item[0]), (), str(item[1])) for item in e.yaku]
        if e.factors:
            rows.append((words.t("ui.summary.tally_base"), (), str(e.base)))
            rows += [(factor_text(words, name, f), (), f"× {f}") for name, f in e.factors]
        rows.append((words.t("ui.summary.tally_total"), (), str(e.final)))
        return rows

    def piles(self) -> list[tuple[int, list[int]]]:
        """Both capture piles, the viewer's first, each sorted by category then card (none
        without the round state)."""
        st = self.round_state
        if st is None:
            return []
        return [
            (p, sorted(st.captured(p), key=lambda c: (KIND_ORDER.index(kind_of(c)), c)))
            for p in (self.viewer, 1 - self.viewer)
        ]

    def draw_static(self, surface: pygame.Surface) -> None:
        """Title; the tally (each yaku with its cards and points, the multipliers, the total);
        how it ended and what was paid; both capture piles, the yaku cards outlined: laid out
        by :func:`summary_layout`, then drawn."""
        w, h = surface.get_size()
        rows = self.tally()
        notes = self.arithmetic_notes()
        lay = summary_layout((w, h), self.scale, self.menu_top(), rows, len(notes), self.piles())
        surface.blit(felt((w, h)), (0, 0))
        gfx.blit_text(
            surface,
            self.title_text(),
            theme.font_px(34, self.scale),
            lay.title_at,
            anchor="midtop",
            bold=True,
            color=theme.OCHRE,
            max_width=w - 40,
        )
        for box in lay.tally:
            self.draw_row(surface, box, lay.text_px)
        for line, at in zip(notes, lay.notes, strict=True):
            gfx.blit_text(surface, line, lay.text_px, at, anchor="midtop", max_width=lay.note_width)
        yaku_cards = {c for box in lay.tally for c in box.row[1]}
        for pile in lay.piles:
            self.draw_pile(surface, pile, yaku_cards if pile.seat == self.entry.winner else set())

    def draw_row(self, surface: pygame.Surface, box: RowBox, text_px: int) -> None:
        """One tally row: a rule above when it starts a section, the label, the cards, the
        number (the total in ochre)."""
        label, cards, number = box.row
        r = box.rect
        if box.rule:
            pygame.draw.line(surface, theme.PANEL_EDGE, r.topleft, r.topright, 2)
        color = theme.OCHRE if box.total else theme.PAPER
        gfx.blit_text(
            surface,
            label,
            text_px,
            (r.x, r.centery),
            anchor="midleft",
            bold=box.total,
            color=color,
            max_width=box.label_width,
        )
        for c, place in zip(cards, box.cards, strict=True):
            surface.blit(card_surface(self.app, c, place.size), place.topleft)
        gfx.blit_text(
            surface,
            number,
            theme.font_px(26 if box.total else 22, self.scale),
            (r.right, r.centery),
            anchor="midright",
            bold=True,
            color=color,
        )

    def draw_pile(self, surface: pygame.Surface, pile: PileBox, outlined: set[int]) -> None:
        """One capture pile under its owner's name; the ``outlined`` cards (the winner's yaku
        cards) framed and marked with a dot."""
        gfx.blit_text(
            surface,
            self.seat_names()[pile.seat],
            theme.font_px(17, self.scale),
            pile.name_at,
            anchor="midtop",
            bold=True,
            color=theme.MUTED,
        )
        for c, r in pile.cards:
            surface.blit(card_surface(self.app, c, r.size), r)
            if c in outlined:
                pygame.draw.rect(surface, theme.OCHRE, r.inflate(4, 4), width=3, border_radius=4)
                pygame.draw.circle(surface, theme.PAPER, (r.centerx, r.bottom + 6), 3)

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
        words = self.app.words
        key = (surface.get_size(), words)
        cached = self._static
        if cached is None or cached[0] != key:
            layer = surface.copy()
            self.draw_static(layer)
            cached = self._static = (key, layer)
        surface.blit(cached[1], (0, 0))
        self.focus.draw(surface, self.app.words, font=theme.font_px(21, self.scale))
