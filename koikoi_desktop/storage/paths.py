"""Where the player's files live.

The data directory is, in order of precedence:

1. an explicit directory (``Storage.open(data_dir)``, the app's ``--data-dir DIR``);
2. the ``KOIKOI_DATA_DIR`` environment variable (ignored when empty);
3. the ``platformdirs`` user data directory of the app ``koikoi-desktop`` (``appauthor=False``,
   so Windows gets ``%LOCALAPPDATA%\\koikoi-desktop``, not ``…\\koikoi-desktop\\koikoi-desktop``):

   * Linux: ``$XDG_DATA_HOME/koikoi-desktop``, by default ``~/.local/share/koikoi-desktop``;
   * Windows: ``%LOCALAPPDATA%\\koikoi-desktop``
     (``C:\\Users\\<you>\\AppData\\Local\\koikoi-desktop``);
   * macOS: ``~/Library/Application Support/koikoi-desktop``.

Nothing is ever written next to the program or into the working directory: a relative override is
made absolute once, at open, and every file name below is joined to that absolute directory.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from .cause import Cause, Refused

APP_NAME = "koikoi-desktop"
ENV_VAR = "KOIKOI_DATA_DIR"

SETTINGS_FILE = "settings.json"
DB_FILE = "koikoi.sqlite3"
EXPORTS_DIR = "exports"
CRASH_DIR = "crash"


def default_data_dir() -> Path:
    """The platformdirs user data directory for ``koikoi-desktop`` (not created here)."""
    import platformdirs  # imported lazily: the engine and most tests never need it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=False))


def resolve_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The absolute data directory: ``explicit``, else ``$KOIKOI_DATA_DIR``, else the default.

    >>> resolve_data_dir("/tmp/kk").as_posix()
    '/tmp/kk'
    """
    if explicit is not None and str(explicit) != "":
        chosen = Path(explicit)
    else:
        env = os.environ.get(ENV_VAR, "").strip()
        chosen = Path(env) if env else default_data_dir()
    return Path(os.path.abspath(chosen.expanduser()))


def safe_subdir(data_dir: Path, name: str) -> Path:
    """``data_dir/name`` as a real folder inside the data folder, created if missing.

    Raises :class:`.cause.Refused` when ``name`` exists as a link or anything but a folder
    (nothing the game writes may follow a link out of the data folder), OSError when the disk
    refuses the folder.
    """
    target = data_dir / name
    if target.is_symlink():
        raise Refused(Cause.FOLDER_LINKED)
    target.mkdir(mode=0o700, exist_ok=True)
    if not target.is_dir() or target.is_symlink():
        raise Refused(Cause.NOT_A_FOLDER)
    if os.path.realpath(target) != os.path.join(os.path.realpath(data_dir), name):
        raise Refused(Cause.OUTSIDE)
    return target


#: The permission bits no file or folder of the player's may keep: group and others (issue 46:
#: another account on the machine must not read the player's match history).
NOT_PRIVATE = 0o077


def make_private(data_dir: Path) -> None:
    """Take group and other access away from every file and folder in the data folder.

    The game itself creates everything private (``app.main`` sets the umask ``077``, so the
    ledger, its WAL and shared-memory files, saved matches, crash reports and exports are
    ``0600`` and folders ``0700``); this tightens what an older version or another program
    left readable. Links and anything but files and folders are left alone (nothing the game
    does follows a link), and so is what belongs to another account. A file the disk refuses
    to change (a read-only disk) keeps its bits: the game writes nothing there either, and
    storage says so in its own line. Windows keeps a user's profile private by its ACLs: there
    this does nothing.
    """
    if sys.platform == "win32":
        return
    uid = os.getuid()
    for folder, _dirs, files in os.walk(data_dir):  # walk does not follow links into folders
        for path in (folder, *(os.path.join(folder, name) for name in files)):
            try:
                st = os.lstat(path)
                if (
                    st.st_uid == uid
                    and (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode))
                    and st.st_mode & NOT_PRIVATE
                ):
                    os.chmod(path, stat.S_IMODE(st.st_mode) & ~NOT_PRIVATE)
            except OSError:  # gone meanwhile, or a disk that refuses: see the docstring
                continue
