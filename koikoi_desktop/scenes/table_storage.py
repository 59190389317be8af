"""The table's storage side: a bridge to :class:`~koikoi_desktop.storage.recorder.MatchRecorder`.

A mixin of :class:`koikoi_desktop.scenes.table.TableScene` (it reads the scene's ``app``,
``match``, ``recorder``). The recorder makes every storage decision; this only turns its
messages into the table's one-line notes.
"""

from __future__ import annotations

from typing import Any

from koikoi_desktop.ui import gfx


class TableStorageMixin:
    """Autosave and ledger writing for the table scene, through its ``recorder``."""

    app: Any
    match: Any
    recorder: Any

    def say_message(self, text: str) -> None:  # provided by the scene
        raise NotImplementedError

    def _storage_news(self) -> None:
        if self.recorder is None:
            return
        for key in self.recorder.messages:
            self.say_message(gfx.tr(f"ui.storage.{key}"))
        self.recorder.messages.clear()
        store = getattr(self.app, "storage", None)
        if store is not None:
            new = store.warnings[self._warnings_seen :]
            self._warnings_seen = len(store.warnings)
            for notice in new:
                self.app.warnings.append(notice)

    _warnings_seen = 0

    def write_autosave(self) -> None:
        if self.recorder is not None and self.match is not None:
            self.recorder.move_made(self.match)
            self._storage_news()

    def clear_autosave(self) -> None:
        """Nothing to do: recording a match removes its saved row in the same transaction."""

    def record_ledger(self, ending: str = "completed", winner: int | None = -1) -> None:
        if self.recorder is None or self.match is None:
            return
        self.recorder.match_ended(
            self.match, ending=ending, winner="outcome" if winner == -1 else winner
        )
        self._storage_news()
