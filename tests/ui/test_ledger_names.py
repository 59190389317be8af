"""Ledger rows keep who sat in each seat as facts and the screens word them when they draw them
(issue 36, h5): a match recorded in one language reads in another; rows an older version wrote
with its default names as words (in any of the five languages) read as facts too, from the
database, from an export, and in the review.

Text on screen is read back by recording every string the scene renders (``gfx.text``)."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import engine, i18n, scenes
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.ledger.listing import LedgerListScene
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.storage import MatchRecord, Storage
from koikoi_desktop.storage.models import SavedMeta, SummaryRow, typed_name
from koikoi_desktop.ui.widgets import Choice
from koikoi_desktop.words.names import RecordedNames, opponent_text
from tests.ui.drawn import texts_drawn

from .conftest import pump
from .test_continue import close_app, make_app
from .test_ledger_scene import T0, play_match

CYRILLIC = re.compile("[А-яЁёІіЇїЄєҐґ]")
KANA = re.compile("[\u3040-\u30ff]")

#: Default opponent names as versions before facts wrote them into ledger rows: (the language
#: the game spoke, the words, the level recorded beside them, a computer match).
OLD_ROWS: list[tuple[str, str, str, bool]] = [
    ("en", "Computer (Expert)", "expert", False),
    ("uk", "Комп’ютер (Досвідчений)", "intermediate", False),
    ("ru", "Компьютер (Новичок)", "beginner", False),
    ("sk", "Hráč 2", "hotseat", False),
    ("ja", "コンピューター（上級）", "expert", False),
    ("uk", "Гравець 2", "human", False),  # the oldest rows said "human" for a hot seat
    ("ru", "Компьютер 2", "intermediate", True),
    ("ja", "コンピューター2", "beginner", True),
]


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        if a.stack.top is not None:
            close_app(a)


def click(a: Any, pos: tuple[int, int]) -> None:
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        a.dispatch(pygame.event.Event(kind, button=1, pos=pos))


def key(a: Any, k: int) -> None:
    a.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def choose_language(a: Any, code: str) -> None:
    """Settings → Language, as a player does it (clicks), and back."""
    below = a.stack.top
    settings = a.stack.push(scenes.create("settings", a))

    def language_choice() -> Choice:  # found again after each change: the screen is rebuilt
        a.stack.draw(a.screen)
        return next(
            w
            for _, w in settings.rows
            if isinstance(w, Choice) and getattr(w.on_change, "__name__", "") == "set_language"
        )

    for _ in range(len(i18n.LANGUAGES)):
        lang = language_choice()
        if lang.value == code:
            break
        click(a, (lang.rect.right - 5, lang.rect.centery))
    assert language_choice().value == code and a.words.language == code
    key(a, pygame.K_ESCAPE)
    assert a.stack.top is below


def drawn(a: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every string the top scene renders in one frame, joined."""
    return " | ".join(texts_drawn(lambda: a.stack.top.draw(a.screen), monkeypatch))


def open_ledger(a: Any) -> LedgerListScene:
    scene = a.stack.push(scenes.create("ledger", a))
    assert isinstance(scene, LedgerListScene)
    return scene


# ------------------------------------------------------------------ across the seam, as played


def test_a_match_recorded_in_ukrainian_reads_in_japanese_in_the_ledger_and_review(
    tmp_path: Path, apps: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play a turn against the computer in Ukrainian and concede (the match is recorded); the
    player switches to Japanese and opens the ledger: the computer's name is Japanese in the
    list, the opened match and its review; switched again (Slovak), the open review follows."""
    a = make_app(tmp_path / "data")
    apps.append(a)
    a.stack.push(scenes.create("title", a))
    choose_language(a, "uk")
    config = MatchConfig(engine.PRESETS["nintendo"], ("human", "intermediate"), 3)
    t = a.stack.push(a.router.build(screens.Table(config=config)))
    assert t.controller.names(a.words)[1] == "Комп’ютер (Досвідчений)"  # the table: Ukrainian
    if t.prompt is not None:  # the first dealer's draw
        t.prompt.widgets[-1].activate()
    assert pump(t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")
    t.controller.apply(t.controller.state.legal_actions()[0])
    t.concede()  # as the concede prompt's button does, once confirmed
    assert pump(t, lambda: a.stack.top.name == "match-result")
    [rec] = a.storage.ledger.page(0, 10)
    assert (rec.opponent_name, rec.opponent_level, rec.ending) == ("", "intermediate", "conceded")
    db = sqlite3.connect(a.storage.path("ledger"))
    assert db.execute("SELECT opponent_name FROM matches").fetchall() == [("",)]
    assert "Комп" not in db.execute("SELECT data FROM match_data").fetchone()[0]
    db.close()

    a.stack.reset(scenes.create("title", a))
    choose_language(a, "ja")
    open_ledger(a)
    text = drawn(a, monkeypatch)
    assert "コンピューター（中級）" in text, text
    assert not CYRILLIC.search(text), text
    key(a, pygame.K_RETURN)  # open the match
    assert a.stack.top.name == "ledger-match"
    text = drawn(a, monkeypatch)
    assert "コンピューター（中級）" in text and not CYRILLIC.search(text), text
    key(a, pygame.K_r)  # its review
    review = a.stack.top
    assert review.name == "review"
    assert (review.seat_name(0), review.seat_name(1)) == ("あなた", "コンピューター（中級）")
    text = drawn(a, monkeypatch)
    assert "コンピューター（中級）" in text and not CYRILLIC.search(text), text
    choose_language(a, "sk")
    assert (review.seat_name(0), review.seat_name(1)) == ("Vy", "Počítač (Pokročilý)")
    text = drawn(a, monkeypatch)
    assert "Počítač (Pokročilý)" in text and not KANA.search(text), text


# ------------------------------------------------------------------ rows of older versions


def old_record(i: int, words: str, level: str, computer: bool) -> tuple[MatchRecord, dict, str]:  # type: ignore[type-arg]
    """A match as this version records it, its JSON as an older version wrote it (the
    default name as words), and its record."""
    m, events = play_match(engine.PRESETS["nintendo"], 200 + i)
    rec = MatchRecord.from_match(
        m, preset="nintendo", opponent_level=level, events=events
    ).model_copy(update={"date": T0.replace(day=1 + i), "computer": computer})
    old = rec.model_dump(mode="json")
    old["opponent_name"] = words
    return rec, old, engine.match_record(m)


def seed_old_rows(data: Path) -> list[MatchRecord]:
    """A ledger whose rows an older version wrote: every default name as words, in the
    language the game spoke that day, in both the list's column and the match's JSON."""
    recs = []
    with Storage.open(data) as store:
        for i, (_, words, level, computer) in enumerate(OLD_ROWS):
            rec, old, text = old_record(i, words, level, computer)
            assert store.record_match(rec, record_text=text, computer=computer)
            recs.append(rec)
            db = store.db
            assert db is not None
            with db.conn:
                db.conn.execute(
                    "UPDATE matches SET opponent_name = ? WHERE match_id = ?", (words, rec.match_id)
                )
                db.conn.execute(
                    "UPDATE match_data SET data = ? WHERE match_id = ?",
                    (json.dumps(old, ensure_ascii=False), rec.match_id),
                )
    return recs


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_old_rows_in_all_five_languages_read_in_the_language_of_today(
    tmp_path: Path, apps: list[Any], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Rows written with default names as words in en, uk, ru, sk and ja: the ledger's list
    and each opened match name the opponent in today's language, and no old word shows."""
    data = tmp_path / "data"
    recs = seed_old_rows(data)
    a = make_app(data)
    apps.append(a)
    a.prefs.speak(lang)
    words = a.words
    a.stack.push(scenes.create("title", a))
    scene = open_ledger(a)
    mine = [(r, row) for r, row in zip(recs, OLD_ROWS, strict=True) if not row[3]]
    others = [(r, row) for r, row in zip(recs, OLD_ROWS, strict=True) if row[3]]
    assert [s.opponent_name for s in scene.rows.summaries] == [""] * len(mine)
    text = drawn(a, monkeypatch)
    for rec, _ in mine:
        assert opponent_text(words, "", rec.opponent_level) in text, (rec.opponent_level, text)
    stale = {words for code, words, _, _ in OLD_ROWS if code != lang}
    assert not [w for w in stale if w in text]
    for i in range(len(mine)):  # each match opened
        scene.selected = i
        key(a, pygame.K_RETURN)
        match = a.stack.top
        assert match.name == "ledger-match" and match.index == i
        rec = match.rows.records[match.index]
        assert rec.opponent_name == ""
        text = drawn(a, monkeypatch)
        assert opponent_text(words, "", rec.opponent_level) in text
        assert not [w for w in stale if w in text], text
        key(a, pygame.K_ESCAPE)
    # the computer matches (their own list): "Computer 1" against "Computer 2 (<level>)"
    for rec, (_, _, level, _) in others:
        got = a.storage.ledger.get(rec.match_id)
        assert got is not None and got[0].opponent_name == ""
        names = RecordedNames(got[0].opponent_name, level, computer=True)
        two = words.t("ui.table.computer_n", n=2)
        assert names.now(words) == (
            words.t("ui.table.computer_n", n=1),
            words.t("ui.ledger.name_level", name=two, level=words.t(f"ui.level.{level}")),
        )


def test_every_old_default_name_is_a_fact_and_a_typed_name_stays() -> None:
    """The one migration: each default name older versions wrote, in each language, reads as
    ""; what a person typed (in any script) stays, in ledger rows and saved matches alike."""
    for code in i18n.LANGUAGES:
        for key_, fmt in (
            ("ui.common.you", {}),
            ("ui.table.player_n", {"n": 1}),
            ("ui.table.player_n", {"n": 2}),
            ("ui.table.computer_n", {"n": 1}),
            ("ui.table.computer_n", {"n": 2}),
            *(
                ("ui.table.computer", {"level": i18n.t_in(code, f"ui.level.{lvl}")})
                for lvl in ("beginner", "intermediate", "expert")
            ),
        ):
            assert typed_name(i18n.t_in(code, key_, **fmt)) == "", (code, key_)
    for typed in ("Оксана", "Rin", "ゆき", "Computer", "Player", ""):
        assert typed_name(typed) == typed
    meta = SavedMeta.model_validate(
        {"match_id": "m", "seats": ["human", "expert"], "names": ["Оксана", "Počítač (Expert)"]}
    )
    assert meta.names == ("Оксана", "")
    row = SummaryRow.model_validate(
        {
            "match_id": "m",
            "date": "2025-01-01T00:00:00+00:00",
            "preset": "nintendo",
            "custom": 0,
            "unit": "points",
            "opponent_name": "コンピューター（初級）",
            "opponent_level": "beginner",
            "practice": 0,
            "computer": 0,
            "player_seat": 1,
            "winner": None,
            "result": "draw",
            "player_total": 0,
            "opponent_total": 0,
            "rounds": 0,
            "ending": "completed",
            "help_level": None,
        }
    )
    assert row.opponent_name == ""


# ------------------------------------------------------------------ export and import


def test_an_old_export_imports_as_facts_and_a_new_export_keeps_the_old_layout(
    tmp_path: Path, apps: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An export an older version wrote (default names as Ukrainian and Japanese words) is
    imported as facts and shown in Russian; this version's export keeps the layout older
    versions read (``schema_version`` 1, the same fields), with "" for a default name."""
    source = tmp_path / "source"
    seed_old_rows(source)
    with Storage.open(source) as store:
        new_export = store.export_all(tmp_path / "new.json").path
    doc = json.loads(new_export.read_text("utf-8"))
    assert doc["schema_version"] == 1
    fields = set(MatchRecord.model_fields) | {"players", "record"}
    for match in doc["matches"]:
        assert set(match) == fields
        assert match["opponent_name"] == "" and match["schema_version"] == 1
        assert match["players"][1] == match["opponent_level"]
    # the same export as an older version wrote it: the words of the day in each match
    for match, (_, words, _, _) in zip(doc["matches"], OLD_ROWS, strict=True):
        match["opponent_name"] = words
        match["players"][1] = words
    old_export = tmp_path / "old.json"
    old_export.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")

    a = make_app(tmp_path / "fresh")
    apps.append(a)
    added, same, aside = a.storage.import_ledger(old_export)
    assert (added, same, aside) == (len(OLD_ROWS), 0, 0)
    assert all(r.opponent_name == "" for r in a.storage.ledger.page(0, 20))
    a.prefs.speak("ru")
    a.stack.push(scenes.create("title", a))
    open_ledger(a)
    text = drawn(a, monkeypatch)
    assert "Компьютер (Эксперт)" in text and "Игрок 2" in text, text
    assert not KANA.search(text) and "Комп’ютер" not in text and "Hráč" not in text
    # importing the old export again into the source changes nothing: old words and facts are
    # the same match
    with Storage.open(source) as store:
        assert store.import_ledger(old_export) == (0, len(OLD_ROWS), 0)
