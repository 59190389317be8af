"""A disk that refuses the ledger during play, through the real app: the player is told at the
match's end that it is not saved yet, and again at quit with a choice to retry or export it;
nothing held in memory is dropped without a word."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.i18n import say

from .test_continue import close_app, make_app, play_until, start


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    a = make_app(tmp_path / "data")
    yield a
    if a.stack.top is not None:
        close_app(a)


def _refuse(a: Any, on: bool) -> None:
    # SQLite's own "attempt to write a readonly database" on the game's connection
    a.storage.db.conn.execute(f"PRAGMA query_only = {int(on)}")


def test_refused_match_is_told_at_its_end_and_at_quit_then_exported_and_retried(
    app: Any, tmp_path: Path
) -> None:
    t = start(app, seed=5, preset="seed-001")
    _refuse(app, True)
    said: list[str] = []
    c = t.controller
    real_say = c.say
    c.say = lambda text, seconds=4.0: (  # type: ignore[method-assign]
        said.append(say(text, app.words)),  # a message is worded when shown
        real_say(text, seconds),
    )
    play_until(app, t, lambda: app.stack.top.name == "match-result", 6000)
    store = app.storage
    assert len(store.pending) == 1  # held in memory
    assert any("not saved in the match ledger yet" in s for s in said), said
    result = app.stack.top  # the screen the player is looking at says it too
    assert "not saved in the match ledger yet" in result.unsaved_text()
    import pygame

    result.draw(pygame.display.get_surface())
    assert store.ledger_count() == 0

    app.running = True
    app.request_quit()  # the window's close button
    top = app.stack.top
    assert top.name == "unsaved" and app.running  # asked, not quit
    top.retry()  # still refused: says so, stays
    assert app.stack.top is top and "still refuses" in say(top.message, app.words) and app.running
    out = tmp_path / "elsewhere"
    out.mkdir()
    top.export(out)
    [exported] = list(out.iterdir())
    doc = json.loads(exported.read_text("utf-8"))
    assert [m["match_id"] for m in doc["matches"]] == [store.pending[0][0].match_id]
    assert str(exported) in say(top.message, app.words)

    _refuse(app, False)  # the disk takes writes again
    top.retry()
    assert not app.running and store.pending == [] and store.ledger_count() == 1


def test_quit_with_nothing_pending_quits_at_once(app: Any) -> None:
    app.running = True
    app.stack.push(__import__("koikoi_desktop.scenes", fromlist=["create"]).create("title", app))
    app.request_quit()
    assert not app.running
