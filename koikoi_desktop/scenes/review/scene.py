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
  them; a tenth of the width is taken from the table's field for a wider side panel, and
  the opponent's hand, face up, is laid out side by side (``open_hand``), not as the
  overlapping backs of the table.
* The move list wraps a long move to two lines (a seat name such as "Computer
  (Intermediate)" and two card names do not fit one line of the side panel), the lines
  worked out once per language and width.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.engine import Action, DealCheck, RecordError, RoundState, verify_deals
from koikoi_desktop.i18n import Key, Words
from koikoi_desktop.review.analysis import (
    CLASSES,
    Judgement,
    Review,
    decision_points,
)
from koikoi_desktop.review.runner import ReviewRunner, cached_review
from koikoi_desktop.review.timeline import DealLine, Position, Timeline
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.review import view as review_view
from koikoi_desktop.scenes.screen_frame import ScreenFrame
from koikoi_desktop.scenes.table.text import (
    MARKS,
    chance_lost_text,
    class_text,
    end_text,
    koi_word,
    stop_word,
)
from koikoi_desktop.ui import gfx
from koikoi_desktop.ui import layout as layout_mod
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, FocusGroup
from koikoi_desktop.words.deal import check_text, first_draw_text
from koikoi_desktop.words.names import Names, SeatNames, names_now
from koikoi_desktop.words.reasons import reason_text
from koikoi_desktop.words.storage import refused_text

#: The analysis budget (worlds per decision); tests lower it.
WORLDS = REVIEW_WORLDS
#: How often a running analysis's progress is taken while nothing else moves (seconds).
ANALYSIS_LOOK = 0.1


class ReviewScene(Scene):
    """The review of one match (see the module docstring)."""

    name = "review"

    def __init__(self, app: AppServices, screen: screens.Review) -> None:
        super().__init__(app)
        self.record = screen.record
        self.match_id = screen.match_id
        #: the seats' names (facts such as the table's SeatNames are worded when read)
        self.names: Names = screen.names or SeatNames(
            ("human", "human"), keys=("ui.common.you", "ui.common.opponent")
        )
        self.viewer = screen.viewer
        self.start_round = screen.start_round
        self.rounds = list(screen.rounds) if screen.rounds is not None else None
        self.settled_only = screen.settled_only
        self.seats = screen.seats
        self.inline = screen.inline
        #: The screen's size and layout scale (the one scaling every framed screen uses; the
        #: review draws its own header, the table layout's, over it).
        self.frame = ScreenFrame(app, heading=Key("ui.scene.review"), back=self.close)
        self.timeline: Timeline | None = None
        #: The check of the match's deals (verify_deals: the seed is revealed only once the
        #: match is over), a fact worded when drawn.
        self.deals: DealCheck | None = None
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
        self.hits: list[tuple[pygame.Rect, Callable[[], object]]] = []
        self.board_cache = review_view.BoardCache()  # the position on screen, drawn
        self.pointer_pos: tuple[int, int] = (0, 0)
        self._rows_text: dict[tuple[int, Words], str] = {}
        self._lines_key: tuple[Words, int, int, int] | None = None
        self._lines: tuple[list[list[str]], list[int]] = ([], [])
        self.lay: layout_mod.TableLayout | None = None
        self.geo: dict[str, pygame.Rect] = {}

    # ------------------------------------------------------------------ set-up
    @property
    def size(self) -> tuple[int, int]:
        return self.frame.size

    @property
    def scale(self) -> float:
        return self.frame.scale

    def px(self, n: float) -> int:
        return self.frame.px(n)

    def font(self, n: int) -> int:
        return self.frame.font(n)

    def enter(self) -> None:
        words = self.app.words
        try:
            self.timeline = Timeline.from_record(self.record, settled_only=self.settled_only)
        except RecordError as exc:  # a record that does not replay
            self.error = words.t("ui.review.unreadable", why=str(exc)[:120])
            self.relayout()
            return
        t = self.timeline
        self.deals = verify_deals(self.record, finished=t.match.outcome is not None)
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
        store = self.app.storage
        if self.match_id is None or store is None or self.rounds is not None:
            return None
        return cached_review(store, self.match_id, worlds=WORLDS)

    def exit(self) -> None:
        if self.runner is not None:
            self.runner.close()

    def resize(self, size: tuple[int, int]) -> None:
        self.frame.size = size
        self.relayout()

    def relayout(self) -> None:
        """Every rectangle of the screen for the current size."""
        words = self.app.words
        w, h = self.size
        foot = self.px(78)
        extra = round(w * 0.10)
        self.lay = layout_mod.compute((w - extra, h - foot), self.app.ui_scale, open_hand=True)
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
        header: list[tuple[str, Callable[[], object]]] = [
            ("ui.common.back", self.close),
            ("ui.review.play_again", self.play_again),
        ]
        for key, cb in header:
            label = Key(key)
            bw = gfx.measure(label(words), f, bold=True)[0] + self.px(26)
            x -= bw
            made.insert(0, Button(label, cb, pygame.Rect(x, (lay.header.h - bh) // 2, bw, bh)))
            x -= self.px(8)
        self.geo["header_text"] = pygame.Rect(self.px(12), 0, x - self.px(24), lay.header.h)
        made[0].enabled = self.can_play_again()
        fr = self.geo["foot"]
        row_y = fr.y + self.px(30)
        row_h = fr.bottom - row_y - self.px(8)
        small = max(self.px(46), row_h)
        sw = gfx.measure(words.t("ui.review.summary"), f, bold=True)[0] + self.px(30)
        prev = Button(
            "◀", lambda: self.go(self.index - 1), pygame.Rect(self.px(12), row_y, small, row_h)
        )
        summary_btn = Button(
            Key("ui.review.summary"),
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
        self.board_cache.clear()

    # ------------------------------------------------------------------ reading
    @property
    def position(self) -> Position | None:
        t = self.timeline
        return t.positions[self.index] if t is not None and t.positions else None

    def state(self) -> RoundState:
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
        """Scroll the move list so the current row shows (a third down when it was out of
        view, so the moves before it show too)."""
        if self.geo.get("list") is None:
            return
        row = next((i for i, (pos, _) in enumerate(self.rows) if pos == self.index), 0)
        shown = [i for i, _, _ in self.list_rows()]
        inside = shown[2:-2] if len(shown) > 6 else shown
        if row not in inside:
            self.list_scroll = row - max(1, len(shown)) // 3
        self.list_scroll = max(0, min(self.list_scroll, self.max_scroll()))
        while row not in [i for i, _, _ in self.list_rows()] and self.list_scroll < row:
            self.list_scroll += 1

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
        self.board_cache.clear()

    def close(self) -> None:
        if self.show_summary:
            self.show_summary = False
            return
        self.app.stack.pop()

    def play_again(self) -> None:
        """The deal on screen again, same dealer and cards, same opponent, in practice mode;
        the match's later deals come from a fresh seed (the record names this deal stacked)."""
        t = self.timeline
        p = self.position
        if not self.can_play_again() or t is None or p is None or self.seats is None:
            return
        d = t.match.deals[p.deal]
        level = self.app.settings.help_level
        config = MatchConfig(
            rules=t.rules,
            seats=self.seats,
            seed=None,  # a fresh seed: the deals after this one are new (it is stacked)
            practice=True,
            deal=(d.dealer, tuple(tuple(x) for x in d.decks)),
            help_level=level,
        )
        self.app.stack.reset(self.app.router.build(screens.Title()))
        self.app.stack.push(self.app.router.build(screens.Table(config=config)))

    # ------------------------------------------------------------------ frame
    def still_for(self) -> float:
        """Still once the analysis is over; while it runs, its progress is looked at ten times
        a second (the app sleeps between)."""
        return math.inf if self.runner is None else ANALYSIS_LOOK

    def update(self, dt: float) -> None:
        words = self.app.words
        r = self.runner
        if r is None:
            return
        for j in r.poll():
            self.judged[(j.deal, j.move)] = j
        if not r.finished:
            return
        self.runner = None
        if r.error is not None:
            self.note = words.t("ui.review.failed", why=str(r.error)[:100])
            return
        store = self.app.storage
        if store is None or self.match_id is None or self.rounds is not None:
            return
        if store.ledger.get(self.match_id) is not None:  # never a review without its match
            review = Review([self.judged[k] for k in sorted(self.judged)], worlds=r.worlds)
            why = store.save_review(self.match_id, review.to_json())
            if why is not None:
                self.note = words.t("ui.review.not_cached", reason=refused_text(words, why))

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        if intent.kind == IntentKind.BACK:
            self.close()
            return
        if intent.kind in (IntentKind.PRESS, IntentKind.RELEASE, IntentKind.MOVE):
            self.pointer(intent)
            return
        if intent.kind == IntentKind.WHEEL:
            self.wheel(intent.pos[1])
            return
        if self.key(intent):
            return
        self.focus.handle(intent)

    def key(self, it: Intent) -> bool:
        by_kind: dict[IntentKind, Callable[[], object]] = {
            IntentKind.LEFT: lambda: self.go(self.index - 1),
            IntentKind.RIGHT: lambda: self.go(self.index + 1),
            IntentKind.UP: lambda: self.step_round(-1),
            IntentKind.DOWN: lambda: self.step_round(1),
            IntentKind.HOME: lambda: self.go(0),
            IntentKind.END: lambda: self.go(10**9),
            IntentKind.PAGE_UP: lambda: self.step_flagged(-1),
            IntentKind.PAGE_DOWN: lambda: self.step_flagged(1),
        }
        by_letter: dict[str, Callable[[], object]] = {
            "s": self.toggle_summary,
            "f": self.flip,
            "p": self.play_again,
        }
        if it.kind == IntentKind.CONFIRM and not self.focus.keyboard_used:
            self.go(self.index + 1)
            return True
        fn = by_kind.get(it.kind) or by_letter.get(it.letter)
        if fn is None:
            return False
        fn()
        return True

    def pointer(self, it: Intent) -> None:
        if it.kind == IntentKind.RELEASE:
            self.drag_slider = False
            self.focus.handle(it)
            return
        self.pointer_pos = it.pos
        if it.kind == IntentKind.MOVE:
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
        if self.geo.get("list", pygame.Rect(0, 0, 0, 0)).collidepoint(self.pointer_pos):
            self.list_scroll = max(0, min(self.max_scroll(), self.list_scroll - dy * 3))
        else:
            self.go(self.index - dy)

    def slide_to(self, x: int) -> None:
        t = self.timeline
        bar = self.geo["slider"]
        if t is None or not t.positions:
            return
        frac = min(1.0, max(0.0, (x - bar.x) / max(1, bar.w)))
        self.go(round(frac * (len(t.positions) - 1)))

    def hits_now(self) -> list[tuple[pygame.Rect, Callable[[], object]]]:
        """Clickable rows: the move list, and the summary's worst moves when it is open."""
        out: list[tuple[pygame.Rect, Callable[[], object]]] = []
        for _, rect, pos in self.list_rows():
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
        return names_now(self.names, self.app.words)[seat]

    def move_text(self, state: RoundState, action: Action | str) -> str:
        """A move in words: the card and what it took, a draw's choice, koi-koi, stop …"""
        words = self.app.words
        a = action if isinstance(action, Action) else Action.from_text(action)
        k = a.kind
        if k in ("play", "discard", "draw"):
            taken = state.captures(a)  # the engine's answer
            card = state.pending_draw if k == "draw" else a.card
            if not taken:
                return words.t("ui.review.move.lay", card=words.card_name(card))
            return words.t(
                "ui.review.move.take",
                card=words.card_name(card),
                cards=", ".join(words.card_name(c) for c in taken),
            )
        if k == "koikoi":
            return koi_word(words, state.rules) + "!"
        if k == "stop":
            return stop_word(words, state.rules)
        if k == "declare":
            return words.t("ui.review.move.declare")
        if k == "exchange":
            return words.t("ui.review.move.exchange")
        return words.t(
            "ui.review.move.keep_exchange"
            if state.phase == "exchange"
            else "ui.review.move.keep_instant"
        )

    def made_text(self, state: RoundState) -> str:
        """At a koi-koi decision, the yaku the seat has made ("Animals: 1 · Ribbons: 1", as
        the koi-koi panel lists them); "" at any other move."""
        words = self.app.words
        if state.phase != "decide" or state.to_move is None:
            return ""
        made = state.view(state.to_move).koikoi_odds().yaku
        return " · ".join(
            words.t("ui.decide.yaku_line", yaku=words.yaku_name(y.key), points=y.points)
            for y in made
        )

    def class_text(self, cls: str) -> str:
        words = self.app.words
        return class_text(words, cls)  # the coach at the table says it in the same words

    def why_text(self, j: Judgement) -> str:
        words = self.app.words
        return reason_text(words, j.reason)

    def chance_lines(self) -> list[str]:
        """The summary's lines on chance: how the first dealer was chosen, and the check of
        the deals against the revealed seed (only the seal while the match is unfinished)."""
        words = self.app.words
        t = self.timeline
        if t is None:
            return []
        first = first_draw_text(words, t.match.first_draw, (self.seat_name(0), self.seat_name(1)))
        lines = [f"{words.t('ui.deals.first_dealer')}: {first}" if first else ""]
        if self.deals is not None and self.deals.verdict != "no_commitment":
            lines.append(check_text(words, self.deals, t.match.seed))
        return [ln for ln in lines if ln]

    def chance_wrapped(self) -> list[str]:
        """:meth:`chance_lines` wrapped to the summary's width (the summary's last lines)."""
        width = self.summary_box().w - 2 * self.px(16)
        return [w for ln in self.chance_lines() for w in gfx.wrap(ln, self.font(13), width)]

    def result_text(self, deal: DealLine) -> str:
        words = self.app.words
        out = deal.final.outcome
        if out is None:
            return words.t("ui.review.unfinished")
        if out.winner is None:
            return words.t("ui.review.no_winner", reason=end_text(words, out.reason))
        yaku = ", ".join(words.yaku_name(y.key) for y in out.yaku)
        return words.t(
            "ui.review.round_won",
            name=self.seat_name(out.winner),
            n=out.final,
            yaku=yaku or end_text(words, out.reason),
        )

    def row_text(self, pos: int) -> tuple[str, str]:
        """A move-list row: its text and the class mark of its decision ("" when none)."""
        words = self.app.words
        t = self.timeline
        assert t is not None
        p = t.positions[pos]
        d = t.deals[p.deal]
        if p.move >= len(d.moves):
            return self.result_text(d), ""
        text = self._rows_text.get((pos, words))
        if text is None:  # words of a move: worked out once per language, not every frame
            st = d.states[p.move]
            who = self.seat_name(st.to_move) if st.to_move is not None else ""
            text = self._rows_text[(pos, words)] = f"{who}: {self.move_text(st, d.moves[p.move])}"
        j = self.judged.get((p.deal, p.move))
        if j is not None:
            return text, MARKS[j.cls]
        if (p.deal, p.move) in self.decisions:
            return text, "…"
        return text, ""

    # ------------------------------------------------------------------ geometry
    def row_h(self) -> int:
        """The height of one line of the move list."""
        return max(18, self.px(24))

    def list_font(self) -> int:
        return self.font(13)

    def row_width(self) -> int:
        """The width the words of a move-list row may take (its class mark sits at the right)."""
        fs = self.list_font()
        mark_w = gfx.measure("??", fs, bold=True)[0] + self.px(10)
        return self.geo["list"].w - mark_w - self.px(14)

    def row_lines(self, i: int) -> list[str]:
        """The lines of move-list row ``i``: a round's heading, or a move (or a round's result)
        wrapped to two lines at most, so a long card name or seat name is not cut short."""
        return self._row_layout()[0][i]

    def row_height(self, i: int) -> int:
        """Move-list row ``i``'s height: one line, and a shorter step per wrapped line."""
        return self._row_layout()[1][i]

    def _row_layout(self) -> tuple[list[list[str]], list[int]]:
        """Every row's lines and height, worked out once per language, list width and match
        (every frame reads them)."""
        words = self.app.words
        key = (words, self.geo["list"].w, self.list_font(), len(self.rows))
        if self._lines_key != key:
            lines = [self._wrap_row(i) for i in range(len(self.rows))]
            step = round(self.list_font() * 1.25)
            heights = [self.row_h() + (len(x) - 1) * step for x in lines]
            self._lines_key, self._lines = key, (lines, heights)
        return self._lines

    def _wrap_row(self, i: int) -> list[str]:
        words = self.app.words
        pos, number = self.rows[i]
        if pos is None:
            return [words.t("ui.common.round_n", n=number)]
        text, _ = self.row_text(pos)
        final = self.move_at(pos) is None
        lines = gfx.wrap(text, self.list_font(), self.row_width(), bold=final)
        if len(lines) > 2:  # the second line ends with the rest (cut at drawing)
            lines = [lines[0], " ".join(lines[1:])]
        return lines

    def max_scroll(self) -> int:
        """The largest scroll that still fills the list (the last rows at its bottom)."""
        rect = self.geo.get("list")
        if rect is None or not self.rows:
            return 0
        room = rect.h - self.px(4)
        heights = self._row_layout()[1]
        i = len(self.rows)
        while i > 0 and room - heights[i - 1] >= 0:
            room -= heights[i - 1]
            i -= 1
        return i

    def list_rows(self) -> list[tuple[int, pygame.Rect, int | None]]:
        """The move-list rows in view: (row number, rectangle, position index or None for a
        round's heading)."""
        rect = self.geo.get("list")
        if rect is None:
            return []
        y = rect.y + self.px(4)
        heights = self._row_layout()[1]
        out = []
        for i in range(self.list_scroll, len(self.rows)):
            rh = heights[i]
            if y + rh > rect.bottom:
                break
            out.append((i, pygame.Rect(rect.x, y, rect.w, rh), self.rows[i][0]))
            y += rh
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
            for rect, j, _ in rows
        ]

    def worst(self, seat: int) -> list[Judgement]:
        review = Review(list(self.judged.values()))
        return [Judgement.from_dict(d) for d in review.seat_summary(seat)["worst"]]

    # ------------------------------------------------------------------ drawing
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
            taken = list(st.captures(a))  # the engine's answer
            return ([] if a.kind == "draw" else [a.card]) + taken

        j = self.judgement()
        best: list[int] = []
        if j is not None and j.best != j.played:
            best = cards(Action.from_text(j.best))
        played = cards(mv)
        if st.phase == "draw" and st.pending_draw:
            played = [st.pending_draw, *played]
        return played, best

    def draw(self, surface: pygame.Surface) -> None:
        review_view.draw(self, surface)

    def summary_column(self, k: int) -> pygame.Rect:
        """Column ``k`` of the summary (0: the seat at the bottom of the board)."""
        box = self.summary_box()
        pad = self.px(16)
        col_w = (box.w - 3 * pad) // 2
        top = box.y + self.px(58)
        return pygame.Rect(box.x + pad + k * (col_w + pad), top, col_w, box.bottom - top)

    def counts_lines(self, seat: int, width: int) -> list[str]:
        """A seat's counts per class ("Good 54 · Inaccuracy ?! 14 · …"), on as many lines as
        ``width`` needs, each count whole on its line."""
        mine = [j for j in self.judged.values() if j.seat == seat]
        items = [f"{self.class_text(c)} {sum(j.cls == c for j in mine)}" for c in CLASSES]
        lines = [items[0]]
        for item in items[1:]:
            joined = f"{lines[-1]} · {item}"
            if gfx.measure(joined, self.font(14))[0] <= width:
                lines[-1] = joined
            else:
                lines.append(item)
        return lines

    def worst_lines(self, j: Judgement, width: int) -> list[tuple[str, int, str]]:
        """The lines of one of the summary's worst moves: (text, font size, role) — the round,
        class and loss (``head``); what was played instead of what (``move``); why (``why``);
        the last two at most two lines each."""
        words = self.app.words
        st = self.timeline.deals[j.deal].states[j.move] if self.timeline else None
        head = f"{words.t('ui.common.round_n', n=j.round)} · {self.class_text(j.cls)}"
        lost = chance_lost_text(words, j.win_loss)
        head = f"{head} · {lost}" if lost else head
        out = [
            (line, self.font(13), "head")
            for line in gfx.wrap(head, self.font(13), width, bold=True)
        ]
        texts: list[tuple[str, int, str]] = []
        if st is not None:
            instead = words.t(
                "ui.review.instead",
                played=self.move_text(st, j.played),
                best=self.move_text(st, j.best),
            )
            texts.append((instead, self.font(13), "move"))
        texts.append((self.why_text(j), self.font(12), "why"))
        for text, size, role in texts:
            lines = gfx.wrap(text, size, width)
            if len(lines) > 2:  # the second line ends with the rest (cut at drawing)
                lines = [lines[0], " ".join(lines[1:])]
            out += [(line, size, role) for line in lines]
        return out

    def worst_top(self) -> int:
        """Where the "biggest mistakes" heading sits, below the name, the accuracy and the
        counts (the longer of the two seats' counts, so both columns line up)."""
        col_w = self.summary_column(0).w
        seats = (self.viewer, 1 - self.viewer)
        counts = max(len(self.counts_lines(seat, col_w)) for seat in seats)
        return self.summary_column(0).y + self.px(28 + 24 + 6) + counts * self.px(19)

    def summary_rows_by_seat(
        self,
    ) -> list[tuple[int, list[tuple[pygame.Rect, Judgement, list[tuple[str, int, str]]]]]]:
        """Each seat's worst moves as the summary shows them: (seat, [(rectangle, judgement,
        lines)]), rows as tall as their wrapped lines, only those that fit the box."""
        out = []
        top = self.worst_top() + self.px(26)
        # above the chance lines and the keys line
        bottom = self.summary_box().bottom - self.px(40) - len(self.chance_wrapped()) * self.px(18)
        for k, seat in enumerate((self.viewer, 1 - self.viewer)):
            col = self.summary_column(k)
            y = top
            rows = []
            for j in self.worst(seat):
                lines = self.worst_lines(j, col.w - self.px(12))
                h = self.px(8) + sum(round(size * 1.3) for _, size, _ in lines)
                if y + h > bottom:
                    break
                rows.append((pygame.Rect(col.x, y, col.w, h), j, lines))
                y += h + self.px(6)
            out.append((seat, rows))
        return out
