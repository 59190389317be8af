"""The computer's reasons in words: an :class:`~koikoi_desktop.ai.Reason` (a key and its
parameters, a fact) said in a :class:`~koikoi_desktop.i18n.Words` from the catalogs'
``ai.reason.<key>``, with card, yaku and month names filled in in the same words.

>>> from koikoi_desktop.ai import Reason, ReasonKey
>>> from koikoi_desktop.i18n import ENGLISH, Words
>>> completes = Reason(ReasonKey.COMPLETES, {"card": 29, "yaku": "tsukimi"})
>>> reason_text(ENGLISH, completes)
'takes Full Moon: completes Moon Viewing'
>>> reason_text(Words("en", "romaji"), completes)
'takes Susuki ni tsuki: completes Tsukimi'

Decisions:

* **One home for the words.** The opponents keep no sentences (``ai/`` imports the engine
  only); the catalogs are the one source, English included (:data:`~koikoi_desktop.i18n.ENGLISH`
  is the English of a test, a tool or a report). The table's log and suggestions, the coach and
  the review all word a reason here.
* **A module of the words package** (:mod:`koikoi_desktop.words`), beside ``names`` and
  ``deal`` (the other modules that turn facts into words): it needs only ``ai`` (the facts)
  and ``i18n`` (the words), so the review, the coach, the command line and the table can all
  import it without importing ``scenes`` or pygame. The arena reports figures only and words
  no reason.
"""

from __future__ import annotations

from koikoi_desktop.ai.base import Reason, ReasonKey, ReasonParam
from koikoi_desktop.i18n import Words

__all__ = ["INSTANT_KINDS", "reason_key", "reason_text"]

#: The instant wins a ``yaku`` / ``instant`` parameter may name (worded as ``ui.instant.<key>``).
INSTANT_KINDS = ("teshi", "kuttsuki", "double_tenho")


def reason_key(key: ReasonKey) -> str:
    """The catalog key of a reason.

    >>> reason_key(ReasonKey.STOP_POINTS)
    'ai.reason.stop_points'
    """
    return f"ai.reason.{key.value}"


def _param(words: Words, name: str, value: ReasonParam) -> object:
    """One parameter in ``words``: card ids as card names, yaku keys as yaku names, a month
    number as its plant; numbers as they are (the catalog formats them)."""
    if name in ("card", "hand", "drawn") and isinstance(value, int) and 1 <= value <= 48:
        return words.card_name(value)
    if name in ("yaku", "instant") and isinstance(value, str):
        if value in INSTANT_KINDS:
            return words.t(f"ui.instant.{value}")
        if value == "lights":
            return words.t("kind.bright.plural")
        return words.yaku_name(value)
    if name == "month" and isinstance(value, int) and 1 <= value <= 12:
        return words.month_plant(value)
    return value


def reason_text(words: Words, reason: Reason) -> str:
    """``reason`` in ``words``.

    >>> from koikoi_desktop.ai.base import stop_sure
    >>> from koikoi_desktop.i18n import ENGLISH
    >>> reason_text(ENGLISH, stop_sure(5, -2.9))
    'stops: 5 points now; a koi-koi would lose about 2.9 on average'
    """
    params = {k: _param(words, k, v) for k, v in reason.params.items()}
    return words.t(reason_key(reason.key), **params)
