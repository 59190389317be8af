"""CLDR plural categories for the game's five languages, written once from the CLDR rules.

A count-bearing catalog entry is an object of forms keyed by category (``"one"``, ``"few"``,
``"many"``, ``"other"``); :func:`category` says which form a number takes in a language. The rules
are CLDR's (``plurals.xml``, cardinal) with its operands: ``n`` the absolute value, ``i`` its
integer digits, ``v`` the number of visible fraction digits.

* en: one — i = 1 and v = 0; other.
* uk, ru: one — v = 0 and i % 10 = 1 and i % 100 != 11; few — v = 0 and i % 10 = 2..4 and
  i % 100 != 12..14; many — v = 0 and (i % 10 = 0, or i % 10 = 5..9, or i % 100 = 11..14);
  other — fractions.
* sk: one — i = 1 and v = 0; few — i = 2..4 and v = 0; many — v != 0; other.
* ja: other (no grammatical number).

>>> [category("ru", n) for n in (1, 2, 5, 11, 21, 22, 25, 101)]
['one', 'few', 'many', 'many', 'one', 'few', 'many', 'one']
>>> category("sk", 3), category("sk", 5), category("sk", "1.5"), category("en", 1)
('few', 'other', 'many', 'one')
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

#: Every category CLDR defines (a form object may hold only these, and must hold "other").
CATEGORIES: tuple[str, ...] = ("zero", "one", "two", "few", "many", "other")

Number = int | float | str | Decimal


def operands(number: Number) -> tuple[Decimal, int, int]:
    """CLDR's ``n`` (absolute value), ``i`` (integer digits) and ``v`` (visible fraction digits).

    A float is read as it prints (``1.5`` has v = 1; ``2.0`` has v = 1, as CLDR's "2.0"); pass
    a string to say exactly which digits are shown.

    >>> operands(21), operands("1.50"), operands(-3)
    ((Decimal('21'), 21, 0), (Decimal('1.50'), 1, 2), (Decimal('3'), 3, 0))
    """
    if isinstance(number, bool):
        raise TypeError("a count, not a truth value")
    d = Decimal(str(number)) if not isinstance(number, Decimal) else number
    if not d.is_finite():
        raise ValueError(f"not a finite number: {number!r}")
    d = abs(d)
    exponent = d.as_tuple().exponent
    v = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return d, int(d), v


def _en(i: int, v: int) -> str:
    return "one" if i == 1 and v == 0 else "other"


def _east_slavic(i: int, v: int) -> str:
    if v != 0:
        return "other"
    if i % 10 == 1 and i % 100 != 11:
        return "one"
    if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14:
        return "few"
    return "many"


def _sk(i: int, v: int) -> str:
    if v != 0:
        return "many"
    if i == 1:
        return "one"
    if 2 <= i <= 4:
        return "few"
    return "other"


def _ja(i: int, v: int) -> str:
    return "other"


RULES: dict[str, Callable[[int, int], str]] = {
    "en": _en,
    "uk": _east_slavic,
    "ru": _east_slavic,
    "sk": _sk,
    "ja": _ja,
}
#: The categories each language uses (what a complete form object of that language holds).
USED: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "uk": ("one", "few", "many", "other"),
    "ru": ("one", "few", "many", "other"),
    "sk": ("one", "few", "many", "other"),
    "ja": ("other",),
}


def category(code: str, number: Number) -> str:
    """The CLDR plural category of ``number`` in language ``code``."""
    rule = RULES.get(code)
    if rule is None:
        raise ValueError(f"no plural rules for {code!r}; expected one of {sorted(RULES)}")
    _, i, v = operands(number)
    return rule(i, v)
