"""The rule set: one frozen pydantic model with every setting of RULES.md §13, and the presets.

Variants are data, not subclasses: a custom match is a preset with some fields changed.

Why ``Rules`` stays a pydantic model (decided in issue 17, against a frozen dataclass validated
at the storage boundary):

* A rule set is boundary data wherever it is built: the ``rules {...}`` line of every match
  record (saves, autosave, bug reports), the settings file, the new-game screen's custom
  choices, the fuzzers. Every one of those needs the same checks — each ``Literal`` choice, the
  numeric ranges, ``extra="forbid"``, the A-38 combination, the Hanami/Tsukimi value aliases —
  and pydantic derives all of them from the field declarations below. A dataclass would need
  the same checks written a second time (in ``__post_init__`` or a storage-side schema), two
  descriptions of one rule set that can drift — what "one source for every fact" forbids.
* The engine's purity rule is about effects (no pygame, files, clock or global random);
  pydantic is a pure library the app already ships, and mypy --strict checks it.
* The cost was measured and does not matter where speed does: a field read is ~80 ns (a
  slots dataclass: ~14 ns), but a few per turn are lost in the noise of a fast rollout
  (swapping a plain slots object in for the model changed its best-of-15 time by under 1 %);
  a validated construction (~13 µs) happens per deal or setting change, never in a search
  (``scorer_for`` keys its memos by identity first); building the model is ~90 ms of the
  engine's import. If the engine is ever shipped without the app, the dataclass conversion is
  mechanical: ~40 call sites use ``model_validate`` / ``model_dump`` / ``model_copy``.

>>> r = PRESETS["nintendo"]
>>> r.koikoi_limit, r.set_yaku_absorb_extras, r.deal_order
(1, True, 'nd-f-d')
>>> v = Rules.model_validate({**r.model_dump(), "koikoi_limit": None})
>>> v.koikoi_limit is None, v.based_on, is_custom(v)
(True, 'nintendo', True)

The only combination the model rejects is RULES.md A-38 (R-YAKU-7.5):

>>> Rules.model_validate({**r.model_dump(), "one_yaku_per_card": True})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Rules
...
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

#: RULES.md R-SETUP-1: ``seed-000`` starting coins for 3, 6 and 12 rounds.
COINS_FOR_ROUNDS: Mapping[int, int] = MappingProxyType({3: 25, 6: 50, 12: 100})

#: The yaku keys of RULES.md §7 in report order (R-YAKU-7.4).
YAKU_KEYS: tuple[str, ...] = (
    "goko",
    "shiko",
    "ame_shiko",
    "sanko",
    "hanami",
    "tsukimi",
    "inoshikacho",
    "akaao",
    "akatan",
    "aotan",
    "tane",
    "tanzaku",
    "kasu",
)


#: Fields of older records that are words for people, not rules (they are read past).
_OLD_WORDS = ("stop_word", "koi_word")

#: Why two settings cannot go together (:class:`RulesConflict`): ``exclusive`` (both on is
#: two ways of counting the same cards, A-38), ``capped_needs_balance`` (a capped transfer from
#: an empty purse never pays), ``viewing_values_differ`` (Hanami and Tsukimi share one value).
ConflictKind = Literal["exclusive", "capped_needs_balance", "viewing_values_differ"]


class RulesConflict(ValueError):
    """Two settings that cannot go together, as facts: ``kind`` says why, ``settings`` names
    the two fields (the first is the one whose value is refused). The message is English, for
    logs and tracebacks; a screen words the facts (:func:`refusal_of`)."""

    def __init__(self, kind: ConflictKind, settings: tuple[str, str], message: str) -> None:
        super().__init__(message)
        self.kind: ConflictKind = kind
        self.settings = settings


#: What a refusal of a rule set says, besides a conflict's kind: a number below its least
#: (``at_least``) or above its most (``at_most``) value, or a value the setting cannot take.
RefusalKind = ConflictKind | Literal["at_least", "at_most", "not_allowed"]


@dataclass(frozen=True, slots=True)
class RulesRefusal:
    """Why a rule set was refused, as facts a screen words in the player's language: the
    setting (a :class:`Rules` field), the value refused, and for a bound the bound, for a
    conflict the other setting.

    >>> try:
    ...     Rules.model_validate({"rounds": 0})
    ... except ValidationError as exc:
    ...     refusal_of(exc)
    RulesRefusal(kind='at_least', setting='rounds', value=0, bound=1, other='')
    """

    kind: RefusalKind
    setting: str
    value: object = None
    bound: int | None = None
    other: str = ""


def refusal_of(exc: ValueError) -> RulesRefusal:
    """The first reason ``exc`` (a :class:`Rules` validation error, or a :class:`RulesConflict`)
    gives, as a :class:`RulesRefusal`. A reason that names no setting is ``not_allowed`` with
    ``setting`` "" (the rules model has none; a caller's own error may)."""
    if isinstance(exc, RulesConflict):
        return RulesRefusal(exc.kind, exc.settings[0], other=exc.settings[1])
    if not isinstance(exc, ValidationError) or not exc.errors():
        return RulesRefusal("not_allowed", "")
    err = exc.errors()[0]
    ctx = err.get("ctx") or {}
    cause = ctx.get("error")
    if isinstance(cause, RulesConflict):
        return refusal_of(cause)
    setting = str(err["loc"][0]) if err["loc"] else ""
    value = err.get("input")
    if isinstance(ctx.get("ge"), int):
        return RulesRefusal("at_least", setting, value, int(ctx["ge"]))
    if isinstance(ctx.get("le"), int):
        return RulesRefusal("at_most", setting, value, int(ctx["le"]))
    return RulesRefusal("not_allowed", setting, value)


class Rules(BaseModel):
    """Every setting of RULES.md §13 as a field. Frozen; build variants with ``model_validate``.

    Number-or-nothing settings are ``int | None`` (``None`` = none/off). Named choices are
    lower-case strings. ``value_<yaku>`` fields hold the yaku values (R-YAKU, §7.2); the value of
    each viewing yaku (Hanami, Tsukimi) is ``viewing_value`` — one knob, as §13 describes it
    ("the yaku values rows repeat it for completeness"). For convenience ``value_hanami`` /
    ``value_tsukimi`` are accepted as input and set ``viewing_value``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    based_on: str = Field(default="custom", description="The preset this rule set started from.")

    # --- match (R-SETUP, R-MATCH, R-PAY)
    unit: Literal["coins", "points"] = "points"
    match_end: Literal["rounds", "target"] = "rounds"
    rounds: int | None = Field(default=12, ge=1, le=1000)
    starting_balance: int = Field(default=0, ge=0, le=1_000_000)
    settlement: Literal["transfer_capped", "zero_sum", "winner_only"] = "winner_only"
    bankruptcy_ends_match: bool = False
    target_score: int | None = Field(default=None, ge=1, le=1_000_000)
    final_tie: Literal["draw", "extra_round"] = "draw"
    end_match_anytime: bool = False
    first_dealer: Literal["oldest_player", "lowest_month_draw", "birth_month_reveal"] = (
        "lowest_month_draw"
    )
    dealer_after_no_winner: Literal["same", "alternate"] = "alternate"

    # --- dealing (R-DEAL)
    deal_packet: Literal[2, 4] = 2
    deal_order: Literal["nd-d-f", "nd-f-d"] = "nd-f-d"
    field_redeal: Literal["none", "four_of_a_month", "four_of_a_month_or_four_pairs"] = (
        "four_of_a_month"
    )
    hand_exchange: bool = False
    bright_field_multiplier: bool = False

    # --- instant wins (R-INSTANT)
    instant_teshi: int | None = Field(default=6, ge=0, le=1000)
    instant_kuttsuki: int | None = Field(default=6, ge=0, le=1000)
    instant_double_tenho: int | None = Field(default=None, ge=0, le=1000)
    instant_win_timing: Literal["first_turn", "at_deal"] = "at_deal"
    instant_win_declaration: Literal["optional", "automatic"] = "automatic"
    instant_win_multipliers: bool = False

    # --- the turn (R-TURN)
    free_discard: bool = False
    flip_when_field_empty: bool = False
    gaji_wild: bool = False

    # --- yaku values (§7.2)
    value_goko: int = Field(default=10, ge=0, le=1000)
    value_shiko: int = Field(default=8, ge=0, le=1000)
    value_ame_shiko: int = Field(default=7, ge=0, le=1000)
    value_sanko: int = Field(default=5, ge=0, le=1000)
    value_inoshikacho: int = Field(default=5, ge=0, le=1000)
    value_akatan: int = Field(default=5, ge=0, le=1000)
    value_aotan: int = Field(default=5, ge=0, le=1000)
    value_akaao: int = Field(default=10, ge=0, le=1000)
    value_tane: int = Field(default=1, ge=0, le=1000)
    value_tanzaku: int = Field(default=1, ge=0, le=1000)
    value_kasu: int = Field(default=1, ge=0, le=1000)

    # --- yaku options (R-YAKU-2 … R-YAKU-7)
    viewing_yaku: bool = True
    viewing_voided_by_rain_man: bool = False
    viewing_value: int = Field(default=5, ge=0, le=1000)
    viewing_excluded_by_light_yaku: bool = False
    sake_cup_is_plain: bool = True
    sanko_allows_rain_man: bool = False
    one_yaku_per_card: bool = False
    set_yaku_absorb_extras: bool = True
    trio_bonus: int | None = Field(default=None, ge=0, le=1000)

    # --- multipliers (R-MULT) and koi-koi (R-KOI)
    seven_plus_double: bool = True
    koi_multiplier: Literal["double_per_call", "linear_total_calls", "none"] = "none"
    opponent_koi_double: bool = True
    koikoi_limit: int | None = Field(default=1, ge=0, le=1000)

    # --- end of round (R-END)
    exhaustion: Literal["draw", "last_koi_caller_scores", "oya_hand_empty"] = "draw"

    @model_validator(mode="before")
    @classmethod
    def _viewing_aliases(cls, data: Any) -> Any:
        """Accept ``value_hanami`` / ``value_tsukimi`` as spellings of ``viewing_value``, and
        read past ``stop_word`` / ``koi_word``, which records written before the call words
        became the UI's (``names.stop_word``, by the preset a rule set is based on) carry."""
        if not isinstance(data, dict):
            return data
        if "stop_word" in data or "koi_word" in data:
            data = {k: v for k, v in data.items() if k not in _OLD_WORDS}
        aliases = {k: data[k] for k in ("value_hanami", "value_tsukimi") if k in data}
        if not aliases:
            return data
        values = set(aliases.values())
        if len(values) > 1:
            raise RulesConflict(
                "viewing_values_differ",
                ("value_hanami", "value_tsukimi"),
                "Hanami and Tsukimi share one value (viewing_value); "
                "value_hanami and value_tsukimi must be equal.",
            )
        data = {k: v for k, v in data.items() if k not in aliases}
        data["viewing_value"] = values.pop()
        return data

    @model_validator(mode="after")
    def _check(self) -> Rules:
        if self.one_yaku_per_card and self.set_yaku_absorb_extras:
            raise RulesConflict(
                "exclusive",
                ("one_yaku_per_card", "set_yaku_absorb_extras"),
                "one_yaku_per_card and set_yaku_absorb_extras cannot both be on: they are two "
                "different ways of counting the same cards (RULES.md A-38, R-YAKU-7).",
            )
        if self.settlement == "transfer_capped" and self.starting_balance <= 0:
            # Decision: RULES.md §11 caps a payment at the coins the loser has; from an empty
            # purse nobody can ever pay, so balances never move, a race never reaches its target
            # and a tie's extra rounds never end. Such a match is refused, not played forever.
            raise RulesConflict(
                "capped_needs_balance",
                ("settlement", "starting_balance"),
                "transfer_capped settlement needs a starting balance above 0: the loser pays at "
                "most the coins he has (RULES.md §11), so from 0 nobody could ever pay.",
            )
        return self

    @property
    def match_rounds(self) -> int:
        """Rounds in a fixed-length match: ``rounds``, or 12 (a year) when it is none."""
        return self.rounds if self.rounds is not None else 12

    @property
    def match_target(self) -> int:
        """The target of a race: ``target_score``, or 50 (``seed-001``'s) when it is none."""
        return self.target_score if self.target_score is not None else 50

    @property
    def value_hanami(self) -> int:
        """Hanami's value: ``viewing_value`` (§13 keeps one value for both viewing yaku)."""
        return self.viewing_value

    @property
    def value_tsukimi(self) -> int:
        """Tsukimi's value: ``viewing_value``."""
        return self.viewing_value

    def value(self, key: str) -> int:
        """The preset value of yaku ``key`` (viewing yaku: ``viewing_value``)."""
        if key in ("hanami", "tsukimi"):
            return self.viewing_value
        return int(getattr(self, "value_" + key))

    def with_rounds(self, rounds: int) -> Rules:
        """This rule set for a match of ``rounds`` rounds (R-SETUP-1).

        Coins follow the rulebook's table (3 → 25, 6 → 50, 12 → 100) when the starting balance
        is the table's value for the current length; a target race becomes a fixed-length match
        (``seed-001``'s "year" variant).

        >>> PRESETS["seed-000"].with_rounds(6).starting_balance
        50
        >>> y = PRESETS["seed-001"].with_rounds(12)
        >>> y.match_end, y.target_score
        ('rounds', None)
        """
        changes: dict[str, Any] = {"rounds": rounds, "match_end": "rounds", "target_score": None}
        if (
            self.unit == "coins"
            and self.rounds is not None
            and COINS_FOR_ROUNDS.get(self.rounds) == self.starting_balance
            and rounds in COINS_FOR_ROUNDS
        ):
            changes["starting_balance"] = COINS_FOR_ROUNDS[rounds]
        return Rules.model_validate({**self.model_dump(), **changes})

    def changes_from_preset(self) -> dict[str, Any]:
        """The settings that differ from the preset named by ``based_on`` (all, if none)."""
        base = PRESETS.get(self.based_on)
        mine = self.model_dump()
        if base is None:
            return mine
        theirs = base.model_dump()
        return {k: v for k, v in mine.items() if theirs[k] != v}


#: The presets (RULES.md §13). The model's defaults are the ``nintendo`` column (§13.4); each
#: seed preset lists where it differs, so the four columns can be read side by side with §13.
_NINTENDO = Rules(based_on="nintendo")

_SEED_000 = Rules(
    based_on="seed-000",
    unit="coins",
    starting_balance=100,
    settlement="transfer_capped",
    bankruptcy_ends_match=True,
    first_dealer="oldest_player",
    dealer_after_no_winner="same",
    deal_packet=4,
    deal_order="nd-d-f",
    field_redeal="none",
    instant_double_tenho=14,
    instant_win_timing="first_turn",
    instant_win_declaration="optional",
    free_discard=True,
    koi_multiplier="double_per_call",
    set_yaku_absorb_extras=False,
    koikoi_limit=None,
)

_SEED_003 = Rules(
    based_on="seed-003",
    settlement="zero_sum",
    final_tie="extra_round",
    end_match_anytime=True,
    deal_packet=4,
    deal_order="nd-d-f",
    field_redeal="four_of_a_month_or_four_pairs",
    flip_when_field_empty=True,
    value_goko=15,
    value_shiko=10,
    value_ame_shiko=8,
    value_sanko=6,
    value_akatan=6,
    value_aotan=6,
    viewing_value=3,
    sake_cup_is_plain=False,
    one_yaku_per_card=True,
    seven_plus_double=False,
    koi_multiplier="linear_total_calls",
    opponent_koi_double=False,
    exhaustion="oya_hand_empty",
    set_yaku_absorb_extras=False,
    koikoi_limit=None,
)

_SEED_001 = Rules(
    based_on="seed-001",
    match_end="target",
    rounds=None,
    target_score=50,
    final_tie="extra_round",
    first_dealer="birth_month_reveal",
    dealer_after_no_winner="same",
    deal_order="nd-d-f",
    field_redeal="none",
    instant_teshi=None,
    instant_kuttsuki=None,
    seven_plus_double=False,
    opponent_koi_double=False,
    exhaustion="last_koi_caller_scores",
    set_yaku_absorb_extras=False,
    koikoi_limit=None,
)

#: The four presets of RULES.md §13, by name.
PRESETS: Mapping[str, Rules] = MappingProxyType(
    {
        "nintendo": _NINTENDO,
        "seed-000": _SEED_000,
        "seed-001": _SEED_001,
        "seed-003": _SEED_003,
    }
)

#: RULES.md §13 options each seed presents as optional ("toggle"), for the new-game screen.
PRESET_TOGGLES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "seed-000": (
            "rounds",
            "bright_field_multiplier",
            "viewing_yaku",
            "viewing_voided_by_rain_man",
            "viewing_value",
            "viewing_excluded_by_light_yaku",
            "seven_plus_double",
            "koi_multiplier",
            "opponent_koi_double",
        ),
        "seed-003": (
            "rounds",
            "hand_exchange",
            "bright_field_multiplier",
            "gaji_wild",
            "trio_bonus",
        ),
        "seed-001": ("match_end", "settlement"),
        "nintendo": (),
    }
)


#: Suggested values for the numeric settings (the new-game screen and the fuzzers use them).
_NUMBER_CHOICES: Mapping[str, tuple[int | None, ...]] = MappingProxyType(
    {
        "rounds": (3, 6, 12),
        "starting_balance": (0, 25, 50, 100),
        "target_score": (None, 30, 50, 100),
        "instant_teshi": (None, 6),
        "instant_kuttsuki": (None, 6),
        "instant_double_tenho": (None, 14),
        "viewing_value": (3, 5),
        "trio_bonus": (None, 3),
        "koikoi_limit": (None, 0, 1, 2),
    }
)


def setting_choices(name: str) -> tuple[object, ...]:
    """The values a setting can take (or sensible ones for numbers), for menus and fuzzers.

    >>> setting_choices("koi_multiplier")
    ('double_per_call', 'linear_total_calls', 'none')
    >>> setting_choices("gaji_wild")
    (False, True)
    """
    if name in _NUMBER_CHOICES:
        return _NUMBER_CHOICES[name]
    field = Rules.model_fields[name]
    ann = field.annotation
    if ann is bool:
        return (False, True)
    if typing.get_origin(ann) is Literal:
        return tuple(typing.get_args(ann))
    if name.startswith("value_"):
        default = getattr(PRESETS["nintendo"], name)
        return tuple(sorted({default, *(getattr(p, name) for p in PRESETS.values())}))
    return ()


#: Settings a player may change in a custom match (everything but the bookkeeping fields).
SETTINGS: tuple[str, ...] = tuple(n for n in Rules.model_fields if n != "based_on")


def is_custom(rules: Rules) -> bool:
    """True when ``rules`` differs from the preset it is based on."""
    base = PRESETS.get(rules.based_on)
    return base is None or base != rules


def preset(name: str) -> Rules:
    """The preset called ``name``; raises ValueError with the list of names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"Unknown preset {name!r}; choose one of: {', '.join(PRESETS)}.") from None


T = TypeVar("T")


class PerRules(Generic[T]):
    """One value made from each rule set (a scorer, the AI's knowledge), shared: looked up by
    identity first (fast), then by value, because every new game of a chosen length builds an
    equal but new ``Rules`` object, and each used to get (and keep) memos of its own (issue 9
    soak). Past ``limit`` rule sets seen it starts afresh.

    >>> made = PerRules(lambda r: [r.based_on], limit=8)
    >>> a = made.get(PRESETS["nintendo"])
    >>> a is made.get(PRESETS["nintendo"].model_copy()), a
    (True, ['nintendo'])
    """

    __slots__ = ("_by_id", "_by_value", "_limit", "_make")

    def __init__(self, make: Callable[[Rules], T], *, limit: int) -> None:
        self._make = make
        self._limit = limit
        self._by_id: dict[int, tuple[Rules, T]] = {}
        self._by_value: dict[Rules, T] = {}

    def get(self, rules: Rules) -> T:
        """The value of ``rules`` (made on the first request for an equal rule set)."""
        hit = self._by_id.get(id(rules))
        if hit is not None and hit[0] is rules:
            return hit[1]
        if len(self._by_id) > self._limit:
            self._by_id.clear()
            self._by_value.clear()
        value = self._by_value.get(rules)
        if value is None:
            value = self._by_value[rules] = self._make(rules)
        self._by_id[id(rules)] = (rules, value)
        return value
