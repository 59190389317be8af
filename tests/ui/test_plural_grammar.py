"""Counts and grammatical person in the five catalogs.

* CLDR plural categories (``i18n/plural.py``): every category of en, uk, ru, sk and ja.
* Every count-bearing entry renders for n = 0, 1, 2, 3, 5, 11, 21, 22, 25, 101 in every
  language with no placeholder left, and some against forms known to be right.
* No plain (form-less) string puts a count right before a noun in a language with plurals.
* Sentences about the player are built for the second person ("You play …"), about others for
  the third ("Akiko plays …"), including the table's move log.
"""

from __future__ import annotations

import dataclasses
import re
import string
from decimal import Decimal
from typing import Any

import pytest

from koikoi_desktop import engine, i18n
from koikoi_desktop.engine import events as ev_
from koikoi_desktop.i18n import ENGLISH, Words, plural
from koikoi_desktop.scenes.table import text as table_text

CODES = list(i18n.LANGUAGES)
NUMBERS = (0, 1, 2, 3, 5, 11, 21, 22, 25, 101)


# ------------------------------------------------------------------------- CLDR categories

CASES: dict[str, dict[str, list[Any]]] = {
    "en": {"one": [1], "other": [0, 2, 5, 11, 21, 101, "1.5", "1.0", 0.5]},
    "uk": {
        "one": [1, 21, 31, 101, 1001],
        "few": [2, 3, 4, 22, 24, 102, 1004],
        "many": [0, 5, 9, 10, 11, 12, 13, 14, 15, 20, 25, 100, 111, 112, 114],
        "other": ["1.5", "0.1", 2.5, "1.0"],
    },
    "ru": {
        "one": [1, 21, 31, 101, 1001],
        "few": [2, 3, 4, 22, 24, 102, 1004],
        "many": [0, 5, 9, 10, 11, 12, 13, 14, 15, 20, 25, 100, 111, 112, 114],
        "other": ["1.5", "0.1", 2.5, "1.0"],
    },
    "sk": {
        "one": [1],
        "few": [2, 3, 4],
        "many": ["1.5", "0.1", 2.5, "1.0"],
        "other": [0, 5, 11, 21, 22, 25, 101, 1000],
    },
    "ja": {"other": [0, 1, 2, 5, 21, 101, "1.5"]},
}


@pytest.mark.parametrize("code", CODES)
def test_every_category_of_every_language(code: str) -> None:
    assert set(CASES[code]) == set(plural.USED[code])
    for cat, numbers in CASES[code].items():
        for n in numbers:
            assert plural.category(code, n) == cat, (code, n)
            if isinstance(n, int):
                assert plural.category(code, -n) == cat  # the sign does not matter


def test_operands_follow_cldr() -> None:
    assert plural.operands(Decimal("1.50")) == (Decimal("1.50"), 1, 2)
    assert plural.operands("7") == (Decimal("7"), 7, 0)
    with pytest.raises(TypeError):
        plural.category("en", True)
    with pytest.raises(ValueError):
        plural.category("en", "nan")
    with pytest.raises(ValueError):
        plural.category("de", 1)


# ------------------------------------------------------------------------- catalog entries


def forms_of(code: str) -> dict[str, dict[str, str]]:
    return {k: v for k, v in i18n.catalog(code).items() if isinstance(v, dict)}


def count_bearing() -> list[str]:
    keys: set[str] = set()
    for code in CODES:
        keys |= set(forms_of(code))
    return sorted(keys)


@pytest.mark.parametrize("code", CODES)
def test_plural_entries_have_exactly_their_languages_categories(code: str) -> None:
    for key, forms in forms_of(code).items():
        cats = set(forms) - {"count"}
        assert cats == set(plural.USED[code]), (code, key, sorted(cats))
        chooser = forms.get("count", "n")
        en = i18n.catalog("en")[key]
        en_chooser = en.get("count", "n") if isinstance(en, dict) else "n"
        assert chooser == en_chooser or not isinstance(en, dict), (code, key)


def test_there_are_count_bearing_entries_to_render() -> None:
    keys = count_bearing()
    assert len(keys) >= 30
    for must in (
        "ui.newgame.first_to",
        "ui.newgame.rounds",
        "ui.count.coins",
        "ui.monthref.grid_kind",
        "ai.reason.improves",
        "ui.ledger.stats.summary",
    ):
        assert must in keys


def _fields(key: str) -> dict[str, str]:
    """Placeholder name -> format spec, over every language's forms of ``key``."""
    out: dict[str, str] = {}
    for code in CODES:
        entry = i18n.catalog(code)[key]
        texts = entry.values() if isinstance(entry, dict) else [entry]
        for text in texts:
            for _, name, spec, _ in string.Formatter().parse(text):
                if name:
                    out[name] = spec or ""
    return out


def _sample(key: str, n: int) -> tuple[dict[str, Any], str]:
    entry = i18n.catalog("en")[key]
    chooser = entry.get("count", "n") if isinstance(entry, dict) else "n"
    params: dict[str, Any] = {}
    for name, spec in _fields(key).items():
        params[name] = 1.25 if spec.endswith("f") else f"<{name}>"
    params[chooser] = n
    return params, chooser


@pytest.mark.parametrize("code", CODES)
def test_every_count_bearing_string_renders_for_many_counts(code: str) -> None:
    words = Words(code)
    for key in count_bearing():
        for n in NUMBERS:
            params, _ = _sample(key, n)
            out = words.t(key, **params)
            assert "{" not in out and "}" not in out, (code, key, n, out)
            assert re.search(rf"(?<!\d){n}(?!\d)", out), (code, key, n, out)
            missing = [p for p, v in params.items() if isinstance(v, str) and v not in out]
            assert not missing, (code, key, n, missing)


KNOWN = [
    ("en", "ui.newgame.rounds", 1, "1 round"),
    ("en", "ui.newgame.rounds", 0, "0 rounds"),
    ("en", "ui.newgame.rounds", 21, "21 rounds"),
    ("en", "ui.count.coins", 1, "1 coin"),
    ("ru", "ui.newgame.first_to", 1, "до 1 очка"),
    ("ru", "ui.newgame.first_to", 21, "до 21 очка"),
    ("ru", "ui.newgame.first_to", 2, "до 2 очков"),
    ("ru", "ui.newgame.first_to", 5, "до 5 очков"),
    ("ru", "ui.newgame.first_to", 11, "до 11 очков"),
    ("ru", "ui.count.coins", 22, "22 монеты"),
    ("ru", "ui.count.coins", 25, "25 монет"),
    ("ru", "ui.count.coins", 101, "101 монета"),
    ("ru", "ui.newgame.rounds", 3, "3 месяца"),
    ("ru", "ui.newgame.rounds", 12, "12 месяцев"),
    ("uk", "ui.monthref.grid_kind", 22, "<kind>: 22 карти"),
    ("uk", "ui.monthref.grid_kind", 11, "<kind>: 11 карт"),
    ("uk", "ui.monthref.grid_kind", 1, "<kind>: 1 карта"),
    ("uk", "ui.count.points", 21, "21 очко"),
    ("uk", "ui.count.points", 3, "3 очки"),
    ("uk", "ui.count.points", 0, "0 очок"),
    ("sk", "ui.newgame.rounds", 1, "1 kolo"),
    ("sk", "ui.newgame.rounds", 3, "3 kolá"),
    ("sk", "ui.newgame.rounds", 5, "5 kôl"),
    ("sk", "ui.newgame.rounds", 21, "21 kôl"),
    ("sk", "ui.count.coins", 2, "2 mince"),
    ("sk", "ui.count.coins", 0, "0 mincí"),
    ("ja", "ui.newgame.rounds", 12, "12回戦"),
]


@pytest.mark.parametrize(("code", "key", "n", "want"), KNOWN)
def test_known_forms(code: str, key: str, n: int, want: str) -> None:
    words = Words(code)
    params, _ = _sample(key, n)
    assert words.t(key, **params) == want


def test_paid_sentence_agrees_with_the_number_and_the_person() -> None:
    words = Words("ru")
    you = words.t("ui.common.you")
    assert words.t_person("ui.summary.paid_coins", you, n=21) == "Вы получаете 21 монету."
    assert words.t_person("ui.summary.paid_coins", "Акико", n=3) == "Акико получает 3 монеты."
    words = Words("en")
    assert words.t_person("ui.summary.paid_points", "You", n=1) == "You score 1 point."
    assert words.t_person("ui.summary.paid_points", "Akiko", n=6) == "Akiko scores 6 points."


#: Words that may follow a bare count in a form-less string (the count is not a noun's number).
FUNCTION_WORDS = {
    "of",
    "to",
    "for",
    "at",
    "з",
    "із",
    "из",
    "z",
    "za",
    "за",
    "do",
    "до",
    "nad",
    "понад",
    "сверх",
}
COUNT_FIELD = re.compile(r"\{(n|count|points|calls)\}\s+([^\W\d_][\w-]*)")


@pytest.mark.parametrize("code", ["en", "uk", "ru", "sk"])
def test_no_formless_string_puts_a_count_before_a_noun(code: str) -> None:
    """The ru.json "до {n} очков" of issue 16: a count followed by a noun needs forms."""
    wrong = {}
    for key, value in i18n.catalog(code).items():
        if isinstance(value, str):
            for m in COUNT_FIELD.finditer(value):
                if m.group(2).lower() not in FUNCTION_WORDS:
                    wrong[key] = value
    assert not wrong, f"{code}: give these plural forms: {wrong}"


def test_t_picks_other_without_a_count_and_survives_a_bad_one() -> None:
    words = Words("uk")
    assert words.t("ui.newgame.rounds") == "{n} раунду"  # "other": no count given
    assert words.t("ui.newgame.rounds", n="many") == "many раунду"  # not a number: "other"


# ------------------------------------------------------------------------- grammatical person


def person_keys() -> list[str]:
    """Keys with a second-person form (``ui.common.you``, the word itself, has no base)."""
    en = i18n.catalog("en")
    return sorted(k[: -len(".you")] for k in en if k.endswith(".you") and k[: -len(".you")] in en)


def test_person_entries_come_in_pairs() -> None:
    keys = person_keys()
    assert len(keys) >= 18
    en = i18n.catalog("en")
    for key in keys:
        assert key in en, key
        base, you = en[key], en[f"{key}.you"]
        base_text = base if isinstance(base, str) else base["other"]
        you_text = you if isinstance(you, str) else you["other"]
        assert "{name}" in base_text and "{name}" not in you_text, key


@pytest.mark.parametrize("code", ["en", "uk", "ru", "sk", "ja"])
def test_sentences_about_you_use_the_second_person(code: str) -> None:
    words = Words(code)
    you = words.t("ui.common.you")
    for key in person_keys():
        params, _ = _sample(key, 3)
        params.pop("name", None)
        mine = words.t_person(key, you, **params)
        theirs = words.t_person(key, "Akiko", **params)
        assert mine == words.t(f"{key}.you", **params), (code, key)
        assert "Akiko" in theirs and "{" not in mine + theirs, (code, key)


def _other(ev: Any) -> Any:
    """The same event about the other seat (seat 1)."""
    field = "winner" if isinstance(ev, ev_.RoundOver) else "player"
    return dataclasses.replace(ev, **{field: 1})


LOG_EVENTS = [
    (ev_.Played(0, 1, (3,)), "You play {a} and take {b}.", "Akiko plays {a} and takes {b}."),
    (ev_.Played(0, 1), "You play {a} to the field.", "Akiko plays {a} to the field."),
    (ev_.Discarded(0, 1), "You discard {a} to the field.", "Akiko discards {a} to the field."),
    (
        ev_.Drew(0, 1),
        "You draw {a}; it stays on the field.",
        "Akiko draws {a}; it stays on the field.",
    ),
    (ev_.Drew(0, 1, (3,)), "You draw {a} and take {b}.", "Akiko draws {a} and takes {b}."),
    (ev_.Swept(0, (3,), 1), "You sweep the Gaji month: {b}.", "Akiko sweeps the Gaji month: {b}."),
    (ev_.Stopped(0, 6, forced=True), "You must stop: Stop!", "Akiko must stop: Stop!"),
    (ev_.ExchangeDecided(0, True), "You exchange hands.", "Akiko exchanges hands."),
    (
        ev_.ExchangeDecided(0, False),
        "You keep the hands as dealt.",
        "Akiko keeps the hands as dealt.",
    ),
    (ev_.InstantWinDeclined(0), "You play on.", "Akiko plays on."),
    (ev_.RoundOver(0, 12, ev_.RoundEnd.STOP), "You win the round: 12", "Akiko wins the round: 12"),
]


@pytest.mark.parametrize(("ev", "you", "them"), LOG_EVENTS)
def test_move_log_lines_are_built_for_their_person(ev: Any, you: str, them: str) -> None:
    rules = engine.PRESETS["nintendo"]
    a, b = ENGLISH.card_name(1), ENGLISH.card_name(3)
    names = ("You", "Akiko")
    assert table_text.describe(ENGLISH, ev, names, rules) == you.format(a=a, b=b)
    other = _other(ev)
    assert table_text.describe(ENGLISH, other, names, rules) == them.format(a=a, b=b)


@pytest.mark.parametrize("code", ["uk", "ru", "sk", "ja"])
def test_move_log_in_other_languages_uses_the_you_entries(code: str) -> None:
    words = Words(code)
    you = words.t("ui.common.you")
    rules = engine.PRESETS["nintendo"]
    for ev, _, _ in LOG_EVENTS:
        mine = table_text.describe(words, ev, (you, "Akiko"), rules)
        theirs = table_text.describe(words, _other(ev), (you, "Akiko"), rules)
        assert mine is not None and theirs is not None and "Akiko" in theirs
        assert "{" not in mine and (you in mine or code == "sk"), (code, ev.kind, mine)
        if code != "ja":  # Japanese verbs do not change with the person
            assert mine != theirs.replace("Akiko", you), (code, ev.kind, mine)


def test_a_named_player_is_spoken_of_in_the_third_person() -> None:
    line = table_text.describe(
        ENGLISH, ev_.Played(0, 1), ("Kenji", "Akiko"), engine.PRESETS["nintendo"]
    )
    assert line == f"Kenji plays {ENGLISH.card_name(1)} to the field."


# ------------------------------------------------------------------------- grammatical case
QUOTED_CARD = {"uk": "«{card}»", "ru": "«{card}»", "sk": "„{card}“"}


@pytest.mark.parametrize("code", sorted(QUOTED_CARD))
def test_a_card_in_the_move_log_keeps_its_name_in_the_nominative(code: str) -> None:
    """Card names are nominative ("Завіса під сакурою"); the verbs of the move log take the
    accusative, so "відкриває Завіса" was wrong. Each log line names the card as a quoted
    apposition ("відкриває карту «Завіса під сакурою»") and lists captures after a colon."""
    catalog = i18n.catalog(code)
    log = {k: v for k, v in catalog.items() if k.startswith("ui.log.") and isinstance(v, str)}
    with_card = {k: v for k, v in log.items() if "{card}" in v}
    assert len(with_card) >= 11, sorted(with_card)
    for key, value in with_card.items():
        assert QUOTED_CARD[code] in value, (key, value)
    lists = {k: v for k, v in catalog.items() if isinstance(v, str) and "{cards}" in v}
    assert "ui.review.move.take" in lists
    for key, value in lists.items():  # the move log's and the review's captures
        assert ": {cards}" in value, (key, value)
    words = Words(code)
    line = table_text.describe(words, ev_.Drew(1, 9), ("You", "Akiko"), engine.PRESETS["nintendo"])
    assert line is not None and QUOTED_CARD[code].format(card=words.card_name(9)) in line


QUOTED_YAKU = {"uk": "«{yaku}»", "ru": "«{yaku}»", "sk": "„{yaku}“"}


@pytest.mark.parametrize("code", sorted(QUOTED_YAKU))
def test_a_yaku_made_in_the_tutorial_keeps_its_name_in_the_nominative(code: str) -> None:
    """ "Ви зібрали Кабан, олень і метелик" (and sk "Vytvorili ste Diviak, jeleň a motýľ"): a
    yaku named as the object of "made" stands as a quoted apposition to "yaku"."""
    entry = i18n.catalog(code)["ui.tutorial.decide"]
    assert isinstance(entry, dict) and len(entry) >= 3
    for form, text in entry.items():
        assert QUOTED_YAKU[code] in text, (form, text)
    words = Words(code)
    name = words.t("yaku.inoshikacho.name")
    line = words.t("ui.tutorial.decide", yaku=name, n=5, stop="S")
    assert QUOTED_YAKU[code].format(yaku=name) in line


def test_a_two_way_draw_is_one_line_in_the_log() -> None:
    """Issue 34 item 7: "Computer draws Maple: it matches two cards." was followed at once by
    "Computer draws Maple and takes …"; the draw is told once, with what it took."""
    rules = engine.PRESETS["nintendo"]
    names = ("You", "Computer (Beginner)")
    card = 40
    events = [ev_.DrawPending(1, card, (37, 39)), ev_.Drew(1, card, (39,))]
    lines = [x for x in (table_text.describe(ENGLISH, e, names, rules) for e in events) if x]
    assert lines == [
        f"Computer (Beginner) draws {ENGLISH.card_name(card)} and takes {ENGLISH.card_name(39)}."
    ]
