"""The table's storage side: the autosave after every move and the ledger record at the end.

A mixin of :class:`koikoi_desktop.scenes.table.TableScene` (it reads the scene's ``app``,
``match``, ``config``, ``rules``, ``names``, ``humans`` and ``autoplay``). Computer-vs-computer
tables never write; a storage failure becomes one line for the player, never a crash.
"""

from __future__ import annotations

import contextlib
from typing import Any, Literal

from koikoi_desktop import engine


def _seat(p: int | None) -> Literal[0, 1] | None:
    return None if p is None else (0 if p == 0 else 1)


class TableStorageMixin:
    """Autosave and ledger writing for the table scene."""

    app: Any
    match: Any
    config: Any
    rules: Any
    names: Any
    humans: Any
    autoplay: bool

    def say_message(self, text: str) -> None:  # provided by the scene
        raise NotImplementedError

    def _meta(self) -> dict[str, Any]:
        return {
            "seats": list(self.config.seats),
            "practice": self.config.practice,
            "preset": self.rules.based_on,
            "round": self.match.round_number,
            "balances": list(self.match.balances),
            "names": list(self.names),
        }

    def write_autosave(self) -> None:
        store = getattr(self.app, "storage", None)
        if store is None or self.autoplay or self.match is None or not self.humans:
            return
        try:
            # on a worker thread: an atomic write with fsync takes ~12 ms, most of a frame
            store.write_autosave(engine.match_record(self.match), self._meta(), background=True)
        except Exception as exc:
            self.say_message(str(exc))

    def clear_autosave(self) -> None:
        store = getattr(self.app, "storage", None)
        if store is not None and not self.autoplay and self.humans:
            with contextlib.suppress(Exception):
                store.clear_autosave()

    def record_ledger(self, ending: str = "completed", winner: int | None = -1) -> None:
        store = getattr(self.app, "storage", None)
        if store is None or self.autoplay or not self.humans:
            return
        try:
            from koikoi_desktop import __version__
            from koikoi_desktop.storage import MatchRecord

            m = self.match
            me = self.humans[0]
            cpu = [s for s in self.config.seats if s != "human"]
            rounds = [e.as_dict() for e in m.ledger]
            for r in rounds:
                r.pop("instant", None)
            rec = MatchRecord(
                preset=self.rules.based_on,
                options=self.rules.changes_from_preset() if engine.is_custom(self.rules) else {},
                unit=self.rules.unit,
                opponent_name=self.names[1 - me],
                opponent_level=cpu[0] if cpu else "hotseat",
                practice=self.config.practice,
                player_seat=0 if me == 0 else 1,
                rounds=rounds,
                final_balances=m.balances,
                winner=_seat(m.outcome.winner if m.outcome is not None else None)
                if winner == -1
                else _seat(winner),
                ending=ending,
                app_version=__version__,
            )
            store.record_match(rec)
        except Exception as exc:
            self.app.warnings.append(f"ledger: {exc}")
