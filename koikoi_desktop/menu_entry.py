"""Adding the unpacked Linux game to the desktop's menu without a terminal (issue 46).

The Linux archive unpacks to a folder whose program, ``koikoi-desktop``, starts by
double-click in the common file managers (GNOME Files, Dolphin, Thunar, Nemo, Caja and PCManFM
run an executable program file; a shell script such as ``install.sh`` they open in a text
editor, and a ``.desktop`` file in a download folder they refuse to launch until it is marked
trusted). So the program itself offers the install: started from an unpacked folder, with no
menu entry yet, its first screen asks "Add Koi-Koi Desktop to the menu?", and "Add to the
menu" runs the folder's own ``install.sh`` (one installer: the same script a terminal user
runs), which copies the game to ``~/.local/share/koikoi-desktop-app`` and writes the menu entry.
"Don't ask again" is kept in the settings (``offer_menu_entry``).

Only the frozen Linux build has such a folder: a game run from source or installed with pip is
never offered it (:func:`unpacked_bundle` is None).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["APP_ID", "InstallFailed", "add_to_menu", "in_menu", "installed_dir", "unpacked_bundle"]

#: The desktop file's name (packaging/linux/*.desktop) and the installed folder's.
APP_ID = "io.github.koikoi_desktop.KoiKoiDesktop"
INSTALLED = "koikoi-desktop-app"
INSTALLER = "install.sh"
#: How long the install may take (it copies about 50 MB) before it counts as failed.
TIMEOUT_S = 120.0


class InstallFailed(Exception):
    """``install.sh`` did not finish: its last line on stderr (or why it could not run)."""


def data_home() -> Path:
    """``$XDG_DATA_HOME``, or ``~/.local/share`` (as install.sh takes it)."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if value.startswith("/") else Path.home() / ".local" / "share"


def installed_dir() -> Path:
    """Where install.sh puts the game."""
    return data_home() / INSTALLED


def in_menu() -> bool:
    """Whether the desktop's menu has the game's entry (for this user)."""
    return (data_home() / "applications" / f"{APP_ID}.desktop").is_file()


def unpacked_bundle(
    executable: str | None = None, *, frozen: bool | None = None, platform: str | None = None
) -> Path | None:
    """The unpacked folder the running program was started from, when it can be installed
    from there: the frozen Linux build, with its ``install.sh`` beside it, not the installed
    copy itself. None otherwise (a run from source, pip, Windows, macOS, the installed game)."""
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    platform = sys.platform if platform is None else platform
    if not frozen or not platform.startswith("linux"):
        return None
    folder = Path(executable or sys.executable).resolve().parent
    if not (folder / INSTALLER).is_file() or folder == installed_dir().resolve():
        return None
    return folder


def add_to_menu(bundle: Path) -> Path:
    """Run ``bundle``'s install.sh (the menu entry, the icons, the copy of the game); the
    installed folder, or :class:`InstallFailed` with the script's own last line."""
    try:
        run = subprocess.run(
            ["sh", str(bundle / INSTALLER)],
            cwd=bundle,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:  # no sh, or it hung
        raise InstallFailed(str(exc)) from None
    if run.returncode != 0:
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        raise InstallFailed(lines[-1] if lines else f"install.sh exited with {run.returncode}")
    return installed_dir()
