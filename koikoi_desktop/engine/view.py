"""PlayerView: what one seat at the table may see — the only thing an AI or the UI reads.

A view holds the player's own hand, the face-up field and capture piles, the public history, the
counts of hidden cards, and nothing else: never the opponent's hand, never the draw pile's order.
While the exchange decision is open (R-DEAL-4) even the player's own hand is hidden.
``RoundState.view(player)`` builds one; this module knows nothing of ``RoundState``.
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_desktop.engine.actions import Action, IllegalAction, IllegalReason, Phase, capture_mask
from koikoi_desktop.engine.cards import FULL_MASK, ids_of
from koikoi_desktop.engine.deal import Outcome
from koikoi_desktop.engine.events import Event
from koikoi_desktop.engine.rules import Rules
from koikoi_desktop.engine.yaku import KoikoiOdds, gaji_sweep, koikoi_odds


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a round. Masks (bit ``id`` per card) mirror the tuples."""

    player: int
    rules: Rules
    dealer: int
    to_move: int | None
    phase: Phase
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

    def captures(self, action: Action) -> tuple[int, ...]:
        """The field cards one of this seat's legal actions would take now (as
        ``RoundState.captures``); raises IllegalAction for an action not in ``legal``."""
        if action not in self.legal:
            raise IllegalAction(
                f"{action} is not one of this seat's legal moves now.",
                IllegalReason.PLAY_NOT_POSSIBLE,
                card=action.card,
            )
        return ids_of(capture_mask(action, self.field_mask))

    def koikoi_odds(self, seat: int | None = None) -> KoikoiOdds:
        """The stop-or-koi-koi stakes of ``seat`` (default: this seat), from public facts only
        (as ``RoundState.koikoi_odds``)."""
        me = self.player
        sizes = [0, 0]
        sizes[me] = len(self.hand)
        sizes[1 - me] = self.opponent_hand_size
        return koikoi_odds(
            self.rules,
            seat=me if seat is None else seat,
            caps=self.cap_masks,
            calls=self.calls,
            field_brights=self.field_brights,
            hand_sizes=(sizes[0], sizes[1]),
            sweep=gaji_sweep(self.field_mask, self.gaji_owner, self.gaji_month),
        )
