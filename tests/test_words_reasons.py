"""The computer's reasons have one home for their words: the catalogs (``ai.reason.<key>``).

The opponents keep facts (:class:`~koikoi_desktop.ai.Reason`: a :class:`ReasonKey` and its
parameters) and no sentences; :func:`koikoi_desktop.words.reasons.reason_text` words them in a
``Words``. These tests keep the list of keys and the catalogs in step, both ways.
"""

from __future__ import annotations

import pickle

import pytest

from koikoi_desktop import i18n
from koikoi_desktop.ai.base import Reason, ReasonKey, stop_sure
from koikoi_desktop.i18n import ENGLISH, LANGUAGES, Words
from koikoi_desktop.words.reasons import reason_key, reason_text

PREFIX = "ai.reason."
#: One value of every parameter a reason carries, as the opponents and the review give them.
SAMPLE: dict[str, int | float | str | None] = {
    "card": 29,
    "hand": 31,
    "drawn": 11,
    "yaku": "inoshikacho",
    "instant": "teshi",
    "month": 8,
    "points": 6,
    "n": 2,
    "ev": 1.25,
    "loss": 2.5,
}


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_reason_key_has_words_and_every_entry_is_a_key(code: str) -> None:
    entries = {k.removeprefix(PREFIX) for k in i18n.catalog(code) if k.startswith(PREFIX)}
    keys = {k.value for k in ReasonKey}
    assert keys - entries == set(), f"{code}: reason keys without words"
    assert entries - keys == set(), f"{code}: catalog entries that are no reason key (orphans)"


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_reason_is_worded_with_every_parameter_filled_in(code: str) -> None:
    words = Words(code)
    for key in ReasonKey:
        text = reason_text(words, Reason(key, dict(SAMPLE)))
        assert text.strip() and "{" not in text and not text.startswith(PREFIX), (key, text)
        assert words.has(reason_key(key))  # the language's own words, not English's


def test_the_parameters_are_named_in_the_words_given() -> None:
    why = Reason(ReasonKey.GAJI, {"card": 1, "month": 1})
    assert reason_text(ENGLISH, why) == (
        "pairs the lightning with Crane and Sun: the Pine cards left on the field will be "
        "swept in at the end"
    )
    uk = Words("uk")
    said = reason_text(uk, why)
    assert uk.card_name(1) in said and uk.month_plant(1) in said
    romaji = Words("en", "romaji")
    threat = Reason(ReasonKey.STOP_THREAT, {"points": 1, "n": 1, "yaku": "inoshikacho"})
    assert reason_text(romaji, threat) == (
        "stops: 1 point now, and the opponent lacks only 1 for Ino-Shika-Chō"
    )
    assert reason_text(ENGLISH, Reason(ReasonKey.DECLARE, {"instant": "teshi", "points": 6})) == (
        "declares Teshi (four of a month): an instant win worth 6 points"
    )


def test_a_reason_is_a_fact_that_crosses_to_the_worker_process_and_back() -> None:
    why = stop_sure(5, -2.9, n=400)
    assert why == Reason(ReasonKey.STOP_SURE_LOSS, {"points": 5, "ev": -2.9, "loss": 2.9, "n": 400})
    assert pickle.loads(pickle.dumps(why)) == why
    assert not hasattr(why, "text") and str(why.key) == "stop_sure_loss"
    with pytest.raises(ValueError):
        ReasonKey("no_such_reason")  # a stored review with an unknown key is refused, not guessed
