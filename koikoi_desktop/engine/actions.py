"""Actions (moves), their kinds and canonical text form; the phases that allow them; the
IllegalAction error with its reason key.

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
>>> Action.from_text("play 5").kind
ActionKind.PLAY
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple, cast

from koikoi_desktop.engine.cards import MONTH, MONTH_MASK_OF


class NameEnum(StrEnum):
    """A ``StrEnum`` whose ``repr`` is the Python that names the member (``Phase.PLAY``), so
    records that hold one paste back into Python; ``str()`` and ``==`` are the plain value."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class ActionKind(NameEnum):
    """The kind of an action; a ``StrEnum``, so ``action.kind == "play"`` holds too."""

    PLAY = "play"
    DISCARD = "discard"
    DRAW = "draw"
    KOIKOI = "koikoi"
    STOP = "stop"
    DECLARE = "declare"
    EXCHANGE = "exchange"
    KEEP = "keep"


class Phase(NameEnum):
    """What a round waits for: the actions each phase allows.

    ``exchange``: the non-dealer's exchange or keep (R-DEAL-4); ``declare``: an optional
    at-deal instant win, declare or keep; ``play``: a hand card (and, on a first turn, perhaps
    ``declare``); ``draw``: the choice of the drawn card's target; ``decide``: stop or koi-koi;
    ``over``: nothing (the round has its outcome).
    """

    EXCHANGE = "exchange"
    DECLARE = "declare"
    PLAY = "play"
    DRAW = "draw"
    DECIDE = "decide"
    OVER = "over"


class IllegalReason(NameEnum):
    """Why an action is illegal: the translation key ``engine.illegal.<value>`` of the UI
    catalogs. ``IllegalAction.params`` fills it: ``card`` / ``target`` (card ids), ``options``
    (card ids), ``number`` (a number that is no card)."""

    ROUND_OVER = "round_over"
    EXCHANGE_FIRST = "exchange_first"
    DECLARE_FIRST = "declare_first"
    KOIKOI_NEEDS_CARDS = "koikoi_needs_cards"
    KOIKOI_LIMIT = "koikoi_limit"
    CHOOSE_STOP_OR_KOIKOI = "choose_stop_or_koikoi"
    CHOOSE_DRAW_TARGET = "choose_draw_target"
    NOTHING_TO_DECIDE = "nothing_to_decide"
    CANNOT_DECLARE = "cannot_declare"
    EXCHANGE_ONLY_AT_DEAL = "exchange_only_at_deal"
    PLAY_FIRST = "play_first"
    NOT_IN_HAND = "not_in_hand"
    MUST_CAPTURE = "must_capture"
    NO_MATCH_PLAY = "no_match_play"
    CHOOSE_TARGET = "choose_target"
    PLAY_NOT_POSSIBLE = "play_not_possible"
    NOT_ON_FIELD = "not_on_field"
    NOT_SAME_MONTH = "not_same_month"
    SINGLE_MATCH = "single_match"
    NOT_A_MOVE = "not_a_move"
    NO_SUCH_CARD = "no_such_card"
    DISCARD_TAKES_NOTHING = "discard_takes_nothing"
    MATCH_OVER = "match_over"
    CANNOT_END_NOW = "cannot_end_now"


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message is a sentence a player can read.

    ``key`` (an :class:`IllegalReason`, required) names the reason for translation
    (``engine.illegal.<key>`` in the UI catalogs) and ``params`` holds its values (card ids,
    the legal choices), so a UI says it in any language without reading the English sentence,
    which is ``str(error)``.

    >>> e = IllegalAction("Card 5 is not in your hand.", IllegalReason.NOT_IN_HAND, card=5)
    >>> e.key, e.params
    (IllegalReason.NOT_IN_HAND, {'card': 5})
    """

    def __init__(self, message: str, key: IllegalReason, **params: object) -> None:
        super().__init__(message)
        self.key = IllegalReason(key)
        self.params = params


_SIMPLE = ("koikoi", "stop", "declare", "exchange", "keep")
_NOT_A_MOVE = IllegalReason.NOT_A_MOVE
#: The longest text a move can be ("discard 48" and "play 48>47" have ten characters; spaces
#: around them are allowed).
MAX_MOVE_TEXT = 64
_NO_CARD = "There is no card {n}: card ids run from 1 to 48."
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

    kind: ActionKind
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
        return k.value

    def __repr__(self) -> str:
        return f"Action.from_text({str(self)!r})"

    @staticmethod
    def play(card: int, target: int = 0) -> Action:
        """``play C`` or ``play C>T``."""
        return _intern(Action(ActionKind.PLAY, card, target))

    @staticmethod
    def discard(card: int) -> Action:
        """``discard C`` (free discard of a card that has a match, R-TURN-1a)."""
        return _intern(Action(ActionKind.DISCARD, card, 0))

    @staticmethod
    def draw(target: int) -> Action:
        """``draw>T``: the drawn card captures field card T (it matched two)."""
        return _intern(Action(ActionKind.DRAW, 0, target))

    @staticmethod
    def from_text(text: str) -> Action:
        """Parse the canonical text of an action (see the module docstring).

        Raises TypeError for anything but text, IllegalAction for text that is not a move (a
        text longer than any move is refused before it is read).
        """
        if not isinstance(text, str):
            raise TypeError(f"a move is text, not {type(text).__name__}")
        if len(text) > MAX_MOVE_TEXT:
            raise IllegalAction(f"{text[:20]!r}... is not a move (too long).", _NOT_A_MOVE)
        hit = _BY_TEXT.get(text)
        if hit is not None:
            return hit
        s = text.strip().lower()
        hit = _BY_TEXT.get(s)  # a record's moves come as " play 5>7" (split at ";")
        if hit is not None:
            return hit
        if s in _SIMPLE:
            return _intern(Action(ActionKind(s)))
        m = _RE.match(s)
        if m is None:
            raise IllegalAction(
                f"{text!r} is not a move. Moves look like: play 5, play 5>6, discard 5, "
                "draw>7, koikoi, stop, declare, exchange, keep.",
                _NOT_A_MOVE,
            )
        verb, c, t, d = m.groups()
        if d is not None:
            act = Action(ActionKind.DRAW, 0, int(d))
        else:
            act = Action(ActionKind(verb), int(c), int(t) if t else 0)
            if verb == "discard" and t:
                raise IllegalAction(
                    "A discard captures nothing: write 'discard C'.",
                    IllegalReason.DISCARD_TAKES_NOTHING,
                )
        for n in (act.card, act.target):
            if n and not 1 <= n <= 48:
                raise IllegalAction(_NO_CARD.format(n=n), IllegalReason.NO_SUCH_CARD, number=n)
        if (act.target if act.kind == "draw" else act.card) == 0:
            raise IllegalAction(_NO_CARD.format(n=0), IllegalReason.NO_SUCH_CARD, number=0)
        return _intern(act)


_INTERNED: dict[Action, Action] = {}
_BY_TEXT: dict[str, Action] = {}


def exact_actions(texts: Iterable[str]) -> list[Action] | None:
    """The actions whose canonical texts (``str(action)``, as a record writes its moves) these
    are, in order; None when one is anything else (then each is read by
    :meth:`Action.from_text`, which gives the same actions for these texts)."""
    found = list(map(_BY_TEXT.get, texts))
    return None if None in found else cast(list[Action], found)


def _intern(a: Action) -> Action:
    hit = _INTERNED.get(a)
    if hit is None:
        _INTERNED[a] = a
        _BY_TEXT[str(a)] = a
        hit = a
    return hit


KOIKOI = _intern(Action(ActionKind.KOIKOI))
STOP = _intern(Action(ActionKind.STOP))
DECLARE = _intern(Action(ActionKind.DECLARE))
EXCHANGE = _intern(Action(ActionKind.EXCHANGE))
KEEP = _intern(Action(ActionKind.KEEP))

_NONE = Action(ActionKind.PLAY)  # the unused index 0 of the tables below: never legal
#: PLAY[c] = ``play c``; PLAY_TO[c][t] = ``play c>t``; DISCARD[c]; DRAW_TO[t] (index 0 unused).
PLAY: tuple[Action, ...] = (_NONE, *(Action.play(c) for c in range(1, 49)))
PLAY_TO: tuple[tuple[Action, ...], ...] = (
    (_NONE,) * 49,
    *((_NONE, *(Action.play(c, t) for t in range(1, 49))) for c in range(1, 49)),
)
DISCARD: tuple[Action, ...] = (_NONE, *(Action.discard(c) for c in range(1, 49)))
DRAW_TO: tuple[Action, ...] = (_NONE, *(Action.draw(t) for t in range(1, 49)))


def capture_mask(action: Action, field_mask: int) -> int:
    """The field cards (a mask) that ``action``'s card takes from ``field_mask`` (R-TURN-1,
    R-TURN-2): the chosen target (``play C>T``, the Gaji pairing, ``draw>T``), else every field
    card of the card's month (one or three), else none (laid on the field; also ``discard``
    and the actions that move no card). Legality is not checked here.

    >>> from koikoi_desktop.engine.cards import ids_of, mask_of
    >>> field = mask_of([1, 2, 4, 5, 9, 10])
    >>> ids_of(capture_mask(Action.play(3), field)), ids_of(capture_mask(Action.play(6), field))
    ((1, 2, 4), (5,))
    >>> ids_of(capture_mask(Action.play(11, 9), field)), capture_mask(Action.discard(6), field)
    ((9,), 0)
    """
    t = action.target
    if t:
        return 1 << t
    if action.kind == _PLAY_KIND:
        return field_mask & MONTH_MASK_OF[action.card]
    return 0


_PLAY_KIND = ActionKind.PLAY  # a module constant: enum attribute lookups are slow on 3.11


def hand_capture(action: Action, field_mask: int) -> tuple[int, int]:
    """What a hand action (``play`` or ``discard``) does to ``field_mask`` before the draw:
    (the cards it moves to its player's capture pile — the played card with the field cards it
    takes, :func:`capture_mask` — or 0 when it takes nothing, the field after). Legality is not
    checked here.

    >>> from koikoi_desktop.engine.cards import ids_of, mask_of
    >>> field = mask_of([1, 2, 5])
    >>> [(ids_of(t), ids_of(f)) for t, f in (hand_capture(Action.play(3), field),
    ...                                        hand_capture(Action.play(44, 5), field))]
    [((1, 2, 3), (5,)), ((5, 44), (1, 2))]
    >>> [ids_of(f) for t, f in (hand_capture(Action.play(9), field),
    ...                         hand_capture(Action.discard(3), field))]
    [(1, 2, 5, 9), (1, 2, 3, 5)]
    """
    bit = 1 << action.card
    taken = capture_mask(action, field_mask)
    if taken:
        return taken | bit, field_mask & ~taken
    return 0, field_mask | bit


def is_gaji_pairing(action: Action) -> bool:
    """Whether ``action`` is the Gaji wild pairing (R-TURN-1b): a hand card played onto a
    field card of another month (only the lightning, when the rules allow it, may do that).
    Legality is not checked here; a ``play C>T`` between two cards of one month is a choice of
    target, not a pairing.

    >>> is_gaji_pairing(Action.play(44, 5)), is_gaji_pairing(Action.play(44, 41))
    (True, False)
    >>> is_gaji_pairing(Action.play(44)), is_gaji_pairing(Action.draw(5))
    (False, False)
    """
    t = action.target
    return bool(t) and action.kind == _PLAY_KIND and MONTH[t] != MONTH[action.card]
