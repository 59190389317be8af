"""The game as a desktop user meets its start and its files (issue 46).

* A start with no display finds that out before it touches the data folder, and leaves the
  folder exactly as it found it (before, it opened the ledger, marked it open and exited
  without closing it, so the next start checked the whole ledger and said it "was not closed
  cleanly last time").
* Every file and folder the game creates is readable by the player only (0600 and 0700), also
  when the desktop's umask is the usual 022; what an older version left readable is tightened.
* ``--version``; the window's title is the menu entry's name, in the player's language.
"""

from __future__ import annotations

import configparser
import hashlib
import stat
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from koikoi_desktop import __version__, app
from koikoi_desktop.app import LANG_CODES
from koikoi_desktop.i18n import Words

from .test_desktop_session import child_env

ROOT = Path(__file__).resolve().parents[2]
DESKTOP_FILE = ROOT / "packaging" / "linux" / "io.github.koikoi_desktop.KoiKoiDesktop.desktop"


def _scripted(**extra: str) -> dict[str, str]:
    return child_env(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **extra)


def _run(
    args: list[str], env: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """The game as a process, started with the desktop's usual umask (022): whatever it
    creates is private because the game makes it so, not because the test's umask did."""
    return subprocess.run(
        [sys.executable, "-m", "koikoi_desktop", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        umask=0o022,
    )


def _snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Every entry below ``folder``: its mode and (for a file) its bytes' digest."""
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        out[str(path.relative_to(folder))] = (st.st_mode, digest)
    return out


@pytest.mark.slow  # four starts as processes
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is Linux's")
def test_a_start_with_no_display_leaves_the_data_folder_as_it_found_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = _run(["--data-dir", str(data), "--frames", "2"], _scripted())
    assert first.returncode == 0, first.stderr
    before = _snapshot(data)
    assert "koikoi.sqlite3" in before

    nodisplay = _run(["--data-dir", str(data)], child_env())
    assert nodisplay.returncode == 1
    assert len(nodisplay.stderr.splitlines()) == 1, nodisplay.stderr
    assert _snapshot(data) == before

    # and the next start finds the ledger closed cleanly: no whole-file check, no line
    again = _run(["--data-dir", str(data), "--frames", "2"], _scripted())
    assert again.returncode == 0, again.stderr
    assert "not closed cleanly" not in again.stderr, again.stderr

    # a folder that did not exist is not made by a start that cannot show the game
    fresh = tmp_path / "never"
    assert _run(["--data-dir", str(fresh)], child_env()).returncode == 1
    assert not fresh.exists()


def _not_private(folder: Path) -> list[str]:
    bad = []
    for path in [folder, *folder.rglob("*")]:
        mode = path.lstat().st_mode
        if stat.S_IMODE(mode) & 0o077:
            bad.append(f"{path.relative_to(folder.parent)} {stat.filemode(mode)}")
    return bad


@pytest.mark.slow  # a recorded computer match, a crash and an export, each a process
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_every_file_the_game_creates_is_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    match = _run(
        [
            *("--autoplay", "--record", "--seed", "3", "--speed", "off"),
            *("--preset", "seed-003", "--data-dir", str(data)),
        ],
        _scripted(),
    )
    assert match.returncode == 0, match.stderr
    # a saved match (the table's autosave) and the settings file
    saved = _run(
        ["--data-dir", str(data), "--scene", "table", "--seed", "6", "--frames", "120"],
        _scripted(),
    )
    assert saved.returncode == 0, saved.stderr
    crashed = _run(["--data-dir", str(data), "--frames", "5"], _scripted(KOIKOI_TEST_CRASH="1"))
    assert crashed.returncode == 1 and "report written to" in crashed.stderr, crashed.stderr
    out = tmp_path / "exports"
    out.mkdir(mode=0o755)
    export = _run(
        ["--data-dir", str(data), "--export-ledger", str(out / "ledger.json")], child_env()
    )
    assert export.returncode == 0, export.stderr

    names = {p.name for p in data.rglob("*")}
    assert "koikoi.sqlite3" in names, names
    assert any(n.endswith(".txt") or "crash" in n for n in names), names
    assert _not_private(data) == []
    assert _not_private(out)[1:] == []  # the player's own folder keeps its bits; the file not
    assert stat.S_IMODE((out / "ledger.json").stat().st_mode) == 0o600


@pytest.mark.slow  # two starts as processes
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_what_an_older_version_left_readable_is_tightened(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert _run(["--data-dir", str(data), "--frames", "2"], _scripted()).returncode == 0
    for path in [data, *data.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("not the game's")
    outside.chmod(0o644)
    (data / "link").symlink_to(outside)

    run = _run(["--data-dir", str(data), "--frames", "2"], _scripted())
    assert run.returncode == 0, run.stderr
    assert [p for p in _not_private(data) if not p.startswith("data/link ")] == []
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644  # a link is not followed


def test_version_prints_the_version_and_exits_0() -> None:
    run = _run(["--version"], child_env())
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"koikoi-desktop {__version__}"


def _menu_names() -> dict[str, str]:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(DESKTOP_FILE, encoding="utf-8")
    section = entry["Desktop Entry"]
    return {code: section.get(f"Name[{code}]", section["Name"]) for code in LANG_CODES}


def test_the_menu_entry_names_the_game_as_the_catalogs_do() -> None:
    """The desktop file is a copy that must stay: each language's menu name is the catalog's."""
    assert _menu_names() == {code: Words(code).t("app.name") for code in LANG_CODES}


def test_the_window_title_is_the_menu_name_in_the_players_language(tmp_path: Path) -> None:
    game = app.App(
        app.parse_args(["--data-dir", str(tmp_path / "data"), "--frames", "1", "--lang", "ja"])
    )
    app.sdl_defaults(game.args)
    game.open_storage()
    game.open_window()
    try:
        menu = _menu_names()
        assert pygame.display.get_caption()[0] == menu["ja"]
        game.prefs.speak("uk")  # the settings screen's change, mid-run
        assert pygame.display.get_caption()[0] == menu["uk"]
    finally:
        game.close_storage()
        pygame.display.quit()
