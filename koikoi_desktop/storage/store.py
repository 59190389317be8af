"""``Storage``: the player's settings, coin ledger and autosave, kept safe on disk.

Files in the data directory (see :mod:`.paths`): ``settings.json``, ``ledger.jsonl`` (one
:class:`~.models.MatchRecord` per line) with ``ledger.backup.jsonl`` (its last good copy),
``autosave.json``, and ``ledger.lock``.

Decisions (the *why* behind the behaviour the tests check):

* **Every write is atomic** (:func:`.atomic.atomic_write_bytes`). The ledger is rewritten whole at
  each match end rather than appended to (about 2.4 kB per 12-round match: 1000 matches are
  2.4 MB, rewritten in ~50 ms; ``benchmarks/storage_io.py``), so a crash can never leave half a
  line: the file on disk is always one committed version. The backup is written *after* the main
  file, with the same content: a crash between the two leaves a good main file and a
  one-match-older backup.
* **Damage**: a file that fails to decode, parse or validate is never deleted. Settings: each bad
  field falls back to its default, the original gets a timestamped second name (hard link or
  copy), then the repaired file atomically replaces it. Ledger: every valid line is kept, merged
  (by ``match_id``) with the valid lines of the backup, and the damaged original is kept the
  same way before the repaired ledger replaces it. Each case adds one player-facing line to
  :attr:`Storage.warnings`.
* **Future versions**: a file with a newer ``schema_version`` is left untouched and never
  overwritten during the session. Settings then start from defaults; the ledger is shown as far
  as it can be read but nothing is recorded; the autosave is neither resumed nor replaced.
* **A refusing disk** (full, read-only, permission denied): the game goes on with what it has in
  memory, warns once (until every file that failed has been written again), and every later
  write retries what is pending (a match not yet saved stays in :attr:`Storage.ledger`).
* **Two copies**: the first to open takes the OS lock on ``ledger.lock``. The other one has
  ``can_write_ledger = False``: it shows the ledger read-only, records nothing and writes no
  autosave (it would overwrite the first copy's match); settings stay writable (atomic, last
  writer wins). The lock dies with its process, so a crash never leaves a stale lock behind.
* A data directory that cannot be created (a file in the way, no permission) gives one warning
  and a session that keeps everything in memory (``persistent = False``).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from . import paths
from .atomic import (
    BadFile,
    LedgerLock,
    atomic_write_bytes,
    decode_text,
    fsync_dir,
    keep_aside,
    parse_json,
    quarantine,
    read_bytes,
    remove_stale_temps,
)
from .background import BackgroundWriter
from .models import (
    LEDGER_VERSION,
    SETTINGS_VERSION,
    AutosaveData,
    FutureVersionError,
    MatchRecord,
    Settings,
    load_settings_tolerant,
    migrate,
    schema_version_of,
    to_plain,
)

if TYPE_CHECKING:
    from .stats import LedgerStats

SETTINGS_LIMIT = 1024 * 1024  # a settings file is ~1 kB; a megabyte of it is junk
AUTOSAVE_LIMIT = 8 * 1024 * 1024

FileKind = Literal["settings", "ledger", "autosave"]

_WHAT = {"settings": "your settings", "ledger": "the coin ledger", "autosave": "the autosave"}


class Notice(str):
    """A one-line message for the player; also carries a ``key`` and ``params`` for translation.

    ``str(notice)`` is the English sentence; a UI with an i18n catalog can instead show
    ``t("ui.storage." + notice.key, **notice.params)``.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, text: str, **params: Any) -> Notice:
        obj = super().__new__(cls, text.format(**params))
        obj.key = key
        obj.params = params
        return obj


def _reason(exc: BaseException) -> str:
    code = getattr(exc, "errno", None)
    if code == errno.ENOSPC or code == getattr(errno, "EDQUOT", -1):
        return "the disk is full"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if code == errno.EROFS:
        return "the disk is read-only"
    text = getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__
    return str(text).rstrip(".").lower()


class Storage:
    """Settings, coin ledger and autosave of one data directory. Open it with :meth:`open`.

    Not thread-safe: call it from one thread (the UI's), or guard it with a lock.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.settings = Settings()
        self.ledger: list[MatchRecord] = []
        self.warnings: list[Notice] = []
        #: False when the data directory is unusable: everything lives in memory this session.
        self.persistent = True
        self._lock = LedgerLock(data_dir / paths.LOCK_FILE)
        self._lock_state: Literal["held", "busy", "unavailable"] = "unavailable"
        self._frozen: set[FileKind] = set()  # newer-version files we must not overwrite
        self._dirty: set[FileKind] = set()  # in memory, not yet on disk
        self._backup_dirty = False
        self._failing: set[FileKind] = set()  # warned about a failed write, not yet succeeded
        self._warned: set[str] = set()
        self._autosaver: BackgroundWriter | None = None

    # ------------------------------------------------------------------------------- opening

    @classmethod
    def open(cls, data_dir: str | os.PathLike[str] | None = None) -> Storage:
        """Open (creating if needed) the data directory: lock, load, repair, write first settings.

        Never raises for anything found on disk: problems become :attr:`warnings`.
        """
        store = cls(paths.resolve_data_dir(data_dir))
        try:
            store.data_dir.mkdir(parents=True, exist_ok=True)
            if not store.data_dir.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(store.data_dir))
        except OSError as exc:
            store.persistent = False
            store._warn(
                "data_dir_unusable",
                "Cannot use the data folder {path} ({reason}): nothing will be saved this session.",
                path=str(store.data_dir),
                reason=_reason(exc),
            )
            return store
        store._try_lock()
        if store._lock_state == "busy":
            store._warn(
                "another_copy",
                "Another copy of Koi-Koi Desktop is running: this one will not record matches "
                "in the ledger or autosave.",
            )
        store._load_settings()
        store._load_ledger()
        if store._lock_state == "held":
            remove_stale_temps(store.data_dir)
        store._flush_pending()
        return store

    def close(self) -> None:
        """Write whatever is still pending and release the ledger lock."""
        if self._autosaver is not None:
            self._autosaver.close()
            atexit.unregister(self._autosaver.close)
            self._collect_background()
            self._autosaver = None
        self._flush_pending()
        self._lock.release()
        if self._lock_state == "held":
            self._lock_state = "unavailable"

    def __enter__(self) -> Storage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------ properties

    @property
    def can_write_ledger(self) -> bool:
        """True when this copy records matches (False: another copy holds the lock, or the ledger
        file is from a newer version of the game)."""
        return self._lock_state != "busy" and "ledger" not in self._frozen

    def path(self, kind: FileKind) -> Path:
        name = {
            "settings": paths.SETTINGS_FILE,
            "ledger": paths.LEDGER_FILE,
            "autosave": paths.AUTOSAVE_FILE,
        }[kind]
        return self.data_dir / name

    @property
    def backup_path(self) -> Path:
        return self.data_dir / paths.LEDGER_BACKUP_FILE

    @property
    def lock_state(self) -> Literal["held", "busy", "unavailable"]:
        """``held`` (this copy records), ``busy`` (another copy does), ``unavailable`` (no lock
        file could be made, e.g. a read-only folder; retried at each ledger write)."""
        return self._lock_state

    @property
    def pending(self) -> frozenset[str]:
        """What is held in memory only, waiting for the disk to accept a write."""
        return frozenset(self._dirty)

    # -------------------------------------------------------------------------------- settings

    def save_settings(self) -> bool:
        """Write :attr:`settings` (True when on disk). Never raises for disk trouble.

        The same :class:`Settings` object stays in place (scenes may hold it). It is validated
        first: assignments are checked as they happen, but a dict edited in place is not, and a
        value the model rejects raises pydantic's ValidationError here, before anything is written.
        """
        Settings.model_validate(self.settings.model_dump(warnings=False))
        self._dirty.add("settings")
        self._flush_pending()
        return "settings" not in self._dirty

    def _load_settings(self) -> None:
        path = self.path("settings")
        try:
            raw = read_bytes(path, limit=SETTINGS_LIMIT)
        except BadFile as exc:
            self._settings_damaged(path, str(exc))
            return
        except OSError as exc:
            self._frozen.add("settings")
            self._warn(
                "settings_unreadable",
                "Cannot read your settings ({reason}); defaults are used and the file is left "
                "alone.",
                reason=_reason(exc),
            )
            return
        if raw is None:
            self._dirty.add("settings")  # the first start writes the defaults
            return
        try:
            text, recoded = decode_text(raw)
            data = parse_json(text)
        except BadFile as exc:
            self._settings_damaged(path, str(exc))
            return
        if not isinstance(data, dict):
            self._settings_damaged(path, "not a settings object")
            return
        original_version = _version_or(data, -1)
        try:
            data = migrate("settings", data)
            bad_version = False
        except FutureVersionError:
            self._frozen.add("settings")
            self._warn(
                "settings_future",
                "Your settings were saved by a newer version of Koi-Koi Desktop: this version uses "
                "defaults and leaves the file unchanged.",
            )
            return
        except ValueError:
            bad_version = True  # a garbled version number: read the fields anyway
        settings, dropped = load_settings_tolerant(data)
        if bad_version:
            dropped = sorted({*dropped, "schema_version"})
        self.settings = settings
        migrated = original_version != SETTINGS_VERSION
        if dropped or recoded:
            aside = self._keep_aside(path, kind="settings")
            if dropped:
                self._warn(
                    "settings_repaired",
                    "Some settings were invalid and reset to defaults ({fields}); the old file was "
                    "kept as {name}.",
                    fields=", ".join(dropped),
                    name=aside,
                )
            else:
                self._warn(
                    "settings_recoded",
                    "Your settings file was not UTF-8 ({encoding}); it was converted and the "
                    "original kept as {name}.",
                    encoding=recoded,
                    name=aside,
                )
            self._dirty.add("settings")
        elif migrated:
            self._dirty.add("settings")

    def _settings_damaged(self, path: Path, why: str) -> None:
        aside = self._keep_aside(path, kind="settings")
        self._warn(
            "settings_damaged",
            "Your settings file was damaged ({why}); defaults are used and the old file was kept "
            "as {name}.",
            why=why,
            name=aside,
        )
        self._dirty.add("settings")

    # ---------------------------------------------------------------------------------- ledger

    def record_match(self, rec: MatchRecord) -> bool:
        """Add a finished match to the ledger and write it. True once it is safely on disk.

        Returns False without recording when another copy holds the ledger (or the ledger is
        from a newer version); False with the match kept in memory (and retried at every later
        write) when the disk refuses it.
        """
        if not self.can_write_ledger:
            return False
        rec = MatchRecord.model_validate(rec.model_dump())
        if any(r.match_id == rec.match_id for r in self.ledger):
            return "ledger" not in self._dirty  # already recorded: recording twice is a no-op
        self.ledger.append(rec)
        self._dirty.add("ledger")
        self._flush_pending()
        return "ledger" not in self._dirty

    def _load_ledger(self) -> None:
        main = self.path("ledger")
        main_raw, main_err = self._read_for_ledger(main)
        if main_err is not None:
            self._frozen.add("ledger")
            self._warn(
                "ledger_unreadable",
                "Cannot read the coin ledger ({reason}): it is left alone and this session's "
                "matches are not recorded.",
                reason=main_err,
            )
            return
        main_scan = _scan_ledger(main_raw) if main_raw is not None else None
        if main_scan is not None and main_scan.future:
            self._frozen.add("ledger")
            self.ledger = main_scan.records
            self._warn(
                "ledger_future",
                "The coin ledger was written by a newer version of Koi-Koi Desktop: it is left "
                "unchanged and this session's matches are not recorded.",
            )
            return
        if main_scan is not None and main_scan.clean:
            self.ledger = main_scan.records
            self._recover_shrunk_ledger(main, len(main_raw or b""))
            return
        backup_raw, _ = self._read_for_ledger(self.backup_path)
        backup_scan = _scan_ledger(backup_raw) if backup_raw is not None else None
        backup_records = backup_scan.records if backup_scan and not backup_scan.future else []
        if main_scan is None:
            if not backup_records:
                return  # a fresh ledger
            self.ledger = sorted(backup_records, key=lambda r: r.date)
            if self._lock_state != "busy":
                self._dirty.add("ledger")
            self._warn(
                "ledger_restored",
                "The coin ledger file was missing; {count} matches were restored from its backup.",
                count=len(self.ledger),
            )
            return
        merged = {r.match_id: r for r in main_scan.records}
        for rec in backup_records:
            merged.setdefault(rec.match_id, rec)
        self.ledger = sorted(merged.values(), key=lambda r: r.date)
        if self._lock_state == "busy":
            self._warn(
                "ledger_damaged_readonly",
                "The coin ledger is damaged: {count} matches could be read; the copy of the game "
                "that records matches will repair it.",
                count=len(self.ledger),
            )
            return
        if not (main_scan.bad or main_scan.recoded):  # only older-version lines: migrate quietly
            self._keep_aside(main, label="before-upgrade")
            self._dirty.add("ledger")
            return
        aside = self._keep_aside(main)
        self._dirty.add("ledger")
        if main_scan.bad:
            self._warn(
                "ledger_repaired",
                "The coin ledger was damaged: {count} matches were recovered ({bad} unreadable "
                "lines); the damaged file was kept as {name}.",
                count=len(self.ledger),
                bad=main_scan.bad,
                name=aside,
            )
        else:
            self._warn(
                "ledger_recoded",
                "The coin ledger was not UTF-8 ({encoding}); it was converted and the original "
                "kept as {name}.",
                encoding=main_scan.recoded or "?",
                name=aside,
            )

    def _recover_shrunk_ledger(self, main: Path, size: int) -> None:
        """A clean ledger that lost whole lines (emptied, or cut at a line end) gets them back.

        The ledger only grows and its backup is written after it, so the backup is never larger
        than the ledger unless the ledger lost matches; only then is the backup read (one stat
        at a normal start). Its missing matches are merged back and the shrunk file is kept.
        """
        try:
            if self.backup_path.stat().st_size <= size:
                return
        except OSError:
            return
        backup_raw, _ = self._read_for_ledger(self.backup_path)
        scan = _scan_ledger(backup_raw) if backup_raw is not None else None
        if scan is None or scan.future:
            return
        have = {r.match_id for r in self.ledger}
        missing = [r for r in scan.records if r.match_id not in have]
        if not missing:
            return
        self.ledger = sorted([*self.ledger, *missing], key=lambda r: r.date)
        if self._lock_state == "busy":
            self._warn(
                "ledger_damaged_readonly",
                "The coin ledger is damaged: {count} matches could be read; the copy of the game "
                "that records matches will repair it.",
                count=len(self.ledger),
            )
            return
        self._keep_aside(main)
        self._dirty.add("ledger")
        self._warn(
            "ledger_restored",
            "The coin ledger file was missing; {count} matches were restored from its backup.",
            count=len(missing),
        )

    def _read_for_ledger(self, path: Path) -> tuple[bytes | None, str | None]:
        try:
            return read_bytes(path), None
        except BadFile as exc:
            return None, str(exc)
        except OSError as exc:
            return None, _reason(exc)

    def _ledger_bytes(self) -> bytes:
        lines = [rec.model_dump_json() for rec in self.ledger]
        return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""

    # -------------------------------------------------------------------------------- autosave

    def write_autosave(self, text: str, meta: dict[str, Any], *, background: bool = False) -> bool:
        """Save the match in progress (the engine's record text + UI metadata).

        Returns True once it is on disk. ``background=True`` (for the table, after every move)
        hands the write to a worker thread and returns True when it was queued; a failure there
        is reported in :attr:`warnings` at the next storage call, like any other.
        """
        self._collect_background()
        if not self._may_autosave():
            return False
        data = AutosaveData(record=text, meta=to_plain(meta))
        payload = data.model_dump_json(indent=1).encode("utf-8")
        if background:
            if self._autosaver is None:
                path = self.path("autosave")
                self._autosaver = BackgroundWriter(lambda b: atomic_write_bytes(path, b))
                # the worker is a daemon thread: finish its last write even without close()
                atexit.register(self._autosaver.close)
            self._autosaver.submit(payload)
            if self._dirty:
                self._flush_pending()
            return True
        self._settle_background()
        ok = self._write("autosave", self.path("autosave"), payload)
        self._flush_pending()
        return ok

    def _collect_background(self) -> None:
        if self._autosaver is None:
            return
        for result in self._autosaver.take_results():
            if result is None:
                self._failing.discard("autosave")
            else:
                self._write_failed("autosave", result)

    def _settle_background(self) -> None:
        """Let a queued background autosave land before touching the file on this thread."""
        if self._autosaver is not None:
            self._autosaver.drain()
            self._collect_background()

    def read_autosave(self) -> AutosaveData | None:
        """The saved match in progress, or None (none, damaged — kept aside — or newer).

        A second copy of the game (``can_write_ledger`` False) gets None: the autosave belongs to
        the copy that holds the lock, which may be playing that very match.
        """
        if not self._may_autosave():
            return None
        self._settle_background()
        path = self.path("autosave")
        try:
            raw = read_bytes(path, limit=AUTOSAVE_LIMIT)
            if raw is None:
                return None
            text, _ = decode_text(raw)
            data = parse_json(text)
            if not isinstance(data, dict):
                raise BadFile("not an autosave object")
            data = migrate("autosave", data)
            return AutosaveData.model_validate(data)
        except FutureVersionError:
            self._frozen.add("autosave")
            self._warn(
                "autosave_future",
                "The saved match was made by a newer version of Koi-Koi Desktop: it is left "
                "unchanged and cannot be continued here.",
            )
            return None
        except (BadFile, ValueError, ValidationError) as exc:
            self.discard_autosave(_short(exc))
            return None
        except OSError as exc:
            self._warn_once(
                "autosave_unreadable",
                "Cannot read the saved match ({reason}).",
                reason=_reason(exc),
            )
            return None

    def has_autosave(self) -> bool:
        """Whether a saved match can be offered as Continue (reads and validates it)."""
        return self.read_autosave() is not None

    def discard_autosave(self, reason: str) -> None:
        """Keep an autosave that cannot be resumed aside (renamed, never deleted) and say so."""
        if not self._may_autosave():
            return
        self._settle_background()
        path = self.path("autosave")
        if not path.exists():
            return
        aside = self._quarantine(path)
        self._warn(
            "autosave_damaged",
            "The saved match could not be resumed ({why}); it was kept as {name}.",
            why=reason,
            name=aside,
        )

    def clear_autosave(self) -> None:
        """Remove the autosave once its match is over (or abandoned on purpose)."""
        if not self._may_autosave():
            return
        self._settle_background()  # a queued write must not bring it back afterwards
        path = self.path("autosave")
        try:
            path.unlink()
        except FileNotFoundError:
            self._failing.discard("autosave")
            return
        except OSError as exc:
            self._write_failed("autosave", exc)
            return
        self._failing.discard("autosave")
        fsync_dir(self.data_dir)

    def _may_autosave(self) -> bool:
        return self.persistent and "autosave" not in self._frozen and self._lock_state != "busy"

    # ------------------------------------------------------------------------- stats and export

    def stats(self, *, include_practice: bool = False) -> LedgerStats:
        """Lifetime statistics of :attr:`ledger` (see :func:`.stats.compute_stats`)."""
        from .stats import compute_stats

        return compute_stats(self.ledger, include_practice=include_practice)

    def export(
        self, fmt: Literal["csv", "json"], path: str | os.PathLike[str] | None = None
    ) -> Path:
        """Export the ledger (default: ``exports/ledger-<UTC time>.<fmt>`` in the data folder).

        Raises OSError when the file cannot be written (the UI reports it: the player asked).
        """
        from .export import export_csv, export_json

        if path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            target = self.data_dir / paths.EXPORTS_DIR / f"ledger-{stamp}.{fmt}"
            target.parent.mkdir(parents=True, exist_ok=True)
        else:
            target = Path(os.path.abspath(Path(path).expanduser()))
        if fmt == "csv":
            export_csv(self.ledger, target)
        elif fmt == "json":
            export_json(self.ledger, target)
        else:
            raise ValueError(f"unknown export format {fmt!r}")
        return target

    # --------------------------------------------------------------------------------- writing

    def flush(self) -> bool:
        """Retry every pending write now; True when nothing is left pending."""
        self._settle_background()
        return self._flush_pending()

    def _flush_pending(self) -> bool:
        self._collect_background()
        if not self.persistent:
            return not self._dirty
        if "settings" in self._dirty and "settings" not in self._frozen:
            payload = self.settings.model_dump_json(indent=2).encode("utf-8")
            if self._write("settings", self.path("settings"), payload):
                self._dirty.discard("settings")
        if ("ledger" in self._dirty or self._backup_dirty) and self._ledger_writable():
            payload = self._ledger_bytes()
            if "ledger" in self._dirty and self._write("ledger", self.path("ledger"), payload):
                self._dirty.discard("ledger")
                self._backup_dirty = True
            if (
                "ledger" not in self._dirty
                and self._backup_dirty
                and self._write("ledger", self.backup_path, payload)
            ):
                self._backup_dirty = False
        return not (self._dirty - self._frozen)

    def _ledger_writable(self) -> bool:
        if "ledger" in self._frozen:
            return False
        if self._lock_state == "unavailable":
            self._try_lock()
            if self.lock_state == "busy":
                self._warn(
                    "another_copy",
                    "Another copy of Koi-Koi Desktop is running: this one will not record matches "
                    "in the ledger or autosave.",
                )
        return self._lock_state != "busy"

    def _try_lock(self) -> None:
        try:
            got = self._lock.acquire()
        except OSError:
            self._lock_state = "unavailable"  # read-only folder: nobody can write; retried later
            return
        self._lock_state = "held" if got else "busy"

    def _write(self, kind: FileKind, path: Path, payload: bytes) -> bool:
        try:
            atomic_write_bytes(path, payload)
        except OSError as exc:
            self._write_failed(kind, exc)
            return False
        self._failing.discard(kind)
        return True

    def _write_failed(self, kind: FileKind, exc: OSError) -> None:
        # One warning per episode: a full or read-only disk refuses every file, and the player
        # needs to hear it once, not once per file. The episode ends when every file that
        # failed has been written again.
        ongoing = bool(self._failing)
        self._failing.add(kind)
        if ongoing:
            return
        self._warn(
            f"write_failed_{kind}",
            "Could not save {what} ({reason}); the game goes on and will try again at the next "
            "save.",
            what=_WHAT[kind],
            reason=_reason(exc),
        )

    def _quarantine(self, path: Path) -> str:
        """Rename a file we will not rewrite (the autosave) aside."""
        try:
            return quarantine(path).name
        except OSError:
            self._frozen.add("autosave")
            return f"{path.name} (left in place: it could not be renamed)"

    def _keep_aside(self, path: Path, *, label: str = "damaged", kind: FileKind = "ledger") -> str:
        """Give a file we are about to rewrite a second, timestamped name first.

        The original stays in place until the repaired version atomically replaces it, so a
        crash or a full disk in between loses nothing (the next start simply repairs again).
        """
        try:
            return keep_aside(path, label=label).name
        except OSError:
            self._frozen.add(kind)  # without a safe copy, never overwrite the original
            return f"{path.name} (left unchanged: no copy could be made)"

    # -------------------------------------------------------------------------------- warnings

    def _warn(self, key: str, text: str, **params: Any) -> None:
        if key == "another_copy" and key in self._warned:
            return
        self._warned.add(key)
        self.warnings.append(Notice(key, text, **params))

    def _warn_once(self, key: str, text: str, **params: Any) -> None:
        if key not in self._warned:
            self._warn(key, text, **params)


# ------------------------------------------------------------------------------- ledger parsing


class _Scan:
    def __init__(self) -> None:
        self.records: list[MatchRecord] = []
        self.bad = 0
        self.future = 0
        self.recoded: str | None = None
        self.migrated = False

    @property
    def clean(self) -> bool:
        return not (self.bad or self.future or self.recoded or self.migrated)


def _scan_ledger(raw: bytes) -> _Scan:
    """Every valid record of a ledger file; counts of bad and newer-version lines."""
    scan = _Scan()
    try:
        text, scan.recoded = decode_text(raw)
    except BadFile:
        scan.bad = max(1, raw.count(b"\n"))
        return scan
    seen: set[str] = set()
    for line in _lines(text):
        try:
            data = parse_json(line)
            if not isinstance(data, dict):
                raise BadFile("not a record")
            if _version_or(data, -1) != LEDGER_VERSION:
                scan.migrated = True
            data = migrate("ledger", data)
            rec = MatchRecord.model_validate(data)
        except FutureVersionError:
            scan.future += 1
            continue
        except (BadFile, ValueError, ValidationError):
            scan.bad += 1
            continue
        if rec.match_id in seen:
            continue
        seen.add(rec.match_id)
        scan.records.append(rec)
    return scan


def _lines(text: str) -> Iterable[str]:
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped:
            yield stripped


def _short(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return f"{exc.error_count()} invalid values"
    return str(exc).splitlines()[0][:80] if str(exc) else exc.__class__.__name__


def _version_or(data: dict[str, Any], fallback: int) -> int:
    with contextlib.suppress(ValueError):
        return schema_version_of(data)
    return fallback
