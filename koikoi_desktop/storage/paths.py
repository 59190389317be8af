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
from pathlib import Path

APP_NAME = "koikoi-desktop"
ENV_VAR = "KOIKOI_DATA_DIR"

SETTINGS_FILE = "settings.json"
LEDGER_FILE = "ledger.jsonl"
LEDGER_BACKUP_FILE = "ledger.backup.jsonl"
AUTOSAVE_FILE = "autosave.json"
LOCK_FILE = "ledger.lock"
EXPORTS_DIR = "exports"


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
