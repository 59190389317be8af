"""The guided first round: the real table, a stacked deal, a scripted opponent and a guide.

``TutorialScene(app)`` *is* a :class:`~koikoi_desktop.scenes.table.scene.TableScene`: the same
controller, view, input (drag a card onto a lit card, click it then its target, or the
keyboard), the same lit targets (the engine's legal actions, through
``TableController.choice_for``), animations and prompts as a match. What makes it a lesson:

* the deal is stacked: ``MatchConfig.deal`` holds :func:`stacked_deck` (built with the engine's
  own deal positions), and the match is not recorded (``MatchConfig(recorded=False)``: no
  autosave, nothing in the ledger);
* the opponent seat is a :class:`ScriptedOpponent`: it plays the script's moves through the
  table's ordinary computer turn (the thinker, the pause, the animation);
* a :class:`Lesson` (no pygame) knows where the script is (:data:`SCRIPT`: a simple capture,
  the opponent laying a card, a two-way choice, a first yaku (Hanami), then Stop vs koi-koi);
  it vetoes any other move of the player with a short explanation (``TableController.veto``:
  shown like an illegal move's reason; nothing changes);
* the guide panel over the sidebar says what to do next and why, and an arrow points at the
  card (then the target) the step asks for. While the guide explains ("read" steps) the
  controller is asked to wait (``asking``): the opponent does not move until Continue.

Decisions: the scene subclasses the table and overrides only lifecycle points (update, handle,
draw, resume, run_cues, the prompt for a question, the side button), so the table modules only
gained hooks (``MatchConfig.recorded``, ``TableController.veto``, ``TableScene.question``).
After Stop the real round summary is shown; closing it ends the lesson (the next round is never
dealt). Koi-koi is explained but refused in this lesson (the prompt opens on Stop), so the
lesson always ends with its yaku scored. There is no pause menu: Esc (nothing held) or the side
button leaves the lesson; nothing of it is kept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, Literal

import pygame

from koikoi_desktop import i18n
from koikoi_desktop.ai.base import Opponent, Reason, personas
from koikoi_desktop.engine import PRESETS, Action, MatchContext, PlayerView
from koikoi_desktop.engine.round import deal_positions
from koikoi_desktop.names import SeatNames
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.learning import paragraph
from koikoi_desktop.scenes.table.controller import Ask, MatchConfig
from koikoi_desktop.scenes.table.prompts import PromptScene
from koikoi_desktop.scenes.table.scene import TableScene, default_names
from koikoi_desktop.scenes.table.text import stop_word
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button

RULES = PRESETS["nintendo"]
PLAYER_HAND = (9, 33, 2, 18, 27, 39, 42, 47)
OPPONENT_HAND = (5, 13, 17, 21, 25, 37, 43, 48)
FIELD = (1, 3, 11, 31, 35, 14, 46, 22)
PILE_TOP = (30, 40, 7, 44, 15)

StepKind = Literal["read", "play", "watch", "decide", "done"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the lesson: ``key`` names its text (``ui.tutorial.<key>``); ``kind``:
    *read* (the guide explains; Continue), *play* (the player makes ``action``), *watch* (the
    opponent plays ``action``), *decide* (Stop or koi-koi; ``action`` is the advised answer),
    *done*."""

    key: str
    kind: StepKind
    action: str = ""


SCRIPT: tuple[Step, ...] = (
    Step("intro", "read"),
    Step("p1", "play", "play 9"),
    Step("after_p1", "read"),
    Step("watch", "watch", "play 5"),
    Step("o1", "read"),
    Step("p2", "play", "play 2>1"),
    Step("after_p2", "read"),
    Step("watch", "watch", "play 21"),
    Step("o2", "read"),
    Step("p3", "play", "play 33"),
    Step("decide", "decide", "stop"),
    Step("done", "done"),
)


def stacked_deck() -> tuple[int, ...]:
    """The 48-card order that deals the hands, field and pile above (dealer = player 0)."""
    hands = {"d": list(PLAYER_HAND), "nd": list(OPPONENT_HAND), "f": list(FIELD)}
    deck = [hands[dest].pop(0) for dest, _ in deal_positions(RULES)]
    rest = [c for c in range(1, 49) if c not in deck and c not in PILE_TOP]
    return (*deck, *PILE_TOP, *rest)


class ScriptedOpponent(Opponent):
    """The lesson's opponent: plays the script's watch moves, each when it is legal (an error
    if the script has no move for the position: the lesson would be broken)."""

    level: ClassVar[str] = "script"

    def __init__(self, script: tuple[Step, ...] = SCRIPT) -> None:
        super().__init__(personas("beginner")[0])
        self.moves = [Action.from_text(s.action) for s in script if s.kind == "watch"]

    def decide(
        self, view: PlayerView, context: MatchContext | None, rng: random.Random
    ) -> tuple[Action, Reason]:
        for a in self.moves:
            if a in view.legal:
                return a, Reason("only_move")  # the script leaves it no other move
        raise RuntimeError(f"the lesson's script has no move for the opponent in {view.legal}")


class Lesson:
    """Where the guided round is in :data:`SCRIPT`, and what the player may do there (no
    pygame: the scene tells it what happened on the table)."""

    def __init__(self, script: tuple[Step, ...] = SCRIPT) -> None:
        self.script = script
        self.index = 0
        #: The round's number of moves when this step began (a move made ends a play step).
        self.mark = 0

    @property
    def step(self) -> Step:
        return self.script[self.index]

    @property
    def expected(self) -> Action | None:
        """The player's move this step asks for (None: none)."""
        s = self.step
        return Action.from_text(s.action) if s.kind in ("play", "decide") else None

    def advance(self, moves: int) -> None:
        """On to the next step (``moves``: the round's moves so far)."""
        self.index = min(self.index + 1, len(self.script) - 1)
        self.mark = moves

    def finish(self) -> None:
        self.index = len(self.script) - 1

    def follow(self, moves: int, *, my_turn_idle: bool) -> bool:
        """The table moved on: a play step ends with the player's move; a watch step once the
        opponent has moved and the table is the player's again (``my_turn_idle``). True when
        the step changed."""
        kind = self.step.kind
        if (kind == "play" and moves > self.mark) or (
            kind == "watch" and moves > self.mark and my_turn_idle
        ):
            self.advance(moves)
            return True
        return False

    def veto(self, action: Action) -> str:
        """Why ``action`` is not this lesson's move ("" when it is; the engine judges the
        rest)."""
        want = self.expected
        if want is None or action == want:
            return ""
        if want.kind == "stop":
            return i18n.t("ui.tutorial.koikoi_later", stop=stop_word(RULES))
        if action.kind not in ("play", "discard"):
            return ""
        if action.card == want.card:
            return i18n.t("ui.tutorial.wrong_target")
        return i18n.t("ui.tutorial.wrong_card")


class TutorialScene(TableScene):
    """The guided round on the real table (see the module docstring)."""

    name = "tutorial"

    def __init__(self, app: AppServices) -> None:
        self.lesson = Lesson()
        self.guide_buttons: list[Button] = []
        self.guide_rect = pygame.Rect(0, 0, 0, 0)
        self.points = 0
        seats = ("human", "beginner")
        config = MatchConfig(
            rules=RULES,
            seats=seats,
            seed=0,
            names=SeatNames(
                seats, default_names(app, seats).typed, keys=("", "ui.common.opponent")
            ),
            deal=(0, (stacked_deck(),)),
            recorded=False,
            title=lambda: gfx.tr("ui.tutorial.title"),
        )
        super().__init__(app, config=config)
        self.controller.opponents[1] = ScriptedOpponent()
        self.controller.veto = self.lesson.veto

    # ------------------------------------------------------------------ the lesson
    def enter(self) -> None:
        super().enter()
        self.sync()

    def sync(self) -> None:
        """Hold the table while the guide explains; rebuild the guide's buttons."""
        kind = self.lesson.step.kind
        if kind in ("read", "play", "watch"):
            self.controller.asking = kind == "read"
        self.build_guide()

    def proceed(self) -> None:
        """Continue (a read step)."""
        if self.lesson.step.kind != "read":
            return
        self.lesson.advance(len(self.controller.state.moves))
        self.controller.message = ""
        self.sync()

    def leave(self) -> None:
        if self.app.stack.top is self:
            self.app.stack.pop()

    def new_game(self) -> None:
        self.app.stack.replace(self.app.screens.new_game())

    def update(self, dt: float) -> None:
        super().update(dt)
        c = self.controller
        if c.match is None or c.stage != "play":
            return
        idle = c.my_turn() and c.hold == "idle"
        if self.lesson.follow(len(c.state.moves), my_turn_idle=idle):
            self.sync()

    def resume(self) -> None:
        if self.waiting_summary:  # the round summary was closed: the lesson is over
            self.waiting_summary = False
            c = self.controller
            m = c.played()
            entry = m.ledger[0]
            self.points = entry.final if entry.winner == c.viewer else 0
            if c.display is not None:  # the finished round stays on show, with its result
                c.display = (c.display[0], c.display[1], m.balances)
            self.lesson.finish()
            self.sync()
        super().resume()

    def question(self, cue: Ask) -> PromptScene:
        """The real prompt, with the guide's advice (or why koi-koi was refused) under it."""
        prompt = super().question(cue)
        if cue.question == "decide":
            hint = gfx.tr("ui.tutorial.stop_hint", stop=stop_word(RULES))
            prompt.lines.append(self.controller.message or hint)
        return prompt

    def run_cues(self) -> None:
        """As the table does; a koi-koi prompt it opened starts on Stop, the guide's advice (so
        Enter takes the sure points)."""
        super().run_cues()
        top = self.app.stack.top
        if isinstance(top, PromptScene) and top.table is self and top.key[-1] == "decide":
            top.focus.index = 0  # Stop comes first

    def open_pause(self) -> None:
        """Esc (nothing held) or the side button: the lesson has no pause menu; leave it."""
        self.leave()

    # ------------------------------------------------------------------ layout
    def build_buttons(self) -> None:
        """One side button, "Leave the lesson", where the table has Menu."""
        super().build_buttons()
        rect = self.buttons[0].rect
        self.buttons = [Button(lambda: gfx.tr("ui.tutorial.leave"), self.leave, rect)]
        self.undo_button = None
        self.build_guide()

    def build_guide(self) -> None:
        """The guide panel over the sidebar (above the side button) and its buttons."""
        lay = self.lay
        side = lay.sidebar
        m = round(8 * lay.scale)
        bottom = self.buttons[0].rect.top if self.buttons else side.bottom
        self.guide_rect = pygame.Rect(
            side.x + m, side.y + m, side.w - 2 * m, bottom - side.y - 2 * m
        )
        g = self.guide_rect
        h = round(42 * lay.scale)
        rect = pygame.Rect(g.x + m * 2, g.bottom - h - m * 2, g.w - m * 4, h)
        kind = self.lesson.step.kind
        if kind == "read":
            self.guide_buttons = [
                Button(lambda: gfx.tr("ui.common.continue"), self.proceed, rect, primary=True)
            ]
        elif kind == "done":
            self.guide_buttons = [
                Button(lambda: gfx.tr("ui.tutorial.new_game"), self.new_game, rect, primary=True)
            ]
        else:
            self.guide_buttons = []

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        if intent.kind in (IntentKind.PRESS, IntentKind.RELEASE, IntentKind.MOVE):
            for b in self.guide_buttons:
                if b.handle(intent):
                    return
        kind = self.lesson.step.kind
        if intent.kind == IntentKind.CONFIRM and kind in ("read", "done") and self.guide_buttons:
            self.guide_buttons[0].activate()
            return
        if intent.kind == IntentKind.PRESS and kind == "read" and self.card_at(intent.pos):
            self.controller.say(gfx.tr("ui.tutorial.not_yet"))  # a card pressed mid-explanation
            return
        super().handle(intent)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.controller.match is None:
            return
        self.draw_guide(surface)
        self.draw_pointer(surface)

    def guide_text(self) -> str:
        step = self.lesson.step
        c = self.controller
        key = step.key
        if key == "p2" and c.lifted is not None and c.lifted.card == 2:
            key = "p2_choose"
        n = self.points
        if step.kind == "decide" and c.state.phase == "decide":
            n = c.view().koikoi_odds().payout
        return gfx.tr(
            f"ui.tutorial.{key}", yaku=i18n.yaku_name("hanami"), n=n, stop=stop_word(RULES)
        )

    def draw_guide(self, surface: pygame.Surface) -> None:
        """The guide panel: the step, what to do and why, a refusal's reason, the keys."""
        gfx.draw_panel(surface, self.guide_rect, edge=theme.OCHRE, alpha=255)  # hides the sidebar
        self.guide_lines(surface, self.guide_size()[0])
        for b in self.guide_buttons:
            b.draw(surface, font=theme.font_px(17, self.lay.scale))

    def guide_bottom(self) -> int:
        """The lowest y the guide's text may reach (above its button)."""
        g = self.guide_rect
        pad = round(12 * self.lay.scale)
        return (self.guide_buttons[0].rect.top if self.guide_buttons else g.bottom) - pad

    def guide_size(self) -> tuple[int, bool]:
        """The largest type size at which the guide's text fits its panel, and whether it fits
        (at the smallest size it is drawn anyway)."""
        sizes = (18, 17, 16, 15, 14, 13, 12, 11)
        for size in sizes:
            if self.guide_lines(None, size) <= self.guide_bottom():
                return size, True
        return sizes[-1], False

    def guide_lines(self, surface: pygame.Surface | None, size: int) -> int:
        """Lay out (draw, with a surface) the guide's text at type ``size``; returns the y
        below it."""
        g = self.guide_rect
        s = self.lay.scale
        pad = round(12 * s)
        x, w = g.x + pad, g.w - 2 * pad
        fs, small = theme.font_px(size, s), theme.font_px(size - 2, s)
        head = gfx.tr("ui.tutorial.title")
        step = gfx.tr("ui.tutorial.step", n=self.lesson.index + 1, total=len(self.lesson.script))
        y = paragraph(surface, head, fs, x, g.y + pad, w, bold=True, color=theme.OCHRE)
        y = paragraph(surface, step, small, x, y, w, color=theme.MUTED)
        y = paragraph(surface, self.guide_text(), fs, x, y + pad // 2, w)
        why = self.controller.message
        if why:
            y = paragraph(surface, why, fs, x, y + pad // 2, w, bold=True, color=theme.DANGER)
        if self.lesson.step.kind == "play":
            keys = gfx.tr("ui.tutorial.keys")
            y = paragraph(surface, keys, small, x, y + pad // 2, w, color=theme.MUTED)
        return y

    def pointed(self) -> int:
        """The card the guide's arrow points at: the card to play, then (once it is picked up)
        the target to choose when the step names one; 0 for none."""
        want = self.lesson.expected
        c = self.controller
        if want is None or want.kind != "play" or not c.my_turn():
            return 0
        if c.lifted is not None and c.lifted.card == want.card:
            return want.target or 0
        return want.card

    def draw_pointer(self, surface: pygame.Surface) -> None:
        """A thick ochre arrow above the card the guide means (unlike the table's marks: the
        last move's small triangle, the targets' brackets, the keyboard's bar)."""
        card = self.pointed()
        sp = self.director.sprites.get(card) if card else None
        if sp is None:
            return
        x, y, w, _ = sp.box
        c = self.controller
        if c.lifted is not None and c.lifted.card == card and c.drag is None:
            y -= self.lay.lift
        s = self.lay.scale
        cx, tip = round(x + w / 2), round(y) - round(4 * s)
        head, half, stem = round(18 * s), round(15 * s), round(16 * s)
        points = [
            (cx, tip),
            (cx - half, tip - head),
            (cx - half // 3, tip - head),
            (cx - half // 3, tip - head - stem),
            (cx + half // 3, tip - head - stem),
            (cx + half // 3, tip - head),
            (cx + half, tip - head),
        ]
        pygame.draw.polygon(surface, theme.OCHRE, points)
        pygame.draw.polygon(surface, theme.INK, points, width=2)
