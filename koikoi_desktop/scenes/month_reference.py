"""The month reference: the 12 months in calendar order and their four cards.

``MonthReferenceScene(app, screens.MonthReference(month=…, card=…, rules=…))``.

* Left: the twelve months (calendar order); click one or use up/down.
* Right, month view: the plant in the current language, in kanji and romaji and in English, the
  season and a one-line symbolism note (LORE.md facts, written in each catalog), then the four
  cards large, each with its name, category (ribbons: poetry / blue / plain red), special roles
  (sake cup also plain, rain man, Gaji, viewing cards) and the yaku it feeds *under the active
  rules* (``yaku_facts.feeds``: probed through the engine). A yaku chip under a card jumps to
  "the cards of this yaku".
* Filters: a category chip or a yaku selector switches to a grid of every matching card, in
  calendar order; clicking one of them opens its month with that card selected (the filter then
  dims the other cards of the month until "All" is chosen).
* Keys: up/down month, left/right card, F cycles the category filter, K the yaku filter, A shows
  all cards again, Y opens the yaku reference.
* Quiz (Q or the Quiz button): :class:`~koikoi_desktop.scenes.quiz.QuizScene` is pushed over
  this screen; leaving it opens the month of the last card asked.

Opened from the title, the rules screen and the table. The table (UI engineer) opens it on a
right-click of a card with ``app.router.build(screens.MonthReference(card=…, rules=…))`` pushed on
the stack, so the match below is only paused, never changed.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from koikoi_desktop import i18n
from koikoi_desktop.engine import DECK
from koikoi_desktop.engine.facts import CARD_KINDS
from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes import screens, yaku_facts
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.learning import (
    LearnScene,
    active_rules,
    card_size,
    chip,
    chip_width,
    draw_card,
    flow_chips,
    name_style,
    paragraph,
)
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Label
from koikoi_desktop.words.names import kind_name, rules_label

KINDS = CARD_KINDS


class MonthReferenceScene(LearnScene):
    """Months, cards and filters (see the module docstring); Q opens the quiz."""

    name = "month-reference"
    title_key = "ui.scene.month-reference"

    def __init__(
        self, app: AppServices, screen: screens.MonthReference = screens.MonthReference()
    ) -> None:
        super().__init__(app)
        card = screen.card
        month = screen.month or (DECK[card - 1].month if 1 <= card <= 48 else 1)
        self.month = min(12, max(1, month))
        self.card = card if 1 <= card <= 48 and DECK[card - 1].month == self.month else 0
        self.rules = active_rules(app, screen.rules)
        self.kind_filter: str | None = None
        self.yaku_filter: str | None = None
        self.view = "month"  # "month" | "grid"
        self.grid_scroll = 0

    # ------------------------------------------------------------------ header
    def header_items(self) -> list[tuple[Label, Callable[[], object]]]:
        return [
            (Key("ui.quiz.title"), self.start_quiz),
            (
                Key("ui.title.yaku_reference"),
                lambda: self.open(self.app.router.build(screens.YakuReference())),
            ),
        ]

    # ------------------------------------------------------------------ state changes
    def select_month(self, month: int, card: int = 0) -> None:
        self.month = (month - 1) % 12 + 1
        self.card = card
        if self.view == "grid":
            self.view = "month"

    def set_kind(self, kind: str | None) -> None:
        self.kind_filter = kind
        self.yaku_filter = None
        self.grid_scroll = 0
        self.view = "grid" if kind else "month"

    def set_yaku(self, key: str | None) -> None:
        self.yaku_filter = key
        self.kind_filter = None
        self.grid_scroll = 0
        self.view = "grid" if key else "month"

    def cycle_yaku(self, step: int) -> None:
        options: list[str | None] = [None, *yaku_facts.existing(self.rules)]
        i = options.index(self.yaku_filter) if self.yaku_filter in options else 0
        self.set_yaku(options[(i + step) % len(options)])

    def matches(self, card_id: int) -> bool:
        """Whether a card passes the current filter."""
        if self.kind_filter:
            return DECK[card_id - 1].kind == self.kind_filter
        if self.yaku_filter:
            return card_id in yaku_facts.feeders(self.yaku_filter, self.rules)
        return True

    def filtered(self) -> list[int]:
        return [c.id for c in DECK if self.matches(c.id)]

    # ------------------------------------------------------------------ quiz
    def start_quiz(self) -> None:
        """The quiz, over this screen (leaving it shows the last card's month here)."""
        self.app.stack.push(self.app.router.build(screens.Quiz(on_leave=self.show_card)))

    def show_card(self, card: int) -> None:
        self.select_month(DECK[card - 1].month, card)

    # ------------------------------------------------------------------ input
    def on_back(self) -> None:
        self.close()

    def on_key(self, intent: Intent) -> bool:
        if intent.kind in (IntentKind.UP, IntentKind.DOWN):
            self.select_month(self.month + (1 if intent.kind == IntentKind.DOWN else -1))
            return True
        if intent.kind in (IntentKind.LEFT, IntentKind.RIGHT) and self.view == "month":
            ids = [4 * self.month - 3 + i for i in range(4)]
            i = ids.index(self.card) if self.card in ids else -1
            i = (i + (1 if intent.kind == IntentKind.RIGHT else -1)) % 4
            self.card = ids[i]
            return True
        if intent.letter == "q":
            self.start_quiz()
            return True
        if intent.letter == "y":
            self.open(self.app.router.build(screens.YakuReference()))
            return True
        if intent.letter == "a":
            self.set_kind(None)
            return True
        if intent.letter == "f":  # cycle the category filter
            order: list[str | None] = [None, *KINDS]
            i = order.index(self.kind_filter) if self.kind_filter in order else 0
            self.set_kind(order[(i + 1) % len(order)])
            return True
        if intent.letter == "k":  # cycle the yaku filter
            self.cycle_yaku(1)
            return True
        return False

    def on_wheel(self, dy: int) -> None:
        if self.view == "grid":
            self.grid_scroll = max(0, self.grid_scroll - dy * self.px(60))
        elif self.view == "month":
            self.select_month(self.month - dy)

    # ------------------------------------------------------------------ layout
    def list_rect(self) -> pygame.Rect:
        top = self.px(70)
        return pygame.Rect(self.px(20), top, self.px(220), self.size[1] - top - self.px(20))

    def pane(self) -> pygame.Rect:
        lst = self.list_rect()
        x = lst.right + self.px(24)
        top = lst.y + self.px(50)
        return pygame.Rect(x, top, self.size[0] - x - self.px(20), self.size[1] - top - self.px(28))

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        self.draw_frame(surface)
        self.draw_months(surface)
        self.draw_filters(surface)
        if self.view == "grid":
            self.draw_grid(surface)
        else:
            self.draw_month(surface)
        self.draw_buttons(surface)

    def draw_months(self, surface: pygame.Surface) -> None:
        words = self.app.words
        lst = self.list_rect()
        gfx.draw_panel(surface, lst, alpha=200)
        row_h = min(self.px(56), (lst.h - self.px(8)) // 12)
        f1, f2 = self.font(16), self.font(13)
        for m in range(1, 13):
            r = pygame.Rect(lst.x + 4, lst.y + 4 + (m - 1) * row_h, lst.w - 8, row_h - 2)
            active = m == self.month
            if active:
                pygame.draw.rect(surface, theme.BUTTON_HOVER, r, border_radius=6)
                pygame.draw.rect(surface, theme.OCHRE, r, width=2, border_radius=6)
            chip_r = pygame.Rect(r.x + 4, r.y + 4, self.px(8), r.h - 8)
            pygame.draw.rect(surface, theme.MONTH_COLORS[m], chip_r, border_radius=3)
            tx = chip_r.right + self.px(8)
            name = words.t(f"month.{m}.name")
            if str(m) not in name:  # "1月" already says which month it is
                name = f"{m}. {name}"
            gfx.blit_text(surface, name, f1, (tx, r.y + 3), bold=active, max_width=r.right - tx - 4)
            if row_h >= self.px(40):
                plant = words.t(f"month.{m}.plant")
                kanji = words.t(f"month.{m}.plant_ja")
                if kanji != plant:
                    plant = f"{plant} {kanji}"
                gfx.blit_text(
                    surface,
                    plant,
                    f2,
                    (tx, r.bottom - 3),
                    color=theme.MUTED,
                    anchor="bottomleft",
                    max_width=r.right - tx - 4,
                )
            self.hit(r, self._select_cb(m))

    def _select_cb(self, m: int, card: int = 0) -> Callable[[], None]:
        return lambda: self.select_month(m, card)

    def draw_filters(self, surface: pygame.Surface) -> None:
        words = self.app.words
        lst = self.list_rect()
        x = lst.right + self.px(24)
        y = lst.y
        f = self.font(15)
        h = self.px(34)
        pad = self.px(12)
        gap = self.px(8)
        items: list[tuple[str, str | None]] = [(words.t("ui.common.all"), None)] + [
            (kind_name(words, k, plural=True), k) for k in KINDS
        ]
        for label, kind in items:
            w = chip_width(label, f, pad)
            r = pygame.Rect(x, y, w, h)
            active = self.kind_filter == kind and (kind is not None or not self.yaku_filter)
            chip(surface, r, label, f, active=active)
            self.hit(r, self._kind_filter_cb(kind))
            x += w + gap
        # the yaku selector: ‹ previous | next ›
        style = name_style(self.app)
        label = (
            words.t("ui.monthref.yaku_filter", yaku=words.yaku_name(self.yaku_filter, style))
            if self.yaku_filter
            else words.t("ui.monthref.yaku_filter_none")
        )
        label = f"‹ {label} ›"
        w = min(self.size[0] - x - self.px(20), chip_width(label, f, pad))
        r = pygame.Rect(x, y, max(self.px(120), w), h)
        chip(surface, r, label, f, active=self.yaku_filter is not None)
        left = pygame.Rect(r.x, r.y, r.w // 3, r.h)
        right = pygame.Rect(left.right, r.y, r.w - left.w, r.h)
        self.hit(left, lambda: self.cycle_yaku(-1))
        self.hit(right, lambda: self.cycle_yaku(1))

    def _kind_filter_cb(self, kind: str | None) -> Callable[[], None]:
        return lambda: self.set_kind(kind)

    def draw_month(self, surface: pygame.Surface) -> None:
        words = self.app.words
        area = self.pane()
        m = self.month
        x, y, w = area.x, area.y, area.w
        title = f"{words.t(f'month.{m}.name')} — {words.t(f'month.{m}.plant')}"
        y = paragraph(surface, title, self.font(26), x, y, w, bold=True, gap=1.1)
        names = [words.t(f"month.{m}.plant_ja"), words.t(f"month.{m}.plant_romaji")]
        if words.language != "en":
            names.append(i18n.t_in("en", f"month.{m}.plant"))
        y = paragraph(
            surface, " · ".join(dict.fromkeys(names)), self.font(18), x, y, w, color=theme.OCHRE
        )
        season = words.t(
            "ui.learn.labelled",
            label=words.t("ui.reference.season"),
            value=words.t(f"month.{m}.season"),
        )
        y = paragraph(surface, season, self.font(15), x, y, w, color=theme.MUTED)
        y = paragraph(surface, words.t(f"month.{m}.symbolism"), self.font(15), x, y + 2, w)
        y += self.px(10)
        rules_line = words.t("ui.monthref.rules_line", rules=rules_label(words, self.rules))
        gfx.blit_text(
            surface,
            rules_line,
            self.font(13),
            (area.right, area.bottom + self.px(4)),
            color=theme.MUTED,
            anchor="topright",
            max_width=w,
        )
        col_w = (w - self.px(12) * 3) // 4
        room = area.bottom - y
        ids = [4 * m - 3 + i for i in range(4)]
        style = name_style(self.app)
        text_h = max(self.draw_card_text(None, c, 0, 0, col_w, 10**6, style) for c in ids)
        ch = min(int(col_w / 0.625 * 0.92), room - text_h - self.px(8), self.px(300))
        cw, ch = card_size(max(self.px(90), ch))
        filtering = bool(self.kind_filter or self.yaku_filter)
        for i, cid in enumerate(ids):
            cx = x + i * (col_w + self.px(12))
            rect = pygame.Rect(cx + (col_w - cw) // 2, y, cw, ch)
            draw_card(
                surface,
                self.app,
                cid,
                rect,
                selected=cid == self.card,
                dim=filtering and not self.matches(cid),
            )
            self.hit(rect, self._card_cb(cid))
            self.draw_card_text(
                surface, cid, cx, rect.bottom + self.px(8), col_w, area.bottom, style
            )

    def _card_cb(self, cid: int) -> Callable[[], None]:
        def cb() -> None:
            self.card = cid

        return cb

    def draw_card_text(
        self,
        surface: pygame.Surface | None,
        cid: int,
        x: int,
        y: int,
        w: int,
        bottom: int,
        style: str,
    ) -> int:
        """A card's name, category, roles and yaku under it; returns the height used."""
        words = self.app.words
        top = y
        f = self.font(14)
        shown = words.card_name(cid, style)
        y = paragraph(surface, shown, self.font(16), x, y, w, bold=True, gap=1.1)
        if words.card_name(cid, "japanese") != shown:
            y = paragraph(
                surface, words.card_name(cid, "japanese"), f, x, y, w, color=theme.MUTED, gap=1.1
            )
        kind = words.t(yaku_facts.card_kind_detail(cid))
        y = paragraph(surface, kind, f, x, y + 2, w, color=theme.OCHRE, bold=True)
        for role in yaku_facts.card_roles(cid, self.rules):
            if y > bottom - f * 2:
                break
            y = paragraph(
                surface, words.t(role), self.font(13), x, y, w, color=theme.MUTED, gap=1.15
            )
        made, extra = yaku_facts.feeds_split(cid, self.rules)
        if y > bottom - f * 2:
            return y - top
        if not made and not extra:
            y = paragraph(
                surface,
                words.t("ui.reference.feeds_none"),
                self.font(13),
                x,
                y + 2,
                w,
                color=theme.MUTED,
            )
            return y - top
        y = paragraph(
            surface,
            words.t("ui.learn.label", label=words.t("ui.reference.feeds")),
            self.font(13),
            x,
            y + 2,
            w,
        )
        chips = [(words.yaku_name(k, style), self._yaku_cb(k), k == self.yaku_filter) for k in made]
        for k in extra:
            step = yaku_facts.extra_step(k, self.rules)[0]
            label = words.t("ui.monthref.adds", n=step, yaku=words.yaku_name(k, style))
            chips.append((label, self._yaku_cb(k), k == self.yaku_filter))
        y = flow_chips(surface, self, chips, x, y, w, self.font(13))
        return y - top

    def _yaku_cb(self, key: str) -> Callable[[], None]:
        return lambda: self.set_yaku(key)

    def draw_grid(self, surface: pygame.Surface) -> None:
        words = self.app.words
        area = self.pane()
        ids = self.filtered()
        style = name_style(self.app)
        if self.kind_filter:
            head = words.t(
                "ui.monthref.grid_kind",
                kind=kind_name(words, self.kind_filter, plural=True),
                n=len(ids),
            )
        else:
            assert self.yaku_filter is not None
            head = words.t(
                "ui.monthref.grid_yaku", yaku=words.yaku_name(self.yaku_filter, style), n=len(ids)
            )
        y = paragraph(surface, head, self.font(22), area.x, area.y, area.w, bold=True)
        if self.yaku_filter:
            y = paragraph(
                surface,
                words.t(f"yaku.{self.yaku_filter}.desc"),
                self.font(15),
                area.x,
                y,
                area.w,
                color=theme.MUTED,
            )
        y = paragraph(
            surface,
            words.t("ui.monthref.grid_hint"),
            self.font(14),
            area.x,
            y,
            area.w,
            color=theme.MUTED,
        )
        y += self.px(6)
        body = pygame.Rect(area.x, y, area.w, area.bottom - y)
        label_h = self.px(20)
        gap = self.px(10)
        # the largest card height at which every card fits, but never tiny: then it scrolls
        best = self.px(90)
        for ch in range(self.px(260), self.px(90), -self.px(6)):
            cw = card_size(ch)[0]
            per_row = max(1, (body.w + gap) // (cw + gap))
            rows = -(-len(ids) // per_row)
            if rows * (ch + label_h + gap) <= body.h:
                best = ch
                break
        cw, ch = card_size(best)
        per_row = max(1, (body.w + gap) // (cw + gap))
        rows = -(-len(ids) // per_row)
        content_h = rows * (ch + label_h + gap)
        self.grid_scroll = max(0, min(self.grid_scroll, content_h - body.h))
        clip = surface.get_clip()
        surface.set_clip(body)
        for i, cid in enumerate(ids):
            r = pygame.Rect(
                body.x + (i % per_row) * (cw + gap),
                body.y + (i // per_row) * (ch + label_h + gap) - self.grid_scroll,
                cw,
                ch,
            )
            if r.bottom < body.y or r.y > body.bottom:
                continue
            draw_card(surface, self.app, cid, r)
            m = DECK[cid - 1].month
            gfx.blit_text(
                surface,
                words.t(f"month.{m}.name"),
                self.font(12),
                (r.centerx, r.bottom + 2),
                color=theme.MUTED,
                anchor="midtop",
                max_width=cw + gap,
            )
            self.hit(r.clip(body), self._select_cb(m, cid))
        surface.set_clip(clip)
