"""The recount of the statistics and the rating history run as its own process by the storage
tests (``LedgerDB.recount``, as the game's worker thread runs it after a mend).

``python recount_child.py DATA_DIR KILL_AT`` counts the stale counters and rating history of
the data folder's database again. With ``KILL_AT`` > 0 the process SIGKILLs itself just before
the KILL_AT-th SQL statement (counted by SQLite's trace callback); ``KILL_AT`` 0 recounts
normally and prints the traced statements after ``STATEMENTS``.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from koikoi_desktop.storage.ledger_db import LedgerDB
from koikoi_desktop.storage.paths import DB_FILE


def main(argv: list[str]) -> int:
    path, kill_at = Path(argv[0]) / DB_FILE, int(argv[1])
    db = LedgerDB.open(path)
    assert db.stale == {"totals", "ratings"}, db.stale
    worker = LedgerDB.attach(path)  # as the game does: its own connection
    traced: list[str] = []

    def trace(sql: str) -> None:
        traced.append(sql.split()[0] if sql.split() else sql)
        if kill_at and len(traced) == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    worker.conn.set_trace_callback(trace)
    worker.recount(db.stale)
    worker.conn.set_trace_callback(None)
    print("STATEMENTS", *traced, flush=True)
    worker.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
