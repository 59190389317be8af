"""The table's recorder: engine matches in, saved matches and ledger rows out. No pygame.

A :class:`MatchRecorder` belongs to one match on the table. The match id is fixed when the
match starts (or restored from the saved match on Continue) and keys both the saved row and the
ledger row, which is what makes recording exactly-once (see :mod:`.ledger_db`).

:func:`resume` turns a saved match back into an engine match, raising :class:`ResumeError` (one
sentence) for anything that cannot be resumed: damaged text, an illegal move, an unknown preset
or opponent, impossible metadata. The caller sets that row aside and tells the player.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import ValidationError

from koikoi_desktop import engine
from koikoi_desktop.ai.base import Reason

from .cause import Unresumable
from .models import AutosaveData, HelpLevel, MatchRecord, RoundEntry, SavedMeta
from .store import Storage

#: What a seat of a saved match may be: a person, or an opponent level.
#: The help levels a match can be played with (Settings.help_level's values).
HELP_LEVELS: dict[str, HelpLevel] = {h: h for h in get_args(HelpLevel)}

Ending = Literal["completed", "conceded", "ended", "abandoned"]


class ResumeError(ValueError):
    """A saved match that cannot be resumed: ``why`` says why, ``detail`` what the engine said
    of its moves or the preset it names (the message, for a log, in a few English words)."""

    def __init__(self, why: Unresumable, detail: str = "") -> None:
        super().__init__(f"{why.value}: {detail}" if detail else why.value)
        self.why = why
        self.detail = detail


def new_match_id() -> str:
    """A fresh match id (fixed for the whole match, saved with it)."""
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class Resumed:
    """A saved match made playable again."""

    match_id: str
    match: engine.Match
    seats: tuple[str, str]
    #: The names a person typed for the seats ("": the seat's default name, which the table
    #: renders in the language of the moment); None when the save has none.
    names: tuple[str, str] | None
    practice: bool
    help_level: str = "full"
    #: The computer's reasons the practice table's move log told: (move number, reason).
    reasons: tuple[tuple[int, Reason], ...] = ()


def resume(saved: AutosaveData) -> Resumed:
    """Replay a saved match (see the module docstring); raises :class:`ResumeError`."""
    try:
        meta = SavedMeta.model_validate(saved.meta)
    except ValidationError as exc:
        where = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
        if "match_id" in where:
            raise ResumeError(Unresumable.NO_ID) from None
        if "seats" in where:
            raise ResumeError(Unresumable.UNKNOWN_SEATS) from None
        if "names" in where:
            raise ResumeError(Unresumable.NAMES) from None
        raise ResumeError(Unresumable.DETAILS) from None
    try:
        match = engine.replay_match(saved.record)
    except ValueError as exc:  # RecordError and IllegalAction are ValueErrors (documented)
        raise ResumeError(Unresumable.MOVES, str(exc)[:80]) from None
    if match.rules.based_on not in engine.PRESETS:
        name = match.rules.based_on[:40]
        raise ResumeError(Unresumable.PRESET, name)
    reasons = tuple((r.move, r.fact()) for r in meta.reasons)
    return Resumed(
        meta.match_id, match, meta.seats, meta.names, meta.practice, meta.help_level, reasons
    )


class MatchRecorder:
    """Saves one match after every move and records it in the ledger when it ends.

    ``store`` None (no storage this session) records nothing. ``record=False`` (a computer-vs-
    computer table that was not asked to record) records nothing either. Problems become lines
    in :attr:`messages`, which the table shows and empties.
    """

    def __init__(
        self,
        store: Storage | None,
        *,
        match_id: str,
        seats: Sequence[str],
        names: Sequence[str],
        rules: engine.Rules,
        practice: bool,
        record: bool = True,
        computer: bool = False,
        help_level: str = "full",
    ) -> None:
        self.store = store
        self.match_id = match_id
        self.seats = (str(seats[0]), str(seats[1]))
        #: What a person typed for each seat ("" for a default name): saved with the match and
        #: kept in its ledger row (a default name is worded when a screen draws the row).
        self.names = (str(names[0]), str(names[1]))
        self.rules = rules
        self.practice = practice
        self.active = store is not None and record
        #: A computer-vs-computer match (``--autoplay --record``): kept out of the statistics.
        self.computer = computer
        self.help_level: HelpLevel = HELP_LEVELS.get(help_level, "full")
        self.recorded = False
        self.messages: list[str] = []
        #: The computer's reasons told in the move log (move number, reason): saved with the
        #: match, so Continue tells them again.
        self.reasons: list[tuple[int, Reason]] = []

    def meta(self, match: engine.Match) -> dict[str, Any]:
        """What the title screen and Continue need besides the engine's record."""
        return {
            "match_id": self.match_id,
            "seats": list(self.seats),
            "practice": self.practice,
            "preset": self.rules.based_on,
            "round": match.round_number,
            "balances": list(match.balances),
            "names": list(self.names),
            "help_level": self.help_level,
            "reasons": [
                {"move": n, "key": r.key.value, "params": dict(r.params)} for n, r in self.reasons
            ],
        }

    def move_made(self, match: engine.Match) -> None:
        """Save the match in progress (off the frame thread); computer tables save nothing."""
        if not self.active or self.computer or self.recorded or self.store is None:
            return
        self.store.write_autosave(
            self.match_id, engine.match_record(match), self.meta(match), background=True
        )

    def abandon(self) -> None:
        """Forget the saved match (the player left it on purpose without recording it)."""
        if self.active and self.store is not None:
            self.store.clear_autosave(self.match_id)

    def match_ended(
        self,
        match: engine.Match,
        *,
        ending: Ending = "completed",
        winner: int | Literal["outcome"] | None = "outcome",
    ) -> bool | None:
        """Record the finished match (and drop its saved row) exactly once.

        Returns True when it is in the ledger, False when the disk refused it (it is kept in
        the storage's pending list and :attr:`messages` says so), None when this table does
        not record.
        """
        if not self.active or self.store is None:
            return None
        if self.recorded:
            return True
        rec = self.record_of(match, ending=ending, winner=winner)
        text = engine.match_record(match)
        ok = self.store.record_match(rec, record_text=text, computer=self.computer)
        self.recorded = ok
        if not ok:
            self.messages.append("ledger_not_saved")
        return ok

    def record_of(
        self,
        match: engine.Match,
        *,
        ending: Ending = "completed",
        winner: int | Literal["outcome"] | None = "outcome",
    ) -> MatchRecord:
        """The ledger row of ``match`` as it stands."""
        from koikoi_desktop import __version__

        humans = [p for p in (0, 1) if self.seats[p] == "human"]
        me = humans[0] if humans else 0
        cpu = [s for s in self.seats if s != "human"]
        rounds = [e.as_dict() for e in match.ledger]
        for r in rounds:
            r.pop("instant", None)
        if winner == "outcome":
            won = match.outcome.winner if match.outcome is not None else None
        else:
            won = winner
        return MatchRecord(
            match_id=self.match_id,
            preset=self.rules.based_on,
            options=self.rules.changes_from_preset() if engine.is_custom(self.rules) else {},
            unit=self.rules.unit,
            opponent_name=self.names[1 - me],
            # a person against the computer: its level; computer vs computer: seat 1's level
            opponent_level=(cpu[0] if cpu and humans else self.seats[1] if cpu else "hotseat"),
            practice=self.practice,
            help_level=self.help_level if humans else None,
            player_seat=0 if me == 0 else 1,
            rounds=[RoundEntry.model_validate(r) for r in rounds],
            final_balances=match.balances,
            winner=None if won is None else (0 if won == 0 else 1),
            ending=ending,
            app_version=__version__,
        )
