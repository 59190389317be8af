"""A refusing disk is a state, not an off switch: a full disk at start, a read-only folder that
holds matches, a linked database, a WAL on a nearly full disk, and a scripted run that could
not record its matches.

Real refusals, not mocks: the folders live on small tmpfs mounts (full, or remounted read-only),
which needs root (CI containers are); elsewhere these tests are skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.storage import Cause, Storage
from koikoi_desktop.words.storage import notice_text
from tests.mounts import fill, read_only, tmpfs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mount(tmp_path: Path) -> Iterator[Any]:
    """``mount(size)`` -> a fresh tmpfs folder of ``size`` bytes, unmounted afterwards."""
    yield from tmpfs(tmp_path)


def _lines(store: Storage, word: str) -> list[str]:
    """The storage's lines, in English, that hold ``word``."""
    said = [notice_text(ENGLISH, w) for w in store.warnings]
    return [line for line in said if word in line]


def test_a_full_disk_at_start_is_named_once_and_every_record_retries(mount, h) -> None:
    disk = mount(512 * 1024)
    filler = fill(disk, 0)
    store = Storage.open(disk / "data")
    recs = [h.make_record(rounds=12) for _ in range(6)]
    for rec in recs[:5]:
        assert store.record_match(rec) is False
    assert len(store.pending) == 5
    assert len(_lines(store, "the disk is full")) == 1, store.warnings  # named, and once
    assert not _lines(store, "input/output")
    filler.unlink()  # space again: the next record opens the ledger and writes them all
    assert store.record_match(recs[5])
    assert store.pending == []
    store.close()
    with Storage.open(disk / "data") as again:
        assert again.ledger.count() == 6


def test_a_read_only_folder_shows_its_matches_and_says_new_ones_cannot_be_saved(mount, h) -> None:
    disk = mount(4 * 1024 * 1024)
    data = disk / "data"
    with Storage.open(data) as store:
        for _ in range(3):
            assert store.record_match(h.make_record())
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    read_only(disk)
    store = Storage.open(data)
    assert store.ledger.count() == 3 and len(store.ledger.summaries(0, 10)) == 3
    assert store.ledger.stats().overall.matches == 3
    [notice] = [w for w in store.warnings if w.key == "ledger_read_only"]
    assert notice.params["reason"] is Cause.DISK_READ_ONLY
    line = notice_text(ENGLISH, notice)
    assert "(the disk is read-only)" in line and "cannot be saved" in line
    assert store.record_match(h.make_record()) is False  # kept in memory, retried at quit
    store.close()
    assert len(store.pending) == 1 and store.refusal_cause().cause is Cause.DISK_READ_ONLY
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before


def test_a_linked_database_is_shown_and_never_written_through(tmp_path: Path, h) -> None:
    elsewhere = tmp_path / "elsewhere"
    with Storage.open(elsewhere) as store:
        for _ in range(2):
            assert store.record_match(h.make_record())
    target = elsewhere / "koikoi.sqlite3"
    original = target.read_bytes()
    data = tmp_path / "data"
    data.mkdir()
    (data / "koikoi.sqlite3").symlink_to(target)
    store = Storage.open(data)
    assert store.ledger.count() == 2
    [notice] = [w for w in store.warnings if w.key == "ledger_read_only"]
    assert notice.params["reason"] is Cause.LINKED and "link" in notice_text(ENGLISH, notice)
    assert store.record_match(h.make_record()) is False
    store.close()
    assert target.read_bytes() == original


def test_the_wal_is_emptied_after_every_match_even_on_a_nearly_full_disk(mount, h) -> None:
    disk = mount(3 * 1024 * 1024)
    data = disk / "data"
    store = Storage.open(data)
    assert store.record_match(h.make_record(rounds=12))
    fill(disk, 400 * 1024)
    wal = data / "koikoi.sqlite3-wal"
    for _ in range(12):
        assert store.record_match(h.make_record(rounds=12)), store.warnings
        assert not wal.exists() or wal.stat().st_size == 0
    store.close()
    with Storage.open(data) as again:
        assert again.ledger.count() == 13


@pytest.mark.slow
def test_a_scripted_run_that_cannot_record_exits_non_zero_and_counts(mount) -> None:
    disk = mount(4 * 1024 * 1024)
    data = disk / "data"
    with Storage.open(data):
        pass
    read_only(disk)
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("KOIKOI_DATA_DIR", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "koikoi_desktop",
            "--autoplay",
            "--record",
            "--matches",
            "2",
            "--seats",
            "beginner,beginner",
            "--speed",
            "off",
            "--seed",
            "3",
            "--data-dir",
            str(data),
            "--lang",
            "uk",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr
    # one line, in English although the game spoke Ukrainian: stderr is read by scripts and logs
    line = (
        "koikoi-desktop: 2 finished matches could not be written to the match ledger "
        "(the disk is read-only)."
    )
    assert proc.stderr.splitlines().count(line) == 1, proc.stderr
