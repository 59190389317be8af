"""Forged and damaged saved matches: Continue never crashes. Each bad row is set aside (kept in
the database, never deleted) with one line, and the title screen stays usable."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from koikoi_desktop import engine
from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.storage import Notice, Storage
from koikoi_desktop.storage.recorder import ResumeError, resume
from koikoi_desktop.words.storage import notice_text


def _record(moves: int = 5, seed: int = 4) -> str:
    m = engine.new_match(engine.PRESETS["nintendo"], first_dealer=0, rounds=1, seed=seed)
    rng = random.Random(1)
    for _ in range(moves):
        m.apply(rng.choice(m.round.legal_actions()))
    return engine.match_record(m)


GOOD_META = {"seats": ["human", "intermediate"], "names": ["You", "Ren"], "practice": False}


def _forgeries() -> dict[str, tuple[str, dict[str, object]]]:
    good = _record()
    lines = good.splitlines()
    deck_line = next(i for i, ln in enumerate(lines) if ln.startswith("deck "))
    cards = lines[deck_line].split()[1:]
    dup = lines.copy()
    dup[deck_line] = "deck " + " ".join([cards[0], *cards[:-1]])  # a card twice, one missing
    illegal = good.rsplit(";", 1)[0] + "; play 47>47"  # a card cannot take itself
    unknown_preset = good.replace('"based_on":"nintendo"', '"based_on":"house-rules-9"')
    nested = good.replace("rules {", "rules " + "[" * 50_000 + "{", 1)
    return {
        "garbage": ("\x00\xff garbage \ufffd", GOOD_META),
        "illegal-move": (illegal, GOOD_META),
        "duplicate-card": ("\n".join(dup), GOOD_META),
        "deep-nesting": (nested, GOOD_META),
        "seats-5": (good, {**GOOD_META, "seats": 5}),
        "seats-unknown": (good, {**GOOD_META, "seats": ["human", "grandmaster"]}),
        "unknown-preset": (unknown_preset, GOOD_META),
        "600k-moves": (good + "; play 1" * 600_000, GOOD_META),
        "empty": ("", GOOD_META),
        "not-digits": (good.replace("seed 4", "seed ４"), GOOD_META),
    }


FORGED = _forgeries()


def _save_raw(data_dir: Path, match_id: str, record: str, meta: object) -> None:
    with Storage.open(data_dir):
        pass
    conn = sqlite3.connect(data_dir / "koikoi.sqlite3")
    with conn:
        conn.execute(
            "INSERT INTO saved VALUES (?,?,?,?,?,?,?)",
            (match_id, "", "", 0, "2030-01-01T00:00:00+00:00", record, json.dumps(meta)),
        )
    conn.close()


def test_a_good_saved_match_resumes_exactly(data_dir: Path) -> None:
    text = _record(moves=7)
    with Storage.open(data_dir) as store:
        assert store.write_autosave("m-good", text, GOOD_META)
        saved = store.read_autosave()
        assert saved is not None
        got = resume(saved)
    assert got.match_id == "m-good" and engine.match_record(got.match) == text
    assert got.seats == ("human", "intermediate")
    # and it plays on as the match that was never saved: the same choices give the same cards
    # and the same end (chance is in the record: issue 33)
    whole = engine.new_match(engine.PRESETS["nintendo"], first_dealer=0, rounds=1, seed=4)
    first = random.Random(1)
    for _ in range(7):
        whole.apply(first.choice(whole.round.legal_actions()))
    for m in (whole, got.match):
        rng = random.Random(5)
        while m.outcome is None:
            m.apply(rng.choice(m.round.legal_actions()))
    assert engine.match_record(got.match) == engine.match_record(whole)
    assert got.match.outcome == whole.outcome


@pytest.mark.parametrize("name", sorted(FORGED))
def test_forged_saved_match_raises_only_resume_error(name: str) -> None:
    from koikoi_desktop.storage.models import AutosaveData

    record, meta = FORGED[name]
    if name in ("600k-moves", "empty"):
        pytest.skip("refused by the storage before the engine reads it (the test below)")
    with pytest.raises(ResumeError):
        resume(AutosaveData(record=record, meta={"match_id": "m-x", **meta}))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(FORGED))
def test_continue_sets_a_forged_row_aside_with_one_line(data_dir: Path, name: str) -> None:
    """Through the app's own Continue: False, one line, the row kept in ``set_aside``."""
    from koikoi_desktop import app as app_mod

    record, meta = FORGED[name]
    _save_raw(data_dir, "m-forged", record, meta)
    args = app_mod.parse_args(["--data-dir", str(data_dir), "--speed", "off"])
    a = app_mod.App(args)
    a.open_storage()
    try:
        assert a.continue_match() is False
        assert a.stack.top is None or a.stack.top.name != "table"
        told = [w for w in a.warnings if isinstance(w, Notice) and w.key == "autosave_damaged"]
        assert len(told) == 1, a.warnings
        assert "could not be resumed" in notice_text(ENGLISH, told[0])
        assert a.storage.read_autosave() is None
        assert a.continue_match() is False  # and nothing more is said the second time
        assert [w for w in a.warnings if isinstance(w, Notice) and w.key == told[0].key] == told
    finally:
        a.storage.close()
    conn = sqlite3.connect(data_dir / "koikoi.sqlite3")
    kept = conn.execute("SELECT kind, match_id, payload FROM set_aside").fetchall()
    conn.close()
    assert [(k, m) for k, m, _ in kept] == [("saved_match", "m-forged")]
    assert json.loads(kept[0][2])["record"] == record  # kept byte for byte, not deleted
