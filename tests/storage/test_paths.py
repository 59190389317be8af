"""Where the files live: explicit dir > KOIKOI_DATA_DIR > platformdirs; never the CWD."""

from __future__ import annotations

import os
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
        store.write_autosave("m1", "record", {"round": 1})
        store.export("csv")
    assert list(cwd.iterdir()) == []
    assert (tmp_path / "data" / "settings.json").is_file()


# ------------------------------------------------------------------------- links and reports


def test_no_write_follows_a_link_out_of_the_data_folder(tmp_path: Path, h) -> None:
    data = tmp_path / "data"
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.sqlite3"
    victim.write_bytes(b"precious")
    data.mkdir()
    (data / "koikoi.sqlite3").symlink_to(victim)
    (data / "exports").symlink_to(outside, target_is_directory=True)
    with Storage.open(data) as store:
        assert "ledger_unavailable" in [w.key for w in store.warnings]
        assert store.record_match(h.make_record()) is False  # held in memory, said once
        with pytest.raises(OSError):
            store.export("csv")
    assert victim.read_bytes() == b"precious"
    assert [p.name for p in outside.iterdir()] == ["victim.sqlite3"]


def test_crash_reports_are_private_unique_capped_and_hide_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from koikoi_desktop import crash

    home = tmp_path / "home"
    data = home / ".local" / "share" / "koikoi-desktop"
    data.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    written = []
    for n in range(25):
        try:
            raise RuntimeError(f"boom {n} in {data}")
        except RuntimeError as exc:
            written.append(crash.write_report(exc, data, record="format koikoi-match/1"))
    folder = data / "crash"
    assert all(p.parent == folder for p in written)
    assert len(set(written)) == 25  # unique names even within one second
    kept = sorted(folder.iterdir())
    assert kept == sorted(written[-20:])  # the newest 20
    for p in kept:
        assert (p.stat().st_mode & 0o777) == 0o600
        text = p.read_text()
        assert str(home) not in text and "~/.local/share/koikoi-desktop" in text


def test_a_crash_folder_that_is_a_link_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from koikoi_desktop import crash

    data = tmp_path / "data"
    data.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (data / "crash").symlink_to(elsewhere, target_is_directory=True)
    monkeypatch.setattr(crash.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    try:
        raise ValueError("x")
    except ValueError as exc:
        path = crash.write_report(exc, data)
    assert list(elsewhere.iterdir()) == []
    assert path.parent.parent == tmp_path / "tmp"  # the per-user private folder there
    assert (path.parent.stat().st_mode & 0o777) == 0o700
    assert (path.stat().st_mode & 0o777) == 0o600


def test_crash_reports_outside_the_data_folder_go_to_one_capped_per_user_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unusable ``crash/`` (here a file) sends every report to the same per-user folder of
    the temp folder, kept to the newest 20, not to a new temp folder each time; a name taken by
    a folder others may open is not used."""
    from koikoi_desktop import crash

    data = tmp_path / "data"
    data.mkdir()
    (data / "crash").write_text("not a folder")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(crash.tempfile, "tempdir", str(tmp))
    written = []
    for n in range(25):
        try:
            raise RuntimeError(f"boom {n}")
        except RuntimeError as exc:
            written.append(crash.write_report(exc, data))
    [folder] = list(tmp.iterdir())
    assert folder.name == f"koikoi-crash-{os.getuid()}"
    assert (folder.stat().st_mode & 0o777) == 0o700
    assert sorted(folder.iterdir()) == sorted(written[-20:])
    folder.chmod(0o777)  # open to everyone: not ours to trust any more
    try:
        raise RuntimeError("again")
    except RuntimeError as exc:
        path = crash.write_report(exc, data)
    assert path.parent != folder and path.parent.parent == tmp
