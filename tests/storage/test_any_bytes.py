"""Any bytes on disk (issue 41): whatever the database, its -wal or settings.json holds, every
start (normal, ``--continue``, ``--scene ledger``) shows the game, sets the damaged file aside and
rebuilds what it can, and every match whose record sits on an undamaged page is still there.

The bytes of the files themselves are fuzzed: random bytes and whole pages flipped, zeroed or
replaced, files cut short; sometimes with the file's modification time put back, as bit rot
leaves it (then no start checks the whole file, and the damage is met by a read).

"On an undamaged page" is decided by SQLite's own map of the file (the ``dbstat`` table of the
undamaged copy): a match's record is reachable when the schema's pages, the pages on its table's
path from the root and its leaf (with any overflow pages) are all intact. The record is the
source of truth: its summary, rounds, counters and rating are rebuilt from it.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop import app
from koikoi_desktop.storage import Storage

from .real_ledger import build

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DB = "koikoi.sqlite3"
PAGE = 4096
STARTS: tuple[tuple[str, ...], ...] = ((), ("--continue",), ("--scene", "ledger"))


@pytest.fixture(scope="module")
def ledgers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Two real ledgers: ``clean`` as the game leaves it at a clean close (no -wal), and
    ``wal`` as a kill leaves it: matches in the database file, more matches and a saved match
    in the -wal (a reader held the checkpoint back)."""
    base = tmp_path_factory.mktemp("ledgers")
    clean = base / "clean"
    build(clean, 24)
    wal = base / "wal"
    shutil.copytree(clean, wal)
    # the WAL copy: two more matches and a save after a reader took its snapshot
    live = base / "live"
    shutil.copytree(clean, live)
    from .real_ledger import record_more

    record_more(live, wal, 2)
    assert (wal / f"{DB}-wal").stat().st_size > 0
    yield {"clean": clean, "wal": wal}


def _leaf_of_records(db: Path) -> dict[str, set[int]]:
    """match id -> the pages its ``match_data`` row needs (root to leaf, overflow pages), and
    ``""`` -> the schema's pages (needed by every row)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        stat = conn.execute("SELECT name, path, pageno FROM dbstat").fetchall()
        ids = [r[0] for r in conn.execute("SELECT match_id FROM match_data ORDER BY rowid")]
        cells = {
            path: n
            for path, n in conn.execute(
                "SELECT path, ncell FROM dbstat WHERE name = 'match_data' AND pagetype = 'leaf'"
            )
        }
    finally:
        conn.close()
    by_path = {path: page for name, path, page in stat if name == "match_data"}
    schema = {page for name, _, page in stat if name == "sqlite_schema"} | {1}
    need: dict[str, set[int]] = {"": schema}
    i = 0
    for path in sorted(cells):
        for cell in range(cells[path]):
            pages = {by_path[p] for p in _ancestors(path)} | {by_path[path]}
            prefix = f"{path}{cell:03x}+"
            pages |= {page for p, page in by_path.items() if p.startswith(prefix)}
            need[ids[i]] = pages
            i += 1
    return need


def _ancestors(path: str) -> list[str]:
    parts = [p for p in path.split("/") if p]
    return ["/" + "".join(f"{p}/" for p in parts[:k]) for k in range(len(parts))]


#: How a file is damaged: (kind, seed, offset or page, count).
Damage = tuple[str, int, int, int]


@st.composite
def damage(draw: st.DrawFn, size: int) -> Damage:
    """Random bytes flipped, a whole page flipped, zeroed or replaced by random bytes, or the
    file cut short (at a page boundary or anywhere)."""
    how = draw(st.sampled_from(["bytes", "page-flip", "page-zero", "page-junk", "cut"]))
    pages = max(1, size // PAGE)
    seed = draw(st.integers(0, 2**32))
    if how == "bytes":
        return how, seed, 0, draw(st.integers(1, 64))
    if how == "cut":
        at_page = draw(st.booleans())
        return (
            how,
            seed,
            draw(st.integers(0, pages - 1)) * PAGE if at_page else draw(st.integers(0, size)),
            0,
        )
    return how, seed, draw(st.integers(0, pages - 1)), 1


def _apply(path: Path, hurt: Damage) -> set[int]:
    """Damage ``path`` in place; the pages (numbered from 1) it touched."""
    how, seed, where, count = hurt
    raw = bytearray(path.read_bytes())
    rng = random.Random(seed)
    touched: set[int] = set()
    if how == "cut":
        touched = set(range(where // PAGE + 1, len(raw) // PAGE + 2))
        del raw[where:]
    elif how == "bytes":
        for _ in range(count):
            at = rng.randrange(len(raw))
            raw[at] = rng.randrange(256)
            touched.add(at // PAGE + 1)
    else:
        start, end = where * PAGE, min(len(raw), (where + 1) * PAGE)
        for i in range(start, end):
            raw[i] = {"page-flip": raw[i] ^ 0xFF, "page-zero": 0}.get(how, rng.randrange(256))
        touched.add(where + 1)
    path.write_bytes(bytes(raw))
    return touched


def _start(data: Path, extra: tuple[str, ...]) -> None:
    shot = data.parent / "shot.png"
    argv = ["--frames", "3", "--screenshot", str(shot), "--size", "1024x640", "--speed", "off"]
    assert app.main([*argv, "--data-dir", str(data), *extra]) == 0
    assert shot.stat().st_size > 1000


def _recorded(data: Path) -> set[str]:
    with Storage.open(data) as store:
        store.wait_for_counting(30)
        store.tidy(limit=None)
        assert store.db is not None
        return {rec.match_id for rec, _ in store.db.iter_all()}


@settings(
    max_examples=int(os.environ.get("KOIKOI_BYTES_EXAMPLES", "10")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_bytes_in_the_database_start_and_keep_every_undamaged_match(
    ledgers: dict[str, Path], data: st.DataObject
) -> None:
    clean = ledgers["clean"]
    need = _leaf_of_records(clean / DB)
    size = (clean / DB).stat().st_size
    hurt = data.draw(damage(size), label="damage")
    rot = data.draw(st.booleans(), label="mtime kept (bit rot)")
    start = data.draw(st.sampled_from(STARTS), label="start")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "data"
        shutil.copytree(clean, d)
        before = (d / DB).stat()
        touched = _apply(d / DB, hurt)
        if rot:
            os.utime(d / DB, ns=(before.st_atime_ns, before.st_mtime_ns))
        _start(d, start)
        _start(d, start)  # a read that met damage asks this start to check and repair
        ids = _recorded(d)
    if need[""] & touched:
        return  # the schema is gone: nothing says which page holds what
    undamaged = {m for m, pages in need.items() if m and not pages & touched}
    assert undamaged <= ids, sorted(undamaged - ids)


@settings(
    max_examples=int(os.environ.get("KOIKOI_BYTES_EXAMPLES", "8")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_bytes_in_the_wal_or_the_settings_start_and_keep_the_database(
    ledgers: dict[str, Path], data: st.DataObject
) -> None:
    wal = ledgers["wal"]
    name = data.draw(st.sampled_from([f"{DB}-wal", "settings.json"]), label="file")
    size = (wal / name).stat().st_size
    hurt = data.draw(damage(size), label="damage")
    start = data.draw(st.sampled_from(STARTS), label="start")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "data"
        shutil.copytree(wal, d)
        _apply(d / name, hurt)
        _start(d, start)
        ids = _recorded(d)
        alone = Path(tmp) / "alone"
        alone.mkdir()
        shutil.copyfile(wal / DB, alone / DB)  # the database file without its -wal
        in_file = {m for m in _leaf_of_records(alone / DB) if m}
    assert in_file and in_file <= ids


def _run(data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    shot = data.parent / "shot.png"
    argv = ["--frames", "5", "--screenshot", str(shot), "--data-dir", str(data), *extra]
    return subprocess.run(
        [sys.executable, "-m", "koikoi_desktop", *argv],
        capture_output=True,
        text=True,
        errors="replace",
        env=env,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.parametrize("start", STARTS, ids=["title", "continue", "ledger"])
def test_a_schema_name_of_damaged_bytes_is_damage_not_a_crash(
    ledgers: dict[str, Path], tmp_path: Path, start: tuple[str, ...]
) -> None:
    """The tester's case: a byte of a schema entry's name flipped to one that is not UTF-8.
    SQLite's message quotes it ("malformed database schema (sqlite_au\\xa9oindex...)"), and
    Python raised UnicodeDecodeError out of ``PRAGMA quick_check``: every start crashed. Now the
    file is set aside byte for byte, rebuilt, and the game starts with one line."""
    d = tmp_path / "data"
    shutil.copytree(ledgers["clean"], d)
    raw = (d / DB).read_bytes()
    at = raw.index(b"sqlite_autoindex_saved_1")
    damaged = raw[: at + 9] + b"\xa9" + raw[at + 10 :]
    (d / DB).write_bytes(damaged)
    proc = _run(d, *start)
    assert proc.returncode == 0 and "crashed" not in proc.stderr, proc.stderr
    assert not (d / "crash").exists()
    kept = [p for p in d.iterdir() if p.name.startswith(DB + ".") and p.is_file()]
    assert any(p.read_bytes() == damaged for p in kept)
    with Storage.open(d) as store:
        assert store.ledger.count() == 24
