"""Importing a ledger export at any size: the file read as a stream (one match in memory at a
time, :func:`.export.iter_export_file`), every record replayed on all cores, the matches merged
in the order of the file.

No pygame here. The replay is most of what an import costs (a twelve-round match replays in
about as much CPU as playing it: 5 ms on a shared core, against 1 ms to read, validate, write
and rate it), so it runs in a pool of worker processes (one per core,
:func:`koikoi_desktop.processes.worker_pool`: they die with the game) on batches of matches,
with the match's content identity (both read the record text), while the game's process reads
the file ahead and writes the matches already checked. At most
a few batches are in flight, so memory stays bounded whatever the file's size. A file of one
batch or less is checked in the game's process (no worker to start).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from koikoi_desktop.processes import stop_pool, worker_pool

from .from_record import Verdict, claims, verdicts
from .models import MatchRecord

#: Matches a worker checks per task.
BATCH = 64

Item = tuple[MatchRecord, str | None]


def workers() -> int:
    """How many worker processes replay the records: one per core this process may use."""
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return max(1, len(usable) if usable is not None else (os.cpu_count() or 1))


def checked(
    items: Iterable[Item],
    *,
    cores: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[MatchRecord, str | None, Verdict]]:
    """``items`` with what a worker found of each (:func:`.from_record.verdicts`: why it does
    not stand for its match, None when its record replays to it; and its content identity),
    in the order given. ``progress(read)`` is told after
    each batch. The pool is ended however the reading ends (a bad file raises through here)."""
    n = cores if cores is not None else workers()
    pool: ProcessPoolExecutor | None = None
    queue: deque[tuple[list[Item], Future[list[Verdict]] | list[Verdict]]] = deque()
    read = 0
    batch: list[Item] = []
    try:
        for item in items:
            batch.append(item)
            if len(batch) < BATCH:
                continue
            if pool is None and n > 1:
                pool = worker_pool(n)
            queue.append((batch, _check(pool, batch)))
            read += len(batch)
            batch = []
            if progress is not None:
                progress(read)
            while len(queue) > 2 * n:
                yield from _done(queue.popleft())
        if batch:
            queue.append((batch, _check(pool, batch)))
            read += len(batch)
            if progress is not None:
                progress(read)
        while queue:
            yield from _done(queue.popleft())
    finally:
        if pool is not None:
            stop_pool(pool)


def _check(
    pool: ProcessPoolExecutor | None, batch: list[Item]
) -> Future[list[Verdict]] | list[Verdict]:
    told = [claims(rec, text) for rec, text in batch]
    return verdicts(told) if pool is None else pool.submit(verdicts, told)


def _done(
    entry: tuple[list[Item], Future[list[Verdict]] | list[Verdict]],
) -> Iterator[tuple[MatchRecord, str | None, Verdict]]:
    batch, found = entry
    told = found if isinstance(found, list) else found.result()
    for (rec, text), verdict in zip(batch, told, strict=True):
        yield rec, text, verdict
