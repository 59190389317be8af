"""The table: a whole match on screen, driven by the engine (drawing is in ``table_view``).

Flow: choose the first dealer as the preset says (shown as a prompt) → deal (animated in the
preset's packets) → turns. Every move goes through ``Match.apply``; the UI never decides what is
legal. Lit drop targets come from the engine's legal actions, and *which* cards an action would
capture from applying it to a copy of the round (``RoundState.copy``). An illegal drop asks the
engine anyway and shows its one-line reason; the engine changes nothing.

Input: drag a hand card (or the drawn card) onto a lit card; click a card then a target
(click-click); or keyboard: left/right pick a card, Enter lifts it, left/right pick a target
(or the open field), Enter plays, Esc puts it back (Esc with nothing lifted opens the pause
menu). While cards move, a click or a key finishes the animation.

Seats: ``"human"`` or an opponent level. Two human seats are hot seat: a curtain hides the hands
between turns and the player to move sits at the bottom. Computer seats think in a worker
(:class:`~koikoi_desktop.ui.thinker.Thinker`) after a short pause so each move can be followed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pygame

from koikoi_desktop import engine, scenes
from koikoi_desktop.ai import Thinker, decide, make_opponent
from koikoi_desktop.scenes.base import Scene
from koikoi_desktop.scenes.table_prompts import PromptsMixin
from koikoi_desktop.scenes.table_storage import TableStorageMixin
from koikoi_desktop.scenes.table_text import card_name, describe, illegal_text, reason_text
from koikoi_desktop.storage.recorder import MatchRecorder, Resumed, new_match_id
from koikoi_desktop.ui import gfx
from koikoi_desktop.ui import layout as layout_mod
from koikoi_desktop.ui.animation import AnimationQueue
from koikoi_desktop.ui.board import MOVE, Director
from koikoi_desktop.ui.input import Intent

CPU_PAUSE = {"off": 0.05, "fast": 0.3, "normal": 0.75}
DRAG_THRESHOLD = 6


@dataclass
class MatchConfig:
    """What the new-game screen decides."""

    rules: Any
    seats: tuple[str, str] = ("human", "intermediate")
    seed: int | None = None
    practice: bool = False
    names: tuple[str, str] | None = None


@dataclass
class Drag:
    card: int
    offset: tuple[float, float]
    start: tuple[int, int]
    moved: bool = False
    from_reveal: bool = False


@dataclass
class Choice:
    """A lifted card and what it can do: target card -> action, and the open-field action."""

    card: int
    targets: dict[int, Any] = field(default_factory=dict)
    open_field: Any = None
    cursor: int = 0

    def options(self) -> list[int]:
        """Keyboard order: the targets, then 0 for the open field."""
        opts = sorted(self.targets)
        if self.open_field is not None:
            opts.append(0)
        return opts


class TableScene(TableStorageMixin, PromptsMixin, Scene):
    """One match on the table."""

    name = "table"

    def __init__(
        self,
        app: Any,
        *,
        config: MatchConfig | None = None,
        autoplay: bool = False,
        seed: int | None = None,
        preset: str | None = None,
        fast_forward: str | None = None,
        autosave: Resumed | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(app, **kwargs)
        self.autoplay = autoplay or bool(getattr(app, "autoplay", False))
        self.fast_forward = fast_forward
        if config is None:
            rules = engine.PRESETS[preset or self._default_preset()]
            seats = (
                ("intermediate", "intermediate")
                if self.autoplay or fast_forward
                else ("human", str(app.setting("default_opponent", "intermediate")))
            )
            config = MatchConfig(rules=rules, seats=seats, seed=seed)
        self.config = config
        self.rules = config.rules
        self.seed = config.seed if config.seed is not None else random.randrange(1 << 30)
        self.opponents: dict[int, Any] = {
            p: make_opponent(config.seats[p], seed=self.seed + p)
            for p in (0, 1)
            if config.seats[p] != "human"
        }
        self.humans = [p for p in (0, 1) if config.seats[p] == "human"]
        self.viewer = self.humans[0] if self.humans else 0
        self.names = config.names or self._default_names()
        self.queue = AnimationQueue(self._speed(), reduced=self._reduced())
        self.size: tuple[int, int] = (int(app.size[0]), int(app.size[1]))
        self.lay = layout_mod.compute(self.size, getattr(app, "ui_scale", 1.0))
        self.director = Director(self.queue, lambda: self.lay, lambda: self.viewer)
        self.director.describe = lambda ev: describe(ev, self.names, self.rules)
        self.log: list[str] = []
        self.director.on_log = self.log.append
        self.thinker = Thinker(app.ai_executor)
        self.match: Any = None
        self.first: Any = None
        self.after_queue: Any = None
        self.waiting_summary = False
        self.shown_ledger = 0
        self.cpu_delay = 0.0
        self.drag: Drag | None = None
        self.choice: Choice | None = None
        self.focus = 0
        self.hover: int = 0
        self.pointer_pos: tuple[int, int] | None = None
        self.message = ""
        self.message_left = 0.0
        self.suggestion = ""
        self.curtain = False
        self.prompt: Any = None
        self.prompt_key: Any = None
        self.autosave_data: Resumed | None = autosave
        self.recorder: MatchRecorder | None = None
        self.actions: list[tuple[int, int | None, str]] = []
        self.finished = False
        #: While a finished round is still being animated (the engine has already dealt the
        #: next one), the header and tracker show it: (round state, number, balances before).
        self.display: tuple[Any, int, tuple[int, int]] | None = None
        self.init_prompts()

    # ------------------------------------------------------------------ set-up
    def _default_preset(self) -> str:
        name = str(self.app.setting("default_preset", "nintendo"))
        return name if name in engine.PRESETS else "nintendo"

    def _speed(self) -> str:
        return str(getattr(self.app, "anim_speed", "normal"))

    def _reduced(self) -> bool:
        """Reduced motion: cards appear in place with a short fade instead of moving (the
        animation speed still sets the pauses between moves)."""
        return bool(getattr(self.app, "reduced_motion", False))

    def _default_names(self) -> tuple[str, str]:
        seats = self.config.seats
        if len(self.humans) == 2:
            return (gfx.tr("ui.table.player_n", n=1), gfx.tr("ui.table.player_n", n=2))
        out = []
        for p in (0, 1):
            if seats[p] == "human":
                name = str(self.app.setting("player_name", "") or "") or gfx.tr("ui.common.you")
            elif self.humans:
                name = gfx.tr("ui.table.computer", level=gfx.tr(f"ui.level.{seats[p]}"))
            else:
                name = gfx.tr("ui.table.computer_n", n=p + 1)
            out.append(name)
        return (out[0], out[1])

    def prewarm(self) -> None:
        """Rasterise the deck at the two table sizes now, so no frame stalls mid-deal."""
        sprites = getattr(self.app, "sprites", None)
        if sprites is not None and hasattr(sprites, "prewarm"):
            for size in (self.lay.card, self.lay.small):
                sprites.prewarm(size)

    def enter(self) -> None:
        self.prewarm()
        if self.autosave_data is not None:
            self._restore(self.autosave_data)
            return
        rng = random.Random(self.seed)
        ages, months = self.first_dealer_ages()
        self.first = engine.choose_first_dealer(self.rules, rng, ages=ages, birth_months=months)
        self.match = engine.new_match(self.rules, first_dealer=self.first.dealer, seed=self.seed)
        self.recorder = self._make_recorder(new_match_id())
        if self.fast_forward in ("round-summary", "match-result"):
            self._fast_forward(self.fast_forward)
            return
        self.show_first_dealer()

    def _fast_forward(self, until: str) -> None:
        """``--scene round-summary`` / ``match-result``: the computer seats play at once (no
        animation, on this thread) to the end of the first round or of the match, and that
        screen is shown over the table as in a real match."""
        m = self.match
        last = m.round
        for _ in range(20000):  # a whole match is a few hundred moves
            if m.outcome is not None or (until == "round-summary" and m.ledger):
                break
            last = m.round
            p = last.to_move
            action, _ = decide(self.opponents[p], last.view(p))
            self.actions.append((m.round_number, p, str(action)))
            m.apply(action)
        self.director.board.sync(last if until == "round-summary" else m.round)
        self.director.snap()
        if until == "round-summary" and m.ledger:
            self.display = (last, 1, m.balances)
            self.push_summary(last, 0)
        else:
            self.finish_match()

    def _restore(self, data: Resumed) -> None:
        """Put a resumed saved match (:func:`koikoi_desktop.storage.recorder.resume`, already
        replayed and checked) on the table."""
        self.match = data.match
        self.rules = self.match.rules
        seats = data.seats
        self.config = MatchConfig(self.rules, seats, self.match.seed, data.practice)
        self.opponents = {p: make_opponent(seats[p]) for p in (0, 1) if seats[p] != "human"}
        self.humans = [p for p in (0, 1) if seats[p] == "human"]
        self.viewer = self.humans[0] if self.humans else 0
        # the names as they were when saved
        self.names = data.names if data.names is not None else self._default_names()
        self.recorder = self._make_recorder(data.match_id)
        self.shown_ledger = len(self.match.ledger)
        self.director.board.sync(self.match.round)
        self.director.snap()
        self.log.append(gfx.tr("ui.table.resumed"))
        if self.match.outcome is not None:
            # saved after the match's last move (closed on the last round summary): show that
            # summary again, then the result, which records the match and clears the autosave
            self.shown_ledger = max(0, len(self.match.ledger) - 1)
            self.after_queue = self.start_round

    def _make_recorder(self, match_id: str) -> MatchRecorder:
        """The recorder of this match: a person's match is saved and recorded; a computer-vs-
        computer match only with ``--record`` (then marked as a computer match)."""
        record = bool(self.humans) or bool(getattr(self.app, "record_autoplay", False))
        return MatchRecorder(
            getattr(self.app, "storage", None),
            match_id=match_id,
            seats=self.config.seats,
            names=self.names,
            rules=self.rules,
            practice=self.config.practice,
            record=record,
            computer=not self.humans,
        )

    def start_round(self) -> None:
        """Show summaries of rounds settled at the deal, then animate the current deal."""
        m = self.match
        if len(m.ledger) > self.shown_ledger:
            self.push_summary(None, self.shown_ledger)
            return
        if m.outcome is not None:
            self.finish_match()
            return
        st = m.round
        self.display = None
        self.log.append(gfx.tr("ui.common.round_n", n=m.round_number))
        self.director.deal(st, list(engine.round.deal_positions(self.rules)))
        later = [e for e in st.history if e.kind not in ("deal",)]
        self.director.play(later)
        self.after_queue = self.sync_board

    def sync_board(self) -> None:
        if self.match is not None and self.match.outcome is None:
            self.director.board.sync(self.match.round)
            self.director.hide_hands = {0, 1} if self.match.round.phase == "exchange" else set()
            self.director.snap()

    # ------------------------------------------------------------------ lifecycle
    def exit(self) -> None:
        self.thinker.close()

    def resume(self) -> None:
        self.queue.speed = self._speed()
        self.queue.reduced = self._reduced()
        if self.waiting_summary:
            self.waiting_summary = False
            self.start_round()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.lay = layout_mod.compute(size, getattr(self.app, "ui_scale", 1.0))
        self.queue.skip()
        self.prewarm()
        self.director.snap()
        self.layout_prompt()

    # ------------------------------------------------------------------ helpers
    @property
    def state(self) -> Any:
        return self.match.round if self.match is not None else None

    @property
    def shown(self) -> tuple[Any, int, tuple[int, int]]:
        """The round the table shows, its number and the balances shown with it."""
        if self.display is not None:
            return self.display
        m = self.match
        return (m.round, m.round_number, m.balances)

    def is_human(self, p: int | None) -> bool:
        return p is not None and self.config.seats[p] == "human"

    def my_turn(self) -> bool:
        st = self.state
        return (
            st is not None
            and st.outcome is None
            and self.is_human(st.to_move)
            and st.to_move == self.viewer
            and not self.queue.busy
            and not self.curtain
            and self.prompt is None
            and not self.waiting_summary
        )

    def say_message(self, text: str, seconds: float = 4.0) -> None:
        self.message = text
        self.message_left = seconds

    def preview(self, action: Any) -> tuple[int, ...]:
        """The cards ``action`` would capture (the engine applied to a copy)."""
        events = self.state.copy().apply(action)
        for ev in events:
            if ev.kind in ("play", "gaji", "discard", "draw"):
                return tuple(ev.cards)
        return ()

    def choice_for(self, card: int) -> Choice | None:
        """What the lifted ``card`` can do now (hand card in the play phase, drawn card in draw)."""
        st = self.state
        ch = Choice(card)
        if st.phase == "draw" and card == st.pending_draw:
            for a in st.legal_actions():
                if a.kind == "draw":
                    ch.targets[a.target] = a
            return ch
        if st.phase != "play" or card not in st.hand(st.to_move):
            return None
        for a in st.legal_actions():
            if a.kind not in ("play", "discard") or a.card != card:
                continue
            took = self.preview(a)
            if took and a.kind != "discard":
                for t in took:
                    ch.targets.setdefault(t, a)
            else:
                ch.open_field = a
        return ch

    # ------------------------------------------------------------------ moves
    def apply(self, action: Any) -> bool:
        """Apply an action through the match; an illegal one only shows the engine's reason."""
        m = self.match
        prev = m.round
        seat = prev.to_move
        number = m.round_number
        balances = m.balances
        try:
            events = m.apply(action)
        except engine.IllegalAction as exc:
            self.say_message(illegal_text(exc))
            return False
        self.actions.append((number, seat, str(action)))
        self.message = ""
        self.suggestion = ""
        self.choice = None
        ended = prev.outcome is not None
        if ended:
            self.display = (prev, number, balances)
            cut = next((i for i, e in enumerate(events) if e.kind == "settled"), len(events))
            self.director.play(events[:cut])
            n = self.shown_ledger
            self.after_queue = lambda: self.push_summary(prev, n)
        else:
            self.director.play(events)
            self.after_queue = self.sync_board
        self.write_autosave()
        return True

    def push_summary(self, round_state: Any, index: int) -> None:
        entry = self.match.ledger[index]
        self.shown_ledger = index + 1
        self.waiting_summary = True
        self.app.stack.push(
            scenes.create(
                "round-summary",
                self.app,
                entry=entry,
                round_state=round_state,
                names=self.names,
                rules=self.rules,
                match=self.match,
                autoplay=self.autoplay,
                viewer=self.viewer,
            )
        )

    def finish_match(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.record_ledger()
        self.clear_autosave()
        self.app.stack.replace(
            scenes.create(
                "match-result",
                self.app,
                match=self.match,
                names=self.names,
                rules=self.rules,
                autoplay=self.autoplay,
                config=self.config,
                viewer=self.viewer,
            )
        )

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self.director.update(dt)
        if self.message_left > 0:
            self.message_left -= dt
            if self.message_left <= 0:
                self.message = ""
        self.update_prompt(dt)
        if self.queue.busy or self.drag is not None:
            return
        if self.after_queue is not None:
            fn, self.after_queue = self.after_queue, None
            fn()
            return
        if self.prompt is not None or self.waiting_summary or self.match is None:
            return
        st = self.state
        if self.match.outcome is not None and st.outcome is not None:
            return
        p = st.to_move
        if p is None:
            return
        if p in self.opponents:
            self.cpu_turn(p, dt)
        else:
            self.human_turn(p)

    def cpu_turn(self, p: int, dt: float) -> None:
        if not self.thinker.busy:
            self.cpu_delay += dt
            if self.cpu_delay < CPU_PAUSE.get(self.queue.speed, 0.5):
                return
            self.thinker.submit(self.opponents[p], self.state.view(p))
            return
        result = self.thinker.poll()
        if result is None:
            return
        action, why = result
        self.cpu_delay = 0.0
        if not self.apply(action):
            raise RuntimeError(f"the {self.config.seats[p]} opponent chose an illegal {action}")
        if why and self.config.practice:
            self.log.append(gfx.tr("ui.log.reason", name=self.names[p], why=reason_text(why)))

    def human_turn(self, p: int) -> None:
        if len(self.humans) == 2 and p != self.viewer and not self.curtain:
            self.show_curtain(p)
            return
        self.director.hide_hands = {0, 1} if self.state.phase == "exchange" else set()
        self.prompt_for_phase()

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        if intent.kind == "move":
            self.pointer_pos = intent.pos
        if self.prompt is not None:
            self.prompt_handle(intent)
            return
        if intent.kind == "press" and self.match is not None:
            from koikoi_desktop.scenes.table_view import side_buttons

            for b in side_buttons(self):
                if b.enabled and b.rect.collidepoint(intent.pos):
                    b.on_click()
                    return
        if intent.kind == "back" and self.choice is None and self.drag is None:
            self.app.stack.push(scenes.create("pause", self.app, table=self))
            return
        if intent.kind == "alt_press" or (intent.kind == "key" and intent.key == pygame.K_m):
            card = self.card_at(intent.pos, face_up=True) if intent.kind == "alt_press" else 0
            if intent.kind == "key":
                card = self.reference_card()
            if card or intent.kind == "key":
                self.drag = None
                self.open_reference(card)
                return
        if self.queue.busy and intent.kind in ("press", "confirm", "alt_press"):
            self.queue.skip()
            return
        if intent.kind == "key" and intent.key == pygame.K_h:
            self.suggest()
            return
        if intent.kind == "key" and intent.key == pygame.K_u:
            self.undo()
            return
        if not self.my_turn():
            if intent.kind == "move":
                self.hover = self.card_at(intent.pos)
            return
        if intent.kind in ("press", "move", "release", "alt_press"):
            self.pointer(intent)
        else:
            self.keyboard(intent)

    def open_reference(self, card: int) -> None:
        """The month reference at ``card``'s month (right-click or M), pushed over the table.

        The table is only paused underneath (the stack updates the top scene alone), so the
        match, a computer move being thought about and the autosave are untouched; Esc on the
        reference returns to the same position. A lifted card is put back first."""
        if self.choice is not None or self.drag is not None:
            self.choice = None
            self.drag = None
            self.director.snap()
        kwargs: dict[str, Any] = {"rules": self.rules}
        if card:
            kwargs.update(month=(card + 3) // 4, card=card)
        self.app.stack.push(scenes.create("month-reference", self.app, **kwargs))

    def reference_card(self) -> int:
        """The card M refers to: the face-up card under the pointer, else the lifted card, else
        the keyboard focus (never a face-down card: its month is not the viewer's to know)."""
        pointed = self.card_at(self.pointer_pos, face_up=True) if self.pointer_pos else 0
        if pointed:
            return pointed
        if self.choice is not None:
            return self.choice.card
        if self.my_turn():
            cards = self.pickable()
            if cards and self.focus < len(cards):
                return cards[self.focus]
        return 0

    def card_at(self, pos: tuple[int, int], *, zone: str = "any", face_up: bool = False) -> int:
        """The topmost card sprite under ``pos`` (0 if none; ``face_up``: only cards showing
        their face)."""
        best, best_z = 0, -1
        b = self.director.board
        for c, sp in self.director.sprites.items():
            if face_up and not sp.face_up:
                continue
            if zone == "hand" and c not in b.hands[self.viewer]:
                continue
            if zone == "field" and c not in b.field:
                continue
            r = pygame.Rect(*map(round, sp.box))
            if r.collidepoint(pos) and sp.z > best_z:
                best, best_z = c, sp.z
        return best

    def pickable(self) -> list[int]:
        st = self.state
        if st.phase == "draw" and st.pending_draw:
            return [st.pending_draw]
        if st.phase == "play":
            return sorted(st.hand(st.to_move))
        return []

    def pointer(self, it: Intent) -> None:
        if it.kind == "alt_press":
            self.choice = None
            return
        if it.kind == "press":
            c = self.card_at(it.pos)
            pickable = self.pickable()
            if self.choice is not None and c != self.choice.card and c not in pickable:
                self.drop_choice(it.pos, click=True)
                return
            if c and c in pickable:
                sp = self.director.sprites[c]
                self.choice = self.choice_for(c)
                self.drag = Drag(
                    c,
                    (it.pos[0] - sp.box[0], it.pos[1] - sp.box[1]),
                    it.pos,
                    from_reveal=(c == self.state.pending_draw),
                )
                sp.z = 1000
            return
        if it.kind == "move":
            self.hover = self.card_at(it.pos)
            d = self.drag
            if d is None:
                return
            if abs(it.pos[0] - d.start[0]) + abs(it.pos[1] - d.start[1]) > DRAG_THRESHOLD:
                d.moved = True
            if d.moved:
                sp = self.director.sprites[d.card]
                sp.box = (it.pos[0] - d.offset[0], it.pos[1] - d.offset[1], sp.box[2], sp.box[3])
            return
        if it.kind == "release" and self.drag is not None:
            d, self.drag = self.drag, None
            if not d.moved:  # a click: the card stays lifted for a second click (or Enter)
                return
            self.drop_choice(it.pos, click=False)

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

    def drop_choice(self, pos: tuple[int, int], *, click: bool) -> None:
        """Resolve a drop (or the second click) of the lifted card at ``pos``."""
        ch = self.choice
        if ch is None:
            return
        target = self.drop_target(ch, pos, click=click)
        on_field = self.lay.field_band.collidepoint(pos) or self.lay.field_area.collidepoint(pos)
        if target:
            if target in ch.targets:
                self.apply(ch.targets[target])
            else:
                self.illegal(ch, target)
        elif on_field:
            if ch.open_field is not None:
                self.apply(ch.open_field)
            else:
                self.illegal(ch, 0)
        self.choice = None
        self.glide_back()

    def illegal(self, ch: Choice, target: int) -> None:
        """Ask the engine about the move the player meant; it refuses and says why."""
        st = self.state
        if st.phase == "draw":
            intended = engine.Action.draw(target) if target else engine.Action.play(ch.card)
        elif target:
            intended = engine.Action.play(ch.card, target)
        else:
            intended = engine.Action.discard(ch.card)
        self.apply(intended)  # the engine refuses: the reason is shown, nothing changes

    def glide_back(self) -> None:
        self.director.step(lambda: None, MOVE * 0.7)

    def keyboard(self, it: Intent) -> None:
        cards = self.pickable()
        if not cards:
            return
        ch = self.choice
        if ch is None:
            self.focus = max(0, min(self.focus, len(cards) - 1))
            if it.kind in ("left", "right"):
                self.focus = (self.focus + (1 if it.kind == "right" else -1)) % len(cards)
            elif it.kind == "confirm":
                self.choice = self.choice_for(cards[self.focus])
            return
        opts = ch.options()
        if it.kind == "back":
            self.choice = None
        elif it.kind in ("left", "right") and opts:
            ch.cursor = (ch.cursor + (1 if it.kind == "right" else -1)) % len(opts)
        elif it.kind == "confirm" and opts:
            t = opts[ch.cursor % len(opts)]
            self.apply(ch.targets[t] if t else ch.open_field)

    # ------------------------------------------------------------------ practice
    def suggest(self) -> None:
        """Practice mode: what the computer would do in the player's place (H)."""
        if not self.config.practice or not self.my_turn():
            return
        view = self.state.view(self.viewer)
        action, why = decide(make_opponent("intermediate", seed=self.seed), view)
        self.suggestion = gfx.tr(
            "ui.table.suggestion", move=self.action_text(action), why=reason_text(why)
        )

    def action_text(self, a: Any) -> str:
        if a.kind in ("play", "discard"):
            took = self.preview(a)
            if took:
                return f"{card_name(a.card)} → {', '.join(card_name(t) for t in took)}"
            return card_name(a.card)
        if a.kind == "draw":
            return card_name(a.target)
        return str(a)

    def can_undo(self) -> bool:
        m = self.match
        return (
            self.config.practice
            and m is not None
            and m.outcome is None
            and bool(m.round.moves)
            and any(self.is_human(p) for p in (0, 1))
        )

    def undo(self) -> None:
        """Practice mode: take back the human seat's last move of this round (U key, button).

        The round is rebuilt by replaying the match record without the removed moves (the engine
        replays deals from the record, so nothing else changes)."""
        if not self.can_undo() or self.queue.busy:
            return
        m = self.match
        number = m.round_number
        mine = [
            i for i, (n, seat, _) in enumerate(self.actions) if n == number and self.is_human(seat)
        ]
        if not mine:
            return
        drop = len(self.actions) - mine[-1]
        keep = len(m.round.moves) - drop
        if keep < 0:
            return
        lines = m.record_text().rstrip("\n").split("\n")
        for i in range(len(lines) - 1, -1, -1):
            if lines[i].startswith("moves"):
                lines[i] = ("moves " + "; ".join(str(a) for a in m.round.moves[:keep])).rstrip()
                break
        self.match = engine.replay_match("\n".join(lines) + "\n")
        del self.actions[mine[-1] :]
        self.thinker.cancel()
        self.choice = None
        self.cpu_delay = 0.0
        self.queue.skip()
        self.director.board.sync(self.match.round)
        self.director.snap()
        self.log.append(gfx.tr("ui.table.undone"))

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        from koikoi_desktop.scenes import table_view

        table_view.draw_table(self, surface)
