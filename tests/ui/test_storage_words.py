"""Storage tells facts, the screens word them (issue 36: store facts, render words; issue 35:
name the real cause).

Storage decides why the disk refused from codes (:class:`~koikoi_desktop.storage.Cause`) and
what it did (:class:`~koikoi_desktop.storage.Notice`); ``koikoi_desktop.words.storage`` words
both from the five catalogs. Before, storage wrote English phrases and the ledger screen
translated five of them back, so a Ukrainian or Japanese player read "a disk input/output
error", "the database is busy" or "the database file cannot be opened" in English.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import scenes
from koikoi_desktop.i18n import ENGLISH, LANGUAGES, Words, catalog
from koikoi_desktop.storage import Cause, Notice, NoticeKey, Refused, Storage
from koikoi_desktop.storage.atomic import Damage
from koikoi_desktop.storage.cause import Unresumable
from koikoi_desktop.words.storage import (
    cause_key,
    cause_text,
    damage_key,
    notice_key,
    notice_text,
    unresumable_key,
)
from tests.mounts import fill, read_only, tmpfs

from .test_ledger_scene import SEED, T0, drawn, make_app, record, seed_dir

STORAGE = Path(__file__).resolve().parents[2] / "koikoi_desktop" / "storage"


@pytest.fixture
def mount(tmp_path: Path) -> Iterator[Any]:
    yield from tmpfs(tmp_path)


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        while a.stack.top is not None:
            a.stack.pop()
        a.storage.close()
    pygame.display.quit()


def _fields(entry: str | dict[str, str]) -> set[str]:
    """The placeholders of a catalog entry (every plural form of it)."""
    forms = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "count"]
    return {f for form in forms for _, f, _, _ in string.Formatter().parse(form) if f}


def _sample(key: NoticeKey, reason: Cause = Cause.IO) -> Notice:
    """A notice of ``key`` with every parameter its English words name."""
    params: dict[str, Any] = {}
    for field in _fields(catalog("en")[notice_key(key)]):
        params[field] = reason if field == "reason" else 3 if field in ("count", "rebuilt") else "x"
    return Notice(key, **params)


# ------------------------------------------------------------------------------- the catalogs


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_cause_and_notice_has_words_in_every_language(code: str) -> None:
    """Each cause and each line storage can give has an entry in every catalog, with the same
    placeholders as the English one (a translation that dropped ``{reason}`` would hide why)."""
    words = Words(code)
    keys = [cause_key(c) for c in Cause] + [notice_key(k) for k in NoticeKey]
    keys += [damage_key(d) for d in Damage] + [unresumable_key(u) for u in Unresumable]
    for key in keys:
        assert words.has(key), (code, key)
        assert _fields(catalog(code)[key]) == _fields(catalog("en")[key]), (code, key)
    for cause in Cause:
        text = cause_text(words, cause, "Stale file handle")
        assert text and "{" not in text, (code, cause)
        if code != "en":
            assert text != cause_text(ENGLISH, cause, "Stale file handle"), (code, cause)
    for key in NoticeKey:
        line = notice_text(words, _sample(key))
        assert "{" not in line and "\n" not in line and not line.startswith("ui."), (code, key)


@pytest.mark.parametrize("code", sorted(set(LANGUAGES) - {"en"}))
def test_a_refusal_is_worded_in_the_players_language_whatever_its_cause(code: str) -> None:
    """The bug: every cause inside a storage line is in the line's language, none in English."""
    words = Words(code)
    for key in (k for k in NoticeKey if "reason" in _fields(catalog("en")[notice_key(k)])):
        for cause in Cause:
            line = notice_text(words, _sample(key, cause))
            assert cause_text(words, cause) in line, (code, key, cause)
            assert cause_text(ENGLISH, cause) not in line, (code, key, cause)


#: The coin word of each language: the ledger holds point matches too (issue 34 item 7).
COIN = {"en": "coin ledger", "uk": "монет", "ru": "монет", "sk": "mincí", "ja": "コイン"}


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_storage_names_the_ledger_as_its_screen_does(code: str) -> None:
    """Every storage line and the quit dialog call the ledger what its title calls it, never a
    ledger of coins."""
    entries = catalog(code)
    keys = [notice_key(k) for k in NoticeKey] + [cause_key(c) for c in Cause]
    for key in [*keys, "ui.quit_pending.text"]:
        entry = entries[key]
        forms = [entry] if isinstance(entry, str) else list(entry.values())
        assert not [f for f in forms if COIN[code] in f.lower()], (code, key)


@pytest.mark.parametrize("code", sorted(set(LANGUAGES) - {"en"}))
def test_a_damaged_settings_file_is_described_in_the_players_language(
    tmp_path: Path, code: str
) -> None:
    """What is wrong with a file is a fact too (:class:`Damage`), worded with the line."""
    (tmp_path / "settings.json").write_text('{"language": "uk", "sound_volume": ', "utf-8")
    with Storage.open(tmp_path) as store:
        [notice] = store.warnings
    assert notice.key == "settings_damaged" and notice.params["why"] is Damage.NOT_JSON
    line = notice_text(Words(code), notice)
    assert Words(code).t(damage_key(Damage.NOT_JSON)) in line
    assert "JSONDecodeError" not in line and "not valid" not in line
    assert "(it is not valid JSON)" in notice_text(ENGLISH, notice)


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_a_saved_match_that_cannot_be_resumed_is_told_why_in_the_players_language(
    code: str,
) -> None:
    words = Words(code)
    for why in Unresumable:
        notice = Notice(NoticeKey.AUTOSAVE_DAMAGED, why=why, detail="line 3")
        line = notice_text(words, notice)
        assert words.t(unresumable_key(why), detail="line 3") in line, (code, why)
        if code != "en":
            assert ENGLISH.t(unresumable_key(why), detail="line 3") not in line, (code, why)
    moves = Notice(NoticeKey.AUTOSAVE_DAMAGED, why=Unresumable.MOVES, detail="line 3: no seed")
    assert notice_text(ENGLISH, moves) == (
        "The saved match could not be resumed (the saved moves do not replay: line 3: no seed); "
        "it was kept aside in the database."
    )


def test_every_notice_key_is_raised_by_storage_and_every_cause_decided_there() -> None:
    """No member without a use: each key is given by the storage code, each cause decided."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STORAGE.glob("*.py")))
    for key in NoticeKey:
        assert re.search(rf"NoticeKey\.{key.name}\b", source), key
    for cause in Cause:
        uses = re.findall(rf"Cause\.{cause.name}\b", source)
        assert uses, cause
    for why in Unresumable:
        assert re.search(rf"Unresumable\.{why.name}\b", source), why
    for damage in Damage:
        assert re.search(rf"Damage\.{damage.name}\b", source), damage


def test_the_english_of_the_lines_on_stderr() -> None:
    """What a script reads on stderr, in English whatever the game's language."""
    gone = Notice(NoticeKey.LEDGER_UNRECORDED, count=2, reason=Cause.DISK_READ_ONLY)
    assert notice_text(ENGLISH, gone) == (
        "2 finished matches could not be written to the match ledger (the disk is read-only)."
    )
    one = Notice(NoticeKey.LEDGER_UNRECORDED, count=1, reason=Cause.FULL)
    assert notice_text(ENGLISH, one) == (
        "1 finished match could not be written to the match ledger (the disk is full)."
    )
    odd = Notice(NoticeKey.WRITE_FAILED_LEDGER, reason=Cause.OS, detail="Stale file handle")
    assert notice_text(ENGLISH, odd) == (
        "Could not save the match ledger (the system reported: Stale file handle); the game "
        "goes on and tries again at the next save."
    )
    # a detail words only an unknown cause: a known one is said the same every time
    assert Refused(Cause.IO, "Input/output error").detail == ""
    busy = Notice(NoticeKey.LEDGER_UNAVAILABLE, reason=Cause.BUSY)
    assert notice_text(ENGLISH, busy) == (
        "Cannot open the match ledger (the database is busy): finished matches are kept in "
        "memory and saved when it opens again."
    )


# ------------------------------------------------------------- a refusing disk, through the app


def _speak(data: Path, code: str) -> None:
    """The player chose ``code`` in the settings (written before the disk turned)."""
    with Storage.open(data) as store:
        store.settings.language = code
        assert store.save_settings()


def _app(apps: list[Any], data: Path) -> Any:
    """The game over ``data``, speaking the saved language as ``App.run`` makes it."""
    app = make_app(data)
    apps.append(app)
    return app


def _title_lines(app: Any) -> list[str]:
    title = scenes.create("title", app)
    app.stack.push(title)
    title.draw(pygame.display.get_surface())  # draws the wrapped lines without error
    return title.storage_lines()


@pytest.mark.parametrize("code", ["uk", "ja"])
def test_a_full_disk_at_start_is_told_in_the_players_language(
    mount: Any, apps: list[Any], monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    disk = mount(512 * 1024)
    data = disk / "data"
    _speak(data, code)
    (data / "koikoi.sqlite3").unlink()  # a first start of the ledger on a disk that is full
    for extra in data.glob("koikoi.sqlite3*"):
        extra.unlink()
    fill(disk, 0)
    app = _app(apps, data)
    words = app.words
    assert words.language == code
    assert [n.key for n in app.storage.warnings] == ["ledger_unavailable"]
    assert app.storage.warnings[0].params["reason"] is Cause.FULL
    full = cause_text(words, Cause.FULL)
    english = cause_text(ENGLISH, Cause.FULL)
    [line] = _title_lines(app)
    assert full in line and english not in line and "input" not in line
    scene = scenes.create("ledger", app)
    app.stack.push(scene)
    shown = " ".join(drawn(scene, monkeypatch))
    assert full in shown and english not in shown


@pytest.mark.parametrize("code", ["uk", "ja"])
def test_a_read_only_folder_is_told_in_the_players_language(
    mount: Any, apps: list[Any], monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    disk = mount(4 * 1024 * 1024)
    data = disk / "data"
    seed_dir(data, SEED[:2])
    _speak(data, code)
    read_only(disk)
    app = _app(apps, data)
    words = app.words
    _title_lines(app)
    scene = scenes.create("ledger", app)
    app.stack.push(scene)
    assert words.language == code and scene.rows.counts[False] == 2  # its matches are shown
    [notice] = [n for n in app.storage.warnings if n.key == "ledger_read_only"]
    assert notice.params["reason"] is Cause.DISK_READ_ONLY
    said = cause_text(words, Cause.DISK_READ_ONLY)
    english = cause_text(ENGLISH, Cause.DISK_READ_ONLY)
    shown = " ".join(drawn(scene, monkeypatch))
    assert said in shown and english not in shown
    app.stack.pop()  # back to the title
    lines = app.stack.top.storage_lines()
    assert any(said in line for line in lines) and not any(english in ln for ln in lines)
    # a match finished now is held, and the quit dialog says why in the same words
    assert app.storage.record_match(record("nintendo", {}, "beginner", False, T0, 7)) is False
    app.stack.push(scenes.create("unsaved", app))
    app.stack.top.retry()
    message = app.stack.top.message(words)
    assert said in message and english not in message


def test_a_write_into_a_damaged_file_is_told_in_the_players_language(
    tmp_path: Path, apps: list[Any]
) -> None:
    """A cause the ledger screen once had no words for (SQLite's "database disk image is
    malformed", met while recording): the title and the quit dialog say it in Ukrainian."""
    from tests.storage.test_unclean_shutdown import _damage_page, _newest_index_leaf

    data = tmp_path / "data"
    first = record("nintendo", {}, "beginner", False, T0, 7)
    with Storage.open(data) as store:
        assert store.db is not None
        copies = (first.model_copy(update={"match_id": f"m-{i:04}"}) for i in range(300))
        store.db.import_records(((rec, None) for rec in copies), source="test")
    _speak(data, "uk")
    _damage_page(data / "koikoi.sqlite3", _newest_index_leaf(data / "koikoi.sqlite3"))
    app = _app(apps, data)
    words = app.words
    assert app.storage.record_match(record("nintendo", {}, "beginner", False, T0, 8)) is False
    said = cause_text(words, Cause.DAMAGED)
    english = cause_text(ENGLISH, Cause.DAMAGED)
    lines = _title_lines(app)
    assert any(said in line for line in lines), lines
    assert not any(english in line for line in lines), lines
    app.stack.push(scenes.create("unsaved", app))
    app.stack.top.retry()  # still refused: the dialog says why, in the same words
    message = app.stack.top.message(words)
    assert said in message and english not in message
    app.storage.pending.clear()  # (exported at quit in the game; not this test's point)


def test_a_start_after_an_unclean_shutdown_says_on_stderr_that_it_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line printed while the whole ledger is checked (before the window opens) is a notice
    too, said in English on stderr by the game and the command line; storage prints nothing."""
    from koikoi_desktop.cli import tell_checking

    data = tmp_path / "data"
    seed_dir(data, SEED[:1])
    left = data / "koikoi.sqlite3-open-999999-left"  # a copy that was killed left its marker
    left.write_bytes(b"")
    told: list[Notice] = []
    with Storage.open(data, checking=told.append) as store:
        assert [n.key for n in store.warnings] == ["ledger_checked"]
    assert [n.key for n in told] == ["ledger_checking_unclean"]
    assert capsys.readouterr().err == ""
    tell_checking(told[0])
    assert capsys.readouterr().err == (
        "Koi-Koi Desktop was not closed cleanly last time: checking the match ledger...\n"
    )
    assert notice_text(Words("uk"), told[0]).endswith("перевіряємо журнал партій...")
