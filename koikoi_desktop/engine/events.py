"""Event records: one frozen dataclass per kind of thing that happens at the table.

``RoundState.apply`` and ``Match.apply`` return them, in order, for animation, the log and the
ledger; a round keeps them in ``history`` (public information only: a ``PlayerView`` carries it).
Each class names its own fields, and ``kind`` (an :class:`EventKind`, a ``StrEnum``, so
``event.kind == "play"`` still works) tells them apart without ``isinstance``. The union of all
of them is :data:`Event`. The ``repr`` of an event is the Python that builds it.

>>> e = Played(player=0, card=5, captured=(6,))
>>> e
Played(player=0, card=5, captured=(6,))
>>> e.kind == "play", e.kind is EventKind.PLAY
(True, True)
>>> RoundOver(winner=None, final=0, reason=RoundEnd.EXHAUSTION_DRAW).reason
RoundEnd.EXHAUSTION_DRAW
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from koikoi_desktop.engine.actions import NameEnum


class EventKind(NameEnum):
    """The kind of an event (its ``kind``); the values are the names the records used."""

    DEAL = "deal"
    REDEAL = "redeal"
    EXCHANGE = "exchange"
    KEEP = "keep"
    INSTANT_WIN = "instant_win"
    PLAY = "play"
    DISCARD = "discard"
    GAJI = "gaji"
    DRAW = "draw"
    DRAW_PENDING = "draw_pending"
    FLIP = "flip"
    YAKU = "yaku"
    KOIKOI = "koikoi"
    STOP = "stop"
    SWEEP = "sweep"
    ROUND_OVER = "round_over"
    SETTLED = "settled"
    MATCH_OVER = "match_over"


class RoundEnd(NameEnum):
    """Why a round ended (RULES.md §9-§10): ``Outcome.reason``, ``RoundOver.reason``."""

    STOP = "stop"
    FORCED_STOP = "forced_stop"
    INSTANT_WIN = "instant_win"
    EXHAUSTION_DRAW = "exhaustion_draw"
    EXHAUSTION_LAST_CALLER = "exhaustion_last_caller"
    EXHAUSTION_NO_CALLER = "exhaustion_no_caller"
    OYA_HAND_EMPTY_VOID = "oya_hand_empty_void"
    OYA_HAND_EMPTY_WIN = "oya_hand_empty_win"


class MatchEnd(NameEnum):
    """Why a match ended (RULES.md §12): ``MatchOutcome.reason``, ``MatchOver.reason``."""

    ROUNDS = "rounds"
    TARGET = "target"
    BANKRUPTCY = "bankruptcy"
    ENDED_EARLY = "ended_early"


@dataclass(frozen=True, slots=True)
class Dealt:
    """The deal stood: ``dealer`` deals, ``field`` is face up; ``deal`` counts redeals (1 = the
    first deal stood)."""

    dealer: int
    field: tuple[int, ...]
    deal: int = 1
    kind: ClassVar[Literal[EventKind.DEAL]] = EventKind.DEAL


@dataclass(frozen=True, slots=True)
class Redealt:
    """Deal number ``deal`` showed this ``field`` and is dealt again (R-DEAL-3)."""

    field: tuple[int, ...]
    deal: int
    kind: ClassVar[Literal[EventKind.REDEAL]] = EventKind.REDEAL


@dataclass(frozen=True, slots=True)
class ExchangeDecided:
    """The non-dealer ``player`` exchanged the hands or kept them (R-DEAL-4)."""

    player: int
    exchanged: bool
    kind: ClassVar[Literal[EventKind.EXCHANGE]] = EventKind.EXCHANGE


@dataclass(frozen=True, slots=True)
class InstantWinDeclined:
    """``player`` kept playing instead of declaring an optional at-deal instant win."""

    player: int
    kind: ClassVar[Literal[EventKind.KEEP]] = EventKind.KEEP


@dataclass(frozen=True, slots=True)
class InstantWon:
    """``player`` won at once with ``instant`` (teshi, kuttsuki, double_tenho) worth ``value``,
    showing ``hand`` (R-INSTANT)."""

    player: int
    hand: tuple[int, ...]
    value: int
    instant: str
    kind: ClassVar[Literal[EventKind.INSTANT_WIN]] = EventKind.INSTANT_WIN


@dataclass(frozen=True, slots=True)
class Played:
    """``player`` played ``card`` from the hand and took ``captured`` from the field (empty:
    the card was laid on the field)."""

    player: int
    card: int
    captured: tuple[int, ...] = ()
    kind: ClassVar[Literal[EventKind.PLAY]] = EventKind.PLAY


@dataclass(frozen=True, slots=True)
class Discarded:
    """``player`` laid ``card`` on the field although it had a match (free discard, R-TURN-1a)."""

    player: int
    card: int
    kind: ClassVar[Literal[EventKind.DISCARD]] = EventKind.DISCARD


@dataclass(frozen=True, slots=True)
class GajiPaired:
    """``player`` paired the Gaji ``card`` with ``captured`` (one field card) of ``month``, which
    becomes the Gaji month swept at the end (R-TURN-1b)."""

    player: int
    card: int
    captured: tuple[int, ...]
    month: int
    kind: ClassVar[Literal[EventKind.GAJI]] = EventKind.GAJI


@dataclass(frozen=True, slots=True)
class Drew:
    """``player`` drew ``card`` and took ``captured`` (empty: it was laid on the field)."""

    player: int
    card: int
    captured: tuple[int, ...] = ()
    kind: ClassVar[Literal[EventKind.DRAW]] = EventKind.DRAW


@dataclass(frozen=True, slots=True)
class DrawPending:
    """``player`` drew ``card``, which matches two field cards: ``options`` (``draw>T``)."""

    player: int
    card: int
    options: tuple[int, ...]
    kind: ClassVar[Literal[EventKind.DRAW_PENDING]] = EventKind.DRAW_PENDING


@dataclass(frozen=True, slots=True)
class Flipped:
    """The field was empty: ``card`` was turned from the pile onto it (R-TURN-0)."""

    card: int
    kind: ClassVar[Literal[EventKind.FLIP]] = EventKind.FLIP


@dataclass(frozen=True, slots=True)
class YakuMade:
    """``player``'s captures now score ``base`` with the yaku ``keys``: a stop decision
    follows."""

    player: int
    base: int
    keys: tuple[str, ...]
    kind: ClassVar[Literal[EventKind.YAKU]] = EventKind.YAKU


@dataclass(frozen=True, slots=True)
class KoiKoiCalled:
    """``player`` called koi-koi; ``calls`` is his number of calls this round."""

    player: int
    calls: int
    kind: ClassVar[Literal[EventKind.KOIKOI]] = EventKind.KOIKOI


@dataclass(frozen=True, slots=True)
class Stopped:
    """``player`` stopped with a base of ``base``; ``forced`` when no koi-koi was allowed."""

    player: int
    base: int
    forced: bool = False
    kind: ClassVar[Literal[EventKind.STOP]] = EventKind.STOP


@dataclass(frozen=True, slots=True)
class Swept:
    """At the end the Gaji owner ``player`` took ``cards`` of the Gaji ``month`` (R-END-4)."""

    player: int
    cards: tuple[int, ...]
    month: int
    kind: ClassVar[Literal[EventKind.SWEEP]] = EventKind.SWEEP


@dataclass(frozen=True, slots=True)
class RoundOver:
    """The round ended: ``winner`` (None: nobody) scores ``final``, for ``reason``."""

    winner: int | None
    final: int
    reason: RoundEnd
    kind: ClassVar[Literal[EventKind.ROUND_OVER]] = EventKind.ROUND_OVER


@dataclass(frozen=True, slots=True)
class Settled:
    """The match paid the round: ``winner`` received ``paid`` (RULES.md §11)."""

    winner: int | None
    paid: int
    reason: RoundEnd
    kind: ClassVar[Literal[EventKind.SETTLED]] = EventKind.SETTLED


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match ended: ``winner`` (None: drawn), for ``reason``."""

    winner: int | None
    reason: MatchEnd
    kind: ClassVar[Literal[EventKind.MATCH_OVER]] = EventKind.MATCH_OVER


#: Any event record.
Event = (
    Dealt
    | Redealt
    | ExchangeDecided
    | InstantWinDeclined
    | InstantWon
    | Played
    | Discarded
    | GajiPaired
    | Drew
    | DrawPending
    | Flipped
    | YakuMade
    | KoiKoiCalled
    | Stopped
    | Swept
    | RoundOver
    | Settled
    | MatchOver
)

__all__ = [
    "Dealt",
    "Discarded",
    "DrawPending",
    "Drew",
    "Event",
    "EventKind",
    "ExchangeDecided",
    "Flipped",
    "GajiPaired",
    "InstantWinDeclined",
    "InstantWon",
    "KoiKoiCalled",
    "MatchEnd",
    "MatchOver",
    "Played",
    "Redealt",
    "RoundEnd",
    "RoundOver",
    "Settled",
    "Stopped",
    "Swept",
    "YakuMade",
]
