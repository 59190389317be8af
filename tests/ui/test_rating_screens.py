"""The player's rating through the real scene stack: the match result shows the change after a
rated match, the title shows the rating, the ledger's statistics tab charts it, and the new-game
screen names each level's measured rating. A practice match and a hot-seat match move nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pygame
import pytest

from koikoi_desktop import engine, scenes
from koikoi_desktop.ratings import (
    PROVISIONAL_RD,
    Rating,
    level_ratings,
    match_weight,
    not_told_apart,
    rate_match,
    shown,
)
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.storage.rating_rows import rated
from koikoi_desktop.storage.recorder import MatchRecorder
from koikoi_desktop.ui import gfx

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
    t = TableScene(a, screens.Table(config=cfg))
    a.stack.push(t)
    assert t.prompt is not None
    t.prompt.widgets[-1].activate()
    assert pump(t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")
    play_until(a, t, lambda: a.stack.top.name == "match-result", 6000)
    return a.stack.top


def test_a_rated_match_shows_its_change_on_the_result_and_the_title(app: Any) -> None:
    """The first rated match: the change on the result, counted for the match's rounds, marked
    provisional ("?" and a line saying what it means) on the result, the title and the new-game
    screen (issue 45)."""
    result = _play(app, practice=False)
    [point] = app.storage.ledger.rating_history()
    assert result.rating == point and point.before == Rating().rating
    outcome = result.match.outcome
    score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
    weight = match_weight(len(result.match.ledger))
    want = rate_match(Rating(), level_ratings()["beginner"].opponent, score, weight)
    after = round(want.rating)
    assert point.rating == pytest.approx(want.rating) and point.rd > PROVISIONAL_RD
    text = result.rating_text()
    assert text == f"Your rating 1000 → {after}? ({after - 1000:+d})"
    surface = pygame.display.get_surface()
    seen: list[str] = []
    real = gfx.blit_text

    def spy(surf: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(text)
        return real(surf, text, *args, **kwargs)

    with patch.object(gfx, "blit_text", spy):
        result.draw(surface)
    assert text in seen and app.words.t("ui.rating.provisional") in seen
    assert result.chart_rect().top >= result.header_bottom()  # the lines have their own room
    result.to_title()
    title = app.stack.top
    assert title.name == "title" and title.rating == (point.rating, point.rd)
    seen.clear()
    with patch.object(gfx, "blit_text", spy):
        title.draw(surface)
    assert f"Your rating: {after}? (provisional)" in seen
    app.prefs.speak("ja")
    title.build()
    seen.clear()
    with patch.object(gfx, "blit_text", spy):
        title.draw(surface)
    assert f"あなたのレーティング：{after}?（暫定）" in seen
    new = scenes.create("new-game", app)
    app.stack.push(new)
    new.draw(surface)
    assert f"あなたのレーティング：{after}?（暫定）" in new.notes()


def test_a_practice_match_moves_no_rating(app: Any) -> None:
    result = _play(app, practice=True)
    assert app.storage.ledger.count() == 0 or app.storage.ledger.rating_history() == []
    assert result.rating is None and result.rating_text() == ""
    result.to_title()
    assert app.stack.top.rating is None
    new = scenes.create("new-game", app)
    assert not any("rating" in n.lower() and "?" in n for n in new.notes()[:2])


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
        history = a.storage.ledger.rating_history()
        assert history  # the seeded ledger has rated matches
        a.stack.push(scenes.create("ledger", a))
        a.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode=""))
        scene = a.stack.top  # Left from the first chip, round the row: the statistics
        assert scene.name == "ledger-stats"
        surface = pygame.display.get_surface()
        scene.draw(surface)
        body = scene.body()
        chart = scene.rating_chart(body.x, body.y, body.w)
        assert chart is not None
        values = chart.series[0].values
        assert values == (history[0].before, *(p.rating for p in history))
        assert f"→ {shown(history[-1].rating, history[-1].rd)}" in chart.tips[-1][-1]
        provisional = [p for p in history if p.rd > PROVISIONAL_RD]
        assert all(
            f"{round(p.rating)}?" in tip[-1]
            for p, tip in zip(history, chart.tips[1:], strict=True)
            if p in provisional
        )
        a.stack.pop()
        new = scenes.create("new-game", a)
        a.stack.push(new)
        new.draw(surface)
        [opp] = [c for c in new.left if c.options and c.options[0][0] == "beginner"]
        labels = dict(opp.options)
        for level, measured in level_ratings().items():
            assert labels[level].endswith(f"({round(measured.rating)})")
        assert labels["hotseat"] == a.words.t("ui.newgame.hotseat")
        # the levels the measurement does not tell apart are named (their intervals overlap)
        apart = not_told_apart(level_ratings())
        notes = new.notes()
        for lo, hi in apart:
            name_lo, name_hi = (a.words.t(f"ui.level.{x}") for x in (lo, hi))
            assert any(name_lo in n and name_hi in n for n in notes), notes
        assert len(notes) == 2 + 1 + len(apart)  # description, practice, rating, overlaps
    finally:
        close_app(a)
