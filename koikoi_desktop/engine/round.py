"""One round (one deal): dealing, legal actions, applying moves, the outcome (RULES.md §4-§10).

>>> import random
>>> from koikoi_desktop.engine.rules import PRESETS
>>> deck = list(range(1, 49))          # an unshuffled deck: index 0 is dealt first
>>> state = new_round(PRESETS["nintendo"], dealer=0, deck=deck)
>>> sorted(state.hand(1)), state.outcome.reason, state.outcome.instant   # four pairs: kuttsuki
([1, 2, 7, 8, 13, 14, 19, 20], RoundEnd.INSTANT_WIN, 'kuttsuki')
>>> state = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(3))
>>> state.to_move, len(state.legal_actions()) > 0
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from koikoi_desktop.engine.actions import (
    DECLARE,
    DISCARD,
    DRAW_TO,
    EXCHANGE,
    KEEP,
    KOIKOI,
    PLAY,
    PLAY_TO,
    STOP,
    Action,
    ActionKind,
    IllegalAction,
    IllegalReason,
    Phase,
    capture_mask,
)
from koikoi_desktop.engine.cards import (
    BRIGHTS,
    DECK,
    FULL_MASK,
    GAJI,
    MONTH,
    MONTH_MASK,
    MONTH_MASK_OF,
    ids_of,
    mask_of,
)
from koikoi_desktop.engine.cardset import capture_choices, gaji_open
from koikoi_desktop.engine.deal import (
    Outcome,
    _check_deck,
    deal_positions,
    deal_slots,
    instant_win,
)
from koikoi_desktop.engine.events import (
    Dealt,
    Discarded,
    DrawPending,
    Drew,
    Event,
    ExchangeDecided,
    Flipped,
    GajiPaired,
    InstantWinDeclined,
    InstantWon,
    KoiKoiCalled,
    Played,
    Redealt,
    RoundEnd,
    RoundOver,
    Stopped,
    Swept,
    YakuMade,
)
from koikoi_desktop.engine.rules import Rules
from koikoi_desktop.engine.view import PlayerView
from koikoi_desktop.engine.yaku import (
    KoikoiOdds,
    Scorer,
    Yaku,
    factors,
    gaji_sweep,
    koikoi_odds,
    scorer_for,
)

_GAJI_BIT = 1 << GAJI

# Enum member lookups cost ~0.13 µs each on Python 3.11 (EnumType.__getattr__); the rules
# compare and assign these module constants instead (the same members).
_PH_PLAY = Phase.PLAY
_PH_DRAW = Phase.DRAW
_PH_DECIDE = Phase.DECIDE
_PH_EXCHANGE = Phase.EXCHANGE
_PH_DECLARE = Phase.DECLARE
_PH_OVER = Phase.OVER
_K_PLAY = ActionKind.PLAY
_K_DISCARD = ActionKind.DISCARD
_K_DRAW = ActionKind.DRAW
_K_KOIKOI = ActionKind.KOIKOI
_K_STOP = ActionKind.STOP
_K_DECLARE = ActionKind.DECLARE
_K_EXCHANGE = ActionKind.EXCHANGE
_K_KEEP = ActionKind.KEEP
_HAND_KINDS = (_K_PLAY, _K_DISCARD)
_DEAL_KINDS = (_K_EXCHANGE, _K_KEEP)


class RoundState:
    """The full state of one round. Players are 0 and 1; the dealer moves first.

    Read it through ``to_move``, ``legal_actions()``, ``hand(p)``, ``field``, ``captured(p)``,
    ``view(p)`` and ``outcome``; change it only with ``apply(action)``.
    """

    __slots__ = (
        "_decided_ref",
        "_declare_open",
        "_first_turn_started",
        "_legal",
        "calls",
        "caps",
        "dealer",
        "deals",
        "deck",
        "field_brights",
        "field_mask",
        "gaji_month",
        "gaji_owner",
        "hands",
        "history",
        "last_caller",
        "last_decider",
        "moves",
        "outcome",
        "pending",
        "phase",
        "pile",
        "pile_pos",
        "refs",
        "rules",
        "scorer",
        "to_move",
        "turns",
    )

    rules: Rules
    scorer: Scorer
    dealer: int
    deck: tuple[int, ...]
    deals: list[tuple[int, ...]]
    hands: list[int]
    caps: list[int]
    field_mask: int
    pile: tuple[int, ...]
    pile_pos: int
    phase: Phase
    to_move: int | None
    pending: int
    refs: list[int]
    calls: list[int]
    turns: list[int]
    last_caller: int | None
    last_decider: int | None
    gaji_owner: int | None
    gaji_month: int
    field_brights: int
    outcome: Outcome | None
    moves: list[Action]
    history: list[Event]
    _declare_open: bool
    _first_turn_started: list[bool]
    _legal: list[Action] | None
    _decided_ref: int

    # ------------------------------------------------------------------ construction
    @classmethod
    def deal(
        cls, rules: Rules, *, dealer: int, next_deck: Callable[[], Sequence[int]]
    ) -> RoundState:
        """Deal a round from deck orders (RULES.md §4-§5): the chance step as a parameter.

        ``next_deck()`` returns the next 48-id deck order (index 0 on top); it is called once,
        and once more for every deal that must be redealt (R-DEAL-3). ``new_round`` shuffles
        from a ``random.Random``; a match or a record replays its recorded decks this way.

        >>> from koikoi_desktop.engine.rules import PRESETS
        >>> orders = [random.Random(n).sample(range(1, 49), 48) for n in (1, 2)]
        >>> decks = iter(orders)
        >>> s = RoundState.deal(PRESETS["nintendo"], dealer=1, next_deck=lambda: next(decks))
        >>> s.to_move, len(s.field), s.deals == [tuple(orders[0])]
        (1, 8, True)
        """
        if dealer not in (0, 1):
            raise ValueError("The dealer must be player 0 or 1.")
        self = cls.__new__(cls)
        self.rules = rules
        self.scorer = scorer_for(rules)
        self.dealer = dealer
        self.deals = []
        self.history = []
        self.moves = []
        to_field, to_dealer, to_other = deal_slots(rules)
        nd = 1 - dealer
        while True:
            deck = _check_deck(next_deck())
            self.deals.append(deck)
            hands = [0, 0]
            field = mine = theirs = 0
            for i in to_field:
                field |= 1 << deck[i]
            for i in to_dealer:
                mine |= 1 << deck[i]
            for i in to_other:
                theirs |= 1 << deck[i]
            hands[dealer] = mine
            hands[nd] = theirs
            if not self._needs_redeal(field):
                break
            self.history.append(Redealt(ids_of(field), len(self.deals)))
        self.deck = deck
        self.hands = hands
        self.caps = [0, 0]
        self.field_mask = field
        self.pile = deck[24:]
        self.pile_pos = 0
        self.pending = 0
        self.refs = [0, 0]
        self.calls = [0, 0]
        self.turns = [0, 0]
        self.last_caller = None
        self.last_decider = None
        self.gaji_owner = None
        self.gaji_month = 0
        self.field_brights = (field & BRIGHTS).bit_count()
        self.outcome = None
        self._declare_open = False
        self._first_turn_started = [False, False]
        self._legal = None
        self._decided_ref = 0
        self.history.append(Dealt(dealer, ids_of(field), len(self.deals)))
        if rules.hand_exchange:
            self.phase = _PH_EXCHANGE
            self.to_move = nd
        else:
            self._after_exchange(self.history)
        return self

    @classmethod
    def from_view(
        cls, view: PlayerView, rng: random.Random, opponent_hand: int | None = None
    ) -> RoundState:
        """A complete round consistent with ``view``: the cards that seat cannot see (the
        opponent's hand, the draw pile, and its own hand while the exchange hides it) dealt at
        random from ``rng``. For searches (determinization); it has no deck record or moves.

        ``opponent_hand`` (a mask of unseen cards, as many as the opponent holds) deals him
        those cards instead, the rest at random: a search that weighs what his plays revealed
        chooses his hand itself. A mask that does not fit the view is a ValueError.

        >>> from koikoi_desktop.engine.rules import PRESETS
        >>> s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(2))
        >>> d = RoundState.from_view(s.view(0), random.Random(9))
        >>> d.hand(0) == s.hand(0), d.field == s.field, len(d.hand(1)), len(d.draw_pile)
        (True, True, 8, 24)
        >>> d.legal_actions() == s.legal_actions()
        True
        """
        me = view.player
        opp = 1 - me
        hidden = view.unseen_mask
        if opponent_hand is not None and (
            view.hand_hidden
            or opponent_hand & ~hidden
            or opponent_hand.bit_count() != view.opponent_hand_size
        ):
            raise ValueError(
                f"opponent_hand must be {view.opponent_hand_size} of the unseen cards"
                " (and the seat's own hand known)."
            )
        unseen = list(ids_of(hidden if opponent_hand is None else hidden & ~opponent_hand))
        rng.shuffle(unseen)
        hands = [0, 0]
        pos = 0
        if view.hand_hidden:
            hands[me] = mask_of(unseen[:8])
            pos = 8
        else:
            hands[me] = view.hand_mask
        if opponent_hand is None:
            hands[opp] = mask_of(unseen[pos : pos + view.opponent_hand_size])
            pos += view.opponent_hand_size
        else:
            hands[opp] = opponent_hand
        last_caller = None
        last_decider = None
        started = [False, False]
        for e in view.history:
            if isinstance(e, KoiKoiCalled):
                last_caller = e.player
            elif isinstance(e, YakuMade):
                last_decider = e.player
            elif isinstance(e, (Played, Discarded, GajiPaired)):
                started[e.player] = True
        if view.to_move is not None and view.phase == _PH_PLAY:
            started[view.to_move] = True
        self = cls.__new__(cls)
        self.rules = view.rules
        self.scorer = scorer_for(view.rules)
        self.dealer = view.dealer
        self.deals = []
        self.deck = ()
        self.moves = []
        self.history = []
        self.hands = hands
        self.pile = tuple(unseen[pos:])
        self.pile_pos = 0
        self.caps = [view.cap_masks[0], view.cap_masks[1]]
        self.field_mask = view.field_mask
        self.pending = view.pending_draw
        self.phase = view.phase
        self.to_move = view.to_move
        self.refs = list(view.refs)
        self.calls = list(view.calls)
        self.turns = list(view.turns)
        self.field_brights = view.field_brights
        self.gaji_owner = view.gaji_owner
        self.gaji_month = view.gaji_month
        self.outcome = view.outcome
        self.last_caller = last_caller
        self.last_decider = last_decider
        self._declare_open = view.phase == _PH_PLAY and DECLARE in view.legal
        self._first_turn_started = started
        self._legal = None
        self._decided_ref = (
            self.scorer.base(self.caps[view.to_move])
            if view.phase == _PH_DECIDE and view.to_move is not None
            else 0
        )
        return self

    def _needs_redeal(self, field: int) -> bool:
        mode = self.rules.field_redeal
        if mode == "none":
            return False
        counts = [(field & MONTH_MASK[m]).bit_count() for m in range(1, 13)]
        if 4 in counts:
            return True
        return mode == "four_of_a_month_or_four_pairs" and all(c % 2 == 0 for c in counts)

    def _after_exchange(self, events: list[Event]) -> None:
        """R-DEAL-5 was recorded at the deal; now the at-deal instant wins, then the first turn."""
        rules = self.rules
        self.to_move = self.dealer
        if rules.instant_win_timing == "at_deal":
            for p in (self.dealer, 1 - self.dealer):
                iw = instant_win(self.hands[p], rules)
                if iw is None:
                    continue
                if rules.instant_win_declaration == "automatic":
                    self._instant(p, iw, events)
                    return
                self.phase = _PH_DECLARE
                self.to_move = p
                return
        self._begin_turn(events)

    # ------------------------------------------------------------------ reading
    @property
    def field(self) -> frozenset[int]:
        """The face-up field cards."""
        return frozenset(ids_of(self.field_mask))

    def hand(self, player: int) -> frozenset[int]:
        """Player ``player``'s hand."""
        return frozenset(ids_of(self.hands[player]))

    def captured(self, player: int) -> frozenset[int]:
        """Player ``player``'s capture pile (face up, R-TURN-4)."""
        return frozenset(ids_of(self.caps[player]))

    @property
    def draw_pile(self) -> tuple[int, ...]:
        """The undrawn cards, top first (hidden from the players)."""
        return self.pile[self.pile_pos :]

    @property
    def pending_draw(self) -> int:
        """The drawn card waiting for a ``draw>T`` choice (0 if none)."""
        return self.pending

    def base(self, player: int) -> int:
        """The yaku total of ``player``'s capture pile."""
        return self.scorer.base(self.caps[player])

    def yaku(self, player: int) -> tuple[Yaku, ...]:
        """The yaku ``player`` holds now."""
        return self.scorer.score(self.caps[player]).yaku

    @property
    def koikoi_allowed(self) -> bool:
        """Whether a koi-koi call is still allowed this round (R-KOI-7)."""
        lim = self.rules.koikoi_limit
        return lim is None or self.calls[0] + self.calls[1] < lim

    def captures(self, action: Action | str) -> tuple[int, ...]:
        """The field cards a legal ``action`` would take now with the card it moves (the hand
        card, or the pending drawn card for ``draw>T``), before the draw that follows a hand
        play: what a table lights as targets and a hint names. Empty for a card laid on the
        field and for actions that move no card. Raises IllegalAction, like ``apply``, when
        the action is not legal now.

        >>> from koikoi_desktop.engine.rules import PRESETS
        >>> s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(3))
        >>> {str(a): s.captures(a) for a in s.legal_actions()}  # doctest: +NORMALIZE_WHITESPACE
        {'play 2': (3,), 'play 4': (3,), 'play 10>11': (11,), 'play 10>12': (12,),
         'play 23': (22,), 'play 27': (), 'play 32': (), 'play 36': (), 'play 44': ()}
        >>> s.captures("play 10")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        koikoi_desktop.engine.actions.IllegalAction: Card 10 matches two field cards: choose ...
        """
        if isinstance(action, str):
            action = Action.from_text(action)
        if action not in self.legal_actions():
            raise self._why_illegal(action)
        return ids_of(capture_mask(action, self.field_mask))

    def koikoi_odds(self, seat: int) -> KoikoiOdds:
        """What stopping or calling koi-koi puts at stake for ``seat`` now (RULES.md §8, §10):
        the stop value with its multipliers, the opponent's payout if he stops after a
        koi-koi, the cards left (see :class:`KoikoiOdds`)."""
        return koikoi_odds(
            self.rules,
            seat=seat,
            caps=(self.caps[0], self.caps[1]),
            calls=(self.calls[0], self.calls[1]),
            field_brights=self.field_brights,
            hand_sizes=(self.hands[0].bit_count(), self.hands[1].bit_count()),
            sweep=gaji_sweep(self.field_mask, self.gaji_owner, self.gaji_month),
        )

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """The legal Actions now, in a fixed order (empty once the round is over)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == _PH_PLAY:
            return self._hand_actions()
        if phase == _PH_DRAW:
            return [DRAW_TO[t] for t in ids_of(self.field_mask & MONTH_MASK_OF[self.pending])]
        if phase == _PH_DECIDE:
            p = self.to_move
            assert p is not None
            return [KOIKOI, STOP] if self.hands[p] else [STOP]
        if phase == _PH_EXCHANGE:
            return [EXCHANGE, KEEP]
        if phase == _PH_DECLARE:
            return [DECLARE, KEEP]
        return []

    def _hand_actions(self, only: int = 0) -> list[Action]:
        """The legal actions of the play phase; with ``only`` (a card id) those of that card
        alone, besides the declaration (what ``apply`` checks a hand play against)."""
        p = self.to_move
        assert p is not None
        out: list[Action] = [DECLARE] if self._declare_open else []
        h = self.hands[p]
        f = self.field_mask
        free = self.rules.free_discard
        wild = bool(h & _GAJI_BIT) and gaji_open(self.rules, f, (self.caps[0], self.caps[1]))
        if only:
            h &= 1 << only
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            choices = capture_choices(c, f, wild)
            if not choices or not f & MONTH_MASK_OF[c]:  # laid (also beside the Gaji pairings)
                out.append(PLAY[c])
                row = PLAY_TO[c]
                out.extend(row[t.bit_length() - 1] for t in choices)
                continue
            if len(choices) == 2:
                row = PLAY_TO[c]
                out.extend(row[t.bit_length() - 1] for t in choices)
            else:
                out.append(PLAY[c])
            if free:
                out.append(DISCARD[c])
        return out

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action | str, *, events: bool = True) -> list[Event]:
        """Apply a legal action (an Action or its text); return the event records.

        Raises IllegalAction, with a sentence a player can read, and changes nothing, when the
        action is not legal now.

        ``events=False`` (a check of a record, which reads the outcome and never the events):
        the same check and the same rules, but a hand play builds no event records (see
        :meth:`step`) and the move adds nothing to :attr:`history`, which then no longer tells
        the round; the state, the moves and the outcome are what they would be.
        """
        if isinstance(action, str):
            action = Action.from_text(action)
        elif type(action) is not Action:
            raise IllegalAction(
                f"{action!r} is not a move: pass an Action or its text.",
                IllegalReason.NOT_A_MOVE,
            )
        legal = self._legal
        if legal is None:
            c = action.card
            if (
                type(c) is int
                and 0 < c <= 48
                and action.kind in _HAND_KINDS
                and self.phase == _PH_PLAY
            ):
                legal = self._hand_actions(c)  # that card's plays: all it can be legally
            else:
                legal = self._legal = self._compute_legal()
        if action not in legal:
            raise self._why_illegal(action)
        self._legal = None
        self.moves.append(action)
        if not events:
            return self._do(action, False)
        told = self._do(action)
        self.history.extend(told)
        return told

    def step(self, action: Action, *, events: bool = True) -> list[Event]:
        """Carry out an action known to be legal, for searches: no check, no move record, no
        history (``apply`` is the checked path). Passing an illegal action corrupts the state.

        ``events=False``: a hand play builds no event records for its capture and draw (a
        rollout has no one to show them to) and the returned list holds only the rarer ones
        (yaku, koi-koi, the end). The rules run through the same routine either way.
        """
        return self._do(action, events)

    def fast_legal(self) -> list[Action]:
        """The legal actions, computed afresh without copying (for searches; do not modify)."""
        return self._compute_legal()

    @property
    def declare_open(self) -> bool:
        """Whether the mover may declare a first-turn instant win now (R-INSTANT, optional)."""
        return self._declare_open

    def _do(self, action: Action, record: bool = True) -> list[Event]:
        """Carry out a legal action (no checks; ``apply`` and ``step`` call this)."""
        self._legal = None
        events: list[Event] = []
        kind = action.kind
        p = self.to_move
        assert p is not None
        if kind in _HAND_KINDS:
            self._declare_open = False
            self._turn(p, action, events, record)
        elif kind == _K_DRAW:
            card = self.pending
            self.pending = 0
            taken = capture_mask(action, self.field_mask)
            self.field_mask ^= taken
            self.caps[p] |= (1 << card) | taken
            events.append(Drew(p, card, ids_of(taken)))
            self._end_turn(p, events)
        elif kind == _K_KOIKOI:
            self.calls[p] += 1
            self.refs[p] = self._decided_ref
            self.last_caller = p
            events.append(KoiKoiCalled(p, self.calls[p]))
            self._after_turn(p, events)
        elif kind == _K_STOP:
            events.append(Stopped(p, self._decided_ref))
            self._finish(p, RoundEnd.STOP, events)
        elif kind == _K_DECLARE:
            iw = instant_win(self.hands[p], self.rules)
            assert iw is not None
            self._declare_open = False
            self._instant(p, iw, events)
        elif kind in _DEAL_KINDS:
            if self.phase == _PH_EXCHANGE:
                if kind == _K_EXCHANGE:
                    self.hands[0], self.hands[1] = self.hands[1], self.hands[0]
                events.append(ExchangeDecided(p, kind == _K_EXCHANGE))
                self._after_exchange(events)
            else:  # declining an at-deal optional instant win (custom rule sets)
                events.append(InstantWinDeclined(p))
                self._after_declined_deal_win(p, events)
        return events

    def _after_declined_deal_win(self, p: int, events: list[Event]) -> None:
        if p == self.dealer:
            nd = 1 - p
            if instant_win(self.hands[nd], self.rules) is not None:
                self.to_move = nd
                return
        self.to_move = self.dealer
        self._begin_turn(events)

    def _why_illegal(self, a: Action) -> IllegalAction:
        """The reason ``a`` is not legal now, as an IllegalAction with a translation key."""
        E = IllegalAction
        Why = IllegalReason
        if self.outcome is not None:
            return E("The round is over: no more moves.", Why.ROUND_OVER)
        phase = self.phase
        p = self.to_move
        assert p is not None
        if phase == _PH_EXCHANGE:
            return E(
                "First the non-dealer decides whether to exchange hands: 'exchange' or 'keep'.",
                Why.EXCHANGE_FIRST,
            )
        if phase == _PH_DECLARE:
            return E(
                "First decide whether to declare the instant win: 'declare' or 'keep'.",
                Why.DECLARE_FIRST,
            )
        if phase == _PH_DECIDE:
            if a.kind == _K_KOIKOI:
                if not self.hands[p]:
                    return E(
                        "Koi-koi needs cards in hand: on your last turn you can only stop.",
                        Why.KOIKOI_NEEDS_CARDS,
                    )
                return E("No more koi-koi calls this round: you must stop.", Why.KOIKOI_LIMIT)
            return E("You made a yaku: choose 'stop' or 'koikoi'.", Why.CHOOSE_STOP_OR_KOIKOI)
        if phase == _PH_DRAW:
            opts = tuple(x.target for x in self._compute_legal())
            text = ", ".join(f"draw>{t}" for t in opts)
            return E(
                f"The drawn card matches two field cards: choose one ({text}).",
                Why.CHOOSE_DRAW_TARGET,
                card=self.pending,
                options=opts,
            )
        # hand phase
        if a.kind in (_K_KOIKOI, _K_STOP):
            return E(
                "There is nothing to stop or continue: play a card from your hand.",
                Why.NOTHING_TO_DECIDE,
            )
        if a.kind == _K_DECLARE:
            return E("You cannot declare an instant win now.", Why.CANNOT_DECLARE)
        if a.kind in (_K_EXCHANGE, _K_KEEP):
            return E("Hands can only be exchanged right after the deal.", Why.EXCHANGE_ONLY_AT_DEAL)
        if a.kind == _K_DRAW:
            return E(
                "Play a card from your hand first; the draw follows by itself.", Why.PLAY_FIRST
            )
        c = a.card
        if not self.hands[p] >> c & 1:
            return E(f"Card {c} is not in your hand.", Why.NOT_IN_HAND, card=c)
        mm = self.field_mask & MONTH_MASK_OF[c]
        n = mm.bit_count()
        if a.kind == _K_DISCARD:
            if not self.rules.free_discard:
                return E(
                    f"Card {c} matches the field and must capture: discarding is not allowed.",
                    Why.MUST_CAPTURE,
                    card=c,
                )
            return E(f"Card {c} has no match: play it with 'play {c}'.", Why.NO_MATCH_PLAY, card=c)
        t = a.target
        if not t:
            if n == 2:
                a1, a2 = ids_of(mm)
                return E(
                    f"Card {c} matches two field cards: choose one "
                    f"(play {c}>{a1} or play {c}>{a2}).",
                    Why.CHOOSE_TARGET,
                    card=c,
                    options=(a1, a2),
                )
            return E(f"'play {c}' is not possible now.", Why.PLAY_NOT_POSSIBLE, card=c)
        if not self.field_mask >> t & 1:
            return E(f"Card {t} is not on the field.", Why.NOT_ON_FIELD, card=c, target=t)
        if MONTH[t] != MONTH[c]:
            return E(
                f"Card {c} and card {t} are not of the same month.",
                Why.NOT_SAME_MONTH,
                card=c,
                target=t,
            )
        return E(
            f"Card {c} takes the only match by itself: write 'play {c}'.",
            Why.SINGLE_MATCH,
            card=c,
            target=t,
        )

    def _turn(self, p: int, a: Action, events: list[Event], record: bool) -> None:
        """R-TURN-1 and R-TURN-2: the hand card's capture (or discard), then the draw.

        The one capture routine for ``apply`` and the searches; ``record=False`` (fast rollouts)
        skips building the play and draw records, nothing else.
        """
        c = a.card
        bit = 1 << c
        self.hands[p] ^= bit
        f = self.field_mask
        if a.kind == _K_DISCARD:
            f |= bit
            if record:
                events.append(Discarded(p, c))
        else:
            t = a.target
            taken = capture_mask(a, f)
            if taken:
                f ^= taken
                self.caps[p] |= bit | taken
            else:
                f |= bit
            if t and MONTH[t] != MONTH[c]:  # R-TURN-1b: the Gaji wild pairing
                self.gaji_owner = p
                self.gaji_month = MONTH[t]
                if record:
                    events.append(GajiPaired(p, c, (t,), MONTH[t]))
            elif record:
                events.append(Played(p, c, ids_of(taken) if taken else ()))
        self.field_mask = f
        # R-TURN-2: the draw phase follows at once.
        if self.pile_pos >= len(self.pile):  # R-INV-3 says this cannot happen
            self._exhausted(events)
            return
        d = self.pile[self.pile_pos]
        self.pile_pos += 1
        mm = f & MONTH_MASK_OF[d]
        n = mm.bit_count()
        if n == 2:
            self.pending = d
            self.phase = _PH_DRAW
            if record:
                events.append(DrawPending(p, d, ids_of(mm)))
            return
        if n:
            self.field_mask = f ^ mm
            self.caps[p] |= (1 << d) | mm
        else:
            self.field_mask = f | (1 << d)
        if record:
            events.append(Drew(p, d, ids_of(mm) if n else ()))
        self._end_turn(p, events)

    def _end_turn(self, p: int, events: list[Event]) -> None:
        """R-TURN-3: yaku check and decision, then the exhaustion check."""
        self.turns[p] += 1
        base = self.scorer.base(self.caps[p])
        if base > self.refs[p]:
            self.last_decider = p
            self._decided_ref = base
            events.append(YakuMade(p, base, self.scorer.score(self.caps[p]).keys()))
            if not self.koikoi_allowed:
                events.append(Stopped(p, base, forced=True))
                self._finish(p, RoundEnd.FORCED_STOP, events)
                return
            self.phase = _PH_DECIDE
            return
        self._after_turn(p, events)

    def _after_turn(self, p: int, events: list[Event]) -> None:
        rules = self.rules
        if rules.exhaustion == "oya_hand_empty":
            if p == self.dealer and not self.hands[p]:
                self._oya_hand_empty(events)
                return
        elif not self.hands[0] and not self.hands[1]:
            self._exhausted(events)
            return
        nxt = 1 - p
        self.to_move = nxt
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        p = self.to_move
        assert p is not None
        rules = self.rules
        self.phase = _PH_PLAY
        if rules.instant_win_timing == "first_turn" and not self._first_turn_started[p]:
            self._first_turn_started[p] = True
            iw = instant_win(self.hands[p], rules)
            if iw is not None:
                if rules.instant_win_declaration == "automatic":
                    self._instant(p, iw, events)
                    return
                self._declare_open = True
        if rules.flip_when_field_empty and not self.field_mask:
            if self.pile_pos >= len(self.pile):
                self._exhausted(events)
                return
            d = self.pile[self.pile_pos]
            self.pile_pos += 1
            self.field_mask |= 1 << d
            events.append(Flipped(d))

    # ------------------------------------------------------------------ endings
    def _exhausted(self, events: list[Event]) -> None:
        """The hands ran out (R-END-1, R-END-2; R-END-3 is ``_oya_hand_empty``)."""
        mode = self.rules.exhaustion
        if mode == "last_koi_caller_scores" and self.last_caller is not None:
            self._finish(self.last_caller, RoundEnd.EXHAUSTION_LAST_CALLER, events)
        elif mode == "last_koi_caller_scores":
            self._finish(None, RoundEnd.EXHAUSTION_NO_CALLER, events)
        elif mode == "oya_hand_empty":
            self._oya_hand_empty(events)
        else:
            self._finish(None, RoundEnd.EXHAUSTION_DRAW, events)

    def _oya_hand_empty(self, events: list[Event]) -> None:
        nd = 1 - self.dealer
        if self.last_decider == nd:
            self._finish(nd, RoundEnd.OYA_HAND_EMPTY_WIN, events)
        else:
            self._finish(None, RoundEnd.OYA_HAND_EMPTY_VOID, events)

    def _instant(self, p: int, iw: tuple[str, int], events: list[Event]) -> None:
        kind, value = iw
        events.append(InstantWon(p, ids_of(self.hands[p]), value, kind))
        self._gaji_sweep(events)
        fs: tuple[tuple[str, int], ...] = ()
        final = value
        if self.rules.instant_win_multipliers:
            fs = tuple(self._factors(p, value))
            for _, f in fs:
                final *= f
        self._close(
            Outcome(
                p,
                RoundEnd.INSTANT_WIN,
                value,
                final,
                (),
                fs,
                (self.calls[p], self.calls[1 - p]),
                kind,
            ),
            events,
        )

    def _gaji_sweep(self, events: list[Event]) -> None:
        """R-END-4 / R-TURN-1b: whenever the round ends, the Gaji owner takes his Gaji month."""
        if self.gaji_owner is None:
            return
        owner = self.gaji_owner
        sweep = gaji_sweep(self.field_mask, owner, self.gaji_month)[owner]
        if sweep:
            self.field_mask ^= sweep
            self.caps[owner] |= sweep
            events.append(Swept(owner, ids_of(sweep), self.gaji_month))

    def _factors(self, p: int, base: int) -> list[tuple[str, int]]:
        return factors(
            base,
            self.rules,
            winner_calls=self.calls[p],
            loser_calls=self.calls[1 - p],
            field_brights=self.field_brights,
        )

    def _finish(self, winner: int | None, reason: RoundEnd, events: list[Event]) -> None:
        """End the round: Gaji sweep (R-END-4), then score the winner (R-MULT)."""
        self._gaji_sweep(events)
        if winner is None:
            self._close(Outcome(None, reason), events)
            return
        sc = self.scorer.score(self.caps[winner])
        fs = tuple(self._factors(winner, sc.base))
        final = sc.base
        for _, f in fs:
            final *= f
        calls = (self.calls[winner], self.calls[1 - winner])
        self._close(Outcome(winner, reason, sc.base, final, sc.yaku, fs, calls), events)

    def _close(self, outcome: Outcome, events: list[Event]) -> None:
        self.outcome = outcome
        self.phase = _PH_OVER
        self.to_move = None
        self._legal = []
        events.append(RoundOver(outcome.winner, outcome.final, outcome.reason))

    # ------------------------------------------------------------------ the move stack
    @property
    def move_stack(self) -> tuple[Action, ...]:
        """The moves applied this round, oldest first (python-chess ``Board.move_stack``)."""
        return tuple(self.moves)

    def movers(self) -> tuple[int, ...]:
        """The seat that made each move of ``move_stack`` (replayed from the deal record)."""
        seats: list[int] = []
        state = self._redealt()
        for a in self.moves:
            assert state.to_move is not None
            seats.append(state.to_move)
            state._do(a, False)
        return tuple(seats)

    def pop(self) -> Action:
        """Take back the last move and return it (python-chess ``Board.pop``).

        The round is dealt again from its recorded deck orders and every earlier move replayed,
        so the state, the history and the legal moves are exactly what they were before it.
        Raises IndexError when no move was made; ValueError for a round without a deal record
        (a ``from_view`` determinization).

        >>> from koikoi_desktop.engine.rules import PRESETS
        >>> s = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(3))
        >>> before = (s.field, s.hand(0), s.legal_actions(), len(s.history))
        >>> _ = s.apply("play 10>11")
        >>> s.pop(), (s.field, s.hand(0), s.legal_actions(), len(s.history)) == before
        (Action.from_text('play 10>11'), True)
        """
        return self.take_back()[0]

    def take_back(self, seat: int | None = None) -> list[Action]:
        """Take back the last move, or with ``seat`` every move back to and including that
        seat's last one this round (an undo of "my last move" that also takes back the replies
        after it). Returns the moves taken back, oldest first. Raises IndexError when there is
        no such move (see ``pop``).
        """
        if not self.moves:
            raise IndexError("No move to take back: none was made this round.")
        keep = len(self.moves) - 1
        if seat is not None:
            seats = self.movers()
            if seat not in seats:
                raise IndexError(f"Player {seat} made no move this round.")
            keep = len(seats) - 1 - seats[::-1].index(seat)
        state = self._redealt()
        for a in self.moves[:keep]:
            state.apply(a)
        taken = self.moves[keep:]
        moves = self.moves  # the list object a Match's record of this deal holds
        for name in RoundState.__slots__:
            setattr(self, name, getattr(state, name))
        moves[:] = state.moves
        self.moves = moves
        return taken

    def _redealt(self) -> RoundState:
        """This round as it stood right after its deal (before any move)."""
        if not self.deals:
            raise ValueError("This round has no deal record to replay (a determinization).")
        decks = iter(self.deals)
        return RoundState.deal(self.rules, dealer=self.dealer, next_deck=lambda: next(decks))

    # ------------------------------------------------------------------ copies, views, records
    def copy(self) -> RoundState:
        """An independent copy (for undo and search)."""
        c = RoundState.__new__(RoundState)
        for name in RoundState.__slots__:
            setattr(c, name, getattr(self, name))
        c.hands = list(self.hands)
        c.caps = list(self.caps)
        c.refs = list(self.refs)
        c.calls = list(self.calls)
        c.turns = list(self.turns)
        c.moves = list(self.moves)
        c.history = list(self.history)
        c.deals = list(self.deals)
        c._first_turn_started = list(self._first_turn_started)
        c._legal = None
        return c

    def view(self, player: int) -> PlayerView:
        """What seat ``player`` may see: never the opponent's hand or the draw pile's order.

        While the exchange decision is open (R-DEAL-4) even the player's own hand is hidden.
        """
        if player not in (0, 1):
            raise ValueError("Players are 0 and 1.")
        hidden = self.phase == _PH_EXCHANGE
        hand_mask = 0 if hidden else self.hands[player]
        return PlayerView(
            player=player,
            rules=self.rules,
            dealer=self.dealer,
            to_move=self.to_move,
            phase=self.phase,
            hand=ids_of(hand_mask),
            field=ids_of(self.field_mask),
            captured=(ids_of(self.caps[0]), ids_of(self.caps[1])),
            opponent_hand_size=self.hands[1 - player].bit_count(),
            pile_size=len(self.pile) - self.pile_pos,
            pending_draw=self.pending,
            calls=(self.calls[0], self.calls[1]),
            refs=(self.refs[0], self.refs[1]),
            turns=(self.turns[0], self.turns[1]),
            field_brights=self.field_brights,
            gaji_owner=self.gaji_owner,
            gaji_month=self.gaji_month,
            legal=tuple(self.legal_actions()) if self.to_move == player else (),
            history=tuple(self.history),
            outcome=self.outcome,
            hand_hidden=hidden,
            hand_mask=hand_mask,
            field_mask=self.field_mask,
            cap_masks=(self.caps[0], self.caps[1]),
        )

    def check_invariants(self) -> None:
        """Assert R-INV-1: the 48 cards are partitioned among pile, field, hands and piles."""
        parts = [
            mask_of(self.pile[self.pile_pos :]),
            self.field_mask,
            self.hands[0],
            self.hands[1],
            self.caps[0],
            self.caps[1],
            (1 << self.pending) if self.pending else 0,
        ]
        total = 0
        for m in parts:
            assert not total & m, "a card is in two places"
            total |= m
        assert total == FULL_MASK, "a card is missing"

    def __repr__(self) -> str:
        return (
            f"<RoundState dealer={self.dealer} to_move={self.to_move} phase={self.phase} "
            f"moves={len(self.moves)}>"
        )


def new_round(
    rules: Rules,
    *,
    dealer: int,
    deck: Sequence[int] | None = None,
    rng: random.Random | None = None,
) -> RoundState:
    """Deal a new round (RULES.md §4-§5).

    ``deck``: the 48 ids, index 0 on top (None: shuffled from ``rng``). ``rng``: a
    ``random.Random`` for the shuffles; the engine has no randomness of its own, so one of the
    two is required. A deal that must be redealt (R-DEAL-3) is redealt inside, by the same
    dealer, from ``rng`` — given a ``deck`` and no ``rng``, such a deal is a ``ValueError``
    (the deck alone does not say what comes next; a match replays its recorded decks through
    ``RoundState.deal``). An instant win decided at the deal leaves the round already over.

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> a = new_round(PRESETS["seed-003"], dealer=1, rng=random.Random(7))
    >>> b = new_round(PRESETS["seed-003"], dealer=1, rng=random.Random(7))
    >>> a.deck == b.deck, a.to_move
    (True, 1)
    """
    if rng is None and deck is None:
        raise ValueError("new_round needs a deck or an rng (the engine has no hidden random)")
    first = [list(deck)] if deck is not None else []

    def next_deck() -> list[int]:
        if first:
            return first.pop()
        if rng is None:
            raise ValueError(
                "this deal must be redealt (R-DEAL-3): give new_round an rng for the redeal"
            )
        d = list(range(1, 49))
        rng.shuffle(d)
        return d

    return RoundState.deal(rules, dealer=dealer, next_deck=next_deck)


__all__ = [
    "DECK",
    "Outcome",
    "PlayerView",
    "RoundState",
    "deal_positions",
    "instant_win",
    "new_round",
]
