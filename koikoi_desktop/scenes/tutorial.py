"""A guided first round: a fixed deal, and a panel that says what to do next and why.

``TutorialScene(app)``. The round is dealt by the engine (``new_round(PRESETS["nintendo"],
dealer=0, deck=TUTORIAL_DECK)``) from a stacked deck built with the engine's own deal positions;
every move, the player's and the scripted opponent's, goes through ``RoundState.apply``. The
script (``SCRIPT``) walks through: a simple capture, the opponent laying a card on the field, a
two-way choice (take the crane, a bright), and a first yaku (Hanami), then Stop vs koi-koi.

Decisions: the player must make the suggested move (the panel says why); any other card gets a
short explanation instead of being played, so the lesson always reaches its yaku. Koi-koi is
explained but, in this lesson, only Stop ends the round. Enter performs the suggested move, so
the lesson can be followed from the keyboard.
"""

from __future__ import annotations

from typing import Any

import pygame

from koikoi_desktop import i18n
from koikoi_desktop.engine import PRESETS, RoundState, new_round
from koikoi_desktop.engine.round import deal_positions
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.learning import LearnScene, card_size, draw_card, name_style, paragraph
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent
from koikoi_desktop.ui.widgets import Button

RULES = PRESETS["nintendo"]
PLAYER_HAND = (9, 33, 2, 18, 27, 39, 42, 47)
OPPONENT_HAND = (5, 13, 17, 21, 25, 37, 43, 48)
FIELD = (1, 3, 11, 31, 35, 14, 46, 22)
PILE_TOP = (30, 40, 7, 44, 15)

#: (step name, action): a plain action is the player's to make, "opp:…" is played for the
#: opponent on entering the step, None waits for Continue.
SCRIPT: tuple[tuple[str, str | None], ...] = (
    ("intro", None),
    ("p1", "play 9"),
    ("after_p1", None),
    ("o1", "opp:play 5"),
    ("p2", "play 2>1"),
    ("after_p2", None),
    ("o2", "opp:play 21"),
    ("p3", "play 33"),
    ("decide", "stop"),
    ("done", None),
)


def stacked_deck() -> list[int]:
    """The 48-card order that deals the hands, field and pile above (dealer = player 0)."""
    hands = {"d": list(PLAYER_HAND), "nd": list(OPPONENT_HAND), "f": list(FIELD)}
    deck = [hands[dest].pop(0) for dest, _ in deal_positions(RULES)]
    rest = [c for c in range(1, 49) if c not in deck and c not in PILE_TOP]
    return deck + list(PILE_TOP) + rest


def new_tutorial_round() -> RoundState:
    return new_round(RULES, dealer=0, deck=stacked_deck())


class TutorialScene(LearnScene):
    """The guided round: a simplified board on the left, the guide on the right."""

    name = "tutorial"
    title_key = "ui.tutorial.title"

    def __init__(self, app: AppServices, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.state = new_tutorial_round()
        self.step = 0
        self.chosen = 0  # the hand card picked when it has two possible targets
        self.pressed = 0  # the card under the last press (a drag starts there)
        self.field_rects: list[tuple[pygame.Rect, int]] = []  # drawn this frame: (rect, card)
        self.hand_rects: list[tuple[pygame.Rect, int]] = []
        self.panel_buttons: list[Button] = []

    # ------------------------------------------------------------------ script
    @property
    def step_name(self) -> str:
        return SCRIPT[self.step][0]

    @property
    def expected(self) -> str | None:
        return SCRIPT[self.step][1]

    def expected_card(self) -> tuple[int, int]:
        """(card, target) of the player's expected play, (0, 0) when none."""
        act = self.expected
        if not act or not act.startswith("play "):
            return 0, 0
        body = act[5:]
        card, _, target = body.partition(">")
        return int(card), int(target or 0)

    def advance(self) -> None:
        if self.step >= len(SCRIPT) - 1:
            return
        self.step += 1
        self.chosen = 0
        self.message = ""
        act = self.expected
        if act and act.startswith("opp:"):
            self.state.apply(act[4:])
        self.build()

    def do(self, action: str) -> None:
        """Apply the player's (expected) action through the engine and move on."""
        self.state.apply(action)
        self.advance()

    def click_card(self, card: int) -> None:
        want, target = self.expected_card()
        if not want:
            return
        if self.chosen:
            if card == target:
                self.do(self.expected or "")
            elif card in self.state.field:
                self.message = gfx.tr("ui.tutorial.wrong_target")
            return
        if card != want:
            if card in self.state.hand(0):
                self.message = gfx.tr("ui.tutorial.wrong_card")
            return
        if target:
            self.chosen = card
            self.message = ""
        else:
            self.do(self.expected or "")

    def perform_expected(self) -> None:
        """Enter: do what the panel suggests."""
        act = self.expected
        if act is None or act.startswith("opp:"):
            self.advance()
        elif act == "stop":
            self.stop()
        else:
            self.do(act)

    def stop(self) -> None:
        if self.expected == "stop":
            self.do("stop")

    def koikoi(self) -> None:
        self.message = gfx.tr("ui.tutorial.koikoi_later")

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        super().build()
        panel = self.panel_rect()
        bh = self.px(42)
        y = panel.bottom - bh - self.px(16)
        x = panel.x + self.px(16)
        w = panel.w - self.px(32)
        act = self.expected
        buttons: list[Button] = []
        if self.step_name == "decide":
            half = (w - self.px(10)) // 2
            buttons.append(
                Button(
                    lambda: gfx.tr("ui.call.stop"),
                    self.stop,
                    pygame.Rect(x, y, half, bh),
                    primary=True,
                )
            )
            buttons.append(
                Button(
                    lambda: gfx.tr("ui.call.koikoi"),
                    self.koikoi,
                    pygame.Rect(x + half + self.px(10), y, half, bh),
                )
            )
        elif self.step_name == "done":
            buttons.append(
                Button(
                    lambda: gfx.tr("ui.tutorial.new_game"),
                    self.new_game,
                    pygame.Rect(x, y, w, bh),
                    primary=True,
                )
            )
        elif act is None or act.startswith("opp:"):
            buttons.append(
                Button(
                    lambda: gfx.tr("ui.common.continue"),
                    self.advance,
                    pygame.Rect(x, y, w, bh),
                    primary=True,
                )
            )
        self.panel_buttons = buttons
        self.focus.set([*buttons, *self.buttons])
        self.focus.index = 0

    def new_game(self) -> None:
        self.app.stack.pop()
        self.open("new-game")

    def on_key(self, intent: Intent) -> bool:
        if intent.kind == "confirm" and not self.focus.keyboard_used:
            self.perform_expected()
            return True
        return False

    # ------------------------------------------------------------------ layout
    def panel_rect(self) -> pygame.Rect:
        w = max(self.px(300), int(self.size[0] * 0.30))
        top = self.px(70)
        return pygame.Rect(self.size[0] - w - self.px(20), top, w, self.size[1] - top - self.px(20))

    def board_rect(self) -> pygame.Rect:
        panel = self.panel_rect()
        top = panel.y
        return pygame.Rect(self.px(20), top, panel.x - self.px(40), panel.h)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        self.draw_frame(surface)
        self.draw_board(surface)
        self.draw_panel(surface)
        self.draw_buttons(surface)

    def lit(self) -> set[int]:
        """The cards the guide points at now."""
        want, target = self.expected_card()
        if self.chosen:  # the field cards the engine lets the chosen card take
            st = self.state
            legal = [a for a in st.legal_actions() if a.card == self.chosen]
            return {target, *(c for a in legal for c in st.captures(a))}
        return {want} if want else set()

    def draw_board(self, surface: pygame.Surface) -> None:
        b = self.board_rect()
        st = self.state
        gap = self.px(8)
        label_f = self.font(14)
        hand_h = min(self.px(150), int((b.w - 7 * gap) / 8 / 0.625))
        small_h = self.px(64)
        field_h = min(self.px(120), hand_h)
        lit = self.lit()
        # opponent: hand backs and captured cards
        y = b.y
        gfx.blit_text(surface, gfx.tr("ui.common.opponent"), label_f, (b.x, y), color=theme.MUTED)
        y += self.px(20)
        sw = card_size(small_h)[0]
        for i in range(len(st.hand(1))):
            draw_card(
                surface,
                self.app,
                0,
                pygame.Rect(b.x + i * (sw // 2 + 2), y, sw, small_h),
                badge=False,
            )
        cx = b.x + 8 * (sw // 2 + 2) + sw + self.px(20)
        for i, c in enumerate(sorted(st.captured(1))):
            draw_card(surface, self.app, c, pygame.Rect(cx + i * (sw + 3), y, sw, small_h))
        y += small_h + self.px(16)
        # field and draw pile
        gfx.blit_text(surface, gfx.tr("term.field"), label_f, (b.x, y), color=theme.MUTED)
        y += self.px(20)
        fw, fh = card_size(field_h)
        pile = pygame.Rect(b.x, y + fh // 2, fw, fh)
        draw_card(surface, self.app, 0, pile, badge=False)
        field = sorted(st.field)
        field_rects: list[tuple[pygame.Rect, int]] = []
        self.field_rects = field_rects
        per_row = max(1, (b.w - fw - self.px(30)) // (fw + gap))
        for i, c in enumerate(field):
            r = pygame.Rect(
                pile.right + self.px(30) + (i % per_row) * (fw + gap),
                y + (i // per_row) * (fh + gap),
                fw,
                fh,
            )
            draw_card(surface, self.app, c, r, selected=c in lit)
            self.hit(r, self._click_cb(c))
            field_rects.append((r, c))
        y += 2 * fh + gap + self.px(16)
        # your captured cards
        gfx.blit_text(surface, gfx.tr("term.capture_pile"), label_f, (b.x, y), color=theme.MUTED)
        y += self.px(20)
        for i, c in enumerate(sorted(st.captured(0))):
            draw_card(surface, self.app, c, pygame.Rect(b.x + i * (sw + 3), y, sw, small_h))
        y += small_h + self.px(16)
        # your hand
        gfx.blit_text(surface, gfx.tr("term.hand"), label_f, (b.x, y), color=theme.MUTED)
        y += self.px(20)
        hw, hh = card_size(hand_h)
        hand_rects: list[tuple[pygame.Rect, int]] = []
        self.hand_rects = hand_rects
        y = min(y, b.bottom - hh)
        for i, c in enumerate(sorted(st.hand(0))):
            r = pygame.Rect(b.x + i * (hw + gap), y, hw, hh)
            if c == self.chosen:
                r.y -= self.px(14)
            draw_card(surface, self.app, c, r, selected=c in lit and not self.chosen)
            self.hit(r, self._click_cb(c))
            hand_rects.append((r, c))

    def _click_cb(self, card: int) -> Any:
        def click() -> None:
            self.click_card(card)
            self.pressed = card

        return click

    def on_pointer(self, intent: Intent) -> None:
        """A drag: the press on the hand card chose it (``click_card``); letting go over a field
        card takes that card, as a second click would — the way the game's table plays."""
        if intent.kind != "release":
            return
        pressed, self.pressed = self.pressed, 0
        if not pressed or not self.chosen:
            return
        for rect, card in self.field_rects:
            if rect.collidepoint(intent.pos) and card != pressed:
                self.click_card(card)
                return

    def draw_panel(self, surface: pygame.Surface) -> None:
        p = self.panel_rect()
        gfx.draw_panel(surface, p)
        x, w = p.x + self.px(16), p.w - self.px(32)
        y = p.y + self.px(14)
        y = paragraph(
            surface,
            gfx.tr("ui.tutorial.step", n=self.step + 1, total=len(SCRIPT)),
            self.font(14),
            x,
            y,
            w,
            color=theme.MUTED,
        )
        name = self.step_name
        if name == "p2" and self.chosen:
            name = "p2_choose"
        style = name_style(self.app)
        text = gfx.tr(f"ui.tutorial.{name}", yaku=i18n.yaku_name("hanami", style), n=self.points())
        y = paragraph(surface, text, self.font(17), x, y + self.px(6), w)
        if self.message:
            y = paragraph(
                surface,
                self.message,
                self.font(15),
                x,
                y + self.px(10),
                w,
                color=theme.OCHRE,
                bold=True,
            )
        yaku = self.state.yaku(0)
        if yaku:
            y += self.px(12)
            y = paragraph(
                surface,
                gfx.tr("ui.learn.label", label=gfx.tr("term.yaku")),
                self.font(15),
                x,
                y,
                w,
                bold=True,
            )
            for yk in yaku:
                line = gfx.tr(
                    "ui.learn.labelled", label=i18n.yaku_name(yk.key, style), value=yk.points
                )
                y = paragraph(surface, line, self.font(15), x, y, w, color=theme.TARGET)
        for b in self.panel_buttons:
            b.draw(
                surface,
                focused=self.focus.keyboard_used and self.focus.focused is b,
                font=self.font(17),
            )

    def points(self) -> int:
        out = self.state.outcome
        if out is not None:
            return int(getattr(out, "final", 0) or 0)
        return self.state.base(0)

    def draw_buttons(self, surface: pygame.Surface) -> None:
        """Header buttons only: the guide's buttons and message are drawn in its panel."""
        for b in self.buttons:
            b.draw(
                surface,
                focused=self.focus.keyboard_used and self.focus.focused is b,
                font=self.font(17),
            )
