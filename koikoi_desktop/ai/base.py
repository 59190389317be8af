"""The opponent interface: personas, thinking budgets, explained decisions.

Every computer opponent answers ``choose(view, context) -> Action`` from a :class:`PlayerView`
and the public :class:`MatchContext` of its seat (``Match.context(seat)``: the balances, rounds
and match rules) only — the same information a human in that seat has — and ``explain()`` returns
a one-line reason for its last decision. The context is a required argument so that no caller
can forget the match; ``None`` says the round is played on its own (tests, a lone round).
Reasons are kept as a template key plus parameters (:class:`Reason`) so the UI can translate
them; ``Reason.text()`` is the English rendering.

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
from typing import Any, ClassVar

from koikoi_desktop.engine import Action, MatchContext, PlayerView
from koikoi_desktop.engine.actions import DECLARE, EXCHANGE, KEEP
from koikoi_desktop.engine.round import instant_win
from koikoi_desktop.i18n import ENGLISH, YAKU_KEYS

LEVELS: tuple[str, ...] = ("beginner", "intermediate", "expert")


# --------------------------------------------------------------------------- reasons
_TEMPLATES: dict[str, str] = {
    "only_move": "plays the only legal move",
    "declare": "declares {instant}: an instant win worth {points}",
    "exchange_keep": "keeps the dealt hand: neither hand has been seen, so an exchange gains "
    "nothing on average",
    "exchange_swap": "exchanges hands on a hunch: neither hand has been seen",
    "completes": "takes {card}: completes {yaku}",
    "improves": "takes {card}: {yaku} grows to {points} points",
    "takes": "takes {card} with {hand}",
    "takes_toward": "takes {card}: one step closer to {yaku}",
    "blocks": "takes {card}: the opponent needs it for {yaku}",
    "takes_pretty": "takes {card}: it looks valuable",
    "discard_safe": "lays {card} on the field: nobody can pair it",
    "discard_own": "lays {card} on the field: the other card of that month is in the hand",
    "discard_cheap": "lays {card} on the field: the cheapest card to give away",
    "discard": "lays {card} on the field",
    "gaji": "pairs the lightning with {card}: the {month} cards left on the field "
    "will be swept in at the end",
    "draw_takes": "the drawn {drawn} takes {card}",
    "stop_threat": "stops: {points} points now, the opponent is {n} card(s) from {yaku}",
    "stop_points": "stops: {points} points now",
    "stop_last": "stops: {points} points now, no cards left to improve with",
    "stop_sure": "stops: {points} points now; a koi-koi would win about {ev:.1f} on average, "
    "not enough for the risk",
    "stop_sure_loss": "stops: {points} points now; a koi-koi would lose about {loss:.1f} "
    "on average",
    "koikoi": "calls koi-koi: {points} points is small and the opponent is far from a yaku",
    "koikoi_greedy": "calls koi-koi: wants more than {points} points",
    "koikoi_ev": "calls koi-koi: {ev:+.1f} expected against {points} points now",
    "search": "plays {card}: best of {n} simulated continuations ({ev:+.1f} points on average)",
    "search_draw": "the drawn {drawn} takes {card}: best of {n} simulated continuations",
    "stop_wins_match": "stops: {points} points win the match",
    "koikoi_for_match": "calls koi-koi: stopping for {points} points cannot win the match",
    "blocks_koikoi": "takes {card}: the opponent called koi-koi and needs it for {yaku}",
}


#: Every reason template key with its English text (translations: ``ai.reason.<key>``).
REASON_TEMPLATES = _TEMPLATES


@dataclass(frozen=True, slots=True)
class Reason:
    """A decision's reason: a template ``key`` and its ``params``.

    Card parameters (``card``, ``hand``, ``drawn``) are card ids, ``yaku`` a yaku key and
    ``month`` a month number, so a translation can name them in its own language.

    >>> Reason("completes", {"card": 29, "yaku": "tsukimi"}).text()
    'takes Full Moon: completes Tsukimi'
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The English sentence."""
        fmt = _TEMPLATES.get(self.key, self.key)
        shown: dict[str, Any] = {}
        for k, v in self.params.items():
            if k in ("card", "hand", "drawn") and isinstance(v, int) and 1 <= v <= 48:
                shown[k] = ENGLISH.card_name(v, "translated")
            elif k in ("yaku", "instant") and isinstance(v, str):
                shown[k] = _english_yaku(v)
            elif k == "month" and isinstance(v, int) and 1 <= v <= 12:
                shown[k] = ENGLISH.month_plant(v).lower()
            else:
                shown[k] = v
        try:
            return fmt.format(**shown)
        except (KeyError, ValueError, IndexError):
            return fmt

    def __str__(self) -> str:
        return self.text()


def stop_sure(points: int, ev: float, **more: Any) -> Reason:
    """Stopping for ``points`` beats a koi-koi expected to end at ``ev``: said plainly, as
    what a koi-koi would win on average or, when that is negative, what it would lose (never
    a signed number).

    >>> stop_sure(5, -2.9).text()
    'stops: 5 points now; a koi-koi would lose about 2.9 on average'
    >>> stop_sure(5, 4.0).key
    'stop_sure'
    """
    if ev < -0.05:
        return Reason("stop_sure_loss", {"points": points, "ev": ev, "loss": -ev, **more})
    return Reason("stop_sure", {"points": points, "ev": max(ev, 0.0), **more})


def _english_yaku(key: str) -> str:
    """A yaku, an instant win or the brights (``"lights"``), named as the English catalog names
    them (the yaku in romaji, as the table's English move log does by default)."""
    if key in YAKU_KEYS:
        return ENGLISH.yaku_name(key, "romaji")
    if key == "lights":
        return ENGLISH.t("kind.bright.plural").lower()
    return ENGLISH.t(f"ui.instant.{key}")


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
        self.last_reason = Reason("only_move")
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
                Reason("declare", {"instant": iw[0] if iw else "", "points": points}),
            )
        elif len(legal) == 1:
            action, reason = legal[0], Reason("only_move")
            if legal[0].kind == "stop":
                action, reason = legal[0], Reason("stop_last", {"points": _base(view)})
        else:
            action, reason = self.decide(view, context, self.rng_for(view))
        if action not in legal:  # a bug in a level must never become an illegal move
            action, reason = legal[0], Reason("only_move")
        self.last_reason = reason
        self.last_ms = (time.perf_counter() - t0) * 1000.0
        return action

    def decide_exchange(self, view: PlayerView, rng: random.Random) -> tuple[Action, Reason]:
        """R-DEAL-4, decided with both hands unseen: keep (an unseen hand for an unseen hand
        changes nothing on average). Levels may override it for character."""
        return KEEP, Reason("exchange_keep")

    @abstractmethod
    def decide(
        self, view: PlayerView, context: MatchContext | None, rng: random.Random
    ) -> tuple[Action, Reason]:
        """Choose among two or more legal actions (play, draw choice, koi-koi or stop) in the
        match ``context``."""

    def explain(self) -> str:
        """One line on the last decision, in English (``last_reason`` holds the template)."""
        return self.last_reason.text()

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
    "REASON_TEMPLATES",
    "Budget",
    "Opponent",
    "Persona",
    "Reason",
    "personas",
    "stop_sure",
    "view_key",
]
