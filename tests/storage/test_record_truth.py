"""The record is the source of truth (issue 42): what the ledger says matches what it holds.

Each test goes through the real command line (``app.main``, as ``python -m koikoi_desktop``
runs it) on a real ledger (engine matches recorded by the table's recorder), and fails on the
code before the fix.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from koikoi_desktop import app
from koikoi_desktop.storage import Storage, totals
from koikoi_desktop.storage.ledger_db import _CHECKS

from .real_ledger import build

DB = "koikoi.sqlite3"


def _command(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = app.main(list(argv))
    out = capsys.readouterr()
    return status, out.out.strip(), out.err.strip()


def _facts(data: Path) -> tuple[int, list[str], object, list[tuple[str, float]], int]:
    """What the player sees of the ledger: its count, the listed ids, the statistics, the
    rating history, and how many matches are kept aside (a damaged row's bytes, kept beside
    the match rebuilt from its record, are not a match kept aside)."""
    with Storage.open(data) as store:
        store.wait_for_counting(30)
        store.tidy(limit=None)
        store.wait_for_counting(30)
        assert store.db is not None
        return (
            store.ledger.count(),
            [s.match_id for s in store.ledger.summaries(0, 1000)],
            store.ledger.stats(),
            [(p.match_id, round(p.rating, 6)) for p in store.ledger.rating_history()],
            store.db.conn.execute(
                "SELECT COUNT(*) FROM set_aside WHERE kind != 'damaged_row'"
            ).fetchone()[0],
        )


def _garble(data: Path, column: str, ids: list[str]) -> None:
    conn = sqlite3.connect(data / DB)
    with conn:
        for match_id in ids:
            conn.execute(
                f"UPDATE match_data SET {column} = ? WHERE match_id = ?",
                ('{"garbage": [1, 2' if column == "data" else "not a record", match_id),
            )
    conn.close()


def test_export_rebuilds_damaged_summaries_from_the_records_and_counts_what_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found 1: with garbage in half the stored summaries (records intact), the export said
    "exported 10 matches", wrote 5 and moved the other 5 aside; the next start showed 5 with no
    line, and the statistics and the rating dropped with them. Now every summary is made again
    from its record: all 10 exported, none aside, the same ledger, statistics and rating."""
    data = tmp_path / "data"
    ids = sorted(build(data, 10, saved=False))
    before = _facts(data)
    _garble(data, "data", ids[::2])
    out = tmp_path / "all.json"
    status, line, _ = _command(capsys, "--data-dir", str(data), "--export-ledger", str(out))
    assert status == 0 and line == f"exported 10 matches to {out}"
    doc = json.loads(out.read_text("utf-8"))
    assert sorted(m["match_id"] for m in doc["matches"]) == ids
    assert _facts(data) == before


def test_export_names_what_it_could_not_read_and_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match whose summary *and* record are damaged cannot be rebuilt: the line says how many
    of how many were exported, and names the ones kept aside."""
    data = tmp_path / "data"
    ids = sorted(build(data, 6, saved=False))
    _garble(data, "data", ids[:3])
    _garble(data, "record", ids[:2])
    out = tmp_path / "all.json"
    status, line, _ = _command(capsys, "--data-dir", str(data), "--export-ledger", str(out))
    assert status == 0
    assert line == (
        f"exported 4 of 6 matches to {out}; 2 are damaged beyond repair and kept aside: "
        f"{ids[0]}, {ids[1]}"
    )
    assert len(json.loads(out.read_text("utf-8"))["matches"]) == 4
    count, listed, *_, aside = _facts(data)
    assert (count, sorted(listed)) == (4, ids[2:]) and aside == 2


def test_the_ledger_screen_rebuilds_a_damaged_summary_instead_of_dropping_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reading through the ledger screen (a start on it, its list read between frames) keeps
    every match whose record replays."""
    data = tmp_path / "data"
    ids = sorted(build(data, 4, saved=False))
    before = _facts(data)
    _garble(data, "data", ids)
    shot = tmp_path / "shot.png"
    argv = ["--data-dir", str(data), "--scene", "ledger", "--frames", "5", "--screenshot"]
    status, _, _ = _command(capsys, *argv, str(shot))
    assert status == 0
    assert _facts(data) == before


def _export(data: Path, out: Path) -> dict:  # type: ignore[type-arg]
    with Storage.open(data) as store:
        store.export_all(out)
    return json.loads(out.read_text("utf-8"))


def test_import_knows_a_match_by_its_record_not_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found 3: the same matches under new ids doubled the ledger, the statistics and the
    rating history. Now a match is known by its record's content."""
    data = tmp_path / "data"
    build(data, 5, saved=False)
    before = _facts(data)
    doc = _export(data, tmp_path / "all.json")
    for m in doc["matches"]:
        m["match_id"] = "renamed-" + m["match_id"]
    renamed = tmp_path / "renamed.json"
    renamed.write_text(json.dumps(doc), "utf-8")
    status, line, _ = _command(capsys, "--data-dir", str(data), "--import-ledger", str(renamed))
    assert status == 0 and line.startswith("imported 0 matches (5 already in the ledger"), line
    assert _facts(data) == before


def test_import_refuses_a_match_without_a_record_and_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found 3: ``"record": null`` skipped the replay check, so forged wins against the Expert
    were accepted and rated. Now a record is required and must replay to the stated result."""
    data = tmp_path / "data"
    build(data, 3, saved=False)
    before = _facts(data)
    doc = _export(data, tmp_path / "all.json")
    forged = []
    for i, m in enumerate(doc["matches"]):
        m["match_id"] = f"forged{i}"
        m["opponent_level"] = "expert"
        if i == 0:
            m["record"] = None  # no record at all
        else:  # a real record, but the other seat's totals claimed
            m["final_balances"] = list(reversed(m["final_balances"]))
            m["winner"] = 0 if m["winner"] == 1 else 1
        forged.append(m["match_id"])
    bad = tmp_path / "forged.json"
    bad.write_text(json.dumps(doc), "utf-8")
    status, out, _ = _command(capsys, "--data-dir", str(data), "--import-ledger", str(bad))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("imported 0 matches") and "3 skipped" in lines[0]
    assert lines[1] == "skipped match forged0: it has no record to replay"
    assert {ln.split()[2].rstrip(":") for ln in lines[1:]} == set(forged)
    assert _facts(data) == before


@pytest.mark.parametrize("keep", [0.0, 0.85], ids=["0-bytes", "cut-short"])
def test_a_database_that_shrank_is_damage_told_in_one_line_and_rebuilt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], keep: float
) -> None:
    """Found 2: a 0-byte database turned the ledger into an empty one on every start without a
    word, although its size at the last clean close is on record beside it. Now a file smaller
    than that is damage: set aside byte for byte, the ledger rebuilt from what remains, one line
    in the player's language; the start after it is a normal one."""
    from koikoi_desktop.i18n import Words
    from koikoi_desktop.storage import NoticeKey
    from koikoi_desktop.words.storage import notice_text

    data = tmp_path / "data"
    ids = build(data, 12, saved=False)
    db = data / DB
    raw = db.read_bytes()
    cut = raw[: int(len(raw) * keep) // 4096 * 4096]
    db.write_bytes(cut)
    shot = tmp_path / "shot.png"
    argv = ["--data-dir", str(data), "--lang", "uk", "--frames", "3", "--screenshot", str(shot)]
    assert _command(capsys, *argv)[0] == 0
    kept = [p for p in data.iterdir() if p.name.startswith(DB + ".damaged")]
    assert [p.read_bytes() for p in kept if p.name.count("-") == 1] == [cut]
    with Storage.open(data) as store:
        assert store.warnings == []  # told once, at the start that found it
        recovered = {s.match_id for s in store.ledger.summaries(0, 100)}
    assert recovered <= ids and (recovered if keep else True)
    # the line itself, as the title shows it
    db.write_bytes(b"")
    (data / (DB + "-closed")).write_text(f"{len(raw)} 0 wal=0", "ascii")
    with Storage.open(data) as store:
        (notice,) = store.warnings
        assert notice.key is NoticeKey.LEDGER_SHRANK and notice.params["size"] == 0
        text = notice_text(Words("uk"), notice)
        assert "менший" in text and str(len(raw)) in text


def test_a_damaged_round_is_rebuilt_from_its_record_not_dropped_from_the_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found 6: a damaged ``rounds`` row was never set aside and silently dropped out of
    "rounds played". Now the start that checks the changed file finds it, rebuilds the match's
    rounds from its record, says so, and the statistics are what they were."""
    data = tmp_path / "data"
    build(data, 4, saved=False)
    before = _facts(data)
    conn = sqlite3.connect(data / DB)
    with conn:
        conn.execute("UPDATE rounds SET dealer = 7, final = 'x' WHERE rowid = 2")
    conn.close()
    shot = tmp_path / "shot.png"
    argv = ["--data-dir", str(data), "--scene", "ledger", "--frames", "5", "--screenshot"]
    assert _command(capsys, *argv, str(shot))[0] == 0
    assert _facts(data) == before
    with Storage.open(data) as store:  # and counted again from the rows, the same figures
        db = store.db
        assert db is not None
        assert (
            db._stats_from(totals.aggregate(db.conn, _CHECKS), include_practice=False)
            == (before[2])
        )
    conn = sqlite3.connect(data / DB)
    kinds = [k for (k,) in conn.execute("SELECT kind FROM set_aside")]
    conn.close()
    assert kinds == ["damaged_row"]  # the damaged row's bytes, kept beside the rebuilt match


def _immutable(path: Path, on: bool) -> bool:
    import shutil
    import subprocess

    tool = shutil.which("chattr")
    if tool is None:
        return False
    done = subprocess.run([tool, "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


@pytest.mark.parametrize(
    "marker",
    ["open-folder", "open-immutable", "open-fifo", "open-link", "check-folder", "closed-folder"],
)
def test_a_marker_of_any_kind_is_put_aside_once_then_starts_are_normal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], marker: str
) -> None:
    """Found 5: an open-marker that is a folder or an immutable file (or a ``-check`` folder)
    made every start check the whole file and say so, forever; a ``-closed`` folder left a
    ``.tmp`` file behind at each start. Now each is put aside once with its line (renamed, or
    listed as ignored when it cannot be renamed), and the next starts are clean."""
    import os

    from koikoi_desktop.storage import NoticeKey
    from koikoi_desktop.storage.integrity import check_reason

    data = tmp_path / "data"
    build(data, 2, saved=False)
    kind, what = marker.split("-")
    odd = data / (f"{DB}-open-999999-0123456789ab" if kind == "open" else f"{DB}-{kind}")
    if kind == "closed":
        odd.unlink()
    if what == "folder":
        odd.mkdir()
    elif what == "fifo":
        os.mkfifo(odd)
    elif what == "link":
        odd.symlink_to(tmp_path / "nowhere")
    else:
        odd.write_text("host\n")
        if not _immutable(odd, True):
            pytest.skip("no chattr +i here")
    try:
        with Storage.open(data) as store:
            keys = [w.key for w in store.warnings]
        assert keys.count(NoticeKey.LEDGER_MARKER_ASIDE) <= 1
        if what in ("folder", "immutable"):
            assert NoticeKey.LEDGER_MARKER_ASIDE in keys, keys
        shot = tmp_path / "shot.png"
        argv = ["--data-dir", str(data), "--frames", "3", "--screenshot", str(shot)]
        assert _command(capsys, *argv)[0] == 0
        for _ in range(2):  # and from then on, clean starts
            assert check_reason(data / DB) is None
            with Storage.open(data) as store:
                assert store.warnings == [] and store.ledger.count() == 2
        assert not [p for p in data.iterdir() if p.name.endswith(".tmp")]
    finally:
        if what == "immutable":
            _immutable(odd, False)


def test_import_streams_replays_on_every_core_and_a_bad_match_late_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found 4: the import read the whole file, then replayed every record on one core, with no
    progress. Now it streams the file (one match in memory at a time) and replays batches on a
    pool of workers while it merges, telling its progress; a bad match late in the file still
    changes nothing (one transaction, rolled back)."""
    from koikoi_desktop.storage import importing

    src = tmp_path / "src"
    build(src, importing.BATCH * 2 + 10, saved=False)
    want = _facts(src)
    out = _export(src, tmp_path / "all.json")
    path = tmp_path / "all.json"
    read: list[int] = []
    with Storage.open(tmp_path / "dst") as store:
        result = store.import_ledger_checked(path, progress=read.append)
    assert (result.added, result.skipped) == (want[0], ())
    assert read[-1] == want[0] and len(read) >= 3
    assert _facts(tmp_path / "dst")[:4] == want[:4]
    out["matches"][-3]["winner"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(out), "utf-8")
    fresh = tmp_path / "fresh"
    status, _, err = _command(capsys, "--data-dir", str(fresh), "--import-ledger", str(bad))
    assert status == 2 and f"match {want[0] - 2} is not valid" in err and err.count("\n") == 0
    assert _facts(fresh)[0] == 0
