"""Why the disk (or SQLite, or another copy) refused: a typed fact, never a phrase.

>>> refusal_of(OSError(errno.ENOSPC, "No space left on device")).cause
<Cause.FULL: 'full'>
>>> odd = refusal_of(OSError(errno.ESTALE, "Stale file handle"))
>>> odd.cause, odd.detail
(<Cause.OS: 'os'>, 'Stale file handle')

Decisions:

* **Facts here, words elsewhere.** Storage decides the cause from codes (SQLite's
  ``sqlite_errorcode``, ``errno``, ``statvfs``) and hands it on as a :class:`Cause`; the words
  (``ui.storage.reason.<cause>`` in the five catalogs) are chosen when a line is drawn or printed
  (``koikoi_desktop.words.storage``), in the player's language on a screen and in English on
  stderr. Only an error no member names (:attr:`Cause.OS`) carries text: the operating system's
  own words for it, as :attr:`Refused.detail`.
* **The real cause, once.** SQLite often names a full disk "disk I/O error" and a read-only folder
  "unable to open database file": :func:`real_cause` asks the file system (``statvfs``, write
  access) before the player is told, so a full disk is called full.
"""

from __future__ import annotations

import errno
import os
from enum import StrEnum
from pathlib import Path

__all__ = ["Cause", "Refused", "Unresumable", "real_cause", "refusal_of"]


class Cause(StrEnum):
    """Why storage refused; each value names its words, ``ui.storage.reason.<value>``."""

    #: The disk (or the user's quota) has no room.
    FULL = "full"
    #: The operating system denies this user the file or the folder.
    DENIED = "denied"
    #: The whole file system is mounted read-only.
    DISK_READ_ONLY = "readonly"
    #: The folder cannot be written by this user (the disk can).
    FOLDER_READ_ONLY = "folder_readonly"
    #: The database (or its journal) is a link: nothing the game writes follows a link.
    LINKED = "linked"
    #: A folder the game writes into is a link.
    FOLDER_LINKED = "folder_linked"
    #: A folder the game writes into resolves to a place outside the data folder.
    OUTSIDE = "outside"
    #: A file stands where a folder should be.
    NOT_A_FOLDER = "not_a_folder"
    #: Another copy held the database past the busy timeout.
    BUSY = "busy"
    #: A table is locked by another connection of this copy.
    LOCKED = "locked"
    #: The disk reported an input/output error (and is not full: see :func:`real_cause`).
    IO = "io"
    #: SQLite cannot open the database file (and the folder is writable).
    CANT_OPEN = "cant_open"
    #: The database file is damaged (found while writing; the next start repairs it).
    DAMAGED = "damaged"
    #: The database was written by a newer version of the game: shown, never written.
    FUTURE = "future"
    #: No database is open this run (the folder refused it at start).
    NOT_OPEN = "not_open"
    #: An operating-system error no other member names; :attr:`Refused.detail` holds its text.
    OS = "os"


class Refused(OSError):
    """The disk or another copy refused; ``cause`` says why, ``detail`` is the operating
    system's own text for an error of no known kind (:attr:`Cause.OS`, else "").

    An ``OSError``: like a full disk under a plain file, it is an expected failure of storage.
    ``str()`` of it is for logs and tracebacks; the player is told ``cause`` in words.
    """

    def __init__(self, cause: Cause, detail: str = "") -> None:
        detail = _printable(detail) if cause is Cause.OS else ""
        super().__init__(f"{cause.value}: {detail}" if detail else cause.value)
        self.cause = cause
        self.detail = detail


def _printable(text: str) -> str:
    """One short drawable line of what the operating system said."""
    line = "".join(c if c.isprintable() else "?" for c in text)
    return line.strip().rstrip(".")[:120]


class Unresumable(StrEnum):
    """Why a saved match cannot be resumed; words: ``ui.storage.unresumable.<value>``."""

    #: Its row is not a saved match at all (no record text, or one of absurd size).
    NOT_A_SAVE = "not_a_save"
    NO_ID = "no_id"
    #: It names seats (opponents) that do not exist.
    UNKNOWN_SEATS = "unknown_seats"
    #: Its player names cannot be shown (control characters, too long...).
    NAMES = "names"
    #: Its other details do not read.
    DETAILS = "details"
    #: Its moves do not replay; the detail is the engine's own account of where.
    MOVES = "moves"
    #: It was played under a preset this version does not have; the detail is its name.
    PRESET = "preset"


#: ``errno`` values -> the cause they name.
_ERRNO: dict[int, Cause] = {
    errno.ENOSPC: Cause.FULL,
    errno.EACCES: Cause.DENIED,
    errno.EPERM: Cause.DENIED,
    errno.EROFS: Cause.DISK_READ_ONLY,
    errno.EIO: Cause.IO,
    errno.EEXIST: Cause.NOT_A_FOLDER,  # mkdir over a file
    errno.ENOTDIR: Cause.NOT_A_FOLDER,
}
if hasattr(errno, "EDQUOT"):
    _ERRNO[errno.EDQUOT] = Cause.FULL


def refusal_of(exc: BaseException) -> Refused:
    """The refusal an error stands for: a :class:`Refused` as it is, an ``OSError`` by its
    ``errno``; anything else is :attr:`Cause.OS` with its own text."""
    if isinstance(exc, Refused):
        return exc
    code = getattr(exc, "errno", None)
    cause = _ERRNO.get(code) if isinstance(code, int) else None
    if cause is not None:
        return Refused(cause)
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return Refused(Cause.OS, str(text))


#: Free bytes under which a refusal on a disk is taken for a full disk.
NEARLY_FULL = 64 * 1024


def real_cause(refused: Refused, folder: Path) -> Refused:
    """The cause behind SQLite's (or the OS's) word for a refusal, asked of the file system:
    a full disk is often told as an I/O error, and a read-only folder as a file that cannot be
    opened. A linked file, a newer version's database and damage are what they say. Always a
    new exception (it may be raised from the one it was given)."""
    same = Refused(refused.cause, refused.detail)
    if refused.cause in (Cause.LINKED, Cause.FUTURE, Cause.DAMAGED):
        return same
    try:
        fs = os.statvfs(folder)
    except (OSError, AttributeError):  # no statvfs on Windows: the code's cause stands
        return same
    if fs.f_flag & os.ST_RDONLY:
        return Refused(Cause.DISK_READ_ONLY)
    if not os.access(folder, os.W_OK):
        return Refused(Cause.FOLDER_READ_ONLY)
    if fs.f_bavail * fs.f_frsize < NEARLY_FULL:
        return Refused(Cause.FULL)
    return same
