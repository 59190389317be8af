"""A whole match: rounds, dealer rotation, coins or points, the ledger, the end.

RULES.md §3 (setup), §11 (settlement, ledger) and §12 (end of match).

>>> from koikoi_desktop.engine.rules import PRESETS
>>> m = new_match(PRESETS["nintendo"], first_dealer=0, seed=4)
>>> m.dealer, m.balances, m.outcome is None
(0, (0, 0), True)
>>> import random
>>> rng = random.Random(0)
>>> while m.outcome is None:
...     _ = m.apply(rng.choice(m.round.legal_actions()))
>>> len(m.ledger) >= 12, m.outcome.winner in (0, 1, None)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from koikoi_desktop.engine.actions import Action, IllegalAction, IllegalReason
from koikoi_desktop.engine.cards import MONTH
from koikoi_desktop.engine.chance import commitment, deck, first_dealer_stream
from koikoi_desktop.engine.events import Event, MatchEnd, MatchOver, RoundEnd, Settled
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One settled round, exactly the fields RULES.md §11 lists."""

    round: int
    dealer: int
    end: RoundEnd
    winner: int | None
    yaku: tuple[tuple[str, int], ...]
    base: int
    factors: tuple[tuple[str, int], ...]
    final: int
    paid: int
    balances: tuple[int, int]
    instant: str = ""
    koikoi_calls: tuple[int, int] = (0, 0)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict (the storage layer's RoundEntry has the same field names)."""
        return {
            "round": self.round,
            "dealer": self.dealer,
            "end": self.end,
            "winner": self.winner,
            "yaku": [{"key": k, "points": v} for k, v in self.yaku],
            "base": self.base,
            "factors": [{"name": n, "factor": f} for n, f in self.factors],
            "final": self.final,
            "paid": self.paid,
            "balances": list(self.balances),
            "instant": self.instant,
            "koikoi_calls": list(self.koikoi_calls),
        }


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How the match ended: ``winner`` 0, 1 or None (drawn); ``reason`` a :class:`MatchEnd`
    (rounds, target, bankruptcy or ended_early)."""

    winner: int | None
    reason: MatchEnd
    balances: tuple[int, int]


def settle(
    rules: Rules, balances: tuple[int, int], winner: int | None, final: int
) -> tuple[int, tuple[int, int]]:
    """RULES.md §11: (amount paid, balances after) when ``winner`` (None: nobody) wins a round
    scored ``final`` from ``balances``. The one place the settlement rules are written.

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> settle(PRESETS["seed-000"], (100, 6), 0, 10), settle(PRESETS["seed-003"], (3, 0), 1, 5)
    ((6, (106, 0)), (5, (-2, 5)))
    """
    bal = [balances[0], balances[1]]
    if winner is None:
        return 0, balances
    loser = 1 - winner
    paid = min(final, bal[loser]) if rules.settlement == "transfer_capped" else final
    bal[winner] += paid
    if rules.settlement != "winner_only":
        bal[loser] -= paid
    return paid, (bal[0], bal[1])


def next_dealer(rules: Rules, dealer: int, winner: int | None) -> int:
    """R-SETUP-3: the dealer of the round after one dealt by ``dealer`` and won by ``winner``
    (None: nobody won it). The winner deals; a round without a winner keeps the dealer or
    passes the deal, per ``dealer_after_no_winner``.

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> next_dealer(PRESETS["nintendo"], 0, 1), next_dealer(PRESETS["nintendo"], 0, None)
    (1, 1)
    >>> next_dealer(PRESETS["seed-000"], 0, None)
    0
    """
    if winner is not None:
        return winner
    return 1 - dealer if rules.dealer_after_no_winner == "alternate" else dealer


def match_end(rules: Rules, balances: tuple[int, int], rounds_played: int) -> MatchOutcome | None:
    """RULES.md §12: how the match ends with ``balances`` after ``rounds_played`` settled rounds,
    or None when it goes on (equal totals under ``final_tie = extra_round``: one more round).
    The one place the match-end rules are written (the match and :class:`MatchContext` ask it).

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> match_end(PRESETS["seed-001"], (52, 40), 3)
    MatchOutcome(winner=0, reason=MatchEnd.TARGET, balances=(52, 40))
    >>> match_end(PRESETS["seed-003"], (10, 10), 12) is None
    True
    >>> match_end(PRESETS["nintendo"], (9, 9), 12)
    MatchOutcome(winner=None, reason=MatchEnd.ROUNDS, balances=(9, 9))
    """
    a, b = balances
    winner = None if a == b else (0 if a > b else 1)
    if rules.bankruptcy_ends_match and min(a, b) <= 0:
        return MatchOutcome(winner, MatchEnd.BANKRUPTCY, balances)
    if rules.match_end == "target":
        if max(a, b) >= rules.match_target:
            return MatchOutcome(winner, MatchEnd.TARGET, balances)
        return None
    if rounds_played >= rules.match_rounds:
        if winner is None and rules.final_tie == "extra_round":
            return None
        return MatchOutcome(winner, MatchEnd.ROUNDS, balances)
    return None


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The public state of the match around one seat's decision in its current round: what a
    player at the table knows besides the round itself (the scoreboard and the match rules).
    Get it from a live match with :meth:`Match.context`; build one directly for a position of a
    recorded match (a review) or a constructed test.

    ``seat``: the deciding seat; ``balances``: points or coins of seats 0 and 1 before the
    current round; ``rounds_played``: rounds settled before it; ``rules``: the match's rule set,
    which says the unit, the settlement and the match-end rule (read through the properties).
    :meth:`after` answers "if the current round ended so, where would the match stand?" with the
    engine's own settlement and match-end rules (:func:`settle`, :func:`match_end`).

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> ctx = MatchContext(seat=1, balances=(30, 22), rounds_played=11, rules=PRESETS["nintendo"])
    >>> ctx.mine, ctx.theirs, ctx.lead, ctx.rounds_left, ctx.last_round
    (22, 30, -8, 0, True)
    >>> ctx.after(1, 9)
    ((30, 31), MatchOutcome(winner=1, reason=MatchEnd.ROUNDS, balances=(30, 31)))
    """

    seat: int
    balances: tuple[int, int]
    rounds_played: int
    rules: Rules

    def __post_init__(self) -> None:
        if self.seat not in (0, 1):
            raise ValueError("Players are 0 and 1.")

    @property
    def mine(self) -> int:
        """The deciding seat's points or coins."""
        return self.balances[self.seat]

    @property
    def theirs(self) -> int:
        """The opponent's points or coins."""
        return self.balances[1 - self.seat]

    @property
    def lead(self) -> int:
        """``mine - theirs``."""
        return self.mine - self.theirs

    @property
    def unit(self) -> str:
        """``coins`` or ``points``."""
        return self.rules.unit

    @property
    def match_end(self) -> str:
        """``rounds`` (a fixed number of rounds) or ``target`` (a race)."""
        return self.rules.match_end

    @property
    def target(self) -> int | None:
        """The race's target (None when the match has a fixed number of rounds)."""
        return self.rules.match_target if self.rules.match_end == "target" else None

    @property
    def rounds_left(self) -> int | None:
        """Rounds still to come after the current one in a fixed-length match (0 in the last
        round and in extra rounds); None in a race."""
        if self.rules.match_end == "target":
            return None
        return max(0, self.rules.match_rounds - self.rounds_played - 1)

    @property
    def last_round(self) -> bool:
        """True when the current round is the last of a fixed-length match (unless it ends in
        equal totals under ``final_tie = extra_round``)."""
        return self.rounds_left == 0

    @property
    def bankruptcy(self) -> bool:
        """True when a player left with no coins ends the match (``seed-000``)."""
        return self.rules.bankruptcy_ends_match

    def after(self, winner: int | None, final: int) -> tuple[tuple[int, int], MatchOutcome | None]:
        """Balances after the current round if ``winner`` (a seat, or None) wins it scoring
        ``final``, and how the match would then end (None: it goes on)."""
        _, bal = settle(self.rules, self.balances, winner, final)
        return bal, match_end(self.rules, bal, self.rounds_played + 1)


@dataclass(frozen=True, slots=True)
class FirstDealer:
    """The first dealer chosen by R-SETUP-2, with the chance steps for the table to show.

    ``draws``: for lowest_month_draw, each pair of cards drawn (player 0's, player 1's); for
    birth_month_reveal, each revealed card as a 1-tuple. ``method``: age, draw, birth_month or
    random (the tie-break).
    """

    dealer: int
    method: str
    draws: tuple[tuple[int, ...], ...] = ()


def reveal_order(rng: random.Random) -> list[int]:
    """The order in which the birth-month reveal turns the 48 cards (one shuffle of ``rng``):
    the one definition :func:`choose_first_dealer` draws from and a deal check recomputes.

    >>> sorted(reveal_order(random.Random(3))) == list(range(1, 49))
    True
    """
    deck = list(range(1, 49))
    rng.shuffle(deck)
    return deck


def choose_first_dealer(
    rules: Rules,
    rng: random.Random,
    *,
    ages: tuple[int | None, int | None] = (None, None),
    birth_months: tuple[int | None, int | None] = (None, None),
) -> FirstDealer:
    """Choose the first dealer as the rule set says (R-SETUP-2), drawing chance from ``rng``.

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> choose_first_dealer(PRESETS["seed-000"], random.Random(1), ages=(30, 41))
    FirstDealer(dealer=1, method='age', draws=())
    """
    mode = rules.first_dealer
    if mode == "oldest_player":
        a, b = ages
        if a is not None and b is not None and a != b:
            return FirstDealer(0 if a > b else 1, "age")
        return FirstDealer(rng.randrange(2), "random")
    if mode == "birth_month_reveal":
        m0, m1 = birth_months
        if m0 is None or m1 is None or m0 == m1:
            return FirstDealer(rng.randrange(2), "random")
        shown: list[tuple[int, ...]] = []
        for c in reveal_order(rng):
            shown.append((c,))
            d0, d1 = abs(m0 - MONTH[c]), abs(m1 - MONTH[c])
            if d0 != d1:
                return FirstDealer(0 if d0 < d1 else 1, "birth_month", tuple(shown))
        return FirstDealer(rng.randrange(2), "random", tuple(shown))  # pragma: no cover
    draws: list[tuple[int, ...]] = []
    while True:
        deck = list(range(1, 49))
        rng.shuffle(deck)
        a, b = deck[0], deck[1]
        draws.append((a, b))
        if MONTH[a] != MONTH[b]:
            return FirstDealer(0 if MONTH[a] < MONTH[b] else 1, "draw", tuple(draws))


@dataclass
class _Deal:
    dealer: int
    decks: list[tuple[int, ...]] = field(default_factory=list)
    moves: list[Action] = field(default_factory=list)


class Match:
    """A match of rounds under one rule set. Drive it with ``apply``; read ``round``,
    ``dealer``, ``balances``, ``ledger`` and ``outcome``.

    Chance (:mod:`.chance`): ``seed`` names the match's chance streams. ``first_dealer`` None
    draws the first dealer from its own stream as the rules say (R-SETUP-2; ``ages`` and
    ``birth_months`` for the rules that ask them), an int sets it, a :class:`FirstDealer` is a
    recorded draw (a replay). Deal ``n`` takes ``chance.deck(seed, n, k)`` for its ``k``-th
    shuffle, after any ``decks`` given (stacked decks, consumed one per shuffle: a constructed
    deal, or a deal played again) and any ``recorded`` decks (a record being replayed, whose
    first ``len(decks)`` were stacked). A match without a seed can only deal what it is given.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        first_dealer: int | FirstDealer | None = None,
        rounds: int | None = None,
        seed: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        recorded: Sequence[Sequence[int]] = (),
        ages: tuple[int | None, int | None] = (None, None),
        birth_months: tuple[int | None, int | None] = (None, None),
    ) -> None:
        if rounds is not None:
            rules = rules.with_rounds(rounds)
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TypeError("A match seed is an integer.")
        self.rules = rules
        self.seed = seed
        if first_dealer is None:
            if seed is None:
                raise ValueError("Drawing the first dealer needs the match seed.")
            first = choose_first_dealer(
                rules, first_dealer_stream(seed), ages=ages, birth_months=birth_months
            )
        elif isinstance(first_dealer, FirstDealer):
            first = first_dealer
        else:
            first = FirstDealer(first_dealer, "given")
        if first.dealer not in (0, 1):
            raise ValueError("The first dealer must be player 0 or 1.")
        #: How the first dealer was chosen, with the cards drawn (a recorded chance step).
        self.first_draw = first
        self.first_dealer = first.dealer
        self._stacked = [list(d) for d in decks or ()]
        self._recorded = [list(d) for d in recorded]
        #: How many of the match's first decks were given (stacked), not drawn from the seed.
        self.stacked = 0
        b = rules.starting_balance
        self._balances = [b, b]
        self.ledger: list[LedgerEntry] = []
        self.deals: list[_Deal] = []
        self.outcome: MatchOutcome | None = None
        self.ended_early = False
        self.round: RoundState
        self._start(first.dealer, [])

    # ------------------------------------------------------------------ reading
    @property
    def balances(self) -> tuple[int, int]:
        """Coins or points of players 0 and 1."""
        return (self._balances[0], self._balances[1])

    @property
    def dealer(self) -> int:
        """The current round's dealer."""
        return self.round.dealer

    @property
    def rounds_played(self) -> int:
        """Rounds settled so far (R-SETUP-1: redeals are not rounds)."""
        return len(self.ledger)

    @property
    def round_number(self) -> int:
        """The number of the current round (1-based)."""
        return len(self.ledger) + (0 if self.outcome is not None else 1)

    def context(self, seat: int) -> MatchContext:
        """The public match state for ``seat``'s decisions in the current round: what every
        computer opponent is asked with, beside its PlayerView."""
        return MatchContext(seat, self.balances, len(self.ledger), self.rules)

    @property
    def can_end_now(self) -> bool:
        """R-MATCH-2 / A-44: the players may end the match between rounds."""
        return (
            self.outcome is None
            and self.rules.end_match_anytime
            and not self.round.moves
            and bool(self.ledger)
        )

    # ------------------------------------------------------------------ playing
    def apply(self, action: Action | str, *, events: bool = True) -> list[Event]:
        """Apply an action to the current round; settle it and deal the next when it ends.
        ``events=False``: see :meth:`.round.RoundState.apply` (the rounds' history is not
        kept)."""
        if self.outcome is not None:
            raise IllegalAction("The match is over.", IllegalReason.MATCH_OVER)
        told = self.round.apply(action, events=events)
        self.deals[-1].moves = self.round.moves
        if self.round.outcome is not None:
            self._settle(told)
        return told

    @property
    def move_stack(self) -> tuple[Action, ...]:
        """The current round's moves, oldest first (settled rounds are history)."""
        return self.round.move_stack

    def pop(self) -> Action:
        """Take back the current round's last move and return it (python-chess ``pop``).

        Only moves of the round in play can be taken back: a round that ended was settled and
        the next one dealt, so IndexError is raised when the current round has no move yet (or
        the match is over).

        >>> from koikoi_desktop.engine.rules import PRESETS
        >>> m = new_match(PRESETS["nintendo"], first_dealer=0, seed=4)
        >>> first = m.round.legal_actions()[0]
        >>> _ = m.apply(first)
        >>> m.pop() == first, m.move_stack
        (True, ())
        """
        return self.undo()[0]

    def undo(self, seat: int | None = None) -> list[Action]:
        """Take back the current round's last move, or with ``seat`` every move back to and
        including that seat's last one (a player's undo also takes back the replies after
        his move). Returns the moves taken back, oldest first; IndexError when there are none.
        """
        if self.outcome is not None:
            raise IndexError("The match is over: its moves cannot be taken back.")
        taken = self.round.take_back(seat)
        self.deals[-1].moves = self.round.moves
        return taken

    def end_now(self) -> MatchOutcome:
        """End the match between rounds, where the rules allow it (A-44): higher total wins."""
        if not self.can_end_now:
            raise IllegalAction(
                "The match can only be ended between rounds, where the rules allow it.",
                IllegalReason.CANNOT_END_NOW,
            )
        self.ended_early = True
        out = self._end(MatchEnd.ENDED_EARLY, allow_extra=False)
        assert out is not None
        return out

    @property
    def commitment(self) -> str | None:
        """The match's public commitment to its seed and rules (:func:`.chance.commitment`),
        None for a match without a seed."""
        return None if self.seed is None else commitment(self.seed, self.rules)

    def _deal(self, dealer: int) -> RoundState:
        """Deal the next round: its decks from the stacked, then the recorded, then the
        seed's stream of this deal (numbered from 1 over the whole match)."""
        number = len(self.deals) + 1
        shuffles = 0

        def next_deck() -> list[int]:
            nonlocal shuffles
            shuffles += 1
            if self._stacked:
                self.stacked += 1
                return self._stacked.pop(0)
            if self._recorded:
                return self._recorded.pop(0)
            if self.seed is None:
                raise ValueError("This match has no seed to deal new cards from.")
            return list(deck(self.seed, number, shuffles))

        state = RoundState.deal(self.rules, dealer=dealer, next_deck=next_deck)
        self.deals.append(_Deal(dealer, list(state.deals), state.moves))
        return state

    def _start(self, dealer: int, events: list[Event]) -> None:
        self.round = self._deal(dealer)
        events.extend(self.round.history)
        if self.round.outcome is not None:
            self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        rules = self.rules
        while True:
            r = self.round
            out = r.outcome
            assert out is not None
            w = out.winner
            paid, after = settle(rules, self.balances, w, out.final)
            bal = self._balances
            bal[0], bal[1] = after
            self.ledger.append(
                LedgerEntry(
                    round=len(self.ledger) + 1,
                    dealer=r.dealer,
                    end=out.reason,
                    winner=w,
                    yaku=tuple((y.key, y.points) for y in out.yaku),
                    base=out.base,
                    factors=out.factors,
                    final=out.final,
                    paid=paid,
                    balances=(bal[0], bal[1]),
                    instant=out.instant,
                    koikoi_calls=(r.calls[0], r.calls[1]),
                )
            )
            events.append(Settled(w, paid, out.reason))
            if self._match_over(events):
                return
            nxt = next_dealer(rules, r.dealer, w)
            self.round = self._deal(nxt)
            events.extend(self.round.history)
            if self.round.outcome is None:
                return

    def _match_over(self, events: list[Event]) -> bool:
        self.outcome = match_end(self.rules, self.balances, len(self.ledger))
        if self.outcome is not None:
            events.append(MatchOver(self.outcome.winner, self.outcome.reason))
            return True
        return False

    def _end(self, reason: MatchEnd, *, allow_extra: bool) -> MatchOutcome | None:
        a, b = self._balances
        if a == b and allow_extra:
            return None  # R-MATCH-2: equal totals, one more round
        winner = None if a == b else (0 if a > b else 1)
        self.outcome = MatchOutcome(winner, reason, (a, b))
        return self.outcome

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.based_on} round={self.round_number} balances={self.balances} "
            f"outcome={self.outcome}>"
        )


def new_match(
    rules: Rules,
    *,
    first_dealer: int | None = None,
    rounds: int | None = None,
    seed: int | None = None,
    decks: Sequence[Sequence[int]] | None = None,
    ages: tuple[int | None, int | None] = (None, None),
    birth_months: tuple[int | None, int | None] = (None, None),
) -> Match:
    """Start a match. ``rounds`` overrides the rule set's length (R-SETUP-1: for coins, 3 → 25,
    6 → 50, 12 → 100; for a target race, the "year" variant). ``first_dealer`` None draws the
    first dealer from the seed as the rules say (``ages``, ``birth_months`` for the rules that
    compare them). ``decks``: stacked deck orders consumed one per shuffle (a redealt deal takes
    the next); then deals come from the seed's chance streams (:mod:`.chance`).

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> m = new_match(PRESETS["nintendo"], seed=11)
    >>> m.first_draw.method, m.first_dealer == m.first_draw.dealer, len(m.commitment)
    ('draw', True, 12)
    """
    return Match(
        rules,
        first_dealer=first_dealer,
        rounds=rounds,
        seed=seed,
        decks=decks,
        ages=ages,
        birth_months=birth_months,
    )
