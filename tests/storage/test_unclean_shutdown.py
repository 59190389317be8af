"""The whole-file check runs only after an unclean shutdown (issue 35, "start and screens
independent of ledger size"), and damage met later, in the middle of a read, is handled where
it is met: the read returns what it can, one line says so, and the next start repairs.

The checks are counted through ``ledger_db._quick_check`` (never timed).
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.storage import Cause, Storage, ledger_db

CHILD = Path(__file__).with_name("recording_child.py")
ROOT = Path(__file__).resolve().parents[2]
DB = "koikoi.sqlite3"


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every whole-file check this test runs (the path of the database checked)."""
    seen: list[str] = []
    real = ledger_db._quick_check

    def counting(conn: sqlite3.Connection) -> None:
        seen.append(conn.execute("PRAGMA database_list").fetchone()[2])
        real(conn)

    monkeypatch.setattr(ledger_db, "_quick_check", counting)
    yield seen


def _keys(store: Storage) -> list[str]:
    return [w.key for w in store.warnings]


def test_a_clean_close_then_a_start_runs_no_whole_file_check(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    with Storage.open(data_dir) as store:  # a new file: nothing to check
        for _ in range(3):
            assert store.record_match(h.make_record())
        assert store.write_autosave("m-open", "record text", {"round": 1})
    assert checks == []
    for n in range(3):
        with Storage.open(data_dir) as store:
            assert store.ledger.count() == 3 + n and _keys(store) == []
            assert store.record_match(h.make_record())  # a run that writes, then closes
    assert checks == []
    # nothing of ours is left open beside the database
    assert not [p for p in data_dir.iterdir() if p.name.startswith(DB + "-open-")]


def test_a_file_closed_by_an_older_version_is_checked_once(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    """No fingerprint of a clean close (a database from before this change, or one another
    program wrote): checked at that start, without a line when it is whole; then not again."""
    with Storage.open(data_dir) as store:
        assert store.record_match(h.make_record())
    (data_dir / (DB + "-closed")).unlink()
    with Storage.open(data_dir) as store:
        assert _keys(store) == []
    assert len(checks) == 1
    with Storage.open(data_dir):
        pass
    assert len(checks) == 1


def test_two_copies_open_at_once_close_cleanly(data_dir: Path, h: Any, checks: list[str]) -> None:
    first = Storage.open(data_dir)
    assert first.record_match(h.make_record())
    second = Storage.open(data_dir)  # the first is running: its marker is alive
    assert second.record_match(h.make_record())
    second.close()
    assert first.record_match(h.make_record())  # written after the second closed
    first.close()
    with Storage.open(data_dir) as store:
        assert store.ledger.count() == 3
    assert checks == []


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("KOIKOI_DATA_DIR", None)
    return env


@pytest.mark.parametrize("kill_at", [2, 9])
def test_a_killed_copy_makes_the_next_start_check(
    data_dir: Path, h: Any, checks: list[str], kill_at: int
) -> None:
    """A child playing and recording with the database open SIGKILLs itself (inside the record
    transaction, or just after its commit): the next start checks the whole file, says so in
    one line, and the start after a clean close does not."""
    with Storage.open(data_dir) as store:
        assert store.record_match(h.make_record())
    assert checks == []
    run = subprocess.run(
        [sys.executable, str(CHILD), str(data_dir), "killed", "3", str(kill_at)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert run.returncode == -9, run.stderr
    assert [p for p in data_dir.iterdir() if p.name.startswith(DB + "-open-")]  # left behind
    with Storage.open(data_dir) as store:
        assert len(checks) == 1
        assert _keys(store) == ["ledger_checked"]
        assert store.ledger.count() in (1, 2)  # the killed match: recorded, or still saved
    with Storage.open(data_dir) as store:
        assert _keys(store) == []
    assert len(checks) == 1
    assert not [p for p in data_dir.iterdir() if p.name.startswith(DB + "-open-")]


_HOLDER = """
import os, signal, sys, time
from koikoi_desktop.storage import Storage
store = Storage.open(sys.argv[1])
if sys.argv[2] == "fork":  # a worker forked while the database is open outlives its parent
    ready_r, ready_w = os.pipe()
    if os.fork() == 0:
        os.write(ready_w, b"1")  # os.fork has returned here: the fork handlers have run
        time.sleep(60)
        os._exit(0)
    os.read(ready_r, 1)
print("open", flush=True)
if sys.argv[2] == "fork":
    os.kill(os.getpid(), signal.SIGKILL)
time.sleep(60)
"""


def _holder(data_dir: Path, how: str) -> subprocess.Popen[str]:
    """A copy of the game with the data folder open, in another process ("wait": it stays;
    "fork": it forks a long-lived child, then SIGKILLs itself)."""
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(data_dir), how],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(),
        start_new_session=True,
    )
    assert child.stdout is not None and child.stdout.readline() == "open\n"
    return child


def test_a_copy_running_in_another_process_is_not_checked_under_it(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    """Its marker is held (locked) while it runs: a second start does not check the file under
    it; once it is killed, the lock is gone with it and the next start checks."""
    with Storage.open(data_dir) as store:
        assert store.record_match(h.make_record())
    other = _holder(data_dir, "wait")
    try:
        with Storage.open(data_dir) as store:
            assert store.ledger.count() == 1 and _keys(store) == []
        assert checks == []
    finally:
        other.kill()
        other.wait()
    with Storage.open(data_dir) as store:
        assert _keys(store) == ["ledger_checked"]
    assert len(checks) == 1


def test_a_marker_whose_process_id_now_names_another_program_is_checked(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    """After a power cut the left marker's process id may belong to another running program;
    a process id cannot tell, the marker's lock can: nobody holds it, so the start checks."""
    with Storage.open(data_dir) as store:
        assert store.record_match(h.make_record())
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (data_dir / f"{DB}-open-{stranger.pid}-0123456789ab").write_text("host\n")
        with Storage.open(data_dir) as store:
            assert _keys(store) == ["ledger_checked"]
        assert len(checks) == 1
    finally:
        stranger.kill()
        stranger.wait()
    assert not [p for p in data_dir.iterdir() if p.name.startswith(DB + "-open-")]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forked workers are Linux's")
def test_a_forked_worker_left_alive_does_not_hide_a_killed_copy(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    """The game forks its thinker and sound workers; a worker that outlives a killed game must
    not keep the game's marker locked (it closes its copy of the descriptor at the fork)."""
    with Storage.open(data_dir) as store:
        assert store.record_match(h.make_record())
    killed = _holder(data_dir, "fork")
    assert killed.wait(timeout=30) == -9
    try:
        with Storage.open(data_dir) as store:
            assert _keys(store) == ["ledger_checked"]
        assert len(checks) == 1
    finally:
        os.killpg(killed.pid, 9)  # the forked child, in the holder's session


# ----------------------------------------------------------------- damage met in a read


def _newest_index_leaf(path: Path) -> int:
    """The rightmost leaf of the index the list reads (the player's matches by date: the newest,
    the list's first page)."""
    conn = sqlite3.connect(path)
    try:
        return int(
            conn.execute(
                "SELECT pageno FROM dbstat WHERE name = 'matches_by_kind' AND pagetype = 'leaf' "
                "ORDER BY path DESC LIMIT 1"
            ).fetchone()[0]
        )
    finally:
        conn.close()


def _damage_page(path: Path, page: int) -> bytes:
    """Overwrite one page as a failing disk would: the file's size and modification time stay
    those of its clean close."""
    conn = sqlite3.connect(path)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    before = path.stat()
    with open(path, "r+b") as handle:
        handle.seek((page - 1) * size)
        handle.write(random.Random(page).randbytes(size))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    return path.read_bytes()


def test_a_page_damaged_in_a_cleanly_closed_file_is_met_on_the_ledger_screen(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    import pygame

    from koikoi_desktop import app as app_mod
    from koikoi_desktop import scenes
    from koikoi_desktop.ai import InlineExecutor
    from koikoi_desktop.scenes.ledger.common import warning_lines

    # the newest matches first, then 300 older ones (imported later: their pages come after),
    # so the index page that lists the newest matches lies in the middle of the file
    recs = [h.make_record(rounds=12) for _ in range(300)]
    older = [
        r.model_copy(update={"date": r.date - timedelta(days=400)})
        for r in (h.make_record(rounds=12) for _ in range(300))
    ]
    path = data_dir / DB
    with Storage.open(data_dir) as store:
        assert store.db is not None
        store.db.import_records(((r, None) for r in recs), source="test")
        store.db.import_records(((r, None) for r in older), source="test")
    newest = _newest_index_leaf(path)
    conn = sqlite3.connect(path)
    total = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    assert 0.2 * total < newest < 0.8 * total, (newest, total)  # in the middle of the file
    damaged = _damage_page(path, newest)

    # the game started as a player starts it, then the ledger screen: no check at start
    args = app_mod.parse_args(["--data-dir", str(data_dir), "--speed", "off"])
    app = app_mod.App(args)
    app.ai_executor = InlineExecutor()
    app_mod.sdl_defaults(args)
    try:
        app.open_storage()
        assert checks == [] and app.storage is not None and app.storage.warnings == []
        app.open_window()
        app.open_sprites()
        scene = scenes.create("ledger", app)
        app.stack.push(scene)
        surf = pygame.display.get_surface()
        for view in ("matches", "stats", "matches"):
            if view == "stats":
                scene.choose("stats")
            elif app.stack.top is not scene:
                app.stack.pop()
            for _ in range(3):  # frames: between them the damage is told and marked
                app.stack.update(1 / 60)
                app.stack.top.draw(surf)
        store = app.storage
        told = [w for w in store.warnings if w.key == "ledger_damaged_read"]
        assert len(told) == 1 and "malformed" in str(told[0].params["why"])  # one line
        assert sum("damaged" in line for line in warning_lines(app.words, store.warnings)) == 1
        assert (data_dir / (DB + "-check")).exists()  # the next start checks, even after a kill
        app.storage.close()
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        pygame.display.quit()
    assert checks == []

    # the next start checks, repairs, and keeps the damaged file aside
    with Storage.open(data_dir) as store:
        assert len(checks) == 1
        assert _keys(store) == ["ledger_db_repaired"]
        # the damage was in an index: every match is recovered, the newest listed first again
        assert store.ledger.count() == len(recs) + len(older)
        assert [s.match_id for s in store.ledger.summaries(0, 3)] == [
            r.match_id for r in recs[::-1][:3]
        ]
    [kept] = [p for p in h.aside(data_dir, DB) if not p.name.endswith(("-wal", "-shm"))]
    assert kept.name.startswith(DB + ".damaged-")
    assert kept.read_bytes() == damaged
    assert not (data_dir / (DB + "-check")).exists()
    with Storage.open(data_dir) as store:
        assert _keys(store) == []
    assert len(checks) == 1


def test_each_kind_of_read_meeting_a_damaged_page_returns_what_it_can(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    """A page of matches, a match, a review, the saved match, an export: with every other page
    of the records, and the reviews' and saved matches' pages, wrecked in a cleanly closed
    file, each read returns what it can without an exception, one line tells the player, and
    the next start repairs."""
    recs = [h.make_record(rounds=12) for _ in range(300)]
    with Storage.open(data_dir) as store:
        assert store.db is not None
        store.db.import_records(((r, None) for r in recs), source="test")
        assert store.save_review(recs[-1].match_id, '{"review": 1}') is None
        assert store.write_autosave("m-saved", "record text", {"round": 1})
    path = data_dir / DB
    conn = sqlite3.connect(path)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    data_pages = [
        p
        for (p,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'match_data' AND pagetype = 'leaf' "
            "ORDER BY path"
        )
    ]
    wreck = data_pages[::2] + [
        p
        for (p,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name IN ('reviews', 'saved') AND pagetype = 'leaf'"
        )
    ]
    conn.close()
    before = path.stat()
    raw = bytearray(path.read_bytes())
    for p in wreck:
        raw[(p - 1) * size : p * size] = random.Random(p).randbytes(size)
    path.write_bytes(bytes(raw))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with Storage.open(data_dir) as store:
        assert checks == [] and _keys(store) == []
        assert len(store.ledger.summaries(0, 50)) == 50  # the list's own rows read
        page = store.ledger.page(0, 100)
        assert 0 < len(page) < 100  # the records that still read
        for rec in recs[-20:]:
            got = store.ledger.get(rec.match_id)
            assert got is None or got[0] == rec
        assert store.ledger.review(recs[-1].match_id) is None
        assert store.saved_match() is None  # (its tidy tells the player)
        exported = list(store._all_rows())
        assert len(exported) < len(recs)
        assert all(r in recs for r, _ in exported)
        store.tidy()
        assert _keys(store) == ["ledger_damaged_read"]
    assert (data_dir / (DB + "-check")).exists()
    with Storage.open(data_dir) as store:
        assert len(checks) == 1 and _keys(store) == ["ledger_db_repaired"]


def test_a_write_meeting_a_damaged_page_marks_the_file_for_the_next_start(
    data_dir: Path, h: Any, checks: list[str]
) -> None:
    """Recording a match into a cleanly closed file whose newest index page went bad: the
    match stays in memory (one line names the damage), and the next start repairs."""
    with Storage.open(data_dir) as store:
        assert store.db is not None
        store.db.import_records(((h.make_record(), None) for _ in range(300)), source="test")
    path = data_dir / DB
    _damage_page(path, _newest_index_leaf(path))
    late = h.make_record()
    with Storage.open(data_dir) as store:
        assert checks == []
        assert store.record_match(late) is False
        assert [p[0].match_id for p in store.pending] == [late.match_id]
        assert _keys(store) == ["write_failed_ledger"]
        assert store.warnings[0].params["reason"] is Cause.DAMAGED
        assert (data_dir / (DB + "-check")).exists()
        store.tidy()
        assert len(store.warnings) == 1  # told once
        store.pending.clear()  # (the game asks to export it at quit; not this test's point)
    with Storage.open(data_dir) as store:
        assert len(checks) == 1 and _keys(store) == ["ledger_db_repaired"]
        assert store.record_match(late)


def test_an_index_added_at_open_can_be_added_by_two_copies_at_once(data_dir: Path) -> None:
    """Two copies started together may both find an index of ``_INDEXES`` missing before
    either makes it (the second waits for the first one's transaction): making it again is no
    error (``test_two_copies_record_at_once_and_lose_nothing`` met this as a crash)."""
    with Storage.open(data_dir):
        pass
    conn = sqlite3.connect(data_dir / DB)
    try:
        for name, sql in ledger_db._INDEXES.items():
            conn.execute(f"DROP INDEX {name}")
            conn.execute(sql)
            conn.execute(sql)  # the second copy, which read the schema before the first made it
            assert conn.execute(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)
            ).fetchone() == (1,)
    finally:
        conn.close()
