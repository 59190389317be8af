"""Settings, coin ledger and autosave in the user data directory: validated, atomic, never lost.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder, Storage.open(folder) as store:
...     store.settings.language, store.can_write_ledger, store.warnings
('en', True, [])

No pygame here; platformdirs is imported only when the default directory is needed.
"""

from .cause import Cause, Refused
from .models import (
    AutosaveData,
    FactorEntry,
    FutureVersionError,
    MatchRecord,
    RoundEntry,
    Settings,
    YakuEntry,
)
from .notice import Notice, NoticeKey
from .paths import default_data_dir, resolve_data_dir
from .store import Storage

__all__ = [
    "AutosaveData",
    "Cause",
    "FactorEntry",
    "FutureVersionError",
    "MatchRecord",
    "Notice",
    "NoticeKey",
    "Refused",
    "RoundEntry",
    "Settings",
    "Storage",
    "YakuEntry",
    "default_data_dir",
    "resolve_data_dir",
]
