"""The game's worker processes (the Expert's, the coach's, the review's, the sounds') start in
one module, :mod:`koikoi_desktop.processes`, and die with the game (issue 41): a worker whose
lifeline closes leaves, a worker whose parent is already gone at start leaves, a forked worker
never collects what it inherited, and :func:`~koikoi_desktop.processes.stop_pool` ends a worker
in the middle of a task. The whole game killed mid-match is in ``tests/abuse/test_workers.py``.
"""

from __future__ import annotations

import ast
import concurrent.futures as cf
import gc
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import koikoi_desktop
from koikoi_desktop import processes
from koikoi_desktop.processes import ORPHANED, bind_to_parent, stop_pool, worker_context

ROOT = Path(__file__).resolve().parents[1]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux")

FREED: list[int] = []


class _Cycle:
    """Garbage only the collector can free (it refers to itself); says in whose process."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        FREED.append(os.getpid())


def _collect_in_the_child() -> list[int]:
    gc.collect()
    return list(FREED)


@linux_only
def test_a_forked_worker_never_collects_what_it_inherited() -> None:
    FREED.clear()
    was = gc.isenabled()
    gc.disable()  # the garbage below must still be there at the fork
    pool = processes.worker_pool()
    try:
        _Cycle()
        freed_there = pool.submit(_collect_in_the_child).result(timeout=60)
    finally:
        stop_pool(pool)
        if was:
            gc.enable()
    assert freed_there == []  # the child left it alone
    gc.collect()
    freed_here = list(FREED)
    assert freed_here == [os.getpid()]  # the parent, whose garbage it is, frees it


def test_every_worker_process_starts_in_the_one_module() -> None:
    """No module of the game but ``processes.py`` chooses a start method, makes a process
    pool or a process: a worker started elsewhere would not die with the game. The arena is
    not the game (a developer's command, ``python -m koikoi_desktop.ai.arena``, whose
    ``multiprocessing.Pool`` workers leave when their task queue closes)."""
    root = Path(koikoi_desktop.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        if path.relative_to(root) in (Path("processes.py"), Path("ai/arena.py")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in ("fork", "spawn", "forkserver"):
                found.append(f"{path.relative_to(root)}: {node.value!r}")
            if isinstance(node, ast.Call):  # a call, not a type annotation
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("ProcessPoolExecutor", "Process", "get_context", "fork"):
                    found.append(f"{path.relative_to(root)}: {name}()")
    assert found == []


# ------------------------------------------------------------------------ a worker's own end


def _sleeper(lifeline: Any, writer: Any, parent: int) -> None:
    """A worker bound to ``parent`` by ``lifeline`` (death signal off: only the pipe acts),
    which closes its inherited copy of the write end as the game's fork hook does, then
    sleeps."""
    writer.close()
    bind_to_parent(lifeline, parent, death_signal=False)
    time.sleep(60)


def _wait_end(proc: Any, seconds: float) -> int | None:
    proc.join(timeout=seconds)
    return proc.exitcode  # type: ignore[no-any-return]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_worker_whose_lifeline_closes_exits_at_once(method: str) -> None:
    """The write end held here stands for the game: closing it (what the system does when the
    game dies, however) ends the worker within 2 s, through the pipe alone."""
    if method == "fork" and not sys.platform.startswith("linux"):
        pytest.skip("forks on Linux only")
    import multiprocessing

    ctx = multiprocessing.get_context(method)
    reader, writer = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_sleeper, args=(reader, writer, os.getpid()), daemon=True)
    proc.start()
    try:
        time.sleep(0.5 if method == "fork" else 3.0)  # bound and sleeping (spawn imports)
        assert proc.is_alive()
        start = time.monotonic()
        writer.close()
        code = _wait_end(proc, 10.0)
        took = time.monotonic() - start
    finally:
        if proc.is_alive():
            proc.kill()
            proc.join()
    assert code == ORPHANED
    assert took < 2.0, f"the worker took {took:.2f} s to end"


def test_a_worker_whose_parent_is_gone_at_start_exits_at_once() -> None:
    """The process that started it is not its parent any more (it died before the worker was
    bound): the worker leaves at once, though its pipe is still open."""
    import multiprocessing

    ctx = worker_context()
    reader, writer = ctx.Pipe(duplex=False)
    gone = os.getpid() + 1_000_000  # no process has this id: the parent that died
    proc = ctx.Process(target=_sleeper, args=(reader, writer, gone), daemon=True)
    proc.start()
    try:
        code = _wait_end(proc, 30.0)
    finally:
        writer.close()
        if proc.is_alive():
            proc.kill()
            proc.join()
    assert code == ORPHANED
    assert isinstance(ctx, multiprocessing.context.BaseContext)


_GAME = r"""
import sys, time
from koikoi_desktop import processes

if sys.argv[1] == "no-signal":  # what a system without the parent-death signal has: the pipe
    processes._set_parent_death_signal = lambda: None
if sys.argv[1] == "signal-only":  # the parent-death signal alone: the watcher never starts
    processes._watch = lambda lifeline: None
if sys.argv[1] == "spawn":  # what macOS and Windows do (and no parent-death signal there)
    import multiprocessing
    processes.worker_context = lambda: multiprocessing.get_context("spawn")
    processes._set_parent_death_signal = lambda: None
proc = processes.start_worker(time.sleep, (60,), name="koikoi-test-sleeper")
pool = processes.worker_pool()
pool.submit(time.sleep, 60)
time.sleep(0.5 if sys.argv[1] != "spawn" else 5.0)  # both started and bound
print(proc.pid, *pool._processes, flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", ["both", "no-signal", "signal-only", "spawn"])
def test_workers_die_within_2_s_of_a_killed_parent(how: str) -> None:
    """A process starts a worker of each kind (one process, one pool) and is killed with
    SIGKILL: both workers are gone within 2 s — with the parent-death signal and the pipe, with
    the pipe alone (as where there is no such signal), with the signal alone, and spawned."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    game = subprocess.Popen(
        [sys.executable, "-c", _GAME, how], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert game.stdout is not None
        pids = [int(p) for p in game.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids), pids
        game.kill()
        game.wait(timeout=10)
        end = time.monotonic() + 2.0
        while any(alive(p) for p in pids) and time.monotonic() < end:
            time.sleep(0.05)
        left = [p for p in pids if alive(p)]
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    for p in left:
        os.kill(p, 9)
    assert left == [], f"workers alive 2 s after their game was killed ({how})"


def _busy() -> None:
    time.sleep(60)


def test_stop_pool_ends_a_worker_in_the_middle_of_a_task() -> None:
    pool = processes.worker_pool()
    fut = pool.submit(_busy)
    time.sleep(0.5)
    (proc,) = list(pool._processes.values())
    assert proc.is_alive() and not fut.done()
    start = time.monotonic()
    stop_pool(pool)
    proc.join(timeout=10)
    assert not proc.is_alive()
    assert time.monotonic() - start < 2.0
    with pytest.raises((cf.CancelledError, cf.process.BrokenProcessPool)):
        fut.result(timeout=10)
