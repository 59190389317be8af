"""A session whose ledger could not be opened (the database busy past its timeout at the start):
the screens that read the ledger ask :attr:`Storage.ledger`, which answers as an empty ledger,
and show the empty states; the one line that said why was told at the start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as app_mod
from koikoi_desktop import scenes
from koikoi_desktop.storage import Cause, Refused
from koikoi_desktop.storage import store as store_mod
from koikoi_desktop.storage.queries import EMPTY
from tests.ui.drawn import texts_drawn


def _app(data: Path) -> Any:
    args = app_mod.parse_args(["--data-dir", str(data), "--speed", "off", "--size", "1024x640"])
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    return a


def _drawn(scene: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every string the scene renders in one frame."""
    return " ".join(texts_drawn(lambda: scene.draw(pygame.display.get_surface()), monkeypatch))


def test_screens_read_an_unopened_ledger_as_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def busy(*_: object) -> None:
        raise Refused(Cause.BUSY)

    monkeypatch.setattr(store_mod, "open_or_repair", busy)
    a = _app(tmp_path / "data")
    try:
        store = a.storage
        assert store.db is None and store.ledger is EMPTY
        assert [w.key for w in store.warnings] == ["ledger_unavailable"]
        for name in ("title", "new-game"):  # both read the newest rating
            a.stack.push(scenes.create(name, a))
            _drawn(a.stack.top, monkeypatch)
        ledger = scenes.create("ledger", a)
        a.stack.push(ledger)
        assert "No matches yet" in _drawn(ledger, monkeypatch)
        ledger.choose("stats")  # its chip: the statistics open over the list
        assert a.stack.top.name == "ledger-stats"
        assert "Statistics appear after your first match." in _drawn(a.stack.top, monkeypatch)
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        a.storage.close()
        pygame.display.quit()
