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
from tests.mounts import read_only, tmpfs

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
    assert store.ledger.count() == 0

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
    assert not app.running and store.pending == [] and store.ledger.count() == 1


def test_quit_with_nothing_pending_quits_at_once(app: Any) -> None:
    app.running = True
    app.stack.push(__import__("koikoi_desktop.scenes", fromlist=["create"]).create("title", app))
    app.request_quit()
    assert not app.running


# ------------------------------------------------------------------ every way out (issue 46)
def _pending(a: Any) -> None:
    """One finished match the disk refuses, held in memory."""
    from tests.storage.conftest import make_record

    _refuse(a, True)
    assert not a.storage.record_match(make_record(rounds=3))
    assert len(a.storage.pending) == 1


def _click(a: Any, rect: Any) -> None:
    import pygame

    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        a.dispatch(pygame.event.Event(kind, pos=rect.center, button=1))


def _button(scene: Any, key: str) -> Any:
    from koikoi_desktop.i18n import ENGLISH

    scene.draw(__import__("pygame").display.get_surface())  # laid out as the player sees it
    return next(b for b in scene.buttons if say(b.label, ENGLISH) == ENGLISH.t(key))


def test_the_titles_quit_asks_about_matches_not_saved_yet(app: Any) -> None:
    """Before, the title's Quit ended the run at once: the matches the disk refused were lost
    with only a line on stderr, which a desktop player never sees."""
    from koikoi_desktop import scenes

    app.stack.push(scenes.create("title", app))
    _pending(app)
    app.running = True
    _click(app, _button(app.stack.top, "ui.title.quit").rect)
    assert app.stack.top.name == "unsaved" and app.running
    _click(app, _button(app.stack.top, "ui.quit_pending.quit").rect)  # the player's answer
    assert not app.running


def test_save_and_quit_saves_the_match_and_quits_asking_only_about_pending(app: Any) -> None:
    """ "Save and quit" on the pause menu quits (it went back to the title), through the same
    path: the match just saved is not asked about again, refused matches are."""
    import pygame

    t = start(app, seed=5)
    record_before = t.controller.state is not None
    assert record_before
    _pending(app)
    app.running = True
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
    assert app.stack.top.name == "pause"
    _click(app, _button(app.stack.top, "ui.pause.save_quit").rect)
    assert app.stack.top.name == "unsaved" and app.running
    _refuse(app, False)
    _click(app, _button(app.stack.top, "ui.quit_pending.retry").rect)
    assert not app.running and app.storage.pending == []
    assert app.storage.read_autosave() is not None  # the match in progress was saved


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh account: a home folder with no documents folder in it."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / ".config"))  # no user-dirs.dirs
    return folder


def _unsaved(a: Any) -> Any:
    from koikoi_desktop import scenes

    a.stack.push(scenes.create("title", a))
    _pending(a)
    a.running = True
    a.request_quit()
    assert a.stack.top.name == "unsaved"
    return a.stack.top


def test_export_on_a_fresh_account_creates_the_documents_folder(app: Any, home: Path) -> None:
    """Before, the export wrote into a documents folder that did not exist and failed with a
    line that did not name the path it tried."""
    top = _unsaved(app)
    top.export()
    [written] = list((home / "Documents").iterdir())
    assert str(written) in say(top.message, app.words)
    assert json.loads(written.read_text("utf-8"))["matches"]


def test_export_falls_back_to_home_and_names_the_path_when_everything_refuses(
    app: Any, home: Path
) -> None:
    (home / "Documents").write_text("a file where the folder should be")
    top = _unsaved(app)
    top.export()
    [written] = [p for p in home.iterdir() if p.name.startswith("koikoi-unsaved-matches-")]
    assert str(written) in say(top.message, app.words)

    written.unlink()


@pytest.fixture
def disks(tmp_path: Path) -> Iterator[Any]:
    yield from tmpfs(tmp_path)


def test_export_on_a_read_only_home_names_the_path_and_keeps_the_matches(
    app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, disks: Any
) -> None:
    home = disks(1 << 20)
    read_only(home)  # a real read-only disk: root cannot write there either
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    top = _unsaved(app)
    top.export()
    text = say(top.message, app.words)
    assert "Could not export to " + str(home) in text and "still held" in text
    assert len(app.storage.pending) == 1  # nothing lost


def test_a_signal_with_a_refusing_disk_exports_the_matches_and_says_so_in_one_line(
    app: Any, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from koikoi_desktop import scenes

    app.stack.push(scenes.create("title", app))
    _pending(app)
    app.stop_for_signal()  # what SIGTERM does at the loop's next turn
    assert not app.running
    app.close_storage()
    [line] = capsys.readouterr().err.splitlines()
    [written] = list((home / "Documents").iterdir())
    assert line.startswith("koikoi-desktop: 1 finished match") and str(written) in line, line
    assert len(json.loads(written.read_text("utf-8"))["matches"]) == 1


def test_the_player_chooses_the_export_folder(
    app: Any, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46: the player may choose the place, among the usual folders and the disks the
    desktop mounted (a USB stick); the dialog shows the folder chosen."""
    from koikoi_desktop.scenes import unsaved

    stick = tmp_path / "media" / "STICK"
    stick.mkdir(parents=True)
    monkeypatch.setattr(unsaved, "removable_folders", lambda: [stick])
    top = _unsaved(app)
    assert top.places == [home / "Documents", home, stick]
    assert top.chosen_folder() == home / "Documents"
    _button(top, "ui.quit_pending.change_folder").on_click()
    _button(top, "ui.quit_pending.change_folder").on_click()
    assert top.chosen_folder() == stick
    _button(top, "ui.quit_pending.export").on_click()
    [written] = list(stick.iterdir())
    assert str(written) in say(top.message, app.words)
    assert not (home / "Documents").exists()
    _button(top, "ui.quit_pending.change_folder").on_click()
    assert top.chosen_folder() == home / "Documents"  # round again
