"""The review screen speaks one currency (issue 45), through the real app: the last-round
koi-koi of ``tests/review/test_known_verdicts.py`` (Stop won the match for sure) played into a
finished one-round match, recorded, and reviewed from the ledger's record at the review's own
budget. The flagged decision's headline is the figure it was classed by, never "-0.0"; the
summary never says "Accuracy 100%" beside a flagged decision; no decision is flagged without a
loss in its own currency. ``KOIKOI_SHOTS=DIR`` keeps the screens (en, uk, ja at 1024x640 and
1920x1080) as PNGs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as app_mod
from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.engine import match_record
from koikoi_desktop.engine.actions import KOIKOI
from koikoi_desktop.review.analysis import LIMITS
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.review import scene as review_mod
from koikoi_desktop.storage import MatchRecord, Storage
from tests.review.test_known_verdicts import hanami_to_stop
from tests.ui.drawn import texts_drawn


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        while a.stack.top is not None:
            a.stack.pop()
        a.close_storage()
    pygame.display.quit()


def thrown_match() -> Any:
    """The one-round match whose dealer called koi-koi on a won match, played to its end."""
    m = hanami_to_stop()
    m.apply(KOIKOI)
    bots = [make_opponent("intermediate", seed=3 + p) for p in (0, 1)]
    while m.outcome is None:
        p = m.round.to_move
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    return m


def drawn(scene: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return texts_drawn(lambda: scene.draw(pygame.display.get_surface()), monkeypatch)


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "1024x640"), ("uk", "1920x1080"), ("ja", "1024x640")]
)
def test_a_flagged_decision_shows_its_figure_and_the_accuracy_is_below_100(
    apps: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, size: str
) -> None:
    monkeypatch.setattr(review_mod, "WORLDS", REVIEW_WORLDS)
    m = thrown_match()
    data = tmp_path / "data"
    rec = MatchRecord.from_match(
        m, preset="nintendo", opponent_name="", opponent_level="intermediate"
    )
    with Storage.open(data) as store:
        assert store.record_match(rec, record_text=match_record(m))
    args = app_mod.parse_args(["--data-dir", str(data), "--speed", "off", "--size", size])
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.prefs.speak(lang)
    a.open_window()
    a.open_sprites()
    apps.append(a)
    rv = a.router.build(screens.Review(record=match_record(m), match_id=rec.match_id, inline=True))
    a.stack.push(rv)
    assert rv.runner is not None
    rv.judged.update({(j.deal, j.move): j for j in rv.runner.wait()})
    rv.runner = None  # the analysis is done (as the screen's update leaves it)
    judged = list(rv.judged.values())
    assert judged and len(judged) == len(rv.decisions)
    for j in judged:  # never a class without a loss in its own currency
        if j.cls != "good":
            assert j.win_loss - j.margin >= LIMITS[0]
    [koi] = [j for j in judged if j.kind == "koikoi" and j.played == "koikoi"]
    assert koi.cls == "blunder" and koi.best == "stop"
    lost = round(koi.win_loss * 100)
    rv.go(rv.timeline.index_of(koi.deal, koi.move))
    words = a.words
    seen = drawn(rv, monkeypatch)
    head = f"{words.t('ui.review.class.blunder')} ?? · {words.t('ui.review.chance_lost', n=lost)}"
    assert any(head in s for s in seen), seen
    assert not any("-0.0" in s or "-0%" in s for s in seen)
    shots = os.environ.get("KOIKOI_SHOTS")
    if shots:
        pygame.image.save(pygame.display.get_surface(), f"{shots}/review-{lang}-{size}.png")
    rv.toggle_summary()
    seen = drawn(rv, monkeypatch)
    summary = rv.worst(koi.seat)
    assert summary and summary[0].cls == "blunder"
    accuracy = [s for s in seen if s.startswith(words.t("ui.review.accuracy", n="", d=1)[:4])]
    assert rv.viewer == koi.seat and accuracy  # the first column is the koi-koi's seat
    assert "100%" not in accuracy[0] and "%" in accuracy[0], accuracy
    assert any(words.t("ui.review.chance_lost", n=lost) in s for s in seen)
    if shots:
        pygame.image.save(pygame.display.get_surface(), f"{shots}/summary-{lang}-{size}.png")
