"""A copy of the game's recording path run as its own process by the storage tests.

``python recording_child.py DATA_DIR MATCH_ID SEED KILL_AT [ROUNDS]`` plays a real engine match
(random legal moves), saves it after every move through the table's :class:`MatchRecorder`,
then records it. With ``KILL_AT`` > 0 the process SIGKILLs itself just before the KILL_AT-th SQL
statement of the recording (counted by SQLite's trace callback), so a test can stop the process
between any two statements of the transaction. ``KILL_AT`` 0 records normally and prints the
traced statements, one per line, after ``STATEMENTS``.

``--resume`` instead continues the saved match (as the title's Continue does) and records it.
"""

from __future__ import annotations

import os
import random
import signal
import sys

from koikoi_desktop import engine
from koikoi_desktop.storage import Storage
from koikoi_desktop.storage.recorder import MatchRecorder, resume


def main(argv: list[str]) -> int:
    data_dir, match_id, seed, kill_at = argv[0], argv[1], int(argv[2]), int(argv[3])
    rounds = int(argv[4]) if len(argv) > 4 and argv[4] != "--resume" else 2
    store = Storage.open(data_dir)
    rules = engine.PRESETS["nintendo"]
    rng = random.Random(seed)
    if "--resume" in argv:
        saved = store.read_autosave()
        if saved is None:  # closed cleanly, as the game closes when there is nothing to do
            store.close()
            print("nothing to continue", file=sys.stderr)
            return 3
        got = resume(saved)
        match, match_id = got.match, got.match_id
        store.claim_saved(match_id)
    else:
        match = engine.new_match(rules, first_dealer=0, rounds=rounds, seed=seed)
    recorder = MatchRecorder(
        store,
        match_id=match_id,
        seats=("human", "beginner"),
        names=("You", "Ren"),
        rules=match.rules,
        practice=False,
    )
    while match.outcome is None:
        match.apply(rng.choice(match.round.legal_actions()))
        recorder.move_made(match)  # the table saves after every move, the last one included
    store.flush()  # the last background save has landed
    traced: list[str] = []

    def trace(sql: str) -> None:
        traced.append(sql.split()[0] if sql.split() else sql)
        if kill_at and len(traced) == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    assert store.db is not None
    store.db.conn.set_trace_callback(trace)
    ok = recorder.match_ended(match)
    store.db.conn.set_trace_callback(None)
    print("RECORDED", ok, flush=True)
    print("STATEMENTS", *traced, flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
