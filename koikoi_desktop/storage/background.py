"""Work on worker threads, so the frame loop never waits on the disk: a one-slot writer for the
autosave after every move, and a one-call job for the recount of the statistics.

An atomic write with two fsyncs takes 5-15 ms on an ordinary disk (``benchmarks/storage_io.py``),
most of a 60 fps frame. The table hands the serialized autosave to this writer instead: one
worker thread writes the *latest* payload; a payload submitted while another is waiting replaces
it (only the newest state of the match matters). Results are collected as a list the owner reads
on its own thread, so nothing else is shared between threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class BackgroundWriter:
    """Write the latest submitted payload with ``write`` on a worker thread."""

    def __init__(self, write: Callable[[bytes], None], *, name: str = "koikoi-autosave") -> None:
        self._write = write
        self._name = name
        self._cv = threading.Condition()
        self._pending: bytes | None = None
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self._results: list[OSError | None] = []  # None: a write succeeded

    def submit(self, payload: bytes) -> None:
        """Queue ``payload``, replacing any payload not yet started."""
        with self._cv:
            if self._closed:
                raise RuntimeError("writer is closed")
            self._pending = payload
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._cv.notify_all()

    def drain(self, timeout: float | None = 30.0) -> bool:
        """Wait until nothing is queued or being written; False on timeout."""
        with self._cv:
            return self._cv.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def take_results(self) -> list[OSError | None]:
        """The outcomes of the writes finished since the last call, oldest first."""
        with self._cv:
            out, self._results = self._results, []
        return out

    def close(self, timeout: float | None = 30.0) -> None:
        """Finish the queued write and stop the thread."""
        self.drain(timeout)
        with self._cv:
            self._closed = True
            self._cv.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cv:
                self._cv.wait_for(lambda: self._pending is not None or self._closed)
                if self._pending is None:
                    return
                payload, self._pending = self._pending, None
                self._busy = True
            result: OSError | None = None
            try:
                self._write(payload)
            except OSError as exc:
                result = exc
            finally:
                with self._cv:
                    self._results.append(result)
                    self._busy = False
                    self._cv.notify_all()


class BackgroundJob:
    """Run one call on a worker thread (the recount of the statistics: seconds at 100,000
    matches, never on the frame loop). The owner asks :meth:`done` between frames and takes the
    outcome on its own thread: an exception raised by the call is handed back by
    :meth:`outcome`, to be handled (or raised) there, never lost in the thread."""

    def __init__(self, work: Callable[[], None], *, name: str) -> None:
        self._work = work
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._work()
        except Exception as exc:  # handed to the owner's thread by outcome(), not swallowed
            self._error = exc

    def done(self) -> bool:
        return not self._thread.is_alive()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the call to return; False on timeout."""
        self._thread.join(timeout)
        return self.done()

    def outcome(self) -> BaseException | None:
        """What the call raised (None: it returned). Only once :meth:`done`."""
        if not self.done():
            raise RuntimeError("the job is still running")
        return self._error
