"""Actions (moves) and their canonical text form; events; the IllegalAction error.

Every action has one canonical text: ``str(action)`` and ``Action.from_text`` round-trip.

>>> a = Action.from_text("play 5>6")
>>> a, str(a)
(Action.from_text('play 5>6'), 'play 5>6')
>>> Action.from_text(str(Action.draw(7))) == Action.draw(7)
True
>>> Action.from_text("fold")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
koikoi_desktop.engine.actions.IllegalAction: 'fold' is not a move. Moves look like: ...
"""

from __future__ import annotations

import re
from typing import NamedTuple


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message is a sentence a player can read.

    ``key`` names the reason for translation (``engine.illegal.<key>`` in the UI catalogs) and
    ``params`` holds its values (card ids, the legal choices), so a UI can say it in any
    language; ``str(error)`` is the English sentence.
    """

    def __init__(self, message: str, key: str = "", **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


_SIMPLE = ("koikoi", "stop", "declare", "exchange", "keep")
_RE = re.compile(
    r"^\s*(play|discard)\s+([0-9]{1,2})(?:\s*>\s*([0-9]{1,2}))?\s*$|^\s*draw\s*>\s*([0-9]{1,2})\s*$",
    re.ASCII,
)  # ASCII digits only: int() would also take "３" or "٣", which no record of ours contains


class Action(NamedTuple):
    """One move: ``kind`` is play, discard, draw, koikoi, stop, declare, exchange or keep.

    ``card`` is the hand card (play/discard), ``target`` the chosen field card (``play C>T`` and
    ``draw>T``); unused parts are 0. Use the constructors (``Action.play(5, 6)``) or
    ``Action.from_text``; instances are interned, so comparing and hashing them is cheap.
    """

    kind: str
    card: int = 0
    target: int = 0

    def __str__(self) -> str:
        k = self.kind
        if k == "play":
            return f"play {self.card}>{self.target}" if self.target else f"play {self.card}"
        if k == "discard":
            return f"discard {self.card}"
        if k == "draw":
            return f"draw>{self.target}"
        return k

    def __repr__(self) -> str:
        return f"Action.from_text({str(self)!r})"

    @staticmethod
    def play(card: int, target: int = 0) -> Action:
        """``play C`` or ``play C>T``."""
        return _intern(Action("play", card, target))

    @staticmethod
    def discard(card: int) -> Action:
        """``discard C`` (free discard of a card that has a match, R-TURN-1a)."""
        return _intern(Action("discard", card, 0))

    @staticmethod
    def draw(target: int) -> Action:
        """``draw>T``: the drawn card captures field card T (it matched two)."""
        return _intern(Action("draw", 0, target))

    @staticmethod
    def from_text(text: str) -> Action:
        """Parse the canonical text of an action (see the module docstring)."""
        if not isinstance(text, str):
            raise IllegalAction(f"{text!r:.40} is not a move.")
        hit = _BY_TEXT.get(text)
        if hit is not None:
            return hit
        s = text.strip().lower()
        if s in _SIMPLE:
            return _intern(Action(s))
        m = _RE.match(s)
        if m is None:
            raise IllegalAction(
                f"{text!r} is not a move. Moves look like: play 5, play 5>6, discard 5, "
                "draw>7, koikoi, stop, declare, exchange, keep."
            )
        verb, c, t, d = m.groups()
        if d is not None:
            act = Action("draw", 0, int(d))
        else:
            act = Action(verb, int(c), int(t) if t else 0)
            if verb == "discard" and t:
                raise IllegalAction("A discard captures nothing: write 'discard C'.")
        for n in (act.card, act.target):
            if n and not 1 <= n <= 48:
                raise IllegalAction(f"There is no card {n}: card ids run from 1 to 48.")
        if act.kind != "draw" and act.card == 0:
            raise IllegalAction("There is no card 0: card ids run from 1 to 48.")
        if act.kind == "draw" and act.target == 0:
            raise IllegalAction("There is no card 0: card ids run from 1 to 48.")
        return _intern(act)


_INTERNED: dict[Action, Action] = {}
_BY_TEXT: dict[str, Action] = {}


def _intern(a: Action) -> Action:
    hit = _INTERNED.get(a)
    if hit is None:
        _INTERNED[a] = a
        _BY_TEXT[str(a)] = a
        hit = a
    return hit


KOIKOI = _intern(Action("koikoi"))
STOP = _intern(Action("stop"))
DECLARE = _intern(Action("declare"))
EXCHANGE = _intern(Action("exchange"))
KEEP = _intern(Action("keep"))

_NONE = Action("none")
#: PLAY[c] = ``play c``; PLAY_TO[c][t] = ``play c>t``; DISCARD[c]; DRAW_TO[t] (index 0 unused).
PLAY: tuple[Action, ...] = (_NONE, *(_intern(Action("play", c, 0)) for c in range(1, 49)))
PLAY_TO: tuple[tuple[Action, ...], ...] = (
    (_NONE,) * 49,
    *((_NONE, *(_intern(Action("play", c, t)) for t in range(1, 49))) for c in range(1, 49)),
)
DISCARD: tuple[Action, ...] = (_NONE, *(_intern(Action("discard", c, 0)) for c in range(1, 49)))
DRAW_TO: tuple[Action, ...] = (_NONE, *(_intern(Action("draw", 0, t)) for t in range(1, 49)))


class Event(NamedTuple):
    """An immutable record of something that happened, for animation, the log and the ledger.

    ``kind``: deal, redeal, exchange, keep, instant_win, play, discard, gaji, draw, draw_pending,
    flip, yaku, koikoi, stop, sweep, round_over. ``player`` is the seat (None for the table),
    ``card`` the moving card, ``cards`` the cards captured (or shown), ``value`` a number (base,
    calls, final score …) and ``info`` a short detail (yaku keys, an end reason …).
    """

    kind: str
    player: int | None = None
    card: int = 0
    cards: tuple[int, ...] = ()
    value: int = 0
    info: str = ""
