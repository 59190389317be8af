"""Real processes: two copies of the game at once, and a writer killed at random moments."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.storage import MatchRecord, RoundEntry, Storage

fork_only = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs the fork start method"
)


def _record(tag: str, n: int) -> MatchRecord:
    rounds = [
        RoundEntry(
            round=i + 1,
            dealer=i % 2,
            end="stop",
            winner=i % 2,
            base=3,
            final=3,
            paid=3,
            balances=(3 * (i // 2 + 1), 3 * ((i + 1) // 2)),
            yaku=[{"key": "kasu", "points": 3}],
        )
        for i in range(12)
    ]
    return MatchRecord(
        match_id=f"{tag}-{n}",
        preset="nintendo",
        rounds=rounds,
        final_balances=rounds[-1].balances,
        winner=None,
        opponent_name="Ren",
    )


def _copy_of_the_game(
    data_dir: str, tag: str, start: Any, done: Any, out: Any, matches: int
) -> None:
    start.wait()
    store = Storage.open(data_dir)
    recorded = []
    for n in range(matches):
        store.settings.player_name = f"{tag}{n}"
        store.save_settings()
        if store.record_match(_record(tag, n)):
            recorded.append(f"{tag}-{n}")
        store.write_autosave(f"{tag} move {n}", {"n": n})
    out.put((tag, store.can_write_ledger, recorded, [str(w) for w in store.warnings]))
    done.wait(60)  # both copies run until both have finished
    store.close()


def _reader(data_dir: str, stop: Any, out: Any) -> None:
    """Reads the files as fast as it can: it must never see half a file."""
    seen = bad = 0
    path = Path(data_dir)
    while not stop.is_set():
        for name in ("settings.json", "ledger.jsonl", "autosave.json"):
            try:
                raw = (path / name).read_bytes()
            except FileNotFoundError:
                continue
            seen += 1
            try:
                if name.endswith(".jsonl"):
                    for line in raw.splitlines():
                        json.loads(line)
                else:
                    json.loads(raw)
            except ValueError:
                bad += 1
    out.put((seen, bad))


@fork_only
def test_two_copies_at_once(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    data_dir = str(tmp_path / "data")
    start = ctx.Barrier(2)
    done = ctx.Barrier(2)
    out = ctx.Queue()
    stop = ctx.Event()
    reader_out = ctx.Queue()
    reader = ctx.Process(target=_reader, args=(data_dir, stop, reader_out))
    reader.start()
    copies = [
        ctx.Process(target=_copy_of_the_game, args=(data_dir, tag, start, done, out, 15))
        for tag in "AB"
    ]
    for p in copies:
        p.start()
    results = {}
    for _ in copies:
        tag, can_write, recorded, warnings = out.get(timeout=60)
        results[tag] = (can_write, recorded, warnings)
    for p in copies:
        p.join(timeout=60)
        assert p.exitcode == 0
    stop.set()
    seen, bad = reader_out.get(timeout=30)
    reader.join(timeout=30)

    writers = [tag for tag, (can_write, _, _) in results.items() if can_write]
    assert len(writers) == 1
    writer, other = writers[0], "AB".replace(writers[0], "")
    assert len(results[writer][1]) == 15 and results[writer][2] == []
    assert results[other][1] == [] and any("Another copy" in w for w in results[other][2])
    with Storage.open(data_dir) as store:
        assert store.warnings == []
        assert [r.match_id for r in store.ledger] == results[writer][1]
        assert store.settings.player_name in (f"A{14}", f"B{14}")  # last writer wins, whole
        saved = store.read_autosave()
        assert saved is not None and saved.record.startswith(writer)
    assert seen > 0 and bad == 0


def _writer_until_killed(data_dir: str, seed: int, conn: Any) -> None:
    store = Storage.open(data_dir)
    conn.send(
        ("ready", store.can_write_ledger, len(store.ledger), [str(w) for w in store.warnings])
    )
    n = 0
    while True:
        mid = f"s{seed}-{n}"
        conn.send(("try", mid))
        if store.record_match(_record(f"s{seed}", n)):
            conn.send(("ok", mid))
        store.write_autosave(f"move {n}", {"n": n})
        n += 1


@fork_only
def test_killed_writer_never_loses_a_committed_match(tmp_path: Path) -> None:
    """SIGKILL a process that records matches as fast as it can, 40 times at random moments."""
    ctx = multiprocessing.get_context("fork")
    data_dir = str(tmp_path / "data")
    rng = random.Random(20250101)
    committed: list[str] = []
    attempted: set[str] = set()
    kills_mid_write = 0
    for seed in range(40):
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_writer_until_killed, args=(data_dir, seed, child))
        proc.start()
        child.close()
        kind, can_write, count, warnings = parent.recv()
        assert (kind, can_write, warnings) == ("ready", True, [])  # a crash never leaves damage
        assert count >= len(committed)  # every match committed so far is on disk
        while True:  # let it commit one match, then kill it at a random moment after that
            assert parent.poll(10), "the writer stalled"
            kind, mid = parent.recv()
            if kind == "ok":
                committed.append(mid)
                break
            attempted.add(mid)
        time.sleep(rng.uniform(0.0, 0.08))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(timeout=10)
        assert proc.exitcode == -signal.SIGKILL
        last = None
        while parent.poll():
            try:
                kind, mid = parent.recv()
            except EOFError:
                break
            if kind == "ok":
                committed.append(mid)
            else:
                attempted.add(mid)
            last = kind
        kills_mid_write += last == "try"
        parent.close()
    with Storage.open(data_dir) as store:
        assert store.warnings == []
        on_disk = [r.match_id for r in store.ledger]
    assert set(committed) <= set(on_disk), "a committed match was lost"
    assert set(on_disk) <= attempted, "the ledger holds a match nobody recorded"
    assert len(on_disk) == len(set(on_disk))
    print(f"kills during record_match: {kills_mid_write}/40, committed {len(committed)}")
    assert len(committed) >= 40 and kills_mid_write >= 5  # the kills really hit writes
