"""The player's rating in the ledger database: written by the recording transaction (exactly
once, also under a kill between the match and its rating), rebuilt from the ledger when its table
is lost or damaged, and only for finished, non-practice matches against a computer level."""

from __future__ import annotations

import signal
import sqlite3
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi_desktop.ratings import (
    PROVISIONAL_RD,
    Rating,
    level_ratings,
    match_weight,
    rate_match,
    replay,
)
from koikoi_desktop.storage import MatchRecord, Storage, rating_rows
from koikoi_desktop.storage.ledger_db import _GOOD_MATCH

from .conftest import make_record
from .real_ledger import played
from .test_processes import _child, _rows, _statements

Record = Callable[..., MatchRecord]


def _assert_same_ratings(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    """The same matches in the same order, each rating equal within a floating-point tolerance
    (a rebuild may sum in another order than the recording did)."""
    assert [m for m, _ in got] == [m for m, _ in want]
    assert [r for _, r in got] == pytest.approx([r for _, r in want], rel=1e-9, abs=1e-9)


def _ratings(db: Path) -> list[tuple[str, float]]:
    conn = sqlite3.connect(db)
    try:
        return [
            (str(a), float(b))
            for a, b in conn.execute("SELECT match_id, rating FROM ratings ORDER BY seq")
        ]
    finally:
        conn.close()


def test_a_rated_match_moves_the_rating_by_glicko2(store: Storage, record: Record) -> None:
    rec = record(level="intermediate", winner=0)
    assert store.record_match(rec)
    point = store.ledger.rating_of(rec.match_id)
    assert point is not None
    want = rate_match(Rating(), level_ratings()["intermediate"].opponent, 1.0, weight=1.0)
    assert point.before == Rating().rating and point.rating == pytest.approx(want.rating)
    assert point.rating > point.before
    lost = record(level="intermediate", winner=1)
    store.record_match(lost)
    after = store.ledger.rating_of(lost.match_id)
    assert after is not None and after.before == point.rating and after.rating < point.rating
    assert [p.match_id for p in store.ledger.rating_history()] == [rec.match_id, lost.match_id]


@pytest.mark.parametrize(
    "extra",
    [
        {"practice": True},
        {"level": "hotseat"},
        {"level": "human"},
        {"computer": True},
        {"ending": "ended"},
        {"ending": "abandoned"},
    ],
    ids=["practice", "hotseat", "human", "computer", "ended", "abandoned"],
)
def test_practice_hotseat_computer_and_unfinished_matches_are_not_rated(
    store: Storage, record: Record, extra: dict[str, object]
) -> None:
    rec = record(**extra)
    assert store.record_match(rec)
    assert store.ledger.rating_of(rec.match_id) is None and store.ledger.rating_history() == []


def test_a_conceded_match_is_rated_as_a_loss(store: Storage, record: Record) -> None:
    rec = record(ending="conceded", winner=1)
    store.record_match(rec)
    point = store.ledger.rating_of(rec.match_id)
    assert point is not None and point.score == 0.0 and point.rating < point.before


def test_recording_a_match_twice_rates_it_once(store: Storage, record: Record) -> None:
    rec = record()
    store.record_match(rec)
    store.record_match(rec)
    assert store.db is not None
    assert store.db.record(rec, record_text=None) is False
    assert len(store.ledger.rating_history()) == 1


def _fill(data_dir: Path, record: Record, n: int = 6) -> list[tuple[str, float]]:
    with Storage.open(data_dir) as s:
        for i in range(n):
            s.record_match(record(level=("beginner", "intermediate")[i % 2], winner=i % 3 % 2))
        s.record_match(record(practice=True))
    return _ratings(data_dir / "koikoi.sqlite3")


@pytest.mark.parametrize(
    "damage",
    [
        "DROP TABLE ratings",
        "UPDATE ratings SET rating = 'lots' WHERE seq = 2",
        "UPDATE ratings SET rd = -4 WHERE seq = 3",
        "DELETE FROM ratings WHERE seq = 4",
        "ALTER TABLE ratings DROP COLUMN volatility",
        "UPDATE ratings SET match_id = (SELECT match_id FROM matches WHERE practice = 1) "
        "WHERE seq = 5",
    ],
    ids=["dropped", "text", "negative-rd", "row-lost", "altered", "not-a-rated-match"],
)
def test_a_lost_or_damaged_rating_history_is_rebuilt_from_the_ledger(
    data_dir: Path, record: Record, damage: str
) -> None:
    before = _fill(data_dir, record)
    assert len(before) == 6
    db = data_dir / "koikoi.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(damage)
    conn.commit()
    conn.close()
    with Storage.open(data_dir) as s:
        assert s.warnings == []
        assert s.counting  # counted again off the frame loop; the tab says so meanwhile
        assert s.wait_for_counting() and not s.counting
        _assert_same_ratings([(p.match_id, p.rating) for p in s.ledger.rating_history()], before)
        assert s.ledger.count() == 7


def _want(order: list[MatchRecord]) -> list[tuple[str, float]]:
    """The reference: each rated match of ``order`` rated after the one before it, counted for
    its rounds (a conceded one whole)."""
    games = [r for r in order if rating_rows.rated(r, computer=False)]
    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    return [
        (
            r.match_id,
            replay(
                [
                    (
                        level_ratings()[x.opponent_level].opponent,
                        score[x.player_result],
                        match_weight(len(x.rounds), conceded=x.ending == "conceded"),
                    )
                    for x in games[: i + 1]
                ]
            ).rating,
        )
        for i, r in enumerate(games)
    ]


def test_imported_matches_are_rated_after_the_ones_recorded_whatever_their_dates(
    data_dir: Path, record: Record
) -> None:
    """The chain is in recording order (see rating_rows): an import is recorded now, its
    matches in the order of the file, older dates or not; nothing already rated moves."""
    old = [record(winner=0), record(winner=0)]
    new = [record(winner=1), record(winner=1)]
    start = datetime(2024, 1, 1, tzinfo=UTC)
    old = [r.model_copy(update={"date": start + timedelta(days=i)}) for i, r in enumerate(old)]
    with Storage.open(data_dir) as s:
        for r in new:
            s.record_match(r)
        seen = [(p.match_id, p.rating) for p in s.ledger.rating_history()]
        assert s.db is not None
        s.db.import_records(((r, None) for r in old), source="test")
        got = [(p.match_id, p.rating) for p in s.ledger.rating_history()]
    assert got[:2] == seen
    _assert_same_ratings(got, _want([*new, *old]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.integers(-3000, 3000),
            st.sampled_from(["beginner", "intermediate", "expert", "hotseat"]),
            st.sampled_from([0, 1, None]),
            st.booleans(),
        ),
        max_size=10,
    ),
    st.integers(0, 10),
)
def test_the_ratings_as_recorded_equal_the_ratings_rebuilt(
    specs: list[tuple[int, str, int | None, bool]], cut: int
) -> None:
    """Records with dates in any order, some recorded one by one and the rest imported: the
    history written as they came equals the history rebuilt from the ledger, and both are the
    matches rated in the order they were recorded."""
    start = datetime(2024, 6, 1, tzinfo=UTC)
    recs = [
        make_record(rounds=1, level=lv, winner=w, practice=pr).model_copy(
            update={"date": start + timedelta(hours=h)}
        )
        for h, lv, w, pr in specs
    ]
    with tempfile.TemporaryDirectory() as tmp, Storage.open(tmp) as s:
        for r in recs[:cut]:
            assert s.record_match(r)
        assert s.db is not None
        s.db.import_records(((r, None) for r in recs[cut:]), source="test")
        as_recorded = [(p.match_id, p.before, p.rating, p.rd) for p in s.ledger.rating_history()]
        with s.db._transaction():
            rating_rows.rebuild_in_tx(s.db.conn, _GOOD_MATCH)
        rebuilt = [(p.match_id, p.before, p.rating, p.rd) for p in s.ledger.rating_history()]
        assert rating_rows.current(s.db.conn)
    assert as_recorded == rebuilt
    _assert_same_ratings([(m, r) for m, _, r, _ in as_recorded], _want(recs))


def test_a_ledger_imported_from_an_export_has_the_same_rating_history(
    tmp_path: Path, record: Record
) -> None:
    """The export lists the matches in recording order, so the import rates them as the
    ledger they came from did (their dates out of order)."""
    start = datetime(2024, 1, 1, tzinfo=UTC)
    with Storage.open(tmp_path / "a") as s:
        for i, day in enumerate((5, 1, 9, 2, 7)):  # a record that replays: import asks one
            rec, text = played(
                i,
                match_id=f"r{i}",
                level=("beginner", "expert")[i % 2],
                date=start + timedelta(days=day),
            )
            assert s.record_match(rec, record_text=text)
        want = [(p.match_id, p.rating) for p in s.ledger.rating_history()]
        out = s.export_all(tmp_path / "all.json").path
    with Storage.open(tmp_path / "b") as s:
        assert s.import_ledger(out) == (5, 0, 0)
        assert [(p.match_id, p.rating) for p in s.ledger.rating_history()] == want


def test_killed_between_the_match_and_its_rating_neither_is_on_disk(tmp_path: Path) -> None:
    """SIGKILL at the rating's own statements inside the recording transaction (after the match,
    its rounds and the counters were written) and just after COMMIT: the match and its rating
    are on disk together or not at all; Continue then records and rates it exactly once."""
    steps = _statements(tmp_path)
    delete = steps.index("DELETE")
    # the rating: the latest row, its own row, then the count kept with the counters
    assert steps[delete - 3 : delete] == ["SELECT", "INSERT", "UPDATE"]
    commit = steps.index("COMMIT") + 1
    for kill_at in (delete - 2, delete - 1, delete, delete + 1, commit + 1):
        data = tmp_path / f"data{kill_at}"
        db = data / "koikoi.sqlite3"
        run = _child(str(data), "m-kill", "7", str(kill_at))
        assert run.returncode == -signal.SIGKILL, (run.returncode, run.stderr)
        recorded, _, _ = _rows(db)
        assert len(_ratings(db)) == len(recorded) == (1 if kill_at > commit else 0)
        if kill_at <= commit:
            again = _child(str(data), "ignored", "7", "0", "--resume")
            assert "RECORDED True" in again.stdout, again.stderr
        assert [m for m, _ in _ratings(db)] == ["m-kill"] == _rows(db)[0]
        with Storage.open(data) as s:
            point = s.ledger.rating_of("m-kill")
            assert point is not None and point.before == Rating().rating
            assert s.db is not None and rating_rows.current(s.db.conn) and not s.counting


def test_a_match_counts_for_its_length_and_a_first_short_win_stays_below_the_level(
    store: Storage, record: Record, tmp_path: Path
) -> None:
    """Issue 45: a new player's first 3-round win against the Intermediate (a level rated from
    hundreds of matches) moves the rating less than a 12-round win, and not above the level;
    both are provisional ("?")."""
    short = record(rounds=3, level="intermediate", winner=0)
    assert store.record_match(short)
    with Storage.open(tmp_path / "other") as other:
        long = record(rounds=12, level="intermediate", winner=0)
        assert other.record_match(long)
        p12 = other.ledger.rating_of(long.match_id)
    p3 = store.ledger.rating_of(short.match_id)
    assert p3 is not None and p12 is not None
    level = level_ratings()["intermediate"]
    assert p3.before == p12.before == Rating().rating
    assert 0 < p3.rating - p3.before < p12.rating - p12.before
    assert p3.rating < level.rating
    assert p3.rd > p12.rd > PROVISIONAL_RD  # both still provisional, the short one more so
