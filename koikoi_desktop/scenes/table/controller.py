"""The table's controller: one match, its seats, and what the player is doing with the cards.

No pygame and no drawing: tests drive a whole match through it without a window
(``tests/ui/test_table_controller.py``).

The controller owns the engine :class:`~koikoi_desktop.engine.Match` and decides what happens
next; every move goes through ``Match.apply``, so the UI never decides what is legal. It talks
to the scene above it in two ways:

* it takes the gesture machine's typed commands (:mod:`.gesture`: lift a card, it follows the
  pointer, aim at a target, let go, drop on a target or the field, put back, inspect), never a
  pixel; and keys, undo, suggest;
* it leaves *cues* in :attr:`TableController.cues` for the scene to carry out, in order: animate
  these engine events, deal, put the board at rest from a view, show the first dealer, ask a
  question (koi-koi, instant win, exchange), draw the hot-seat curtain, show the round summary,
  show the match result.

What happens once an animation has finished (re-read the board, then the next turn, or the
round summary) is held in :attr:`after` until the scene reports the table idle.

The lifted card: *idle* → *lifted* (a click or Enter chose a card; its lit targets wait for a
second click or Enter) → held or dragged (``grip``, as the gesture machine says; a drop
resolves it). How a press becomes a click, a drag or a long press is the gesture machine's
alone. A lifted card's targets come from the engine's legal actions, and *which* cards an
action would capture from applying it to a copy of the round. An illegal drop asks the engine
anyway and shows its one-line reason; the engine changes nothing.

Seats are ``"human"`` or an opponent level. Two human seats are hot seat: a curtain hides the
hands between turns and the player to move sits at the bottom. Computer seats think through the
one :class:`~koikoi_desktop.ai.Thinker` after a short pause so each move can be followed.

The view draws a :class:`TableSnapshot` built from the viewer's
:class:`~koikoi_desktop.engine.PlayerView`: it never sees a hand its seat may not see.

Three collaborators it holds do the rest, each pygame-free: :class:`~.seats.ComputerSeats`
(the computer seats, the pause before each move and the thinking in the background),
:class:`~.coaching.TableCoach` (the coach's judgements of the person's decisions) and
:class:`~.recording.TableRecording` (the match saved after every move and recorded in the ledger
when it ends).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from koikoi_desktop import engine
from koikoi_desktop.ai import Opponent, Thinker, decide, make_opponent
from koikoi_desktop.engine import Action, Event, FirstDealer, Match, PlayerView, RoundState
from koikoi_desktop.engine.chance import SEED_BOUND
from koikoi_desktop.engine.yaku import scorer_for
from koikoi_desktop.i18n import Key, Label, Words, say
from koikoi_desktop.review.coach import Coach, CoachNote, decision_point
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.coaching import COACH_SECONDS, TableCoach
from koikoi_desktop.scenes.table.gesture import (
    Aim,
    Command,
    Drop,
    Follow,
    Inspect,
    LetGo,
    Lift,
    PutBack,
)
from koikoi_desktop.scenes.table.recording import TableRecording
from koikoi_desktop.scenes.table.seats import ComputerSeats
from koikoi_desktop.scenes.table.snapshot import TableSnapshot
from koikoi_desktop.scenes.table.text import (
    SAYS_ONLY_THE_MOVE,
    LogLine,
    coach_text,
    illegal_text,
    logs,
)
from koikoi_desktop.storage import Notice, Storage
from koikoi_desktop.storage.recorder import HELP_LEVELS as RECORDED_HELP
from koikoi_desktop.storage.recorder import Ending, MatchRecorder, Resumed, new_match_id
from koikoi_desktop.ui.helps import HELP_LEVELS, shows
from koikoi_desktop.ui.intents import IntentKind
from koikoi_desktop.words.names import SeatNames
from koikoi_desktop.words.reasons import reason_text

MESSAGE_SECONDS = 4.0

DECLARE = engine.Action.from_text("declare")

Pos = tuple[int, int]
Pair = tuple[int | None, int | None]


@dataclass
class Choice:
    """A lifted card and what it can do: target card -> action, and the open-field action."""

    card: int
    targets: dict[int, Action] = field(default_factory=dict)
    open_field: Action | None = None
    cursor: int = 0

    def options(self) -> list[int]:
        """Keyboard order: the targets, then 0 for the open field."""
        opts = sorted(self.targets)
        if self.open_field is not None:
            opts.append(0)
        return opts


# ------------------------------------------------------------------------------ cues
@dataclass(frozen=True, slots=True)
class ShowFirstDealer:
    """Show how the first dealer was chosen; ``first_dealer_seen`` continues."""

    first: FirstDealer


@dataclass(frozen=True, slots=True)
class Deal:
    """Animate the deal of a new round as ``view``'s seat sees it, then ``later`` events."""

    view: PlayerView
    later: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Animate:
    """Animate engine events (a move)."""

    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Rest:
    """Put the board at rest exactly as ``view``'s seat sees it (hands hidden: ``curtain``)."""

    view: PlayerView
    curtain: bool = False


Question = Literal["decide", "declare", "exchange"]


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask ``seat`` (a person) the ``question`` of this position; answer with ``answer`` or
    ``decline``."""

    question: Question
    seat: int
    key: tuple[int, int, str]


@dataclass(frozen=True, slots=True)
class Curtain:
    """Hot seat: hide both hands until ``seat``'s player is ready (``curtain_lifted``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ShowSummary:
    """Show round ``index`` of the ledger (``round_state``: the round as it ended, or None for
    a round settled at the deal); ``summary_seen`` continues."""

    index: int
    round_state: RoundState | None


@dataclass(frozen=True, slots=True)
class ShowResult:
    """The match is over (``ending``: "" or "conceded")."""

    ending: str


Cue = ShowFirstDealer | Deal | Animate | Rest | Ask | Curtain | ShowSummary | ShowResult


# ------------------------------------------------------------------------------ controller
class TableController:
    """One match on the table (see the module docstring)."""

    def __init__(
        self,
        config: MatchConfig,
        *,
        names: SeatNames | tuple[str, str],
        thinker: Thinker,
        storage: Storage | None = None,
        warnings: list[Notice | str] | None = None,
        record_computer: bool = False,
        speed: str = "normal",
        birth_date: dt.date | None = None,
        is_animating: Callable[[], bool] = lambda: False,
        coach: Coach | None = None,
        coach_on: Callable[[], bool] = lambda: True,
    ) -> None:
        self.config = config
        self.rules = config.rules
        # A new match's seed is fixed here, before any card, and kept hidden behind the
        # match's commitment until it ends (engine.chance): too many seeds to guess from it.
        self.seed = config.seed if config.seed is not None else secrets.randbelow(SEED_BOUND)
        #: The computer seats and their thinking (:mod:`.seats`).
        self.computers = ComputerSeats(config.seats, seed=self.seed, thinker=thinker)
        self.humans = [p for p in (0, 1) if config.seats[p] == "human"]
        self.viewer = self.humans[0] if self.humans else 0
        #: The seats' names as facts (what a person typed, else the seat's kind and level).
        self.seat_names = names if isinstance(names, SeatNames) else SeatNames(config.seats, names)
        #: The match saved after every move and put in the ledger (:mod:`.recording`).
        self.recording = TableRecording(
            storage, warnings if warnings is not None else [], record_computer=record_computer
        )
        self.speed = speed
        self.birth_date = birth_date
        self.is_animating = is_animating
        self.cues: deque[Cue] = deque()
        #: What to do once the animation now queued has finished (the scene reports idle).
        self.after: Callable[[], None] | None = None
        self.stage: Literal["new", "first", "play", "summary", "finished"] = "new"
        self.match: Match | None = None
        self.first: FirstDealer | None = None
        #: (round number, seat, action text) of every move made at this table.
        self.actions: list[tuple[int, int | None, str]] = []
        self.shown_ledger = 0
        #: While a finished round is still being animated (the engine has already dealt the
        #: next one), the table shows it: (round state, number, balances before).
        self.display: tuple[RoundState, int, tuple[int, int]] | None = None
        self.lifted: Choice | None = None
        #: How the pointer holds the lifted card: not at all (lifted by a click or a key),
        #: held by a press, or dragged (it follows the pointer); the gesture machine says so.
        self.grip: Literal["none", "held", "dragging"] = "none"
        #: The lit target the lifted card points at (drawn brighter; 0: none).
        self.aimed = 0
        #: The card shown enlarged with its facts (0: none).
        self.inspected = 0
        self.focus = 0
        #: The keyboard is being used for the cards: only then is its focus shown (a pointer
        #: player must not see a mark on a hand card that looks like a choice).
        self.keyboard_used = False
        #: The one-line message and the practice suggestion, kept as what words them (worded
        #: when drawn, so a language change rewords them too; "" for none).
        self._message: Label = ""
        self.message_left = 0.0
        self._suggestion: Label = ""
        self.curtain = False
        #: Something has the player's attention (a question, the curtain, or the guided
        #: round's explanation): the table waits and the cards may not move.
        self.asking = False
        self.asked: tuple[int, int, str] | None = None
        self.declined: tuple[int, int, str] | None = None
        #: The move log as facts, oldest first (see :class:`~.text.LogLine`).
        self.log: list[LogLine] = []
        #: A computer's reason (practice), told once the line of the event that begins its
        #: move is in the log (keyed by that event's identity).
        self._reasons_due: dict[int, LogLine] = {}
        self.finished = False
        #: A lesson's veto on a person's move (the guided round): called with the action before
        #: the engine sees it; a sentence refuses the move (shown like an illegal move's reason,
        #: nothing changes), "" lets it through to the engine.
        self.veto: Callable[[Action], Label] | None = None
        #: The coach (:mod:`.coaching`): judges the person's decisions in the background at
        #: help level full; ``coach_on`` reads the setting that turns it off, when asked.
        self.table_coach = TableCoach(coach, coach_on)
        #: The message line is the coach's: a computer's move does not clear it (it fades).
        self._coach_message = False

    # ------------------------------------------------------------------ collaborators
    @property
    def opponents(self) -> dict[int, Opponent]:
        """The computer seats' players (seat -> opponent)."""
        return self.computers.opponents

    @property
    def thinker(self) -> Thinker:
        return self.computers.thinker

    @property
    def coach(self) -> Coach | None:
        return self.table_coach.coach

    @property
    def recorder(self) -> MatchRecorder | None:
        return self.recording.recorder

    # ------------------------------------------------------------------ set-up
    def start(self) -> None:
        """A new match: the first dealer is chosen as the preset says, then shown; a deal
        played again (``config.deal``, from the review) starts with its dealer and its cards."""
        if self.config.deal is not None:
            dealer, decks = self.config.deal
            self.match = engine.Match(
                self.rules,
                first_dealer=engine.FirstDealer(dealer, "replay"),
                seed=self.seed,
                decks=decks,
            )
            self.first = self.match.first_draw
            self._recorder(new_match_id())
            self.stage = "play"
            self.start_round()
            return
        ages, months = self.first_dealer_ages()
        # the engine draws the first dealer from the match's own stream for it (the cards go
        # back: every deal shuffles all 48 from another stream), and records the draw
        self.match = engine.new_match(self.rules, seed=self.seed, ages=ages, birth_months=months)
        self.first = self.match.first_draw
        self._recorder(new_match_id())
        self.stage = "first"
        self.asking = True
        self.cues.append(ShowFirstDealer(self.first))

    def first_dealer_seen(self) -> None:
        """The first-dealer prompt was closed: deal the first round."""
        self.asking = False
        self.stage = "play"
        self.start_round()

    def restore(self, data: Resumed) -> None:
        """Put a resumed saved match (:func:`koikoi_desktop.storage.recorder.resume`, already
        replayed and checked) on the table."""
        self.match = data.match
        self.rules = data.match.rules
        seats = data.seats
        self.config = MatchConfig(
            self.rules, seats, data.match.seed, data.practice, help_level=data.help_level
        )
        # the same seeds as when the match started: each decision's randomness comes from the
        # seed and the position (ai.base rng_for), so the computer plays on as it would have
        seed = data.match.seed
        if seed is not None:
            self.seed = seed
        self.computers.seat(seats, seed=seed)
        self.humans = [p for p in (0, 1) if seats[p] == "human"]
        self.viewer = self.humans[0] if self.humans else 0
        # a name a person typed stays as typed; a default name is rendered anew
        self.seat_names = SeatNames.from_saved(seats, data.names)
        self.config.names = self.seat_names
        recorder = self._recorder(data.match_id)
        self.shown_ledger = len(data.match.ledger)
        self.stage = "play"
        self.cues.append(Rest(self.view()))
        rounds, self.actions, firsts = replay(data.match)  # the moves Undo may take back, too
        recorder.reasons = list(data.reasons)
        told: dict[int, LogLine] = {}
        for n, why in data.reasons:
            first = firsts[n] if 0 <= n < len(firsts) else None
            seat = self.actions[n][1] if 0 <= n < len(self.actions) else None
            if first is not None and seat is not None:
                told[id(first)] = LogLine("reason", seat=seat, why=why)
        self.log = self.replayed_log(data.match, rounds, told)
        self.log.append(LogLine("resumed"))
        if data.match.outcome is not None:
            # saved after the match's last move (closed on the last round summary): show that
            # summary again, then the result, which records the match and clears the autosave
            self.shown_ledger = max(0, len(data.match.ledger) - 1)
            self.after = self.start_round

    def fast_forward(self, until: Literal["round-summary", "match-result"]) -> None:
        """``--scene round-summary`` / ``match-result``: the computer seats play at once (on
        this thread, no animation) to the end of the first round or of the match, and that
        screen is shown over the table as in a real match."""
        m = self.played()
        last = m.round
        self.stage = "play"
        self.asking = False
        for _ in range(20000):  # a whole match is a few hundred moves
            if m.outcome is not None or (until == "round-summary" and m.ledger):
                break
            last = m.round
            p = last.to_move
            assert p is not None
            action, _ = self.computers.now(p, m)
            self.actions.append((m.round_number, p, str(action)))
            m.apply(action)
        shown = last if until == "round-summary" else m.round
        self.cues.append(Rest(shown.view(self.viewer)))
        if until == "round-summary" and m.ledger:
            self.display = (last, 1, m.balances)
            self._summary(last, 0)
        else:
            self.finish()

    def replayed_log(
        self,
        match: Match,
        rounds: list[tuple[int, tuple[Event, ...]]] | None = None,
        told: dict[int, LogLine] | None = None,
    ) -> list[LogLine]:
        """The move log of ``match`` as the table wrote it while it was played: its record's
        moves replayed through the engine, round by round, as the same facts (a round's
        heading, then each event the log tells, and after the event that begins a computer's
        move its practice reason, from ``told``: event identity -> line). The coach's
        verdicts are not part of the record and are not rebuilt."""
        out: list[LogLine] = []
        told = told or {}
        for number, history in rounds if rounds is not None else round_histories(match):
            out.append(LogLine("round", n=number))
            for e in history:
                if logs(e):
                    out.append(LogLine.of(e))
                    if id(e) in told:
                        out.append(told[id(e)])
        return out

    def first_dealer_ages(self) -> tuple[Pair, Pair]:
        """Ages and birth months for the seed-000 / seed-001 dealer rules: a human's from the
        birth date in the settings (None when not given), a computer's from its persona."""
        bd = self.birth_date
        ages: list[int | None] = [None, None]
        months: list[int | None] = [None, None]
        for p in (0, 1):
            opp = self.opponents.get(p)
            if opp is not None:
                ages[p] = int(opp.persona.age)
                months[p] = int(opp.persona.birth_month)
            elif bd is not None and p in self.humans and len(self.humans) == 1:
                today = dt.date.today()
                ages[p] = today.year - bd.year - ((today.month, today.day) < (bd.month, bd.day))
                months[p] = bd.month
        return (ages[0], ages[1]), (months[0], months[1])

    def _recorder(self, match_id: str) -> MatchRecorder:
        """The recorder of this match (see :meth:`.recording.TableRecording.begin`)."""
        return self.recording.begin(
            match_id,
            seats=self.config.seats,
            names=self.seat_names.typed,
            rules=self.rules,
            practice=self.config.practice,
            recorded=self.config.recorded,
            help_level=self.config.help_level,
        )

    def start_round(self) -> None:
        """Show summaries of rounds settled at the deal, then deal the current round."""
        m = self.played()
        if len(m.ledger) > self.shown_ledger:
            self._summary(None, self.shown_ledger)
            return
        if m.outcome is not None:
            self.finish()
            return
        self.display = None
        self.log.append(LogLine("round", n=m.round_number))
        later = tuple(e for e in m.round.history if e.kind != "deal")
        self.cues.append(Deal(self.view(), later))
        self.after = self._rest

    def _rest(self) -> None:
        if self.played().outcome is None:
            self.cues.append(Rest(self.view(), self.curtain))

    def _summary(self, round_state: RoundState | None, index: int) -> None:
        self.shown_ledger = index + 1
        self.stage = "summary"
        self.cues.append(ShowSummary(index, round_state))

    def summary_seen(self) -> None:
        """The round summary was closed: on to the next round (or the result)."""
        self.stage = "play"
        self.start_round()

    def finish(self, ending: Ending = "completed", winner: int | None = -1) -> None:
        """The match is over (or conceded): record it and show the result, once."""
        if self.finished:
            return
        self.finished = True
        self.stage = "finished"
        self.record(ending, winner)
        self.cues.append(ShowResult("conceded" if ending == "conceded" else ""))

    def concede(self) -> None:
        """The player at the bottom gives up the match (the pause menu)."""
        if self.match is not None:
            self.finish("conceded", 1 - self.viewer)

    def end_now(self) -> None:
        """End the match now, where the preset allows it (the pause menu)."""
        self.played().end_now()
        self.finish()

    # ------------------------------------------------------------------ reading
    def names(self, words: Words) -> tuple[str, str]:
        """The seats' names in ``words``."""
        return self.seat_names.now(words)

    def played(self) -> Match:
        """The match (an error before ``start`` / ``restore``)."""
        if self.match is None:
            raise RuntimeError("no match on the table yet")
        return self.match

    @property
    def state(self) -> RoundState:
        """The engine's round in play (for the controller and tests; the view never reads it)."""
        return self.played().round

    def view(self, seat: int | None = None) -> PlayerView:
        """``seat``'s (default: the viewer's) view of the round in play."""
        return self.state.view(self.viewer if seat is None else seat)

    def is_human(self, p: int | None) -> bool:
        return p is not None and self.config.seats[p] == "human"

    @property
    def dealer_known(self) -> bool:
        """False while the first dealer is still being shown (the header must not tell)."""
        return self.stage not in ("new", "first")

    def yaku_cards(self, ev: Event) -> tuple[int, ...]:
        """The cards of the yaku a ``YakuMade`` event names (a ``Stopped`` event: every yaku
        the seat stops with), from the engine's scoring of that seat's captures in the round on
        show (empty for any other event)."""
        if not isinstance(ev, (engine.YakuMade, engine.Stopped)) or self.match is None:
            return ()
        st = self.display[0] if self.display is not None else self.match.round
        out: list[int] = []
        for y in st.yaku(ev.player):
            if isinstance(ev, engine.Stopped) or y.key in ev.keys:
                out.extend(c for c in y.cards if c not in out)
        return tuple(out)

    def my_turn(self) -> bool:
        """The person at the bottom may act on the cards now."""
        if self.match is None or self.stage != "play":
            return False
        st = self.match.round
        return (
            st.outcome is None
            and self.is_human(st.to_move)
            and st.to_move == self.viewer
            and not self.curtain
            and not self.asking
            and not self.busy
        )

    @property
    def busy(self) -> bool:
        """Something is still to be shown: cards are moving, or cues wait for the scene."""
        return self.is_animating() or bool(self.cues)

    def pickable(self) -> list[int]:
        """The cards the person at the bottom may pick up now (the drawn card to place, or the
        hand in the play phase)."""
        if not self.my_turn():
            return []
        v = self.view()
        if v.phase == "draw" and v.pending_draw:
            return [v.pending_draw]
        if v.phase == "play":
            return sorted(v.hand)
        return []

    def choice_for(self, card: int) -> Choice | None:
        """What the lifted ``card`` can do now (hand card in the play phase, drawn card in the
        draw phase); None for a card that cannot move."""
        st = self.state
        ch = Choice(card)
        if st.phase == "draw" and card == st.pending_draw:
            for a in st.legal_actions():
                if a.kind == "draw":
                    ch.targets[a.target] = a
            return ch
        if st.phase != "play" or st.to_move is None or card not in st.hand(st.to_move):
            return None
        for a in st.legal_actions():
            if a.kind not in ("play", "discard") or a.card != card:
                continue
            took = st.captures(a)
            if took and a.kind != "discard":
                for t in took:
                    ch.targets.setdefault(t, a)
            else:
                ch.open_field = a
        return ch

    def snapshot(self, words: Words) -> TableSnapshot:
        """What the view draws now, worded in ``words`` (see :class:`TableSnapshot`)."""
        m = self.played()
        if self.display is not None:
            st, number, balances = self.display
        else:
            st, number, balances = m.round, m.round_number, m.balances
        view = st.view(self.viewer)
        scorer = scorer_for(self.rules)
        ch = self.lifted
        cursor = -1
        if ch is not None and self.grip == "none":
            opts = ch.options()
            cursor = opts[ch.cursor % len(opts)] if opts else -1
        focus = 0
        targets = shows(self.config.help_level, "targets")  # help level: lit targets
        mine = self.my_turn()
        if mine and ch is None and self.grip == "none" and self.keyboard_used:
            cards = self.pickable()
            if cards and self.focus < len(cards):
                focus = cards[self.focus]
        capturable: frozenset[int] = frozenset()
        idle = ch is None and self.grip == "none" and not (self.asking or self.curtain)
        if targets and mine and idle and view.phase == "play":
            capturable = frozenset(
                a.card for a in view.legal if a.kind == "play" and view.captures(a)
            )
        return TableSnapshot(
            view=view,
            words=words,
            round_number=number,
            balances=balances,
            bases=(scorer.base(view.cap_masks[0]), scorer.base(view.cap_masks[1])),
            names=self.names(words),
            viewer=self.viewer,
            rules=self.rules,
            practice=self.config.practice,
            show_tracker=shows(self.config.help_level, "tracker"),
            show_hints=shows(self.config.help_level, "hints"),
            computers=frozenset(self.opponents),
            dealer_known=self.dealer_known,
            my_turn=mine,
            curtain=self.curtain,
            lifted=ch.card if ch is not None else 0,
            held=self.grip != "none",
            dragging=self.grip == "dragging",
            hot=self.aimed if ch is not None else 0,
            inspected=self.inspected,
            asking=self.asking or self.curtain,
            lit=frozenset(ch.targets) if ch is not None and targets else frozenset(),
            open_field=ch is not None and ch.open_field is not None and (targets or cursor == 0),
            cursor=cursor,
            focus=focus,
            message=say(self._message, words),
            suggestion=say(self._suggestion, words),
            log=tuple(self.log),
            can_undo=self.can_undo(),
            title=say(self.config.title, words),
            capturable=capturable,
        )

    # ------------------------------------------------------------------ the frame
    def tick(self, dt: float) -> None:
        """Time passes (the table's animation clock): the one-line message fades."""
        if self.message_left > 0:
            self.message_left -= dt
            if self.message_left <= 0:
                self._message = ""

    def update(self, dt: float) -> None:
        """Once a frame, after the animation: the next step of the match when the table is
        idle (nothing moving, no cue waiting for the scene, no card held)."""
        self._coach_heard()
        if self.busy or self.grip != "none":
            return
        if self.after is not None:
            fn, self.after = self.after, None
            fn()
            # a board put at rest is instant: the next step (a question) comes with it
            if self.is_animating() or any(not isinstance(q, Rest) for q in self.cues):
                return
        if self.stage != "play" or self.asking or self.match is None:
            return
        st = self.match.round
        if self.match.outcome is not None and st.outcome is not None:
            return
        p = st.to_move
        if p is None:
            return
        if p in self.opponents:
            self._computer_turn(p, dt)
        else:
            self._human_turn(p)

    def set_help_level(self, level: str) -> None:
        """The help level chosen in Settings during the match (issue 43): it is in force from
        now on (lit targets, the raised hand cards, the tracker, the panel's numbers, hints,
        the coach). The match is recorded with the most help it was played with, so the
        ledger never says a match had less help than it did (:data:`HELP_LEVELS` runs from
        the most help to the least)."""
        if level == self.config.help_level:
            return
        self.config.help_level = level
        if self.recorder is not None:
            most = min(self.recorder.help_level, level, key=HELP_LEVELS.index)
            self.recorder.help_level = RECORDED_HELP[most]

    @property
    def coaching(self) -> bool:
        """The coach judges the person's decisions now (see :meth:`.coaching.TableCoach.
        judges`)."""
        return self.table_coach.judges(
            help_level=self.config.help_level, people=len(self.humans), lesson=self.veto is not None
        )

    def _coach_heard(self) -> None:
        """A judgement is back (or late and dropped): a mistake or a blunder becomes the coach's
        line in the log and on the message line."""
        stopped, j = self.table_coach.heard(at_rest=not self.busy)
        if stopped:  # its worker died: said once
            self.say(Key("ui.coach.stopped"))
        if j is None:
            return
        m = self.played()
        undo = self.config.practice and j.round == m.round_number and self.can_undo()
        note = CoachNote.of(j, undo=undo)
        self.log.append(LogLine("coach", note=note))
        self.say(lambda w: coach_text(w, note), COACH_SECONDS)
        self._coach_message = True

    def _computer_turn(self, p: int, dt: float) -> None:
        result = self.computers.turn(p, dt, self.played(), self.speed)
        if result is None:
            return
        action, why = result
        told = bool(why) and self.config.practice and why.key not in SAYS_ONLY_THE_MOVE
        if told and self.recorder is not None:  # saved with the move (Continue tells it)
            self.recorder.reasons.append((len(self.actions), why))
        events = self._apply(action)
        if events is None:
            raise RuntimeError(f"the {self.config.seats[p]} opponent chose an illegal {action}")
        first = next((e for e in events if logs(e)), None)
        if told and first is not None:  # told right after the move's own line, as it shows
            self._reasons_due[id(first)] = LogLine("reason", seat=p, why=why)

    def _human_turn(self, p: int) -> None:
        step = self._human_step(p)
        if step is not None:
            step()

    def _human_step(self, p: int) -> Callable[[], None] | None:
        """What the table does next for person ``p`` to move, without doing it: hot seat's
        curtain, the drawn card lifted, or a question asked (None: it waits for the person)."""
        if len(self.humans) == 2 and p != self.viewer and not self.curtain:

            def curtain() -> None:
                self.curtain = True
                self.asking = True
                self.cues.append(Curtain(p))

            return curtain
        st = self.state
        if st.phase == "draw" and st.pending_draw and self.lifted is None and self.my_turn():
            # the drawn card matches two field cards: it is lifted with both lit, so a click
            # on either, a drag, or left/right and Enter chooses
            drawn = st.pending_draw

            def lift() -> None:
                self.lifted = self.choice_for(drawn)

            return lift
        key = (self.played().round_number, len(st.moves), st.phase)
        if self.asked == key or self.declined == key:
            return None
        legal = st.legal_actions()
        question: Question
        if st.phase == "decide":
            question = "decide"
        elif st.phase in ("declare", "play") and DECLARE in legal:
            question = "declare"
        elif st.phase == "exchange":
            question = "exchange"
        else:
            return None

        def ask() -> None:
            self.asked = key
            self.asking = True
            self.cues.append(Ask(question, p, key))

        return ask

    def waits_for_person(self) -> bool:
        """The table has nothing to do until the person acts (the app may sleep on input):
        no move shown, nothing to carry out next, no curtain to draw, card to lift or question
        to ask (issue 43: the koi-koi question waited for the next input event)."""
        if self.busy or self.grip != "none" or self.after is not None or self.match is None:
            return False
        if self.stage != "play":
            return False
        st = self.match.round
        p = st.to_move
        if st.outcome is not None or p is None or not self.is_human(p):
            return self.asking
        return self.asking or self._human_step(p) is None

    # ------------------------------------------------------------------ answers to cues
    def answer(self, action: Action) -> bool:
        """The open question was answered with ``action``; an answer refused (by the engine or
        a lesson's veto) leaves the question to be asked again."""
        self.asking = False
        if self.apply(action):
            return True
        self.asked = None
        return False

    def decline(self, key: tuple[int, int, str]) -> None:
        """An instant win offered during play was not declared: play on."""
        self.asking = False
        self.declined = key

    def dismiss(self) -> None:
        """A question was closed without an answer (a quit prompt over it); ask again later."""
        self.asking = False
        self.asked = None

    def curtain_lifted(self, seat: int) -> None:
        """Hot seat: ``seat``'s player is at the table; the board turns to face them."""
        self.viewer = seat
        self.curtain = False
        self.asking = False
        self.cues.append(Rest(self.view()))

    # ------------------------------------------------------------------ moves
    def apply(self, action: Action) -> bool:
        """Apply an action through the match; an illegal one only shows the engine's reason."""
        return self._apply(action) is not None

    def _apply(self, action: Action) -> tuple[Event, ...] | None:
        """:meth:`apply`, with the move's events (None: refused)."""
        m = self.played()
        prev = m.round
        seat = prev.to_move
        number = m.round_number
        balances = m.balances
        refusal = self.veto(action) if self.veto is not None and self.is_human(seat) else ""
        if refusal:
            self.say(refusal)
            return None
        # the decision as the review will see it, taken before the move changes the round
        point = decision_point(m, action) if self.is_human(seat) and self.coaching else None
        try:
            events = m.apply(action)
        except engine.IllegalAction as exc:
            refused = exc
            self.say(lambda w: illegal_text(w, refused))
            return None
        if point is not None:
            self.table_coach.ask(point)
        self.actions.append((number, seat, str(action)))
        if self.is_human(seat) or not self._coach_message:
            self._message = ""
            self._coach_message = False
        self._suggestion = ""
        self.lifted = None
        self.aimed = 0
        if prev.outcome is not None:
            self.display = (prev, number, balances)
            cut = next((i for i, e in enumerate(events) if e.kind == "settled"), len(events))
            self.cues.append(Animate(tuple(events[:cut])))
            n = self.shown_ledger

            def summary() -> None:
                self._summary(prev, n)

            self.after = summary
        else:
            self.cues.append(Animate(tuple(events)))
            self.after = self._rest
        self.save()
        return tuple(events)

    def logged(self, ev: Event) -> None:
        """An event with a line reached the move log as it showed; a computer's reason for
        the move it begins follows it (practice)."""
        self.log.append(LogLine.of(ev))
        reason = self._reasons_due.pop(id(ev), None)
        if reason is not None:
            self.log.append(reason)

    def say(self, text: Label, seconds: float = MESSAGE_SECONDS) -> None:
        """A one-line message for the player (it fades after ``seconds``), worded when drawn."""
        self._message = text
        self.message_left = seconds
        self._coach_message = False

    @property
    def message(self) -> Label:
        """The one-line message, to word when drawn ("" for none)."""
        return self._message

    @message.setter
    def message(self, text: Label) -> None:
        self._message = text

    @property
    def suggestion(self) -> Label:
        """Practice: the suggested move, to word when drawn ("" for none)."""
        return self._suggestion

    # ------------------------------------------------------------------ the held card
    @property
    def hold(self) -> Literal["idle", "lifted", "dragging"]:
        """The held card's state (see the module docstring)."""
        if self.grip != "none":
            return "dragging"
        return "lifted" if self.lifted is not None else "idle"

    def command(self, cmd: Command) -> None:
        """Carry out a command of the gesture machine (:mod:`.gesture`)."""
        if isinstance(cmd, Lift):
            if cmd.card in self.pickable():
                self.keyboard_used = False
                self.lifted = self.choice_for(cmd.card)
                self.grip = "held"
                self.aimed = 0
        elif isinstance(cmd, Follow):
            if self.lifted is not None:
                self.grip = "dragging"
        elif isinstance(cmd, Aim):
            self.aimed = cmd.target
        elif isinstance(cmd, LetGo):
            self.grip = "none"
        elif isinstance(cmd, Drop):
            self.grip = "none"
            self.drop(cmd.target, on_field=cmd.on_field)
        elif isinstance(cmd, PutBack):
            self.put_back()
        elif isinstance(cmd, Inspect):
            self.inspected = cmd.card

    def put_back(self) -> None:
        """Nothing is held any more."""
        self.lifted = None
        self.grip = "none"
        self.aimed = 0

    def drop(self, target: int, *, on_field: bool) -> None:
        """The lifted card was dropped (or a second click made) on field card ``target`` (0:
        none), ``on_field`` when inside the field: a lit target takes it; a card that may only
        be placed is placed wherever it lands in the field (on another card too); a wrong
        target is refused with the engine's reason; off the field nothing happens."""
        ch = self.lifted
        if ch is None:
            return
        if target in ch.targets:
            self.apply(ch.targets[target])
        elif target and on_field and ch.open_field is not None:
            self.apply(ch.open_field)  # a card with no match may go anywhere on the field
        elif target:
            self._refused(ch, target)
        elif on_field:
            if ch.open_field is not None:
                self.apply(ch.open_field)
            else:
                self._refused(ch, 0)
        self.lifted = None

    def _refused(self, ch: Choice, target: int) -> None:
        """Ask the engine about the move the player meant; it refuses and says why."""
        st = self.state
        if st.phase == "draw":
            intended = Action.draw(target) if target else Action.play(ch.card)
        elif target:
            intended = Action.play(ch.card, target)
        else:
            intended = Action.discard(ch.card)
        self.apply(intended)  # the engine refuses: the reason is shown, nothing changes

    def key(self, kind: IntentKind) -> None:
        """Keyboard play: left/right pick a card, confirm lifts it; then left/right pick a target
        (or the open field), confirm plays, back puts it back."""
        cards = self.pickable()
        if not cards:
            return
        self.keyboard_used = True
        ch = self.lifted
        if ch is None:
            self.focus = max(0, min(self.focus, len(cards) - 1))
            if kind in (IntentKind.LEFT, IntentKind.RIGHT):
                self.focus = (self.focus + (1 if kind == IntentKind.RIGHT else -1)) % len(cards)
            elif kind == IntentKind.CONFIRM:
                self.lifted = self.choice_for(cards[self.focus])
                self.aimed = 0
            return
        opts = ch.options()
        if kind == IntentKind.BACK:
            self.lifted = None
        elif kind in (IntentKind.LEFT, IntentKind.RIGHT) and opts:
            ch.cursor = (ch.cursor + (1 if kind == IntentKind.RIGHT else -1)) % len(opts)
        elif kind == IntentKind.CONFIRM and opts:
            t = opts[ch.cursor % len(opts)]
            chosen = ch.targets[t] if t else ch.open_field
            if chosen is not None:
                self.apply(chosen)

    # ------------------------------------------------------------------ practice
    def suggest(self) -> None:
        """Practice mode: what the computer would do in the player's place (H)."""
        if not self.config.practice or not self.my_turn():
            return
        helper = make_opponent("intermediate", seed=self.seed)
        context = self.played().context(self.viewer)
        action, why = decide(helper, self.view(), context)
        took = self.state.captures(action) if action.kind in ("play", "discard") else ()

        def words(w: Words) -> str:
            move = self.action_text(w, action, took)
            return w.t("ui.table.suggestion", move=move, why=reason_text(w, why))

        self._suggestion = words

    def action_text(self, words: Words, a: Action, took: tuple[int, ...] | None = None) -> str:
        """A move in ``words`` (``took``: what a play captures, default: in the round now)."""
        if a.kind in ("play", "discard"):
            took = self.state.captures(a) if took is None else took
            if took:
                taken = ", ".join(words.card_name(t) for t in took)
                return f"{words.card_name(a.card)} → {taken}"
            return words.card_name(a.card)
        if a.kind == "draw":
            return words.card_name(a.target)
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

    def undo(self) -> bool:
        """Practice mode: take back the human seat's last move of this round (U, the button);
        True when a move was taken back."""
        if not self.can_undo() or self.busy:
            return False
        m = self.played()
        number = m.round_number
        mine = [
            i for i, (n, seat, _) in enumerate(self.actions) if n == number and self.is_human(seat)
        ]
        if not mine:
            return False
        m.undo(self.actions[mine[-1]][1])
        del self.actions[mine[-1] :]
        if self.recorder is not None:  # the reasons of moves taken back are not saved
            self.recorder.reasons = [r for r in self.recorder.reasons if r[0] < len(self.actions)]
        self.computers.cancel()
        self.table_coach.drop()  # a verdict on a move taken back is not said
        self.lifted = None
        self.cues.append(Rest(self.view()))
        self.log.append(LogLine("undone"))
        return True

    # ------------------------------------------------------------------ recording
    def save(self) -> None:
        """Save the match in progress (after every move; the pause menu, quitting)."""
        for key in self.recording.save(self.match):
            self.say(Key(f"ui.storage.{key}"))

    def record(self, ending: Ending = "completed", winner: int | None = -1) -> None:
        """Record the ended match in the ledger (once; its saved row goes with it)."""
        for key in self.recording.record(self.match, ending, winner):
            self.say(Key(f"ui.storage.{key}"))

    def close(self) -> None:
        """The table is left: stop thinking."""
        self.computers.close()
        self.table_coach.close()


Move = tuple[int, int | None, str]


def round_histories(match: Match) -> list[tuple[int, tuple[Event, ...]]]:
    """Each round of ``match`` that was played at the table (not one settled at the deal),
    with its number and its public events as the table saw them (see :func:`replay`)."""
    return replay(match)[0]


def replay(
    match: Match,
) -> tuple[list[tuple[int, tuple[Event, ...]]], list[Move], list[Event | None]]:
    """``match``'s record replayed move by move through the engine: each round played at the
    table (not one settled at the deal) with its number and its public events, exactly those
    the live table animated; every move as the table lists them (round number, seat,
    action text: what Undo takes back); and for every move the event of those whose line
    begins it in the move log (None: it has none)."""
    decks = [d for deal in match.deals for d in deal.decks]
    fresh = engine.new_match(
        match.rules, first_dealer=match.first_dealer, seed=match.seed, decks=decks
    )
    rounds: list[tuple[int, RoundState]] = []
    moves: list[Move] = []
    firsts: list[Event | None] = []
    if fresh.round.outcome is None:
        rounds.append((fresh.round_number, fresh.round))
    for action in (a for deal in match.deals for a in deal.moves):
        st = fresh.round
        moves.append((fresh.round_number, st.to_move, str(action)))
        firsts.append(next((e for e in fresh.apply(action) if logs(e)), None))
        if fresh.round is not st and fresh.outcome is None and fresh.round.outcome is None:
            rounds.append((fresh.round_number, fresh.round))
    return [(n, tuple(st.history)) for n, st in rounds], moves, firsts
