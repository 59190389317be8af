"""Translated strings: flat JSON catalogs ``<code>.json`` (key -> text) for five languages, and
:class:`Words`, the language and the name style a screen speaks in.

>>> uk = Words("uk")
>>> uk.t("ui.common.back")
'Назад'
>>> uk.card_name(1, "japanese"), uk.card_name(1, "romaji")
('松に鶴', 'Мацу ні цуру')
>>> en = Words("en")
>>> en.card_name(1), en.yaku_name("inoshikacho", "romaji")
('Crane and Sun', 'Ino-Shika-Chō')

Decisions:

* **The language is a value, not a module's state.** :class:`Words` (a language code and a name
  style, frozen and validated when made) words everything: ``words.t(key)``,
  ``words.card_name(id)``, ... This module keeps no mutable state (only the catalogs, read once
  and cached by code): the app holds one ``Words`` made from the settings (``app.words``, a new
  value when the player changes the language or the name style) and every screen reads it
  through the app when it draws, so a change shows on every screen at its next frame — the ones
  under the settings screen too. Code outside the screens that makes words (``names``,
  ``words.deal``, ``words.reasons``, ``words.storage``, the table's log, prompts and chatter,
  the coach's lines) takes a ``words`` argument; English outside a screen (a test, a tool, a
  report) uses :data:`ENGLISH`; a worker thread is given the value it needs. Two ``Words`` in
  two languages, on two threads, never disturb each other
  (``tests/ui/test_i18n_words.py``).
* **Words when drawn** (:data:`Label`): what a screen keeps to word later (a button's label, the
  table's message, a banner) is a string that needs no translating or a callable taking the
  ``Words`` of the moment; :class:`Key` is the common one (a catalog key and its arguments), and
  :func:`say` turns either into text.
* ``t`` looks the key up in the language, then in English, then returns the key itself (a
  visible, non-crashing marker of a missing string; ``tests/ui/test_i18n.py`` keeps the catalogs
  complete so this never shows). Placeholders use ``str.format``; a format error returns the
  unformatted text rather than crashing a screen.
* Name styles (``card_name`` / ``yaku_name``): the player's choice (``Words.name_style``, from
  the settings) is the default of both, so every screen names a card or yaku the same way.
  ``"translated"`` is the language's name;
  ``"japanese"`` is the name in Japanese script (the Japanese catalog's name, whatever the
  language); ``"romaji"`` is the Japanese name *read aloud*, written in the reader's alphabet:
  Hepburn romaji in English, Slovak and Japanese, and the Cyrillic transliteration the Ukrainian
  rulebook uses (Акатан, Ханамі, Гоку) in Ukrainian and Russian, so players meet the words their
  rulebooks print. Month plants also have ``month.<m>.plant_romaji``, always Latin romaji (shown
  beside the kanji on the month reference screen).
* ``Words(code)`` raises ``ValueError`` for a code not in ``LANGUAGES`` (and for an unknown
  name style); use ``match_language`` to turn a locale tag ("uk_UA.UTF-8", "sk-SK") into a code
  first.
* **Counts.** A count-bearing entry is an object of forms keyed by CLDR plural category
  (:mod:`.plural`): ``{"one": "{n} card", "other": "{n} cards"}`` in English, ``one`` / ``few`` /
  ``many`` / ``other`` in Ukrainian, Russian and Slovak, ``other`` alone in Japanese. The form is
  chosen by the ``n`` argument, or by the argument the object names in ``"count"``
  (``{"count": "points", ...}``). Each language decides for itself whether a sentence needs
  forms: "Deck: {n}" needs none anywhere, "до {n} очков" does.
* **Grammatical person.** A sentence whose subject may be the player has a second-person form
  under ``<key>.you`` ("You play {card}." beside "{name} plays {card}."). :meth:`Words.t_person`
  picks it when the name is the word the table uses for the player ("You", in the language): a
  player who set a name, and the computer, are spoken of in the third person.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from koikoi_desktop.engine.yaku import ORDER
from koikoi_desktop.i18n import plural

NameStyle = Literal["japanese", "romaji", "translated"]

#: Language code -> the language's own name (what the settings screen lists).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "uk": "Українська",
    "ru": "Русский",
    "sk": "Slovenčina",
    "ja": "日本語",
}
DEFAULT_LANGUAGE = "en"
NAME_STYLES: tuple[NameStyle, ...] = ("translated", "japanese", "romaji")
#: Every yaku key of the engine (RULES.md §7) plus the trio bonus, in report order.
YAKU_KEYS: tuple[str, ...] = ORDER

_CATALOG_DIR = Path(__file__).resolve().parent


Entry = str | dict[str, str]


@cache
def catalog(code: str) -> dict[str, Entry]:
    """The whole catalog of one language (read once, then cached). Do not modify it.

    A value is a string, or (a count-bearing entry) an object of plural forms: CLDR categories
    to strings, with ``"other"`` always present and an optional ``"count"`` naming the argument
    that chooses the form."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; expected one of {sorted(LANGUAGES)}")
    path = _CATALOG_DIR / f"{code}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: a catalog is a JSON object of key -> string")
    out: dict[str, Entry] = {}
    for k, v in data.items():
        if isinstance(v, dict):
            forms = {str(c): str(f) for c, f in v.items()}
            wrong = set(forms) - {*plural.CATEGORIES, "count"}
            if wrong or "other" not in forms:
                raise ValueError(
                    f"{path.name}: {k}: plural forms need 'other' and only CLDR "
                    f"categories, not {sorted(wrong)}"
                )
            out[str(k)] = forms
        else:
            out[str(k)] = str(v)
    return out


def match_language(tag: str | None) -> str | None:
    """The supported code for a locale tag, or None: ``"uk_UA.UTF-8"`` -> ``"uk"``.

    >>> match_language("sk-SK"), match_language("ja_JP.UTF-8"), match_language("de_DE")
    ('sk', 'ja', None)
    """
    if not tag:
        return None
    code = tag.replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else None


def t_in(code: str, key: str, /, **fmt: object) -> str:
    """The text of ``key`` in language ``code`` (English when that catalog lacks it), formatted
    with ``fmt`` (``str.format``); a count-bearing entry takes the form its count asks for.

    >>> t_in("en", "ui.common.round_n", n=3)
    'Round 3'
    >>> t_in("en", "ui.newgame.rounds", n=1), t_in("en", "ui.newgame.rounds", n=12)
    ('1 round', '12 rounds')
    """
    return _text(code, key, fmt)


def _text(code: str, key: str, fmt: dict[str, object]) -> str:
    entry = catalog(code).get(key)
    if entry is None:
        code = DEFAULT_LANGUAGE
        entry = catalog(code).get(key, key)
    text = entry if isinstance(entry, str) else _form(code, entry, fmt)
    if not fmt:
        return text
    try:
        return text.format(**fmt)
    except (KeyError, IndexError, ValueError):
        return text


def _form(code: str, forms: dict[str, str], fmt: dict[str, object]) -> str:
    """The plural form of ``forms`` for the count in ``fmt`` ("other" without a count)."""
    count = fmt.get(forms.get("count", "n"))
    if not isinstance(count, (int, float, str)) or isinstance(count, bool):
        return forms["other"]
    try:
        cat = plural.category(code, count)
    except (ArithmeticError, ValueError):  # not a number (a bad call): the general form
        return forms["other"]
    return forms.get(cat, forms["other"])


def _styled(prefix: str, style: str, code: str) -> str:
    if style == "translated":
        return _text(code, f"{prefix}.name", {})
    if style == "japanese":
        return _text("ja", f"{prefix}.name", {})
    if style == "romaji":
        return _text(code, f"{prefix}.romaji", {})
    raise ValueError(f"unknown name style {style!r}; expected one of {NAME_STYLES}")


@dataclass(frozen=True, slots=True)
class Words:
    """A language and a name style: everything a screen says, said in them.

    Frozen and hashable (a cache of drawn text may be keyed by it); checked when made, so a
    ``Words`` in hand always speaks a known language.

    >>> Words("sk").card_name(41), Words("sk").card_name(41, "japanese")
    ('Básnik v daždi', '柳に小野道風')
    >>> Words("en", "romaji").yaku_name("akatan")
    'Akatan'
    >>> Words("de")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'de'; expected one of ['en', 'ja', 'ru', 'sk', 'uk']
    """

    language: str = DEFAULT_LANGUAGE
    name_style: NameStyle = "translated"

    def __post_init__(self) -> None:
        catalog(self.language)  # validates the code and reads the file now, not mid-frame
        if self.name_style not in NAME_STYLES:
            raise ValueError(
                f"unknown name style {self.name_style!r}; expected one of {NAME_STYLES}"
            )

    def t(self, key: str, /, **fmt: object) -> str:
        """The text of ``key`` (see :func:`t_in`).

        >>> Words("en").t("ui.newgame.rounds", n=1)
        '1 round'
        """
        return _text(self.language, key, fmt)

    def t_person(self, key: str, /, name: str, **fmt: object) -> str:
        """``t`` of ``key`` about ``name``: its second-person form ``key + ".you"`` when
        ``name`` is the word for the player ("You") and the catalogs have that form.

        >>> en = Words("en")
        >>> en.t_person("ui.result.winner", "You"), en.t_person("ui.result.winner", "Akiko")
        ('You win the match!', 'Akiko wins the match!')
        """
        you = f"{key}.you"
        if name == self.t("ui.common.you") and you in catalog(DEFAULT_LANGUAGE):
            return self.t(you, name=name, **fmt)
        return self.t(key, name=name, **fmt)

    def has(self, key: str) -> bool:
        """Whether ``key`` is in this language's catalog (not only in English)."""
        return key in catalog(self.language)

    def card_name(self, card_id: int, style: NameStyle | str | None = None) -> str:
        """A card's name (``card_id`` 1-48) in ``style`` (default: :attr:`name_style`); see
        the module docstring. The one function that names a card.

        >>> Words("en").card_name(29)
        'Full Moon'
        """
        if not 1 <= card_id <= 48:
            raise ValueError(f"card id must be 1-48, not {card_id}")
        return _styled(f"card.{card_id}", style or self.name_style, self.language)

    def yaku_name(self, key: str, style: NameStyle | str | None = None) -> str:
        """A yaku's name (``key`` as in RULES.md §7.1, e.g. ``"akatan"``) in ``style``
        (default: :attr:`name_style`). The one function that names a yaku."""
        if key not in YAKU_KEYS:
            raise ValueError(f"unknown yaku {key!r}")
        return _styled(f"yaku.{key}", style or self.name_style, self.language)

    def month_plant(self, month: int, style: NameStyle | str = "translated") -> str:
        """A month's plant (1-12): translated, in kanji (``"japanese"``) or Latin romaji."""
        if not 1 <= month <= 12:
            raise ValueError(f"month must be 1-12, not {month}")
        suffix = {"translated": "plant", "japanese": "plant_ja", "romaji": "plant_romaji"}.get(
            style
        )
        if suffix is None:
            raise ValueError(f"unknown name style {style!r}; expected one of {NAME_STYLES}")
        return _text(self.language, f"month.{month}.{suffix}", {})


#: English with translated names: command-line reports, and a test's or a tool's default.
ENGLISH = Words()

#: Words when drawn: a text that needs no translating (a name a person typed, a number), or a
#: callable that words it in the ``Words`` of the moment (:class:`Key`, a function, a method).
Label = str | Callable[[Words], str]


def say(label: Label, words: Words) -> str:
    """The text of ``label`` in ``words``.

    >>> say("Oksana", ENGLISH), say(Key("ui.common.round_n", n=2), Words("uk"))
    ('Oksana', 'Раунд 2')
    """
    return label if isinstance(label, str) else label(words)


@dataclass(frozen=True, slots=True, init=False)
class Key:
    """A catalog key and its arguments, worded when drawn (a :data:`Label`): an argument that
    is itself a ``Key`` is worded in the same language.

    >>> Key("ui.table.dealer", name="Akiko")(ENGLISH)
    'Dealer: Akiko'
    """

    key: str
    fmt: tuple[tuple[str, object], ...]

    def __init__(self, key: str, /, **fmt: object) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "fmt", tuple(fmt.items()))

    def __call__(self, words: Words) -> str:
        args = {k: v(words) if isinstance(v, Key) else v for k, v in self.fmt}
        return words.t(self.key, **args)
