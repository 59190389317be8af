"""Installing on Linux without a terminal (issue 46): the unpacked game, started by
double-click, offers to add itself to the desktop's menu, and "Add to the menu" runs the
folder's own install.sh (packaging/linux/install.sh, the one installer).

Through the real app with SDL's dummy driver: an unpacked folder laid out as the build lays it
out (its program here a stand-in script), the app told it is that folder's frozen program.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import menu_entry
from koikoi_desktop.i18n import say

from .test_continue import close_app, make_app

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
APP_ID = menu_entry.APP_ID

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's menu")


@pytest.fixture
def unpacked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An unpacked koikoi-desktop folder, and a fresh account (no menu entry yet)."""
    folder = tmp_path / "Downloads" / "koikoi-desktop"
    (folder / "share" / "applications").mkdir(parents=True)
    (folder / "share" / "metainfo").mkdir()
    (folder / "share" / "icons" / "hicolor" / "48x48" / "apps").mkdir(parents=True)
    shutil.copy2(LINUX / f"{APP_ID}.desktop", folder / "share" / "applications")
    shutil.copy2(LINUX / f"{APP_ID}.metainfo.xml", folder / "share" / "metainfo")
    (folder / "share" / "icons" / "hicolor" / "48x48" / "apps" / "koikoi-desktop.png").write_bytes(
        b"png"
    )
    for script in ("install.sh", "uninstall.sh"):
        shutil.copy2(LINUX / script, folder / script)
    program = folder / "koikoi-desktop"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(program))
    return folder


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        if a.stack.top is not None:
            close_app(a)


def _start(apps: list[Any], data: Path) -> Any:
    a = make_app(data)
    a.running = True
    a.first_scene()
    apps.append(a)
    return a


def _button(scene: Any, key: str) -> Any:
    [b] = [b for b in scene.buttons if getattr(b.label, "key", None) == key]
    return b


def test_the_unpacked_game_offers_the_menu_and_adds_itself(
    unpacked: Path, tmp_path: Path, apps: list[Any]
) -> None:
    home = tmp_path / "home"
    a = _start(apps, tmp_path / "data")
    offer = a.stack.top
    assert offer.name == "menu-offer" and a.stack.names() == ["title", "menu-offer"]
    offer.draw(pygame.display.get_surface())
    _button(offer, "ui.menu_offer.add").on_click()
    share = home / ".local" / "share"
    entry = share / "applications" / f"{APP_ID}.desktop"
    assert entry.is_file() and (share / "koikoi-desktop-app" / "koikoi-desktop").is_file()
    assert f'Exec="{share / "koikoi-desktop-app" / "koikoi-desktop"}"' in entry.read_text()
    line = say(offer.message, a.words)
    assert str(share / "koikoi-desktop-app") in line and "Games" in line
    _button(offer, "ui.common.continue").on_click()
    assert a.stack.names() == ["title"]
    close_app(a)
    # the next start has a menu entry: nothing asked
    again = _start(apps, tmp_path / "data")
    assert again.stack.names() == ["title"]


def test_not_now_asks_again_and_dont_ask_again_is_kept(
    unpacked: Path, tmp_path: Path, apps: list[Any]
) -> None:
    a = _start(apps, tmp_path / "data")
    _button(a.stack.top, "ui.menu_offer.later").on_click()
    assert a.stack.names() == ["title"]
    close_app(a)
    b = _start(apps, tmp_path / "data")
    assert b.stack.top.name == "menu-offer"
    _button(b.stack.top, "ui.menu_offer.never").on_click()
    assert b.stack.names() == ["title"]
    close_app(b)
    c = _start(apps, tmp_path / "data")
    assert c.stack.names() == ["title"]
    assert not (tmp_path / "home" / ".local" / "share" / "applications").exists()


def test_a_failing_install_says_why_in_one_line(
    unpacked: Path, tmp_path: Path, apps: list[Any]
) -> None:
    (unpacked / "share").rename(unpacked / "elsewhere")  # install.sh refuses this folder
    a = _start(apps, tmp_path / "data")
    offer = a.stack.top
    _button(offer, "ui.menu_offer.add").on_click()
    line = say(offer.message, a.words)
    assert line.startswith("Could not add the game to the menu (install.sh: run me from")
    assert "\n" not in line and offer.buttons[0].label.key == "ui.menu_offer.add"


def test_only_the_unpacked_frozen_linux_game_is_offered(tmp_path: Path) -> None:
    folder = tmp_path / "koikoi-desktop"
    folder.mkdir()
    (folder / "install.sh").write_text("")
    exe = str(folder / "koikoi-desktop")
    assert menu_entry.unpacked_bundle(exe, frozen=True, platform="linux") == folder.resolve()
    assert menu_entry.unpacked_bundle(exe, frozen=False, platform="linux") is None  # source
    assert menu_entry.unpacked_bundle(exe, frozen=True, platform="win32") is None
    (folder / "install.sh").unlink()
    assert menu_entry.unpacked_bundle(exe, frozen=True, platform="linux") is None


def test_a_scripted_run_is_never_asked(unpacked: Path, tmp_path: Path, apps: list[Any]) -> None:
    from koikoi_desktop import app as app_mod

    args = app_mod.parse_args(["--data-dir", str(tmp_path / "data"), "--frames", "3"])
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.first_scene()
    apps.append(a)
    assert a.stack.names() == ["title"]
