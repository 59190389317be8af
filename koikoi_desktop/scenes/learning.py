"""Shared pieces of the learning screens (month and yaku reference, quiz, rules, history).

:class:`LearnScene` is a full-window learning screen: it holds a
:class:`~koikoi_desktop.scenes.screen_frame.ScreenFrame` (felt backdrop, heading, header buttons,
hit regions: rectangles registered while drawing with the callback a click on them runs) and
routes what the frame does not take to the screen's ``on_back`` / ``on_wheel`` / ``on_key``. The
card, chip and paragraph helpers below are plain functions any screen may call.

Decisions:

* Card images come from the app's one sprite cache (``ui.cards.card_surface``; it keeps ten
  sizes, room for the table's and a reference screen's together, so opening one over the table
  evicts none of the table's); without the art (a broken install) the placeholders are drawn.
* The active rules are, in order: a ``rules=`` argument, the match in progress on the table
  below (``app.stack.find("table").rules``), then the settings' default preset and options.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import pygame
from pydantic import ValidationError

from koikoi_desktop.engine import PRESETS, Rules
from koikoi_desktop.i18n import Words
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.defaults import default_preset
from koikoi_desktop.scenes.screen_frame import ScreenFrame, go_back
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.cards import card_surface, draw_badge
from koikoi_desktop.ui.input import Intent
from koikoi_desktop.ui.widgets import Button, FocusGroup, Label

CARD_RATIO = 0.625  # width / height of a card (ART.md viewBox 200 x 320)


def card_size(height: int) -> tuple[int, int]:
    return max(1, round(height * CARD_RATIO)), max(1, int(height))


def draw_card(
    surface: pygame.Surface,
    app: AppServices,
    card_id: int,
    rect: pygame.Rect,
    *,
    dim: bool = False,
    selected: bool = False,
    badge: bool | None = None,
) -> None:
    """One card in ``rect`` (badge per the settings), dimmed or outlined as asked."""
    size = (max(1, rect.w), max(1, rect.h))
    surface.blit(card_surface(app, card_id, size), rect)
    if badge is None:
        badge = app.settings.card_badges
    if badge and card_id and rect.h >= 60:
        draw_badge(surface, rect, card_id)
    if dim:
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        shade.fill((10, 20, 14, 165))
        surface.blit(shade, rect)
    if selected:
        pygame.draw.rect(surface, theme.TARGET, rect.inflate(8, 8), width=3, border_radius=8)


def name_style(app: AppServices) -> str:
    """How card and yaku names are shown: the one name style of the game (the app's
    ``words``, made from the ``name_display`` setting)."""
    return app.words.name_style


def active_rules(app: AppServices, given: Rules | str | None = None) -> Rules:
    """The rules to explain: ``given``, the table's match, else the settings' default."""
    if isinstance(given, Rules):
        return given
    if isinstance(given, str) and given in PRESETS:
        return PRESETS[given]
    table = app.stack.find("table")
    rules = getattr(table, "rules", None)  # the table scene's (a test may put another scene)
    if isinstance(rules, Rules):
        return rules
    base = PRESETS[default_preset(app.settings)]
    options = app.settings.default_options
    if options:
        try:
            return Rules.model_validate({**base.model_dump(), **dict(options)})
        except ValidationError:  # saved options this preset cannot take: its own rules
            return base
    return base


@functools.lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: int, bold: bool) -> tuple[str, ...]:
    """Word wrap, cached: the learning screens lay out the same paragraphs every frame."""
    return tuple(gfx.wrap(text, size, width, bold=bold))


def paragraph(
    surface: pygame.Surface | None,
    text: str,
    size: int,
    x: int,
    y: int,
    width: int,
    *,
    color: tuple[int, int, int] = theme.PAPER,
    bold: bool = False,
    gap: float = 1.25,
) -> int:
    """Draw ``text`` wrapped to ``width`` at (x, y) (or just measure with ``surface=None``).

    Returns the y below the last line.
    """
    line_h = int(gfx.measure("Ag", size, bold=bold)[1] * gap) or size
    for line in _wrapped(text, size, max(10, width), bold):
        if surface is not None and line:
            surface.blit(gfx.text(line, size, color, bold=bold), (x, y))
        y += line_h
    return y


def chip(
    surface: pygame.Surface,
    rect: pygame.Rect,
    label: str,
    font: int,
    *,
    active: bool = False,
    enabled: bool = True,
) -> None:
    """A rounded filter chip; the active one is filled and has a thick outline (not hue only)."""
    bg = theme.DEEP_RED if active else theme.BUTTON
    if not enabled:
        bg = theme.BUTTON_DISABLED
    pygame.draw.rect(surface, bg, rect, border_radius=rect.h // 2)
    pygame.draw.rect(
        surface,
        theme.OCHRE if active else theme.PANEL_EDGE,
        rect,
        width=3 if active else 1,
        border_radius=rect.h // 2,
    )
    gfx.blit_text(
        surface,
        label,
        font,
        rect.center,
        color=theme.PAPER if enabled else theme.MUTED,
        bold=active,
        anchor="center",
        max_width=rect.w - 10,
    )


def chip_width(label: str, font: int, pad: int) -> int:
    return gfx.measure(label, font, bold=True)[0] + 2 * pad


class LearnScene(Scene):
    """A full-window learning screen: it holds a :class:`ScreenFrame` (heading, header buttons,
    hit regions, scale) and gives the learning screens its parts by name; the wheel and keys a
    frame does not take go to ``on_wheel`` / ``on_key``. Why the learning screens keep this thin
    base while the ledger and the settings hold a frame themselves: see
    :mod:`koikoi_desktop.scenes.screen_frame`."""

    title_key = ""

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.frame = ScreenFrame(app, heading=self.heading, back=self.close)

    # ------------------------------------------------------------------ the frame's parts
    @property
    def size(self) -> tuple[int, int]:
        return self.frame.size

    @property
    def scale(self) -> float:
        return self.frame.scale

    def px(self, n: float) -> int:
        return self.frame.px(n)

    def font(self, n: int) -> int:
        return self.frame.font(n)

    @property
    def buttons(self) -> list[Button]:
        return self.frame.buttons

    @property
    def focus(self) -> FocusGroup:
        return self.frame.focus

    @property
    def wheel_hits(self) -> list[tuple[pygame.Rect, Callable[[int], object]]]:
        """This frame's wheel regions (a screen appends its scrolling areas while drawing)."""
        return self.frame.wheel_hits

    def hit(self, rect: pygame.Rect, callback: Callable[[], object]) -> None:
        self.frame.hit(rect, callback)

    def header_left(self) -> int:
        return self.frame.header_left()

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        self.build()

    def resume(self) -> None:
        self.build()

    def resize(self, size: tuple[int, int]) -> None:
        self.frame.size = size
        self.build()

    def header_items(self) -> list[tuple[Label, Callable[[], object]]]:
        """Header buttons left of Back: (label, callback) rows."""
        return []

    def build(self) -> None:
        """Lay out the header buttons (right-aligned, Back last)."""
        self.frame.build(self.header_items())

    def close(self) -> None:
        go_back(self.app)

    def open(self, scene: Scene) -> None:
        """Open another screen. Going back and forth between the two references (a yaku's card
        from the yaku list, the yaku list from a month page) swaps in a fresh copy of the screen
        just below instead of stacking one more each time, so the stack stays bounded."""
        stack = self.app.stack
        if len(stack) > 1 and stack.top is self and stack.scenes[-2].name == scene.name:
            stack.pop()
            stack.replace(scene)
        else:
            stack.push(scene)

    # ------------------------------------------------------------------ input
    def handle(self, intent: Intent) -> None:
        self.frame.route(
            intent, back=self.on_back, wheel=self.on_wheel, key=self.on_key, pointer=self.on_pointer
        )

    def on_back(self) -> None:
        self.close()

    def on_pointer(self, intent: Intent) -> None:
        """Pointer events no button or hit region used."""

    def on_wheel(self, dy: int) -> None:
        """Mouse wheel (``dy`` > 0: up)."""

    def on_key(self, intent: Intent) -> bool:
        """Keys before the header focus group sees them; True when used."""
        return False

    # ------------------------------------------------------------------ drawing
    def heading(self, words: Words) -> str:
        """The screen's title in ``words`` (the frame words it when drawn)."""
        return words.t(self.title_key) if self.title_key else ""

    def draw_frame(self, surface: pygame.Surface) -> None:
        """Backdrop, heading and header buttons' layout; clears the hit regions for this frame
        (a new size or language: the header buttons are measured again for their labels)."""
        if self.frame.stale(surface.get_size()):
            self.resize(surface.get_size())
        self.frame.draw_backdrop(surface)

    def draw_buttons(self, surface: pygame.Surface) -> None:
        self.frame.draw_buttons(surface)


def flow_chips(
    surface: pygame.Surface | None,
    scene: LearnScene,
    labels: Sequence[tuple[str, Callable[[], object], bool]],
    x: int,
    y: int,
    width: int,
    font: int,
) -> int:
    """Chips laid out left to right, wrapping at ``width``; each registers a hit. Returns new y.

    With ``surface=None`` nothing is drawn or registered (measuring only).
    """
    h = int(font * 1.7)
    pad = max(6, font // 2)
    gap = max(4, font // 3)
    cx = x
    for label, cb, active in labels:
        w = min(width, chip_width(label, font, pad))
        if cx > x and cx + w > x + width:
            cx = x
            y += h + gap
        r = pygame.Rect(cx, y, w, h)
        if surface is not None:
            chip(surface, r, label, font, active=active)
            scene.hit(r, cb)
        cx += w + gap
    return y + h + gap
