"""Importing the files of version 0.1 (``ledger.jsonl``, its backup, ``autosave.json``) once.

Decisions:

* The import is idempotent: matches keep their ids (``INSERT OR IGNORE`` by id), the old saved
  match gets an id derived from its record text (:func:`legacy_match_id`), so a kill
  between the database commit and the rename repeats a harmless import at the next start.
* Every valid line of the ledger *and* of its backup is imported (the backup may hold matches a
  damaged main file lost); unreadable lines are counted in one warning and the files are kept
  (renamed ``*.imported``, never deleted).
* A file from a newer version of the game is left untouched, with one line.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .atomic import BadFile, decode_text, fsync_dir, parse_json, read_bytes
from .cause import Refused
from .ledger_db import LedgerDB
from .models import (
    LEDGER_VERSION,
    AutosaveData,
    FutureVersionError,
    MatchRecord,
    migrate,
    schema_version_of,
)
from .notice import NoticeKey

OLD_LEDGER = "ledger.jsonl"
OLD_BACKUP = "ledger.backup.jsonl"
OLD_AUTOSAVE = "autosave.json"
OLD_LOCK = "ledger.lock"
AUTOSAVE_LIMIT = 8 * 1024 * 1024


def legacy_match_id(record_text: str) -> str:
    """The id of a saved match from before match ids (the same text always gets the same id)."""
    return "legacy-" + hashlib.sha256(record_text.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class Reporter:
    """How the import tells the storage what happened (``Storage`` hands its own methods).

    A dataclass of callables rather than the ``Storage`` itself, so that this module does not
    import ``store`` (which imports this one): ``warn(key, **params)`` queues a notice for
    the player, ``write_failed(kind, exc)`` starts a disk-trouble episode, ``quarantine(path)``
    renames a damaged file aside and returns the name it got.
    """

    warn: Callable[..., None]
    write_failed: Callable[[Any, OSError], None]
    quarantine: Callable[[Path], str]


class Scan:
    """The valid records of one old ledger file, and counts of bad and newer-version lines."""

    def __init__(self) -> None:
        self.records: list[MatchRecord] = []
        self.bad = 0
        self.future = 0


def scan_ledger(raw: bytes) -> Scan:
    """Every valid record of a ``ledger.jsonl`` file (first of each match id)."""
    scan = Scan()
    try:
        text, _ = decode_text(raw)
    except BadFile:
        scan.bad = max(1, raw.count(b"\n"))
        return scan
    seen: set[str] = set()
    for line in (ln.strip() for ln in text.split("\n")):
        if not line:
            continue
        try:
            data = parse_json(line)
            if not isinstance(data, dict):
                raise BadFile("not a record")
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


def _imported_name(path: Path) -> Path:
    target = path.with_name(path.name + ".imported")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.imported-{n}")
        n += 1
    return target


def _rename_imported(paths_: Iterable[Path]) -> None:
    for p in paths_:
        with contextlib.suppress(FileNotFoundError):
            os.replace(p, _imported_name(p))
    if paths_:
        fsync_dir(next(iter(paths_)).parent)


def import_old_files(db: LedgerDB | None, folder: Path, report: Reporter) -> None:
    """Import the old ledger files and autosave in ``folder`` into ``db`` (see the docstring)."""
    if db is None or db.read_only:
        return
    done: list[Path] = []
    records: dict[str, MatchRecord] = {}
    bad = future = 0
    for name in (OLD_LEDGER, OLD_BACKUP):
        path = folder / name
        try:
            raw = read_bytes(path)
        except (BadFile, OSError):
            continue
        if raw is None:
            continue
        scan = scan_ledger(raw)
        if scan.future:
            future += scan.future
            continue  # a newer version's file: leave it where it is
        bad += scan.bad
        for rec in scan.records:
            records.setdefault(rec.match_id, rec)
        done.append(path)
    if records:
        try:
            added, _same, conflicts = db.import_records(
                ((rec, None) for rec in records.values()), source=OLD_LEDGER
            )
        except Refused as exc:
            report.write_failed("ledger", exc)
            return
        report.warn(NoticeKey.LEDGER_IMPORTED, count=added)
        if conflicts:
            report.warn(NoticeKey.LEDGER_IMPORT_CONFLICTS, count=conflicts)
    if bad:
        report.warn(
            NoticeKey.LEDGER_IMPORT_BAD,
            count=bad,
            name=OLD_LEDGER + ".imported",
        )
    if future:
        report.warn(NoticeKey.LEDGER_FUTURE)
    _rename_imported(done)
    _import_autosave(db, folder / OLD_AUTOSAVE, report)
    lock = folder / OLD_LOCK
    if lock.is_file() and not lock.is_symlink():
        _rename_imported([lock])


def _import_autosave(db: LedgerDB, path: Path, report: Reporter) -> None:
    try:
        raw = read_bytes(path, limit=AUTOSAVE_LIMIT)
        if raw is None:
            return
        text, _ = decode_text(raw)
        data = parse_json(text)
        if not isinstance(data, dict):
            raise BadFile("not an autosave object")
        data = migrate("autosave", data)
        save = AutosaveData.model_validate(data)
    except FutureVersionError:
        report.warn(NoticeKey.AUTOSAVE_FUTURE)
        return
    except (BadFile, ValueError, ValidationError, OSError) as exc:
        name = report.quarantine(path)
        report.warn(
            NoticeKey.AUTOSAVE_DAMAGED,
            why=f"{str(exc).splitlines()[0][:60] if str(exc) else type(exc).__name__}; {name}",
        )
        return
    match_id = str(save.meta.get("match_id") or legacy_match_id(save.record))
    try:
        db.save(match_id, save.record, json.loads(json.dumps(save.meta)))
        db.conn.execute(
            "UPDATE saved SET owner = '', pid = 0, updated = ? WHERE match_id = ?",
            (save.saved_at.isoformat(), match_id),
        )
    except Refused as exc:
        report.write_failed("autosave", exc)
        return
    _rename_imported([path])


def version_of(data: dict[str, object]) -> int:
    try:
        return schema_version_of(data)
    except ValueError:
        return LEDGER_VERSION
