"""The ledger's three screens (list, match, statistics) over a real data folder seeded with
engine matches recorded through Storage, driven through the app's scene stack: every key and
click is a pygame event the app dispatches to the top screen, and a match or the statistics
open as screens of their own over the list (Esc / Back pops them).

What is drawn is read back by recording every string the top screen renders (``gfx.text`` is
the one function all text goes through), so the tests check the words on screen, not internals.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import engine, scenes
from koikoi_desktop.engine import PRESETS, Rules
from koikoi_desktop.i18n import ENGLISH, say
from koikoi_desktop.scenes.ledger.listing import LedgerListScene
from koikoi_desktop.scenes.ledger.match import LedgerMatchScene
from koikoi_desktop.scenes.ledger.statistics import LedgerStatsScene
from koikoi_desktop.scenes.table.text import end_text, factor_text
from koikoi_desktop.storage import MatchRecord, Storage
from koikoi_desktop.storage.export import read_json_export
from tests.ui.drawn import texts_drawn

SIZES = [(1024, 640), (1280, 800), (1920, 1080)]
T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)

#: (preset, changed options, opponent level, practice, days after T0) — recorded in this order,
#: which is not the order of the dates, so "newest first" is a real sort.
SEED = [
    ("nintendo", {}, "intermediate", False, 2),
    ("seed-000", {}, "beginner", False, 0),
    ("nintendo", {"koikoi_limit": 3}, "expert", True, 3),
    ("seed-003", {}, "intermediate", False, 1),
]


def send(scene: Any, event: pygame.event.Event) -> None:
    """One event the way the app delivers it: translated into an intent once, for the screen on
    top of ``scene``'s stack."""
    scene.app.dispatch(event)


def play_match(rules: Rules, seed: int) -> tuple[Any, list[Any]]:
    """A whole match with random legal moves (koi-koi calls included), and all its events."""
    m = engine.new_match(rules, first_dealer=seed % 2, seed=seed)
    rng = random.Random(seed)
    events: list[Any] = []
    while m.outcome is None:
        events += m.apply(rng.choice(m.round.legal_actions()))
    return m, events


def record(
    preset: str, options: dict[str, Any], level: str, practice: bool, when: datetime, seed: int
) -> MatchRecord:
    base = PRESETS[preset]
    rules = Rules.model_validate({**base.model_dump(), **options}) if options else base
    m, events = play_match(rules, seed)
    rec = MatchRecord.from_match(
        m,
        preset=preset,
        options=rules.changes_from_preset() if options else {},
        unit=rules.unit,
        opponent_level=level,  # the opponent's default name: "" (worded when drawn)
        practice=practice,
        events=events,
    )
    return rec.model_copy(update={"date": when})


Row = tuple[str, dict[str, Any], str, bool, int]


def seed_dir(data: Path, rows: list[Row]) -> list[MatchRecord]:
    recs = []
    with Storage.open(data) as store:
        for i, (preset, options, level, practice, days) in enumerate(rows):
            rec = record(preset, options, level, practice, T0 + timedelta(days=days), 100 + i)
            assert store.record_match(rec)
            recs.append(rec)
    return recs


def make_app(data: Path, size: tuple[int, int] = (1280, 800)) -> Any:
    from koikoi_desktop import app as app_mod

    args = app_mod.parse_args(
        ["--data-dir", str(data), "--speed", "off", "--size", f"{size[0]}x{size[1]}"]
    )
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    return a


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        while a.stack.top is not None:
            a.stack.pop()
        a.storage.close()
    pygame.display.quit()


def open_ledger(
    apps: list[Any], data: Path, size: tuple[int, int] = (1280, 800)
) -> LedgerListScene:
    """The ledger's list opened over the title, the way the title opens it."""
    a = make_app(data, size)
    apps.append(a)
    a.stack.push(scenes.create("title", a))
    scene = scenes.create("ledger", a)
    assert isinstance(scene, LedgerListScene)
    a.stack.push(scene)
    return scene


def top(scene: Any) -> Any:
    """The screen on top of ``scene``'s stack (a match or the statistics over the list)."""
    return scene.app.stack.top


def opened(scene: Any) -> LedgerMatchScene:
    """The match screen on top of the list."""
    match = top(scene)
    assert isinstance(match, LedgerMatchScene)
    return match


def stats(scene: Any) -> LedgerStatsScene:
    """The statistics screen on top of the list."""
    st = top(scene)
    assert isinstance(st, LedgerStatsScene)
    return st


def drawn(scene: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the screen on top of ``scene``'s stack renders in one frame."""
    surface = pygame.display.get_surface() or pygame.Surface(scene.size)
    return texts_drawn(lambda: top(scene).draw(surface), monkeypatch)


def key(scene: Any, k: int) -> None:
    send(scene, pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def click(scene: Any, pos: tuple[int, int]) -> None:
    send(scene, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    send(scene, pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    send(scene, pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))


def button(scene: Any, label: str) -> Any:
    """The header button of that label on the screen on top of ``scene``'s stack."""
    scene = top(scene)
    return next(b for b in scene.frame.buttons if say(b.label, ENGLISH) == label)


# --------------------------------------------------------------------------------------- list


def test_list_shows_matches_newest_first(tmp_path, apps, monkeypatch) -> None:
    recs = seed_dir(tmp_path / "data", SEED)
    scene = open_ledger(apps, tmp_path / "data")
    newest = sorted(recs, key=lambda r: r.date, reverse=True)
    assert [r.match_id for r in scene.rows.records] == [r.match_id for r in newest]
    text = " | ".join(drawn(scene, monkeypatch))
    # each row: date, rules, opponent and level, practice mark, result and both totals
    positions = []
    for r in newest:
        stamp = r.date.astimezone().strftime("%Y-%m-%d %H:%M")
        assert stamp in text
        positions.append(text.index(stamp))
        me = r.player_seat
        assert f"{r.final_balances[me]} : {r.final_balances[1 - me]}" in text
    assert positions == sorted(positions)  # drawn top to bottom, newest first
    assert "Custom, based on Nintendo (standard)" in text
    assert "Ukrainian rulebook" in text and "French edition" in text
    assert "Practice" in text
    assert "against Computer (Expert)" in text
    assert "coins" in text and "points" in text
    results = {"win": "Won", "loss": "Lost", "draw": "Draw"}
    for r in newest:
        assert results[r.player_result] in text
    # the first row on screen is the newest match: clicking it opens that match
    row = next(rect for rect, _ in scene.frame.hits if rect.y >= scene.body().y)
    click(scene, row.center)
    match = opened(scene)
    assert match.rows.records[match.index].match_id == newest[0].match_id


def test_opening_a_match_shows_every_round_field(tmp_path, apps, monkeypatch) -> None:
    recs = seed_dir(tmp_path / "data", SEED[:2])
    scene = open_ledger(apps, tmp_path / "data", (1024, 640))
    key(scene, pygame.K_DOWN)  # the second newest: the Ukrainian (coins, transfer) match
    key(scene, pygame.K_RETURN)
    match = opened(scene)
    rec = match.rows.records[match.index]
    assert rec.match_id == recs[1].match_id and rec.rounds
    seen: list[str] = []
    for _ in range(200):  # page through the whole match, collecting what is drawn
        seen += drawn(scene, monkeypatch)
        before = match.scroll.offset
        key(scene, pygame.K_PAGEDOWN)
        if match.scroll.offset == before:
            break
    seen += drawn(scene, monkeypatch)
    text = " ".join(seen)
    them = f"Computer ({rec.opponent_level.capitalize()})"  # a default name, worded now
    names = ("You", them) if rec.player_seat == 0 else (them, "You")
    assert f"Final (coins): You {rec.final_balances[rec.player_seat]}" in text
    for e in rec.rounds:
        assert f"Round {e.round} · " in text
        assert f"Dealer: {names[e.dealer]}" in text
        assert f"How it ended: {end_text(ENGLISH, e.end)}" in text
        assert (f"Winner: {names[e.winner]}" if e.winner is not None else "No winner") in text
        for y in e.yaku:
            assert f"{ENGLISH.yaku_name(y.key)} {y.points}" in text
        calc = " ".join(
            [f"Base {e.base}"]
            + [f"× {f.factor} ({factor_text(ENGLISH, f.name, f.factor)})" for f in e.factors]
            + [f"= {e.final}"]
        )
        assert f"Score: {calc}" in text
        assert f"Paid: {e.paid} coin{'' if e.paid == 1 else 's'}" in text
        assert f"Balances: {names[0]} {e.balances[0]}, {names[1]} {e.balances[1]}" in text
    # Esc goes back to the list with the opened match selected; Esc again leaves the screen
    stack = scene.app.stack
    key(scene, pygame.K_ESCAPE)
    assert scene.selected == 1 and stack.top is scene
    key(scene, pygame.K_ESCAPE)
    assert stack.top is not scene and stack.top.name == "title"


def test_left_right_walk_through_matches(tmp_path, apps) -> None:
    seed_dir(tmp_path / "data", SEED[:3])
    scene = open_ledger(apps, tmp_path / "data")
    key(scene, pygame.K_RETURN)
    assert opened(scene).index == 0
    key(scene, pygame.K_RIGHT)
    key(scene, pygame.K_RIGHT)
    key(scene, pygame.K_RIGHT)  # stops at the oldest
    assert opened(scene).index == 2
    key(scene, pygame.K_LEFT)
    assert opened(scene).index == 1
    key(scene, pygame.K_ESCAPE)  # back on the list, on the line shown last
    assert top(scene) is scene and scene.selected == 1


def test_list_match_back_statistics_back_by_keyboard_and_mouse(tmp_path, apps, monkeypatch) -> None:
    """The three screens are screens of the stack: a match and the statistics open over the
    list, and Esc (or the Back button) pops them, the list on the row it was left on."""
    seed_dir(tmp_path / "data", SEED)
    scene = open_ledger(apps, tmp_path / "data", (1024, 640))
    stack = scene.app.stack
    below = len(stack)
    # keyboard: Down Down Enter opens the third match; Right shows the fourth; Esc returns
    key(scene, pygame.K_DOWN)
    key(scene, pygame.K_DOWN)
    key(scene, pygame.K_RETURN)
    assert opened(scene).index == 2 and len(stack) == below + 1
    key(scene, pygame.K_RIGHT)
    key(scene, pygame.K_ESCAPE)
    assert top(scene) is scene and scene.selected == 3 and len(stack) == below
    key(scene, pygame.K_RIGHT)  # the next chip: the statistics
    assert "Win rate:" in " ".join(drawn(scene, monkeypatch)) and len(stack) == below + 1
    key(scene, pygame.K_ESCAPE)
    assert top(scene) is scene and scene.selected == 3
    # mouse: a row's click opens it, Back returns on it; the chip opens the statistics
    drawn(scene, monkeypatch)
    rows = sorted((r for r, _ in scene.frame.hits if r.y >= scene.body().y), key=lambda r: r.y)
    click(scene, rows[1].center)
    match = opened(scene)
    assert match.index == 1
    drawn(scene, monkeypatch)
    click(scene, button(scene, "Back").rect.center)
    assert top(scene) is scene and scene.selected == 1
    drawn(scene, monkeypatch)
    chips = sorted((r for r, _ in scene.frame.hits if r.y == scene.frame.px(70)), key=lambda r: r.x)
    click(scene, chips[-1].center)
    assert isinstance(top(scene), LedgerStatsScene)
    drawn(scene, monkeypatch)
    click(scene, button(scene, "Back").rect.center)
    assert top(scene) is scene and scene.selected == 1
    key(scene, pygame.K_ESCAPE)
    assert stack.top.name == "title"


# --------------------------------------------------------------------------------- statistics


def test_statistics_match_storage(tmp_path, apps, monkeypatch) -> None:
    seed_dir(tmp_path / "data", SEED)
    scene = open_ledger(apps, tmp_path / "data")
    key(scene, pygame.K_RIGHT)
    st = scene.app.storage.ledger.stats()
    assert stats(scene).stats == st
    text = " ".join(drawn(scene, monkeypatch))
    o = st.overall
    assert o.matches == 3 and st.practice_matches == 1  # practice left out by default
    assert f"{o.matches} matches: {o.wins} won, {o.losses} lost, {o.draws} drawn" in text
    assert f"Win rate: {round(o.win_rate * 100)}%" in text
    assert "Practice matches not counted: 1" in text
    for level, tally in st.by_level.items():
        assert ENGLISH.t(f"ui.level.{level}") in text
        assert f"{round(tally.win_rate * 100)}%" in text
    for preset in st.by_preset:
        assert ENGLISH.t(f"preset.{preset}.name") in text
    assert (
        f"{st.rounds_played} rounds: {st.rounds_won} won, {st.rounds_lost} lost, "
        f"{st.rounds_drawn} without a winner"
    ) in text
    b = st.best_round
    assert b is not None and f"{b.final} {b.unit}: round {b.round}" in text
    k = st.koikoi
    assert k.rounds_known > 0  # recorded from the engine's events
    assert f"Won after koi-koi: {k.rounds_won_after_call} of {k.rounds_called}" in text
    for yk, n in st.yaku_made.items():
        assert ENGLISH.yaku_name(yk) in text and str(n) in text
    # the chip counts practice matches in
    chip = next(
        rect
        for rect, cb in stats(scene).frame.hits
        if getattr(cb, "__name__", "") == "toggle_practice"
    )
    click(scene, chip.center)
    assert stats(scene).stats == scene.app.storage.ledger.stats(include_practice=True)
    assert stats(scene).stats.overall.matches == 4
    assert "4 matches:" in " ".join(drawn(scene, monkeypatch))


def test_statistics_scroll_by_keys_and_wheel(tmp_path, apps, monkeypatch) -> None:
    """At 1024x640 the statistics run past the screen: End shows their end, Home their top,
    Down and Page Down step on, the wheel scrolls, and none goes past either end."""
    seed_dir(tmp_path / "data", SEED)
    scene = open_ledger(apps, tmp_path / "data", (1024, 640))
    key(scene, pygame.K_RIGHT)
    st = stats(scene)
    drawn(scene, monkeypatch)
    assert st.limit() > 0  # more than one screen of figures
    key(scene, pygame.K_END)
    assert st.scroll.offset == st.limit()
    key(scene, pygame.K_PAGEDOWN)
    assert st.scroll.offset == st.limit()
    key(scene, pygame.K_HOME)
    assert st.scroll.offset == 0
    key(scene, pygame.K_DOWN)
    line = st.scroll.offset
    assert 0 < line < st.limit()
    key(scene, pygame.K_PAGEDOWN)
    assert st.scroll.offset > line
    key(scene, pygame.K_UP)
    key(scene, pygame.K_PAGEUP)
    key(scene, pygame.K_PAGEUP)
    assert st.scroll.offset == 0
    send(scene, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    assert st.scroll.offset > 0


# ------------------------------------------------------------------------------------- export


def test_export_writes_csv_and_json(tmp_path, apps, monkeypatch) -> None:
    recs = seed_dir(tmp_path / "data", SEED[:2])
    scene = open_ledger(apps, tmp_path / "data")
    click(scene, button(scene, "Export CSV").rect.center)
    csv_path = Path(scene.export_path)
    assert csv_path.parent == tmp_path / "data" / "exports" and csv_path.suffix == ".csv"
    rows = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8-sig"))))
    assert len(rows) == 1 + sum(len(r.rounds) for r in recs)
    assert {row[0] for row in rows[1:]} == {r.match_id for r in recs}
    assert csv_path.name in " ".join(drawn(scene, monkeypatch))  # the path written is shown
    click(scene, button(scene, "Export JSON").rect.center)
    json_path = Path(scene.export_path)
    assert json_path.suffix == ".json" and json_path.parent == csv_path.parent
    back = read_json_export(json_path.read_text(encoding="utf-8"))
    assert sorted(r.match_id for r in back) == sorted(r.match_id for r in recs)
    assert json_path.name in " ".join(drawn(scene, monkeypatch))


def test_export_failure_is_one_line(tmp_path, apps, monkeypatch) -> None:
    seed_dir(tmp_path / "data", SEED[:1])
    (tmp_path / "data" / "exports").write_text("a file where the folder should be")
    scene = open_ledger(apps, tmp_path / "data")
    scene.export("csv")
    assert scene.export_path is None
    assert say(scene.message, scene.app.words).startswith("Could not export the ledger")
    assert "\n" not in say(scene.message, scene.app.words)
    assert say(scene.message, scene.app.words) in drawn(scene, monkeypatch)


# -------------------------------------------------------------------------------- empty state


def test_empty_state(tmp_path, apps, monkeypatch) -> None:
    scene = open_ledger(apps, tmp_path / "fresh")
    text = " ".join(drawn(scene, monkeypatch))
    assert "No matches yet" in text and "Matches (0)" in text
    assert not button(scene, "Export CSV").enabled and not button(scene, "Export JSON").enabled
    key(scene, pygame.K_DOWN)
    assert top(scene) is scene and scene.selected == 0  # nothing to select
    scene.open_match(0)
    assert top(scene) is scene  # nothing to open
    key(scene, pygame.K_RIGHT)
    assert "Statistics appear after your first match." in " ".join(drawn(scene, monkeypatch))
    key(scene, pygame.K_LEFT)
    assert top(scene) is scene
    drawn(scene, monkeypatch)
    new_game = next(
        rect for rect, cb in scene.frame.hits if getattr(cb, "__name__", "") == "new_game"
    )
    click(scene, new_game.center)
    assert scene.app.stack.top.name == "new-game"


# ------------------------------------------------------------------------------ many matches


def test_many_matches_scroll(tmp_path, apps, monkeypatch) -> None:
    played = [record(p, o, lv, pr, T0, 200 + i) for i, (p, o, lv, pr, _) in enumerate(SEED[:2])]
    copies = [
        played[i % 2].model_copy(update={"match_id": f"m{i:04d}", "date": T0 + timedelta(hours=i)})
        for i in range(400)
    ]
    with Storage.open(tmp_path / "data") as store:
        assert store.db is not None
        assert store.db.import_records(((c, None) for c in copies), source="test") == (400, 0, 0)
    scene = open_ledger(apps, tmp_path / "data", (1024, 640))
    assert len(scene.rows) == 400 and scene.rows.records[0].match_id == "m0399"
    surface = pygame.display.get_surface()
    scene.draw(surface)
    rows = [r for r, _ in scene.frame.hits if r.y >= scene.body().y and r.w == scene.body().w]
    assert 0 < len(rows) <= scene.body().h // scene.row_h() + 2  # only visible rows are drawn
    body = scene.body()
    send(
        scene,
        pygame.event.Event(pygame.MOUSEMOTION, pos=body.center, rel=(0, 0), buttons=(0, 0, 0)),
    )
    for _ in range(30):
        send(scene, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-3, flipped=False))
        scene.draw(surface)
    assert scene.scroll.offset > 0
    key(scene, pygame.K_END)
    scene.draw(surface)
    assert scene.selected == 399 and scene.scroll.offset == scene.limit()
    assert scene.rows.records[scene.selected].match_id == "m0000"
    for k in (pygame.K_PAGEUP, pygame.K_UP, pygame.K_PAGEDOWN, pygame.K_DOWN, pygame.K_HOME):
        key(scene, k)
        scene.draw(surface)
    assert scene.selected == 0 and scene.scroll.offset == 0
    for _ in range(5):  # wheel past the top stays at the top
        send(scene, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=5, flipped=False))
    assert scene.scroll.offset == 0
    key(scene, pygame.K_END)
    key(scene, pygame.K_RETURN)
    match = opened(scene)
    assert match.rows.records[match.index].match_id == "m0000"
    match.draw(surface)
    key(scene, pygame.K_ESCAPE)  # back at the end of the list, scrolled to it
    scene.draw(surface)
    assert scene.selected == 399 and scene.scroll.offset == scene.limit() > 0


# ---------------------------------------------------------------------------- warnings, sizes


def test_storage_warnings_one_line_each(tmp_path, apps, monkeypatch) -> None:
    seed_dir(tmp_path / "data", SEED[:2])
    (tmp_path / "data" / "koikoi.sqlite3").write_bytes(b"\x00garbage" * 1000)
    scene = open_ledger(apps, tmp_path / "data")
    store = scene.app.storage
    assert [n.key for n in store.warnings] == ["ledger_db_repaired"]
    text = drawn(scene, monkeypatch)
    line = next(t for t in text if t.startswith("The match ledger database was damaged"))
    assert "\n" not in line and "0 matches were recovered" in line
    scene.app.prefs.speak("uk")
    scene.load()
    texts = drawn(scene, monkeypatch)
    assert any(t.startswith("Базу журналу партій було пошкоджено") for t in texts)


def test_a_damaged_row_met_on_screen_is_counted_again_off_the_frame_loop(
    tmp_path, apps, monkeypatch
) -> None:
    """A summary the list cannot show (a date that is none: no start-up scan sees it) is set
    aside between frames and its match rebuilt from its record; the statistics and the rating
    are then counted again on a worker thread. Meanwhile the statistics tab says so, with no
    figures; once counted, it shows them, equal to the ledger's before the damage."""
    import sqlite3
    import threading

    from koikoi_desktop.storage.ledger_db import LedgerDB

    data = tmp_path / "data"
    recs = seed_dir(data, SEED)
    with Storage.open(data) as store:
        want = store.ledger.stats(), store.ledger.rating_history()
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    with conn:
        conn.execute("UPDATE matches SET date = 'soon' WHERE match_id = ?", (recs[1].match_id,))
    conn.close()
    go, threads = threading.Event(), []
    real = LedgerDB.recount

    def held(self: LedgerDB, what: Any) -> None:
        threads.append(threading.current_thread())
        assert go.wait(30)
        real(self, what)

    monkeypatch.setattr(LedgerDB, "recount", held)
    scene = open_ledger(apps, data)
    store = scene.app.storage
    assert not store.counting  # the start found nothing to count
    drawn(scene, monkeypatch)  # the list meets the row and skips it
    scene.app.stack.update(1 / 60)  # between frames: set aside, and the recount started
    assert "rows_set_aside" in {n.key for n in store.warnings}
    assert store.counting and threads and threads[0] is not threading.main_thread()
    try:
        key(scene, pygame.K_RIGHT)
        st = stats(scene)
        text = " ".join(drawn(scene, monkeypatch))
        assert "Counting the statistics…" in text and "matches:" not in text
        assert 0 < st.still_for() < 1  # the idle screen looks again soon
    finally:
        go.set()
    assert store.wait_for_counting(30)
    scene.app.stack.update(1 / 60)
    assert not store.counting and st.still_for() == float("inf")
    text = " ".join(drawn(scene, monkeypatch))
    assert "Counting" not in text and "3 matches:" in text
    assert (st.stats, store.ledger.rating_history()) == want


def test_a_match_screen_reads_its_list_again_when_a_damaged_row_is_set_aside(
    tmp_path, apps, monkeypatch
) -> None:
    """The match screen reads its list again when storage sets damaged rows aside (the ledger's
    generation): the row it met is set aside between frames and its match rebuilt from its
    record, and the screen shows its match again, not an empty page."""
    import sqlite3

    data = tmp_path / "data"
    recs = seed_dir(data, SEED)
    oldest = min(recs, key=lambda r: r.date)
    scene = open_ledger(apps, data)
    key(scene, pygame.K_END)
    key(scene, pygame.K_RETURN)
    match = opened(scene)
    assert match.index == 3
    conn = sqlite3.connect(data / "koikoi.sqlite3")
    with conn:  # the newest match's summary no longer reads
        newest = max(recs, key=lambda r: r.date)
        conn.execute("UPDATE matches SET date = 'soon' WHERE match_id = ?", (newest.match_id,))
    conn.close()
    match.resume()  # uncovered (a review closed): its pages read again
    assert match.rows.record_at(3) is None  # the damaged row skipped: line 3 is not there
    drawn(scene, monkeypatch)
    before = match.rows.generation
    scene.app.stack.update(1 / 60)  # between frames: set aside and rebuilt, read again
    assert "rows_set_aside" in {n.key for n in scene.app.storage.warnings}
    assert match.rows.generation != before and not match.rows.stale()
    assert top(scene) is match and match.index == 3
    assert match.rows.record_at(3).match_id == oldest.match_id
    stamp = oldest.date.astimezone().strftime("%Y-%m-%d %H:%M")
    assert any(stamp in t for t in drawn(scene, monkeypatch))


@pytest.mark.parametrize("size", SIZES)
def test_draws_at_each_size(tmp_path, apps, monkeypatch, size) -> None:
    seed_dir(tmp_path / "data", SEED)
    scene = open_ledger(apps, tmp_path / "data", size)
    surface = pygame.display.get_surface()
    assert surface.get_size() == size
    window = surface.get_rect()
    for view in ("matches", "match", "stats"):
        if view == "match":
            key(scene, pygame.K_RETURN)
        elif view == "stats":
            key(scene, pygame.K_ESCAPE)
            key(scene, pygame.K_LEFT)  # round the chips: the statistics
        shown = top(scene)
        assert shown.name == {"matches": "ledger", "match": "ledger-match"}.get(
            view, "ledger-stats"
        )
        shown.draw(surface)
        body = shown.body()
        assert window.contains(body) and body.h > size[1] // 2
        for b in shown.frame.buttons:  # header buttons inside the window, clear of the tabs
            assert window.contains(b.rect) and b.rect.bottom < body.y
        for rect, _ in shown.frame.hits:
            assert window.contains(rect)
        shown.scroll_by(10**6)
        shown.draw(surface)
        # a Japanese frame at the same size draws too (fonts switch per script)
        scene.app.prefs.speak("ja")
        assert "対局記録" in drawn(scene, monkeypatch)
        scene.app.prefs.speak("en")


def test_tab_reaches_the_export_buttons(tmp_path, apps) -> None:
    seed_dir(tmp_path / "data", SEED[:1])
    scene = open_ledger(apps, tmp_path / "data")
    key(scene, pygame.K_TAB)  # focus leaves the list for the header: Enter presses a button
    assert scene.frame.focus.keyboard_used and scene.frame.focus.focused is not None
    while scene.frame.focus.focused is not button(scene, "Export JSON"):
        key(scene, pygame.K_TAB)
    key(scene, pygame.K_RETURN)
    assert top(scene) is scene and Path(scene.export_path).suffix == ".json"
    key(scene, pygame.K_DOWN)  # back on the list: Enter opens the selected match again
    key(scene, pygame.K_RETURN)
    assert opened(scene).index == 0


# --------------------------------------------------------------------------- computer matches


def test_recorded_computer_matches_have_their_own_chip_and_review(
    tmp_path, apps, monkeypatch
) -> None:
    """``--autoplay --record`` (a real run of the game) lands under a "Computer matches" chip,
    outside the player's list and statistics, and Review opens it."""
    import os
    import subprocess
    import sys

    from koikoi_desktop.scenes.review.scene import ReviewScene

    data = tmp_path / "data"
    seed_dir(data, SEED[:1])  # one match of the player's own
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    run = subprocess.run(
        [
            *(sys.executable, "-m", "koikoi_desktop", "--autoplay", "--record", "--seed", "3"),
            *("--speed", "off", "--preset", "seed-003", "--data-dir", str(data)),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    scene = open_ledger(apps, data)
    assert len(scene.rows) == 1 and scene.rows.counts == {False: 1, True: 1}
    text = " | ".join(drawn(scene, monkeypatch))
    assert "Matches (1)" in text and "Computer matches (1)" in text
    assert "Computer 1 against" not in text  # the player's list keeps to the player's matches
    # the player's statistics leave the computer match out
    assert scene.app.storage.ledger.stats(include_practice=True).overall.matches == 1
    # the chip (a click) shows the computer match, both seats named
    drawn(scene, monkeypatch)
    chips = sorted((r for r, _ in scene.frame.hits if r.y == scene.frame.px(70)), key=lambda r: r.x)
    assert len(chips) == 3  # Matches, Computer matches, Statistics
    click(scene, chips[1].center)
    assert scene.computer and top(scene) is scene and len(scene.rows) == 1
    rec = scene.rows.records[0]
    assert rec.opponent_level == "intermediate"
    text = " | ".join(drawn(scene, monkeypatch))
    assert "Computer 1 against Computer 2 (Intermediate)" in text
    assert "computer 1 : 2, points" in text and "you : opponent" not in text
    assert button(scene, "Review").enabled and button(scene, "Export CSV").enabled
    # opened, its rounds are told with both computers' names
    key(scene, pygame.K_RETURN)
    assert opened(scene).computer
    text = " | ".join(drawn(scene, monkeypatch))
    assert "Computer 1 against Computer 2 (Intermediate)" in text and "You" not in text
    names = ("Computer 1", "Computer 2 (Intermediate)")
    assert (f"{names[rec.winner]} won · " if rec.winner is not None else "Draw · ") in text
    # Review (the header button) opens the review of that match
    click(scene, button(scene, "Review").rect.center)
    rv = scene.app.stack.top
    assert isinstance(rv, ReviewScene) and rv.match_id == rec.match_id
    assert rv.timeline is not None and rv.timeline.match.balances == rec.final_balances
    assert (rv.seat_name(0), rv.seat_name(1)) == names and rv.seats is None
    scene.app.stack.pop()
    # Esc back to the computer list, Right goes on to the statistics, Left back to it
    key(scene, pygame.K_ESCAPE)
    assert top(scene) is scene and scene.computer
    key(scene, pygame.K_RIGHT)
    stats(scene)
    key(scene, pygame.K_LEFT)
    assert top(scene) is scene and scene.computer
    key(scene, pygame.K_LEFT)
    assert top(scene) is scene and not scene.computer and len(scene.rows) == 1
    # the statistics' "Matches" chip (a click) returns to the player's list from the computers'
    key(scene, pygame.K_RIGHT)
    assert scene.computer
    key(scene, pygame.K_RIGHT)
    drawn(scene, monkeypatch)
    chips = sorted(
        (r for r, _ in stats(scene).frame.hits if r.y == scene.frame.px(70)), key=lambda r: r.x
    )
    click(scene, chips[0].center)
    assert top(scene) is scene and not scene.computer
