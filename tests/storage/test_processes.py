"""Real processes: killed between any two SQL statements of recording, killed at random while
playing, and two copies of the game recording into one database at once.

The promise under test (issue 12): a kill at any instant leaves a match either in progress (its
saved row, which Continue records later) or recorded exactly once — never both, never neither.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from koikoi_desktop.storage import Storage

CHILD = Path(__file__).with_name("recording_child.py")
ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("KOIKOI_DATA_DIR", None)
    return env


def _child(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHILD), *args],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )


def _rows(db: Path) -> tuple[list[str], list[str], int]:
    """(recorded match ids, saved match ids, round rows) read straight from the file."""
    conn = sqlite3.connect(db)
    try:
        recorded = [r[0] for r in conn.execute("SELECT match_id FROM matches")]
        saved = [r[0] for r in conn.execute("SELECT match_id FROM saved")]
        rounds = int(conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0])
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    return recorded, saved, rounds


def _statements(tmp_path: Path) -> list[str]:
    probe = _child(str(tmp_path / "probe"), "probe", "7", "0")
    assert probe.returncode == 0, probe.stderr
    line = next(ln for ln in probe.stdout.splitlines() if ln.startswith("STATEMENTS"))
    return line.split()[1:]


def test_the_recording_transaction_is_what_the_kill_test_assumes(tmp_path: Path) -> None:
    """One transaction: BEGIN, the match, its rounds and yaku, the saved row's removal, COMMIT;
    then only the checkpoint that empties the WAL, with the busy handler off around it so it
    never waits on a reader (outside the transaction: the match is already on disk)."""
    steps = _statements(tmp_path)
    tx = steps[: steps.index("COMMIT") + 1]
    assert tx[0] == "BEGIN" and "DELETE" in tx and steps.count("BEGIN") == 1
    assert steps[len(tx) :] == ["PRAGMA", "PRAGMA", "PRAGMA"]


def _kill_points(steps: list[str]) -> list[int]:
    """Where to kill (1-based: just before that statement): the first and the last statement of
    every run of one kind (BEGIN, the INSERTs of the match and its rounds, the SELECTs that read
    the counters, the rating's INSERT, the UPDATE, the DELETE of the saved row, COMMIT) and
    every statement after COMMIT. Inside one run the statements are the same kind of write
    into one open transaction, which SQLite rolls back whole; the points between them add
    nothing the first and the last do not already test, and each costs a process."""
    points = set()
    for i, kind in enumerate(steps):
        if i == 0 or steps[i - 1] != kind or i + 1 == len(steps) or steps[i + 1] != kind:
            points.add(i + 1)
    points.update(range(steps.index("COMMIT") + 1, len(steps) + 2))
    return sorted(points)


def test_killed_before_any_kind_of_statement_of_recording(tmp_path: Path) -> None:
    """SIGKILL just before each kill point of the recording (:func:`_kill_points`, read from
    the statements the recording really runs, so a new statement is covered without editing
    this test): the match is in progress or recorded, once; Continue then records it exactly
    once."""
    steps = _statements(tmp_path)
    n = steps.index("COMMIT") + 1  # the statements of the transaction
    points = _kill_points(steps)
    assert {1, 2, n - 1, n, n + 1} <= set(points) and len(points) < len(steps)
    for kill_at in points:
        data = tmp_path / f"data-{kill_at}"
        db = data / "koikoi.sqlite3"
        run = _child(str(data), "m-kill", "7", str(kill_at))
        where = f"killed before statement {kill_at} of {len(steps)}"
        if kill_at > len(steps):  # past the last statement: the child ends by itself
            assert run.returncode == 0, (where, run.stderr)
            continue
        assert run.returncode == -signal.SIGKILL, (where, run.returncode, run.stderr)
        recorded, saved, rounds = _rows(db)
        if kill_at <= n:  # died inside the transaction: nothing of it is on disk
            assert (recorded, saved, rounds) == ([], ["m-kill"], 0), where
        else:  # died after COMMIT: recorded once, no saved row left to record again
            assert recorded == ["m-kill"] and saved == [] and rounds == 2, where
        again = _child(str(data), "ignored", "7", "0", "--resume")
        if kill_at <= n:
            assert again.returncode == 0, (where, again.stderr)
            assert "RECORDED True" in again.stdout, where
        else:
            assert again.returncode == 3 and "nothing to continue" in again.stderr, where
        assert _rows(db) == (["m-kill"], [], 2), where
        with Storage.open(data) as store:
            assert store.ledger.count() == 1 and store.read_autosave() is None, where
            assert store.warnings == [], where


def _autoplay(data: Path, seed: int, matches: int, env: dict[str, str]) -> subprocess.Popen[str]:
    """The real game recording ``matches`` Beginner matches into ``data``, as fast as it goes."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "koikoi_desktop",
            "--autoplay",
            "--record",
            "--matches",
            str(matches),
            "--seats",
            "beginner,beginner",
            "--speed",
            "off",
            "--seed",
            str(seed),
            "--data-dir",
            str(data),
        ],
        env=env,
        cwd=data.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _healthy_matches(db: Path) -> int:
    """How many matches ``db`` holds, after checking it is sound, holds each match once and
    every match whole (all its rounds)."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        ids = [r[0] for r in conn.execute("SELECT match_id FROM matches")]
        assert len(ids) == len(set(ids))
        incomplete = conn.execute(
            "SELECT m.match_id FROM matches m LEFT JOIN rounds r USING (match_id) "
            "GROUP BY m.match_id HAVING COUNT(r.round) != MAX(m.rounds)"
        ).fetchall()
        assert incomplete == []
    finally:
        conn.close()
    return len(ids)


def test_kills_of_the_real_game_never_double_or_break_the_ledger(tmp_path: Path) -> None:
    """``--autoplay --record`` killed 12 times, each just before a named SQL statement of its
    run (the 5th, 13th … 93rd on the ledger's connection: the game's own test hook
    ``KOIKOI_TEST_KILL_AT_SQL``, counted by SQLite's trace callback, so where it stops does not
    depend on the machine's speed; a few matches are recorded by then): every match id once,
    every recorded match whole (all its rounds), the database always healthy. Every kind of
    statement of the recording transaction itself is a kill point in
    ``test_killed_before_any_kind_of_statement_of_recording``.

    The kills go to two data folders, six each, in turn (5, 21 … 85 and 13, 29 … 93), and the
    two folders' runs go side by side: the same twelve kill points on two cores in half the
    time; each folder sees its kills one after another, as a player's folder would."""
    lanes = (tmp_path / "a" / "data", tmp_path / "b" / "data")
    for data in lanes:
        data.parent.mkdir()
    seen: list[list[int]] = [[], []]
    points = list(range(5, 100, 8))
    for step in range(0, len(points), 2):
        procs = []
        for lane, data in enumerate(lanes):
            env = _env()
            env["KOIKOI_TEST_KILL_AT_SQL"] = str(points[step + lane])
            procs.append(_autoplay(data, step + lane, 50, env))
        for lane, proc in enumerate(procs):
            _out, err = proc.communicate(timeout=600)
            assert proc.returncode == -signal.SIGKILL, err
            seen[lane].append(_healthy_matches(lanes[lane] / "koikoi.sqlite3"))
    assert all(s == sorted(s) for s in seen)  # nothing committed is ever lost
    # and after all those kills the same folders still record, once per match
    procs = [_autoplay(data, 99, 1, _env()) for data in lanes]
    for lane, proc in enumerate(procs):
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert _healthy_matches(lanes[lane] / "koikoi.sqlite3") == seen[lane][-1] + 1


def test_two_copies_record_at_once_and_lose_nothing(tmp_path: Path) -> None:
    """Two game processes play and record into one database at the same moment: both
    copies' matches are all there, none twice."""
    data = tmp_path / "data"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "koikoi_desktop",
                "--autoplay",
                "--record",
                "--matches",
                "6",
                "--seats",
                "beginner,beginner",
                "--speed",
                "off",
                "--seed",
                str(100 * k),
                "--data-dir",
                str(data),
            ],
            env=_env(),
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for k in (1, 2)
    ]
    for p in procs:
        _out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    try:
        ids = [r[0] for r in conn.execute("SELECT match_id FROM matches WHERE computer = 1")]
    finally:
        conn.close()
    assert len(ids) == 12 and len(set(ids)) == 12


def test_two_copies_each_keep_their_own_match_in_progress(tmp_path: Path) -> None:
    """Each running copy's saved match is its own row; Continue in a third copy offers the
    most recent one that no running copy is playing, and says when another copy plays one."""
    data = tmp_path / "data"
    a = Storage.open(data)
    b = Storage.open(data)
    try:
        assert a.write_autosave("ma", "record-a", {"round": 1})
        assert b.write_autosave("mb", "record-b", {"round": 2})
        assert a.db is not None and b.db is not None
        assert {s.match_id for s in a.db.saved_matches()} == {"ma", "mb"}
        # same process, different owners: another copy's row counts as being played elsewhere
        assert [s.match_id for s in a.db.saved_matches() if s.in_use_elsewhere] == ["mb"]
        assert a.saved_in_use_elsewhere()
        saved = a.read_autosave()
        assert saved is not None and saved.meta["match_id"] == "ma"
    finally:
        b.close()
    # b has quit: its match is free to be continued, and it is the most recent
    saved = a.read_autosave()
    assert saved is not None and saved.meta["match_id"] == "mb"
    a.close()


RECOUNT = Path(__file__).with_name("recount_child.py")


def _recount_child(data: Path, kill_at: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RECOUNT), str(data), str(kill_at)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )


def _stale_ledger(data: Path) -> tuple[object, list[tuple[str, float]]]:
    """A ledger of rated and unrated matches whose counters and rating history are stale, as a
    mend leaves them; returns (the statistics, the ratings) they must count to."""
    from .conftest import make_record

    levels = ("beginner", "intermediate", "hotseat")
    with Storage.open(data) as store:
        for i in range(5):
            assert store.record_match(make_record(rounds=2, level=levels[i % 3], winner=i % 2))
        want = store.ledger.stats(include_practice=True), _ratings_of(store)
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    with conn:
        conn.execute("DELETE FROM totals WHERE practice = -1 AND grp = 'state'")
    conn.close()
    return want


def _ratings_of(store: Storage) -> list[tuple[str, float]]:
    return [(p.match_id, p.rating) for p in store.ledger.rating_history()]


def test_killed_anywhere_in_the_recount_nothing_is_half_counted(tmp_path: Path) -> None:
    """SIGKILL before statements of the recount (its reading, its write transaction, just
    after its COMMIT): the counters and the rating history are either counted or still stale,
    never half written, and the next start counts them to the same figures."""
    _stale_ledger(tmp_path / "probe")
    probe = _recount_child(tmp_path / "probe", 0)
    assert probe.returncode == 0, probe.stderr
    steps = next(ln for ln in probe.stdout.splitlines() if ln.startswith("STATEMENTS")).split()[1:]
    write = len(steps) - steps[::-1].index("BEGIN")  # 1-based: the write transaction's BEGIN
    commit = len(steps) - steps[::-1].index("COMMIT")
    assert steps[write - 1 : commit].count("BEGIN") == 1 and write < commit
    kills = sorted({1, write - 1, write, write + 2, *range(write + 3, commit, 7), commit})
    for kill_at in [*kills, commit + 1]:
        data = tmp_path / f"data{kill_at}"
        want = _stale_ledger(data)
        run = _recount_child(data, kill_at)
        if kill_at <= len(steps):
            assert run.returncode == -signal.SIGKILL, (kill_at, run.returncode, run.stderr)
        with Storage.open(data) as store:
            assert store.counting == (kill_at <= commit), kill_at
            assert store.wait_for_counting() and not store.counting
            assert (store.ledger.stats(include_practice=True), _ratings_of(store)) == want, kill_at
