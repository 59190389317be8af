"""The game's worker processes (the Expert's, the coach's, the review's, the sounds') start in
one module, :mod:`koikoi_desktop.processes`, and die with the game (issue 41): a worker whose
lifeline closes leaves, a worker whose parent is already gone at start leaves, a forked worker
never collects what it inherited, and :meth:`~koikoi_desktop.processes.Worker.stop` ends a
worker in the middle of a task. The whole game killed mid-match is in
``tests/abuse/test_workers.py``.
"""

from __future__ import annotations

import ast
import concurrent.futures as cf
import gc
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import koikoi_desktop
from koikoi_desktop import processes
from koikoi_desktop.processes import (
    ORPHANED,
    RemoteTraceback,
    Worker,
    bind_to_parent,
    worker_context,
)

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
    worker = Worker()
    try:
        _Cycle()
        freed_there = worker.submit(_collect_in_the_child).result(timeout=60)
    finally:
        worker.stop()
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
worker = processes.Worker()
worker.submit(time.sleep, 60)
time.sleep(0.5 if sys.argv[1] != "spawn" else 5.0)  # both started and bound
print(proc.pid, worker.process.pid, flush=True)
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
    """A process starts a worker of each kind (one process, one executor) and is killed with
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


def _fail(n: int) -> int:
    raise ValueError(f"task {n} fails")


def _exit() -> None:
    os._exit(9)  # the worker dies (as when the system kills it)


def test_the_worker_runs_its_tasks_in_order_and_hands_errors_back() -> None:
    worker = Worker()
    try:
        futures = [worker.submit(pow, n, 2) for n in range(6)]
        failing = worker.submit(_fail, 7)
        after = worker.submit(os.getpid)
        assert [f.result(timeout=60) for f in futures] == [n * n for n in range(6)]
        with pytest.raises(ValueError, match="task 7 fails") as raised:
            failing.result(timeout=60)
        cause = raised.value.__cause__
        assert isinstance(cause, RemoteTraceback) and "_fail" in str(cause)  # the worker's
        assert after.result(timeout=60) == worker.process.pid != os.getpid()  # one process
        with pytest.raises((pickle.PicklingError, AttributeError)):  # a task that does not pickle
            worker.submit(pow, lambda: 0, 2).result(timeout=60)
        assert worker.submit(pow, 3, 3).result(timeout=60) == 27  # the worker goes on
    finally:
        worker.stop()


def test_a_worker_that_dies_fails_its_task_and_every_later_one() -> None:
    worker = Worker()
    try:
        dying = worker.submit(_exit)
        queued = worker.submit(pow, 2, 2)
        with pytest.raises(cf.process.BrokenProcessPool):
            dying.result(timeout=60)
        with pytest.raises(cf.process.BrokenProcessPool):
            queued.result(timeout=60)
        with pytest.raises(cf.process.BrokenProcessPool):
            worker.submit(pow, 2, 2).result(timeout=60)
    finally:
        worker.stop()


def test_stop_ends_a_worker_in_the_middle_of_a_task() -> None:
    """Killed at once with a task under way and one queued (the queued one cancelled): no
    error anywhere (a killed process pool raised one in its manager thread over a cancelled
    future), and a stopped worker takes no task."""
    worker = Worker()
    running = worker.submit(_busy)
    queued = worker.submit(_busy)
    time.sleep(0.5)
    proc = worker.process
    assert proc is not None and proc.is_alive() and not running.done()
    queued.cancel()
    start = time.monotonic()
    worker.stop()
    # the worker's own join: its feeder thread reaps the process, and a second waitpid here
    # could lose that race and take the reaped process for alive (a CI failure)
    worker.join(timeout=10)
    assert not proc.is_alive()
    assert time.monotonic() - start < 2.0
    with pytest.raises(cf.process.BrokenProcessPool):
        running.result(timeout=10)
    assert queued.cancelled()
    with pytest.raises(RuntimeError):
        worker.submit(pow, 2, 2)


def test_shutdown_with_wait_finishes_the_tasks_first() -> None:
    with Worker() as worker:
        futures = [worker.submit(pow, n, 3) for n in range(4)]
    assert [f.result(timeout=0) for f in futures] == [0, 1, 8, 27]
    assert worker.process is not None
    worker.process.join(timeout=10)
    assert not worker.process.is_alive()


_EXITS = r"""
import time
from koikoi_desktop import processes
worker = processes.Worker()
worker.submit(time.sleep, 60)
processes.start_worker(time.sleep, (60,), name="koikoi-test-sleeper")
time.sleep(0.5)
print("busy", flush=True)
"""


def test_the_game_exits_at_once_with_busy_workers() -> None:
    """A process that ends with a worker busy and a process worker sleeping (neither stopped)
    ends at once: multiprocessing's exit handler, which sends its daemons SIGTERM (a worker
    ignores it) and joins them, finds them killed already."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-c", _EXITS], env=env, capture_output=True, text=True, timeout=120
    )
    took = time.monotonic() - start
    assert run.returncode == 0 and run.stdout == "busy\n", run.stderr
    assert run.stderr == ""
    assert took < 10.0, f"{took:.1f} s: the exit waited for a worker"


def test_stop_pool_ends_every_worker_of_a_pool_with_tasks_queued(
    recwarn: pytest.WarningsRecorder,
) -> None:
    """A pool of several workers (the ledger import's), busy with tasks queued: stopped at
    once, the unfinished tasks fail with ``BrokenProcessPool``, and its manager thread raises
    nothing (cancelling them first made it raise ``InvalidStateError`` on Python 3.11)."""
    pool = processes.worker_pool(2)
    futures = [pool.submit(_busy) for _ in range(6)]
    time.sleep(0.5)
    procs = list(pool._processes.values())
    assert len(procs) == 2 and all(p.is_alive() for p in procs)
    start = time.monotonic()
    processes.stop_pool(pool)
    for proc in procs:
        proc.join(timeout=10)
    # The pool's own manager thread may reap a killed worker first, and then this thread's
    # join returns with no exit code yet (multiprocessing's poll swallows the ECHILD): ask again
    # until the code is known, within the same 2 s.
    while any(p.is_alive() for p in procs) and time.monotonic() - start < 2.0:
        time.sleep(0.02)
    assert not any(p.is_alive() for p in procs)
    assert time.monotonic() - start < 2.0
    for fut in futures:
        with pytest.raises(cf.process.BrokenProcessPool):
            fut.result(timeout=10)
    manager = pool._executor_manager_thread
    if manager is not None:
        manager.join(timeout=10)
    assert not [w for w in recwarn if "InvalidStateError" in str(w.message)]
