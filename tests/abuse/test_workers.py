"""No process of the game outlives it (issue 41), and a signal ends it within 2 s on every
screen (issue 43), whatever its workers are doing.

Each test runs the real game (``busy_game.py``: ``koikoi_desktop.app.main`` on SDL's dummy
drivers, sound opened, a stand-in for the person at the table) with its own data folder, waits
until every worker of the screen is busy, then ends it from outside:

* kill -9 mid-match with the person seated, the coach on and the Expert thinking: within 2 s no
  worker is alive (before, each kill left the computer's and the coach's workers sleeping for
  good, holding the database);
* SIGTERM on the review screen while its analysis runs, and at the table while the computer
  thinks and the coach judges: exit status 0 within 2 s, no worker left (the review's took
  12-14 s: the interpreter waited at exit for the judgement under way);
* SIGTERM to the whole process group (as ``timeout``, or a session's end, sends it) while the
  sounds are being made: status 0, no crash report (a synthesis worker that died of it first
  crashed the game).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc (the workers are checked there)"
)

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("busy_game.py")
#: The first dealer is the person with this seed (they move first, so the coach has work).
SEED = 6


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def descendants(root: int) -> set[int]:
    """Every living process under ``root`` (its children, theirs, ...), read from /proc."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except (FileNotFoundError, ProcessLookupError):
                continue
            parent[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return {p for p in found if alive(p)}


def gone_within(pids: set[int], seconds: float) -> set[int]:
    """The processes of ``pids`` still alive after ``seconds`` (waiting less when all end)."""
    end = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    return {p for p in pids if alive(p)}


@contextmanager
def busy_game(
    tmp_path: Path, screen: str, *args: str
) -> Iterator[tuple[subprocess.Popen[str], set[int]]]:
    """The game on ``screen``, once every worker of it is busy: the process and its workers
    (every process under it). Whatever is left of them is killed when the block ends."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"default_opponent": "expert"}))
    out = tmp_path / "busy.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "KOIKOI_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    argv = ["--data-dir", str(data), "--scene", screen, "--seed", str(SEED), "--speed", "off"]
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(out), screen, *argv, *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, to signal as a session would
    )
    workers: set[int] = set()
    try:
        end = time.monotonic() + 240
        while not out.exists():
            assert proc.poll() is None, (
                f"the game ended early: {proc.stderr.read() if proc.stderr else ''}"
            )
            assert time.monotonic() < end, "the game's workers were never all busy"
            time.sleep(0.1)
        told = set(json.loads(out.read_text())["pids"])
        workers = descendants(proc.pid)
        assert told and told <= workers, (told, workers)
        yield proc, workers
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_game_killed_mid_match_leaves_no_worker(tmp_path: Path) -> None:
    """The person seated, the coach judging, the Expert thinking, the sounds being made: kill
    -9 of the game, and 2 s later none of its workers is alive."""
    with busy_game(tmp_path, "table") as (proc, workers):
        assert len(workers) >= 4  # the computer's, the coach's, two syntheses
        proc.kill()
        proc.wait(timeout=30)
        left = gone_within(workers, 2.0)
    assert left == set(), f"workers alive 2 s after the game was killed: {sorted(left)}"


@pytest.mark.parametrize("screen", ["review", "table"])
def test_sigterm_ends_the_game_within_2_s_on_a_busy_screen(tmp_path: Path, screen: str) -> None:
    """The review's analysis under way, or the computer thinking while the coach judges:
    SIGTERM ends the game with status 0 within 2 s, and no worker is left."""
    with busy_game(tmp_path, screen) as (proc, workers):
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=60)
        took = time.monotonic() - start
        left = gone_within(workers, 0.5)
        err = proc.stderr.read() if proc.stderr else ""
    assert status == 0, err
    assert took < 2.0, f"the game took {took:.2f} s to end after SIGTERM on the {screen} screen"
    assert left == set(), f"workers alive after the game ended: {sorted(left)}"


def test_sigterm_to_the_whole_group_ends_the_game_cleanly(tmp_path: Path) -> None:
    """The signal reaches the workers too (a session's end, ``timeout``): they leave their end
    to the game, which saves, ends them and exits with status 0 — no crash report."""
    with busy_game(tmp_path, "table") as (proc, workers):
        start = time.monotonic()
        os.killpg(proc.pid, signal.SIGTERM)
        status = proc.wait(timeout=60)
        took = time.monotonic() - start
        left = gone_within(workers, 0.5)
        err = proc.stderr.read() if proc.stderr else ""
    assert status == 0, err
    assert "crashed" not in err
    assert not (tmp_path / "data" / "crash").exists()
    assert took < 2.0, f"the game took {took:.2f} s to end"
    assert left == set(), f"workers alive after the game ended: {sorted(left)}"
