"""How the game starts its worker processes, and how they die with it.

The game thinks, judges and makes sounds in worker processes: the Expert opponent
(``ai.worker.Thinker``), the coach (``review.coach.Coach``), the review's analysis
(``review.runner.ReviewRunner``) and the sound synthesis (``ui.audio.SynthJob``). Each of them
starts its worker here, as a :class:`Worker` (one process that runs the tasks given to it, one
at a time, in order: an executor), with :func:`start_worker` (one process, one job), or, for
work spread over every core (a ledger import), with :func:`worker_pool`; and ends it with
:meth:`Worker.stop`, :meth:`multiprocessing.Process.kill` or :func:`stop_pool`. This module
imports the standard library only, so every layer may use it (tests/test_import_cycles.py puts
it in the bottom layer).

A worker never outlives the game, however the game ends (a crash, kill -9, a logout):

* **A pipe every worker watches** (every system). The game holds the write end of one pipe,
  the *lifeline*, for as long as it runs, and no other process holds it: a forked child closes
  its inherited copy at once (:func:`os.register_at_fork`), a spawned child never gets it. Each
  worker starts a daemon thread that blocks reading the read end; when the game is gone the
  system closes the write end, the read returns (end of file) and the thread ends the worker
  with :func:`os._exit` at once (no clean-up: a worker's work is worth nothing without the game).
* **The parent-death signal** (Linux): the worker asks the kernel for SIGKILL when its parent
  dies (``prctl(PR_SET_PDEATHSIG)``), the same guarantee without a thread having to run.
* **A parent already gone at start**: the parent may die between the fork and the ``prctl``
  (the kernel would then never send the signal), so the worker compares its parent's process id
  with the one that started it and leaves at once when they differ; and a lifeline whose write
  end is already closed reads end of file at once.

Decisions:

* A worker ignores SIGTERM and SIGINT; the game ends it. A signal sent to the whole process
  group (Ctrl+C in a terminal, ``timeout``, a session's end) reaches the game too, which saves
  the match and ends its workers; a worker that died of it first was met by the game as a
  failure (a sound synthesis that ended without a result crashed the game, whose SIGTERM must
  end it with status 0). A forked worker would otherwise inherit the game's handler
  (``App.on_signal``), which only sets a flag in the worker's copy of the app.
* So the game ends a worker with SIGKILL (:meth:`Worker.stop`, ``Process.kill``, and at exit
  every worker still running), and SIGKILL is the parent-death signal.
* The parent-death signal is sent when the *thread* that started the worker ends, not the
  process. The game starts its workers from the main thread, which lives as long as the game;
  a worker started from another thread does without the signal (the lifeline still holds).
* :meth:`Worker.stop` kills the worker rather than letting it finish the task it is on, and
  nothing waits for a worker at exit. The workers used to be one-worker
  ``concurrent.futures.ProcessPoolExecutor`` pools, which the interpreter joins at exit after
  their task: a judgement of several seconds made SIGTERM on the review screen take 12 s to end
  the game (issue 43). Whatever the worker was computing was going to be dropped. A pool's
  worker cannot be killed through its public interface before Python 3.14 (and a pool whose
  worker is killed under cancelled futures raises ``InvalidStateError`` in its manager thread on
  3.11), hence :class:`Worker`: a process, a pipe and a daemon thread that hands the tasks over
  one at a time and resolves their futures.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import ctypes
import gc
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import multiprocessing.process
import os
import pickle
import queue
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.reduction import ForkingPickler
from typing import Any

#: Linux's ``PR_SET_PDEATHSIG`` (``<linux/prctl.h>``).
PR_SET_PDEATHSIG = 1

#: The exit status of a worker that ended because the game was gone.
ORPHANED = 3

#: Whether every fork of this process freezes the garbage collector's objects first.
_FORK_HOOKS = False
#: The lifeline of this process (read end, write end), made at the first worker's start.
_LIFELINE: tuple[Any, Any] | None = None
#: The workers this process started (killed at exit when still running).
_STARTED: list[multiprocessing.process.BaseProcess] = []


def worker_context() -> multiprocessing.context.BaseContext:
    """How the game starts its worker processes: a fork on Linux (no re-import of ``__main__``,
    so scripts and tests need no main guard), a spawn elsewhere. The one place that decides it.

    A forked child starts with the parent's memory as it stood, including objects only the
    next garbage collection would have freed — an SQLite connection left unreferenced, say. Had
    the child's collector freed one, SQLite would take its global mutex, which another thread
    of the parent (the ledger's saver or its recount) may have held at the instant of the fork:
    the worker would wait for ever, and the game with it at quit (a full test run met exactly
    this). So every fork freezes the collector's objects first (:func:`gc.freeze`, undone in
    the parent straight after): a child never collects what it inherited, only what it makes.
    """
    global _FORK_HOOKS
    if not sys.platform.startswith("linux"):
        return multiprocessing.get_context("spawn")
    if not _FORK_HOOKS:
        os.register_at_fork(
            before=gc.freeze, after_in_parent=gc.unfreeze, after_in_child=_forget_in_child
        )
        _FORK_HOOKS = True
    return multiprocessing.get_context("fork")


def _lifeline(ctx: multiprocessing.context.BaseContext) -> Any:
    """The read end of this process's lifeline (made on first use; the write end stays open,
    unused, until the process ends)."""
    global _LIFELINE
    if _LIFELINE is None:
        _LIFELINE = ctx.Pipe(duplex=False)
        atexit.register(_kill_started)  # after multiprocessing's own: it runs before it
    return _LIFELINE[0]


def _forget_in_child() -> None:
    """In a forked child: close the inherited write end of the parent's lifeline (held open
    here, it would keep every sibling worker's pipe open after the game died) and forget the
    pipe and the parent's workers (a worker that starts workers of its own makes its own)."""
    global _LIFELINE
    if _LIFELINE is not None:
        _LIFELINE[1].close()
        _LIFELINE = None
    _STARTED.clear()


def _kill_started() -> None:
    """At exit: kill the workers still running. multiprocessing's own exit handler would send
    its daemon processes SIGTERM, which a worker ignores, and then wait for them."""
    for proc in _STARTED:
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=5.0)
    _STARTED.clear()


def _set_parent_death_signal() -> None:
    """Linux: SIGKILL this process when its parent dies (nothing elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(PR_SET_PDEATHSIG): {os.strerror(err)}")


def _watch(lifeline: Any) -> None:
    """The watcher thread: block until the game's end closes the lifeline, then end."""
    multiprocessing.connection.wait([lifeline])
    os._exit(ORPHANED)


def bind_to_parent(lifeline: Any, parent: int, *, death_signal: bool = True) -> None:
    """In a worker, first thing: die with the game (see the module docstring). ``parent`` is
    the process id of the game that started the worker, ``lifeline`` the read end of its
    lifeline; ``death_signal`` False where the starting thread is not the game's main thread."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if death_signal:
        _set_parent_death_signal()
    if os.getppid() != parent:  # the game died before the signal was asked for
        os._exit(ORPHANED)
    threading.Thread(target=_watch, args=(lifeline,), name="koikoi-lifeline", daemon=True).start()


def _binding() -> tuple[multiprocessing.context.BaseContext, tuple[Any, int, bool]]:
    ctx = worker_context()
    on_main = threading.current_thread() is threading.main_thread()
    return ctx, (_lifeline(ctx), os.getpid(), on_main)


def _bound_pool_worker(lifeline: Any, parent: int, death_signal: bool) -> None:
    bind_to_parent(lifeline, parent, death_signal=death_signal)


def worker_pool(workers: int = 1) -> cf.ProcessPoolExecutor:
    """A process pool of ``workers`` (one by default) that die with the game. Start it from
    the thread that will submit to it (the game's main thread); end it with
    :func:`stop_pool`."""
    ctx, bound = _binding()
    return cf.ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_bound_pool_worker, initargs=bound
    )


def stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """End the pool's workers now, even in the middle of a task (their results would be
    dropped): nothing waits for them, at exit neither (see the module docstring). The tasks
    not yet done fail with ``BrokenProcessPool``; they are not cancelled, for on Python 3.11 a
    pool whose worker dies raises ``InvalidStateError`` in its manager thread over a cancelled
    future (so a one-worker job is a :class:`Worker`, whose futures may be cancelled)."""
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=False)
    for proc in processes:
        proc.kill()


def _bound_process(
    lifeline: Any,
    parent: int,
    death_signal: bool,
    target: Callable[..., None],
    args: tuple[Any, ...],
) -> None:
    bind_to_parent(lifeline, parent, death_signal=death_signal)
    target(*args)


def start_worker(
    target: Callable[..., None], args: tuple[Any, ...], *, name: str
) -> multiprocessing.process.BaseProcess:
    """Start ``target(*args)`` in a worker process (a daemon) that dies with the game;
    ``target`` and ``args`` must pickle where the system spawns. End it with ``kill()``."""
    ctx = worker_context()
    on_main = threading.current_thread() is threading.main_thread()
    bound = (_lifeline(ctx), os.getpid(), on_main, target, args)
    proc: multiprocessing.process.BaseProcess = ctx.Process(  # type: ignore[attr-defined]
        target=_bound_process, args=bound, daemon=True, name=name
    )
    proc.start()
    _STARTED[:] = [p for p in _STARTED if p.is_alive()]
    _STARTED.append(proc)
    return proc


# ----------------------------------------------------------------------------- the executor


class RemoteTraceback(Exception):
    """The worker's traceback of an error raised by a task (the ``__cause__`` of the error
    the task's future raises in the game)."""

    def __str__(self) -> str:
        return str(self.args[0])


def _with_cause(exc: BaseException, text: str) -> BaseException:
    exc.__cause__ = RemoteTraceback(text)
    return exc


class _Failure:
    """A task's error on its way to the game: it unpickles as the error itself, with the
    worker's traceback as its cause."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc
        self.text = "".join(traceback.format_exception(exc))

    def __reduce__(self) -> tuple[Any, ...]:
        return _with_cause, (self.exc, self.text)


def _serve(conn: Any) -> None:
    """The worker's loop: a task ``(fn, args, kwargs)`` in, ``(True, result)`` or ``(False,
    error)`` out, until the game closes the pipe."""
    while True:
        try:
            raw = conn.recv_bytes()
        except EOFError:
            return
        try:
            fn, args, kwargs = ForkingPickler.loads(raw)
            data = ForkingPickler.dumps((True, fn(*args, **kwargs)))
        except Exception as exc:  # handed over whole (the task's error, or its result's that
            # does not pickle): the task's owner raises it in the game, as a process pool does
            data = ForkingPickler.dumps((False, _Failure(exc)))
        conn.send_bytes(bytes(data))


_Task = tuple["cf.Future[Any]", Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class Worker(cf.Executor):
    """One worker process that runs the tasks submitted to it one at a time, in order, and
    dies with the game (see the module docstring). It starts at the first ``submit`` (from the
    game's main thread); :meth:`stop` kills it, in the middle of a task too.

    A task's error is raised by its future; a worker that died (killed from outside, out of
    memory) fails the task it was on and every later one with ``BrokenProcessPool``, as a
    process pool does.
    """

    def __init__(self, name: str = "koikoi-worker") -> None:
        self.name = name
        self._tasks: queue.SimpleQueue[_Task | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._feeder: threading.Thread | None = None
        self._stopped = False
        self._broken = False

    @property
    def process(self) -> multiprocessing.process.BaseProcess | None:
        """The worker process (None before the first task)."""
        return self._proc

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        with self._lock:
            if self._stopped:
                raise RuntimeError("cannot submit a task to a stopped worker")
            if self._broken:
                future.set_exception(BrokenProcessPool("the worker process has ended"))
                return future
            if self._proc is None:
                self._start()
            self._tasks.put((future, fn, args, kwargs))
        return future

    def _start(self) -> None:
        mine, theirs = worker_context().Pipe(duplex=True)
        self._proc = proc = start_worker(_serve, (theirs,), name=self.name)
        theirs.close()  # the worker's end: only the worker holds it
        self._feeder = threading.Thread(
            target=self._feed, args=(mine, proc), name=f"{self.name}-feeder", daemon=True
        )
        self._feeder.start()

    def _feed(self, conn: Any, proc: multiprocessing.process.BaseProcess) -> None:
        """The feeder thread: hand each task over, wait for its answer or the worker's end."""
        while True:
            task = self._tasks.get()
            if task is None:
                break
            future, fn, args, kwargs = task
            if not future.set_running_or_notify_cancel():
                continue
            try:
                data = ForkingPickler.dumps((fn, args, kwargs))
            except (pickle.PicklingError, TypeError, AttributeError) as exc:  # a task that
                # does not pickle (a lambda, a local function, an open file): its owner's error
                future.set_exception(exc)
                continue
            try:
                conn.send_bytes(bytes(data))
                multiprocessing.connection.wait([conn, proc.sentinel])
                raw = conn.recv_bytes()
            except (OSError, EOFError):  # the worker ended: killed, stopped, out of memory
                self._break(future)
                break
            try:
                ok, value = ForkingPickler.loads(raw)
            except (pickle.UnpicklingError, AttributeError, ImportError, TypeError) as exc:
                # an answer that does not unpickle here (a class this side cannot build)
                future.set_exception(exc)
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        conn.close()
        proc.join(timeout=5.0)

    def _break(self, running: cf.Future[Any]) -> None:
        """The worker is gone: the task it was on and every queued one fail."""
        error = BrokenProcessPool("the worker process ended while the task was running or queued")
        with self._lock:
            self._broken = True
        running.set_exception(error)
        while True:
            try:
                task = self._tasks.get_nowait()
            except queue.Empty:
                return
            if task is not None and task[0].set_running_or_notify_cancel():
                task[0].set_exception(error)

    def stop(self) -> None:
        """Drop the queued tasks and kill the worker now, even in the middle of a task (its
        answer would be dropped): nothing waits for it, at exit neither."""
        with self._lock:
            self._stopped = True
            proc = self._proc
        while True:
            try:
                task = self._tasks.get_nowait()
            except queue.Empty:
                break
            if task is not None:
                task[0].cancel()
        self._tasks.put(None)  # an idle feeder ends
        if proc is not None:
            proc.kill()

    def join(self, timeout: float | None = None) -> None:
        """Wait until a stopped worker's process is gone and reaped. The feeder thread reaps
        it (its last step); joining the process here as well would race that thread's
        ``waitpid``: the loser finds no child and takes the process to be still running."""
        feeder = self._feeder
        if feeder is not None:
            feeder.join(timeout)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """The executor's ``shutdown``: with ``wait`` (and not ``cancel_futures``) the tasks
        submitted are finished first; then :meth:`stop`."""
        if wait and not cancel_futures:
            with self._lock:
                self._stopped = True
                feeder = self._feeder
            self._tasks.put(None)
            if feeder is not None:
                feeder.join()
        self.stop()


__all__ = [
    "ORPHANED",
    "RemoteTraceback",
    "Worker",
    "bind_to_parent",
    "start_worker",
    "stop_pool",
    "worker_context",
    "worker_pool",
]
