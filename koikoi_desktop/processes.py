"""How the game starts its worker processes, and how they die with it.

The game thinks, judges and makes sounds in worker processes: the Expert opponent
(``ai.worker.Thinker``), the coach (``review.coach.Coach``), the review's analysis
(``review.runner.ReviewRunner``) and the sound synthesis (``ui.audio.SynthJob``). Each of them
starts its worker here, through :func:`worker_pool` (a one-worker process pool) or
:func:`start_worker` (one process), and ends it with :func:`stop_pool` or
:meth:`multiprocessing.Process.kill`. This module imports the standard library only, so every
layer may use it (tests/test_import_cycles.py puts it in the bottom layer).

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
* So the game ends a worker with SIGKILL (:func:`stop_pool`, ``Process.kill``), and SIGKILL is
  the parent-death signal.
* The parent-death signal is sent when the *thread* that started the worker ends, not the
  process. The game starts its workers from the main thread, which lives as long as the game;
  a worker started from another thread does without the signal (the lifeline still holds).
* :func:`stop_pool` kills the worker rather than letting it finish the task it is on: the
  interpreter joins a process pool's worker at exit, so a judgement of several seconds made
  SIGTERM on the review screen take 12 s to end the game (issue 43). Whatever the worker was
  computing was going to be dropped.
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import gc
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

#: Linux's ``PR_SET_PDEATHSIG`` (``<linux/prctl.h>``).
PR_SET_PDEATHSIG = 1

#: The exit status of a worker that ended because the game was gone.
ORPHANED = 3

#: Whether every fork of this process freezes the garbage collector's objects first.
_FORK_HOOKS = False
#: The lifeline of this process (read end, write end), made at the first worker's start.
_LIFELINE: tuple[Any, Any] | None = None


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
            before=gc.freeze, after_in_parent=gc.unfreeze, after_in_child=_drop_lifeline
        )
        _FORK_HOOKS = True
    return multiprocessing.get_context("fork")


def _lifeline(ctx: multiprocessing.context.BaseContext) -> Any:
    """The read end of this process's lifeline (made on first use; the write end stays open,
    unused, until the process ends)."""
    global _LIFELINE
    if _LIFELINE is None:
        _LIFELINE = ctx.Pipe(duplex=False)
    return _LIFELINE[0]


def _drop_lifeline() -> None:
    """In a forked child: close the inherited write end of the parent's lifeline (held open
    here, it would keep every sibling worker's pipe open after the game died) and forget the
    pipe (a worker that starts workers of its own makes its own)."""
    global _LIFELINE
    if _LIFELINE is not None:
        _LIFELINE[1].close()
        _LIFELINE = None


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
    """Drop every queued task and end the worker now, even in the middle of a task (its result
    would be dropped): nothing waits for it, at exit neither (see the module docstring)."""
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
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
    ctx, bound = _binding()
    proc: multiprocessing.process.BaseProcess = ctx.Process(  # type: ignore[attr-defined]
        target=_bound_process, args=(*bound, target, args), daemon=True, name=name
    )
    proc.start()
    return proc


__all__ = [
    "ORPHANED",
    "bind_to_parent",
    "start_worker",
    "stop_pool",
    "worker_context",
    "worker_pool",
]
