"""What storage tells the player, in words: a :class:`~koikoi_desktop.storage.Cause` or a
:class:`~koikoi_desktop.storage.Notice` (facts) said in a :class:`~koikoi_desktop.i18n.Words`
from the catalogs' ``ui.storage.reason.<cause>`` and ``ui.storage.<key>``.

>>> from koikoi_desktop.i18n import ENGLISH, Words
>>> from koikoi_desktop.storage import Cause, Notice, NoticeKey
>>> cause_text(ENGLISH, Cause.FULL), cause_text(Words("uk"), Cause.IO)
('the disk is full', 'помилка введення-виведення диска')
>>> notice_text(ENGLISH, Notice(NoticeKey.LEDGER_UNRECORDED, count=2, reason=Cause.BUSY))
'2 finished matches could not be written to the match ledger (the database is busy).'

Decisions:

* **One home for the words**, as ``words.reasons`` is for the computer's reasons: storage keeps
  no sentences (it decides causes from codes and counts what it did); the screens (title,
  ledger, quit dialog, review) word its notices here in the player's language when they draw,
  and the command line and the app's closing line on stderr in :data:`~koikoi_desktop.i18n.ENGLISH`.
* **A cause inside a notice is worded in the same language** as the notice, so a Ukrainian
  player reads "диск заповнений" inside a Ukrainian sentence, never an English phrase.
* An unknown operating-system error (:attr:`Cause.OS <koikoi_desktop.storage.Cause.OS>`) is
  the one cause with text of its own: the system's words, quoted in the sentence.
"""

from __future__ import annotations

from koikoi_desktop.i18n import Key, Words
from koikoi_desktop.storage.atomic import Damage
from koikoi_desktop.storage.cause import Cause, Refused, Unresumable
from koikoi_desktop.storage.notice import Notice, NoticeKey

__all__ = [
    "cause_key",
    "cause_label",
    "cause_text",
    "damage_key",
    "notice_key",
    "notice_text",
    "refused_text",
    "unresumable_key",
]


def cause_key(cause: Cause) -> str:
    """The catalog key of a cause.

    >>> cause_key(Cause.DISK_READ_ONLY)
    'ui.storage.reason.readonly'
    """
    return f"ui.storage.reason.{cause.value}"


def damage_key(damage: Damage) -> str:
    """The catalog key of what is wrong with a file.

    >>> damage_key(Damage.NOT_JSON)
    'ui.storage.damage.not_json'
    """
    return f"ui.storage.damage.{damage.value}"


def unresumable_key(why: Unresumable) -> str:
    """The catalog key of why a saved match cannot be resumed.

    >>> unresumable_key(Unresumable.MOVES)
    'ui.storage.unresumable.moves'
    """
    return f"ui.storage.unresumable.{why.value}"


def notice_key(key: NoticeKey) -> str:
    """The catalog key of a notice.

    >>> notice_key(NoticeKey.LEDGER_READ_ONLY)
    'ui.storage.ledger_read_only'
    """
    return f"ui.storage.{key.value}"


def cause_text(words: Words, cause: Cause, detail: str = "") -> str:
    """``cause`` in ``words`` (``detail``: the system's words, for :attr:`Cause.OS` only)."""
    return words.t(cause_key(cause), detail=detail)


def refused_text(words: Words, refused: Refused) -> str:
    """Why the disk refused, in ``words``."""
    return cause_text(words, refused.cause, refused.detail)


def cause_label(refused: Refused) -> Key:
    """A refusal as a :class:`~koikoi_desktop.i18n.Key`, for a message worded when drawn."""
    return Key(cause_key(refused.cause), detail=refused.detail)


def notice_text(words: Words, notice: Notice) -> str:
    """``notice`` in ``words``: one line (its cause worded in the same language)."""
    params: dict[str, object] = dict(notice.params)
    detail = str(params.pop("detail", ""))
    for name, value in notice.params.items():
        if isinstance(value, Cause):
            params[name] = cause_text(words, value, detail)
        elif isinstance(value, Damage):
            params[name] = words.t(damage_key(value))
        elif isinstance(value, Unresumable):
            params[name] = words.t(unresumable_key(value), detail=detail)
    return " ".join(words.t(notice_key(notice.key), **params).split())
