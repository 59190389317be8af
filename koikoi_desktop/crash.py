"""Crash reports: what the one crash handler in ``app.main`` writes when something truly
unexpected stops the game.

Decisions:

* Reports go to ``<data folder>/crash/`` (a real folder inside the data folder: a link there is
  not followed); when that refuses, to one per-user folder in the temp folder,
  ``koikoi-crash-<uid>`` (mode 0700, used only when it is a real folder owned by this user and
  closed to others), pruned like the first; only when even that is refused (someone else made
  that name first) to a fresh folder made with ``tempfile.mkdtemp``.
* Each report is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` and mode 0600 (a report holds the
  player's match and paths), under a unique name (UTC time to the microsecond plus the process
  id), so two crashes in one second never overwrite each other and a planted link is refused.
* The home folder is shown as ``~`` in the report (it may be shared in a bug report).
* Only the newest :data:`KEEP` reports are kept; older ones are removed after a new one is
  written (they are ours: ``crash-*.txt`` regular files in our own folder).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import platform
import stat
import sys
import tempfile
import traceback
from pathlib import Path

KEEP = 20


def _home_as_tilde(text: str) -> str:
    home = os.path.expanduser("~")
    if home and home not in ("/", "~"):
        text = text.replace(home, "~")
    return text


def report_text(exc: BaseException, *, record: str | None = None) -> str:
    """The report: version, system, arguments, traceback, and the match record if any."""
    from koikoi_desktop import __version__

    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    lines = [
        f"Koi-Koi Desktop {__version__} crash report, {stamp}",
        f"python {platform.python_version()} on {platform.platform()}",
        f"argv: {sys.argv!r}",
        "",
        "".join(traceback.format_exception(exc)),
    ]
    if record:
        lines += ["match record (replay with koikoi_desktop.engine.replay_match):", record]
    return _home_as_tilde("\n".join(lines))


def _write_private(folder: Path, text: str) -> Path:
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = folder / f"crash-{stamp}-{os.getpid()}.txt"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
        handle.write(text)
    return path


def _crash_folder(data_dir: Path) -> Path:
    folder = data_dir / "crash"
    if folder.is_symlink():
        raise OSError(f"{folder} is a link")
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if folder.is_symlink() or not folder.is_dir():
        raise OSError(f"{folder} is not a folder")
    return folder


def prune(folder: Path, keep: int = KEEP) -> None:
    """Remove all but the newest ``keep`` reports in ``folder``."""
    reports = sorted(
        (p for p in folder.glob("crash-*.txt") if p.is_file() and not p.is_symlink()),
        key=lambda p: p.name,
    )
    for old in reports[:-keep] if keep > 0 else reports:
        try:
            old.unlink()
        except OSError:
            continue  # another copy removed it first, or the folder is read-only now


def write_report(exc: BaseException, data_dir: Path | None, *, record: str | None = None) -> Path:
    """Write a crash report (see the module docstring); returns its path.

    Raises OSError only when neither the data folder nor a private temp folder takes it.
    """
    text = report_text(exc, record=record)
    if data_dir is not None:
        try:
            folder = _crash_folder(data_dir)
            path = _write_private(folder, text)
        except OSError:
            pass  # the data folder refuses: a private temp folder below
        else:
            prune(folder)
            return path
    try:
        folder = _fallback_folder()
        path = _write_private(folder, text)
    except OSError:  # the per-user name is taken by someone else: a fresh private folder
        return _write_private(Path(tempfile.mkdtemp(prefix="koikoi-crash-")), text)
    prune(folder)
    return path


def _fallback_folder() -> Path:
    """The per-user crash folder in the temp folder (see the module docstring)."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    folder = Path(tempfile.gettempdir()) / f"koikoi-crash-{'user' if uid is None else uid}"
    with contextlib.suppress(FileExistsError):  # made by an earlier crash: checked below
        folder.mkdir(mode=0o700)
    info = os.lstat(folder)
    mine = uid is None or (info.st_uid == uid and not info.st_mode & 0o077)
    if not stat.S_ISDIR(info.st_mode) or not mine:
        raise OSError(f"{folder} is not this user's private folder")
    return folder


def data_dir_for(explicit: str | None, storage_dir: Path | None = None) -> Path:
    """Where a report goes: the open storage's folder, else ``--data-dir`` /
    ``KOIKOI_DATA_DIR`` / the user data folder."""
    if storage_dir is not None:
        return storage_dir
    from koikoi_desktop.storage.paths import resolve_data_dir

    return resolve_data_dir(explicit)


def tell_player(path: Path, *, scripted: bool) -> None:
    """Tell a player who started the game from a menu (no terminal) where the report is.

    Only for an interactive run with a real video driver: a scripted run (``--frames``,
    ``--screenshot``, ``--autoplay``) must never wait for a click. English only: the crash may
    have come from the translations themselves.
    """
    if scripted or os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
        return
    import pygame

    try:
        pygame.display.message_box(
            "Koi-Koi Desktop",
            f"The game stopped because of an error.\n\nA report was written to:\n{path}",
            message_type="error",
        )
    except pygame.error:  # no display at all: the line on stderr is all we can do
        return
