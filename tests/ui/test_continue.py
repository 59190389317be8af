"""Continue, end to end: a match played on the table autosaves; a fresh app on the same data
folder offers Continue on the title screen, and the table it opens holds the same match — hands,
field, captures, scores and player to move — and goes on from there."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import engine, scenes
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.scenes.title import TitleScene

from .conftest import pump


def make_app(data: Path, lang: str | None = None) -> Any:
    """An app started as ``run`` starts it (``--lang``: the language of this run)."""
    from koikoi_desktop import app as app_mod

    argv = ["--data-dir", str(data), "--speed", "off", *(["--lang", lang] if lang else [])]
    args = app_mod.parse_args(argv)
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    return a


def close_app(a: Any) -> None:
    """Quit as the window's close button does after the table: scenes exit, storage closes."""
    while a.stack.top is not None:
        a.stack.pop()
    a.storage.close()
    pygame.display.quit()


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        if a.stack.top is not None:
            close_app(a)


def snapshot(t: TableScene) -> dict[str, Any]:
    """What the player sees of the match (the engine state and the board the table draws)."""
    st = t.match.round
    b = t.director.board
    return {
        "hands": [sorted(st.hand(0)), sorted(st.hand(1))],
        "field": sorted(st.field),
        "captured": [sorted(st.captured(0)), sorted(st.captured(1))],
        "balances": tuple(t.match.balances),
        "round": t.match.round_number,
        "ledger": [e.as_dict() for e in t.match.ledger],
        "to_move": st.to_move,
        "phase": st.phase,
        "pile": st.view(0).pile_size if hasattr(st.view(0), "pile_size") else None,
        "board_hands": [sorted(b.hands[0]), sorted(b.hands[1])],
        "board_field": sorted(b.field_cards()),
        "board_caps": [sorted(b.caps[0]), sorted(b.caps[1])],
        "record": engine.match_record(t.match),
    }


def start(a: Any, seed: int, preset: str = "nintendo") -> TableScene:
    a.stack.push(scenes.create("title", a))
    t = TableScene(
        a, screens.Table(config=MatchConfig(engine.PRESETS[preset], ("human", "beginner"), seed))
    )
    a.stack.push(t)
    assert t.prompt is not None and t.prompt.key == ("first",)
    t.prompt.widgets[-1].activate()
    assert pump(t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")
    return t


def play_until(a: Any, t: TableScene, done: Callable[[], bool], limit: int = 600) -> None:
    """The human plays its first legal move (stop at a decision); the computer answers."""
    for _ in range(limit):
        if done():
            return
        if t.prompt is not None:  # koi-koi when offered; any other question: its default
            t.prompt.widgets[-1].activate()
        elif a.stack.top is not t:  # a round summary: continue
            a.stack.top.on_back()
            continue
        elif t.controller.my_turn():
            t.controller.apply(t.controller.state.legal_actions()[0])
        pump(
            t,
            lambda: (
                done() or t.controller.my_turn() or t.prompt is not None or a.stack.top is not t
            ),
            5,
        )
    raise AssertionError("the wanted position was not reached")


def continue_in_new_app(
    apps: list[Any], data: Path, lang: str | None = None
) -> tuple[Any, TableScene]:
    b = make_app(data, lang)
    apps.append(b)
    title = b.stack.push(scenes.create("title", b))
    assert isinstance(title, TitleScene)
    cont = title.buttons[1]
    assert cont.enabled
    b.stack.draw(pygame.display.get_surface())
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        b.dispatch(pygame.event.Event(kind, button=1, pos=cont.rect.center))
    t = b.stack.top
    assert isinstance(t, TableScene) and t is not title
    return b, t


def test_continue_is_disabled_without_an_autosave(tmp_path, apps) -> None:
    a = make_app(tmp_path / "data")
    apps.append(a)
    title = a.stack.push(scenes.create("title", a))
    assert not title.buttons[1].enabled
    title.on_continue()  # even if asked directly, nothing opens
    assert a.stack.top is title and title.message


def test_continue_resumes_the_same_position(tmp_path, apps) -> None:
    data = tmp_path / "data"
    a = make_app(data)
    apps.append(a)
    t = start(a, seed=7)
    moves = 0
    for _ in range(3):
        play_until(a, t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")
        t.controller.apply(t.controller.state.legal_actions()[-1])
        moves += 1
    play_until(a, t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")
    assert len(t.match.round.moves) >= 2 * moves
    before = snapshot(t)
    saved = a.storage.read_autosave()
    assert saved is not None and saved.record == before["record"]
    close_app(a)
    apps.remove(a)

    b, t2 = continue_in_new_app(apps, data)
    after = snapshot(t2)
    assert after == before
    assert t2.controller.config.seats == ("human", "beginner")
    # it is the player's turn again, and the game goes on from here
    assert pump(t2, lambda: t2.controller.my_turn())
    n = len(t2.match.round.moves)
    assert t2.controller.apply(t2.controller.state.legal_actions()[0])
    assert len(t2.match.round.moves) == n + 1 or t2.match.ledger != before["ledger"]
    assert b.storage.read_autosave().record == engine.match_record(t2.match)


def test_continue_after_a_finished_round_and_at_a_koikoi_decision(tmp_path, apps) -> None:
    data = tmp_path / "data"
    a = make_app(data)
    apps.append(a)
    t = start(a, seed=11)
    play_until(
        a,
        t,
        lambda: (
            len(t.match.ledger) >= 1
            and t.controller.state.phase == "decide"
            and t.controller.is_human(t.controller.state.to_move)
        ),
        limit=3000,
    )
    assert pump(t, lambda: t.prompt is not None) and t.prompt.key[-1] == "decide"
    before = snapshot(t)
    assert before["round"] >= 2 and before["phase"] == "decide"
    close_app(a)
    apps.remove(a)

    _, t2 = continue_in_new_app(apps, data)
    assert snapshot(t2) == before
    assert pump(t2, lambda: t2.prompt is not None)
    assert t2.prompt.key[-1] == "decide"  # the koi-koi question is asked again


def test_continue_a_match_saved_after_its_last_move(tmp_path, apps) -> None:
    """Closed on the last round's summary: Continue shows it again, then the result, and the
    match lands in the ledger exactly once."""
    data = tmp_path / "data"
    a = make_app(data)
    apps.append(a)
    t = start(a, seed=5, preset="seed-001")  # short: a race to 50 points
    play_until(a, t, lambda: t.match.outcome is not None, limit=6000)
    assert a.storage.read_autosave() is not None and a.storage.ledger.count() == 0
    final = tuple(t.match.balances)
    close_app(a)
    apps.remove(a)

    b, t2 = continue_in_new_app(apps, data)
    assert t2.match.outcome is not None and tuple(t2.match.balances) == final
    assert pump(t2, lambda: b.stack.top.name == "round-summary", 5)
    b.stack.top.on_back()
    assert b.stack.top.name == "match-result"
    assert b.storage.ledger.count() == 1
    assert b.storage.ledger.page(0, 5)[0].final_balances == final
    assert b.storage.read_autosave() is None
    title = b.stack.push(scenes.create("title", b))
    assert not title.buttons[1].enabled


def _decks(m: engine.Match) -> list[tuple[int, ...]]:
    return [d for deal in m.deals for d in deal.decks]


def test_continue_plays_on_into_the_next_round_as_the_uninterrupted_match(tmp_path, apps) -> None:
    """Issue 33 across the seam: a match saved mid-round 2 and continued in a fresh app plays on
    into round 3 exactly as the same match played without the quit (same player choices, the
    computer with its seed): same decks, same record — and no deck comes twice."""

    def reached(t: TableScene) -> bool:
        return t.match.round_number >= 3 and len(t.match.round.moves) >= 2

    ref_app = make_app(tmp_path / "ref")
    apps.append(ref_app)
    ref = start(ref_app, seed=23)
    play_until(ref_app, ref, lambda: reached(ref), limit=6000)
    expected = engine.match_record(ref.match)
    close_app(ref_app)
    apps.remove(ref_app)

    data = tmp_path / "data"
    a = make_app(data)
    apps.append(a)
    t = start(a, seed=23)
    play_until(a, t, lambda: t.match.round_number == 2 and len(t.match.round.moves) >= 3)
    close_app(a)
    apps.remove(a)

    _, t2 = continue_in_new_app(apps, data)
    play_until(t2.app, t2, lambda: reached(t2), limit=6000)
    decks = _decks(t2.match)
    assert len(set(decks)) == len(decks)
    assert engine.match_record(t2.match) == expected
    assert engine.verify_deals(expected).ok


def test_a_match_saved_before_chance_was_recorded_continues_with_new_decks(tmp_path, apps) -> None:
    """A version-1 saved match (no seal, no first draw; its decks then came from one generator)
    continues without a word and deals none of its earlier decks again."""
    import random

    from koikoi_desktop.storage import Storage

    data = tmp_path / "data"
    old = random.Random(8)
    decks = []
    for _ in range(2):
        d = list(range(1, 49))
        old.shuffle(d)
        decks.append(d)
    m = engine.Match(engine.PRESETS["nintendo"], first_dealer=0, decks=decks, seed=8)
    rng = random.Random(1)
    while m.round_number < 2 or len(m.round.moves) < 2:
        m.apply(rng.choice(m.round.legal_actions()))
    v1 = "\n".join(
        ln.replace("koikoi-match/2", "koikoi-match/1")
        for ln in engine.match_record(m).splitlines()
        if not ln.startswith(("commitment", "first-draw", "stacked"))
    )
    meta = {"match_id": "old-1", "seats": ["human", "beginner"], "names": ["You", "Ren"]}
    with Storage.open(data) as store:
        assert store.write_autosave("old-1", v1 + "\n", meta)
    b, t = continue_in_new_app(apps, data)
    assert not b.storage.warnings
    play_until(b, t, lambda: t.match.round_number >= 3 and len(t.match.round.moves) >= 1)
    got = _decks(t.match)
    assert got[:2] == [tuple(d) for d in decks] and len(set(got)) == len(got)
