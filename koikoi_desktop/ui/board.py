"""The table's display model and the director that turns engine events into animation steps.

:class:`Board` records where each visible card is *drawn* (hand order, field slot, capture
group, the revealed card by the draw pile). It lags the engine while animations play and is
changed only by replaying the engine's event records, which say exactly which cards moved; it
decides nothing about the rules. After a batch of events, :meth:`Board.sync` re-reads the
engine state so the picture can never drift from the truth.

:class:`Director` owns the card sprites and queues one or more steps per event: a hand play that
captures slides onto its match, then both fly to the capture pile; a draw flips by the pile
first. Field cards keep their slots (a capture leaves a gap that the next placed card fills), so
cards do not jump around.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pygame

from koikoi_desktop.ui.animation import AnimationQueue, Box, Sprite, Step, Tween
from koikoi_desktop.ui.cards import kind_of
from koikoi_desktop.ui.layout import TableLayout

MOVE = 0.32
FLY = 0.42
FLIP = 0.30
DEAL = 0.16


def _box(r: pygame.Rect) -> Box:
    return (float(r.x), float(r.y), float(r.w), float(r.h))


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
        self.__init__()  # type: ignore[misc]

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
        self.hands[p].sort()

    def sync(self, state: Any) -> None:
        """Make the model match an engine RoundState exactly (keeping field slots stable)."""
        for p in (0, 1):
            self.hands[p] = sorted(state.hand(p))
            old = [c for c in self.caps[p] if c in state.captured(p)]
            self.caps[p] = old + sorted(set(state.captured(p)) - set(old))
        field = set(state.field)
        self.field = [c if c in field else None for c in self.field]
        for c in sorted(field - set(self.field_cards())):
            self.place(c)
        self.stacked = {}
        self.reveal = state.pending_draw
        self.pile = len(state.draw_pile)


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
        self.last_cards: set[int] = set()
        self.banner: str = ""
        self.banner_left = 0.0
        self.describe: Callable[[Any], str | None] = lambda e: None
        self.on_log: Callable[[str], None] = lambda s: None
        #: Called as each moment of the animation starts: ("deal" | "place" | "onto" |
        #: "capture" | "flip" | "announce", the engine event or None). The table plugs the
        #: sound cues in here (:mod:`koikoi_desktop.ui.sound_cues`).
        self.on_show: Callable[[str, Any], None] = lambda moment, ev: None

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
                out[c] = (_box(r), face, 100 + i)
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

    def say(self, text: str, hold: float = 0.9) -> None:
        """Queue a banner (it shows while the queue waits ``hold`` seconds)."""

        def prepare() -> list[Tween]:
            self.banner = text
            self.banner_left = hold * max(0.35, self.queue.factor) + 0.6
            return []

        self.queue.push(Step(prepare, hold=hold))

    def update(self, dt: float) -> None:
        self.queue.update(dt)
        if self.banner_left > 0:
            self.banner_left -= dt
            if self.banner_left <= 0:
                self.banner = ""

    # ------------------------------------------------------------- events
    def deal(self, state: Any, deal_positions: list[tuple[str, int]]) -> None:
        """Animate a fresh deal in the preset's packets (R-DEAL-2)."""
        b = self.board

        def reset() -> None:
            b.clear()
            self.sprites.clear()
            self.last_cards = set()

        self.step(reset, 0.0)
        deck = state.deals[-1] if getattr(state, "deals", None) else state.deck
        dealer = state.dealer
        packets: list[list[tuple[str, int]]] = []
        for i, (dest, _) in enumerate(deal_positions):
            if i == 0 or dest != deal_positions[i - 1][0] or (packets and len(packets[-1]) >= 4):
                packets.append([])
            packets[-1].append((dest, deck[i]))
        for packet in packets:

            def change(packet: list[tuple[str, int]] = packet) -> None:
                for dest, c in packet:
                    if dest == "f":
                        b.place(c)
                    else:
                        b.add_hand(dealer if dest == "d" else 1 - dealer, c)
                b.pile = max(0, b.pile - len(packet))
                self.on_show("deal", None)

            self.step(change, DEAL * 1.6, order=[c for _, c in packet], stagger=0.03)

    def play(self, events: Iterable[Any]) -> None:
        """Queue the animation of engine events (after ``deal`` for a new round)."""
        b = self.board
        for ev in events:
            kind = ev.kind
            text = self.describe(ev)
            if text and kind not in (
                "yaku",
                "koikoi",
                "stop",
                "instant_win",
                "redeal",
                "round_over",
            ):
                self.step(self._logger(text), 0.0)
            if kind in ("play", "gaji"):
                self._capture_move(ev.player, ev.card, ev.cards, from_hand=True, ev=ev)
            elif kind == "discard":
                self._capture_move(ev.player, ev.card, (), from_hand=True, ev=ev)
            elif kind == "draw":
                self._capture_move(ev.player, ev.card, ev.cards, from_hand=False, ev=ev)
            elif kind == "draw_pending":
                c = ev.card

                def show(c: int = c, ev: Any = ev) -> None:
                    b.reveal = c
                    b.pile = max(0, b.pile - 1)
                    self.last_cards = {c}
                    self.on_show("flip", ev)

                self.step(show, FLIP, hold=0.1)
            elif kind == "flip":
                c = ev.card

                def flip(c: int = c, ev: Any = ev) -> None:
                    b.pile = max(0, b.pile - 1)
                    b.place(c)
                    self.last_cards = {c}
                    self.on_show("flip", ev)

                self.step(flip, FLIP)
            elif kind == "sweep":
                cards = ev.cards

                def sweep(p: int = ev.player, cards: tuple[int, ...] = cards, ev: Any = ev) -> None:
                    for c in cards:
                        b.take(c)
                        b.caps[p].append(c)
                    self.on_show("capture", ev)

                self.step(sweep, FLY, order=cards, stagger=0.05)
            elif kind == "exchange" and ev.value:

                def swap() -> None:
                    b.hands[0], b.hands[1] = b.hands[1], b.hands[0]

                self.step(swap, FLY)
            elif kind == "instant_win":

                def reveal(p: int = ev.player) -> None:
                    b.shown_hands.add(p)

                self.step(reveal, FLIP)
            if kind in ("yaku", "koikoi", "stop", "instant_win", "redeal", "round_over"):
                self.step(self._announcer(ev), 0.0)
                if text:
                    self.step(self._logger(text), 0.0)
                    self.say(text, hold=0.5 if kind == "round_over" else 0.9)

    def _logger(self, text: str) -> Callable[[], None]:
        def log() -> None:
            self.on_log(text)

        return log

    def _announcer(self, ev: Any) -> Callable[[], None]:
        def announce() -> None:
            self.on_show("announce", ev)

        return announce

    def _capture_move(
        self, p: int, card: int, captured: tuple[int, ...], *, from_hand: bool, ev: Any = None
    ) -> None:
        b = self.board
        if not from_hand:

            def reveal() -> None:
                if b.reveal != card:
                    b.pile = max(0, b.pile - 1)
                b.take(card)
                b.reveal = card
                self.last_cards = {card}
                self.on_show("flip", ev)

            self.step(reveal, FLIP, hold=0.12)
        if captured:

            def onto() -> None:
                b.take(card)
                b.stacked[card] = captured[0]
                self.last_cards = {card, *captured}
                self.on_show("onto", ev)

            self.step(onto, MOVE, hold=0.12)

            def fly() -> None:
                for c in (card, *captured):
                    b.take(c)
                    b.caps[p].append(c)
                self.on_show("capture", ev)

            self.step(fly, FLY, order=(card, *captured), stagger=0.04)
        else:

            def place() -> None:
                b.take(card)
                b.place(card)
                self.last_cards = {card}
                self.on_show("place", ev)

            self.step(place, MOVE)
