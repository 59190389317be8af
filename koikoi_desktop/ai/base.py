"""The opponent interface: personas, thinking budgets, explained decisions.

Every computer opponent answers ``choose(view, context) -> Action`` from a :class:`PlayerView`
and the public :class:`MatchContext` of its seat (``Match.context(seat)``: the balances, rounds
and match rules) only — the same information a human in that seat has — and ``last_reason`` holds
the reason for its last decision. The context is a required argument so that no caller
can forget the match; ``None`` says the round is played on its own (tests, a lone round).
Reasons are facts, a key plus parameters (:class:`Reason`), worded where they are shown
(``koikoi_desktop.words.reasons``, from the catalogs): this package imports the engine only.

Decisions that every level takes the same way live here, in :meth:`Opponent.choose`:

* a single legal action is played at once;
* an instant win is always declared (RULES.md R-INSTANT-2: "the computer always declares");
* the hand exchange (R-DEAL-4) is decided before either hand is seen — the view hides the hand
  while the exchange is open, so the decision cannot depend on it.

Determinism: with a ``seed`` the random source of each decision is derived from the seed and the
public contents of the view (never from hidden cards), so one view always gets one answer, whatever
the hidden deal, and a replayed match replays the computer's moves (with a playout budget; a time
budget makes Expert depend on the machine's speed).
"""

from __future__ import annotations

import hashlib
import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from koikoi_desktop.engine import Action, MatchContext, PlayerView
from koikoi_desktop.engine.actions import DECLARE, EXCHANGE, KEEP
from koikoi_desktop.engine.facts import LEVELS
from koikoi_desktop.engine.round import instant_win


# --------------------------------------------------------------------------- reasons
class ReasonKey(StrEnum):
    """Every reason a decision can give: a fact, worded by ``koikoi_desktop.words.reasons`` from
    the catalogs' ``ai.reason.<key>`` (every member has an entry in all five languages and every
    entry is a member: ``tests/test_reason_words.py``)."""

    ONLY_MOVE = "only_move"
    DECLARE = "declare"
    EXCHANGE_KEEP = "exchange_keep"
    EXCHANGE_SWAP = "exchange_swap"
    COMPLETES = "completes"
    IMPROVES = "improves"
    TAKES = "takes"
    TAKES_TOWARD = "takes_toward"
    BLOCKS = "blocks"
    BLOCKS_KOIKOI = "blocks_koikoi"
    TAKES_PRETTY = "takes_pretty"
    DISCARD_SAFE = "discard_safe"
    DISCARD_OWN = "discard_own"
    DISCARD_CHEAP = "discard_cheap"
    DISCARD = "discard"
    GAJI = "gaji"
    DRAW_TAKES = "draw_takes"
    STOP_THREAT = "stop_threat"
    STOP_POINTS = "stop_points"
    STOP_LAST = "stop_last"
    STOP_SURE = "stop_sure"
    STOP_SURE_LOSS = "stop_sure_loss"
    STOP_WINS_MATCH = "stop_wins_match"
    KOIKOI = "koikoi"
    KOIKOI_GREEDY = "koikoi_greedy"
    KOIKOI_EV = "koikoi_ev"
    KOIKOI_FOR_MATCH = "koikoi_for_match"
    SEARCH = "search"
    SEARCH_DRAW = "search_draw"
    #: The review's, never an opponent's: playing the hand out beats the exchange.
    REVIEW_KEEP = "review_keep"


#: The plain play reasons a search replaces with what it found (``search`` / ``search_draw``):
#: the Expert's and the review's.
PLAIN_PLAY_REASONS = frozenset(
    {
        ReasonKey.TAKES,
        ReasonKey.DISCARD_CHEAP,
        ReasonKey.DISCARD_OWN,
        ReasonKey.DISCARD_SAFE,
        ReasonKey.DRAW_TAKES,
    }
)

#: A reason's parameter: a card id (``card``, ``hand``, ``drawn``; None when there is none), a
#: yaku or instant-win key (``yaku``, ``instant``), a month number, a count or a number of points.
ReasonParam = int | float | str | None


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a decision was taken, as a fact: a :class:`ReasonKey` and its ``params``; no words
    (``koikoi_desktop.words.reasons.reason_text`` says it in a language). It pickles, so it comes
    back from the Expert's worker process intact.

    Card parameters (``card``, ``hand``, ``drawn``) are card ids, ``yaku`` a yaku key and
    ``month`` a month number, so each language names them in its own words.

    >>> Reason(ReasonKey.COMPLETES, {"card": 29, "yaku": "tsukimi"})
    Reason(key=<ReasonKey.COMPLETES: 'completes'>, params={'card': 29, 'yaku': 'tsukimi'})
    """

    key: ReasonKey
    params: dict[str, ReasonParam] = field(default_factory=dict)


def stop_sure(points: int, ev: float, **more: ReasonParam) -> Reason:
    """Stopping for ``points`` beats a koi-koi expected to end at ``ev``: said plainly, as
    what a koi-koi would win on average or, when that is negative, what it would lose (never
    a signed number).

    >>> stop_sure(5, -2.9).params
    {'points': 5, 'ev': -2.9, 'loss': 2.9}
    >>> stop_sure(5, 4.0).key
    <ReasonKey.STOP_SURE: 'stop_sure'>
    """
    if ev < -0.05:
        return Reason(ReasonKey.STOP_SURE_LOSS, {"points": points, "ev": ev, "loss": -ev, **more})
    return Reason(ReasonKey.STOP_SURE, {"points": points, "ev": max(ev, 0.0), **more})


# --------------------------------------------------------------------------- personas
@dataclass(frozen=True, slots=True)
class Persona:
    """A computer opponent's identity. ``age`` and ``birth_month`` feed the first-dealer rules
    of ``seed-000`` (oldest player) and ``seed-001`` (birth month); ``level`` is its strength."""

    name: str
    age: int
    birth_month: int
    level: str
    blurb: str = ""


PERSONAS: tuple[Persona, ...] = (
    Persona("Hana", 9, 4, "beginner", "Learning the months; loves anything shiny."),
    Persona("Kenta", 14, 8, "beginner", "Plays fast and always wants one more koi-koi."),
    Persona("Mrs. Ota", 67, 1, "beginner", "Plays for the pictures, not the points."),
    Persona("Yuki", 24, 12, "intermediate", "Counts the cards that are left."),
    Persona("Daisuke", 41, 6, "intermediate", "Careful with what he leaves on the field."),
    Persona("Aiko", 35, 3, "intermediate", "Plays the yaku she can still finish."),
    Persona("Grandmother Sato", 78, 10, "expert", "Has seen every deal there is."),
    Persona("Master Ishida", 55, 7, "expert", "Weighs every koi-koi against the odds."),
    Persona("Rin", 29, 11, "expert", "Reads the table like a poem."),
)


def personas(level: str) -> tuple[Persona, ...]:
    """The personas of one level."""
    return tuple(p for p in PERSONAS if p.level == level)


# --------------------------------------------------------------------------- budgets
@dataclass(frozen=True, slots=True)
class Budget:
    """How long a searching opponent may think about one decision: at most ``ms``
    milliseconds and at most ``playouts`` simulated rounds (``None``: no limit of that kind;
    at least one of them must be set). A playout budget makes decisions reproducible.

    >>> Budget.parse("400"), Budget.parse("250ms")
    (Budget(ms=None, playouts=400), Budget(ms=250.0, playouts=None))
    """

    ms: float | None = None
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.ms is None and self.playouts is None:
            raise ValueError("A budget needs a time (ms) or a number of playouts.")

    @staticmethod
    def parse(text: str) -> Budget:
        """``"400"`` = 400 playouts, ``"250ms"`` = 250 ms, ``"250ms/400"`` = both."""
        ms: float | None = None
        po: int | None = None
        for part in text.replace(",", "/").split("/"):
            part = part.strip().lower()
            if part.endswith("ms"):
                ms = float(part[:-2])
            elif part.endswith("s"):
                ms = float(part[:-1]) * 1000.0
            elif part:
                po = int(part)
        return Budget(ms=ms, playouts=po)

    def describe(self) -> str:
        """``"400 playouts"``, ``"250 ms"`` or both."""
        parts = []
        if self.playouts is not None:
            parts.append(f"{self.playouts} playouts")
        if self.ms is not None:
            parts.append(f"{self.ms:g} ms")
        return " / ".join(parts)


# --------------------------------------------------------------------------- the interface
def view_key(view: PlayerView) -> bytes:
    """A stable digest of what the view shows (never hidden cards): seeds a decision's rng."""
    text = "|".join(
        str(x)
        for x in (
            view.player,
            view.dealer,
            view.phase,
            view.hand_mask,
            view.field_mask,
            view.cap_masks,
            view.pending_draw,
            view.calls,
            view.refs,
            view.turns,
            view.opponent_hand_size,
            view.pile_size,
            len(view.history),
        )
    )
    return hashlib.blake2b(text.encode(), digest_size=8).digest()


class Opponent(ABC):
    """A computer player. Subclasses implement :meth:`decide` for the play, draw and koi-koi
    decisions; the shared ones (single move, declare, exchange) are answered here."""

    level: ClassVar[str] = ""

    def __init__(
        self,
        persona: Persona | None = None,
        *,
        seed: int | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.persona = persona if persona is not None else personas(self.level)[0]
        self.seed = seed
        self.budget = budget
        self._free_rng = random.Random(seed)
        self.last_reason = Reason(ReasonKey.ONLY_MOVE)
        self.last_playouts = 0
        self.last_ms = 0.0

    @property
    def name(self) -> str:
        """The persona's name."""
        return self.persona.name

    def rng_for(self, view: PlayerView) -> random.Random:
        """The random source of one decision (see the module docstring)."""
        if self.seed is None:
            return random.Random(self._free_rng.getrandbits(64))
        digest = hashlib.blake2b(
            view_key(view) + self.seed.to_bytes(8, "little", signed=True), digest_size=8
        ).digest()
        return random.Random(int.from_bytes(digest, "little"))

    def choose(self, view: PlayerView, context: MatchContext | None) -> Action:
        """The action this opponent takes in ``view`` (one of ``view.legal``), in the match
        ``context`` (``Match.context(seat)``; None only for a round played on its own)."""
        if not view.legal:
            raise ValueError("choose() needs a view in which this seat is to move.")
        if context is not None and context.seat != view.player:
            raise ValueError("The match context must be the deciding seat's.")
        t0 = time.perf_counter()
        self.last_playouts = 0
        legal = view.legal
        if view.phase == "exchange":
            action, reason = self.decide_exchange(view, self.rng_for(view))
        elif DECLARE in legal:
            iw = instant_win(view.hand_mask, view.rules)
            points = iw[1] if iw else 0
            action, reason = (
                DECLARE,
                Reason(ReasonKey.DECLARE, {"instant": iw[0] if iw else "", "points": points}),
            )
        elif len(legal) == 1:
            action, reason = legal[0], Reason(ReasonKey.ONLY_MOVE)
            if legal[0].kind == "stop":
                action, reason = legal[0], Reason(ReasonKey.STOP_LAST, {"points": _base(view)})
        else:
            action, reason = self.decide(view, context, self.rng_for(view))
        if action not in legal:  # a bug in a level must never become an illegal move
            action, reason = legal[0], Reason(ReasonKey.ONLY_MOVE)
        self.last_reason = reason
        self.last_ms = (time.perf_counter() - t0) * 1000.0
        return action

    def decide_exchange(self, view: PlayerView, rng: random.Random) -> tuple[Action, Reason]:
        """R-DEAL-4, decided with both hands unseen: keep (an unseen hand for an unseen hand
        changes nothing on average). Levels may override it for character."""
        return KEEP, Reason(ReasonKey.EXCHANGE_KEEP)

    @abstractmethod
    def decide(
        self, view: PlayerView, context: MatchContext | None, rng: random.Random
    ) -> tuple[Action, Reason]:
        """Choose among two or more legal actions (play, draw choice, koi-koi or stop) in the
        match ``context``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.persona.name!r} seed={self.seed}>"


def _base(view: PlayerView) -> int:
    from koikoi_desktop.engine.yaku import scorer_for

    return scorer_for(view.rules).base(view.cap_masks[view.player])


__all__ = [
    "EXCHANGE",
    "KEEP",
    "LEVELS",
    "PERSONAS",
    "PLAIN_PLAY_REASONS",
    "Budget",
    "Opponent",
    "Persona",
    "Reason",
    "ReasonKey",
    "ReasonParam",
    "personas",
    "stop_sure",
    "view_key",
]
