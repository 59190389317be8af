"""Words for the table: event descriptions for the log and banners, illegal-move reasons, the
call words (card and yaku names come from :mod:`koikoi_desktop.words.names`, the computer's reasons
from :mod:`koikoi_desktop.words.reasons`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from koikoi_desktop import engine
from koikoi_desktop.ai.base import Reason, ReasonKey
from koikoi_desktop.i18n import Words
from koikoi_desktop.review.analysis import classify
from koikoi_desktop.review.coach import CoachNote
from koikoi_desktop.words.names import (
    SeatNames,
    amount_text,
    cards_text,
    end_text,
    factor_text,
    koi_word,
    stop_word,
)
from koikoi_desktop.words.reasons import reason_text

__all__ = [
    "LOGGED",
    "MARKS",
    "SAYS_ONLY_THE_MOVE",
    "EventLine",
    "LogLine",
    "amount_text",
    "cards_text",
    "chance_lost_text",
    "class_text",
    "coach_text",
    "describe",
    "end_text",
    "factor_text",
    "illegal_text",
    "koi_word",
    "log_text",
    "logs",
    "percent",
    "stop_word",
]

#: A computer's reasons that say the move and no why ("takes Maple Blue Ribbon with Maple"):
#: the move's own line says it already, so the log does not tell them again (issue 43).
SAYS_ONLY_THE_MOVE = frozenset({ReasonKey.TAKES, ReasonKey.DISCARD, ReasonKey.DRAW_TAKES})

#: The review's marks after a class's word (chess's ?! ? ??).
MARKS = {"good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def _card_param(words: Words, value: object) -> str:
    if isinstance(value, int) and 1 <= value <= 48:
        return words.card_name(value)
    if isinstance(value, (tuple, list)):
        return ", ".join(_card_param(words, v) for v in value)
    return str(value)


def illegal_text(words: Words, exc: engine.IllegalAction) -> str:
    """An engine IllegalAction in ``words``: ``engine.illegal.<key>`` with card
    names for its ``card`` / ``target`` / ``options`` ids (every IllegalAction has a key)."""
    return words.t(
        f"engine.illegal.{exc.key}", **{k: _card_param(words, v) for k, v in exc.params.items()}
    )


def class_text(words: Words, cls: str) -> str:
    """A judgement's class in words with its mark ("Blunder ??"): the review's and the coach's."""
    mark = MARKS[cls]
    word = words.t(f"ui.review.class.{cls}")
    return f"{word} {mark}" if mark else word


def percent(chance: float) -> str:
    """A chance (0-1) as a percentage figure: whole from 1%, one decimal below ("0.4").

    >>> percent(0.213), percent(0.004), percent(0.009), percent(0.0099), percent(1.0)
    ('21', '0.4', '0.9', '1', '100')
    """
    pc = chance * 100.0
    return f"{pc:.1f}" if pc < 0.95 else f"{round(pc)}"


def chance_lost_text(words: Words, win_loss: float) -> str:
    """The figure a decision is classed by, in words: "-21% chance to win the match"; ""
    when nothing measurable was lost (never a "-0")."""
    if win_loss < 0.0005:
        return ""
    return words.t("ui.review.chance_lost", n=percent(win_loss))


def coach_text(words: Words, note: CoachNote) -> str:
    """The coach's line in ``words``, in the review's words: the class and the figure it was
    classed by (the match-win chance lost; with its 95% range when the class is the one below
    the figure's, not clearly past its threshold), the expected points of the move played and
    of the best one, why the best move was better, and in practice the offer to take the move
    back."""
    points = words.t(
        "ui.coach.points", played=f"{note.value_played:+.1f}", best=f"{note.value_best:+.1f}"
    )
    if classify(note.win_loss) != note.cls:  # past a threshold, not clearly: say its range
        low, high = max(0.0, note.win_loss - note.margin), min(1.0, note.win_loss + note.margin)
        points = f"{words.t('ui.review.range', low=percent(low), high=percent(high))}; {points}"
    loss = f"{chance_lost_text(words, note.win_loss)} ({points})"
    text = words.t(
        "ui.coach.line",
        verdict=class_text(words, note.cls),
        loss=loss,
        why=reason_text(words, note.reason),
    )
    return f"{text} {words.t('ui.coach.undo')}" if note.undo else text


#: The events the move log has a line for (:func:`describe` words each of them).
LOGGED: tuple[type[engine.Event], ...] = (
    engine.Played,
    engine.GajiPaired,
    engine.Discarded,
    engine.Drew,
    engine.Flipped,
    engine.Swept,
    engine.YakuMade,
    engine.KoiKoiCalled,
    engine.Stopped,
    engine.InstantWon,
    engine.Redealt,
    engine.ExchangeDecided,
    engine.InstantWinDeclined,
    engine.RoundOver,
)


def logs(ev: engine.Event) -> bool:
    """Whether the move log (and the banner) has a line for ``ev``: decided on the fact, with
    no words made (a ``DrawPending`` has none: the draw's line once the target is chosen says
    the same card)."""
    return isinstance(ev, LOGGED)


def describe(
    words: Words, ev: engine.Event, names: tuple[str, str], rules: engine.Rules
) -> str | None:
    """One line for the move log / banner, or None for events not worth a line (exactly
    those :func:`logs` refuses).

    A sentence about the player is built from its second-person entry ("You play …"), one
    about the computer or a named player from the third-person one ("Akiko plays …"): see
    :meth:`koikoi_desktop.i18n.Words.t_person`."""
    e = engine
    say = words.t_person
    if isinstance(ev, (e.Played, e.GajiPaired)):
        who = names[ev.player]
        if ev.captured:
            took = cards_text(words, ev.captured)
            return say("ui.log.capture", who, card=words.card_name(ev.card), cards=took)
        return say("ui.log.play", who, card=words.card_name(ev.card))
    if isinstance(ev, e.Discarded):
        return say("ui.log.discard", names[ev.player], card=words.card_name(ev.card))
    if isinstance(ev, e.Drew):
        who = names[ev.player]
        if ev.captured:
            took = cards_text(words, ev.captured)
            return say("ui.log.draw_capture", who, card=words.card_name(ev.card), cards=took)
        return say("ui.log.draw", who, card=words.card_name(ev.card))
    if isinstance(ev, e.DrawPending):
        # no line of its own: the draw's line once the target is chosen says the same card
        # ("draws Maple and takes …"); until then the turn banner and the hint ask for the choice
        return None
    if isinstance(ev, e.Flipped):
        return words.t("ui.log.flip", card=words.card_name(ev.card))
    if isinstance(ev, e.Swept):
        return say("ui.log.sweep", names[ev.player], cards=cards_text(words, ev.cards))
    if isinstance(ev, e.YakuMade):
        yaku = ", ".join(words.yaku_name(x) for x in ev.keys)
        return say("ui.log.yaku", names[ev.player], yaku=yaku, base=ev.base)
    if isinstance(ev, e.KoiKoiCalled):
        return say("ui.log.koikoi", names[ev.player], word=koi_word(words, rules), n=ev.calls)
    if isinstance(ev, e.Stopped):
        key = "ui.log.forced_stop" if ev.forced else "ui.log.stop"
        return say(key, names[ev.player], word=stop_word(words, rules))
    if isinstance(ev, e.InstantWon):
        kind = words.t(f"ui.instant.{ev.instant}")
        return say("ui.log.instant", names[ev.player], kind=kind, value=ev.value)
    if isinstance(ev, e.Redealt):
        return words.t("ui.log.redeal")
    if isinstance(ev, e.ExchangeDecided):
        key = "ui.log.exchange" if ev.exchanged else "ui.log.keep_hands"
        return say(key, names[ev.player])
    if isinstance(ev, e.InstantWinDeclined):
        return say("ui.log.declined", names[ev.player])
    if isinstance(ev, e.RoundOver):
        if ev.winner is not None:
            return say("ui.log.round_won", names[ev.winner], final=ev.final)
        return words.t("ui.log.round_no_winner", reason=end_text(words, ev.reason))
    return None


# ------------------------------------------------------------------------------ the move log
@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the table's move log, kept as a fact and put into words when drawn
    (:func:`log_text`), so a language change rewrites the whole log at once.

    ``kind``: ``"event"`` (an engine event, ``event``), ``"round"`` (round ``n`` is dealt),
    ``"reason"`` (practice: why seat ``seat``'s computer moved, ``why``), ``"resumed"`` (the
    match was continued from its autosave), ``"undone"`` (a move was taken back), ``"coach"``
    (the coach's verdict on the player's move, ``note``).
    """

    kind: Literal["event", "round", "reason", "resumed", "undone", "coach"]
    event: engine.Event | None = None
    n: int = 0
    seat: int = 0
    why: Reason | None = None
    note: CoachNote | None = None

    @classmethod
    def of(cls, ev: engine.Event) -> LogLine:
        return cls("event", event=ev)


def log_text(words: Words, line: LogLine, names: Sequence[str], rules: engine.Rules) -> str:
    """A log line in ``words`` ("" for an event not worth a line)."""
    if line.kind == "event":
        assert line.event is not None
        pair = (names[0], names[1])
        return describe(words, line.event, pair, rules) or ""
    if line.kind == "round":
        return words.t("ui.common.round_n", n=line.n)
    if line.kind == "reason":
        assert line.why is not None
        return words.t("ui.log.reason", name=names[line.seat], why=reason_text(words, line.why))
    if line.kind == "coach":
        assert line.note is not None
        return coach_text(words, line.note)
    return words.t("ui.table.resumed" if line.kind == "resumed" else "ui.table.undone")


@dataclass(frozen=True, slots=True)
class EventLine:
    """An event's line for the banner and the announcements (a :data:`~koikoi_desktop.i18n.Label`):
    the event and the seats' names as facts, worded when drawn."""

    event: engine.Event
    names: SeatNames
    rules: engine.Rules

    def __call__(self, words: Words) -> str:
        return describe(words, self.event, self.names.now(words), self.rules) or ""
