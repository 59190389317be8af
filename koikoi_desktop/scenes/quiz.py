"""The month quiz: a card is shown, the player names its month, then its category.

``QuizScene(app, screens.Quiz(seed=…, on_leave=…))``, opened from the month reference (Q or its Quiz
button). A card counts when both answers are right. Score, streak and best streak live in the
settings (``quiz_score``, ``quiz_streak``, ``quiz_best_streak``) and are saved after every card.
Esc, Q or Back leaves; ``on_leave(card)`` then gets the last card asked, so the month reference
below opens that card's month.

Keys: arrows and Tab move between the answers, Enter answers (and "Next card" asks another).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pygame

from koikoi_desktop.engine import DECK
from koikoi_desktop.engine.facts import CARD_KINDS
from koikoi_desktop.i18n import Key, Label
from koikoi_desktop.scenes import screens, yaku_facts
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.learning import (
    LearnScene,
    card_size,
    draw_card,
    name_style,
    paragraph,
)
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, FocusGroup
from koikoi_desktop.words.names import kind_name

KINDS = CARD_KINDS


class QuizScene(LearnScene):
    """One card at a time: its month, then its category (see the module docstring)."""

    name = "quiz"
    title_key = "ui.quiz.title"

    def __init__(self, app: AppServices, screen: screens.Quiz = screens.Quiz()) -> None:
        super().__init__(app)
        self.rng = random.Random(screen.seed)
        self.on_leave = screen.on_leave
        self.quiz_card = 0
        self.quiz_stage = "month"  # "month" -> "kind" -> "result"
        self.quiz_answer: dict[str, object] = {}
        self.qfocus = FocusGroup()
        self.next_question()

    # ------------------------------------------------------------------ questions
    def next_question(self) -> None:
        prev = self.quiz_card
        c = prev
        while c == prev:
            c = self.rng.randint(1, 48)
        self.quiz_card = c
        self.quiz_stage = "month"
        self.quiz_answer = {}
        self.build_answers()

    def answer_month(self, month: int) -> None:
        if self.quiz_stage != "month":
            return
        self.quiz_answer["month"] = month
        self.quiz_stage = "kind"
        self.build_answers()

    def answer_kind(self, kind: str) -> None:
        if self.quiz_stage != "kind":
            return
        self.quiz_answer["kind"] = kind
        c = DECK[self.quiz_card - 1]
        right = self.quiz_answer["month"] == c.month and kind == c.kind
        self.quiz_answer["right"] = right
        saved = self.app.settings
        score = saved.quiz_score + (1 if right else 0)
        streak = saved.quiz_streak + 1 if right else 0
        best = max(saved.quiz_best_streak, streak)
        # storage never raises for a full disk: it keeps the values and warns on the title
        new = self.app.prefs.draft()
        new.quiz_score, new.quiz_streak, new.quiz_best_streak = score, streak, best
        self.app.prefs.apply(new)
        self.quiz_stage = "result"
        self.build_answers()

    def leave(self) -> None:
        if self.on_leave is not None:
            self.on_leave(self.quiz_card)
        self.close()

    # ------------------------------------------------------------------ layout
    def build(self) -> None:
        super().build()
        self.build_answers()

    def pane(self) -> pygame.Rect:
        x, top = self.px(30), self.px(120)
        return pygame.Rect(x, top, self.size[0] - x - self.px(20), self.size[1] - top - self.px(28))

    def quiz_layout(self) -> tuple[pygame.Rect, pygame.Rect]:
        """(card rect, answers area) in the pane."""
        area = self.pane()
        ch = min(int(area.h * 0.78), self.px(400))
        cw, ch = card_size(ch)
        card = pygame.Rect(area.x + self.px(10), area.y + self.px(40), cw, ch)
        answers = pygame.Rect(card.right + self.px(40), area.y + self.px(40), 0, 0)
        answers.w = area.right - answers.x
        answers.h = area.bottom - answers.y
        return card, answers

    def build_answers(self) -> None:
        _, area = self.quiz_layout()
        bh = self.px(40)
        gap = self.px(8)
        y = area.y + self.px(40)
        widgets: list[Button] = []
        if self.quiz_stage == "month":
            cols = 3
            bw = (area.w - gap * (cols - 1)) // cols
            for m in range(1, 13):
                r = pygame.Rect(
                    area.x + ((m - 1) % cols) * (bw + gap),
                    y + ((m - 1) // cols) * (bh + gap),
                    bw,
                    bh,
                )
                widgets.append(Button(self._month_label(m), self._month_cb(m), r))
        elif self.quiz_stage == "kind":
            bw = (area.w - gap) // 2
            for i, k in enumerate(KINDS):
                r = pygame.Rect(area.x + (i % 2) * (bw + gap), y + (i // 2) * (bh + gap), bw, bh)
                widgets.append(Button(self._kind_label(k), self._kind_cb(k), r))
        else:
            r = pygame.Rect(area.x, area.y + self.px(230), min(area.w, self.px(260)), bh)
            widgets.append(Button(Key("ui.quiz.next"), self.next_question, r, primary=True))
        self.qfocus.set(widgets)
        self.qfocus.index = 0

    def _month_label(self, m: int) -> Label:
        return lambda w: f"{w.t(f'month.{m}.name')} · {w.t(f'month.{m}.plant')}"

    def _month_cb(self, m: int) -> Callable[[], None]:
        return lambda: self.answer_month(m)

    def _kind_label(self, k: str) -> Label:
        return lambda w: kind_name(w, k)

    def _kind_cb(self, k: str) -> Callable[[], None]:
        return lambda: self.answer_kind(k)

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        if intent.letter == "q":
            self.leave()
            return
        if intent.kind not in (IntentKind.BACK, IntentKind.WHEEL) and self.qfocus.handle(intent):
            return
        super().handle(intent)

    def on_back(self) -> None:
        self.leave()

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        self.draw_frame(surface)
        self.draw_quiz(surface)
        self.draw_buttons(surface)
        self.qfocus.draw(surface, self.app.words, font=self.font(16))

    def draw_quiz(self, surface: pygame.Surface) -> None:
        words = self.app.words
        area = self.pane()
        area.y = self.px(70)
        card_r, answers = self.quiz_layout()
        draw_card(surface, self.app, self.quiz_card, card_r, badge=False)
        saved = self.app.settings
        score, streak, best = saved.quiz_score, saved.quiz_streak, saved.quiz_best_streak
        line = "   ".join(
            [
                words.t("ui.quiz.score", score=score),
                words.t("ui.quiz.streak", streak=streak),
                words.t("ui.quiz.best", best=best),
            ]
        )
        gfx.blit_text(
            surface,
            line,
            self.font(17),
            (area.x, area.y),
            color=theme.OCHRE,
            bold=True,
            max_width=area.w,
        )
        q = {"month": "ui.quiz.question_month", "kind": "ui.quiz.question_kind"}.get(
            self.quiz_stage
        )
        if q:
            paragraph(
                surface, words.t(q), self.font(20), answers.x, answers.y, answers.w, bold=True
            )
            if "month" in self.quiz_answer:
                m = self.quiz_answer["month"]
                gfx.blit_text(
                    surface,
                    words.t("ui.quiz.your_month", month=words.t(f"month.{m}.name")),
                    self.font(15),
                    (answers.x, answers.y + self.px(150)),
                    color=theme.MUTED,
                    max_width=answers.w,
                )
            return
        c = DECK[self.quiz_card - 1]
        style = name_style(self.app)
        right = bool(self.quiz_answer.get("right"))
        y = answers.y
        if right:
            y = paragraph(
                surface,
                words.t("ui.quiz.correct"),
                self.font(24),
                answers.x,
                y,
                answers.w,
                bold=True,
                color=theme.TARGET,
            )
        else:
            truth = (
                f"{words.t(f'month.{c.month}.name')} ({words.t(f'month.{c.month}.plant')}),"
                f" {kind_name(words, c.kind)}"
            )
            y = paragraph(
                surface,
                words.t("ui.quiz.wrong", answer=truth),
                self.font(20),
                answers.x,
                y,
                answers.w,
                bold=True,
                color=theme.DANGER,
            )
        y += self.px(8)
        y = paragraph(
            surface, words.card_name(c.id, style), self.font(18), answers.x, y, answers.w, bold=True
        )
        y = paragraph(
            surface,
            words.t(yaku_facts.card_kind_detail(c.id)),
            self.font(15),
            answers.x,
            y,
            answers.w,
            color=theme.OCHRE,
        )
        paragraph(
            surface,
            words.t(f"month.{c.month}.symbolism"),
            self.font(15),
            answers.x,
            y + self.px(4),
            answers.w,
            color=theme.MUTED,
        )
