"""The table scene: a whole match on screen, in three parts that do not know each other's
insides.

* :class:`~.controller.TableController` (no pygame) holds the match, the seats, the
  card the player holds, the computer's turns, undo and hints, and feeds the recorder. It says
  what must be shown next through *cues*.
* :class:`~.view.TableView` draws a frame: the controller's snapshot (built from the
  viewer's PlayerView), the sprites, the layout. It reads no input and changes nothing.
* This scene is the glue: it turns intents into controller calls (hit-testing the sprites it
  laid out), carries out the cues (animations through the :class:`~koikoi_desktop.ui.board.
  Director`, prompts pushed as overlay scenes, the round summary, the match result) and owns the
  layout, the side buttons and the one animation clock.

Input: drag a hand card (or the drawn card) onto a lit card; click a card then a target
(click-click; with the setting "click to move" on, only that: a card never follows the
pointer); or keyboard: left/right pick a card, Enter lifts it, left/right pick a target (or
the open field), Enter plays, Esc puts it back (Esc with nothing lifted opens the pause menu).
While cards move, a click or a key finishes the animation. Right-click or M opens the month
reference at a card; H suggests and U takes back a move in practice mode.

A lesson rides on the table as a :class:`Guide` the scene holds (the guided first round:
``scenes/tutorial.py``, built by ``app.screens.tutorial()``). The scene consults it at named
points — a move the person makes (its veto), the table moving on, a question asked, the round
summary closed, Esc, input first, drawing last — and is otherwise the table of any match.

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
from koikoi_desktop.scenes.base import AppServices, FastForward, Scene
from koikoi_desktop.scenes.defaults import default_opponent, default_preset
from koikoi_desktop.scenes.match_result import MatchResultScene
from koikoi_desktop.scenes.pause import PauseScene
from koikoi_desktop.scenes.round_summary import RoundSummaryScene
from koikoi_desktop.scenes.table.controller import (
    DRAG_THRESHOLD,
    Animate,
    Ask,
    Choice,
    Curtain,
    Deal,
    MatchConfig,
    Rest,
    ShowFirstDealer,
    ShowResult,
    ShowSummary,
    TableController,
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
from koikoi_desktop.storage.recorder import Resumed
from koikoi_desktop.ui import gfx, sound_cues, theme
from koikoi_desktop.ui import layout as layout_mod
from koikoi_desktop.ui.animation import AnimationClock, AnimationQueue
from koikoi_desktop.ui.board import MOVE, Director
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button
from koikoi_desktop.words.names import SeatNames

if TYPE_CHECKING:
    from koikoi_desktop.ai.base import Opponent

__all__ = ["MatchConfig", "TableScene"]

#: Seconds the pointer rests on a card before it is shown enlarged, and a long press (touch).
HOVER_DELAY = 0.35
LONG_PRESS = 0.5


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
        *,
        config: MatchConfig | None = None,
        autoplay: bool = False,
        seed: int | None = None,
        preset: str | None = None,
        fast_forward: FastForward | None = None,
        autosave: Resumed | None = None,
        guide: Guide | None = None,
        name: str = "table",
    ) -> None:
        super().__init__(app)
        self.name = name
        self.guide = guide
        self.autoplay = autoplay or app.autoplay
        self.fast_forward = fast_forward
        self.autosave_data = autosave
        if autosave is not None:
            m = autosave.match
            config = MatchConfig(m.rules, autosave.seats, m.seed, autosave.practice, autosave.names)
        elif config is None:
            rules = engine.PRESETS[preset or default_preset(app.settings)]
            seats = (
                ("intermediate", "intermediate")
                if self.autoplay or fast_forward
                else ("human", default_opponent(app.settings))
            )
            config = MatchConfig(rules=rules, seats=seats, seed=seed)
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
        self.pointer_pos: tuple[int, int] | None = None
        self.hot = 0  # the lit card a dragged card is over (drawn brighter)
        #: The face-up card under the pointer and how long it has been there (hover), the
        #: press being held still (a long press), and the card shown enlarged (0: none).
        self.hover_card = 0
        self.hover_time = 0.0
        #: Hovering counts only once the pointer has moved since the last press or release
        #: (a card is not shown where the pointer happens to rest after a drag or a click).
        self.hover_armed = True
        self.hover_at: tuple[int, int] | None = None
        self.press_at: tuple[int, int] | None = None
        self.press_time = 0.0
        self.long_pressed = False
        self.inspected = 0
        #: The card I shows enlarged for the keyboard (0: none); any other input hides it.
        self.key_inspected = 0
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

    def resume(self) -> None:
        self.relabel()
        self.queue.speed = self.app.anim_speed
        self.queue.reduced = self.app.reduced_motion
        self.controller.speed = self.app.anim_speed
        if self.waiting_summary:
            self.waiting_summary = False
            if self.guide is None or not self.guide.round_closed(self):
                self.controller.summary_seen()
        self.run_cues()

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
        c = self.controller
        if c.busy or c.drag is not None or c.after is not None or c.match is None:
            return 0.0
        if c.stage != "play":
            return 0.0
        st = c.match.round
        person = st.outcome is None and st.to_move is not None and c.is_human(st.to_move)
        if not (c.asking or person):
            return 0.0  # a computer's turn, the end of a round: the controller moves on
        waits = [self.clock_still_for()]
        if self.hover_card and self.hover_time < HOVER_DELAY:
            waits.append(HOVER_DELAY - self.hover_time)
        if self.press_at is not None and not self.long_pressed and self.press_time < LONG_PRESS:
            waits.append(LONG_PRESS - self.press_time)
        return min(waits)

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self.clock.advance(dt)
        self.controller.update(dt)
        self.run_cues()
        if self.controller.lifted is None:
            self.hot = 0
        if self.undo_button is not None:
            self.undo_button.enabled = self.controller.can_undo()
        self.update_inspect(dt)
        if self.guide is not None:
            self.guide.follow(self)

    def update_inspect(self, dt: float) -> None:
        """Hover (the pointer still for ``HOVER_DELAY`` on a card, nothing held, and moved
        since the last press or release: not where a drag or a click left it) or a long press
        (``LONG_PRESS``, held still) on a face-up card shows it enlarged with its facts; moving
        off, a drag or cards moving hide it."""
        c = self.controller
        dragging = c.drag is not None and c.drag.moved
        if self.key_inspected:  # the keyboard's look at a card (I) holds until other input
            self.inspected = 0 if self.queue.busy else self.key_inspected
            return
        if self.press_at is not None and not self.long_pressed and not dragging:
            self.press_time += dt
            if self.press_time >= LONG_PRESS:
                card = self.card_at(self.press_at, face_up=True)
                if card:
                    self.long_pressed = True
                    self.inspected = card
        pos = self.pointer_pos
        under = 0
        if (
            pos is not None
            and self.hover_armed
            and c.drag is None
            and c.lifted is None
            and not self.queue.busy
            and self.prompt is None
        ):
            under = self.card_at(pos, face_up=True)
        if under != self.hover_card:
            self.hover_card, self.hover_time = under, 0.0
        elif under:
            self.hover_time += dt
        if self.long_pressed:
            return
        if dragging or self.queue.busy:
            self.inspected = 0
        elif self.hover_card and self.hover_time >= HOVER_DELAY:
            self.inspected = self.hover_card
        elif not self.hover_card:
            self.inspected = 0

    def frame(self) -> TableFrame:
        d = self.director
        snap = self.controller.snapshot(self.app.words)
        inspect = None
        avoid: list[pygame.Rect] = []
        sp = d.sprites.get(self.inspected) if self.inspected else None
        if sp is not None and not snap.dragging:
            inspect = (self.inspected, pygame.Rect(*map(round, sp.box)))
            # the enlarged card keeps clear of the lit targets, and of the cards a hand card
            # looked at could take (the engine's choice for it)
            lit = set(snap.lit)
            if self.inspected in self.controller.pickable():
                ch = self.controller.choice_for(self.inspected)
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
            hot=self.hot,
            buttons=self.buttons,
            turn=d.showing if self.queue.busy and d.showing else idle_turn(snap),
            announce=d.announce,
            inspect=inspect,
            inspect_avoid=tuple(avoid),
        )

    def draw(self, surface: pygame.Surface) -> None:
        if self.controller.match is None:
            return
        self.view.draw(surface, self.frame())
        if self.guide is not None:
            self.guide.draw(self, surface)

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        """Input, in order: the pointer's hover state; then the first of these that takes the
        intent — a button, a screen opened over the table, the press clock (a long press),
        skipping an animation, looking at a card or asking for help — and otherwise a move. A
        guide sees each intent first."""
        if self.guide is not None and self.guide.handle(self, intent):
            return
        self.track_pointer(intent)
        if self.controller.match is None:
            return
        for takes in (
            self.button_takes,
            self.opens_a_screen,
            self.press_clock_takes,
            self.skip_takes,
            self.look_or_help_takes,
        ):
            if takes(intent):
                return
        self.play(intent)

    def track_pointer(self, intent: Intent) -> None:
        """Where the pointer is and whether hovering may show a card (a press or a drop
        disarms it)."""
        if intent.kind == IntentKind.MOVE:
            self.pointer_pos = intent.pos
            self.pointer_moved(intent.pos)
        elif intent.kind in (IntentKind.PRESS, IntentKind.RELEASE):
            self.hover_armed = False  # the card under a press or a drop is not looked at

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

    def press_clock_takes(self, intent: Intent) -> bool:
        """Times a press for the long press (which looks at a card); the release that ends a
        long press puts the card back and does nothing else."""
        if intent.kind == IntentKind.PRESS:
            self.press_at, self.press_time, self.long_pressed = intent.pos, 0.0, False
            self.inspected = 0  # a press acts on the table; holding still shows it again
            self.hover_time = 0.0
        elif intent.kind == IntentKind.RELEASE:
            self.press_at = None
            if self.long_pressed:  # a long press looked at a card: it does not also play it
                self.long_pressed = False
                self.inspected = 0
                self.controller.put_back()
                self.director.snap()
                return True
        elif intent.kind == IntentKind.MOVE and self.press_at is not None:
            px, py = self.press_at
            if abs(intent.pos[0] - px) + abs(intent.pos[1] - py) > DRAG_THRESHOLD:
                self.press_at = None  # it moved: a drag, not a long press
        return False

    def skip_takes(self, intent: Intent) -> bool:
        """A press, Enter or right click while cards move (or an announcement shows) skips to
        the end of it."""
        if (self.queue.busy or self.director.announce) and intent.kind in (
            IntentKind.PRESS,
            IntentKind.CONFIRM,
            IntentKind.ALT_PRESS,
        ):
            self.director.skip()
            return True
        return False

    def look_or_help_takes(self, intent: Intent) -> bool:
        """I looks at the keyboard's card (what hovering does for the mouse; I again, or any
        other input, hides it); H suggests a move, U takes one back (practice)."""
        if intent.letter == "i":
            self.key_inspected = 0 if self.key_inspected else self.keyboard_card()
            self.inspected = self.key_inspected
            return True
        if intent.kind != IntentKind.MOVE and self.key_inspected:
            self.key_inspected = self.inspected = 0
        if intent.letter == "h":
            self.controller.suggest()
            return True
        if intent.letter == "u":
            self.undo()
            return True
        return False

    def play(self, intent: Intent) -> None:
        """On the player's turn: the pointer or the keys choose and play a card."""
        c = self.controller
        if not c.my_turn():
            return
        if intent.kind in (
            IntentKind.PRESS,
            IntentKind.MOVE,
            IntentKind.RELEASE,
            IntentKind.ALT_PRESS,
        ):
            self.pointer(intent)
        else:
            c.key(intent.kind)
        self.run_cues()

    def pointer_moved(self, pos: tuple[int, int]) -> None:
        """The hover clock waits for a still pointer: a move of more than a few pixels starts
        it again; a move with nothing pressed or held arms hovering again."""
        last = self.hover_at
        if last is None or abs(pos[0] - last[0]) + abs(pos[1] - last[1]) > 3:
            self.hover_at = pos
            self.hover_time = 0.0
        if self.press_at is None and self.controller.drag is None:
            self.hover_armed = True

    def undo(self) -> None:
        if self.controller.undo():
            self.run_cues()

    def open_reference(self, card: int) -> None:
        """The month reference at ``card``'s month (right-click or M), pushed over the table.

        The table is only paused underneath (the stack updates the top scene alone), so the
        match, a computer move being thought about and the autosave are untouched; Esc on the
        reference returns to the same position. A held card is put back first."""
        if self.controller.hold != "idle":
            self.controller.put_back()
            self.director.snap()
        screen = self.app.screens.month_reference(card=card, rules=self.controller.rules)
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
        pointed = self.card_at(self.pointer_pos, face_up=True) if self.pointer_pos else 0
        if pointed:
            return pointed
        if c.lifted is not None:
            return c.lifted.card
        cards = c.pickable()
        if cards and c.focus < len(cards):
            return cards[c.focus]
        return 0

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

    def pointer(self, it: Intent) -> None:
        """A press, move or release while it is the player's turn: the held card's state
        machine lives in the controller; where things are is worked out here."""
        c = self.controller
        if it.kind == IntentKind.ALT_PRESS:
            c.put_back()
            return
        if it.kind == IntentKind.PRESS:
            card = self.card_at(it.pos)
            pickable = c.pickable()
            if c.lifted is not None and card != c.lifted.card and card not in pickable:
                self.drop_at(it.pos, click=True)
                return
            if card and card in pickable:
                sp = self.director.sprites[card]
                if c.grab(card, (it.pos[0] - sp.box[0], it.pos[1] - sp.box[1]), it.pos):
                    sp.z = 1000
            return
        if it.kind == IntentKind.MOVE:
            d = c.drag
            # click to move (the setting): the pressed card is lifted and stays put, so a hand
            # that slips while clicking never drags a card anywhere
            if d is not None and not self.app.click_mode and c.drag_to(it.pos):
                sp = self.director.sprites[d.card]
                sp.box = (it.pos[0] - d.offset[0], it.pos[1] - d.offset[1], sp.box[2], sp.box[3])
                self.hot = self.drop_target(c.lifted, it.pos, click=False) if c.lifted else 0
            elif d is None and c.lifted is not None:  # a lifted card: the lit card pointed at
                under = self.card_at(it.pos, zone="field")
                self.hot = under if under in c.lifted.targets else 0
            return
        if it.kind == IntentKind.RELEASE:
            d = c.release()
            if d is None or not d.moved:  # a click: the card stays lifted for a second click
                return
            self.drop_at(it.pos, click=False)

    def drop_target(self, ch: Choice, pos: tuple[int, int], *, click: bool) -> int:
        """The field card a drop (or second click) at ``pos`` aims at; 0 for none.

        Forgiving: after a drag, the lit card that the dropped card overlaps most wins, even if
        the pointer itself is beside it (when the open field is also legal, the overlap must be
        at least 15% of a card, so a drop beside a card still places it).
        """
        if not click:
            sp = self.director.sprites.get(ch.card)
            if sp is not None:
                moving = pygame.Rect(*map(round, sp.box))
                need = moving.w * moving.h * (0.15 if ch.open_field is not None else 0.0)
                best, target = need, 0
                for t in ch.targets:
                    tsp = self.director.sprites.get(t)
                    if tsp is None:
                        continue
                    area = moving.clip(pygame.Rect(*map(round, tsp.box)))
                    if area.w * area.h > best:
                        best, target = area.w * area.h, t
                if target:
                    return target
        under = self.card_at(pos, zone="field")
        return under if under != ch.card else 0

    def drop_at(self, pos: tuple[int, int], *, click: bool) -> None:
        """Resolve a drop (or the second click) of the lifted card at ``pos``."""
        c = self.controller
        ch = c.lifted
        if ch is None:
            return
        target = self.drop_target(ch, pos, click=click)
        on_field = self.lay.field_band.collidepoint(pos) or self.lay.field_area.collidepoint(pos)
        c.drop(target, on_field=on_field)
        self.hot = 0
        self.director.step(lambda: None, MOVE * 0.7)  # a card not played glides back
