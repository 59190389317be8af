"""Layout facts of the screens issue 16 changed, at the smallest window (1024x640) in English,
Japanese and Ukrainian: every line of text drawn whole (no ellipsis), inside the window, and no
two lines on top of each other; buttons inside the window and clear of the content.

Every string reaches the screen through ``gfx.blit_text``; the tests record each call (its
text, the rectangle it took and the clip in force) while the real scene draws a real frame, and
save the frame as a PNG next to the test's temporary files for a person to look at.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import scenes
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.screen_frame import ScreenFrame
from koikoi_desktop.ui import gfx

SIZE = (1024, 640)
LANGS = ["en", "ja", "uk"]


@dataclass
class Line:
    text: str
    rect: pygame.Rect
    cut: bool  # shortened with an ellipsis
    hidden: bool  # (partly) outside the clip in force: scrolled out of view, not laid out


def record(monkeypatch: Any) -> list[Line]:
    lines: list[Line] = []
    real = gfx.blit_text

    def spy(surface: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> pygame.Rect:
        rect = real(surface, text, size, pos, **kw)
        bold = kw.get("bold", False)
        limit = kw.get("max_width")
        cut = limit is not None and gfx.measure(text, size, bold=bold)[0] > limit
        clip = surface.get_clip()
        # the ink, not the line box: boxes of stacked lines may share their leading
        ink = gfx.text(text, size, bold=bold).get_bounding_rect().move(rect.topleft)
        lines.append(
            Line(text, ink if not cut else rect, cut and len(text) > 1, not clip.contains(rect))
        )
        return rect

    monkeypatch.setattr(gfx, "blit_text", spy)
    return lines


def check(lines: list[Line], where: str, *, overlays: tuple[pygame.Rect, ...] = ()) -> None:
    screen = pygame.Rect((0, 0), SIZE)
    shown = [ln for ln in lines if ln.text.strip() and not ln.hidden]
    assert shown, where
    cut = [ln.text for ln in shown if ln.cut]
    assert not cut, f"{where}: cut with an ellipsis: {cut}"
    outside = [ln.text for ln in shown if not screen.contains(ln.rect)]
    assert not outside, f"{where}: outside the window: {outside}"
    free = [ln for ln in shown if not any(o.colliderect(ln.rect) for o in overlays)]
    for a, b in itertools.combinations(free, 2):
        overlap = a.rect.clip(b.rect)
        assert overlap.w <= 1 or overlap.h <= 1, f"{where}: {a.text!r} overlaps {b.text!r}"


def buttons_clear(scene: Any, *content: pygame.Rect) -> None:
    screen = pygame.Rect((0, 0), SIZE)
    frame = getattr(scene, "frame", None)  # the screens that hold a ScreenFrame keep them there
    # (the review scales through a ScreenFrame but keeps its own header buttons)
    framed = frame.buttons if isinstance(frame, ScreenFrame) else []
    buttons = framed or getattr(scene, "buttons", [])
    assert buttons, scene
    for b in buttons:
        assert screen.contains(b.rect), b.rect
        for c in content:
            assert not b.rect.colliderect(c), (b.rect, c)


def make_app(data: Path, lang: str) -> Any:
    args = appmod.parse_args(
        [
            "--data-dir",
            str(data),
            "--size",
            f"{SIZE[0]}x{SIZE[1]}",
            "--lang",
            lang,
            "--speed",
            "off",
        ]
    )
    a = appmod.App(args)
    appmod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.stack.push(scenes.create("title", a))
    return a


def shot(app: Any, path: Path) -> None:
    pygame.image.save(app.screen, str(path))


# ---------------------------------------------------------------------------- match result


@pytest.mark.parametrize("lang", LANGS)
def test_match_result(tmp_path: Path, lang: str, monkeypatch: Any) -> None:
    a = make_app(tmp_path / "data", lang)
    t = a.router.build(
        screens.Table(autoplay=True, seed=4, preset="nintendo", fast_forward="match-result")
    )
    a.stack.push(t)
    t.enter()
    r = a.stack.top
    assert r.name == "match-result"
    lines = record(monkeypatch)
    a.stack.draw(a.screen)
    shot(a, tmp_path / f"match-result-{lang}.png")
    check(lines, f"match result {lang}")
    buttons_clear(r, r.chart_rect())
    assert pygame.Rect((0, 0), SIZE).contains(r.chart_rect())
    # a round pointed at: its tooltip is whole and inside the chart, for the first and last
    for step in (1, len(r.chart.x_labels) - 1):
        lines.clear()
        a.dispatch(
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=r.chart.point(0, step), rel=(0, 0), buttons=(0, 0, 0)
            )
        )
        a.stack.draw(a.screen)
        tip = r.chart.tip_rect(step)
        assert r.chart.rect.contains(tip)
        tip_lines = [ln for ln in lines if tip.contains(ln.rect)]
        assert len(tip_lines) == len(r.chart.tips[step])
        assert not [ln.text for ln in tip_lines if ln.cut]
    shot(a, tmp_path / f"match-result-hover-{lang}.png")


# ---------------------------------------------------------------------------- ledger


@pytest.fixture(scope="module")
def ledger_data(tmp_path_factory: Any) -> Path:
    from .test_ledger_scene import SEED, seed_dir

    data = tmp_path_factory.mktemp("ledger") / "data"
    rows = SEED + [
        ("nintendo", {}, lvl, False, 5 + i)
        for i, lvl in enumerate(["beginner", "expert", "intermediate"] * 3)
    ]
    seed_dir(data, rows)
    return data


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("view", ["stats", "matches", "match"])
def test_ledger(ledger_data: Path, tmp_path: Path, lang: str, view: str, monkeypatch: Any) -> None:
    import shutil

    data = tmp_path / "data"
    shutil.copytree(ledger_data, data)
    a = make_app(data, lang)
    listing = scenes.create("ledger", a)
    a.stack.push(listing)
    if view == "match":
        listing.open_match(0)
    elif view == "stats":
        listing.choose("stats")
    s = a.stack.top  # the list, or the match or the statistics over it
    lines = record(monkeypatch)
    a.stack.draw(a.screen)
    shot(a, tmp_path / f"ledger-{view}-{lang}.png")
    check(lines, f"ledger {view} {lang}")
    buttons_clear(s, s.body())
    if any(ln.hidden for ln in lines):  # content below the fold: it scrolls, and says so
        assert s.scroll.content > s.body().h
    if view == "stats":
        body = s.body()
        chart = s.history_chart(body.x, body.y, body.w - s.frame.px(8))
        assert chart is not None and body.contains(chart.rect)


# ---------------------------------------------------------------------------- other screens


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["new-game", "credits", "rules", "settings"])
def test_other_screens(tmp_path: Path, lang: str, name: str, monkeypatch: Any) -> None:
    a = make_app(tmp_path / "data", lang)
    s = a.stack.push(scenes.create(name, a))
    lines = record(monkeypatch)
    a.stack.draw(a.screen)
    shot(a, tmp_path / f"{name}-{lang}.png")
    if name == "new-game":  # long rule values may be cut: their rows are a scrolling list
        lines = [ln for ln in lines if ln.rect.x < s.rules_area.x]
    if name == "settings":  # the settings scroll: only what is in view is laid out
        lines = [ln for ln in lines if s.viewport().contains(ln.rect) or ln.rect.y < 60]
    check(lines, f"{name} {lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_table_sidebar(tmp_path: Path, lang: str, monkeypatch: Any) -> None:
    from koikoi_desktop import engine
    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.scenes.table import sidebar as table_sidebar
    from koikoi_desktop.scenes.table.scene import TableScene

    a = make_app(tmp_path / "data", lang)
    t = TableScene(
        a,
        screens.Table(
            config=MatchConfig(engine.PRESETS["nintendo"], ("human", "intermediate"), seed=2)
        ),
    )
    a.stack.push(t)
    lines = record(monkeypatch)
    surf = pygame.Surface(SIZE)
    table_sidebar.draw_tracker(surf, t.controller.snapshot(a.words), t.lay, t.view.image)
    check(lines, f"sidebar {lang}")
    assert all(t.lay.sidebar.contains(ln.rect) for ln in lines if ln.text.strip())


def test_the_checks_can_fail(monkeypatch: Any) -> None:
    """The layout checks are real: a cut line and two lines on each other are reported."""
    pygame.font.init()
    lines = record(monkeypatch)
    surf = pygame.Surface(SIZE)
    gfx.blit_text(surf, "A long line that cannot fit", 20, (10, 10), max_width=40)
    with pytest.raises(AssertionError, match="ellipsis"):
        check(lines, "cut")
    lines.clear()
    gfx.blit_text(surf, "First", 20, (10, 10))
    gfx.blit_text(surf, "Second", 20, (14, 14))
    with pytest.raises(AssertionError, match="overlaps"):
        check(lines, "overlap")


def test_match_result_with_unsaved_matches_keeps_its_line_clear(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The line about matches the disk refused sits between the chart and the buttons."""
    a = make_app(tmp_path / "data", "uk")
    t = a.router.build(
        screens.Table(autoplay=True, seed=4, preset="nintendo", fast_forward="match-result")
    )
    a.stack.push(t)
    t.enter()
    r = a.stack.top
    monkeypatch.setattr(a.storage, "pending", [object()])
    lines = record(monkeypatch)
    a.stack.draw(a.screen)
    check(lines, "match result, unsaved")
    note = next(ln for ln in lines if ln.text == a.words.t("ui.storage.ledger_not_saved"))
    assert not note.rect.colliderect(r.chart_rect())
    buttons_clear(r, r.chart_rect(), note.rect)


# ---------------------------------------------------------------------------- review


@pytest.mark.parametrize("lang", LANGS)
def test_review(tmp_path: Path, lang: str, monkeypatch: Any) -> None:
    """The review of a whole match (issue 14): a judged move with both hands open, then the
    summary over the board; every line whole, in the window, none on another."""
    from koikoi_desktop.engine import match_record
    from koikoi_desktop.scenes.review import scene as review_mod

    monkeypatch.setattr(review_mod, "WORLDS", 4)
    a = make_app(tmp_path / "data", lang)
    # A match with a flagged decision to show: under one currency (issue 45) a computer match
    # may flag none, so the seeds are tried in order (a handful at most).
    for seed in range(2, 12):
        t = a.router.build(
            screens.Table(autoplay=True, seed=seed, preset="nintendo", fast_forward="match-result")
        )
        a.stack.push(t)
        t.enter()
        result = a.stack.top
        assert result.name == "match-result"
        rv = a.router.build(
            screens.Review(
                record=match_record(result.match),
                names=result.names,
                seats=("human", "intermediate"),
                inline=True,
            )
        )
        a.stack.push(rv)
        while rv.runner is not None:
            a.stack.update(1 / 60)
        flagged = [k for k, j in rv.judged.items() if j.cls != "good"]
        if flagged:
            break
        while a.stack.top is not None and a.stack.top.name != "title":
            a.stack.pop()
    assert flagged
    rv.go(rv.timeline.index_of(*flagged[0]))
    lay = rv.lay
    # both hands face up, the opponent's side by side (no card covering another)
    a.stack.draw(a.screen)
    assert rv.board_cache.picture is not None
    boxes = rv.board_cache.picture.boxes
    st = rv.state()
    top = [boxes[c] for c in sorted(st.hand(1 - rv.viewer))]
    assert top and all(r.size == lay.small for r in top)
    assert all(x.right <= y.x for x, y in itertools.pairwise(top))
    assert all(rv.geo["main"].contains(r) for r in top)
    lines = record(monkeypatch)
    a.stack.draw(a.screen)
    shot(a, tmp_path / f"review-{lang}.png")
    check(lines, f"review {lang}", overlays=(rv.geo["list"],))
    listed = [ln for ln in lines if rv.geo["list"].contains(ln.rect)]
    assert listed and not [ln.text for ln in listed if ln.cut]  # the move list: nothing cut
    buttons_clear(rv, rv.geo["list"], rv.geo["panel"])
    rv.toggle_summary()
    lines.clear()
    a.stack.draw(a.screen)
    shot(a, tmp_path / f"review-summary-{lang}.png")
    box = rv.summary_box()
    inside = [ln for ln in lines if box.contains(ln.rect)]
    assert rv.summary_rows() and inside
    check(inside, f"review summary {lang}")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", ["turn", "matching", "koikoi", "scoring", "presets", "tips"])
def test_every_rules_page(tmp_path: Path, lang: str, page: str, monkeypatch: Any) -> None:
    """Each page of the rules screen (the history page is long prose that scrolls)."""
    a = make_app(tmp_path / "data", lang)
    a.stack.push(a.router.build(screens.Rules(page=page)))
    lines = record(monkeypatch)
    a.stack.draw(a.screen)
    shot(a, tmp_path / f"rules-{page}-{lang}.png")
    check(lines, f"rules {page} {lang}")
