"""Where the files live: explicit dir > KOIKOI_DATA_DIR > platformdirs; never the CWD."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from koikoi_desktop.storage import Storage, default_data_dir, resolve_data_dir


def test_explicit_dir_wins_over_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOIKOI_DATA_DIR", str(tmp_path / "env"))
    assert resolve_data_dir(tmp_path / "explicit") == tmp_path / "explicit"


def test_environment_wins_over_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOIKOI_DATA_DIR", str(tmp_path / "env"))
    assert resolve_data_dir() == tmp_path / "env"
    assert resolve_data_dir(None) == tmp_path / "env"


def test_empty_environment_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOIKOI_DATA_DIR", "  ")
    assert resolve_data_dir() == default_data_dir()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG layout is Linux's")
def test_default_is_platformdirs_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "koikoi-desktop"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == Path.home() / ".local" / "share" / "koikoi-desktop"


def test_windows_layout_has_no_author_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """appauthor=False: %LOCALAPPDATA%\\koikoi-desktop, not ...\\koikoi-desktop\\koikoi-desktop."""
    import platformdirs.windows as win

    monkeypatch.setattr(win, "get_win_folder", lambda csidl: "C:/Users/Ann/AppData/Local")
    got = win.Windows("koikoi-desktop", appauthor=False, roaming=False).user_data_dir
    assert Path(got).parts[-2:] == ("Local", "koikoi-desktop")


def test_relative_override_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    got = resolve_data_dir("rel")
    assert got.is_absolute() and got == tmp_path / "rel"


def test_nothing_is_written_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, h
) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("KOIKOI_DATA_DIR", str(tmp_path / "data"))
    with Storage.open() as store:
        store.save_settings()
        store.record_match(h.make_record())
        store.write_autosave("record", {"round": 1})
        store.export("csv")
    assert list(cwd.iterdir()) == []
    assert (tmp_path / "data" / "settings.json").is_file()
