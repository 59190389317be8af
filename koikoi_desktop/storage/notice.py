"""What storage tells the player, as a fact: a :class:`NoticeKey` and its parameters.

>>> from koikoi_desktop.storage.cause import Cause
>>> n = Notice(NoticeKey.WRITE_FAILED_LEDGER, reason=Cause.FULL)
>>> n.key, n.params
(<NoticeKey.WRITE_FAILED_LEDGER: 'write_failed_ledger'>, {'reason': <Cause.FULL: 'full'>})

Decisions:

* **No sentence inside.** A notice holds what happened (which file, a :class:`.cause.Cause`,
  counts, the name a file was kept under, the text a damaged file or SQLite gave for itself);
  its words are ``ui.storage.<key>`` in the five catalogs, chosen when a screen draws it (the
  player's language) or a command prints it (English), by
  ``koikoi_desktop.words.storage.notice_text``.
* **Every key is a member** of :class:`NoticeKey`, so a misspelt key fails mypy, and a test
  checks every member has words in every language.
* Text read from disk (a reason a file gave, a file name) may hold anything: it is made one
  drawable line here, once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .atomic import Damage
from .cause import Cause, Unresumable

__all__ = ["Notice", "NoticeKey", "NoticeParam"]


class NoticeKey(StrEnum):
    """Each line storage may give the player; its words are ``ui.storage.<value>``."""

    DATA_DIR_UNUSABLE = "data_dir_unusable"
    SETTINGS_UNREADABLE = "settings_unreadable"
    SETTINGS_FUTURE = "settings_future"
    SETTINGS_REPAIRED = "settings_repaired"
    SETTINGS_RECODED = "settings_recoded"
    SETTINGS_DAMAGED = "settings_damaged"
    LEDGER_READ_ONLY = "ledger_read_only"
    LEDGER_DB_REPAIRED = "ledger_db_repaired"
    #: The file is smaller than at its last clean close (0 bytes included): set aside, rebuilt.
    LEDGER_SHRANK = "ledger_shrank"
    LEDGER_CHECKED = "ledger_checked"
    #: A marker beside the database that is not a file the game writes (a folder, an immutable
    #: file), put aside once instead of asking every start for the whole-file check.
    LEDGER_MARKER_ASIDE = "ledger_marker_aside"
    #: While the whole file is checked before the window opens (on stderr), and why.
    LEDGER_CHECKING_UNCLEAN = "ledger_checking_unclean"
    LEDGER_CHECKING_DAMAGE = "ledger_checking_damage"
    LEDGER_FUTURE = "ledger_future"
    LEDGER_UNAVAILABLE = "ledger_unavailable"
    LEDGER_DAMAGED_READ = "ledger_damaged_read"
    LEDGER_NOT_SAVED = "ledger_not_saved"
    #: At close: finished matches the disk still refused (printed on stderr, with a count).
    LEDGER_UNRECORDED = "ledger_unrecorded"
    LEDGER_IMPORTED = "ledger_imported"
    LEDGER_IMPORT_CONFLICTS = "ledger_import_conflicts"
    LEDGER_IMPORT_BAD = "ledger_import_bad"
    ROWS_SKIPPED = "rows_skipped"
    ROWS_SET_ASIDE = "rows_set_aside"
    AUTOSAVE_FUTURE = "autosave_future"
    AUTOSAVE_DAMAGED = "autosave_damaged"
    WRITE_FAILED_SETTINGS = "write_failed_settings"
    WRITE_FAILED_LEDGER = "write_failed_ledger"
    WRITE_FAILED_AUTOSAVE = "write_failed_autosave"


#: A notice's parameter: a cause (``reason``), what is wrong with a file or a saved match
#: (``why``), a count, or text (a file name, what SQLite said of a damaged file, a ``detail``).
NoticeParam = Cause | Damage | Unresumable | int | str


@dataclass(frozen=True, slots=True)
class Notice:
    """One line for the player: ``key`` and its ``params`` (worded when shown).

    ``params["reason"]``, when present, is a :class:`.cause.Cause`; ``params["detail"]``, when
    present, is text its ``reason`` or ``why`` quotes: the operating system's words beside
    :attr:`Cause.OS <.cause.Cause.OS>`, the engine's of moves that do not replay, a preset's
    name.
    """

    key: NoticeKey
    params: dict[str, NoticeParam] = field(hash=False)

    def __init__(self, key: NoticeKey, /, **params: NoticeParam) -> None:
        clean: dict[str, NoticeParam] = {}
        for name, value in params.items():
            if name == "detail" and value == "":
                continue
            if isinstance(value, str) and not isinstance(value, Cause | Damage | Unresumable):
                # a reason may quote what was read from disk: one drawable line, whatever it held
                value = "".join(c if c.isprintable() else "?" for c in value)[:200]
            clean[name] = value
        object.__setattr__(self, "key", NoticeKey(key))
        object.__setattr__(self, "params", clean)
