"""The table scene: a whole match on screen, in three parts that do not know each other's
insides.

* :class:`~.controller.TableController` (no pygame) holds the match, the seats, the
  card the player holds, the computer's turns, undo and hints, and feeds the recorder. It says
  what must be shown next through *cues*.
* :class:`~.view.TableView` draws a frame: the controller's snapshot (built from the
  viewer's PlayerView), the sprites, the layout. It reads no input and changes nothing.
* :class:`~.gesture.Gesture` (no pygame) owns what the pointer does: press, drag, hover, long
  press, the thresholds; it turns pointer intents and the layout's hit-test answers into typed
  commands for the controller.
* This scene is the router: it hands pointer intents to the gesture with the hit-test answers
  (:meth:`TableScene.hit`), the gesture's commands to the controller, the held position to the
  :class:`~koikoi_desktop.ui.board.Director` (which alone moves sprites), carries out the cues
  (animations through the Director, prompts pushed as overlay scenes, the round summary, the
  match result) and owns the layout, the side buttons and the one animation clock.

Input: drag a hand card (or the drawn card) onto a lit card; click a card then a target
(click-click; with the setting "click to move" on, only that: a card never follows the
pointer); or keyboard: left/right pick a card, Enter lifts it, left/right pick a target (or
the open field), Enter plays, Esc puts it back (Esc with nothing lifted opens the pause menu).
While cards move, a click or a key finishes the animation. Right-click or M opens the month
reference at a card; H suggests and U takes back a move in practice mode.

A lesson rides on the table as a :class:`Guide` the scene holds (the guided first round:
``scenes/tutorial.py``, built by ``app.router.build(screens.Tutorial())``). The scene
consults it at named points — a move the person makes (its veto), the table moving on, a
question asked, the round summary closed, Esc, input first, drawing last — and is otherwise the
table of any match.

Decision: composition, not a subclass of the table. The guide is handed the table when it is
consulted and keeps no hold on it; what it may change of the table is named in the protocol:
the controller's ``asking`` (the table waits while the guide explains), a line said
(``controller.say``), the finished round left on show; the lesson's own state is its own.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

import pygame

from koikoi_desktop import engine
from koikoi_desktop.ai import Thinker
from koikoi_desktop.i18n import Label, Words, say
from koikoi_desktop.review.coach import Coach
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.defaults import default_opponent, default_preset
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.match_result import MatchResultScene
from koikoi_desktop.scenes.pause import PauseScene
from koikoi_desktop.scenes.round_summary import RoundSummaryScene
from koikoi_desktop.scenes.table.controller import (
    Animate,
    Ask,
    Curtain,
    Deal,
    Rest,
    ShowFirstDealer,
    ShowResult,
    ShowSummary,
    TableController,
)
from koikoi_desktop.scenes.table.gesture import (
    HOVER_DELAY,
    LONG_PRESS,
    Command,
    Drop,
    Gesture,
    Hit,
    PutBack,
    Table,
)
from koikoi_desktop.scenes.table.prompts import (
    PromptScene,
    curtain_prompt,
    first_dealer_prompt,
    question_prompt,
    quit_prompt,
)
from koikoi_desktop.scenes.table.text import EventLine, logs
from koikoi_desktop.scenes.table.view import TableFrame, TableView, idle_turn
from koikoi_desktop.ui import gfx, sound_cues, theme
from koikoi_desktop.ui import layout as layout_mod
from koikoi_desktop.ui.animation import AnimationClock, AnimationQueue
from koikoi_desktop.ui.board import Director
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button
from koikoi_desktop.words.names import SeatNames

if TYPE_CHECKING:
    from koikoi_desktop.ai.base import Opponent

__all__ = ["HOVER_DELAY", "LONG_PRESS", "TableScene"]


def default_names(app: AppServices, seats: tuple[str, str]) -> SeatNames:
    """The seats' names as facts: the player's name from the settings (typed, shown as
    typed), else the seat's default ("You", "Computer (Level)", "Player 1/2"), rendered in the
    language of the moment."""
    humans = [p for p in (0, 1) if seats[p] == "human"]
    typed = ["", ""]
    if len(humans) == 1:
        typed[humans[0]] = app.settings.player_name
    return SeatNames(seats, (typed[0], typed[1]))


def match_names(app: AppServices, config: MatchConfig) -> SeatNames:
    """The names of ``config``'s match: its own (facts, or typed names) or the defaults."""
    given = config.names
    if isinstance(given, SeatNames):
        return given
    if given is None:
        return default_names(app, config.seats)
    return SeatNames(config.seats, (given[0], given[1]))


#: A key named at the end of a label: "Menu (Esc)", "一手戻す（U）".
KEY_HINT = re.compile(r"\s*[(（][^()（）]{1,5}[)）]$")


def button_label(words: Words, key: str, hints: bool) -> str:
    """A side button's label in ``words``, with its key ("Menu (Esc)") or, where
    there is no room for it, without ("Menu")."""
    text = words.t(key)
    return text if hints else KEY_HINT.sub("", text)


class Guide(Protocol):
    """A lesson on the table: what the table asks of it, and when (see the module docstring).

    Every hook but :meth:`veto` is handed the table; :meth:`draw` only draws."""

    @property
    def opponents(self) -> Mapping[int, Opponent]:
        """Seats the guide plays itself (a scripted opponent), in place of the config's
        computer."""
        ...

    @property
    def menu_key(self) -> str:
        """The side button's label (a catalog key), in place of Menu."""
        ...

    def veto(self, action: engine.Action) -> Label:
        """Why a person's ``action`` is not the lesson's move, worded when shown ("" lets the
        engine judge it)."""
        ...

    def start(self, table: TableScene) -> None:
        """The table has dealt (entered)."""
        ...

    def follow(self, table: TableScene) -> None:
        """After each update: the table may have moved on."""
        ...

    def round_closed(self, table: TableScene) -> bool:
        """The round summary was closed. True: the lesson ends here (no next round is dealt)."""
        ...

    def advise(self, table: TableScene, cue: Ask, prompt: PromptScene) -> None:
        """Add the guide's advice to the prompt asking ``cue``'s question (before it opens)."""
        ...

    def pause(self, table: TableScene) -> bool:
        """Esc (nothing held) or the side button. True: the guide answered it (no pause
        menu)."""
        ...

    def layout(self, table: TableScene) -> None:
        """The table's buttons were laid out (a new size or language): lay out the guide."""
        ...

    def handle(self, table: TableScene, intent: Intent) -> bool:
        """First look at each intent. True: the guide took it (the table does not see it)."""
        ...

    def draw(self, table: TableScene, surface: pygame.Surface) -> None:
        """Over the drawn table; reads, changes nothing."""
        ...


class TableScene(Scene):
    """One match on the table (see the module docstring); with a ``guide``, a lesson on it
    (``name`` is then the lesson's screen name)."""

    name = "table"

    def __init__(
        self,
        app: AppServices,
        screen: screens.Table = screens.Table(),
        *,
        guide: Guide | None = None,
        name: str = "table",
    ) -> None:
        super().__init__(app)
        self.name = name
        self.guide = guide
        self.autoplay = screen.autoplay or app.autoplay
        fast_forward = self.fast_forward = screen.fast_forward
        autosave = self.autosave_data = screen.autosave
        config = screen.config
        if autosave is not None:
            m = autosave.match
            config = MatchConfig(m.rules, autosave.seats, m.seed, autosave.practice, autosave.names)
        elif config is None:
            rules = engine.PRESETS[screen.preset or default_preset(app.settings)]
            seats = (
                ("intermediate", "intermediate")
                if self.autoplay or fast_forward
                else ("human", default_opponent(app.settings))
            )
            config = MatchConfig(rules=rules, seats=seats, seed=screen.seed)
        self.size: tuple[int, int] = (int(app.size[0]), int(app.size[1]))
        self.lay = layout_mod.compute(self.size, app.ui_scale)
        self.queue = AnimationQueue(app.anim_speed, reduced=app.reduced_motion)
        self.clock = AnimationClock()
        self.controller = TableController(
            config,
            names=match_names(app, config),
            thinker=Thinker(app.ai_executor),
            storage=app.storage,
            warnings=app.warnings,
            record_computer=app.record_autoplay,
            speed=app.anim_speed,
            birth_date=app.settings.birth_date,
            is_animating=lambda: self.queue.busy,
            coach=Coach(app.ai_executor, worlds=app.coach_worlds),
            coach_on=lambda: app.settings.coach,
        )
        c = self.controller
        self.director = Director(self.queue, lambda: self.lay, lambda: c.viewer)
        self.director.describe = lambda ev: (
            EventLine(ev, c.seat_names, c.rules) if logs(ev) else None
        )
        self.director.yaku_cards = c.yaku_cards
        self.director.staged = self.staged
        self.director.on_log = c.logged
        self.director.on_show = sound_cues.table_listener(app.cues, lambda: c.config.seats)
        if guide is not None:
            c.opponents.update(guide.opponents)
            c.veto = guide.veto
        self.clock.on_tick(self.director.update)
        self.clock.on_tick(c.tick)
        self.view = TableView(app)
        self.buttons: list[Button] = []
        self.undo_button: Button | None = None
        #: The words the buttons were measured in (a new language measures them again).
        self.buttons_words: Words | None = None
        #: The pointer's gesture: press, drag, hover, long press and their thresholds.
        self.gesture = Gesture()
        #: How many entries the move log is scrolled back from the newest (0: follows it).
        self.log_back = 0
        self.waiting_summary = False
        self.build_buttons()

    def staged(self, seat: int) -> bool:
        """A computer's move is staged (card shown, resting on its target, the draw turned
        over) at "normal" speed without reduced motion; "fast", "off" and reduced motion keep
        it quick."""
        return (
            seat in self.controller.opponents
            and self.queue.speed == "normal"
            and not self.queue.reduced
        )

    # ------------------------------------------------------------------ reading
    @property
    def match(self) -> engine.Match | None:
        return self.controller.match

    @property
    def rules(self) -> engine.Rules:
        """The rules of the match on the table (the learning screens explain these)."""
        return self.controller.rules

    @property
    def prompt(self) -> PromptScene | None:
        """The question open over this table (the topmost prompt scene above it), if any."""
        stack = self.app.stack.scenes
        if self not in stack:
            return None
        for sc in reversed(stack[stack.index(self) + 1 :]):
            if isinstance(sc, PromptScene) and sc.table is self:
                return sc
        return None

    # ------------------------------------------------------------------ lifecycle
    def prewarm(self) -> None:
        """Rasterise the deck at the two table sizes now, so no frame stalls mid-deal."""
        sprites = self.app.sprites
        if sprites is not None:
            for size in (self.lay.card, self.lay.small):
                sprites.prewarm(size)

    def enter(self) -> None:
        self.prewarm()
        c = self.controller
        if self.autosave_data is not None:
            c.restore(self.autosave_data)
        else:
            c.start()
            if self.fast_forward is not None:
                c.cues.clear()  # the first dealer is not shown: straight to the end screens
                c.fast_forward(self.fast_forward)
        self.build_buttons()
        self.run_cues()
        if self.guide is not None:
            self.guide.start(self)

    def exit(self) -> None:
        self.controller.close()

    def relabel(self) -> None:
        """After a language change (back from the settings): the buttons are measured again
        for the new labels — here, where the table takes the change; drawing only draws."""
        if self.buttons_words != self.app.words:
            self.build_buttons()

    def pause(self) -> None:
        """Another screen covers the table (the month reference, the pause menu, a question):
        the enlarged card goes and hovering starts again when the pointer next moves here
        (issue 46: it stayed, drawn through the pause menu and back after the reference's Back
        until the pointer moved)."""
        self.obey(self.gesture.cover(self.facts()))

    def resume(self) -> None:
        self.relabel()
        if self.waiting_summary:
            self.waiting_summary = False
            if self.guide is None or not self.guide.round_closed(self):
                self.controller.summary_seen()
        self.run_cues()

    def settings_changed(self, changed: frozenset[str]) -> None:
        """A settings change (the settings screen over this table, through ``app.prefs``):
        taken at once, while the settings screen is still open. A help level changed there is
        in force from then on (a lesson keeps its own help; a computer match has none to
        show); the level the new-game screen chose for this match stays until then, whatever
        overlay (a prompt, the pause menu) closes."""
        if "help_level" in changed and self.guide is None and not self.autoplay:
            self.controller.set_help_level(self.app.settings.help_level)
        if changed & {"animation_speed", "reduced_motion"}:
            self.queue.speed = self.app.anim_speed
            self.queue.reduced = self.app.reduced_motion
            self.controller.speed = self.app.anim_speed

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.lay = layout_mod.compute(size, self.app.ui_scale)
        self.director.skip()
        self.prewarm()
        self.director.snap()
        self.build_buttons()

    def build_buttons(self) -> None:
        """Menu, and in practice mode Undo and Suggest, along the bottom of the sidebar (laid
        out per window size and language; hit-tested by ``handle``, drawn by the view).

        The buttons share a row while every label fits its share at the buttons' font; a label
        that would not fit starts another row. Labels carry their key ("Menu (Esc)") when that
        costs no extra row, else the key is left out ("Menu"): a label is never cut, and the
        move log keeps its room."""
        words = self.app.words
        lay = self.lay
        side = lay.sidebar
        h = round(34 * lay.scale)
        gap = 8
        font = theme.font_px(15, lay.scale)
        keys = ["ui.table.menu" if self.guide is None else self.guide.menu_key]
        calls: list[Callable[[], object]] = [self.open_pause]
        if self.controller.config.practice:
            keys += ["ui.table.undo", "ui.table.suggest"]
            calls += [self.undo, self.controller.suggest]
        inner = side.w - 20

        def rows_of(hints: bool) -> list[list[int]]:
            def fits(row: list[int]) -> bool:
                w = (inner - gap * (len(row) - 1)) // len(row)
                texts = [button_label(words, keys[i], hints) for i in row]
                return all(gfx.measure(t, font, bold=True)[0] <= w - 12 for t in texts)

            rows: list[list[int]] = []
            for i in range(len(keys)):
                if rows and fits([*rows[-1], i]):
                    rows[-1].append(i)
                else:
                    rows.append([i])
            return rows

        with_keys, without = rows_of(True), rows_of(False)
        hints = len(with_keys) <= len(without)
        rows = with_keys if hints else without
        self.buttons = []
        y = side.bottom - 8 - len(rows) * h - (len(rows) - 1) * 6
        for row in rows:
            w = (inner - gap * (len(row) - 1)) // len(row)
            for n, i in enumerate(row):
                rect = pygame.Rect(side.x + 10 + n * (w + gap), y, w, h)
                # the label is read when drawn: a language change shows at once
                label = functools.partial(button_label, key=keys[i], hints=hints)
                self.buttons.append(Button(label, calls[i], rect))
            y += h + 6
        self.undo_button = self.buttons[1] if self.controller.config.practice else None
        self.buttons_words = words
        if self.guide is not None:
            self.guide.layout(self)

    # ------------------------------------------------------------------ cues
    def run_cues(self) -> None:
        """Carry out the controller's cues in order; one that covers or replaces the table
        ends the batch (the rest wait until the table is on top again)."""
        c = self.controller
        while c.cues and self.app.stack.top is self:
            cue = c.cues.popleft()
            if isinstance(cue, Animate):
                self.director.play(cue.events)
            elif isinstance(cue, Deal):
                self.director.deal(cue.view)
                self.director.play(cue.later)
            elif isinstance(cue, Rest):
                self.director.hide_hands = {0, 1} if cue.curtain else set()
                self.director.sync(cue.view)
            elif isinstance(cue, ShowFirstDealer):
                self.app.stack.push(first_dealer_prompt(self.app.words, self, cue.first))
            elif isinstance(cue, Ask):
                self.app.stack.push(self.question(cue))
            elif isinstance(cue, Curtain):
                self.director.hide_hands = {0, 1}
                self.app.stack.push(curtain_prompt(self.app.words, self, cue.seat))
            elif isinstance(cue, ShowSummary):
                self.push_summary(cue)
            elif isinstance(cue, ShowResult):
                self.show_result(cue.ending)

    def question(self, cue: Ask) -> PromptScene:
        """The prompt that asks ``cue``'s question (a guide adds its advice)."""
        prompt = question_prompt(self.app.words, self, cue.question, cue.seat, cue.key)
        if self.guide is not None:
            self.guide.advise(self, cue, prompt)
        return prompt

    def push_summary(self, cue: ShowSummary) -> None:
        c = self.controller
        self.waiting_summary = True
        self.app.stack.push(
            RoundSummaryScene(
                self.app,
                entry=c.played().ledger[cue.index],
                round_state=cue.round_state,
                names=c.seat_names,
                rules=c.rules,
                match=c.match,
                autoplay=self.autoplay,
                viewer=c.viewer,
            )
        )

    def show_result(self, ending: str) -> None:
        c = self.controller
        if c.match is None:  # a result cue comes only from a match
            raise RuntimeError("no match to show the result of")
        self.app.stack.replace(
            MatchResultScene(
                self.app,
                match=c.match,
                names=c.seat_names,
                rules=c.rules,
                autoplay=self.autoplay,
                config=c.config,
                viewer=c.viewer,
                ending=ending,
                match_id=c.recorder.match_id if c.recorder is not None else None,
            )
        )

    # ------------------------------------------------------------------ answers from prompts
    def first_dealer_seen(self) -> None:
        self.controller.first_dealer_seen()
        self.run_cues()

    def answer(self, action: engine.Action) -> None:
        self.controller.answer(action)
        self.run_cues()

    def decline(self, key: tuple[int, int, str]) -> None:
        self.controller.decline(key)
        self.run_cues()

    def curtain_lifted(self, seat: int) -> None:
        self.controller.curtain_lifted(seat)
        self.run_cues()

    # ------------------------------------------------------------------ the pause menu
    def open_pause(self) -> None:
        """The pause menu over the table (a guide may answer Esc otherwise)."""
        if self.guide is not None and self.guide.pause(self):
            return
        self.app.stack.push(PauseScene(self.app, table=self))

    def concede(self) -> None:
        self.controller.concede()
        self.run_cues()

    def end_now(self) -> None:
        self.controller.end_now()
        self.run_cues()

    def ask_quit(self) -> bool:
        """Window closed mid-match: ask first (the autosave is kept). True when a prompt
        opened."""
        c = self.controller
        if c.match is None or c.match.outcome is not None or not c.humans:
            return False
        top = self.app.stack.top
        if isinstance(top, PromptScene) and top.key == ("quit",):
            return False
        self.app.stack.push(quit_prompt(self.app.words, self))
        return True

    # ------------------------------------------------------------------ idle
    def clock_still_for(self) -> float:
        """How long what the table's clock drives stays as it is: 0 while cards move or an
        announcement plays, else until the banner or the one-line message goes (a prompt over
        the table advances the same clock and asks this too)."""
        if self.queue.busy or self.director.announce is not None:
            return 0.0
        waits = [math.inf]
        for left in (self.director.banner_left, self.controller.message_left):
            if left > 0:
                waits.append(left)
        return min(waits)

    def still_for(self) -> float:
        """Still while the table waits for a person (their move, or a question): nothing
        moving, no card held, nothing for the controller to do next; then until the next
        deadline (the card-info delay of a pointer at rest, a long press, a fading line)."""
        if not self.controller.waits_for_person():
            return 0.0  # a computer's turn, the end of a round, a question to ask: it moves on
        return min(self.clock_still_for(), self.gesture.wait())

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self.clock.advance(dt)
        self.controller.update(dt)
        self.run_cues()
        if self.undo_button is not None:
            self.undo_button.enabled = self.controller.can_undo()
        self.update_inspect(dt)
        if self.guide is not None:
            self.guide.follow(self)

    def update_inspect(self, dt: float) -> None:
        """Time passes for the gesture (a hover, a long press): the layout tells it which
        face-up cards lie under the press and the pointer now (cards move by themselves)."""
        g = self.gesture
        under_press = self.card_at(g.press_at, face_up=True) if g.press_at else 0
        under = self.card_at(g.pointer, face_up=True) if g.pointer else 0
        self.obey(g.tick(dt, under_press, under, self.facts()))

    @property
    def inspected(self) -> int:
        """The card shown enlarged (0: none)."""
        return self.controller.inspected

    @property
    def hot(self) -> int:
        """The lit card the lifted card points at (drawn brighter; 0: none)."""
        c = self.controller
        return c.aimed if c.lifted is not None else 0

    def frame(self) -> TableFrame:
        d = self.director
        snap = self.controller.snapshot(self.app.words)
        inspect = None
        avoid: list[pygame.Rect] = []
        shown = snap.inspected
        sp = d.sprites.get(shown) if shown else None
        if sp is not None and not snap.dragging:
            inspect = (shown, pygame.Rect(*map(round, sp.box)))
            # the enlarged card keeps clear of the lit targets, and of the cards a hand card
            # looked at could take (the engine's choice for it)
            lit = set(snap.lit)
            if shown in self.controller.pickable():
                ch = self.controller.choice_for(shown)
                lit |= set(ch.targets) if ch is not None else set()
            for card in sorted(lit):
                tsp = d.sprites.get(card)
                if tsp is not None:
                    avoid.append(pygame.Rect(*map(round, tsp.box)).inflate(12, 12))
        return TableFrame(
            snap=snap,
            lay=self.lay,
            sprites=sorted(d.sprites.values(), key=lambda sp: sp.z),
            board=d.board,
            last_cards=frozenset(d.last_cards),
            banner=say(d.banner, snap.words),
            animating=self.queue.busy,
            hot=snap.hot,
            buttons=self.buttons,
            turn=d.showing if self.queue.busy and d.showing else idle_turn(snap),
            announce=d.announce,
            inspect=inspect,
            inspect_avoid=tuple(avoid),
            log_back=self.log_back,
        )

    def draw(self, surface: pygame.Surface) -> None:
        if self.controller.match is None:
            return
        self.view.draw(surface, self.frame())
        if self.guide is not None:
            self.guide.draw(self, surface)

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        """Input, in order: a guide sees each intent first; then the first of these that
        takes it — a button, a screen opened over the table, skipping an animation, looking at
        a card with I or asking for help — and otherwise the cards: the pointer through the
        gesture machine, the keys through the controller."""
        if self.guide is not None and self.guide.handle(self, intent):
            return
        if self.controller.match is None:
            return
        for takes in (
            self.button_takes,
            self.opens_a_screen,
            self.log_takes,
            self.skip_takes,
            self.look_or_help_takes,
        ):
            if takes(intent):
                return
        self.play(intent)

    def button_takes(self, intent: Intent) -> bool:
        """A pointer intent on one of the table's buttons (Menu, Undo, Suggest)."""
        if intent.kind not in (IntentKind.PRESS, IntentKind.RELEASE, IntentKind.MOVE):
            return False
        return any(b.handle(intent) for b in self.buttons)

    def opens_a_screen(self, intent: Intent) -> bool:
        """Esc (nothing held) opens the pause menu; M, or a right click on a face-up card, the
        month reference."""
        if intent.kind == IntentKind.BACK and self.controller.hold == "idle":
            self.open_pause()
            return True
        if intent.letter == "m":
            self.open_reference(self.reference_card())
            return True
        if intent.kind == IntentKind.ALT_PRESS:
            card = self.card_at(intent.pos, face_up=True)
            if card:
                self.open_reference(card)
                return True
        return False

    def log_takes(self, intent: Intent) -> bool:
        """The move log scrolls: the wheel over it, Page Up / Page Down (a page of entries),
        End (back to the newest). The wheel anywhere else does nothing (it used to move the
        hand's keyboard focus)."""
        k = intent.kind
        if k == IntentKind.WHEEL:
            pos = self.gesture.pointer
            f = self.frame()
            if pos is not None and self.view.log_area(f).collidepoint(pos):
                self.scroll_log(intent.pos[1], f)
            return True
        if k in (IntentKind.PAGE_UP, IntentKind.PAGE_DOWN):
            self.scroll_log(5 if k == IntentKind.PAGE_UP else -5, self.frame())
            return True
        if k == IntentKind.END:
            self.log_back = 0
            return True
        return False

    def scroll_log(self, steps: int, f: TableFrame) -> None:
        """Scroll the move log ``steps`` entries back (negative: forward), within the log."""
        self.log_back = max(0, min(self.log_back + steps, self.view.log_most_back(f)))

    def skip_takes(self, intent: Intent) -> bool:
        """A press, Enter or right click while cards move (or an announcement shows) skips to
        the end of it (a press still starts the gesture's clock: held, it looks at a card)."""
        if (self.queue.busy or self.director.announce) and intent.kind in (
            IntentKind.PRESS,
            IntentKind.CONFIRM,
            IntentKind.ALT_PRESS,
        ):
            if intent.kind == IntentKind.PRESS:
                self.obey(self.gesture.press(intent.pos, Hit(), self.facts(live=False)))
            self.director.skip()
            return True
        return False

    def look_or_help_takes(self, intent: Intent) -> bool:
        """I looks at the keyboard's card (what hovering does for the mouse; I again, or any
        other input, hides it); H suggests a move, U takes one back (practice)."""
        g = self.gesture
        if intent.letter == "i":
            self.obey(g.look(self.keyboard_card(), self.facts()))
            return True
        if intent.kind not in (IntentKind.MOVE, IntentKind.PRESS, IntentKind.RELEASE):
            self.obey(g.other_input(self.facts()))
        if intent.letter == "h":
            self.controller.suggest()
            return True
        if intent.letter == "u":
            self.undo()
            return True
        return False

    def play(self, intent: Intent) -> None:
        """The pointer goes to the gesture machine (its commands to the controller); on the
        player's turn the keys choose and play a card."""
        g, c = self.gesture, self.controller
        k = intent.kind
        if k == IntentKind.PRESS:
            self.obey(g.press(intent.pos, self.hit(intent.pos, press=True), self.facts()))
        elif k == IntentKind.MOVE:
            self.obey(g.move(intent.pos, self.hit(intent.pos, moving=True), self.facts()))
        elif k == IntentKind.RELEASE:
            self.obey(g.release(intent.pos, self.hit(intent.pos, moving=True), self.facts()))
        elif k == IntentKind.ALT_PRESS:
            if c.my_turn():
                self.obey(g.alt_press(self.facts()))
        elif c.my_turn():
            c.key(intent.kind)
        self.run_cues()

    def facts(self, *, live: bool = True) -> Table:
        """What the table allows and shows now, for the gesture machine (``live`` False: no
        card may be lifted or dropped, as while cards move)."""
        c = self.controller
        ch = c.lifted
        mine = live and c.my_turn()
        return Table(
            pickable=frozenset(c.pickable()) if mine else frozenset(),
            lifted=ch.card if ch is not None and mine else 0,
            targets=frozenset(ch.targets) if ch is not None else frozenset(),
            aimed=c.aimed,
            inspected=c.inspected,
            click_only=self.app.click_mode,
            calm=not self.queue.busy and self.prompt is None,
        )

    def obey(self, commands: list[Command]) -> None:
        """The gesture's commands to the controller, in order; the Director follows the held
        card, and one not played glides back."""
        c, d, g = self.controller, self.director, self.gesture
        for cmd in commands:
            c.command(cmd)
            if isinstance(cmd, (Drop, PutBack)):
                d.glide_back()
        if g.held and c.grip != "none":
            card = g.held
            sp = d.sprites.get(card)
            d.follow(card, g.held_box((sp.box[2], sp.box[3])) if sp is not None else None)

    def undo(self) -> None:
        if self.controller.undo():
            self.run_cues()

    def open_reference(self, card: int) -> None:
        """The month reference at ``card``'s month (right-click or M), pushed over the table.

        The table is only paused underneath (the stack updates the top scene alone), so the
        match, a computer move being thought about and the autosave are untouched; Esc on the
        reference returns to the same position. A held card is put back first."""
        if self.controller.hold != "idle":
            self.gesture.reset()
            self.controller.put_back()
            self.director.snap()
        screen = self.app.router.build(
            screens.MonthReference(card=card, rules=self.controller.rules)
        )
        self.app.stack.push(screen)

    def keyboard_card(self) -> int:
        """The face-up card the keyboard is on: the target under a lifted card's cursor, else
        what M refers to (:meth:`reference_card`)."""
        ch = self.controller.lifted
        if ch is not None:
            opts = ch.options()
            target = opts[ch.cursor % len(opts)] if opts else 0
            if target > 0:
                return target
        return self.reference_card()

    def reference_card(self) -> int:
        """The card M refers to: the face-up card under the pointer, else the lifted card, else
        the keyboard focus (never a face-down card: its month is not the viewer's to know)."""
        c = self.controller
        pos = self.gesture.pointer
        pointed = self.card_at(pos, face_up=True) if pos else 0
        if pointed:
            return pointed
        if c.lifted is not None:
            return c.lifted.card
        cards = c.pickable()
        if cards and c.focus < len(cards):
            return cards[c.focus]
        return 0

    # ------------------------------------------------------------------ hit tests
    def card_at(self, pos: tuple[int, int], *, zone: str = "any", face_up: bool = False) -> int:
        """The topmost card sprite under ``pos`` (0 if none; ``face_up``: only cards showing
        their face)."""
        best, best_z = 0, -1
        b = self.director.board
        for c, sp in self.director.sprites.items():
            if face_up and (not sp.face_up or c < 0):
                continue
            if zone == "field" and c not in b.field:
                continue
            r = pygame.Rect(*map(round, sp.box))
            if r.collidepoint(pos) and sp.z > best_z:
                best, best_z = c, sp.z
        return best

    def hit(self, pos: tuple[int, int], *, press: bool = False, moving: bool = False) -> Hit:
        """What lies under ``pos``, for the gesture machine: the cards there, the enlarged
        card's pop-up (on a press), where the held card would aim (while it moves) and
        whether the point is in the field."""
        d = self.director
        card = self.card_at(pos)
        sp = d.sprites.get(card) if card else None
        popup = 0
        if press and self.inspected:
            f = self.frame()
            if f.inspect is not None and self.view.inspect_panel(f).collidepoint(pos):
                popup = self.inspected
        return Hit(
            card=card,
            face_up=self.card_at(pos, face_up=True),
            field=self.card_at(pos, zone="field"),
            popup=popup,
            box=sp.box if sp is not None else None,
            aim=self.aim_at(pos) if moving else 0,
            on_field=self.lay.field_band.collidepoint(pos) or self.lay.field_area.collidepoint(pos),
        )

    def aim_at(self, pos: tuple[int, int]) -> int:
        """The lit card the held card overlaps most when drawn where the gesture holds it at
        ``pos``; 0 for none.

        Forgiving: the pointer itself may be beside it (when the open field is also legal, the
        overlap must be at least 15% of a card, so a drop beside a card still places it).
        """
        g, ch = self.gesture, self.controller.lifted
        sp = self.director.sprites.get(g.held) if g.held else None
        if ch is None or sp is None or ch.card != g.held:
            return 0
        box = g.box_at(pos, (sp.box[2], sp.box[3])) or sp.box
        moving = pygame.Rect(*map(round, box))
        need = moving.w * moving.h * (0.15 if ch.open_field is not None else 0.0)
        best, target = need, 0
        for t in ch.targets:
            tsp = self.director.sprites.get(t)
            if tsp is None:
                continue
            area = moving.clip(pygame.Rect(*map(round, tsp.box)))
            if area.w * area.h > best:
                best, target = area.w * area.h, t
        return target
