"""A whole match: rounds, dealer rotation, coins or points, the ledger, the end.

RULES.md §3 (setup), §11 (settlement, ledger) and §12 (end of match).

>>> from koikoi_desktop.engine.rules import PRESETS
>>> m = new_match(PRESETS["nintendo"], first_dealer=0, seed=3)
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
        deck = list(range(1, 49))
        rng.shuffle(deck)
        shown: list[tuple[int, ...]] = []
        for c in deck:
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
    ``dealer``, ``balances``, ``ledger`` and ``outcome``."""

    def __init__(
        self,
        rules: Rules,
        *,
        first_dealer: int,
        rounds: int | None = None,
        seed: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
    ) -> None:
        if first_dealer not in (0, 1):
            raise ValueError("The first dealer must be player 0 or 1.")
        if rounds is not None:
            rules = rules.with_rounds(rounds)
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.rng = random.Random(seed)
        self._decks = [list(d) for d in decks or ()]
        b = rules.starting_balance
        self._balances = [b, b]
        self.ledger: list[LedgerEntry] = []
        self.deals: list[_Deal] = []
        self.outcome: MatchOutcome | None = None
        self.ended_early = False
        self.round: RoundState
        self._start(first_dealer, [])

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
    def apply(self, action: Action | str) -> list[Event]:
        """Apply an action to the current round; settle it and deal the next when it ends."""
        if self.outcome is not None:
            raise IllegalAction("The match is over.", IllegalReason.MATCH_OVER)
        events = self.round.apply(action)
        self.deals[-1].moves = self.round.moves
        if self.round.outcome is not None:
            self._settle(events)
        return events

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
        >>> m = new_match(PRESETS["nintendo"], first_dealer=0, seed=3)
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

    def _next_deck(self) -> list[int]:
        if self._decks:
            return self._decks.pop(0)
        d = list(range(1, 49))
        self.rng.shuffle(d)
        return d

    def _start(self, dealer: int, events: list[Event]) -> None:
        self.round = RoundState.deal(self.rules, dealer=dealer, next_deck=self._next_deck)
        self.deals.append(_Deal(dealer, list(self.round.deals), self.round.moves))
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
            paid = 0
            bal = self._balances
            if w is not None:
                loser = 1 - w
                if rules.settlement == "transfer_capped":
                    paid = min(out.final, bal[loser])
                    bal[w] += paid
                    bal[loser] -= paid
                elif rules.settlement == "zero_sum":
                    paid = out.final
                    bal[w] += paid
                    bal[loser] -= paid
                else:
                    paid = out.final
                    bal[w] += paid
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
            if w is not None:
                nxt = w
            elif rules.dealer_after_no_winner == "alternate":
                nxt = 1 - r.dealer
            else:
                nxt = r.dealer
            self.round = RoundState.deal(rules, dealer=nxt, next_deck=self._next_deck)
            self.deals.append(_Deal(nxt, list(self.round.deals), self.round.moves))
            events.extend(self.round.history)
            if self.round.outcome is None:
                return

    def _match_over(self, events: list[Event]) -> bool:
        rules = self.rules
        bal = self._balances
        if rules.bankruptcy_ends_match and min(bal) <= 0:
            self._end(MatchEnd.BANKRUPTCY, allow_extra=False)
        elif rules.match_end == "target":
            if max(bal) >= rules.match_target:
                self._end(MatchEnd.TARGET, allow_extra=False)
        elif len(self.ledger) >= rules.match_rounds:
            self._end(MatchEnd.ROUNDS, allow_extra=rules.final_tie == "extra_round")
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
    first_dealer: int,
    rounds: int | None = None,
    seed: int | None = None,
    decks: Sequence[Sequence[int]] | None = None,
) -> Match:
    """Start a match. ``rounds`` overrides the rule set's length (R-SETUP-1: for coins, 3 → 25,
    6 → 50, 12 → 100; for a target race, the "year" variant). ``decks``: deck orders consumed one
    per deal (a redealt deal takes the next); when they run out, deals come from the seeded rng.
    """
    return Match(rules, first_dealer=first_dealer, rounds=rounds, seed=seed, decks=decks)
