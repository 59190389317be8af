"""``Storage``: the player's settings, coin ledger and saved matches, kept safe on disk.

Files in the data directory (see :mod:`.paths`): ``settings.json`` (a small JSON file a person can
read and edit) and ``koikoi.sqlite3`` (:mod:`.ledger_db`: the coin ledger, the matches in
progress, cached reviews). ``crash/`` holds crash reports and ``exports/`` the player's exports.

Decisions (the *why* behind the behaviour the tests check):

* **Settings** are written atomically (:func:`.atomic.atomic_write_bytes`). A damaged file is
  never deleted: each bad field falls back to its default, the original gets a timestamped second
  name, then the repaired file replaces it. A newer ``schema_version`` is left untouched.
* **The ledger is exactly-once** (see :mod:`.ledger_db`): a match id fixed at the match's start,
  and one transaction that records the match and removes its saved row.
* **A refusing disk** (full, read-only, I/O error, or the database busy past its timeout): the
  game goes on. A finished match that could not be written stays in :attr:`Storage.pending` and
  is retried at every later write; the UI tells the player at the match's end and again at quit,
  where the player may retry or export the pending matches to a file elsewhere
  (:meth:`Storage.export_pending`). Nothing held in memory is dropped without a word.
* **Two copies** open the same database; SQLite's locking serialises their writes, each copy's
  match in progress is its own row, and Continue offers the most recent one not being played by
  another running copy (:meth:`Storage.saved_match`).
* **Old files** (``ledger.jsonl``, ``ledger.backup.jsonl``, ``autosave.json`` from version 0.1)
  are imported once, idempotently (same match ids), then renamed ``*.imported``.
* A data directory that cannot be created (a file in the way, no permission) gives one warning
  and a session that keeps everything in memory (``persistent = False``).
* **One facade, no pass-through readers.** ``Storage`` does what needs the player's files and
  the refusals told (recording, saving, exports and imports, settings, tidying); a screen that
  reads the ledger asks the repository itself through :attr:`Storage.ledger`
  (:data:`.queries.Ledger`: an empty ledger when the database could not be opened), so a new
  query is written in :mod:`.ledger_db` and answered empty in :mod:`.queries`, never passed
  through here.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import json
import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import ValidationError

from . import importing, legacy, paths
from .atomic import (
    BadFile,
    Damage,
    atomic_write_bytes,
    decode_text,
    keep_aside,
    parse_json,
    quarantine,
    read_bytes,
    remove_stale_temps,
)
from .background import BackgroundJob, BackgroundWriter
from .cause import Cause, Refused, Unresumable, real_cause, refusal_of
from .export import write_csv, write_json
from .integrity import closed_cleanly, mark_for_check, open_or_repair
from .ledger_db import LedgerDB, SavedMatch
from .models import (
    RECORD_LIMIT,
    SETTINGS_VERSION,
    AutosaveData,
    FutureVersionError,
    MatchRecord,
    Settings,
    load_settings_tolerant,
    migrate,
    to_plain,
)
from .notice import Notice, NoticeKey, NoticeParam
from .queries import EMPTY, Ledger
from .schema import DatabaseDamaged

#: Damaged rows set aside per call of :meth:`Storage.tidy` between frames (each is a match
#: written again from its record, a millisecond or two); the rest wait for the next frames.
MEND_BATCH = 16
#: How long closing waits for a recount still running (seconds) before it stops it: the
#: recount then writes nothing, the counters stay stale, and the next start counts them.
RECOUNT_CLOSE_WAIT = 2.0
SETTINGS_LIMIT = 1024 * 1024  # a settings file is ~1 kB; a megabyte of it is junk
AUTOSAVE_LIMIT = 8 * 1024 * 1024

FileKind = Literal["settings", "ledger", "autosave"]

#: The line that says a file could not be written.
_WRITE_FAILED: dict[FileKind, NoticeKey] = {
    "settings": NoticeKey.WRITE_FAILED_SETTINGS,
    "ledger": NoticeKey.WRITE_FAILED_LEDGER,
    "autosave": NoticeKey.WRITE_FAILED_AUTOSAVE,
}


#: Why the whole database is checked -> the line said while it runs.
_CHECKING = {
    "unclean": NoticeKey.LEDGER_CHECKING_UNCLEAN,
    "damage": NoticeKey.LEDGER_CHECKING_DAMAGE,
}


class ImportResult(NamedTuple):
    """What an import did: matches added, already there, kept aside as conflicting, and the
    ones skipped because their record does not replay, as (match id, why)."""

    added: int
    same: int
    aside: int
    skipped: tuple[tuple[str, str], ...]


class ExportResult(NamedTuple):
    """What an export wrote: the file, how many matches, and the ids of those it could not
    (their record does not replay: kept aside, never dropped)."""

    path: Path
    written: int
    unread: tuple[str, ...]


def _cause_params(refused: Refused) -> dict[str, NoticeParam]:
    """A refusal as a notice's parameters: its cause, and the OS's words for an unknown one."""
    return {"reason": refused.cause, "detail": refused.detail}


class Storage:
    """Settings, coin ledger and saved matches of one data directory. Open with :meth:`open`.

    Not thread-safe: call it from one thread (the UI's). The background autosave uses its own
    database connection on its own thread.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.settings = Settings()
        self.warnings: list[Notice] = []
        #: False when the data directory is unusable: everything lives in memory this session.
        self.persistent = True
        self.db: LedgerDB | None = None
        #: Finished matches the disk refused, in the order they ended: (record, record text).
        self.pending: list[tuple[MatchRecord, str | None, bool]] = []
        self._frozen: set[FileKind] = set()  # newer-version files we must not overwrite
        self._dirty: set[FileKind] = set()  # in memory, not yet on disk
        self._failing: set[FileKind] = set()  # warned about a failed write, not yet succeeded
        self._warned: set[NoticeKey] = set()
        self._autosaver: BackgroundWriter | None = None
        self._saver_db: LedgerDB | None = None
        self._skipped: set[tuple[str, int]] = set()  # damaged rows of a read-only database
        self._aside_rows = 0  # damaged rows set aside this run (saved matches told apart)
        self._causes_told: set[Cause] = set()  # refusals named this run (once each)
        self._last_cause: Refused | None = None
        self._rebuilt = 0
        self._damage_told = False  # a read met a damaged page, and the player was told
        #: The recount running on a worker thread: the job, its own connection, what it counts.
        self._recount: tuple[BackgroundJob, LedgerDB, frozenset[str]] | None = None
        self._recount_refused = False  # the disk refused it: not tried again this run
        #: Told before a whole-file check (see :meth:`open`).
        self._checking: Callable[[Notice], None] | None = None

    # ------------------------------------------------------------------------------- opening

    @classmethod
    def open(
        cls,
        data_dir: str | os.PathLike[str] | None = None,
        *,
        checking: Callable[[Notice], None] | None = None,
    ) -> Storage:
        """Open (creating if needed) the data directory: load settings, open the database,
        import old files, write first settings.

        Never raises for anything found on disk: problems become :attr:`warnings`.
        ``checking(notice)`` is told before the whole database is checked after an unclean
        shutdown (a second or two with 100,000 matches, before the window opens): the game and
        the command line print it on stderr.
        """
        store = cls(paths.resolve_data_dir(data_dir))
        store._checking = checking
        try:
            store.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not store.data_dir.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(store.data_dir))
            paths.make_private(store.data_dir)
        except OSError as exc:
            store.persistent = False
            store._warn(
                NoticeKey.DATA_DIR_UNUSABLE,
                path=str(store.data_dir),
                **_cause_params(refusal_of(exc)),
            )
            return store
        store._load_settings()
        store._open_db()
        if store.db is not None:
            if store.db.checked:  # after an unclean shutdown, or a file changed by another program
                store.db.sweep()
            store.tidy(limit=None)  # damaged rows set aside before the title shows its one line
        if store.db is not None and not store.db.read_only:
            remove_stale_temps(store.data_dir)
            legacy.import_old_files(
                store.db,
                store.data_dir,
                legacy.Reporter(store._warn, store._write_failed, store._quarantine),
            )
        store._flush_pending()
        return store

    def _open_db(self) -> None:
        try:
            self.db = open_or_repair(self.data_dir, self._warn_once, self._told_checking)
        except OSError as exc:  # Refused, or the folder refuses the aside rename
            self.db = None
            cause = self._cause(exc)
            if cause.cause not in self._causes_told:  # a full disk is named once per run
                self._causes_told.add(cause.cause)
                self._warn_once(NoticeKey.LEDGER_UNAVAILABLE, **_cause_params(cause))
            return
        if self.db.read_only and self.db.refused.cause is not Cause.FUTURE:
            self._causes_told.add(self.db.refused.cause)
            self._failing.add("ledger")

    def refusal_cause(self) -> Refused:
        """Why the ledger did not take matches (the real cause, see ``real_cause``): a new
        exception each call, to raise or to word."""
        if self.db is not None and self.db.read_only:
            why = self.db.refused
        elif self._last_cause is not None:
            why = self._last_cause
        else:
            return real_cause(Refused(Cause.NOT_OPEN), self.data_dir)
        return Refused(why.cause, why.detail)

    def unrecorded(self) -> Notice | None:
        """The line for stderr at close when finished matches are still refused: how many, and
        why (None when every match was recorded)."""
        if not self.pending:
            return None
        return Notice(
            NoticeKey.LEDGER_UNRECORDED,
            count=len(self.pending),
            **_cause_params(self.refusal_cause()),
        )

    def _cause(self, exc: BaseException) -> Refused:
        """The real cause of a refusal, named the same way every time (see ``real_cause``)."""
        self._last_cause = real_cause(refusal_of(exc), self.data_dir)
        return self._last_cause

    def _reopen_if_refused(self) -> None:
        """A ledger that could not be opened, or only read (a read-only folder, a linked file),
        is tried again: at every record and at quit. A newer version's ledger stays read-only."""
        db = self.db
        if db is not None and not (db.read_only and db.refused.cause is not Cause.FUTURE):
            return
        if db is not None:
            self.db = None
            db.close()
            closed_cleanly(db)
        self._open_db()

    def close(self) -> None:
        """Write whatever is still pending and close the database."""
        self._stop_saver()
        self._stop_recount()
        self.tidy(limit=None, recount=False)  # what is still stale is counted at the next start
        self._flush_pending()
        if self.db is not None:
            with contextlib.suppress(Refused):  # a refusing disk: the pid tells it is gone
                self.db.release()
            self.db.close()
            closed_cleanly(self.db)
            self.db = None

    def _stop_saver(self) -> None:
        if self._autosaver is not None:
            self._autosaver.close()
            atexit.unregister(self._autosaver.close)
            self._collect_background()
            self._autosaver = None
        if self._saver_db is not None:
            self._saver_db.close()
            self._saver_db = None

    def __enter__(self) -> Storage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------ properties

    @property
    def can_write_ledger(self) -> bool:
        """True when this copy can record matches now (False: no database could be opened, or
        it is from a newer version of the game)."""
        return self.db is not None and not self.db.read_only

    def path(self, kind: FileKind) -> Path:
        name = {
            "settings": paths.SETTINGS_FILE,
            "ledger": paths.DB_FILE,
            "autosave": paths.DB_FILE,
        }[kind]
        return self.data_dir / name

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
            self._settings_damaged(path, exc.damage)
            return
        except OSError as exc:
            self._frozen.add("settings")
            self._warn(NoticeKey.SETTINGS_UNREADABLE, **_cause_params(refusal_of(exc)))
            return
        if raw is None:
            self._dirty.add("settings")  # the first start writes the defaults
            return
        try:
            text, recoded = decode_text(raw)
            data = parse_json(text)
        except BadFile as exc:
            self._settings_damaged(path, exc.damage)
            return
        if not isinstance(data, dict):
            self._settings_damaged(path, Damage.NOT_AN_OBJECT)
            return
        original_version = _version_or(data, -1)
        try:
            data = migrate("settings", data)
            bad_version = False
        except FutureVersionError:
            self._frozen.add("settings")
            self._warn(NoticeKey.SETTINGS_FUTURE)
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
                    NoticeKey.SETTINGS_REPAIRED,
                    fields=", ".join(dropped),
                    name=aside,
                )
            else:
                self._warn(
                    NoticeKey.SETTINGS_RECODED,
                    encoding=str(recoded),
                    name=aside,
                )
            self._dirty.add("settings")
        elif migrated:
            self._dirty.add("settings")

    def _settings_damaged(self, path: Path, why: Damage) -> None:
        aside = self._keep_aside(path, kind="settings")
        self._warn(
            NoticeKey.SETTINGS_DAMAGED,
            why=why,
            name=aside,
        )
        self._dirty.add("settings")

    # ---------------------------------------------------------------------------------- ledger

    def record_match(
        self, rec: MatchRecord, *, record_text: str | None = None, computer: bool = False
    ) -> bool:
        """Record a finished match (and drop its saved row) in one transaction.

        True once it is safely on disk (also when this id was already recorded: recording twice
        changes nothing). False when the disk refuses: the match stays in :attr:`pending`, is
        retried at every later write, and one warning says so.
        """
        rec = MatchRecord.model_validate(rec.model_dump())
        self._settle_background()  # a queued save of this match must land before it is removed
        if any(p[0].match_id == rec.match_id for p in self.pending):
            return self._flush_pending()
        self.pending.append((rec, record_text, computer))
        self._flush_pending()
        return all(p[0].match_id != rec.match_id for p in self.pending)

    def retry_pending(self) -> bool:
        """Try the pending matches again now (reopening the database if needed)."""
        return self._flush_pending()

    def export_pending(self, path: Path) -> Path:
        """Write the matches the disk refused to a JSON file the player chose (OSError raised:
        the player asked). The matches stay pending until the ledger takes them."""
        write_json(((rec, text) for rec, text, _ in self.pending), path)
        return path

    @property
    def ledger(self) -> Ledger:
        """The ledger's queries: what a screen asks (counts, pages, a match, the statistics,
        the ratings, a cached review; see :data:`.queries.Ledger`). The repository itself
        while the database is open; an empty ledger when it could not be opened (told to the
        player in one line at the start)."""
        return self.db if self.db is not None else EMPTY

    def save_review(self, match_id: str, data: str) -> Refused | None:
        """Cache a match review with its match. Returns None when saved, else the disk's
        refusal (the review is then simply computed again next time; the caller says why)."""
        if self.db is None:
            return self.refusal_cause()
        try:
            kept = self.db.save_review(match_id, data)
        except OSError as exc:  # Refused (full, read-only, busy...) is an OSError
            return refusal_of(exc)
        if kept:  # the damaged review it replaced is kept aside: counted in the same line
            self._aside_rows += kept
            self._count_notice(
                NoticeKey.ROWS_SET_ASIDE, count=self._aside_rows, rebuilt=self._rebuilt
            )
        return None

    @property
    def counting(self) -> bool:
        """True while the statistics counters and the rating history are being counted again
        (after damaged rows were set aside, or a ledger from an older version): the statistics
        tab says so instead of showing figures of a ledger that changed since."""
        db = self.db
        return (
            db is not None
            and not db.read_only
            and bool(db.stale)
            and db.damage_met is None
            and not self._recount_refused
        )

    def wait_for_counting(self, timeout: float | None = None) -> bool:
        """Wait for a running recount to finish and take its outcome (at close, and for
        scripts); False on timeout."""
        if self._recount is not None and not self._recount[0].join(timeout):
            return False
        self._collect_recount()
        return True

    def tidy(self, *, limit: int | None = MEND_BATCH, recount: bool = True) -> None:
        """Between frames (never from a draw) and at close: set aside the rows the reads found
        damaged (see :meth:`.ledger_db.LedgerDB.mend`; at most ``limit`` rows a call, the rest
        at the next) and count them in one line; with ``recount``, count the statistics and
        the rating history again on a worker thread when they are stale
        (:meth:`.ledger_db.LedgerDB.recount`: seconds at 100,000 matches, so never here), and
        take the outcome of one that finished."""
        self._collect_recount()
        db = self.db
        if db is not None and db.damage_met is not None and not self._damage_told:
            self._damage_told = True
            if not db.read_only:
                mark_for_check(db)
            db.generation += 1  # the screens read again, and show the line
            self._warn(NoticeKey.LEDGER_DAMAGED_READ, why=db.damage_met)
        if db is None:
            return
        if db.damaged and db.read_only:
            self._skipped |= db.damaged
            db.damaged = set()
            self._count_notice(NoticeKey.ROWS_SKIPPED, count=len(self._skipped))
            return
        if db.damaged and self._recount is None:  # else after it (its write holds the lock)
            self._mend(db, limit)
        if recount:
            if self._recount is None:
                db.note_stale_elsewhere()
            self._start_recount()

    def _mend(self, db: LedgerDB, limit: int | None) -> None:
        # the rows this call sets aside (mend takes them in the same order)
        saved = sum(1 for table, _ in sorted(db.damaged)[:limit] if table == "saved")
        try:
            aside, rebuilt = db.mend(limit)
        except Refused as exc:
            self._write_failed("ledger", exc)
            return
        if saved:
            self._warn(NoticeKey.AUTOSAVE_DAMAGED, why=Unresumable.NOT_A_SAVE)
        self._aside_rows += aside - min(saved, aside)
        self._rebuilt += rebuilt
        if self._aside_rows:
            self._count_notice(
                NoticeKey.ROWS_SET_ASIDE,
                count=self._aside_rows,
                rebuilt=self._rebuilt,
            )

    def _start_recount(self) -> None:
        """Count what is stale on a worker thread with its own connection, once every damaged
        row noted so far is set aside (a mend waits for the recount's write, and the next
        recount counts it)."""
        db = self.db
        if (
            db is None
            or self._recount is not None
            or not self.counting
            or db.damaged
            or not self.persistent
        ):
            return
        what = frozenset(db.stale)
        try:
            worker = LedgerDB.attach(db.path)
        except Refused as exc:
            self._recount_refused = True
            self._write_failed("ledger", exc)
            return
        job = BackgroundJob(lambda: worker.recount(what), name="koikoi-recount")
        self._recount = (job, worker, what)

    def _stop_recount(self) -> None:
        """At close: a recount that does not finish within :data:`RECOUNT_CLOSE_WAIT` is
        interrupted (SQLite rolls its transaction back; nothing else is lost) and its outcome
        dropped: the counters stay stale, and the next start counts them."""
        if self._recount is None or self.wait_for_counting(RECOUNT_CLOSE_WAIT):
            return
        job, worker, _ = self._recount
        worker.conn.interrupt()
        job.join()
        self._recount = None
        worker.close()

    def _collect_recount(self) -> None:
        """Take the outcome of a recount that finished: the screens read again (the counters
        are whole), or the refusal is told like any other, or damage is noted for the next
        start's repair. Anything else it raised is raised here."""
        if self._recount is None or not self._recount[0].done():
            return
        job, worker, what = self._recount
        self._recount = None
        worker.close()
        error = job.outcome()
        db = self.db
        if db is None:
            return
        if error is None:
            db.stale -= what
            db.generation += 1  # the statistics tab shows the counted figures
        elif isinstance(error, Refused):
            self._recount_refused = True  # the statistics are counted by SQL meanwhile
            self._write_failed("ledger", error)
        elif isinstance(error, DatabaseDamaged):
            db.met_damage(error)  # told by tidy; the next start checks and repairs
        else:
            raise error

    def _count_notice(self, key: NoticeKey, **params: NoticeParam) -> None:
        """One line for a count that grows: the line already shown is replaced, not repeated."""
        notice = Notice(key, **params)
        for i, old in enumerate(self.warnings):
            if old.key == key:
                self.warnings[i] = notice
                return
        self._warn(key, **params)

    # ------------------------------------------------------------------------- saved matches

    def write_autosave(
        self,
        match_id: str,
        text: str,
        meta: dict[str, Any],
        *,
        background: bool = False,
    ) -> bool:
        """Save the match in progress (the engine's record text + UI metadata) under its id.

        Returns True once it is on disk. ``background=True`` (the table, after every move) hands
        the write to a worker thread with its own connection and returns True when queued; a
        failure there is reported in :attr:`warnings` at the next storage call, like any other.
        """
        self._collect_background()
        if not self.can_write_ledger or self.db is None:
            return False
        meta = to_plain(meta)
        if background:
            payload = json.dumps(
                {"match_id": match_id, "record": text, "meta": meta}, ensure_ascii=False
            ).encode("utf-8")
            self._saver().submit(payload)
            if self._dirty or self.pending:
                self._flush_pending()
            return True
        self._settle_background()
        try:
            self.db.save(match_id, text, meta)
        except Refused as exc:
            self._write_failed("autosave", exc)
            return False
        self._failing.discard("autosave")
        self._flush_pending()
        return True

    def _saver(self) -> BackgroundWriter:
        if self._autosaver is None:
            assert self.db is not None
            db_path = self.db.path
            owner = self.db.owner

            def write(payload: bytes) -> None:
                if self._saver_db is None:  # the database was checked by this copy's open
                    self._saver_db = LedgerDB.attach(db_path)
                    self._saver_db.owner = owner
                doc = json.loads(payload)
                self._saver_db.save(doc["match_id"], doc["record"], doc["meta"])

            self._autosaver = BackgroundWriter(write)
            # the worker is a daemon thread: finish its last write even without close()
            atexit.register(self._autosaver.close)
        return self._autosaver

    def _collect_background(self) -> None:
        if self._autosaver is None:
            return
        for result in self._autosaver.take_results():
            if result is None:
                self._failing.discard("autosave")
            else:
                self._write_failed("autosave", result)

    def _settle_background(self) -> None:
        """Let a queued background save land before touching the saved rows on this thread."""
        if self._autosaver is not None:
            self._autosaver.drain()
            self._collect_background()

    def saved_match(self) -> SavedMatch | None:
        """The saved match Continue offers: the most recently saved one that no other running
        copy is playing (None when there is none)."""
        if self.db is None:
            return None
        self._settle_background()
        found = self.db.saved_matches()
        self.tidy()
        for saved in found:
            if not saved.in_use_elsewhere:
                return saved
        return None

    def saved_in_use_elsewhere(self) -> bool:
        """True when another running copy of the game is playing a saved match right now."""
        if self.db is None:
            return False
        return any(s.in_use_elsewhere for s in self.db.saved_matches())

    def read_autosave(self) -> AutosaveData | None:
        """:meth:`saved_match` as an :class:`AutosaveData` (record text + metadata), the meta
        carrying its ``match_id``. A row whose record is not even text of a sane size is set
        aside with one line."""
        saved = self.saved_match()
        if saved is None:
            return None
        if not saved.record or len(saved.record) > RECORD_LIMIT or saved.meta.get("_damaged"):
            self.set_saved_aside(saved.match_id, Unresumable.NOT_A_SAVE)
            return self.read_autosave()
        meta = dict(saved.meta)
        meta["match_id"] = saved.match_id
        return AutosaveData(record=saved.record, meta=meta, saved_at=saved.updated)

    def has_autosave(self) -> bool:
        """Whether a saved match can be offered as Continue."""
        return self.read_autosave() is not None

    def set_saved_aside(self, match_id: str, why: Unresumable, detail: str = "") -> None:
        """Keep a saved match that cannot be resumed aside (never deleted) and say why
        (``detail``: what the engine said of its moves, or the preset it names)."""
        if self.db is None or self.db.read_only:
            return
        self._settle_background()
        try:  # the row keeps the fact, for whoever looks into the database
            self.db.set_saved_aside(match_id, f"{why.value}: {detail}" if detail else why.value)
        except Refused as exc:
            self._write_failed("autosave", exc)
            return
        self._warn(NoticeKey.AUTOSAVE_DAMAGED, why=why, detail=detail[:120])

    def discard_autosave(
        self, why: Unresumable, match_id: str | None = None, *, detail: str = ""
    ) -> None:
        """The saved match Continue offered cannot be resumed: set it aside (see above)."""
        if match_id is None:
            saved = self.saved_match()
            if saved is None:
                return
            match_id = saved.match_id
        self.set_saved_aside(match_id, why, detail)

    def claim_saved(self, match_id: str) -> None:
        """This copy resumes ``match_id``: other copies now see it as being played here."""
        if self.db is None or self.db.read_only:
            return
        try:
            self.db.claim(match_id)
        except Refused as exc:
            self._write_failed("autosave", exc)

    def clear_autosave(self, match_id: str | None = None) -> None:
        """Drop a saved match abandoned on purpose (no match id: this copy's own saved rows)."""
        if self.db is None or self.db.read_only:
            return
        self._settle_background()
        ids = (
            [match_id]
            if match_id is not None
            else [s.match_id for s in self.db.saved_matches() if not s.in_use_elsewhere]
        )
        try:
            for mid in ids:
                self.db.drop_saved(mid)
        except Refused as exc:
            self._write_failed("autosave", exc)
            return
        self._failing.discard("autosave")

    # ------------------------------------------------------------------------- export, import

    def export(
        self, fmt: Literal["csv", "json"], path: str | os.PathLike[str] | None = None
    ) -> Path:
        """Export the ledger (default: ``exports/ledger-<UTC time>.<fmt>`` in the data folder).

        Streams the rows (bounded memory). Raises OSError when the file cannot be written, also
        when the default ``exports/`` folder is a link leading out of the data folder.
        """
        if fmt not in ("csv", "json"):
            raise ValueError(f"unknown export format {fmt!r}")
        if path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            folder = paths.safe_subdir(self.data_dir, paths.EXPORTS_DIR)
            target = folder / f"ledger-{stamp}.{fmt}"
        else:
            target = Path(os.path.abspath(Path(path).expanduser()))
        rows = self._all_rows()
        if fmt == "csv":
            write_csv((rec for rec, _ in rows), target)
        else:
            write_json(rows, target)
        return target

    def _all_rows(self) -> Iterator[tuple[MatchRecord, str | None]]:
        if self.db is not None:
            yield from self.db.iter_all(include_computer=False)
        yield from ((rec, text) for rec, text, computer in self.pending if not computer)

    def export_all(self, path: str | os.PathLike[str]) -> ExportResult:
        """The command line's ``--export-ledger``: every match, computer runs included, each
        damaged summary made again from its record; what was written and what could not be
        (a match whose record does not replay: :meth:`close` keeps it aside, and the line
        says so)."""
        target = Path(os.path.abspath(Path(path).expanduser()))
        unread: list[str] = []
        written = 0

        def rows() -> Iterator[tuple[MatchRecord, str | None]]:
            nonlocal written
            if self.db is not None:
                for row in self.db.iter_all(include_computer=True, unread=unread):
                    written += 1
                    yield row

        write_json(rows(), target)
        return ExportResult(target, written, tuple(unread))

    def import_ledger(self, path: str | os.PathLike[str]) -> tuple[int, int, int]:
        """Merge a JSON ledger export into the database by match id: (added, already there,
        kept aside as conflicting); see :meth:`import_ledger_checked`."""
        result = self.import_ledger_checked(path)
        return result.added, result.same, result.aside

    def import_ledger_checked(
        self,
        path: str | os.PathLike[str],
        *,
        progress: Callable[[int], None] | None = None,
    ) -> ImportResult:
        """Merge a JSON ledger export, each match's record replayed by the engine first: a
        match without a record, or whose record does not replay to its rounds, totals and
        result, is skipped (and named in the result); a match already in the ledger under any
        id (the same record: :func:`.from_record.identity`) is already there; the others are
        merged and rated once each, in the order of the file.

        The file is read as a stream and the records replayed on every core
        (:mod:`.importing`): memory stays bounded whatever its size. ``progress(read)`` is told
        as it goes. A bad file raises ValueError and changes nothing (one transaction, rolled
        back); a refusing disk raises OSError."""
        from .export import iter_export_file

        source = Path(path).expanduser()
        if self.db is None or self.db.read_only:
            raise self.refusal_cause()
        skipped: list[tuple[str, str]] = []

        def good() -> Iterator[tuple[MatchRecord, str | None, str | None]]:
            found = importing.checked(iter_export_file(source), progress=progress)
            for rec, text, (why, key) in found:
                if why is None:
                    yield rec, text, key
                else:
                    skipped.append((rec.match_id, why))

        added, same, aside = self.db.import_identified(good(), source=source.name)
        return ImportResult(added, same, aside, tuple(skipped))

    # --------------------------------------------------------------------------------- writing

    def flush(self) -> bool:
        """Retry every pending write now; True when nothing is left pending."""
        self._settle_background()
        return self._flush_pending()

    def _flush_pending(self) -> bool:
        self._collect_background()
        if not self.persistent:
            return not (self._dirty or self.pending)
        if "settings" in self._dirty and "settings" not in self._frozen:
            payload = self.settings.model_dump_json(indent=2).encode("utf-8")
            if self._write("settings", self.path("settings"), payload):
                self._dirty.discard("settings")
        if self.pending:
            self._reopen_if_refused()
        while self.pending and self.can_write_ledger and self.db is not None:
            rec, text, computer = self.pending[0]
            try:
                self.db.record(rec, record_text=text, computer=computer)
            except Refused as exc:
                self._write_failed("ledger", exc)
                break
            self.pending.pop(0)
            self._failing.discard("ledger")
        if self.pending and self.db is not None and self.db.read_only:
            self._last_cause = self.db.refused
        if self.pending and not self.can_write_ledger:
            self._warn_once(NoticeKey.LEDGER_NOT_SAVED)
        return not ((self._dirty - self._frozen) or self.pending)

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
        # And one line per cause per run: a disk that stays full is told once, not once for
        # every match that ends while it is full.
        ongoing = bool(self._failing)
        self._failing.add(kind)
        cause = self._cause(exc)
        db = self.db
        damaged = cause.cause is Cause.DAMAGED
        if damaged and db is not None and not db.read_only and not self._damage_told:
            # a write met a damaged page: the next start checks and repairs (this line says so)
            self._damage_told = True
            db.met_damage(exc.__cause__ or exc)  # what SQLite said, when it said anything
            mark_for_check(db)
        if ongoing or cause.cause in self._causes_told:
            return
        self._causes_told.add(cause.cause)
        self._warn(_WRITE_FAILED[kind], **_cause_params(cause))

    def _quarantine(self, path: Path) -> str:
        """Rename a file we will not rewrite aside."""
        try:
            return quarantine(path).name
        except OSError:
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

    def _warn(self, key: NoticeKey, **params: NoticeParam) -> None:
        self._warned.add(key)
        self.warnings.append(Notice(key, **params))

    def _warn_once(self, key: NoticeKey, **params: NoticeParam) -> None:
        if key not in self._warned:
            self._warn(key, **params)

    def _told_checking(self, reason: str) -> None:
        """The whole database is about to be checked, for ``reason`` (see
        :func:`.integrity.check_reason`): the line that says so while it runs."""
        key = _CHECKING.get(reason)
        # "changed" (the file is not as the game closed it: the first start of this version, or
        # another program wrote it) is checked without a word unless damage is found
        if key is not None and self._checking is not None:
            self._checking(Notice(key))


def _short(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return f"{exc.error_count()} invalid values"
    return str(exc).splitlines()[0][:80] if str(exc) else exc.__class__.__name__


def _version_or(data: dict[str, Any], fallback: int) -> int:
    from .models import schema_version_of

    with contextlib.suppress(ValueError):
        return schema_version_of(data)
    return fallback
