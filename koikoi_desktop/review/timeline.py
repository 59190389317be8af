"""A recorded match laid out move by move: every round's state before each move, and at its end.

The review screen steps through these positions and the analysis reads each seat's view from
them. Everything comes from the engine replaying the match record (``engine.replay_match`` for
the match, ``engine.replay_round`` for each deal), so what the review shows is exactly what was
played: same decks, same moves, same scores.

>>> import random
>>> from koikoi_desktop.engine import PRESETS, new_match
>>> m = new_match(PRESETS["nintendo"], first_dealer=0, seed=4, rounds=1)
>>> rng = random.Random(2)
>>> while m.outcome is None:
...     _ = m.apply(rng.choice(m.round.legal_actions()))
>>> from koikoi_desktop.engine import match_record
>>> t = Timeline.from_record(match_record(m))
>>> len(t.deals), t.deals[0].settled
(1, True)
>>> t.deals[0].final.caps == m.round.caps
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from koikoi_desktop.engine import Action, Match, RoundState, Rules, replay_match, replay_round
from koikoi_desktop.engine.match import LedgerEntry
from koikoi_desktop.engine.notation import ROUND_FORMAT


@dataclass(frozen=True, slots=True)
class DealLine:
    """One deal of the match: ``states[k]`` is the round before move ``k``, ``final`` the round
    after its last move (its outcome, when it ended), ``entry`` its ledger line when settled."""

    index: int
    dealer: int
    moves: tuple[Action, ...]
    states: tuple[RoundState, ...]
    final: RoundState
    balances_before: tuple[int, int]
    entry: LedgerEntry | None

    @property
    def round(self) -> int:
        """The round's number (1-based; redeals are not rounds)."""
        return self.index + 1

    @property
    def settled(self) -> bool:
        return self.entry is not None

    def state_at(self, k: int) -> RoundState:
        """The round before move ``k`` (``k == len(moves)``: the final position)."""
        return self.states[k] if k < len(self.states) else self.final


@dataclass(frozen=True, slots=True)
class Position:
    """One step of the review: deal ``deal`` before its move ``move`` (``move == len(moves)``:
    the round's final position)."""

    deal: int
    move: int


class Timeline:
    """The replayed match and its deals; build with :meth:`from_record`."""

    def __init__(self, match: Match, deals: list[DealLine], record: str) -> None:
        self.match = match
        self.rules: Rules = match.rules
        self.deals = deals
        self.record = record
        self.positions: list[Position] = [
            Position(d.index, k) for d in deals for k in range(len(d.moves) + 1)
        ]
        self._index = {(p.deal, p.move): i for i, p in enumerate(self.positions)}

    @classmethod
    def from_record(cls, record: str, *, settled_only: bool = False) -> Timeline:
        """Replay ``record`` (a match record; raises ``engine.RecordError``).

        ``settled_only``: leave out a deal that has not ended (a match in progress — its hands
        must not be shown)."""
        match = replay_match(record)
        rules = match.rules
        rules_json = json.dumps(rules.model_dump(), sort_keys=True, separators=(",", ":"))
        deals: list[DealLine] = []
        start = rules.starting_balance
        balances = (start, start)
        for i, deal in enumerate(match.deals):
            entry = match.ledger[i] if i < len(match.ledger) else None
            if settled_only and entry is None:
                break
            text = "\n".join(
                [
                    f"format {ROUND_FORMAT}",
                    f"rules {rules_json}",
                    f"dealer {deal.dealer}",
                    *("deck " + " ".join(map(str, d)) for d in deal.decks),
                    "moves",
                ]
            )
            state = replay_round(text + "\n")
            states: list[RoundState] = []
            for mv in deal.moves:
                states.append(state.copy())
                state.apply(mv)
            deals.append(
                DealLine(
                    index=i,
                    dealer=deal.dealer,
                    moves=tuple(deal.moves),
                    states=tuple(states),
                    final=state,
                    balances_before=balances,
                    entry=entry,
                )
            )
            if entry is not None:
                balances = entry.balances
        return cls(match, deals, record)

    def index_of(self, deal: int, move: int) -> int:
        """The position index of deal ``deal`` before move ``move`` (a move past the deal's end:
        the match's last position)."""
        exact = self._index.get((deal, move))
        if exact is not None:
            return exact
        for i, p in enumerate(self.positions):
            if p.deal == deal and p.move >= move:
                return i
        return len(self.positions) - 1

    def first_of_round(self, round_number: int) -> int:
        """The position index of the first position of round ``round_number`` (1-based)."""
        return self.index_of(max(0, min(len(self.deals) - 1, round_number - 1)), 0)
