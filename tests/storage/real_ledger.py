"""A real ledger for the byte-level tests: matches played by the engine with random legal
moves, recorded through the table's :class:`MatchRecorder` (summary, rounds, counters, rating,
and a record that replays), and one match in progress saved as the table saves it.

``python real_ledger.py DATA_DIR N`` builds one from the command line (benchmarks, scripts).
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import sys
from pathlib import Path

from koikoi_desktop import engine
from koikoi_desktop.storage import MatchRecord, Storage
from koikoi_desktop.storage.recorder import MatchRecorder


def _recorder(store: Storage, match_id: str, rules: engine.Rules) -> MatchRecorder:
    return MatchRecorder(
        store,
        match_id=match_id,
        seats=("human", "intermediate"),
        names=("", "Ren ✿"),
        rules=rules,
        practice=False,
    )


def played(
    seed: int, *, match_id: str, level: str = "intermediate", rounds: int = 2, **facts: object
) -> tuple[MatchRecord, str]:
    """One match played by the engine with random legal moves: its ledger record (``facts``
    overriding the date, the names...) and its record text, as the table records them."""
    rules = engine.PRESETS["nintendo"]
    match = engine.new_match(rules, first_dealer=seed % 2, rounds=rounds, seed=seed)
    rng = random.Random(seed)
    while match.outcome is None:
        match.apply(rng.choice(match.round.legal_actions()))
    recorder = MatchRecorder(
        None,
        match_id=match_id,
        seats=("human", level),
        names=("", "Ren"),
        rules=rules,
        practice=False,
    )
    rec = recorder.record_of(match).model_copy(update=facts)
    return rec, engine.match_record(match)


def build(data_dir: Path, matches: int, *, rounds: int = 2, saved: bool = True) -> set[str]:
    """Record ``matches`` real matches (and save one in progress); returns the recorded ids."""
    ids: set[str] = set()
    rules = engine.PRESETS["nintendo"]
    with Storage.open(data_dir) as store:
        for n in range(matches):
            match = engine.new_match(rules, first_dealer=n % 2, rounds=rounds, seed=1000 + n)
            rng = random.Random(n)
            while match.outcome is None:
                match.apply(rng.choice(match.round.legal_actions()))
            recorder = _recorder(store, f"real{n:05d}", rules)
            assert recorder.match_ended(match)
            ids.add(recorder.match_id)
        if saved:
            match = engine.new_match(rules, first_dealer=0, rounds=rounds, seed=7)
            rng = random.Random(7)
            for _ in range(9):
                match.apply(rng.choice(match.round.legal_actions()))
            recorder = _recorder(store, "inprogress", rules)
            store.write_autosave(
                recorder.match_id, engine.match_record(match), recorder.meta(match)
            )
    return ids


def record_more(live: Path, copy: Path, matches: int) -> None:
    """Record ``matches`` more matches and save a move of a match in progress in ``live``
    while a reader holds its snapshot (no checkpoint can fold the -wal in), and copy the
    database and its -wal into ``copy`` as a kill at that moment leaves them."""
    rules = engine.PRESETS["nintendo"]
    db = live / "koikoi.sqlite3"
    reader = sqlite3.connect(db)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM matches").fetchone()
        with Storage.open(live) as store:
            for n in range(matches):
                match = engine.new_match(rules, first_dealer=0, rounds=2, seed=5000 + n)
                rng = random.Random(n)
                while match.outcome is None:
                    match.apply(rng.choice(match.round.legal_actions()))
                assert _recorder(store, f"walm{n:03d}", rules).match_ended(match)
            match = engine.new_match(rules, first_dealer=1, rounds=2, seed=77)
            match.apply(match.round.legal_actions()[0])
            recorder = _recorder(store, "walsaved", rules)
            store.write_autosave(
                recorder.match_id, engine.match_record(match), recorder.meta(match)
            )
            for suffix in ("", "-wal"):
                shutil.copyfile(db.with_name(db.name + suffix), copy / (db.name + suffix))
        reader.execute("COMMIT")
    finally:
        reader.close()


if __name__ == "__main__":
    build(Path(sys.argv[1]), int(sys.argv[2]))
