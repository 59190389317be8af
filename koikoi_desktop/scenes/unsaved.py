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

from koikoi_desktop.i18n import Key, say
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.storage.cause import refusal_of
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.widgets import Label
from koikoi_desktop.words.storage import cause_label


def export_folder() -> Path:
    """Where the pending matches are exported: the user's documents folder (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_documents_dir())


class UnsavedScene(MenuScene):
    """Retry / export / quit anyway for matches the ledger has not taken yet."""

    name = "unsaved"

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.heading = Key("ui.quit_pending.title")
        #: The outcome of the last retry or export, worded when drawn ("" for none).
        self.message: Label = ""

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return [
            (Key("ui.quit_pending.retry"), self.retry, True),
            (Key("ui.quit_pending.export"), self.export, False),
            (Key("ui.quit_pending.quit"), self.app.quit, False),
        ]

    def menu_top(self) -> int:
        return int(self.size[1] * 0.42)

    def pending(self) -> int:
        store = self.app.storage
        return len(store.pending) if store is not None else 0

    def retry(self) -> None:
        store = self.app.storage
        if store is None or store.retry_pending():
            self.app.quit()
            return
        self.message = Key("ui.quit_pending.still", reason=cause_label(store.refusal_cause()))

    def export(self, folder: Path | None = None) -> None:
        store = self.app.storage
        if store is None:
            return
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        target = (folder or export_folder()) / f"koikoi-unsaved-matches-{stamp}.json"
        try:
            store.export_pending(target)
        except OSError as exc:  # that folder refuses too: say so, the matches stay pending
            self.message = Key("ui.ledger.export_failed", reason=cause_label(refusal_of(exc)))
            return
        self.message = Key("ui.quit_pending.exported", path=str(target))

    def on_back(self) -> None:
        self.app.stack.pop()

    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        s = self.scale
        self.draw_heading(surface)
        size = theme.font_px(17, s)
        y = int(h * 0.27)
        text = words.t("ui.quit_pending.text", n=self.pending())
        for line in gfx.wrap(text, size, int(w * 0.8)):
            gfx.blit_text(surface, line, size, (w // 2, y), color=theme.PAPER, anchor="center")
            y += int(24 * s)
        self.focus.draw(surface, self.app.words, font=theme.font_px(20, s))
        if self.message:
            y = h - int(60 * s)
            for line in gfx.wrap(say(self.message, self.app.words), size, int(w * 0.9))[:3]:
                gfx.blit_text(surface, line, size, (w // 2, y), color=theme.OCHRE, anchor="center")
                y += int(22 * s)
