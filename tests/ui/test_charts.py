"""The game's own charts: geometry (points inside the plot, values in order, hover picks the
nearest step, labels that do not touch) and the match result's chart of a real match."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.scenes import screens
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.charts import Bar, BarChart, LineChart, Series, nice_ticks


@pytest.fixture(scope="module", autouse=True)
def fonts() -> Iterator[None]:
    pygame.font.init()
    yield


RECT = pygame.Rect(40, 30, 600, 300)


def chart(values: list[list[float]], rect: pygame.Rect = RECT, **kw: Any) -> LineChart:
    n = len(values[0])
    series = [Series(f"s{i}", tuple(v), theme.OCHRE) for i, v in enumerate(values)]
    return LineChart(rect, series, x_labels=[str(i) for i in range(n)], font=14, **kw)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(-500, 500), min_size=1, max_size=40), min_size=1, max_size=3
    ).filter(lambda vs: len({len(v) for v in vs}) == 1)
)
def test_every_point_lies_inside_the_plot_inside_the_chart(vs: list[list[int]]) -> None:
    c = chart([[float(x) for x in v] for v in vs])
    assert RECT.contains(c.plot)
    for si, v in enumerate(vs):
        for i in range(len(v)):
            x, y = c.point(si, i)
            assert c.plot.left <= x <= c.plot.right and c.plot.top <= y <= c.plot.bottom
    assert c.lo <= min(min(v) for v in vs) and c.hi >= max(max(v) for v in vs)


def test_larger_values_are_higher_and_steps_go_left_to_right() -> None:
    c = chart([[0, 10, 5, 30]])
    ys = [c.point(0, i)[1] for i in range(4)]
    xs = [c.point(0, i)[0] for i in range(4)]
    assert ys[3] < ys[1] < ys[2] < ys[0]  # screen y grows downwards
    assert xs == sorted(xs) and xs[0] == c.plot.left and xs[-1] == c.plot.right
    assert c.y_at(c.hi) == c.plot.top and c.y_at(c.lo) == c.plot.bottom


def test_hover_picks_the_nearest_step() -> None:
    c = chart([[1, 2, 3, 4, 5]])
    y = c.plot.centery
    for i in range(5):
        x = round(c.x_at(i))
        assert c.nearest((x, y)) == i
        assert c.nearest((x + 3, c.plot.top + 2)) == i  # anywhere in the column
    mid = round((c.x_at(1) + c.x_at(2)) / 2)
    assert c.nearest((mid - 2, y)) == 1 and c.nearest((mid + 2, y)) == 2
    assert c.nearest((RECT.left - 50, y)) is None
    assert c.nearest((c.plot.centerx, RECT.bottom + 50)) is None
    assert c.nearest(None) is None


def test_the_tooltip_stays_inside_the_chart() -> None:
    vals = [[0, 50, 100, 100, 100]]
    tips = [[f"Round {i}", "A much longer second line of the tooltip"] for i in range(5)]
    c = chart(vals, tips=tips)
    for i in range(5):
        assert RECT.contains(c.tip_rect(i))
    surf = pygame.Surface((700, 400))
    c.draw(surf, hover=4)  # draws without error, tooltip included


def test_crowded_step_labels_are_skipped_evenly_and_never_touch() -> None:
    n = 60
    c = LineChart(
        pygame.Rect(0, 0, 320, 200),
        [Series("a", tuple(range(n)), theme.OCHRE)],
        x_labels=[f"#{i + 1}" for i in range(n)],
        font=14,
    )
    shown = c.shown_labels()
    assert 0 in shown and len(shown) < n
    spans = []
    for i in shown:
        w = gfx.measure(c.x_labels[i], 14)[0]
        spans.append((c.x_at(i) - w / 2, c.x_at(i) + w / 2))
    for (_, right), (left, _) in itertools.pairwise(spans):
        assert right < left


def test_one_step_and_flat_values_still_make_a_chart() -> None:
    c = chart([[7.0]])
    assert c.point(0, 0)[0] == c.plot.centerx
    assert c.lo < 7 < c.hi


def test_bad_series_are_refused() -> None:
    with pytest.raises(ValueError):
        LineChart(RECT, [Series("a", (1.0, 2.0), theme.OCHRE)], x_labels=["1"], font=14)
    with pytest.raises(ValueError):
        LineChart(RECT, [], x_labels=["1"], font=14)


@pytest.mark.parametrize(("lo", "hi"), [(0, 47), (-12, 30), (5, 5), (0, 1), (-3000, 12000)])
def test_nice_ticks_cover_the_range_in_round_steps(lo: float, hi: float) -> None:
    ticks = nice_ticks(lo, hi)
    assert ticks[0] <= lo and ticks[-1] >= hi and len(ticks) <= 7
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    step = steps.pop()
    assert any(abs(step - m * 10**k) < 1e-9 for m in (1, 2, 5) for k in range(-3, 6)), step


def test_bars_are_proportional_and_inside_their_width() -> None:
    bars = [Bar("Beginner", 0.75, "75%"), Bar("Expert", 0.25, "25%"), Bar("Nobody", 0.0, "0%")]
    b = BarChart((10, 20), 400, bars, font=14, maximum=1.0)
    full = b.room
    assert b.bar_rect(0).w == round(full * 0.75) and b.bar_rect(1).w == round(full * 0.25)
    assert b.bar_rect(2).w >= 2  # an empty bar is still a visible stub
    for i in range(3):
        r = b.bar_rect(i)
        assert r.x == b.bar_x and r.right <= 10 + 400
        assert b.y + i * b.row_h <= r.y and r.bottom <= b.y + (i + 1) * b.row_h
    assert b.draw(pygame.Surface((500, 200))) == 20 + b.height


# ------------------------------------------------------------------------ the match result


def test_match_result_charts_both_balances_of_every_round(ui_app: Any) -> None:
    from koikoi_desktop import engine

    t = ui_app.router.build(
        screens.Table(autoplay=True, seed=4, preset="nintendo", fast_forward="match-result")
    )
    ui_app.stack.push(t)
    t.enter()
    r = ui_app.stack.top
    assert r.name == "match-result"
    m = r.match
    c = r.chart
    start = engine.PRESETS["nintendo"].starting_balance
    assert len(c.x_labels) == len(m.ledger) + 1
    assert c.series[0].values[0] == start and c.series[1].values[0] == start
    me = r.viewer
    assert c.series[0].values[-1] == m.balances[me]
    assert c.series[1].values[-1] == m.balances[1 - me]
    # hover over a round: its tooltip names the winner and the yaku of that round
    i = next(k for k, e in enumerate(m.ledger, start=1) if e.yaku)
    e = m.ledger[i - 1]
    ui_app.dispatch(
        pygame.event.Event(pygame.MOUSEMOTION, pos=c.point(0, i), rel=(0, 0), buttons=(0, 0, 0))
    )
    assert r.hover == i
    tip = c.tips[i]
    assert any(ENGLISH.t("yaku." + e.yaku[0][0] + ".name") in line for line in tip)
    surf = pygame.display.get_surface()
    r.draw(surf)
    assert surf.get_at(c.tip_rect(i).center)[:3] != surf.get_at((2, 2))[:3]  # drawn
    # the keyboard walks the rounds too
    ui_app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    assert r.hover == min(i + 1, len(m.ledger))


def test_match_chart_tooltip_shows_the_multipliers(ui_app: Any) -> None:
    """Issue 34 item 7: a round won 10 → 20 says why (the ×2), as the round summary does."""
    from koikoi_desktop.words.names import factor_text

    t = ui_app.router.build(
        screens.Table(autoplay=True, seed=4, preset="nintendo", fast_forward="match-result")
    )
    ui_app.stack.push(t)
    t.enter()
    r = ui_app.stack.top
    m = r.match
    multiplied = [(i, e) for i, e in enumerate(m.ledger, start=1) if e.factors]
    plain = [(i, e) for i, e in enumerate(m.ledger, start=1) if e.winner is not None]
    assert multiplied, "seed 4 has a multiplied round"
    for i, e in multiplied:
        tip = r.chart.tips[i]
        name, f = e.factors[0]
        want = f"× {f} ({factor_text(ENGLISH, name, f)})"
        line = next(x for x in tip if want in x)
        assert line.startswith(ENGLISH.t("ui.summary.base", n=e.base)) and line.endswith(
            f"= {e.final}"
        )
    for i, e in plain:
        if not e.factors:
            assert not any("×" in x for x in r.chart.tips[i])


# ------------------------------------------------------------------------ the ledger


def test_ledger_statistics_chart_the_last_matches_from_sql(tmp_path: Any, monkeypatch: Any) -> None:
    from koikoi_desktop import scenes
    from koikoi_desktop.storage.ledger_db import LedgerDB

    from .test_ledger_scene import SEED, make_app, seed_dir

    rows = SEED + [("nintendo", {}, "expert", False, 4 + i) for i in range(5)]
    seed_dir(tmp_path / "data", rows)
    app = make_app(tmp_path / "data", (1024, 640))
    pages: list[int] = []
    real_page = LedgerDB.page
    monkeypatch.setattr(
        LedgerDB,
        "page",
        lambda self, off, lim, **kw: pages.append(lim) or real_page(self, off, lim, **kw),
    )
    app.stack.push(scenes.create("ledger", app))
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode=""))
    scene = app.stack.top  # Left from the first chip, round the row: the statistics
    assert scene.name == "ledger-stats"
    surf = pygame.display.get_surface()
    scene.draw(surf)
    assert pages == []  # the statistics never page through the matches
    history = app.storage.ledger.balance_history(50)
    assert [h[0] for h in scene.history] == [h[0] for h in history]
    unit = history[-1][1]
    same_unit = [h for h in history if h[1] == unit]
    body = scene.body()
    c = scene.history_chart(body.x, body.y, body.w - scene.frame.px(8))
    assert len(c.x_labels) == len(same_unit)
    assert c.series[0].values == tuple(float(h[2]) for h in same_unit)
    assert c.series[1].values == tuple(float(h[3]) for h in same_unit)
    # pointing at a match shows its totals
    i = len(same_unit) - 1
    app.dispatch(
        pygame.event.Event(pygame.MOUSEMOTION, pos=c.point(0, i), rel=(0, 0), buttons=(0, 0, 0))
    )
    assert c.nearest(scene.frame.pointer) == i
    assert str(same_unit[i][2]) in c.tips[i][1] and str(same_unit[i][3]) in c.tips[i][1]
    scene.draw(surf)
