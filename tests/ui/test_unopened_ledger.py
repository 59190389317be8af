"""A session whose ledger could not be opened (the database busy past its timeout at the start):
the screens that read the ledger ask :attr:`Storage.ledger`, which answers as an empty ledger,
and show the empty states; the one line that said why was told at the start."""

from __future__ import annotations

from pathlib import Path

import pygame

from koikoi_desktop import scenes
from koikoi_desktop.storage import Cause, Refused
from koikoi_desktop.storage import store as store_mod
from koikoi_desktop.storage.queries import EMPTY

from .test_ledger_scene import drawn, make_app


def test_screens_read_an_unopened_ledger_as_empty(tmp_path: Path, monkeypatch) -> None:
    def busy(*_: object) -> None:
        raise Refused(Cause.BUSY)

    monkeypatch.setattr(store_mod, "open_or_repair", busy)
    a = make_app(tmp_path / "data")
    try:
        store = a.storage
        assert store.db is None and store.ledger is EMPTY
        assert [w.key for w in store.warnings] == ["ledger_unavailable"]
        surface = pygame.display.get_surface()
        for name in ("title", "new-game"):
            a.stack.push(scenes.create(name, a))
            a.stack.top.draw(surface)
        ledger = scenes.create("ledger", a)
        a.stack.push(ledger)
        assert "No matches yet" in " ".join(drawn(ledger, monkeypatch))
        ledger.set_view("stats")
        assert "Statistics appear after your first match." in " ".join(drawn(ledger, monkeypatch))
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        a.storage.close()
        pygame.display.quit()
