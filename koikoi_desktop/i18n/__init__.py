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
* Name styles (``card_name`` / ``yaku_name``): ``"translated"`` is the current language's name;
  ``"japanese"`` is the name in Japanese script (the Japanese catalog's name, whatever the current
  language); ``"romaji"`` is the Japanese name *read aloud*, written in the reader's alphabet:
  Hepburn romaji in English, Slovak and Japanese, and the Cyrillic transliteration the Ukrainian
  rulebook uses (Акатан, Ханамі, Гоку) in Ukrainian and Russian, so players meet the words their
  rulebooks print. Month plants also have ``month.<m>.plant_romaji``, always Latin romaji (shown
  beside the kanji on the month reference screen).
* ``set_language`` raises ``ValueError`` for a code not in ``LANGUAGES``; use
  ``match_language`` to turn a locale tag ("uk_UA.UTF-8", "sk-SK") into a code first.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from koikoi_desktop.engine.yaku import ORDER

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


@cache
def catalog(code: str) -> dict[str, str]:
    """The whole catalog of one language (read once, then cached). Do not modify it."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; expected one of {sorted(LANGUAGES)}")
    path = _CATALOG_DIR / f"{code}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: a catalog is a JSON object of key -> string")
    return {str(k): str(v) for k, v in data.items()}


def set_language(code: str) -> None:
    """Make ``code`` (a key of ``LANGUAGES``) the language of every later ``t`` call."""
    global _current
    catalog(code)  # validates the code and loads the file now, not mid-frame
    _current = code


def get_language() -> str:
    """The current language code."""
    return _current


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
    """The text of ``key`` in the current language, formatted with ``fmt`` (``str.format``).

    >>> set_language("en"); t("ui.common.round_n", n=3)
    'Round 3'
    """
    text = catalog(_current).get(key)
    if text is None:
        text = catalog(DEFAULT_LANGUAGE).get(key, key)
    if not fmt:
        return text
    try:
        return text.format(**fmt)
    except (KeyError, IndexError, ValueError):
        return text


def t_in(code: str, key: str, /, **fmt: object) -> str:
    """Like ``t`` but in language ``code`` (e.g. a language's own name or an English subtitle)."""
    global _current
    saved = _current
    _current = code
    try:
        return t(key, **fmt)
    finally:
        _current = saved


def card_name(card_id: int, style: NameStyle | str = "translated") -> str:
    """A card's name (``card_id`` 1-48) in the given style; see the module docstring.

    >>> set_language("sk"); card_name(41, "translated"), card_name(41, "japanese")
    ('Básnik v daždi', '柳に小野道風')
    """
    if not 1 <= card_id <= 48:
        raise ValueError(f"card id must be 1-48, not {card_id}")
    return _styled(f"card.{card_id}", style)


def yaku_name(key: str, style: NameStyle | str = "translated") -> str:
    """A yaku's name (``key`` as in RULES.md §7.1, e.g. ``"akatan"``) in the given style."""
    if key not in YAKU_KEYS:
        raise ValueError(f"unknown yaku {key!r}")
    return _styled(f"yaku.{key}", style)


def _styled(prefix: str, style: str) -> str:
    if style == "translated":
        return t(f"{prefix}.name")
    if style == "japanese":
        return t_in("ja", f"{prefix}.name")
    if style == "romaji":
        return t(f"{prefix}.romaji")
    raise ValueError(f"unknown name style {style!r}; expected one of {NAME_STYLES}")


def month_plant(month: int, style: NameStyle | str = "translated") -> str:
    """A month's plant (1-12): translated, in kanji (``"japanese"``) or Latin romaji."""
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1-12, not {month}")
    suffix = {"translated": "plant", "japanese": "plant_ja", "romaji": "plant_romaji"}.get(style)
    if suffix is None:
        raise ValueError(f"unknown name style {style!r}; expected one of {NAME_STYLES}")
    return t(f"month.{month}.{suffix}")
