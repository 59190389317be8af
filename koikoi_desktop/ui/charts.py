"""Charts drawn with the game's own drawing (``pygame.draw`` and the game's text), no plotting
library: a line chart of values over steps with a hover tooltip, and a bar chart.

Geometry is computed when a chart is built and kept apart from drawing, so it is tested without
looking at pixels: :attr:`LineChart.plot` is the rectangle the data occupies, :meth:`LineChart.
point` where a value is drawn, :meth:`LineChart.nearest` which step the pointer is over;
:meth:`BarChart.bar_rect` where a bar ends.

Decisions:

* The value axis runs over "nice" steps (1, 2 or 5 times a power of ten) that include every
  value, so gridlines fall on round numbers; a flat series still gets a band around it.
* Step labels under the plot skip evenly when they would touch (every 2nd, 5th … label).
* Hover picks the step nearest the pointer across the whole height of the plot (a thin line is
  hard to hit); the tooltip stays inside the chart's rectangle.
* Series are told apart by colour *and* by marker shape (circle, square), so the chart reads
  without colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from koikoi_desktop.ui import gfx, theme

Color = tuple[int, int, int]


def nice_ticks(lo: float, hi: float, most: int = 6, *, min_step: float = 0.0) -> list[float]:
    """Round gridline values covering ``lo``..``hi`` in at most ``most`` steps (each step at
    least ``min_step``: 1 for whole numbers such as coins).

    >>> nice_ticks(0, 47)
    [0.0, 10.0, 20.0, 30.0, 40.0, 50.0]
    >>> nice_ticks(-12, 30, 5)
    [-20.0, 0.0, 20.0, 40.0]
    >>> nice_ticks(5, 5, min_step=1)
    [4.0, 5.0, 6.0]
    """
    if hi < lo:
        lo, hi = hi, lo
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / max(1, most - 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = max(min_step, next(m * power for m in (1, 2, 5, 10) if m * power >= raw))
    start = math.floor(lo / step) * step
    ticks = [start]
    while ticks[-1] < hi - 1e-9:
        ticks.append(ticks[-1] + step)
    return [round(t, 10) + 0.0 for t in ticks]


def _tick_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True)
class Series:
    """One line: its legend ``label``, a value per step, its colour and marker."""

    label: str
    values: tuple[float, ...]
    color: Color
    marker: str = "circle"  # or "square"


class LineChart:
    """Values over steps (rounds, matches) as lines, with gridlines, a legend and a tooltip.

    ``rect`` is the whole chart (labels included); ``x_labels`` names each step; ``tips`` holds
    the tooltip lines of each step (``tips[i]``), shown while the pointer is over step ``i``.
    """

    def __init__(
        self,
        rect: pygame.Rect,
        series: Sequence[Series],
        *,
        x_labels: Sequence[str],
        font: int,
        tips: Sequence[Sequence[str]] = (),
        title: str = "",
    ) -> None:
        n = len(x_labels)
        if not series or n == 0 or any(len(s.values) != n for s in series):
            raise ValueError("every series needs one value per step, and there must be steps")
        self.rect = pygame.Rect(rect)
        self.series = list(series)
        self.x_labels = list(x_labels)
        self.tips = [list(t) for t in tips]
        self.font = font
        self.title = title
        values = [v for s in self.series for v in s.values]
        whole = all(float(v).is_integer() for v in values)
        self.ticks = nice_ticks(min(values), max(values), min_step=1.0 if whole else 0.0)
        self.lo, self.hi = self.ticks[0], self.ticks[-1]
        pad = max(4, font // 2)
        label_w = max(gfx.measure(_tick_text(t), font)[0] for t in self.ticks)
        top = (font + pad * 2) if (title or len(self.series) > 1) else pad
        bottom = font + pad * 2
        left = label_w + pad * 2
        self.plot = pygame.Rect(
            self.rect.x + left,
            self.rect.y + top,
            max(1, self.rect.w - left - pad * 2),
            max(1, self.rect.h - top - bottom),
        )
        widest = max(gfx.measure(lab, font)[0] for lab in self.x_labels) + pad * 2
        slot = self.plot.w / max(1, n - 1) if n > 1 else self.plot.w
        self.label_every = max(1, math.ceil(widest / max(1.0, slot)))
        for k in (1, 2, 5, 10, 20, 50, 100):  # round skips read better than 3, 7 …
            if k >= self.label_every:
                self.label_every = k
                break

    # -- geometry
    def x_at(self, i: int) -> float:
        n = len(self.x_labels)
        if n == 1:
            return float(self.plot.centerx)
        return self.plot.x + i * self.plot.w / (n - 1)

    def y_at(self, value: float) -> float:
        span = self.hi - self.lo
        return self.plot.bottom - (value - self.lo) / span * self.plot.h

    def point(self, series: int, i: int) -> tuple[int, int]:
        """Where step ``i`` of series ``series`` is drawn."""
        return round(self.x_at(i)), round(self.y_at(self.series[series].values[i]))

    def nearest(self, pos: tuple[int, int] | None) -> int | None:
        """The step under the pointer (the nearest one within the plot's height), or None."""
        if pos is None:
            return None
        zone = self.plot.inflate(max(12, self.font), max(12, self.font))
        if not zone.collidepoint(pos):
            return None
        return min(range(len(self.x_labels)), key=lambda i: abs(self.x_at(i) - pos[0]))

    def shown_labels(self) -> list[int]:
        """The steps whose label is drawn under the plot (evenly skipped when crowded)."""
        n = len(self.x_labels)
        shown = list(range(0, n, self.label_every))
        if n - 1 not in shown and (n - 1) - shown[-1] >= self.label_every / 2:
            shown.append(n - 1)
        return shown

    # -- drawing
    def draw(self, surface: pygame.Surface, hover: int | None = None) -> None:
        f = self.font
        pad = max(4, f // 2)
        if self.title:
            gfx.blit_text(
                surface,
                self.title,
                f,
                (self.plot.x, self.rect.y + pad),
                bold=True,
                color=theme.PAPER,
                max_width=max(10, self.plot.w - self._legend_width()),
            )
        self._draw_legend(surface)
        for t in self.ticks:
            y = round(self.y_at(t))
            color = theme.MUTED if t == 0 else theme.PANEL_EDGE
            pygame.draw.line(
                surface, color, (self.plot.x, y), (self.plot.right, y), 2 if t == 0 else 1
            )
            gfx.blit_text(
                surface,
                _tick_text(t),
                f,
                (self.plot.x - pad, y),
                anchor="midright",
                color=theme.MUTED,
            )
        for i in self.shown_labels():
            gfx.blit_text(
                surface,
                self.x_labels[i],
                f,
                (round(self.x_at(i)), self.plot.bottom + pad),
                anchor="midtop",
                color=theme.MUTED,
            )
        if hover is not None:
            x = round(self.x_at(hover))
            pygame.draw.line(surface, theme.OCHRE, (x, self.plot.y), (x, self.plot.bottom), 1)
        width = max(2, f // 7)
        for si, s in enumerate(self.series):
            pts = [self.point(si, i) for i in range(len(s.values))]
            if len(pts) > 1:
                pygame.draw.lines(surface, s.color, False, pts, width)
            r = max(4, f // 3)
            for i, p in enumerate(pts):
                big = r + 2 if i == hover else r
                self._marker(surface, s, p, big)
        if hover is not None and hover < len(self.tips) and self.tips[hover]:
            self._draw_tip(surface, hover)

    def _marker(self, surface: pygame.Surface, s: Series, p: tuple[int, int], r: int) -> None:
        if s.marker == "square":
            box = pygame.Rect(0, 0, 2 * r, 2 * r)
            box.center = p
            pygame.draw.rect(surface, s.color, box)
            pygame.draw.rect(surface, theme.INK, box, 1)
        else:
            pygame.draw.circle(surface, s.color, p, r)
            pygame.draw.circle(surface, theme.INK, p, r, 1)

    def _legend_width(self) -> int:
        if len(self.series) < 2:
            return 0
        f = self.font
        return sum(gfx.measure(s.label, f)[0] + f * 2 for s in self.series)

    def _draw_legend(self, surface: pygame.Surface) -> None:
        if len(self.series) < 2:
            return
        f = self.font
        pad = max(4, f // 2)
        x = self.plot.right - self._legend_width()
        y = self.rect.y + pad + f // 2
        for s in self.series:
            self._marker(surface, s, (x + f // 2, y + f // 4), max(4, f // 3))
            r = gfx.blit_text(
                surface, s.label, f, (x + f, y + f // 4), anchor="midleft", color=theme.PAPER
            )
            x = r.right + f

    def tip_rect(self, hover: int) -> pygame.Rect:
        """Where the tooltip of step ``hover`` is drawn: beside its highest point, inside the
        chart's rectangle."""
        f = self.font
        pad = max(4, f // 2)
        lines = self.tips[hover]
        w = max(gfx.measure(t, f, bold=k == 0)[0] for k, t in enumerate(lines)) + 2 * pad
        h = len(lines) * (f + 4) + 2 * pad
        x = round(self.x_at(hover))
        y = min(self.point(si, hover)[1] for si in range(len(self.series)))
        box = pygame.Rect(x + pad * 2, y - h // 2, w, h)
        if box.right > self.rect.right:
            box.right = x - pad * 2
        box.clamp_ip(self.rect)
        return box

    def _draw_tip(self, surface: pygame.Surface, hover: int) -> None:
        f = self.font
        pad = max(4, f // 2)
        box = self.tip_rect(hover)
        gfx.draw_panel(surface, box, alpha=240, radius=6)
        y = box.y + pad
        for k, line in enumerate(self.tips[hover]):
            gfx.blit_text(
                surface,
                line,
                f,
                (box.x + pad, y),
                bold=k == 0,
                color=theme.OCHRE if k == 0 else theme.PAPER,
                max_width=box.w - 2 * pad,
            )
            y += f + 4


@dataclass(frozen=True)
class Bar:
    """One bar: its ``label``, ``value`` (against the chart's maximum) and the ``text`` shown at
    its end (a percentage, a count)."""

    label: str
    value: float
    text: str
    color: Color = theme.VERMILION


class BarChart:
    """Horizontal bars, one row each: label, bar, text. ``maximum`` is the value of a full bar
    (default: the largest value). ``x, y, width``: where the rows start and how wide they are."""

    def __init__(
        self,
        pos: tuple[int, int],
        width: int,
        bars: Sequence[Bar],
        *,
        font: int,
        maximum: float | None = None,
    ) -> None:
        self.x, self.y = pos
        self.width = width
        self.bars = list(bars)
        self.font = font
        most = max((b.value for b in self.bars), default=0.0)
        self.maximum = maximum if maximum is not None else most
        self.row_h = font + max(8, font // 2)
        gap = max(6, font // 2)
        labels = max((gfx.measure(b.label, font)[0] for b in self.bars), default=0)
        self.label_w = min(labels, int(width * 0.42))
        texts = max((gfx.measure(b.text, font, bold=True)[0] for b in self.bars), default=0)
        self.bar_x = self.x + self.label_w + gap
        self.room = max(1, self.x + width - texts - gap - self.bar_x)

    @property
    def height(self) -> int:
        return len(self.bars) * self.row_h

    def bar_rect(self, i: int) -> pygame.Rect:
        b = self.bars[i]
        frac = 0.0 if self.maximum <= 0 else max(0.0, min(1.0, b.value / self.maximum))
        h = max(4, self.font * 2 // 3)
        y = self.y + i * self.row_h + (self.row_h - h) // 2
        return pygame.Rect(self.bar_x, y, max(2, round(self.room * frac)), h)

    def draw(self, surface: pygame.Surface) -> int:
        """Draw the rows; returns the y below them."""
        f = self.font
        for i, b in enumerate(self.bars):
            cy = self.y + i * self.row_h + self.row_h // 2
            gfx.blit_text(
                surface, b.label, f, (self.x, cy), anchor="midleft", max_width=self.label_w
            )
            track = pygame.Rect(self.bar_x, 0, self.room, max(4, f * 2 // 3))
            track.centery = cy
            pygame.draw.rect(surface, theme.PANEL, track, border_radius=3)
            r = self.bar_rect(i)
            pygame.draw.rect(surface, b.color, r, border_radius=3)
            gfx.blit_text(
                surface, b.text, f, (track.right + max(6, f // 2), cy), anchor="midleft", bold=True
            )
        return self.y + self.height
