"""The player's rating through the real scene stack: the match result shows the change after a
rated match, the title shows the rating, the ledger's statistics tab charts it, and the new-game
screen names each level's measured rating. A practice match and a hot-seat match move nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import engine, scenes
from koikoi_desktop.ratings import Rating, level_ratings, rate_match
from koikoi_desktop.scenes.table.scene import MatchConfig, TableScene
from koikoi_desktop.storage.rating_rows import rated
from koikoi_desktop.storage.recorder import MatchRecorder

from .conftest import pump
from .test_continue import close_app, make_app, play_until


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    a = make_app(tmp_path / "data")
    yield a
    if a.stack.top is not None:
        close_app(a)


def _play(a: Any, *, practice: bool) -> Any:
    a.stack.push(scenes.create("title", a))
    cfg = MatchConfig(engine.PRESETS["seed-001"], ("human", "beginner"), 5, practice=practice)
    t = TableScene(a, config=cfg)
    a.stack.push(t)
    assert t.prompt is not None
    t.prompt.widgets[-1].activate()
    assert pump(t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")
    play_until(a, t, lambda: a.stack.top.name == "match-result", 6000)
    return a.stack.top


def test_a_rated_match_shows_its_change_on_the_result_and_the_title(app: Any) -> None:
    result = _play(app, practice=False)
    [point] = app.storage.rating_history()
    assert result.rating == point and point.before == Rating().rating
    outcome = result.match.outcome
    score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
    want = rate_match(Rating(), level_ratings()["beginner"].opponent, score)
    after = round(want.rating)
    assert point.rating == pytest.approx(want.rating)
    text = result.rating_text()
    assert text == f"Your rating 1000 → {after} ({after - 1000:+d})"
    surface = pygame.display.get_surface()
    result.draw(surface)
    assert result.chart_rect().top >= result.header_bottom()  # the line has its own room
    result.to_title()
    title = app.stack.top
    assert title.name == "title" and title.rating == after
    title.draw(surface)
    app.change_settings(language="ja")
    title.build()
    assert str(after) in app.words.t("ui.rating.title", rating=title.rating)
    title.draw(surface)


def test_a_practice_match_moves_no_rating(app: Any) -> None:
    result = _play(app, practice=True)
    assert app.storage.ledger_count() == 0 or app.storage.rating_history() == []
    assert result.rating is None and result.rating_text() == ""
    result.to_title()
    assert app.stack.top.rating is None


def test_hot_seat_and_computer_matches_are_not_rated(app: Any) -> None:
    m = engine.new_match(engine.PRESETS["nintendo"], first_dealer=0, seed=1)
    rules = engine.PRESETS["nintendo"]
    for seats, computer in ((("human", "human"), False), (("beginner", "expert"), True)):
        rec = MatchRecorder(
            app.storage,
            match_id="x" * 8,
            seats=seats,
            names=("A", "B"),
            rules=rules,
            practice=False,
            computer=computer,
        ).record_of(m, ending="completed", winner=0)
        assert not rated(rec, computer=computer)
    rec = MatchRecorder(
        app.storage,
        match_id="y" * 8,
        seats=("human", "intermediate"),
        names=("A", "B"),
        rules=rules,
        practice=False,
    ).record_of(m, ending="completed", winner=0)
    assert rated(rec, computer=False)


def test_the_ledger_charts_the_rating_and_new_game_names_level_ratings(
    tmp_path: Path,
) -> None:
    from .test_ledger_scene import SEED, seed_dir
    from .test_ledger_scene import make_app as ledger_app

    seed_dir(tmp_path / "data", SEED)
    a = ledger_app(tmp_path / "data", (1024, 640))
    try:
        history = a.storage.rating_history()
        assert history  # the seeded ledger has rated matches
        scene = scenes.create("ledger", a)
        a.stack.push(scene)
        scene.set_view("stats")
        surface = pygame.display.get_surface()
        scene.draw(surface)
        body = scene.body()
        chart = scene.rating_chart(body.x, body.y, body.w)
        assert chart is not None
        values = chart.series[0].values
        assert values == (history[0].before, *(p.rating for p in history))
        assert f"→ {round(history[-1].rating)}" in chart.tips[-1][-1]
        a.stack.pop()
        new = scenes.create("new-game", a)
        a.stack.push(new)
        new.draw(surface)
        [opp] = [c for c in new.left if c.options and c.options[0][0] == "beginner"]
        labels = dict(opp.options)
        for level, measured in level_ratings().items():
            assert labels[level].endswith(f"({round(measured.rating)})")
        assert labels["hotseat"] == a.words.t("ui.newgame.hotseat")
    finally:
        close_app(a)
