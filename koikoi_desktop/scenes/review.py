"""The match review: a finished match replayed move by move, every decision judged.

Opened from the ledger (a recorded match), the match result ("Review this match") and the round
summary ("Review this round", which starts at that round and judges only it). The board is the
table's picture of the round before the move in focus, both hands face up (the round is over);
the played card is marked, and the best alternative when the analysis disagrees. The panel on
the right says what was played, what was best, the loss and why; below it, every move of the
match (click one to go there), each judged move with its class mark (?! inaccuracy, ? mistake,
?? blunder — a mark, not only a colour). A slider at the bottom runs over the whole match.

Keys: ←/→ a move back/forward, ↑/↓ the previous/next round, Page Up/Down the previous/next
inaccuracy-or-worse, Home/End the start/end, S the summary (accuracy and biggest mistakes per
seat), F swaps the seats on screen, P plays this deal again (practice), Esc back (or closes the
summary), Tab/Enter the buttons.

Decisions:

* The analysis runs in a worker process (:class:`koikoi_desktop.review.runner.ReviewRunner`),
  polled once per frame: stepping works at once and each move shows its verdict as soon as it
  is judged. A whole-match review is cached in the database with its match, so a second visit
  is instant; a review of one round of a match still in progress is not cached.
* Drawing is read-only: positions, scroll and hit rectangles change only in ``handle`` /
  ``update`` / ``relayout``; the board picture of a position is rendered once and kept.
* The board reuses the table's layout (:func:`koikoi_desktop.ui.layout.compute`) and its
  display model (:class:`koikoi_desktop.ui.board.Board`), so cards sit where the table puts
  them; a tenth of the width is taken from the table's field for a wider side panel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from koikoi_desktop import scenes
from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.engine import Action
from koikoi_desktop.review.analysis import (
    CLASSES,
    Judgement,
    Review,
    decision_points,
    turn_of,
)
from koikoi_desktop.review.runner import ReviewRunner, cached_review
from koikoi_desktop.review.timeline import Timeline
from koikoi_desktop.scenes.base import Scene
from koikoi_desktop.scenes.common import felt, scale_of
from koikoi_desktop.scenes.table_text import (
    card_name,
    end_text,
    koi_word,
    reason_text,
    stop_word,
    yaku_name,
)
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui import layout as layout_mod
from koikoi_desktop.ui.animation import AnimationQueue
from koikoi_desktop.ui.board import Director
from koikoi_desktop.ui.cards import card_surface, draw_badge, kind_of
from koikoi_desktop.ui.input import Intent, to_intent
from koikoi_desktop.ui.widgets import Button, FocusGroup, draw_focus

#: The class marks, as chess annotations (readable without colour).
MARKS = {"good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
COLORS = {
    "good": theme.MUTED,
    "inaccuracy": theme.OCHRE,
    "mistake": (235, 140, 60),
    "blunder": theme.DANGER,
}
GROUPS = ("bright", "animal", "ribbon", "plain")
#: The analysis budget (worlds per decision); tests lower it.
WORLDS = REVIEW_WORLDS


class ReviewScene(Scene):
    """The review of one match (see the module docstring)."""

    name = "review"

    def __init__(
        self,
        app: Any,
        *,
        record: str = "",
        match_id: str | None = None,
        names: tuple[str, str] | None = None,
        viewer: int = 0,
        start_round: int | None = None,
        rounds: Sequence[int] | None = None,
        settled_only: bool = False,
        seats: tuple[str, str] | None = None,
        inline: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(app, **kwargs)
        self.record = record
        self.match_id = match_id
        self.names = names or (gfx.tr("ui.common.you"), gfx.tr("ui.common.opponent"))
        self.viewer = viewer
        self.start_round = start_round
        self.rounds = list(rounds) if rounds is not None else None
        self.settled_only = settled_only
        self.seats = seats
        self.inline = inline
        self.size: tuple[int, int] = (int(app.size[0]), int(app.size[1]))
        self.timeline: Timeline | None = None
        self.error = ""
        self.note = ""
        self.judged: dict[tuple[int, int], Judgement] = {}
        self.decisions: set[tuple[int, int]] = set()
        self.runner: ReviewRunner | None = None
        self.index = 0
        self.show_summary = False
        self.list_scroll = 0
        self.drag_slider = False
        self.focus = FocusGroup()
        self.buttons: list[Button] = []
        self.rows: list[tuple[int | None, int]] = []  # (position index or None, round number)
        self.hits: list[tuple[pygame.Rect, Callable[[], Any]]] = []
        self._board: tuple[Any, pygame.Surface] | None = None
        self.lay: Any = None
        self.geo: dict[str, pygame.Rect] = {}

    # ------------------------------------------------------------------ set-up
    @property
    def scale(self) -> float:
        return scale_of(self.size, float(getattr(self.app, "ui_scale", 1.0) or 1.0))

    def px(self, n: float) -> int:
        return round(n * self.scale)

    def font(self, n: int) -> int:
        return theme.font_px(n, self.scale)

    def enter(self) -> None:
        try:
            self.timeline = Timeline.from_record(self.record, settled_only=self.settled_only)
        except ValueError as exc:  # RecordError: a record that does not replay
            self.error = gfx.tr("ui.review.unreadable", why=str(exc)[:120])
            self.relayout()
            return
        t = self.timeline
        points = decision_points(t, rounds=self.rounds)
        self.decisions = {(p.deal, p.move) for p in points}
        self.rows = []
        for d in t.deals:
            self.rows.append((None, d.round))
            for k in range(len(d.moves) + 1):
                self.rows.append((t.index_of(d.index, k), d.round))
        review = self.cached()
        if review is not None:
            self.judged = {(j.deal, j.move): j for j in review.judgements}
        elif points:
            self.runner = ReviewRunner(t, points, worlds=WORLDS, inline=self.inline)
            self.runner.start()
        if self.start_round is not None:
            self.index = t.first_of_round(self.start_round)
        self.relayout()
        self.follow()

    def cached(self) -> Review | None:
        store = getattr(self.app, "storage", None)
        if self.match_id is None or store is None or self.rounds is not None:
            return None
        return cached_review(store, self.match_id, worlds=WORLDS)

    def exit(self) -> None:
        if self.runner is not None:
            self.runner.close()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.relayout()

    def relayout(self) -> None:
        """Every rectangle of the screen for the current size."""
        w, h = self.size
        foot = self.px(78)
        extra = round(w * 0.10)
        self.lay = layout_mod.compute((w - extra, h - foot), getattr(self.app, "ui_scale", 1.0))
        lay = self.lay
        side = pygame.Rect(
            lay.sidebar.x, lay.sidebar.y, w - lay.sidebar.x, h - foot - lay.sidebar.y
        )
        self.geo = {
            "header": pygame.Rect(0, 0, w, lay.header.h),
            "main": lay.main,
            "side": side,
            "foot": pygame.Rect(0, h - foot, w, foot),
        }
        pad = self.px(10)
        panel_h = min(int(side.h * 0.46), self.px(300))
        self.geo["panel"] = pygame.Rect(side.x + pad, side.y + pad, side.w - 2 * pad, panel_h)
        top = self.geo["panel"].bottom + pad
        self.geo["list"] = pygame.Rect(side.x + pad, top, side.w - 2 * pad, side.bottom - top - pad)
        # header buttons (right), footer: ◀ slider ▶ Summary
        f = self.font(15)
        bh = max(24, lay.header.h - self.px(8))
        x = w - self.px(10)
        made: list[Button] = []
        header: list[tuple[str, Callable[[], Any]]] = [
            ("ui.common.back", self.close),
            ("ui.review.play_again", self.play_again),
        ]
        for key, cb in header:
            label = self._label(key)
            bw = gfx.measure(label(), f, bold=True)[0] + self.px(26)
            x -= bw
            made.insert(0, Button(label, cb, pygame.Rect(x, (lay.header.h - bh) // 2, bw, bh)))
            x -= self.px(8)
        self.geo["header_text"] = pygame.Rect(self.px(12), 0, x - self.px(24), lay.header.h)
        made[0].enabled = self.can_play_again()
        fr = self.geo["foot"]
        row_y = fr.y + self.px(30)
        row_h = fr.bottom - row_y - self.px(8)
        small = max(self.px(46), row_h)
        sw = gfx.measure(gfx.tr("ui.review.summary"), f, bold=True)[0] + self.px(30)
        prev = Button(
            "◀", lambda: self.go(self.index - 1), pygame.Rect(self.px(12), row_y, small, row_h)
        )
        summary_btn = Button(
            lambda: gfx.tr("ui.review.summary"),
            self.toggle_summary,
            pygame.Rect(w - self.px(12) - sw, row_y, sw, row_h),
        )
        nxt = Button(
            "▶",
            lambda: self.go(self.index + 1),
            pygame.Rect(summary_btn.rect.x - self.px(10) - small, row_y, small, row_h),
        )
        self.geo["slider"] = pygame.Rect(
            prev.rect.right + self.px(18), row_y, nxt.rect.x - prev.rect.right - self.px(36), row_h
        )
        self.geo["status"] = pygame.Rect(
            self.px(12), fr.y + self.px(4), w - self.px(24), self.px(22)
        )
        self.buttons = [*made, prev, nxt, summary_btn]
        self.focus.set(self.buttons)
        self._board = None

    @staticmethod
    def _label(key: str) -> Callable[[], str]:
        return lambda: gfx.tr(key)

    # ------------------------------------------------------------------ reading
    @property
    def position(self) -> Any:
        t = self.timeline
        return t.positions[self.index] if t is not None and t.positions else None

    def state(self) -> Any:
        p = self.position
        assert self.timeline is not None and p is not None
        return self.timeline.deals[p.deal].state_at(p.move)

    def move_at(self, index: int) -> Action | None:
        """The move made from position ``index`` (None at a round's final position)."""
        t = self.timeline
        if t is None:
            return None
        p = t.positions[index]
        d = t.deals[p.deal]
        return d.moves[p.move] if p.move < len(d.moves) else None

    def judgement(self, index: int | None = None) -> Judgement | None:
        t = self.timeline
        if t is None or not t.positions:
            return None
        p = t.positions[self.index if index is None else index]
        return self.judged.get((p.deal, p.move))

    def can_play_again(self) -> bool:
        """Play this deal again: a finished match with known seats (not from a round summary of
        a match still being played)."""
        return self.seats is not None and not self.settled_only and self.timeline is not None

    # ------------------------------------------------------------------ actions
    def go(self, index: int) -> None:
        t = self.timeline
        if t is None or not t.positions:
            return
        self.index = max(0, min(len(t.positions) - 1, index))
        self.follow()

    def follow(self) -> None:
        """Scroll the move list so the current row shows."""
        rect = self.geo.get("list")
        if rect is None:
            return
        visible = max(1, (rect.h - self.px(4)) // self.row_h())
        row = next((i for i, (pos, _) in enumerate(self.rows) if pos == self.index), 0)
        margin = min(2, visible // 4)
        if not self.list_scroll + margin <= row < self.list_scroll + visible - margin:
            self.list_scroll = row - visible // 3  # out of view: bring it a third down
        self.list_scroll = max(0, min(self.list_scroll, max(0, len(self.rows) - visible)))

    def step_round(self, d: int) -> None:
        t = self.timeline
        p = self.position
        if t is None or p is None:
            return
        target = p.deal + d
        if d < 0 and p.move > 0:
            target = p.deal
        target = max(0, min(len(t.deals) - 1, target))
        self.go(t.index_of(target, 0))

    def step_flagged(self, d: int) -> None:
        """To the previous/next move judged an inaccuracy or worse."""
        t = self.timeline
        if t is None:
            return
        rng = range(self.index + 1, len(t.positions)) if d > 0 else range(self.index - 1, -1, -1)
        for i in rng:
            j = self.judgement(i)
            if j is not None and j.cls != "good":
                self.go(i)
                return

    def toggle_summary(self) -> None:
        self.show_summary = not self.show_summary

    def flip(self) -> None:
        self.viewer = 1 - self.viewer
        self._board = None

    def close(self) -> None:
        if self.show_summary:
            self.show_summary = False
            return
        self.app.stack.pop()

    def play_again(self) -> None:
        """The deal on screen again, same dealer and seed, same opponent, in practice mode."""
        t = self.timeline
        p = self.position
        if not self.can_play_again() or t is None or p is None or self.seats is None:
            return
        from koikoi_desktop.scenes.table import MatchConfig

        d = t.match.deals[p.deal]
        level = str(self.app.setting("help_level", "full"))
        config = MatchConfig(
            rules=t.rules,
            seats=self.seats,
            seed=t.match.seed,
            practice=True,
            deal=(d.dealer, tuple(tuple(x) for x in d.decks)),
            help_level=level,
        )
        self.app.stack.reset(scenes.create("title", self.app))
        self.app.stack.push(scenes.create("table", self.app, config=config))

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        r = self.runner
        if r is None:
            return
        for j in r.poll():
            self.judged[(j.deal, j.move)] = j
        if not r.finished:
            return
        self.runner = None
        if r.error is not None:
            self.note = gfx.tr("ui.review.failed", why=str(r.error)[:100])
            return
        store = getattr(self.app, "storage", None)
        recorded = store is not None and self.match_id is not None and (
            store.get_match(self.match_id) is not None
        )
        if recorded and self.rounds is None and self.match_id is not None:
            review = Review([self.judged[k] for k in sorted(self.judged)], worlds=r.worlds)
            why = store.save_review(self.match_id, review.to_json())
            if why is not None:
                self.note = gfx.tr("ui.review.not_cached", reason=why)

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        intent = to_intent(event)
        if intent is None:
            return
        if intent.kind == "back":
            self.close()
            return
        if intent.kind in ("press", "release", "move"):
            self.pointer(intent)
            return
        if intent.kind == "wheel":
            self.wheel(intent.pos[1])
            return
        if self.key(intent):
            return
        self.focus.handle(intent)

    def key(self, it: Intent) -> bool:
        keys = {
            "left": lambda: self.go(self.index - 1),
            "right": lambda: self.go(self.index + 1),
            "up": lambda: self.step_round(-1),
            "down": lambda: self.step_round(1),
        }
        if it.kind in keys:
            keys[it.kind]()
            return True
        if it.kind == "confirm" and not self.focus.keyboard_used:
            self.go(self.index + 1)
            return True
        if it.kind != "key":
            return False
        k = it.key
        by_key: dict[int, Callable[[], Any]] = {
            pygame.K_HOME: lambda: self.go(0),
            pygame.K_END: lambda: self.go(10**9),
            pygame.K_PAGEUP: lambda: self.step_flagged(-1),
            pygame.K_PAGEDOWN: lambda: self.step_flagged(1),
            pygame.K_s: self.toggle_summary,
            pygame.K_f: self.flip,
            pygame.K_p: self.play_again,
        }
        fn = by_key.get(k)
        if fn is None:
            return False
        fn()
        return True

    def pointer(self, it: Intent) -> None:
        if it.kind == "release":
            self.drag_slider = False
            self.focus.handle(it)
            return
        if it.kind == "move":
            if self.drag_slider:
                self.slide_to(it.pos[0])
            self.focus.handle(it)
            return
        if self.focus.handle(it):
            return
        if self.geo.get("slider", pygame.Rect(0, 0, 0, 0)).inflate(0, 10).collidepoint(it.pos):
            self.drag_slider = True
            self.slide_to(it.pos[0])
            return
        for rect, cb in reversed(self.hits_now()):
            if rect.collidepoint(it.pos):
                cb()
                return

    def wheel(self, dy: int) -> None:
        pos = pygame.mouse.get_pos() if pygame.display.get_init() else (0, 0)
        if self.geo.get("list", pygame.Rect(0, 0, 0, 0)).collidepoint(pos):
            self.list_scroll = max(0, min(len(self.rows) - 1, self.list_scroll - dy * 3))
        else:
            self.go(self.index - dy)

    def slide_to(self, x: int) -> None:
        t = self.timeline
        bar = self.geo["slider"]
        if t is None or not t.positions:
            return
        frac = min(1.0, max(0.0, (x - bar.x) / max(1, bar.w)))
        self.go(round(frac * (len(t.positions) - 1)))

    def hits_now(self) -> list[tuple[pygame.Rect, Callable[[], Any]]]:
        """Clickable rows: the move list, and the summary's worst moves when it is open."""
        out: list[tuple[pygame.Rect, Callable[[], Any]]] = []
        for rect, pos in self.list_rows():
            if pos is not None:
                out.append((rect, self._goto(pos)))
        if self.show_summary:
            for rect, pos in self.summary_rows():
                out.append((rect, self._goto_and_close(pos)))
        return out

    def _goto(self, index: int) -> Callable[[], None]:
        return lambda: self.go(index)

    def _goto_and_close(self, index: int) -> Callable[[], None]:
        def run() -> None:
            self.show_summary = False
            self.go(index)

        return run

    # ------------------------------------------------------------------ words
    def seat_name(self, seat: int) -> str:
        return self.names[seat]

    def move_text(self, state: Any, action: Action | str) -> str:
        """A move in words: the card and what it took, a draw's choice, koi-koi, stop …"""
        a = action if isinstance(action, Action) else Action.from_text(action)
        k = a.kind
        if k in ("play", "discard", "draw"):
            events = state.copy().apply(a)
            ev = next((e for e in events if e.kind in ("play", "discard", "draw")), None)
            taken = tuple(ev.cards) if ev is not None else ()
            card = state.pending_draw if k == "draw" else a.card
            if not taken:
                return gfx.tr("ui.review.move.lay", card=card_name(card))
            return gfx.tr(
                "ui.review.move.take", card=card_name(card),
                cards=", ".join(card_name(c) for c in taken),
            )
        if k == "koikoi":
            return koi_word(state.rules) + "!"
        if k == "stop":
            return stop_word(state.rules)
        if k == "declare":
            return gfx.tr("ui.review.move.declare")
        if k == "exchange":
            return gfx.tr("ui.review.move.exchange")
        return gfx.tr("ui.review.move.keep_exchange" if state.phase == "exchange"
                      else "ui.review.move.keep_instant")

    def class_text(self, cls: str) -> str:
        mark = MARKS[cls]
        word = gfx.tr(f"ui.review.class.{cls}")
        return f"{word} {mark}" if mark else word

    def why_text(self, j: Judgement) -> str:
        if j.reason.key.startswith("review_"):
            return gfx.tr(f"ui.review.reason.{j.reason.key[7:]}", **j.reason.params)
        return reason_text(j.reason)  # type: ignore[arg-type]

    def result_text(self, deal: Any) -> str:
        out = deal.final.outcome
        if out is None:
            return gfx.tr("ui.review.unfinished")
        if out.winner is None:
            return gfx.tr("ui.review.no_winner", reason=end_text(out.reason))
        yaku = ", ".join(yaku_name(y.key) for y in out.yaku)
        return gfx.tr("ui.review.round_won", name=self.seat_name(out.winner), n=out.final,
                      yaku=yaku or end_text(out.reason))

    def row_text(self, pos: int) -> tuple[str, str]:
        """A move-list row: its text and the class mark of its decision ("" when none)."""
        t = self.timeline
        assert t is not None
        p = t.positions[pos]
        d = t.deals[p.deal]
        if p.move >= len(d.moves):
            return self.result_text(d), ""
        st = d.states[p.move]
        who = self.seat_name(st.to_move) if st.to_move is not None else ""
        text = f"{who}: {self.move_text(st, d.moves[p.move])}"
        j = self.judged.get((p.deal, p.move))
        if j is not None:
            return text, MARKS[j.cls]
        if (p.deal, p.move) in self.decisions:
            return text, "…"
        return text, ""

    # ------------------------------------------------------------------ geometry
    def row_h(self) -> int:
        return max(18, self.px(24))

    def list_rows(self) -> list[tuple[pygame.Rect, int | None]]:
        rect = self.geo.get("list")
        if rect is None:
            return []
        rh = self.row_h()
        top = rect.y + self.px(4)
        out = []
        for i in range(self.list_scroll, len(self.rows)):
            y = top + (i - self.list_scroll) * rh
            if y + rh > rect.bottom:
                break
            out.append((pygame.Rect(rect.x, y, rect.w, rh), self.rows[i][0]))
        return out

    def summary_box(self) -> pygame.Rect:
        return self.geo["main"].inflate(-self.px(40), -self.px(30))

    def summary_rows(self) -> list[tuple[pygame.Rect, int]]:
        """The clickable worst-move lines of the summary (rect, position index)."""
        t = self.timeline
        if t is None:
            return []
        return [
            (rect, t.index_of(j.deal, j.move))
            for _, rows in self.summary_rows_by_seat()
            for rect, j in rows
        ]

    def worst(self, seat: int) -> list[Judgement]:
        review = Review(list(self.judged.values()))
        return [Judgement.from_dict(d) for d in review.seat_summary(seat)["worst"]]

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        if surface.get_size() != self.size:
            return  # a resize is on its way
        surface.blit(felt(self.size), (0, 0))
        if self.timeline is None or not self.timeline.positions:
            gfx.blit_text(surface, self.error or gfx.tr("ui.review.nothing"), self.font(20),
                          self.geo["main"].center, anchor="center", color=theme.DANGER,
                          max_width=self.size[0] - 40)
            self.focus.draw(surface, font=self.font(15))
            return
        surface.blit(self.board_picture(), (0, 0))
        self.draw_marks(surface)
        self.draw_header(surface)
        pygame.draw.rect(surface, theme.PANEL, self.geo["side"])
        pygame.draw.line(surface, theme.PANEL_EDGE, self.geo["side"].topleft,
                         self.geo["side"].bottomleft)
        self.draw_panel(surface)
        self.draw_list(surface)
        self.draw_footer(surface)
        if self.show_summary:
            self.draw_summary(surface)
        self.focus.draw(surface, font=self.font(15))

    def board_picture(self) -> pygame.Surface:
        """The cards of the current position (rendered once per position, size, side)."""
        key = (self.index, self.size, self.viewer, gfx.tr("ui.review.title"))
        if self._board is not None and self._board[0] == key:
            return self._board[1]
        surf = pygame.Surface(self.size, pygame.SRCALPHA)
        lay = self.lay
        st = self.state()
        director = Director(AnimationQueue("off"), lambda: lay, lambda: self.viewer)
        board = director.board
        board.sync(st)
        board.shown_hands = {0, 1}
        director.snap()
        self._boxes = {c: pygame.Rect(*map(round, sp.box)) for c, sp in director.sprites.items()}
        badges = bool(self.app.setting("card_badges", True))
        for sp in sorted(director.sprites.values(), key=lambda x: x.z):
            rect = self._boxes[sp.card]
            surf.blit(card_surface(self.app, sp.card, rect.size), rect)
            if badges and rect.size == lay.card:
                draw_badge(surf, rect, sp.card)
        fs = self.font(13)
        for top in (True, False):
            p = (1 - self.viewer) if top else self.viewer
            groups = lay.opp_caps if top else lay.my_caps
            counts = {g: 0 for g in GROUPS}
            for c in st.captured(p):
                counts[kind_of(c)] += 1
            for g, rect in groups.items():
                if counts[g]:
                    gfx.blit_text(surf, f"{gfx.tr(f'kind.{g}.plural')} {counts[g]}", fs,
                                  (rect.x, rect.y), color=theme.MUTED, max_width=rect.w)
            tag = self.seat_name(p) + (" · " + gfx.tr("term.dealer") if st.dealer == p else "")
            at = (lay.opp_hand.x, lay.opp_band.y) if top else (lay.hand_area.x,
                                                               lay.hand_area.y + 2)
            gfx.blit_text(surf, tag, fs, at, bold=True, max_width=lay.opp_hand.w + 60)
        n = len(st.draw_pile)
        if n:
            back = card_surface(self.app, 0, lay.card)
            for i in range(min(4, (n + 5) // 6), 0, -1):
                surf.blit(back, lay.pile.move(-i * 2, -i * 2))
        gfx.blit_text(surf, gfx.tr("ui.table.deck", n=n), self.font(14),
                      (lay.pile.centerx, lay.pile.bottom + 6), anchor="midtop")
        self._board = (key, surf)
        return surf

    def marked_cards(self) -> tuple[list[int], list[int]]:
        """Cards of the played move and of the best alternative (when it differs)."""
        mv = self.move_at(self.index)
        if mv is None:
            return [], []
        st = self.state()

        def cards(a: Action) -> list[int]:
            """The hand card (or the drawn card's choice) first, then what it takes."""
            if a.kind not in ("play", "discard", "draw"):
                return []
            events = st.copy().apply(a)
            ev = next((e for e in events if e.kind in ("play", "discard", "draw")), None)
            taken = list(ev.cards) if ev is not None else []
            return ([] if a.kind == "draw" else [a.card]) + taken

        j = self.judgement()
        best: list[int] = []
        if j is not None and j.best != j.played:
            best = cards(Action.from_text(j.best))
        played = cards(mv)
        if st.phase == "draw" and st.pending_draw:
            played = [st.pending_draw, *played]
        return played, best

    def draw_marks(self, surface: pygame.Surface) -> None:
        self.board_picture()
        boxes = getattr(self, "_boxes", {})
        played, best = self.marked_cards()
        fs = self.font(13)
        for cards, color, key in ((best, theme.LEAF, "ui.review.best_tag"),
                                  (played, theme.OCHRE, "ui.review.played_tag")):
            for i, c in enumerate(cards):
                rect = boxes.get(c)
                if rect is None:
                    continue
                draw_focus(surface, rect, color, 3)
                if i == 0:
                    tag = gfx.tr(key)
                    tw, th = gfx.measure(tag, fs, bold=True)
                    r = pygame.Rect(0, 0, tw + 10, th + 4)
                    r.midbottom = (rect.centerx, rect.top - 6)
                    pygame.draw.rect(surface, color, r, border_radius=4)
                    gfx.blit_text(surface, tag, fs, r.center, anchor="center", bold=True,
                                  color=theme.INK)
        p = self.position
        assert self.timeline is not None
        d = self.timeline.deals[p.deal]
        if p.move >= len(d.moves):
            self.banner(surface, self.result_text(d))

    def banner(self, surface: pygame.Surface, text: str) -> None:
        lay = self.lay
        fs = self.font(24)
        w, h = gfx.measure(text, fs, bold=True)
        w = min(w, lay.main.w - 60)
        rect = pygame.Rect(0, 0, w + 40, h + 22)
        rect.center = lay.field_band.center
        gfx.draw_panel(surface, rect, color=theme.DEEP_RED, edge=theme.OCHRE, alpha=235)
        gfx.blit_text(surface, text, fs, rect.center, anchor="center", bold=True, max_width=w)

    def draw_header(self, surface: pygame.Surface) -> None:
        r = self.geo["header"]
        pygame.draw.rect(surface, theme.PANEL, r)
        pygame.draw.line(surface, theme.PANEL_EDGE, r.bottomleft, r.bottomright)
        t = self.timeline
        p = self.position
        assert t is not None and p is not None
        d = t.deals[p.deal]
        rules = t.rules
        total = rules.match_rounds if rules.match_end == "rounds" else None
        rnd = (gfx.tr("ui.common.round_n_of", n=d.round, total=max(total, len(t.deals)))
               if total else gfx.tr("ui.common.round_n", n=d.round))
        bal = d.balances_before
        parts = [
            gfx.tr("ui.review.title"),
            rnd,
            gfx.tr("ui.table.dealer", name=self.seat_name(d.dealer)),
            f"{self.names[0]} {bal[0]} : {bal[1]} {self.names[1]}",
        ]
        text = " · ".join(parts)
        box = self.geo["header_text"]
        gfx.blit_text(surface, text, self.font(16), (box.x, box.centery), anchor="midleft",
                      max_width=box.w)

    def draw_panel(self, surface: pygame.Surface) -> None:
        box = self.geo["panel"]
        gfx.draw_panel(surface, box, alpha=230, radius=8)
        pad = self.px(10)
        x, y, width = box.x + pad, box.y + pad, box.w - 2 * pad
        fs = self.font(15)
        t = self.timeline
        p = self.position
        assert t is not None and p is not None
        d = t.deals[p.deal]
        lines: list[tuple[str, tuple[int, int, int], bool]] = []
        if p.move >= len(d.moves):
            lines.append((gfx.tr("ui.common.round_n", n=d.round), theme.OCHRE, True))
            lines.append((self.result_text(d), theme.PAPER, False))
        else:
            st = d.states[p.move]
            mover = st.to_move
            j = self.judgement()
            kind = j.kind if j is not None else ""
            head = gfx.tr("ui.review.turn_head", n=d.round, turn=turn_of(st),
                          name=self.seat_name(mover) if mover is not None else "")
            lines.append((head, theme.OCHRE, True))
            played = self.move_text(st, d.moves[p.move])
            lines.append((gfx.tr("ui.review.played", move=played), theme.PAPER, False))
            if j is not None:
                if kind:
                    lines.insert(1, (gfx.tr(f"ui.review.kind.{kind}"), theme.MUTED, False))
                if j.best != j.played:
                    lines.append((gfx.tr("ui.review.best", move=self.move_text(st, j.best)),
                                  theme.LEAF, False))
                else:
                    lines.append((gfx.tr("ui.review.was_best"), theme.LEAF, False))
                lines.append((gfx.tr("ui.review.values", played=f"{j.value_played:+.1f}",
                                     best=f"{j.value_best:+.1f}"), theme.PAPER, False))
                loss = gfx.tr("ui.review.loss", n=f"{j.loss:.1f}")
                if j.win_loss is not None and j.win_loss >= 0.005:
                    loss += " · " + gfx.tr("ui.review.win_loss", n=round(j.win_loss * 100))
                lines.append((loss, COLORS[j.cls], j.cls != "good"))
                lines.append((self.class_text(j.cls), COLORS[j.cls], True))
                lines.append((self.why_text(j), theme.MUTED, False))
            elif (p.deal, p.move) in self.decisions:
                lines.append((gfx.tr("ui.review.pending"), theme.MUTED, False))
            else:
                lines.append((gfx.tr("ui.review.forced"), theme.MUTED, False))
        line_h = int(fs * 1.3)
        for text, color, bold in lines:
            for sub in gfx.wrap(text, fs, width, bold=bold):
                if y + line_h > box.bottom - pad // 2:
                    return
                gfx.blit_text(surface, sub, fs, (x, y), color=color, bold=bold, max_width=width)
                y += line_h

    def draw_list(self, surface: pygame.Surface) -> None:
        """The move list: a heading per round, a row per move (its decision's mark at the
        right), and each round's result; the current position outlined."""
        rect = self.geo["list"]
        pygame.draw.rect(surface, theme.FELT_DARK, rect, border_radius=6)
        t = self.timeline
        assert t is not None
        fs = self.font(13)
        mark_w = gfx.measure("??", fs, bold=True)[0] + self.px(10)
        for i, (r, pos) in enumerate(self.list_rows()):
            if pos is None:
                n = self.rows[self.list_scroll + i][1]
                pygame.draw.line(surface, theme.PANEL_EDGE, (r.x, r.bottom - 2),
                                 (r.right, r.bottom - 2))
                gfx.blit_text(surface, gfx.tr("ui.common.round_n", n=n), fs,
                              (r.x + self.px(6), r.centery), anchor="midleft", bold=True,
                              color=theme.OCHRE)
                continue
            text, mark = self.row_text(pos)
            if pos == self.index:
                pygame.draw.rect(surface, theme.BUTTON_HOVER, r)
                pygame.draw.rect(surface, theme.OCHRE, r, width=2)
            j = self.judgement(pos)
            p = t.positions[pos]
            final = p.move >= len(t.deals[p.deal].moves)
            if j is not None and j.cls != "good":
                color = COLORS[j.cls]
            elif final or (p.deal, p.move) not in self.decisions:
                color = theme.MUTED  # a round's result, or a forced move
            else:
                color = theme.PAPER
            gfx.blit_text(surface, text, fs, (r.x + self.px(6), r.centery), anchor="midleft",
                          color=color, bold=final, max_width=r.w - mark_w - self.px(8))
            if mark:
                gfx.blit_text(surface, mark, fs, (r.right - self.px(6), r.centery),
                              anchor="midright", bold=True, color=color)

    def draw_footer(self, surface: pygame.Surface) -> None:
        fr = self.geo["foot"]
        pygame.draw.rect(surface, theme.PANEL, fr)
        pygame.draw.line(surface, theme.PANEL_EDGE, fr.topleft, fr.topright)
        t = self.timeline
        assert t is not None
        status = self.geo["status"]
        fs = self.font(13)
        r = self.runner
        if r is not None:
            bar = pygame.Rect(status.x, status.centery - self.px(4), status.w // 3, self.px(8))
            pygame.draw.rect(surface, theme.BUTTON, bar, border_radius=4)
            fill = bar.copy()
            fill.w = max(2, int(bar.w * r.progress))
            pygame.draw.rect(surface, theme.OCHRE, fill, border_radius=4)
            gfx.blit_text(surface, gfx.tr("ui.review.analysing", n=r.done, total=r.total), fs,
                          (bar.right + self.px(10), status.centery), anchor="midleft")
            hint_x = bar.right + self.px(10) + gfx.measure(
                gfx.tr("ui.review.analysing", n=r.done, total=r.total), fs)[0] + self.px(20)
        else:
            text = self.note or gfx.tr("ui.review.done", n=len(self.judged))
            done = gfx.blit_text(surface, text, fs, (status.x, status.centery), anchor="midleft",
                                 color=theme.OCHRE if self.note else theme.MUTED,
                                 max_width=status.w // 2)
            hint_x = done.right + self.px(20)
        gfx.blit_text(surface, gfx.tr("ui.review.keys"), fs, (status.right, status.centery),
                      anchor="midright", color=theme.MUTED,
                      max_width=max(10, status.right - hint_x))
        # the slider over the whole match, with a tick per flagged move and per round
        bar = self.geo["slider"]
        track = pygame.Rect(bar.x, bar.centery - self.px(3), bar.w, self.px(6))
        pygame.draw.rect(surface, theme.PANEL_EDGE, track, border_radius=3)
        n = max(1, len(t.positions) - 1)
        for d in t.deals[1:]:
            x = track.x + track.w * t.index_of(d.index, 0) // n
            pygame.draw.line(surface, theme.MUTED, (x, track.y - self.px(6)),
                             (x, track.bottom + self.px(6)))
        for (deal, move), j in self.judged.items():
            if j.cls in ("mistake", "blunder"):
                x = track.x + track.w * t.index_of(deal, move) // n
                pygame.draw.line(surface, COLORS[j.cls], (x, track.y - self.px(3)),
                                 (x, track.bottom + self.px(3)), 3)
        knob = pygame.Rect(0, 0, self.px(14), self.px(24))
        knob.center = (track.x + track.w * self.index // n, track.centery)
        pygame.draw.rect(surface, theme.OCHRE, knob, border_radius=4)
        pygame.draw.rect(surface, theme.INK, knob, width=1, border_radius=4)

    def draw_summary(self, surface: pygame.Surface) -> None:
        box = self.summary_box()
        gfx.draw_panel(surface, box, alpha=245)
        pad = self.px(16)
        title = gfx.tr("ui.review.summary_title")
        if self.runner is not None:
            title += " · " + gfx.tr("ui.review.so_far", n=self.runner.done, total=self.runner.total)
        gfx.blit_text(surface, title, self.font(22), (box.x + pad, box.y + pad), bold=True,
                      color=theme.OCHRE, max_width=box.w - 2 * pad)
        review = Review(list(self.judged.values()))
        col_w = (box.w - self.px(48)) // 2
        rows = dict(self.summary_rows_by_seat())
        for seat in (self.viewer, 1 - self.viewer):
            x = box.x + pad + (0 if seat == self.viewer else col_w + pad)
            y = box.y + self.px(58)
            s = review.seat_summary(seat)
            gfx.blit_text(surface, self.seat_name(seat), self.font(18), (x, y), bold=True,
                          max_width=col_w)
            y += self.px(28)
            acc = "—" if s["accuracy"] is None else f"{s['accuracy']:.0f}%"
            gfx.blit_text(surface, gfx.tr("ui.review.accuracy", n=acc, d=s["decisions"]),
                          self.font(15), (x, y), max_width=col_w)
            y += self.px(24)
            counts = " · ".join(
                f"{self.class_text(c)} {s['counts'][c]}" for c in CLASSES
            )
            gfx.blit_text(surface, counts, self.font(14), (x, y), color=theme.MUTED,
                          max_width=col_w)
            y += self.px(24)
            head = gfx.tr("ui.review.worst") if s["worst"] else gfx.tr("ui.review.no_worst")
            gfx.blit_text(surface, head, self.font(14), (x, y), bold=True, max_width=col_w)
            for rect, j in rows.get(seat, []):
                gfx.draw_panel(surface, rect, alpha=200, radius=6)
                st = self.timeline.deals[j.deal].states[j.move] if self.timeline else None
                line1 = (f"{gfx.tr('ui.common.round_n', n=j.round)} · "
                         f"{self.class_text(j.cls)} · -{j.loss:.1f}")
                gfx.blit_text(surface, line1, self.font(13), (rect.x + 6, rect.y + 4),
                              bold=True, color=COLORS[j.cls], max_width=rect.w - 12)
                if st is not None:
                    line2 = gfx.tr("ui.review.instead", played=self.move_text(st, j.played),
                                   best=self.move_text(st, j.best))
                    gfx.blit_text(surface, line2, self.font(13),
                                  (rect.x + 6, rect.y + 4 + self.px(19)), max_width=rect.w - 12)
                gfx.blit_text(surface, self.why_text(j), self.font(12),
                              (rect.x + 6, rect.y + 4 + self.px(38)), color=theme.MUTED,
                              max_width=rect.w - 12)
        gfx.blit_text(surface, gfx.tr("ui.review.summary_keys"), self.font(13),
                      (box.centerx, box.bottom - pad), anchor="midbottom", color=theme.MUTED,
                      max_width=box.w - 2 * pad)

    def summary_rows_by_seat(self) -> list[tuple[int, list[tuple[pygame.Rect, Judgement]]]]:
        box = self.summary_box()
        col_w = (box.w - self.px(48)) // 2
        out = []
        for seat in (self.viewer, 1 - self.viewer):
            x = box.x + self.px(16) + (0 if seat == self.viewer else col_w + self.px(16))
            y = box.y + self.px(170)
            rows = []
            for j in self.worst(seat):
                rows.append((pygame.Rect(x, y, col_w, self.px(62)), j))
                y += self.px(68)
            out.append((seat, rows))
        return out
