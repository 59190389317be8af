"""PlayerView: what one seat at the table may see — the only thing an AI or the UI reads.

A view holds the player's own hand, the face-up field and capture piles, the public history, the
counts of hidden cards, and nothing else: never the opponent's hand, never the draw pile's order.
While the exchange decision is open (R-DEAL-4) even the player's own hand is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from koikoi_desktop.engine.actions import Action, Event
from koikoi_desktop.engine.cards import FULL_MASK, ids_of
from koikoi_desktop.engine.rules import Rules

if TYPE_CHECKING:
    from koikoi_desktop.engine.round import Outcome, RoundState


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a round. Masks (bit ``id`` per card) mirror the tuples."""

    player: int
    rules: Rules
    dealer: int
    to_move: int | None
    phase: str
    hand: tuple[int, ...]
    field: tuple[int, ...]
    captured: tuple[tuple[int, ...], tuple[int, ...]]
    opponent_hand_size: int
    pile_size: int
    pending_draw: int
    calls: tuple[int, int]
    refs: tuple[int, int]
    turns: tuple[int, int]
    field_brights: int
    gaji_owner: int | None
    gaji_month: int
    legal: tuple[Action, ...]
    history: tuple[Event, ...]
    outcome: Outcome | None
    hand_hidden: bool
    hand_mask: int
    field_mask: int
    cap_masks: tuple[int, int]

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.player

    @property
    def unseen_mask(self) -> int:
        """Cards this seat cannot see: the opponent's hand plus the draw pile (plus, while the
        exchange decision hides it, the player's own hand)."""
        seen = self.hand_mask | self.field_mask | self.cap_masks[0] | self.cap_masks[1]
        if self.pending_draw:
            seen |= 1 << self.pending_draw
        return FULL_MASK & ~seen

    @property
    def unseen(self) -> tuple[int, ...]:
        """The ids of the unseen cards."""
        return ids_of(self.unseen_mask)

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.to_move == self.player


def make_view(state: RoundState, player: int) -> PlayerView:
    """Build ``player``'s view of ``state``."""
    if player not in (0, 1):
        raise ValueError("Players are 0 and 1.")
    hidden = state.phase == "exchange"
    hand_mask = 0 if hidden else state.hands[player]
    return PlayerView(
        player=player,
        rules=state.rules,
        dealer=state.dealer,
        to_move=state.to_move,
        phase=state.phase,
        hand=ids_of(hand_mask),
        field=ids_of(state.field_mask),
        captured=(ids_of(state.caps[0]), ids_of(state.caps[1])),
        opponent_hand_size=state.hands[1 - player].bit_count(),
        pile_size=len(state.pile) - state.pile_pos,
        pending_draw=state.pending,
        calls=(state.calls[0], state.calls[1]),
        refs=(state.refs[0], state.refs[1]),
        turns=(state.turns[0], state.turns[1]),
        field_brights=state.field_brights,
        gaji_owner=state.gaji_owner,
        gaji_month=state.gaji_month,
        legal=tuple(state.legal_actions()) if state.to_move == player else (),
        history=tuple(state.history),
        outcome=state.outcome,
        hand_hidden=hidden,
        hand_mask=hand_mask,
        field_mask=state.field_mask,
        cap_masks=(state.caps[0], state.caps[1]),
    )
