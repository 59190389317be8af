"""The one place that names things for people: cards, yaku, presets and rule sets, rule
settings, opponent levels, units, how a round or a match ended, multipliers and instant wins.

Every screen asks here (the table, its prompts and move log, the round summary, the match
result, the ledger, the learning screens, the new-game and settings screens), so a name reads
the same everywhere and a translation is fixed in one catalog entry.

>>> from koikoi_desktop import i18n
>>> i18n.set_language("en")
>>> card_name(1), yaku_name("akatan"), preset_name("nintendo")
('Crane and Sun', 'Red Poetry Ribbons', 'Nintendo (standard)')

Decisions:

* Names of things the game itself produces (a card id, a yaku key of the engine, a preset of
  ``PRESETS``) are looked up strictly: an unknown one is a bug and raises ``ValueError``.
* Names of things read back from the ledger (``recorded_*``) may come from another version of
  the game (an imported file): a key this version does not know is shown as recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from koikoi_desktop import i18n
from koikoi_desktop.ai.base import LEVELS
from koikoi_desktop.engine import PRESETS, Rules, is_custom
from koikoi_desktop.engine.rules import RulesRefusal

# A card's and a yaku's name (id or engine key; a name style, default the player's; a language,
# default the current one): one function each, kept in ``i18n`` beside the catalogs so that the
# opponents' English explanations (``ai.base.Reason``) use them too; screens ask for them here.
from koikoi_desktop.i18n import card_name as card_name
from koikoi_desktop.i18n import yaku_name as yaku_name
from koikoi_desktop.ratings import level_ratings


# ------------------------------------------------------------------------------ cards, yaku
def cards_text(cards: Iterable[int]) -> str:
    """Card names joined with commas."""
    return ", ".join(card_name(c) for c in cards)


def recorded_yaku_name(key: str, style: str | None = None) -> str:
    """A yaku key read from the ledger: its name, or the key as recorded when unknown."""
    return yaku_name(key, style) if key in i18n.YAKU_KEYS else key


def kind_name(kind: str, *, plural: bool = False) -> str:
    """A card category (bright, animal, ribbon, plain)."""
    return i18n.t(f"kind.{kind}.plural" if plural else f"kind.{kind}")


def instant_name(kind: str) -> str:
    """An instant win (teshi, kuttsuki, double_tenho)."""
    return i18n.t(f"ui.instant.{kind}")


# ------------------------------------------------------------------------------ rule sets
def preset_name(key: str) -> str:
    """A preset's name ("Nintendo (standard)")."""
    if key not in PRESETS:
        raise ValueError(f"unknown preset {key!r}")
    return i18n.t(f"preset.{key}.name")


def ruleset_label(preset: str, custom: bool) -> str:
    """A recorded rule set: the preset's name, or "Custom, based on …" for changed rules (an
    unknown preset, from another version, is shown as recorded)."""
    name = preset_name(preset) if preset in PRESETS else preset
    return i18n.t("preset.custom", preset=name) if custom else name


def rules_label(rules: Rules) -> str:
    """The rule set in play: "Nintendo (standard)" or "Custom, based on …"."""
    return ruleset_label(rules.based_on, is_custom(rules))


def rule_label(field: str) -> str:
    """A rule setting's name (``value_<yaku>`` fields read as "Value of <yaku>")."""
    if field.startswith("value_"):
        return i18n.t("ui.rules.value_of", yaku=yaku_name(field[6:]))
    return i18n.t(f"rule.{field}")


def rule_value_label(field: str, value: Any) -> str:
    """A rule setting's value for people: on/off, a number, or the choice's translated name."""
    if isinstance(value, bool):
        return i18n.t("ui.common.on" if value else "ui.common.off")
    if value is None:
        none_key = f"rule.{field}.none"
        return i18n.t(none_key) if i18n.has(none_key, "en") else i18n.t("ui.common.off")
    if isinstance(value, int):
        return str(value)
    key = f"rule.{field}.{value}"
    return i18n.t(key) if i18n.has(key) or i18n.has(key, "en") else str(value)


def refusal_text(refusal: RulesRefusal) -> str:
    """Why a rule set was refused, in the player's language ("Not allowed — “Each card counts
    for one yaku only” and “Set yaku take in …” cannot both be on: …")."""
    key = f"ui.newgame.refused.{refusal.kind}"
    if refusal.other:  # a conflict of two settings
        value = rule_value_label(refusal.setting, _REFUSED_VALUE.get(refusal.kind))
        return i18n.t(key, a=rule_label(refusal.setting), b=rule_label(refusal.other), value=value)
    known = refusal.setting in Rules.model_fields and refusal.setting != "based_on"
    rule = rule_label(refusal.setting) if known else i18n.t("ui.newgame.preset")
    return i18n.t(key, rule=rule, n=refusal.bound)


#: The value a conflict refuses in its first setting, where the words name it.
_REFUSED_VALUE: dict[str, object] = {"capped_needs_balance": "transfer_capped"}


def options_text(options: dict[str, Any]) -> str:
    """The changed rule settings of a custom match ("Koi-koi multiplier: none, …")."""
    parts = []
    for k, v in sorted(options.items()):
        known = k in Rules.model_fields and k != "based_on"
        label = rule_label(k) if known else k
        parts.append(f"{label}: {rule_value_label(k, v) if known else v}")
    return ", ".join(parts)


def factor_text(name: str, factor: int) -> str:
    """A multiplier of the round's score ("koi-koi ×2")."""
    return i18n.t(f"ui.factor.{name}", f=factor)


def amount_text(n: int, unit: str) -> str:
    """A number of coins or points with its noun in the form the number asks for ("1 coin",
    "21 монета", "5 bodov"); ``unit`` is the rules' unit, ``"coins"`` or ``"points"``."""
    return i18n.t("ui.count.coins" if unit == "coins" else "ui.count.points", n=n)


#: The call words of each preset's rulebook (RULES.md §13), by the preset a rule set is based on
#: (the engine keeps that id; the words are ``ui.word.stop.<word>`` / ``ui.word.koi.<word>``):
#: seed-000 says «Агарі» / «Кой-кой», seed-003 „Shobu“ / „Koi“, the others Stop / Koi-koi.
CALL_WORDS: dict[str, tuple[str, str]] = {
    "seed-000": ("agari", "koikoi"),
    "seed-003": ("shobu", "koi"),
}
_PLAIN_CALLS = ("stop", "koikoi")


def stop_word(rules: Rules) -> str:
    """The word for stopping under ``rules``' rulebook, in the player's language ("Agari").

    >>> i18n.set_language("en")
    >>> [stop_word(PRESETS[p]) for p in ("nintendo", "seed-000", "seed-003")]
    ['Stop', 'Agari', 'Shobu']
    """
    return i18n.t(f"ui.word.stop.{CALL_WORDS.get(rules.based_on, _PLAIN_CALLS)[0]}")


def koi_word(rules: Rules) -> str:
    """The word for playing on under ``rules``' rulebook, in the player's language ("Koi").

    >>> i18n.set_language("en")
    >>> [koi_word(PRESETS[p]) for p in ("nintendo", "seed-000", "seed-003")]
    ['Koi-koi', 'Koi-koi', 'Koi']
    """
    return i18n.t(f"ui.word.koi.{CALL_WORDS.get(rules.based_on, _PLAIN_CALLS)[1]}")


def end_text(reason: str) -> str:
    """How a round ended (an engine outcome reason)."""
    return i18n.t(f"ui.end.{reason}")


# ------------------------------------------------------------------------------ people, units
def _words(language: str | None, key: str, **fmt: object) -> str:
    """``key`` in ``language`` (None: the current one), never switching the current language
    (the coach's and the computer's worker threads word things too)."""
    return i18n.t(key, **fmt) if language is None else i18n.t_in(language, key, **fmt)


def level_name(level: str, *, language: str | None = None) -> str:
    """A computer opponent's level ("Intermediate")."""
    if level not in LEVELS:
        raise ValueError(f"unknown opponent level {level!r}")
    return _words(language, f"ui.level.{level}")


def level_label(level: str) -> str:
    """A computer level's name with its measured rating ("Expert (1412)"; see
    :func:`koikoi_desktop.ratings.level_ratings`)."""
    measured = level_ratings().get(level)
    if measured is None:
        return level_name(level)
    return i18n.t("ui.rating.level", level=level_name(level), rating=round(measured.rating))


def recorded_level_label(level: str) -> str:
    """An opponent level read from the ledger ("" when unknown)."""
    if level in LEVELS:
        return level_name(level)
    if level in ("hotseat", "human"):
        return i18n.t("ui.ledger.level.hotseat")
    return level if level and level != "unknown" else ""


def recorded_name(name: str, level: str) -> str:
    """A seat name read from the ledger: a default name, recorded as words in whichever
    language the game spoke then ("Комп’ютер (Досвідчений)"), reads in today's language
    ("Computer (Intermediate)"); a name a person typed stays as typed ("" stays "")."""
    if not name:
        return name
    if level in LEVELS:
        seats = ("human", level)
        if is_default_name(name, seats, 1):
            return default_seat_name(seats, 1)
    elif level in ("hotseat", "human"):
        for p in (0, 1):
            if is_default_name(name, ("human", "human"), p):
                return default_seat_name(("human", "human"), p)
    return name


def opponent_text(name: str, level: str) -> str:
    """A recorded opponent ("Computer (Beginner)"), with the level added when the name does not
    already carry it in brackets (a default name recorded in another language reads in
    today's: :func:`recorded_name`)."""
    lvl = recorded_level_label(level)
    name = recorded_name(name, level) or i18n.t("ui.common.opponent")
    said = lvl.lower() in name.lower() or name.rstrip().endswith((")", "）"))
    return name if not lvl or said else f"{name} ({lvl})"


def unit_heading(unit: str) -> str:
    """The unit of the balances as a heading ("Coins", "Points")."""
    return i18n.t("ui.common.coins" if unit == "coins" else "ui.common.points")


def unit_word(unit: str) -> str:
    """The unit inside a sentence ("12 coins")."""
    return i18n.t("ui.ledger.unit.coins" if unit == "coins" else "ui.ledger.unit.points")


def help_label(level: str) -> str:
    """ "Help: Full hints": the help level a match was played with (``ui/helps.py`` levels; a
    level recorded by another version is shown as recorded)."""
    key = f"ui.settings.help_level.{level}"
    name = i18n.t(key)
    return i18n.t("ui.ledger.help", level=level if name == key else name)


def result_label(result: str) -> str:
    """A recorded match result for the player (won, lost, drawn)."""
    return i18n.t(f"ui.ledger.result.{result}")


def ending_label(ending: str) -> str:
    """How a recorded match ended (conceded, ended early …); unknown endings as recorded."""
    key = f"ui.ledger.ending.{ending}"
    return i18n.t(key) if i18n.has(key, "en") else ending


# ------------------------------------------------------------------------------ seat names
def default_seat_name(seats: Sequence[str], p: int, *, language: str | None = None) -> str:
    """Seat ``p``'s default name now (or in ``language``), from the seats' kinds ("human" or
    an opponent level): "You" and "Computer (Level)" when a person plays the computer,
    "Player 1/2" at hot seat, "Computer 1/2" when two computers play."""
    humans = [q for q in (0, 1) if seats[q] == "human"]
    if len(humans) == 2:
        return _words(language, "ui.table.player_n", n=p + 1)
    if seats[p] == "human":
        return _words(language, "ui.common.you")
    if humans:
        level = level_name(seats[p], language=language)
        return _words(language, "ui.table.computer", level=level)
    return _words(language, "ui.table.computer_n", n=p + 1)


def is_default_name(text: str, seats: Sequence[str], p: int) -> bool:
    """Whether ``text`` is seat ``p``'s default name in any language (a saved match from
    before names were kept as facts stored the default name as words)."""
    if not text:
        return True
    return any(default_seat_name(seats, p, language=code) == text for code in i18n.LANGUAGES)


@dataclass(frozen=True, slots=True)
class SeatNames(Sequence[str]):
    """Both seats' names as facts, rendered in the current language whenever read.

    ``typed`` holds what a person typed for a seat ("" for none); a seat without one is named
    from ``seats`` (its kind and level, :func:`default_seat_name`), or from the catalog key in
    ``keys`` (the guided round's "Opponent"). Reading a name (``names[p]``, iterating) renders
    it now, so a language change shows at once on every screen that holds these facts.

    >>> i18n.set_language("en")
    >>> n = SeatNames(("human", "expert"), ("", ""))
    >>> tuple(n), SeatNames(("human", "beginner"), ("Oksana", ""))[0]
    (('You', 'Computer (Expert)'), 'Oksana')
    """

    seats: tuple[str, str]
    typed: tuple[str, str] = ("", "")
    keys: tuple[str, str] = ("", "")

    @overload
    def __getitem__(self, p: int) -> str: ...
    @overload
    def __getitem__(self, p: slice) -> Sequence[str]: ...
    def __getitem__(self, p: int | slice) -> str | Sequence[str]:
        if isinstance(p, slice):
            return tuple(self)[p]
        if self.typed[p]:
            return self.typed[p]
        if self.keys[p]:
            return i18n.t(self.keys[p])
        return default_seat_name(self.seats, p)

    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[str]:
        return iter((self[0], self[1]))

    def now(self) -> tuple[str, str]:
        """Both names as they read now."""
        return (self[0], self[1])

    @classmethod
    def from_saved(cls, seats: Sequence[str], saved: Sequence[str] | None) -> SeatNames:
        """The names of a saved match: a name a person typed stays; a default name (saved as
        "" — or, by an older version, as words in some language) is rendered again."""
        pair = (str(seats[0]), str(seats[1]))
        if saved is None:
            return cls(pair)
        typed = tuple("" if is_default_name(t, pair, p) else t for p, t in enumerate(saved))
        return cls(pair, (typed[0], typed[1]))
