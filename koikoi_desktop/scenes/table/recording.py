"""The table's recording (no pygame): the match saved after every move and put in the ledger
when it ends, through one :class:`~koikoi_desktop.storage.recorder.MatchRecorder`, and what
storage had to say about it.

The controller holds one :class:`TableRecording` and shows the lines it hands back.
"""

from __future__ import annotations

from koikoi_desktop.engine import Match, Rules
from koikoi_desktop.storage import Notice, Storage
from koikoi_desktop.storage.recorder import Ending, MatchRecorder


class TableRecording:
    """Saves and records one table's match (``storage`` None: nothing is kept); new storage
    warnings go to ``warnings`` (the app's list, which the title shows)."""

    def __init__(
        self,
        storage: Storage | None,
        warnings: list[Notice | str],
        *,
        record_computer: bool = False,
    ) -> None:
        self.storage = storage
        self.warnings = warnings
        self.record_computer = record_computer
        self.recorder: MatchRecorder | None = None
        self._warnings_seen = 0

    def begin(
        self,
        match_id: str,
        *,
        seats: tuple[str, str],
        names: tuple[str, str],
        rules: Rules,
        practice: bool,
        recorded: bool,
        help_level: str,
    ) -> MatchRecorder:
        """A person's match is saved and recorded; a computer-vs-computer match only with
        ``--record`` (then marked as a computer match)."""
        people = any(s == "human" for s in seats)
        self.recorder = MatchRecorder(
            self.storage,
            match_id=match_id,
            seats=seats,
            names=names,
            rules=rules,
            practice=practice,
            record=(people or self.record_computer) and recorded,
            computer=not people,
            help_level=help_level,
        )
        return self.recorder

    def save(self, match: Match | None) -> list[str]:
        """Save the match in progress; the storage lines to show (catalog keys' last part)."""
        if self.recorder is None or match is None:
            return []
        self.recorder.move_made(match)
        return self._news()

    def record(self, match: Match | None, ending: Ending, winner: int | None) -> list[str]:
        """Record the ended match in the ledger (once; its saved row goes with it); ``winner``
        -1: as the match's outcome says."""
        if self.recorder is None or match is None:
            return []
        self.recorder.match_ended(
            match, ending=ending, winner="outcome" if winner == -1 else winner
        )
        return self._news()

    def _news(self) -> list[str]:
        """The recorder's problems (to show on the table); new storage warnings go to the
        app's list."""
        out: list[str] = []
        if self.recorder is not None:
            out = list(self.recorder.messages)
            self.recorder.messages.clear()
        if self.storage is not None:
            new = self.storage.warnings[self._warnings_seen :]
            self._warnings_seen = len(self.storage.warnings)
            self.warnings.extend(new)
        return out
