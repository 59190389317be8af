"""The one place that names things for people: cards, yaku, presets and rule sets, rule
settings, opponent levels, units, how a round or a match ended, multipliers and instant wins.

Every screen asks here (the table, its prompts and move log, the round summary, the match
result, the ledger, the learning screens, the new-game and settings screens), so a name reads
the same everywhere and a translation is fixed in one catalog entry.

>>> from koikoi_desktop.i18n import Words
>>> en = Words("en")
>>> en.card_name(1), en.yaku_name("akatan"), preset_name(en, "nintendo")
('Crane and Sun', 'Red Poetry Ribbons', 'Nintendo (standard)')

Decisions:

* Every function takes the :class:`~koikoi_desktop.i18n.Words` to speak in (the screen's
  ``app.words``): a card's and a yaku's name are ``words.card_name`` / ``words.yaku_name``, kept
  in ``i18n`` beside the catalogs so that the opponents' English explanations use them too.
* Names of things the game itself produces (a card id, a yaku key of the engine, a preset of
  ``PRESETS``) are looked up strictly: an unknown one is a bug and raises ``ValueError``.
* Names of things read back from the ledger (``recorded_*``) may come from another version of
  the game (an imported file): a key this version does not know is shown as recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from koikoi_desktop import i18n
from koikoi_desktop.ai.base import LEVELS
from koikoi_desktop.engine import PRESETS, Rules, is_custom
from koikoi_desktop.engine.rules import RulesRefusal
from koikoi_desktop.i18n import Words
from koikoi_desktop.ratings import level_ratings, not_told_apart, provisional, shown


# ------------------------------------------------------------------------------ cards, yaku
def cards_text(words: Words, cards: Iterable[int]) -> str:
    """Card names joined with commas."""
    return ", ".join(words.card_name(c) for c in cards)


def recorded_yaku_name(words: Words, key: str, style: str | None = None) -> str:
    """A yaku key read from the ledger: its name, or the key as recorded when unknown."""
    return words.yaku_name(key, style) if key in i18n.YAKU_KEYS else key


def kind_name(words: Words, kind: str, *, plural: bool = False) -> str:
    """A card category (bright, animal, ribbon, plain)."""
    return words.t(f"kind.{kind}.plural" if plural else f"kind.{kind}")


def instant_name(words: Words, kind: str) -> str:
    """An instant win (teshi, kuttsuki, double_tenho)."""
    return words.t(f"ui.instant.{kind}")


# ------------------------------------------------------------------------------ rule sets
def preset_name(words: Words, key: str) -> str:
    """A preset's name ("Nintendo (standard)")."""
    if key not in PRESETS:
        raise ValueError(f"unknown preset {key!r}")
    return words.t(f"preset.{key}.name")


def ruleset_label(words: Words, preset: str, custom: bool) -> str:
    """A recorded rule set: the preset's name, or "Custom, based on …" for changed rules (an
    unknown preset, from another version, is shown as recorded)."""
    name = preset_name(words, preset) if preset in PRESETS else preset
    return words.t("preset.custom", preset=name) if custom else name


def rules_label(words: Words, rules: Rules) -> str:
    """The rule set in play: "Nintendo (standard)" or "Custom, based on …"."""
    return ruleset_label(words, rules.based_on, is_custom(rules))


def rule_label(words: Words, field: str) -> str:
    """A rule setting's name (``value_<yaku>`` fields read as "Value of <yaku>")."""
    if field.startswith("value_"):
        return words.t("ui.rules.value_of", yaku=words.yaku_name(field[6:]))
    return words.t(f"rule.{field}")


def rule_value_label(words: Words, field: str, value: Any) -> str:
    """A rule setting's value for people: on/off, a number, or the choice's translated name."""
    if isinstance(value, bool):
        return words.t("ui.common.on" if value else "ui.common.off")
    if value is None:
        none_key = f"rule.{field}.none"
        return words.t(none_key) if i18n.ENGLISH.has(none_key) else words.t("ui.common.off")
    if isinstance(value, int):
        return str(value)
    key = f"rule.{field}.{value}"
    return words.t(key) if words.has(key) or i18n.ENGLISH.has(key) else str(value)


def refusal_text(words: Words, refusal: RulesRefusal) -> str:
    """Why a rule set was refused, in ``words`` ("Not allowed — “Each card counts for one yaku
    only” and “Set yaku take in …” cannot both be on: …")."""
    key = f"ui.newgame.refused.{refusal.kind}"
    if refusal.other:  # a conflict of two settings
        value = rule_value_label(words, refusal.setting, _REFUSED_VALUE.get(refusal.kind))
        a, b = rule_label(words, refusal.setting), rule_label(words, refusal.other)
        return words.t(key, a=a, b=b, value=value)
    known = refusal.setting in Rules.model_fields and refusal.setting != "based_on"
    rule = rule_label(words, refusal.setting) if known else words.t("ui.newgame.preset")
    return words.t(key, rule=rule, n=refusal.bound)


#: The value a conflict refuses in its first setting, where the words name it.
_REFUSED_VALUE: dict[str, object] = {"capped_needs_balance": "transfer_capped"}


def options_text(words: Words, options: dict[str, Any]) -> str:
    """The changed rule settings of a custom match ("Koi-koi multiplier: none, …")."""
    parts = []
    for k, v in sorted(options.items()):
        known = k in Rules.model_fields and k != "based_on"
        label = rule_label(words, k) if known else k
        parts.append(f"{label}: {rule_value_label(words, k, v) if known else v}")
    return ", ".join(parts)


def factor_text(words: Words, name: str, factor: int) -> str:
    """A multiplier of the round's score ("koi-koi ×2")."""
    return words.t(f"ui.factor.{name}", f=factor)


def amount_text(words: Words, n: int, unit: str) -> str:
    """A number of coins or points with its noun in the form the number asks for ("1 coin",
    "21 монета", "5 bodov"); ``unit`` is the rules' unit, ``"coins"`` or ``"points"``."""
    return words.t("ui.count.coins" if unit == "coins" else "ui.count.points", n=n)


#: The call words of each preset's rulebook (RULES.md §13), by the preset a rule set is based on
#: (the engine keeps that id; the words are ``ui.word.stop.<word>`` / ``ui.word.koi.<word>``):
#: seed-000 says «Агарі» / «Кой-кой», seed-003 „Shobu“ / „Koi“, the others Stop / Koi-koi.
CALL_WORDS: dict[str, tuple[str, str]] = {
    "seed-000": ("agari", "koikoi"),
    "seed-003": ("shobu", "koi"),
}
_PLAIN_CALLS = ("stop", "koikoi")


def stop_word(words: Words, rules: Rules) -> str:
    """The word for stopping under ``rules``' rulebook, in the player's language ("Agari").

    >>> [stop_word(i18n.ENGLISH, PRESETS[p]) for p in ("nintendo", "seed-000", "seed-003")]
    ['Stop', 'Agari', 'Shobu']
    """
    return words.t(f"ui.word.stop.{CALL_WORDS.get(rules.based_on, _PLAIN_CALLS)[0]}")


def koi_word(words: Words, rules: Rules) -> str:
    """The word for playing on under ``rules``' rulebook, in the player's language ("Koi").

    >>> [koi_word(i18n.ENGLISH, PRESETS[p]) for p in ("nintendo", "seed-000", "seed-003")]
    ['Koi-koi', 'Koi-koi', 'Koi']
    """
    return words.t(f"ui.word.koi.{CALL_WORDS.get(rules.based_on, _PLAIN_CALLS)[1]}")


def end_text(words: Words, reason: str) -> str:
    """How a round ended (an engine outcome reason)."""
    return words.t(f"ui.end.{reason}")


# ------------------------------------------------------------------------------ people, units
def level_name(words: Words, level: str) -> str:
    """A computer opponent's level ("Intermediate")."""
    if level not in LEVELS:
        raise ValueError(f"unknown opponent level {level!r}")
    return words.t(f"ui.level.{level}")


def level_label(words: Words, level: str) -> str:
    """A computer level's name with its measured rating ("Expert (1412)"; see
    :func:`koikoi_desktop.ratings.level_ratings`)."""
    measured = level_ratings().get(level)
    if measured is None:
        return level_name(words, level)
    return words.t("ui.rating.level", level=level_name(words, level), rating=round(measured.rating))


def rating_title(words: Words, rating: float, rd: float) -> str:
    """The player's rating as the title and the new-game screen say it: "Your rating: 1107?
    (provisional)" while its deviation is large, else "Your rating: 1203"."""
    key = "ui.rating.title_provisional" if provisional(rd) else "ui.rating.title"
    return words.t(key, rating=shown(rating, rd))


def levels_not_apart(words: Words) -> list[str]:
    """One sentence per pair of neighbouring computer levels whose measured ratings' 95%
    intervals overlap (:func:`koikoi_desktop.ratings.not_told_apart`): the new-game screen
    does not promise an order it has not measured."""
    levels = level_ratings()

    def span(level: str) -> str:
        return f"{round(levels[level].low)}–{round(levels[level].high)}"

    return [
        words.t(
            "ui.rating.not_apart",
            a=level_name(words, a),
            b=level_name(words, b),
            a_range=span(a),
            b_range=span(b),
        )
        for a, b in not_told_apart(levels)
    ]


def recorded_level_label(words: Words, level: str) -> str:
    """An opponent level read from the ledger ("" when unknown)."""
    if level in LEVELS:
        return level_name(words, level)
    if level in ("hotseat", "human"):
        return words.t("ui.ledger.level.hotseat")
    return level if level and level != "unknown" else ""


def opponent_text(
    words: Words, opponent: str, level: str, player_seat: int = 0, *, computer: bool = False
) -> str:
    """A recorded opponent for "against …" (:meth:`RecordedNames.against`).

    >>> en = i18n.ENGLISH
    >>> opponent_text(en, "", "beginner"), opponent_text(en, "Oksana", "beginner")
    ('Computer (Beginner)', 'Oksana (Beginner)')
    >>> opponent_text(en, "", "expert", computer=True), opponent_text(en, "", "hotseat")
    ('Computer 2 (Expert)', 'Player 2 (two players)')
    """
    return RecordedNames(opponent, level, player_seat, computer).against(words)


def unit_heading(words: Words, unit: str) -> str:
    """The unit of the balances as a heading ("Coins", "Points")."""
    return words.t("ui.common.coins" if unit == "coins" else "ui.common.points")


def unit_word(words: Words, unit: str) -> str:
    """The unit inside a sentence ("12 coins")."""
    return words.t("ui.ledger.unit.coins" if unit == "coins" else "ui.ledger.unit.points")


def help_label(words: Words, level: str) -> str:
    """ "Help: Full hints": the help level a match was played with (``ui/helps.py`` levels; a
    level recorded by another version is shown as recorded)."""
    key = f"ui.settings.help_level.{level}"
    name = words.t(key)
    return words.t("ui.ledger.help", level=level if name == key else name)


def result_label(words: Words, result: str) -> str:
    """A recorded match result for the player (won, lost, drawn)."""
    return words.t(f"ui.ledger.result.{result}")


def ending_label(words: Words, ending: str) -> str:
    """How a recorded match ended (conceded, ended early …); unknown endings as recorded."""
    key = f"ui.ledger.ending.{ending}"
    return words.t(key) if i18n.ENGLISH.has(key) else ending


# ------------------------------------------------------------------------------ seat names
def default_seat_name(words: Words, seats: Sequence[str], p: int) -> str:
    """Seat ``p``'s default name, from the seats' kinds ("human" or an opponent level): "You"
    and "Computer (Level)" when a person plays the computer, "Player 1/2" at hot seat,
    "Computer 1/2" when two computers play."""
    humans = [q for q in (0, 1) if seats[q] == "human"]
    if len(humans) == 2:
        return words.t("ui.table.player_n", n=p + 1)
    if seats[p] == "human":
        return words.t("ui.common.you")
    if humans:
        return words.t("ui.table.computer", level=level_name(words, seats[p]))
    return words.t("ui.table.computer_n", n=p + 1)


@dataclass(frozen=True, slots=True)
class SeatNames:
    """Both seats' names as facts, worded by :meth:`now` in the ``Words`` of the moment.

    ``typed`` holds what a person typed for a seat ("" for none); a seat without one is named
    from ``seats`` (its kind and level, :func:`default_seat_name`), or from the catalog key in
    ``keys`` (the guided round's "Opponent"). Every screen that holds these facts words them
    when it draws, so a language change shows at once.

    >>> en = i18n.ENGLISH
    >>> SeatNames(("human", "expert")).now(en)
    ('You', 'Computer (Expert)')
    >>> SeatNames(("human", "beginner"), ("Oksana", "")).now(en)
    ('Oksana', 'Computer (Beginner)')
    """

    seats: tuple[str, str]
    typed: tuple[str, str] = ("", "")
    keys: tuple[str, str] = ("", "")

    def name(self, words: Words, p: int) -> str:
        """Seat ``p``'s name in ``words``."""
        if self.typed[p]:
            return self.typed[p]
        if self.keys[p]:
            return words.t(self.keys[p])
        return default_seat_name(words, self.seats, p)

    def now(self, words: Words) -> tuple[str, str]:
        """Both names in ``words``."""
        return (self.name(words, 0), self.name(words, 1))

    @classmethod
    def from_saved(cls, seats: Sequence[str], saved: Sequence[str] | None) -> SeatNames:
        """The names of a saved match: what a person typed stays; a default name (saved as "";
        one an older version saved as words reads as "" at the storage boundary,
        ``storage.models.typed_name``) is worded in the ``Words`` of the moment."""
        pair = (str(seats[0]), str(seats[1]))
        if saved is None:
            return cls(pair)
        return cls(pair, (str(saved[0]), str(saved[1])))


@dataclass(frozen=True, slots=True)
class RecordedNames:
    """The two seats of a recorded match, from a ledger row's facts, worded by :meth:`now`.

    The player is "You"; the opponent is what a person typed (``opponent``), else its default
    name from who sat there (``level``): "Computer (Expert)", "Player 2", or "Opponent" for a
    kind this version does not know. A computer match (``computer``) names its seats as the
    table did, "Computer 1" and "Computer 2", with seat 2's recorded level.

    >>> en = i18n.ENGLISH
    >>> RecordedNames("", "expert", 1).now(en), RecordedNames("", "hotseat").now(en)
    (('Computer (Expert)', 'You'), ('You', 'Player 2'))
    >>> RecordedNames("", "beginner", computer=True).now(en)
    ('Computer 1', 'Computer 2 (Beginner)')
    """

    opponent: str
    level: str
    player_seat: int = 0
    computer: bool = False

    def name(self, words: Words, p: int) -> str:
        """Seat ``p``'s name in ``words``."""
        if self.computer and p == 1 - self.player_seat:
            return self.against(words)
        return self.seats().name(words, p)

    def now(self, words: Words) -> tuple[str, str]:
        """Both names in ``words``."""
        return (self.name(words, 0), self.name(words, 1))

    def seats(self) -> SeatNames:
        """The seats as the table's facts (kinds, typed names, catalog keys)."""
        them = 1 - self.player_seat
        typed = ["", ""]
        typed[them] = self.opponent
        if self.computer:
            return SeatNames((self.level, self.level), (typed[0], typed[1]))
        kinds = ["human", "human"]
        keys = ["", ""]
        keys[self.player_seat] = "ui.common.you"
        if self.level in LEVELS:
            kinds[them] = self.level
        elif self.level not in ("hotseat", "human"):
            keys[them] = "ui.common.opponent"
        return SeatNames((kinds[0], kinds[1]), (typed[0], typed[1]), (keys[0], keys[1]))

    def against(self, words: Words) -> str:
        """The opponent with its level in brackets, unless its default name already says it:
        "Computer (Expert)", "Oksana (Beginner)", "Player 2 (two players)"."""
        name = self.seats().name(words, 1 - self.player_seat)
        lvl = recorded_level_label(words, self.level)
        says_level = not self.opponent and self.level in LEVELS and not self.computer
        if not lvl or says_level:
            return name
        return words.t("ui.ledger.name_level", name=name, level=lvl)


#: Seat names as a screen may be given them: facts (:class:`SeatNames`, :class:`RecordedNames`)
#: or words already made.
Names = SeatNames | RecordedNames | Sequence[str]


def names_now(names: Names, words: Words) -> tuple[str, str]:
    """Both seats' names in ``words`` (names given as words stay as given)."""
    if isinstance(names, (SeatNames, RecordedNames)):
        return names.now(words)
    return (str(names[0]), str(names[1]))
