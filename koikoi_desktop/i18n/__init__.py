"""Translated strings: flat JSON catalogs ``<code>.json`` (key -> text) for five languages.

>>> set_language("uk")
>>> t("ui.common.back")
'Назад'
>>> card_name(1, "japanese"), card_name(1, "romaji")
('松に鶴', 'Мацу ні цуру')
>>> set_language("en")
>>> card_name(1, "translated"), yaku_name("inoshikacho", "romaji")
('Crane and Sun', 'Ino-Shika-Chō')

Decisions:

* ``t`` looks the key up in the current language, then in English, then returns the key itself
  (a visible, non-crashing marker of a missing string; ``tests/ui/test_i18n.py`` keeps the
  catalogs complete so this never shows). Placeholders use ``str.format``; a format error
  returns the unformatted text rather than crashing a screen.
* Name styles (``card_name`` / ``yaku_name``): the player's choice (``set_name_style``, from the
  settings) is the default of both, so every screen names a card or yaku the same way.
  ``"translated"`` is the current language's name;
  ``"japanese"`` is the name in Japanese script (the Japanese catalog's name, whatever the current
  language); ``"romaji"`` is the Japanese name *read aloud*, written in the reader's alphabet:
  Hepburn romaji in English, Slovak and Japanese, and the Cyrillic transliteration the Ukrainian
  rulebook uses (Акатан, Ханамі, Гоку) in Ukrainian and Russian, so players meet the words their
  rulebooks print. Month plants also have ``month.<m>.plant_romaji``, always Latin romaji (shown
  beside the kanji on the month reference screen).
* ``set_language`` raises ``ValueError`` for a code not in ``LANGUAGES``; use
  ``match_language`` to turn a locale tag ("uk_UA.UTF-8", "sk-SK") into a code first.
* **Counts.** A count-bearing entry is an object of forms keyed by CLDR plural category
  (:mod:`.plural`): ``{"one": "{n} card", "other": "{n} cards"}`` in English, ``one`` / ``few`` /
  ``many`` / ``other`` in Ukrainian, Russian and Slovak, ``other`` alone in Japanese. The form is
  chosen by the ``n`` argument, or by the argument the object names in ``"count"``
  (``{"count": "points", ...}``). Each language decides for itself whether a sentence needs
  forms: "Deck: {n}" needs none anywhere, "до {n} очков" does.
* **Grammatical person.** A sentence whose subject may be the player has a second-person form
  under ``<key>.you`` ("You play {card}." beside "{name} plays {card}."). :func:`t_person`
  picks it when the name is the word the table uses for the player ("You", in the current
  language): a player who set a name, and the computer, are spoken of in the third person.
"""

from __future__ import annotations

import json
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
_current = DEFAULT_LANGUAGE
_name_style: NameStyle = "translated"


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


def set_language(code: str) -> None:
    """Make ``code`` (a key of ``LANGUAGES``) the language of every later ``t`` call."""
    global _current
    catalog(code)  # validates the code and loads the file now, not mid-frame
    _current = code


def get_language() -> str:
    """The current language code."""
    return _current


def set_name_style(style: str) -> None:
    """How ``card_name`` / ``yaku_name`` name things when no style is given (the player's
    "names" setting): one source, so a yaku has the same name on every screen."""
    global _name_style
    if style not in NAME_STYLES:
        raise ValueError(f"unknown name style {style!r}; expected one of {NAME_STYLES}")
    _name_style = style


def get_name_style() -> NameStyle:
    """The current name style (``set_name_style``; "translated" by default)."""
    return _name_style


def match_language(tag: str | None) -> str | None:
    """The supported code for a locale tag, or None: ``"uk_UA.UTF-8"`` -> ``"uk"``.

    >>> match_language("sk-SK"), match_language("ja_JP.UTF-8"), match_language("de_DE")
    ('sk', 'ja', None)
    """
    if not tag:
        return None
    code = tag.replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else None


def has(key: str, code: str | None = None) -> bool:
    """Whether ``key`` exists in the given (default: current) language's catalog."""
    return key in catalog(code or _current)


def t(key: str, /, **fmt: object) -> str:
    """The text of ``key`` in the current language, formatted with ``fmt`` (``str.format``);
    a count-bearing entry takes the form its count asks for (see the module docstring).

    >>> set_language("en"); t("ui.common.round_n", n=3)
    'Round 3'
    >>> t("ui.newgame.rounds", n=1), t("ui.newgame.rounds", n=12)
    ('1 round', '12 rounds')
    """
    return _text(_current, key, fmt)


def _text(code: str, key: str, fmt: dict[str, object]) -> str:
    """``t`` in language ``code`` (English when that catalog lacks ``key``); touches no global."""
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


def t_person(key: str, /, name: str, **fmt: object) -> str:
    """``t`` of ``key`` about ``name``: its second-person form ``key + ".you"`` when ``name``
    is the word for the player ("You") and the catalogs have that form.

    >>> set_language("en")
    >>> t_person("ui.result.winner", "You"), t_person("ui.result.winner", "Akiko")
    ('You win the match!', 'Akiko wins the match!')
    """
    you = f"{key}.you"
    if name == t("ui.common.you") and you in catalog(DEFAULT_LANGUAGE):
        return t(you, name=name, **fmt)
    return t(key, name=name, **fmt)


def t_in(code: str, key: str, /, **fmt: object) -> str:
    """Like ``t`` but in language ``code`` (e.g. a language's own name or an English subtitle);
    the current language stays as it is, so another thread's ``t`` is never switched."""
    return _text(code, key, fmt)


def card_name(
    card_id: int, style: NameStyle | str | None = None, *, language: str | None = None
) -> str:
    """A card's name (``card_id`` 1-48) in the given style (default: the current name style,
    :func:`set_name_style`) and language (default: the current one); see the module docstring.
    The one function that names a card: ``names.card_name`` is this function, and the
    opponents' English explanations call it with ``language="en"``.

    >>> set_language("sk"); card_name(41, "translated"), card_name(41, "japanese")
    ('Básnik v daždi', '柳に小野道風')
    >>> card_name(29, "translated", language="en")
    'Full Moon'
    """
    if not 1 <= card_id <= 48:
        raise ValueError(f"card id must be 1-48, not {card_id}")
    return _styled(f"card.{card_id}", style or _name_style, language or _current)


def yaku_name(
    key: str, style: NameStyle | str | None = None, *, language: str | None = None
) -> str:
    """A yaku's name (``key`` as in RULES.md §7.1, e.g. ``"akatan"``) in the given style
    (default: the current name style, :func:`set_name_style`) and language (default: the
    current one). The one function that names a yaku (``names.yaku_name`` is this function)."""
    if key not in YAKU_KEYS:
        raise ValueError(f"unknown yaku {key!r}")
    return _styled(f"yaku.{key}", style or _name_style, language or _current)


def _styled(prefix: str, style: str, code: str) -> str:
    if style == "translated":
        return _text(code, f"{prefix}.name", {})
    if style == "japanese":
        return _text("ja", f"{prefix}.name", {})
    if style == "romaji":
        return _text(code, f"{prefix}.romaji", {})
    raise ValueError(f"unknown name style {style!r}; expected one of {NAME_STYLES}")


def month_plant(
    month: int, style: NameStyle | str = "translated", *, language: str | None = None
) -> str:
    """A month's plant (1-12): translated (in ``language``, default the current one), in kanji
    (``"japanese"``) or Latin romaji."""
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1-12, not {month}")
    suffix = {"translated": "plant", "japanese": "plant_ja", "romaji": "plant_romaji"}.get(style)
    if suffix is None:
        raise ValueError(f"unknown name style {style!r}; expected one of {NAME_STYLES}")
    return _text(language or _current, f"month.{month}.{suffix}", {})
