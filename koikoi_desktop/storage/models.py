"""The files' contents as pydantic v2 models, each with a ``schema_version`` and migrations.

Three documents live in the data directory:

* :class:`Settings` — the player's preferences (``settings.json``);
* :class:`MatchRecord` — one finished match of the coin ledger, one JSON object per line of
  ``ledger.jsonl``, its rounds as :class:`RoundEntry` (the fields of RULES.md §11 and of the
  engine's ``match.ledger`` entries);
* :class:`AutosaveData` — the match in progress, as the engine's match record text plus metadata
  (``autosave.json``).

Decisions written down here:

* Every field of :class:`Settings` has a default, so a missing or invalid field never stops the
  game: :func:`load_settings_tolerant` validates, drops each field that fails, validates again, and
  reports the names it dropped (the caller keeps the damaged original file aside).
* A document without ``schema_version`` is version 0 (hand-written, or from before versions
  existed) and is migrated step by step through ``MIGRATIONS[kind]`` (``n -> n + 1`` functions on
  plain dicts) up to the current version. A document from a *future* version raises
  :class:`FutureVersionError`: the caller keeps that file untouched and never overwrites it.
* Ledger records are strict about what matters (numbers are integers, seats are 0 or 1) and keep
  unknown extra keys of a round entry (``extra="allow"``), so an engine that adds a field to its
  ledger entries loses nothing on the way to disk.
* Numbers are bounded (``|n| <= 10**12`` for coins and points): a hand-edited 10**400 is a bad
  value, not a crash further down in the UI's text layout.
* Names are facts: a seat's name field (a ledger row's ``opponent_name``, a saved match's
  ``names``) holds only what a person typed, "" for the seat's default name, which screens word
  when they draw it, in the language of the moment, from the seat's kind (``opponent_level``,
  ``seats``). Older versions wrote default names as words; :func:`typed_name` (the one place
  that reads words back) turns them into "" as each row model reads them.
"""

from __future__ import annotations

import dataclasses
import functools
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime, time
from enum import Enum
from pathlib import PurePath
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    field_validator,
)

from koikoi_desktop.ai.base import Reason, ReasonKey
from koikoi_desktop.engine.facts import SeatKind

SETTINGS_VERSION = 1
LEDGER_VERSION = 1
AUTOSAVE_VERSION = 1

#: Bound on every stored coin/point figure (a real match stays far below it).
MAX_AMOUNT = 10**12


def _printable(value: str) -> str:
    """Text a screen can draw on one line: no NUL, no control characters, no lone surrogates."""
    if not value.isprintable():
        raise ValueError("text holds a control character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text holds a lone surrogate") from None
    return value


Printable = AfterValidator(_printable)
#: Bounded one-line text types: every string read from disk that a screen shows is one of them.
Text40 = Annotated[str, Field(max_length=40), Printable]
Name40 = Annotated[str, Field(min_length=1, max_length=40), Printable]
Text60 = Annotated[str, Field(max_length=60), Printable]
Id64 = Annotated[str, Field(min_length=1, max_length=64), Printable]
Key = Annotated[str, Field(max_length=64), Printable]

Amount = Annotated[int, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
Seat = Literal[0, 1]
ShortText = Annotated[str, Field(max_length=200), Printable]
Pixels = Annotated[int, Field(ge=240, le=16384)]
Calls = Annotated[int, Field(ge=0, le=100)]
#: How much the table helps: lit targets, yaku tracker, koi-koi panel numbers and hints
#: ("full"), lit targets only ("highlights", shown as "light"), or nothing ("none").
HelpLevel = Literal["full", "highlights", "none"]
OptionValue = Annotated[int, Field(ge=-(10**9), le=10**9)] | bool | Key | None


class FutureVersionError(ValueError):
    """The document was written by a newer version of the game (higher ``schema_version``)."""

    def __init__(self, kind: str, found: int, supported: int) -> None:
        super().__init__(f"{kind} schema_version {found} is newer than {supported}")
        self.kind = kind
        self.found = found
        self.supported = supported


# --------------------------------------------------------------------------------------- settings


class Settings(BaseModel):
    """The player's preferences; every field has a sane default (a fresh install is all defaults).

    >>> Settings().animation_speed
    'normal'
    """

    model_config = ConfigDict(validate_assignment=True, extra="ignore")

    schema_version: int = SETTINGS_VERSION
    language: Literal["en", "uk", "ru", "sk", "ja"] = "en"
    animation_speed: Literal["off", "fast", "normal"] = "normal"
    sound_volume: int = Field(default=80, ge=0, le=100)
    music_volume: int = Field(default=60, ge=0, le=100)
    muted: bool = False
    fullscreen: bool = False
    #: Window size in pixels when not fullscreen; the app enforces its own minimum (1024x640).
    window_size: tuple[Pixels, Pixels] = (1280, 800)
    card_badges: bool = True
    help_level: HelpLevel = "full"
    ui_scale: float = Field(default=1.0, ge=0.5, le=3.0, allow_inf_nan=False)
    reduced_motion: bool = False
    default_preset: Name40 = "nintendo"
    #: Rule overrides on top of the default preset (RULES.md §13 setting name -> value).
    default_options: dict[Key, OptionValue] = Field(default_factory=dict, max_length=200)
    default_opponent: Name40 = "intermediate"
    #: Empty means "let the UI show its translated word for you".
    player_name: Text40 = ""
    #: Optional; the ``seed-000`` (age) and ``seed-001`` (birth month) dealer rules use it.
    birth_date: date | None = None
    name_display: Literal["japanese", "romaji", "translated"] = "translated"
    quiz_score: int = Field(default=0, ge=0, le=10**9)
    quiz_streak: int = Field(default=0, ge=0, le=10**9)
    quiz_best_streak: int = Field(default=0, ge=0, le=10**9)
    #: True: click a card, then click its target (instead of drag-and-drop).
    click_to_move: bool = False
    #: The coach at help level full: the table says when a move is a mistake or a blunder.
    coach: bool = True
    #: The unpacked Linux game asks to add itself to the desktop's menu (False: "Don't ask
    #: again"; see koikoi_desktop/menu_entry.py).
    offer_menu_entry: bool = True

    @field_validator("birth_date")
    @classmethod
    def _plausible_birth_date(cls, value: date | None) -> date | None:
        if value is not None and not (date(1900, 1, 1) <= value <= date.today()):
            raise ValueError("birth date must lie between 1900 and today")
        return value

    @field_validator("player_name", mode="before")
    @classmethod
    def _one_line(cls, value: object) -> object:
        return " ".join(value.split()) if isinstance(value, str) else value


def load_settings_tolerant(data: Mapping[str, Any]) -> tuple[Settings, list[str]]:
    """Validate ``data`` field by field: each invalid field falls back to its default.

    Returns the settings and the sorted names of the fields that were dropped.

    >>> s, bad = load_settings_tolerant({"sound_volume": 500, "language": "uk"})
    >>> (s.sound_volume, s.language, bad)
    (80, 'uk', ['sound_volume'])
    """
    work = {k: v for k, v in data.items() if isinstance(k, str) and k in Settings.model_fields}
    work.pop("schema_version", None)
    dropped: set[str] = set()
    for _ in range(len(Settings.model_fields) + 1):
        try:
            return Settings.model_validate(work), sorted(dropped)
        except ValidationError as exc:
            bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
            if not bad:  # a model-level error: nothing field-wise left to blame
                break
            for name in bad:
                work.pop(name, None)
            dropped |= bad
    return Settings(), sorted(set(work) | dropped)


# ----------------------------------------------------------------------------------------- ledger


class YakuEntry(BaseModel):
    """One yaku of the round's winner with its value (RULES.md §7 key)."""

    model_config = ConfigDict(extra="allow")

    key: Name40
    points: Amount


class FactorEntry(BaseModel):
    """A multiplier applied to ``base`` (RULES.md §10): ``{"name": "seven_plus", "factor": 2}``."""

    model_config = ConfigDict(extra="allow")

    name: Name40
    factor: Annotated[int, Field(ge=0, le=10**6)]


class RoundEntry(BaseModel):
    """One round of the ledger: exactly the fields of RULES.md §11 (names as the engine's ledger).

    ``koikoi_calls`` (koi-koi calls of seat 0 and seat 1 in the round) is optional: the statistics'
    koi-koi success rate counts only rounds that carry it.
    """

    model_config = ConfigDict(extra="allow")

    round: Annotated[int, Field(ge=1, le=10**6)]
    dealer: Seat
    end: Text60
    winner: Seat | None
    yaku: list[YakuEntry] = Field(default_factory=list, max_length=64)
    base: Amount = 0
    factors: list[FactorEntry] = Field(default_factory=list, max_length=16)
    final: Amount = 0
    paid: Amount = 0
    balances: tuple[Amount, Amount]
    koikoi_calls: tuple[Calls, Calls] | None = None

    @classmethod
    def from_engine(
        cls, entry: object, *, koikoi_calls: tuple[int, int] | None = None
    ) -> RoundEntry:
        """An entry from an engine ledger entry (dict, dataclass, pydantic model or object)."""
        data = to_plain(entry)
        if not isinstance(data, dict):
            raise TypeError(f"cannot read a ledger entry from {type(entry).__name__}")
        for field, names in (("yaku", ("key", "points")), ("factors", ("name", "factor"))):
            items = data.get(field)
            if isinstance(items, list):
                data[field] = [
                    dict(zip(names, item, strict=True))
                    if isinstance(item, list) and len(item) == 2
                    else item
                    for item in items
                ]
        if koikoi_calls is not None:
            data["koikoi_calls"] = koikoi_calls
        return cls.model_validate(data)


def _now() -> datetime:
    return datetime.now(UTC)


class MatchRecord(BaseModel):
    """One finished (or abandoned) match of the coin ledger."""

    model_config = ConfigDict(extra="ignore")

    schema_version: int = LEDGER_VERSION
    #: Unique id: salvage merges the ledger with its backup by it.
    match_id: Id64 = Field(default_factory=lambda: uuid.uuid4().hex)
    date: datetime = Field(default_factory=_now)
    #: The preset the match was based on (``Rules.based_on``).
    preset: Name40
    #: Rule settings changed from the preset (empty: the preset as published).
    options: dict[Key, OptionValue] = Field(default_factory=dict, max_length=200)
    unit: Literal["coins", "points"] = "points"
    #: What a person typed for the opponent's seat; "" (the usual case) for the seat's default
    #: name, which screens word from ``opponent_level`` when they draw it (:func:`typed_name`
    #: reads a default name an older version wrote as words as "").
    opponent_name: ShortText = ""
    #: Who sat opposite: "beginner" / "intermediate" / "expert" (a computer of that level; in a
    #: computer match, seat 1's), or "hotseat" (older rows: "human") for a second person.
    opponent_level: Text40 = ""
    practice: bool = False
    #: A computer-vs-computer match (``--autoplay --record``): kept out of the statistics. Part
    #: of the record so that a salvage or an import keeps it.
    computer: bool = False
    #: The help the player had ("full", "highlights", "none"); None for matches recorded before
    #: help levels existed (or computer matches).
    help_level: HelpLevel | None = None
    #: The seat the player sat in (the ledger entries' seats are the engine's 0 and 1).
    player_seat: Seat = 0
    rounds: list[RoundEntry] = Field(default_factory=list, max_length=10_000)
    final_balances: tuple[Amount, Amount]
    winner: Seat | None
    #: "completed", or how it ended early ("conceded", "ended", "abandoned").
    ending: Text40 = "completed"
    app_version: Text40 = ""

    @field_validator("date")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)

    @field_validator("opponent_name")
    @classmethod
    def _typed(cls, value: str) -> str:
        return typed_name(value)

    @property
    def player_result(self) -> Literal["win", "loss", "draw"]:
        """The match result from the player's seat."""
        if self.winner is None:
            return "draw"
        return "win" if self.winner == self.player_seat else "loss"

    @classmethod
    def from_match(
        cls,
        match: object,
        *,
        preset: str,
        options: Mapping[str, Any] | None = None,
        unit: Literal["coins", "points"] = "points",
        opponent_name: str = "",
        opponent_level: str = "",
        practice: bool = False,
        player_seat: Seat = 0,
        koikoi_calls: list[tuple[int, int] | None] | None = None,
        events: Iterable[object] | None = None,
        ending: str = "completed",
        app_version: str = "",
    ) -> MatchRecord:
        """Build a record from an engine match (``.ledger``, ``.balances``, ``.outcome``).

        The engine's ledger entries do not say who called koi-koi; pass either ``koikoi_calls``
        (seat 0's and seat 1's calls, per round) or every engine ``events`` the match produced
        (see :func:`koikoi_calls_from_events`) to feed the koi-koi statistics.
        """
        entries = list(getattr(match, "ledger", ()))
        if koikoi_calls is None and events is not None:
            koikoi_calls = koikoi_calls_from_events(events, rounds=len(entries))
        rounds = [
            RoundEntry.from_engine(
                e, koikoi_calls=koikoi_calls[i] if koikoi_calls and i < len(koikoi_calls) else None
            )
            for i, e in enumerate(entries)
        ]
        balances = tuple(getattr(match, "balances", (0, 0)))
        outcome = getattr(match, "outcome", None)
        winner = getattr(outcome, "winner", None) if outcome is not None else None
        return cls.model_validate(
            {
                "preset": preset,
                "options": dict(options or {}),
                "unit": unit,
                "opponent_name": opponent_name,
                "opponent_level": opponent_level,
                "practice": practice,
                "player_seat": player_seat,
                "rounds": [r.model_dump() for r in rounds],
                "final_balances": balances,
                "winner": winner,
                "ending": ending,
                "app_version": app_version,
            }
        )


def koikoi_calls_from_events(
    events: Iterable[object], *, rounds: int | None = None
) -> list[tuple[int, int] | None]:
    """Koi-koi calls per seat for each settled round, from engine events (``.kind``, ``.player``).

    A round closes at its ``settled`` event. Rounds settled before the caller saw any event (an
    instant win at the very first deal, or rounds played before a Continue) have no events: with
    ``rounds`` given, the list is aligned to the *last* rounds and padded at the front with None
    (unknown; the statistics skip those rounds).

    >>> from collections import namedtuple
    >>> E = namedtuple("E", "kind player")
    >>> koikoi_calls_from_events([E("koikoi", 1), E("settled", 0), E("settled", None)])
    [(0, 1), (0, 0)]
    """
    done: list[tuple[int, int] | None] = []
    calls = [0, 0]
    for ev in events:
        kind = getattr(ev, "kind", None)
        if kind == "koikoi":
            seat = getattr(ev, "player", None)
            if seat in (0, 1):
                calls[seat] += 1
        elif kind == "settled":
            done.append((calls[0], calls[1]))
            calls = [0, 0]
    if rounds is not None:
        done = done[-rounds:] if rounds else []
        unknown: list[tuple[int, int] | None] = [None] * (rounds - len(done))
        done = unknown + done
    return done


# --------------------------------------------------------------------------------------- autosave


class AutosaveData(BaseModel):
    """The match in progress: the engine's match record text, plus what the title screen shows."""

    model_config = ConfigDict(extra="ignore")

    schema_version: int = AUTOSAVE_VERSION
    saved_at: datetime = Field(default_factory=_now)
    #: ``engine.match_record(match)``: replaying it resumes the match exactly.
    record: str = Field(min_length=1, max_length=4_000_000)
    #: Free JSON metadata from the UI (preset, opponent, practice, round, balances...).
    meta: dict[str, Any] = Field(default_factory=dict)
    app_version: str = Field(default="", max_length=40)


# -------------------------------------------------------------------------- rows of the database
#
# The one boundary for what the database holds: every row a screen or the engine will see is
# validated by one of these models first. The database is a file anyone can edit (or a disk can
# damage), so nothing is taken on trust: a BLOB where text belongs, a NUL in a name, a NULL, a
# number out of range or a date that is not one fails here, and the caller sets the row aside.

#: The longest saved match record the game reads (a 12-round match is ~3 kB of text).
RECORD_LIMIT = 1024 * 1024
#: The longest JSON document (a match's data, a saved match's metadata, a review) read back.
DOC_LIMIT = 4 * 1024 * 1024


def _stored_date(value: object) -> datetime:
    """An ISO date and time as the game writes it (text), as an aware datetime in UTC."""
    if not isinstance(value, str) or len(value) > 64:
        raise ValueError("not a date")
    when = datetime.fromisoformat(value)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        return when.astimezone(UTC)
    except OverflowError:
        raise ValueError("a date out of range") from None


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("text holds a NUL")
    return value


StoredDate = Annotated[datetime, BeforeValidator(_stored_date)]
Flag = Literal[0, 1]
RecordText = Annotated[str, Field(min_length=1, max_length=RECORD_LIMIT), AfterValidator(_no_nul)]
DocText = Annotated[str, Field(max_length=DOC_LIMIT), AfterValidator(_no_nul)]


class _Row(BaseModel):
    """A database row: strict types (no BLOB read as text, no text read as a number)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")


class SummaryRow(_Row):
    """A row of ``matches``: what the ledger's list and the statistics read."""

    match_id: Id64
    date: StoredDate
    preset: Name40
    custom: Flag
    unit: Literal["coins", "points"]
    opponent_name: ShortText
    opponent_level: Text40
    practice: Flag
    computer: Flag
    player_seat: Seat
    winner: Seat | None
    result: Literal["win", "loss", "draw"]
    player_total: Amount
    opponent_total: Amount
    rounds: Annotated[int, Field(ge=0, le=10_000)]
    ending: Text40
    help_level: HelpLevel | None

    @field_validator("opponent_name")
    @classmethod
    def _typed(cls, value: str) -> str:
        return typed_name(value)


class SavedRow(_Row):
    """A row of ``saved``: a match in progress (its metadata parsed by :class:`SavedMeta`)."""

    match_id: Id64
    owner: Key
    host: ShortText
    pid: Annotated[int, Field(ge=0, le=2**31)]
    updated: StoredDate
    record: RecordText
    meta: DocText


class DataRow(_Row):
    """A row of ``match_data``: the match's JSON (read by :class:`MatchRecord`) and its record."""

    match_id: Id64
    data: DocText
    record: RecordText | None


class ReviewRow(_Row):
    """A row of ``reviews``: a cached review (JSON text the review screen validates)."""

    match_id: Id64
    data: DocText


class TotalsRow(_Row):
    """A row of ``totals``: one lifetime counter of the statistics (see ``ledger_db``)."""

    practice: Literal[-1, 0, 1]
    grp: Literal[
        "state",
        "overall",
        "level:matches",
        "level:wins",
        "level:losses",
        "level:draws",
        "preset:matches",
        "preset:wins",
        "preset:losses",
        "preset:draws",
        "rounds",
        "koikoi",
        "yaku",
        "won",
        "lost",
        "best",
    ]
    key: Annotated[str, Field(max_length=80), Printable]
    value: Annotated[int, Field(ge=-(2**62), le=2**62)]


def _help_or_full(value: object) -> object:
    return value if value in ("full", "highlights", "none") else "full"


class SavedReason(BaseModel):
    """Why a computer seat made the match's move number ``move`` (0: the match's first), as
    the practice table's move log tells it: a reason's key and its parameters (facts)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    move: Annotated[int, Field(ge=0, le=100_000)]
    key: ReasonKey
    params: Annotated[dict[Text40, int | float | Text40 | None], Field(max_length=12)] = {}

    def fact(self) -> Reason:
        return Reason(self.key, dict(self.params))


class SavedMeta(BaseModel):
    """What Continue reads of a saved match besides its record: seats, names, practice, help,
    and the computer's reasons that a practice table's move log told.

    A help level from before help levels existed is the old table's ("full").
    """

    model_config = ConfigDict(extra="ignore")

    match_id: Id64
    seats: tuple[SeatKind, SeatKind] = ("human", "intermediate")
    names: tuple[Text40, Text40] | None = None
    practice: StrictBool = False
    help_level: Annotated[HelpLevel, BeforeValidator(_help_or_full)] = "full"
    reasons: Annotated[tuple[SavedReason, ...], Field(max_length=100_000)] = ()

    @field_validator("names", mode="before")
    @classmethod
    def _trimmed(cls, value: object) -> object:
        """A name as the table keeps it: trimmed, at most 40 characters (blank: the default)."""
        if isinstance(value, list | tuple) and all(isinstance(n, str) for n in value):
            return [n.strip()[:40] for n in value]
        return value

    @field_validator("names")
    @classmethod
    def _typed(cls, value: tuple[str, str] | None) -> tuple[str, str] | None:
        return None if value is None else (typed_name(value[0]), typed_name(value[1]))


# --------------------------------------------------------------------- names kept as words
#
# Before names were kept as facts, the game wrote a seat's *default* name into ledger rows
# (``opponent_name``) and saved matches (``names``) as words, in whichever of the five languages
# it spoke then: "Computer (Expert)", "Комп’ютер (Досвідчений)", "プレイヤー2". Those rows are
# read back as today's facts here, and nowhere else: the row models above call
# :func:`typed_name` on every name they read, so an old row from the database, from an export of
# an older version or from the JSON-lines ledger reads the same as a new one. The database's
# rows carry no version, so the check runs on every read (a set lookup).
#
# Decision: a name a person typed that is exactly one of these words (someone who called
# themselves "Player 2") reads as the default name: it is the same words, shown in the
# language of the moment.


@functools.cache
def _default_words() -> frozenset[str]:
    """Every default seat name older versions wrote, in the five languages: "You", "Player 1/2",
    "Computer 1/2" and "Computer (<level>)" for each computer level."""
    from koikoi_desktop import i18n

    levels = [k for k in get_args(SeatKind) if k != "human"]
    words: set[str] = set()
    for code in i18n.LANGUAGES:
        words.add(i18n.t_in(code, "ui.common.you"))
        for n in (1, 2):
            words.add(i18n.t_in(code, "ui.table.player_n", n=n))
            words.add(i18n.t_in(code, "ui.table.computer_n", n=n))
        for level in levels:
            name = i18n.t_in(code, f"ui.level.{level}")
            words.add(i18n.t_in(code, "ui.table.computer", level=name))
    return frozenset(words)


def typed_name(name: str) -> str:
    """A seat's name as rows hold it today: what a person typed, or "" for a default name an
    older version wrote as words in any of the five languages.

    >>> typed_name("Комп’ютер (Досвідчений)"), typed_name("プレイヤー2"), typed_name("Oksana")
    ('', '', 'Oksana')
    """
    return "" if name in _default_words() else name


# ------------------------------------------------------------------------------------- migrations

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def _v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0 is a document without ``schema_version``: the v1 layout, unlabelled."""
    return {**data, "schema_version": 1}


#: ``MIGRATIONS[kind][n]`` turns a version-``n`` dict into a version-``n + 1`` dict.
MIGRATIONS: dict[str, dict[int, Migration]] = {
    "settings": {0: _v0_to_v1},
    "ledger": {0: _v0_to_v1},
    "autosave": {0: _v0_to_v1},
}

CURRENT_VERSION: dict[str, int] = {
    "settings": SETTINGS_VERSION,
    "ledger": LEDGER_VERSION,
    "autosave": AUTOSAVE_VERSION,
}


def schema_version_of(data: Mapping[str, Any]) -> int:
    """The document's ``schema_version`` (0 when absent); ValueError when it is not an integer."""
    raw = data.get("schema_version", 0)
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise ValueError(f"bad schema_version {raw!r}")
    return raw


def migrate(
    kind: str,
    data: dict[str, Any],
    *,
    chain: Mapping[int, Migration] | None = None,
    current: int | None = None,
) -> dict[str, Any]:
    """Bring a ``kind`` document up to the current version through the migration chain.

    Raises :class:`FutureVersionError` for a newer document, ValueError for a broken version.

    >>> migrate("settings", {"language": "sk"})["schema_version"]
    1
    """
    steps = MIGRATIONS[kind] if chain is None else chain
    target = CURRENT_VERSION[kind] if current is None else current
    version = schema_version_of(data)
    if version > target:
        raise FutureVersionError(kind, version, target)
    while version < target:
        step = steps.get(version)
        if step is None:
            raise ValueError(f"no migration for {kind} from version {version}")
        data = step(dict(data))
        new_version = schema_version_of(data)
        if new_version != version + 1:
            raise ValueError(f"{kind} migration from {version} produced {new_version}")
        version = new_version
    return data


# ------------------------------------------------------------------------------------------ misc


def to_plain(obj: object, _depth: int = 0) -> Any:
    """Turn engine values (dataclasses, pydantic models, named tuples, objects) into plain JSON."""
    if _depth > 50:
        raise ValueError("value nested too deeply")
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if isinstance(obj, datetime | date | time):
        return obj.isoformat()
    if isinstance(obj, Enum):
        return to_plain(obj.value, _depth + 1)
    if isinstance(obj, PurePath):
        return str(obj)
    if isinstance(obj, BaseModel):
        return to_plain(obj.model_dump(), _depth + 1)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_plain(getattr(obj, f.name), _depth + 1) for f in dataclasses.fields(obj)}
    if isinstance(obj, Mapping):
        return {str(k): to_plain(v, _depth + 1) for k, v in obj.items()}
    asdict = getattr(obj, "_asdict", None)
    if callable(asdict):
        return to_plain(asdict(), _depth + 1)
    if isinstance(obj, list | tuple | set | frozenset):
        return [to_plain(v, _depth + 1) for v in obj]
    attrs = getattr(obj, "__dict__", None)
    if isinstance(attrs, dict):
        return {k: to_plain(v, _depth + 1) for k, v in attrs.items() if not k.startswith("_")}
    slots = getattr(type(obj), "__slots__", None)
    if slots:
        names = [slots] if isinstance(slots, str) else list(slots)
        return {n: to_plain(getattr(obj, n), _depth + 1) for n in names if hasattr(obj, n)}
    raise TypeError(f"cannot store a {type(obj).__name__}")
