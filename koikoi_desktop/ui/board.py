"""The table's display model and the director that turns engine events into animation steps.

:class:`Board` records where each visible card is *drawn* (hand order, field slot, capture
group, the revealed card by the draw pile). It lags the engine while animations play and is
changed only by replaying the engine's event records, which say exactly which cards moved; it
decides nothing about the rules. After a batch of events, :meth:`Board.sync` re-reads the
viewer's :class:`~koikoi_desktop.engine.PlayerView` so the picture can never drift from the
truth.

Hidden cards are never known here: a hand the viewer may not see holds *placeholders* (negative
ids, one per card, drawn face down). When an event shows a hidden card (the opponent plays it,
an instant win reveals a hand), a placeholder of that hand becomes the card, sprite and all, so
it turns over where it is.

:class:`Director` owns the card sprites and queues one or more steps per event: a hand play that
captures slides onto its match, then both fly to the capture pile; a draw flips by the pile
first. Field cards keep their slots (a capture leaves a gap that the next placed card fills), so
cards do not jump around.

A computer's move can be *staged* (``Director.staged``: the table says so at "normal" speed
without reduced motion): its card first turns up in its hand, then rests on its target, the
drawn card rests turned over by the pile, and only then do the cards fly to the capture pile.
The director also keeps what the animation is showing (``showing``: whose move, which step) for
the turn banner, the cards of the last move (``last_cards``, the whole turn, until the next
move starts), and an :class:`Announce` for a yaku made, a koi-koi or a stop; a stop always gets
``STOP_BEAT`` seconds before the round summary, at any speed (a click skips, ``skip``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pygame

from koikoi_desktop.engine import Event, PlayerView
from koikoi_desktop.engine.events import (
    Dealt,
    Discarded,
    DrawPending,
    Drew,
    ExchangeDecided,
    Flipped,
    GajiPaired,
    InstantWon,
    KoiKoiCalled,
    Played,
    RoundOver,
    Stopped,
    Swept,
    YakuMade,
)
from koikoi_desktop.engine.round import deal_positions
from koikoi_desktop.i18n import Label, Words, say
from koikoi_desktop.ui.animation import AnimationQueue, Box, Sprite, Step, Tween
from koikoi_desktop.ui.cards import kind_of
from koikoi_desktop.ui.layout import TableLayout

#: Engine events announced over the field (and logged when they show).
ANNOUNCED = ("yaku", "koikoi", "stop", "instant_win", "redeal", "round_over")
MOVE = 0.32
FLY = 0.42
FLIP = 0.30
DEAL = 0.16
#: Staged pauses of a computer's move at "normal" speed (a newcomer follows each part): the
#: played card shown lifted out of the hand, resting on its target, the drawn card turned over.
STAGE_SHOW = 0.45
STAGE_ONTO = 0.6
STAGE_DRAW = 0.55
#: How long a yaku / koi-koi / stop announcement stays (seconds at "normal"), and the beat a
#: stop always gets before the round summary, whatever the speed (a click still skips it).
ANNOUNCE = 1.4
STOP_BEAT = 0.8


@dataclass
class Announce:
    """A yaku made, a koi-koi or a stop, shown big over the field for a moment: ``kind``
    ("yaku" | "koikoi" | "stop" | "other"), its line (a :data:`~koikoi_desktop.i18n.Label`,
    worded when drawn, so it follows a language change), the cards to show, and its clock."""

    kind: str
    line: Label
    cards: tuple[int, ...] = ()
    age: float = 0.0
    length: float = ANNOUNCE
    #: Reduced motion or animations off: shown still (no growing, no rings, no fading).
    still: bool = False

    def text(self, words: Words) -> str:
        """The line in ``words``."""
        return say(self.line, words)

    @property
    def progress(self) -> float:
        """0 .. 1 over the announcement's life (the view pops it in and fades it out)."""
        return min(1.0, self.age / self.length) if self.length > 0 else 1.0


def _box(r: pygame.Rect) -> Box:
    return (float(r.x), float(r.y), float(r.w), float(r.h))


def placeholders(seat: int, n: int) -> list[int]:
    """Ids standing for the ``n`` hidden cards of ``seat``'s hand (negative, stable by slot)."""
    return [-(100 * (seat + 1) + i) for i in range(1, n + 1)]


def is_hidden(card: int) -> bool:
    """Whether ``card`` is a placeholder for a card the viewer may not see."""
    return card < 0


class Board:
    """Where each visible card is drawn (display only)."""

    def __init__(self) -> None:
        self.hands: list[list[int]] = [[], []]
        self.field: list[int | None] = []
        self.caps: list[list[int]] = [[], []]
        self.pile = 48
        self.reveal = 0
        self.stacked: dict[int, int] = {}
        self.shown_hands: set[int] = set()

    def clear(self) -> None:
        self.hands = [[], []]
        self.field = []
        self.caps = [[], []]
        self.pile = 48
        self.reveal = 0
        self.stacked = {}
        self.shown_hands = set()

    def field_cards(self) -> list[int]:
        return [c for c in self.field if c is not None]

    def place(self, card: int) -> None:
        for i, c in enumerate(self.field):
            if c is None:
                self.field[i] = card
                return
        self.field.append(card)

    def unplace(self, card: int) -> None:
        for i, c in enumerate(self.field):
            if c == card:
                self.field[i] = None
        while self.field and self.field[-1] is None and len(self.field) > 16:
            self.field.pop()

    def take(self, card: int) -> None:
        """Remove ``card`` from wherever it is drawn."""
        for h in self.hands:
            if card in h:
                h.remove(card)
        self.unplace(card)
        if self.reveal == card:
            self.reveal = 0
        self.stacked.pop(card, None)

    def add_hand(self, p: int, card: int) -> None:
        self.hands[p].append(card)
        self.hands[p].sort(key=lambda c: (c < 0, abs(c)))

    def unhide(self, p: int, card: int) -> int:
        """``card`` leaves ``p``'s hand: when the hand is hidden, its last placeholder becomes
        ``card`` (returned, so its sprite can follow); 0 when nothing had to change."""
        hand = self.hands[p]
        if card in hand or not hand or not is_hidden(hand[-1]):
            return 0
        stand_in = hand[-1]
        hand[-1] = card
        return stand_in

    def sync(self, view: PlayerView) -> None:
        """Make the model match what ``view``'s seat sees, exactly. The field's slots are
        those its round's events put the cards in (:func:`field_slots`): a function of the
        record, so a table rebuilt from it (Continue) lays the field out as before."""
        me, opp = view.player, view.opponent
        # during the exchange decision both hands are hidden and both hold the dealt cards
        mine = placeholders(me, view.opponent_hand_size) if view.hand_hidden else sorted(view.hand)
        self.hands[me] = mine
        self.hands[opp] = placeholders(opp, view.opponent_hand_size)
        order = capture_order(view.history)
        for p in (0, 1):
            captured = set(view.captured[p])
            old = [c for c in self.caps[p] if c in captured]
            # in the order the live table piled them (a table rebuilt by Continue re-sorted
            # the piles: issue 43), then any the history does not tell, in card order
            known = [c for c in order[p] if c in captured and c not in old]
            self.caps[p] = old + known + sorted(captured - set(old) - set(known))
        field = set(view.field)
        self.field = field_slots(view.history)
        self.field = [c if c in field else None for c in self.field]
        for c in sorted(field - set(self.field_cards())):
            self.place(c)
        self.stacked = {}
        self.reveal = view.pending_draw
        self.pile = view.pile_size


def capture_order(history: Iterable[Event]) -> tuple[list[int], list[int]]:
    """Both capture piles in the order the live table piles them after a round's public
    events: a capture's card, then what it took, in the event's order; a sweep's cards."""
    out: tuple[list[int], list[int]] = ([], [])
    for ev in history:
        if isinstance(ev, Dealt):
            out[0].clear()
            out[1].clear()
        elif isinstance(ev, (Played, GajiPaired, Drew)) and ev.captured:
            out[ev.player].extend((ev.card, *ev.captured))
        elif isinstance(ev, Swept):
            out[ev.player].extend(ev.cards)
    return out


def field_slots(history: Iterable[Event]) -> list[int | None]:
    """The field's slots after a round's public events, laid out as the live table lays them:
    the dealt field in card order, a captured card leaves a gap, a card placed fills the first
    gap (or a new slot at the end)."""
    b = Board()
    for ev in history:
        if isinstance(ev, Dealt):
            b.field = []
            for c in sorted(ev.field):
                b.place(c)
        elif isinstance(ev, (Played, GajiPaired, Drew)):
            if ev.captured:
                for c in ev.captured:
                    b.unplace(c)
            else:
                b.place(ev.card)
        elif isinstance(ev, (Discarded, Flipped)):
            b.place(ev.card)
        elif isinstance(ev, Swept):
            for c in ev.cards:
                b.unplace(c)
    return b.field


class Director:
    """Sprites + board + the queue: ``play(events)`` queues the animation of engine events."""

    def __init__(
        self, queue: AnimationQueue, layout: Callable[[], TableLayout], viewer: Callable[[], int]
    ) -> None:
        self.queue = queue
        self.layout = layout
        self.viewer = viewer
        self.board = Board()
        self.sprites: dict[int, Sprite] = {}
        self.hide_hands: set[int] = set()  # seats whose hands are face down for the viewer
        #: The cards of the last move (the whole turn: the play and the draw), marked on the
        #: table until the next move starts.
        self.last_cards: set[int] = set()
        #: The banner on show, worded when drawn ("": no banner).
        self.banner: Label = ""
        self.banner_left = 0.0
        #: The announcement on show (a yaku made, koi-koi, stop), or None.
        self.announce: Announce | None = None
        #: While events animate: (seat, step) the animation is showing ("play", "draw",
        #: "decide", "koikoi", "stop"), so the turn banner follows the cards, not the engine.
        self.showing: tuple[int, str] | None = None
        #: Whether ``seat``'s moves are staged slowly (a computer seat at "normal" speed).
        self.staged: Callable[[int], bool] = lambda seat: False
        #: A staged computer card shown lifted out of its hand, before it moves (0: none).
        self.lifted_card = 0
        #: The cards of a yaku or stop event (the engine's scoring of the seat's captures).
        self.yaku_cards: Callable[[Event], tuple[int, ...]] = lambda e: ()
        #: An event's line for the banner and the log (None: the log has no line for it;
        #: decided on the fact, worded when drawn).
        self.describe: Callable[[Event], Label | None] = lambda e: None
        #: An event that has a line (``describe``) reaches the move log as it shows; the log
        #: keeps the event and words it when drawn.
        self.on_log: Callable[[Event], None] = lambda ev: None
        #: Called as each moment of the animation starts: ("deal" | "place" | "onto" |
        #: "capture" | "flip" | "announce", the engine event or None). The table plugs the
        #: sound cues in here (:mod:`koikoi_desktop.ui.sound_cues`).
        self.on_show: Callable[[str, Event | None], None] = lambda moment, ev: None

    # ------------------------------------------------------------- positions
    def targets(self) -> dict[int, tuple[Box, bool, int]]:
        """Card -> (box, face up, z) for the current board."""
        lay = self.layout()
        b = self.board
        me = self.viewer()
        out: dict[int, tuple[Box, bool, int]] = {}
        for p in (0, 1):
            top = p != me
            hand = b.hands[p]
            face = (p in b.shown_hands) or (not top and p not in self.hide_hands)
            for i, (c, r) in enumerate(zip(hand, lay.hand_slots(len(hand), top=top), strict=True)):
                if c == self.lifted_card:  # a staged computer card: turned up, pulled out
                    shown = r.move(0, lay.lift // 2 if top else -lay.lift)
                    out[c] = (_box(shown), True, 900)
                    continue
                out[c] = (_box(r), face and not is_hidden(c), 100 + i)
            groups: dict[str, list[int]] = {"bright": [], "animal": [], "ribbon": [], "plain": []}
            for c in b.caps[p]:
                groups[kind_of(c)].append(c)
            for g, cards in groups.items():
                for i, (c, r) in enumerate(
                    zip(cards, lay.cap_slots(g, len(cards), top=top), strict=True)
                ):
                    out[c] = (_box(r), True, 50 + i)
        slots = lay.field_slots(len(b.field))
        for i, fc in enumerate(b.field):
            if fc is not None:
                out[fc] = (_box(slots[i]), True, 20)
        cw, ch = lay.card
        for c, under in b.stacked.items():
            base = out.get(under)
            if base is not None:
                x, y, w, h = base[0]
                out[c] = ((x + cw * 0.28, y + ch * 0.16, w, h), True, 300)
        if b.reveal:
            out[b.reveal] = (_box(lay.reveal), True, 310)
        return out

    def _tweens(
        self, duration: float, *, stagger: float = 0.0, order: Iterable[int] = ()
    ) -> list[Tween]:
        tg = self.targets()
        lay = self.layout()
        pile = _box(lay.pile)
        tweens: list[Tween] = []
        rank = {c: i for i, c in enumerate(order)}
        for c in list(self.sprites):
            if c not in tg:
                del self.sprites[c]
        for c, (box, face, z) in tg.items():
            sp = self.sprites.get(c)
            if sp is None:
                sp = Sprite(c, pile, face_up=False, z=z)
                self.sprites[c] = sp
            sp.z = z
            if sp.box != box or sp.face_up != face:
                delay = stagger * rank.get(c, 0)
                tweens.append(
                    Tween(sp, sp.box, box, delay, duration, face if sp.face_up != face else None)
                )
        return tweens

    def _follow(self, stand_in: int, card: int) -> None:
        """The sprite of placeholder ``stand_in`` now shows ``card`` (it turns over in place)."""
        sp = self.sprites.pop(stand_in, None)
        if sp is not None:
            sp.card = card
            self.sprites[card] = sp

    def sync(self, view: PlayerView) -> None:
        """Re-read ``view`` (the board at rest) and put every sprite in its place at once."""
        self.board.sync(view)
        self.snap()

    def snap(self) -> None:
        """Put every sprite at its place now (after a resize or a resync)."""
        for tw in self._tweens(0.0):
            tw.finish()

    def step(
        self,
        change: Callable[[], None],
        duration: float = MOVE,
        *,
        hold: float = 0.0,
        order: Iterable[int] = (),
        stagger: float = 0.0,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        order = list(order)

        def prepare() -> list[Tween]:
            change()
            return self._tweens(duration, stagger=stagger, order=order)

        self.queue.push(Step(prepare, hold=hold, on_done=on_done))

    def follow(self, card: int, box: Box | None) -> None:
        """The pointer holds ``card``: its sprite is drawn on top, at ``box`` while dragged
        (None: where it lies); the gesture machine says where."""
        sp = self.sprites.get(card)
        if sp is None:
            return
        sp.z = 1000
        if box is not None:
            sp.box = box

    def glide_back(self) -> None:
        """A held card that was not played goes back to its place (and its height)."""
        self.step(lambda: None, MOVE * 0.7)

    def say(self, text: Label, hold: float = 0.9) -> None:
        """Queue a banner (it shows while the queue waits ``hold`` seconds), worded when
        drawn."""

        def prepare() -> list[Tween]:
            self.banner = text
            self.banner_left = hold * max(0.35, self.queue.factor) + 0.6
            return []

        self.queue.push(Step(prepare, hold=hold))

    def proclaim(
        self,
        kind: str,
        text: Label,
        cards: tuple[int, ...],
        beat: float = 0.0,
    ) -> None:
        """Queue an announcement (a yaku, koi-koi, stop): it pops up over the field with its
        cards while the queue waits; ``beat`` is a pause kept at every speed (a click skips)."""

        def prepare() -> list[Tween]:
            f = self.queue.factor
            length = max(ANNOUNCE * f, beat) if not self.queue.reduced else max(0.9 * f, beat)
            still = self.queue.reduced or f == 0
            self.announce = Announce(kind, text, cards, 0.0, length, still) if length > 0 else None
            return []

        self.queue.push(Step(prepare, hold=ANNOUNCE, beat=beat))

    def skip(self) -> None:
        """A click: every queued step ends now, and so does the announcement and the banner."""
        self.queue.skip()
        self.announce = None
        self.banner = ""
        self.banner_left = 0.0

    def update(self, dt: float) -> None:
        self.queue.update(dt)
        if self.banner_left > 0:
            self.banner_left -= dt
            if self.banner_left <= 0:
                self.banner = ""
        a = self.announce
        if a is not None:
            a.age += dt
            if a.age >= a.length:
                self.announce = None
        if not self.queue.busy:
            self.showing = None

    # ------------------------------------------------------------- events
    def deal(self, view: PlayerView) -> None:
        """Animate a fresh deal, as ``view``'s seat sees it, in the preset's packets (R-DEAL-2):
        the seat's own cards (hidden too while an exchange is open), the field, and face-down
        cards for the other hand."""
        b = self.board

        def reset() -> None:
            b.clear()
            self.sprites.clear()
            self.last_cards = set()
            self.showing = None
            self.lifted_card = 0

        self.step(reset, 0.0)
        me, opp = view.player, view.opponent
        hidden = view.hand_hidden
        own = placeholders(me, view.opponent_hand_size) if hidden else sorted(view.hand)
        cards = {me: own, opp: placeholders(opp, view.opponent_hand_size)}
        field = sorted(view.field)
        seat = {"d": view.dealer, "nd": 1 - view.dealer}
        packets: list[list[tuple[str, int]]] = []
        positions = deal_positions(view.rules)
        for i, (dest, _) in enumerate(positions):
            if i == 0 or dest != positions[i - 1][0] or (packets and len(packets[-1]) >= 4):
                packets.append([])
            card = field.pop(0) if dest == "f" else cards[seat[dest]].pop(0)
            packets[-1].append((dest, card))
        for packet in packets:

            def change(packet: list[tuple[str, int]] = packet) -> None:
                for dest, c in packet:
                    if dest == "f":
                        b.place(c)
                    else:
                        b.add_hand(seat[dest], c)
                b.pile = max(0, b.pile - len(packet))
                self.on_show("deal", None)

            self.step(change, DEAL * 1.6, order=[c for _, c in packet], stagger=0.03)

    def play(self, events: Iterable[Event]) -> None:
        """Queue the animation of engine events (after ``deal`` for a new round)."""
        b = self.board
        for ev in events:
            kind = ev.kind
            line = self.describe(ev)
            if line is not None and kind not in ANNOUNCED:
                self.step(self._logger(ev), 0.0)
            if isinstance(ev, (Played, GajiPaired)):
                self._capture_move(ev.player, ev.card, ev.captured, from_hand=True, ev=ev)
            elif isinstance(ev, Discarded):
                self._capture_move(ev.player, ev.card, (), from_hand=True, ev=ev)
            elif isinstance(ev, Drew):
                self._capture_move(ev.player, ev.card, ev.captured, from_hand=False, ev=ev)
            elif isinstance(ev, DrawPending):

                def show(c: int = ev.card, ev: DrawPending = ev) -> None:
                    b.reveal = c
                    b.pile = max(0, b.pile - 1)
                    self.last_cards.add(c)
                    self.showing = (ev.player, "draw")
                    self.on_show("flip", ev)

                self.step(show, FLIP, hold=0.1)
            elif isinstance(ev, Flipped):

                def flip(c: int = ev.card, ev: Event = ev) -> None:
                    b.pile = max(0, b.pile - 1)
                    b.place(c)
                    self.last_cards.add(c)
                    self.on_show("flip", ev)

                self.step(flip, FLIP)
            elif isinstance(ev, Swept):

                def sweep(
                    p: int = ev.player, cards: tuple[int, ...] = ev.cards, ev: Event = ev
                ) -> None:
                    for c in cards:
                        b.take(c)
                        b.caps[p].append(c)
                    self.on_show("capture", ev)

                self.step(sweep, FLY, order=ev.cards, stagger=0.05)
            elif isinstance(ev, ExchangeDecided) and ev.exchanged:

                def swap() -> None:
                    b.hands[0], b.hands[1] = b.hands[1], b.hands[0]

                self.step(swap, FLY)
            elif isinstance(ev, InstantWon):

                def reveal(p: int = ev.player, hand: tuple[int, ...] = ev.hand) -> None:
                    for c in hand:
                        stand_in = b.unhide(p, c)
                        if stand_in:
                            self._follow(stand_in, c)
                    b.hands[p].sort(key=lambda c: (c < 0, abs(c)))
                    b.shown_hands.add(p)

                self.step(reveal, FLIP)
            if kind in ANNOUNCED:
                self.step(self._announcer(ev), 0.0)
                if line is not None:
                    self.step(self._logger(ev), 0.0)
                    self._proclaim_event(ev, line)

    def _proclaim_event(self, ev: Event, text: Label) -> None:
        """A yaku, koi-koi or stop pops up with its cards; other round ends take a banner
        (worded from the event when drawn, so it follows a language change)."""
        if isinstance(ev, YakuMade):
            self.proclaim("yaku", text, self.yaku_cards(ev))
        elif isinstance(ev, KoiKoiCalled):
            self.proclaim("koikoi", text, ())
        elif isinstance(ev, Stopped):
            self.proclaim("stop", text, self.yaku_cards(ev), beat=STOP_BEAT)
        else:
            self.say(text, hold=0.5 if isinstance(ev, RoundOver) else 0.9)

    def _logger(self, ev: Event) -> Callable[[], None]:
        def log() -> None:
            self.on_log(ev)

        return log

    def _announcer(self, ev: Event) -> Callable[[], None]:
        def announce() -> None:
            if isinstance(ev, YakuMade):
                self.showing = (ev.player, "decide")
            elif isinstance(ev, KoiKoiCalled):
                self.showing = (ev.player, "koikoi")
            elif isinstance(ev, Stopped):
                self.showing = (ev.player, "stop")
            self.on_show("announce", ev)

        return announce

    def _capture_move(
        self,
        p: int,
        card: int,
        captured: tuple[int, ...],
        *,
        from_hand: bool,
        ev: Event | None = None,
    ) -> None:
        b = self.board
        staged = self.staged(p)
        step_name = "play" if from_hand else "draw"

        def from_hidden_hand() -> None:
            if from_hand:
                stand_in = b.unhide(p, card)
                if stand_in:
                    self._follow(stand_in, card)

        def starts() -> None:
            self.showing = (p, step_name)
            if from_hand:  # a new move: the last one's marks go
                self.last_cards = set()

        if from_hand and staged:

            def show_card() -> None:
                """The computer's card turns face up where it is, lifted from the hand."""
                starts()
                from_hidden_hand()
                self.last_cards.add(card)
                self.lifted_card = card

            self.step(show_card, FLIP, hold=STAGE_SHOW)
        if not from_hand:

            def reveal() -> None:
                starts()
                if b.reveal != card:
                    b.pile = max(0, b.pile - 1)
                b.take(card)
                b.reveal = card
                self.last_cards.add(card)
                self.on_show("flip", ev)

            self.step(reveal, FLIP, hold=STAGE_DRAW if staged else 0.12)
        if captured:

            def onto() -> None:
                starts()
                from_hidden_hand()
                self.lifted_card = 0
                b.take(card)
                b.stacked[card] = captured[0]
                self.last_cards.update((card, *captured))
                self.on_show("onto", ev)

            self.step(onto, MOVE, hold=STAGE_ONTO if staged else 0.12)

            def fly() -> None:
                for c in (card, *captured):
                    b.take(c)
                    b.caps[p].append(c)
                self.on_show("capture", ev)

            self.step(fly, FLY, order=(card, *captured), stagger=0.04)
        else:

            def place() -> None:
                starts()
                from_hidden_hand()
                self.lifted_card = 0
                b.take(card)
                b.place(card)
                self.last_cards.add(card)
                self.on_show("place", ev)

            self.step(place, MOVE, hold=STAGE_ONTO * 0.5 if staged else 0.0)
