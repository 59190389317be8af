"""``--review ID|latest --json FILE``: the review as JSON, exit 0; a bad id: one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from koikoi_desktop import app as app_mod
from koikoi_desktop.ai import make_opponent
from koikoi_desktop.engine import PRESETS, match_record, new_match
from koikoi_desktop.storage import MatchRecord, Storage

FIELDS = {"seat", "round", "turn", "kind", "played", "best", "loss", "class"}


def recorded(data: Path, seed: int, *, text: bool = True) -> str:
    m = new_match(PRESETS["nintendo"], first_dealer=0, seed=seed, rounds=1)
    bots = [make_opponent("beginner", seed=seed), make_opponent("intermediate", seed=seed)]
    while m.outcome is None:
        p = m.round.to_move
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    rec = MatchRecord.from_match(m, preset="nintendo", opponent_level="intermediate")
    with Storage.open(data) as store:
        assert store.record_match(rec, record_text=match_record(m) if text else None)
    return rec.match_id


def test_review_latest_and_by_id_write_the_json_and_cache_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    first = recorded(data, 1)
    latest = recorded(data, 2)
    out = tmp_path / "review.json"
    assert app_mod.main(["--data-dir", str(data), "--review", "latest", "--json", str(out)]) == 0
    doc = json.loads(out.read_text("utf-8"))
    assert doc["match_id"] == latest
    assert doc["decisions"] and all(set(d) >= FIELDS for d in doc["decisions"])
    assert all(d["class"] in ("good", "inaccuracy", "mistake", "blunder") for d in doc["decisions"])
    assert [s["seat"] for s in doc["summary"]["seats"]] == [0, 1]
    assert capsys.readouterr().out.startswith("reviewed ")
    with Storage.open(data) as store:
        assert store.ledger.review(latest) is not None  # cached with the match
    again = tmp_path / "again.json"
    assert app_mod.main(["--data-dir", str(data), "--review", latest, "--json", str(again)]) == 0
    assert json.loads(again.read_text("utf-8")) == doc
    assert app_mod.main(["--data-dir", str(data), "--review", first, "--json", str(out)]) == 0
    assert json.loads(out.read_text("utf-8"))["match_id"] == first


def test_a_bad_id_or_an_empty_ledger_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    out = tmp_path / "r.json"
    assert app_mod.main(["--data-dir", str(data), "--review", "latest", "--json", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("koikoi-desktop: error: ")
    recorded(data, 3)
    assert app_mod.main(["--data-dir", str(data), "--review", "nope", "--json", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "'nope'" in err[0] and not out.exists()
    old = recorded(data, 4, text=False)  # imported from version 0.1: no move record
    assert app_mod.main(["--data-dir", str(data), "--review", old, "--json", str(out)]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1 and not out.exists()
