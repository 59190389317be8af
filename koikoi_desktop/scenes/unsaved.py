"""The dialog at quit when finished matches could not be written to the coin ledger yet.

The disk refused them during play (full, read-only, an I/O error); they are held in memory by
:class:`koikoi_desktop.storage.Storage` (``pending``). Before the game closes, the player may try
again, export them to a JSON file in another folder (the documents folder, where a USB stick or
another disk is usually reachable; ``--import-ledger`` brings the file back), or quit knowing
they are lost. Esc is "back to the game", never a silent loss.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pygame

from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene
from koikoi_desktop.storage import Storage
from koikoi_desktop.storage.cause import refusal_of
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.widgets import Label
from koikoi_desktop.words.storage import cause_label


def export_folders() -> list[Path]:
    """Where the pending matches are exported, in order of preference: the user's documents
    folder (platformdirs: the platform's usual place for a file the user keeps), then the home
    folder, which every account has (a new account or a minimal desktop may have no documents
    folder yet, or one the disk refuses)."""
    import platformdirs

    places = [Path(platformdirs.user_documents_dir()), Path.home()]
    return list(dict.fromkeys(p.expanduser() for p in places))


def removable_folders() -> list[Path]:
    """Disks the desktop mounted for the player (a USB stick under ``/media/USER`` or
    ``/run/media/USER`` on Linux), in name order; none elsewhere."""
    import getpass
    import sys

    if not sys.platform.startswith("linux"):
        return []
    user = getpass.getuser()
    out: list[Path] = []
    for root in (Path("/media") / user, Path("/run/media") / user):
        if root.is_dir():
            out.extend(sorted(p for p in root.iterdir() if p.is_dir()))
    return out


def choosable_folders() -> list[Path]:
    """The folders the player may choose for the export ("Change folder"): the usual ones
    (:func:`export_folders`), then any disk the desktop mounted."""
    return list(dict.fromkeys([*export_folders(), *removable_folders()]))


def export_pending_somewhere(
    store: Storage, folders: list[Path], stamp: str
) -> tuple[Path, None] | tuple[Path, OSError]:
    """Export the pending matches to the first of ``folders`` that takes them, creating the
    folder when it is missing (private, 0700). Returns the file written and ``None``, or, when
    every folder refuses, the last file tried and why (the matches stay pending)."""
    assert folders
    tried: tuple[Path, OSError] | None = None
    for folder in folders:
        target = folder / f"koikoi-unsaved-matches-{stamp}.json"
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            return store.export_pending(target), None
        except OSError as exc:  # this folder refuses: the next one
            tried = (target, exc)
    assert tried is not None
    return tried


class UnsavedScene(MenuScene):
    """Retry / export / quit anyway for matches the ledger has not taken yet."""

    name = "unsaved"

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.heading = Key("ui.quit_pending.title")
        #: The outcome of the last retry or export, worded when drawn ("" for none).
        self.message: Label = ""
        #: The folders the player may export to, and the one chosen (shown on the dialog).
        self.places = choosable_folders()
        self.place = 0

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return [
            (Key("ui.quit_pending.retry"), self.retry, True),
            (Key("ui.quit_pending.export"), self.export, False),
            (Key("ui.quit_pending.change_folder"), self.change_folder, False),
            (Key("ui.quit_pending.quit"), self.app.confirm_quit, False),
        ]

    def menu_top(self) -> int:
        return int(self.size[1] * 0.42)

    def pending(self) -> int:
        store = self.app.storage
        return len(store.pending) if store is not None else 0

    def retry(self) -> None:
        store = self.app.storage
        if store is None or store.retry_pending():
            self.app.confirm_quit()
            return
        self.message = Key("ui.quit_pending.still", reason=cause_label(store.refusal_cause()))

    def chosen_folder(self) -> Path:
        return self.places[self.place]

    def change_folder(self) -> None:
        """The next folder the player may export to: documents, home, a mounted disk."""
        self.place = (self.place + 1) % len(self.places)
        self.message = ""

    def export(self, folder: Path | None = None) -> None:
        """Export to ``folder`` (a test's), else to the folder the player chose, else to the
        first usual folder that takes the file; every line names the file, written or tried."""
        store = self.app.storage
        if store is None:
            return
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        chosen = self.chosen_folder()
        others = [p for p in export_folders() if p != chosen]
        folders = [folder] if folder is not None else [chosen, *others]
        target, failed = export_pending_somewhere(store, folders, stamp)
        if failed is not None:  # every folder refuses too: say where and why, keep the matches
            self.message = Key(
                "ui.quit_pending.export_failed",
                path=str(target),
                reason=cause_label(refusal_of(failed)),
            )
            return
        self.message = Key("ui.quit_pending.exported", path=str(target))

    def on_back(self) -> None:
        self.app.stack.pop()

    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        y = self.draw_dialog(
            surface, words.t("ui.quit_pending.text", n=self.pending()), self.message
        )
        s = self.scale
        folder = words.t("ui.quit_pending.folder", path=str(self.chosen_folder()))
        at = (surface.get_width() // 2, y + int(8 * s))
        gfx.blit_text(surface, folder, theme.font_px(17, s), at, color=theme.OCHRE, anchor="center")
