"""The guided first round: the real table, a stacked deal, a scripted opponent and a guide.

``app.router.build(screens.Tutorial())`` is a
:class:`~koikoi_desktop.scenes.table.scene.TableScene` built with
:func:`lesson_config` and a :class:`LessonGuide` (the table's ``Guide``): the same
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

Decisions: the lesson is a part the table holds, not a subclass of the table: the table
consults its guide at named points (the veto, each update, a question's prompt, the closed
summary, Esc, input first, drawing last; see ``scenes.table.scene.Guide``), and the table
modules know nothing else of lessons (``MatchConfig.recorded``, ``TableController.veto``).
After Stop the real round summary is shown; closing it ends the lesson (the next round is never
dealt). Koi-koi is explained but refused in this lesson (the prompt opens on Stop), so the
lesson always ends with its yaku scored. There is no pause menu: Esc (nothing held) or the side
button leaves the lesson; nothing of it is kept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

import pygame

from koikoi_desktop.ai.base import Opponent, Reason, ReasonKey, personas
from koikoi_desktop.engine import PRESETS, Action, MatchContext, PlayerView
from koikoi_desktop.engine.round import deal_positions
from koikoi_desktop.i18n import Key, Label, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.learning import paragraph
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.controller import Ask
from koikoi_desktop.scenes.table.prompts import PromptScene
from koikoi_desktop.scenes.table.scene import default_names
from koikoi_desktop.scenes.table.text import stop_word
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button
from koikoi_desktop.words.names import SeatNames

if TYPE_CHECKING:
    from koikoi_desktop.scenes.table.scene import TableScene

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
                return a, Reason(ReasonKey.ONLY_MOVE)  # the script leaves it no other move
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

    def veto(self, action: Action) -> Label:
        """Why ``action`` is not this lesson's move, worded when shown ("" when it is; the
        engine judges the rest)."""
        want = self.expected
        if want is None or action == want:
            return ""
        if want.kind == "stop":
            return lambda w: w.t("ui.tutorial.koikoi_later", stop=stop_word(w, RULES))
        if action.kind not in ("play", "discard"):
            return ""
        if action.card == want.card:
            return Key("ui.tutorial.wrong_target")
        return Key("ui.tutorial.wrong_card")


def lesson_config(app: AppServices) -> MatchConfig:
    """The guided round's match: the player against the script, the stacked deal, not
    recorded, the lesson's title in the header."""
    seats = ("human", "beginner")
    return MatchConfig(
        rules=RULES,
        seats=seats,
        seed=0,
        names=SeatNames(seats, default_names(app, seats).typed, keys=("", "ui.common.opponent")),
        deal=(0, (stacked_deck(),)),
        recorded=False,
        title=Key("ui.tutorial.title"),
    )


class LessonGuide:
    """The guided round's :class:`~koikoi_desktop.scenes.table.scene.Guide`: the lesson's
    place in the script, its scripted opponent, the guide panel over the sidebar and the arrow
    (see the module docstring). The table hands itself to each hook."""

    #: The side button: the lesson has no pause menu, it is left.
    menu_key = "ui.tutorial.leave"

    def __init__(self, script: tuple[Step, ...] = SCRIPT) -> None:
        self.lesson = Lesson(script)
        self.opponents: dict[int, Opponent] = {1: ScriptedOpponent(script)}
        #: The panel's button (Continue, or New game at the end), laid out with the panel.
        self.buttons: list[Button] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        #: The points the lesson's round paid the player (known once its summary is closed).
        self.points = 0

    # ------------------------------------------------------------------ the lesson
    def veto(self, action: Action) -> Label:
        return self.lesson.veto(action)

    def start(self, table: TableScene) -> None:
        self.sync(table)

    def sync(self, table: TableScene) -> None:
        """Hold the table while the guide explains; rebuild the guide's buttons."""
        kind = self.lesson.step.kind
        if kind in ("read", "play", "watch"):
            table.controller.asking = kind == "read"
        self.layout(table)

    def proceed(self, table: TableScene) -> None:
        """Continue (a read step)."""
        if self.lesson.step.kind != "read":
            return
        self.lesson.advance(len(table.controller.state.moves))
        table.controller.message = ""
        self.sync(table)

    def leave(self, table: TableScene) -> None:
        if table.app.stack.top is table:
            table.app.stack.pop()

    def new_game(self, table: TableScene) -> None:
        table.app.stack.replace(table.app.router.build(screens.NewGame()))

    def follow(self, table: TableScene) -> None:
        c = table.controller
        if c.match is None or c.stage != "play":
            return
        idle = c.my_turn() and c.hold == "idle"
        if self.lesson.follow(len(c.state.moves), my_turn_idle=idle):
            self.sync(table)

    def round_closed(self, table: TableScene) -> bool:
        """The round summary was closed: the lesson is over (the next round is never dealt)."""
        c = table.controller
        m = c.played()
        entry = m.ledger[0]
        self.points = entry.final if entry.winner == c.viewer else 0
        if c.display is not None:  # the finished round stays on show, with its result
            c.display = (c.display[0], c.display[1], m.balances)
        self.lesson.finish()
        self.sync(table)
        return True

    def advise(self, table: TableScene, cue: Ask, prompt: PromptScene) -> None:
        """The guide's advice (or why koi-koi was refused) under the koi-koi question; the
        prompt opens on Stop, as every koi-koi prompt does (Enter takes the sure points)."""
        words = table.app.words
        if cue.question == "decide":
            hint = words.t("ui.tutorial.stop_hint", stop=stop_word(words, RULES))
            prompt.lines.append(say(table.controller.message, words) or hint)

    def pause(self, table: TableScene) -> bool:
        """Esc (nothing held) or the side button: the lesson has no pause menu; leave it."""
        self.leave(table)
        return True

    # ------------------------------------------------------------------ layout
    def layout(self, table: TableScene) -> None:
        """The guide panel over the sidebar (above the side button) and its buttons."""
        lay = table.lay
        side = lay.sidebar
        m = round(8 * lay.scale)
        bottom = table.buttons[0].rect.top if table.buttons else side.bottom
        self.rect = pygame.Rect(side.x + m, side.y + m, side.w - 2 * m, bottom - side.y - 2 * m)
        g = self.rect
        h = round(42 * lay.scale)
        rect = pygame.Rect(g.x + m * 2, g.bottom - h - m * 2, g.w - m * 4, h)
        kind = self.lesson.step.kind
        if kind == "read":
            self.buttons = [
                Button(
                    Key("ui.common.continue"),
                    lambda: self.proceed(table),
                    rect,
                    primary=True,
                )
            ]
        elif kind == "done":
            self.buttons = [
                Button(
                    Key("ui.tutorial.new_game"),
                    lambda: self.new_game(table),
                    rect,
                    primary=True,
                )
            ]
        else:
            self.buttons = []

    # ------------------------------------------------------------------ input
    def handle(self, table: TableScene, intent: Intent) -> bool:
        """The panel's button; Enter continues (or starts a new game at the end); a card
        pressed while the guide explains is not played ("not yet")."""
        if intent.kind in (IntentKind.PRESS, IntentKind.RELEASE, IntentKind.MOVE):
            for b in self.buttons:
                if b.handle(intent):
                    return True
        kind = self.lesson.step.kind
        if intent.kind == IntentKind.CONFIRM and kind in ("read", "done") and self.buttons:
            self.buttons[0].activate()
            return True
        if intent.kind == IntentKind.PRESS and kind == "read" and table.card_at(intent.pos):
            table.controller.say(Key("ui.tutorial.not_yet"))  # a card pressed mid-explanation
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw(self, table: TableScene, surface: pygame.Surface) -> None:
        self.draw_panel(table, surface)
        self.draw_pointer(table, surface)

    def text(self, table: TableScene) -> str:
        """What the guide says at this step (in the language of the moment)."""
        words = table.app.words
        step = self.lesson.step
        c = table.controller
        key = step.key
        if key == "p2" and c.lifted is not None and c.lifted.card == 2:
            key = "p2_choose"
        n = self.points
        if step.kind == "decide" and c.state.phase == "decide":
            n = c.view().koikoi_odds().payout
        return words.t(
            f"ui.tutorial.{key}", yaku=words.yaku_name("hanami"), n=n, stop=stop_word(words, RULES)
        )

    def draw_panel(self, table: TableScene, surface: pygame.Surface) -> None:
        """The guide panel: the step, what to do and why, a refusal's reason, the keys."""
        gfx.draw_panel(surface, self.rect, edge=theme.OCHRE, alpha=255)  # hides the sidebar
        self.lines(table, surface, self.text_size(table)[0])
        for b in self.buttons:
            b.draw(surface, table.app.words, font=theme.font_px(17, table.lay.scale))

    def text_bottom(self, table: TableScene) -> int:
        """The lowest y the guide's text may reach (above its button)."""
        g = self.rect
        pad = round(12 * table.lay.scale)
        return (self.buttons[0].rect.top if self.buttons else g.bottom) - pad

    def text_size(self, table: TableScene) -> tuple[int, bool]:
        """The largest type size at which the guide's text fits its panel, and whether it fits
        (at the smallest size it is drawn anyway)."""
        sizes = (18, 17, 16, 15, 14, 13, 12, 11)
        for size in sizes:
            if self.lines(table, None, size) <= self.text_bottom(table):
                return size, True
        return sizes[-1], False

    def lines(self, table: TableScene, surface: pygame.Surface | None, size: int) -> int:
        """Lay out (draw, with a surface) the guide's text at type ``size``; returns the y
        below it."""
        words = table.app.words
        g = self.rect
        s = table.lay.scale
        pad = round(12 * s)
        x, w = g.x + pad, g.w - 2 * pad
        fs, small = theme.font_px(size, s), theme.font_px(size - 2, s)
        head = words.t("ui.tutorial.title")
        step = words.t("ui.tutorial.step", n=self.lesson.index + 1, total=len(self.lesson.script))
        y = paragraph(surface, head, fs, x, g.y + pad, w, bold=True, color=theme.OCHRE)
        y = paragraph(surface, step, small, x, y, w, color=theme.MUTED)
        y = paragraph(surface, self.text(table), fs, x, y + pad // 2, w)
        why = say(table.controller.message, words)
        if why:
            y = paragraph(surface, why, fs, x, y + pad // 2, w, bold=True, color=theme.DANGER)
        if self.lesson.step.kind == "play":
            keys = words.t("ui.tutorial.keys")
            y = paragraph(surface, keys, small, x, y + pad // 2, w, color=theme.MUTED)
        return y

    def pointed(self, table: TableScene) -> int:
        """The card the guide's arrow points at: the card to play, then (once it is picked up)
        the target to choose when the step names one; 0 for none."""
        want = self.lesson.expected
        c = table.controller
        if want is None or want.kind != "play" or not c.my_turn():
            return 0
        if c.lifted is not None and c.lifted.card == want.card:
            return want.target or 0
        return want.card

    def draw_pointer(self, table: TableScene, surface: pygame.Surface) -> None:
        """A thick ochre arrow above the card the guide means (unlike the table's marks: the
        last move's small triangle, the targets' brackets, the keyboard's bar)."""
        card = self.pointed(table)
        sp = table.director.sprites.get(card) if card else None
        if sp is None:
            return
        x, y, w, _ = sp.box
        c = table.controller
        if c.lifted is not None and c.lifted.card == card and c.grip == "none":
            y -= table.lay.lift
        s = table.lay.scale
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
