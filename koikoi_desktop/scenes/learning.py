"""Shared pieces of the learning screens (month and yaku reference, rules, tutorial, settings).

:class:`LearnScene` is a full-window scene with the felt backdrop, a heading, a row of header
buttons (keyboard-focusable through a :class:`~koikoi_desktop.ui.widgets.FocusGroup`) and
*hit regions*: rectangles the scene registers while drawing (cards, chips, list rows) with the
callback a click on them runs.

Decisions:

* Hit regions are recorded in ``draw`` (layout of wrapped, translated text is only known there).
  This is view state, never game state, so ``draw`` stays read-only for the match; a click that
  arrives before the first frame simply finds no region. The last region registered wins (it is
  drawn on top).
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

from koikoi_desktop import i18n
from koikoi_desktop.engine import PRESETS, Rules
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.common import felt, scale_of
from koikoi_desktop.scenes.defaults import default_preset
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.cards import card_surface, draw_badge
from koikoi_desktop.ui.input import Intent, IntentKind
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
    """How card and yaku names are shown: the one name style of the game
    (:func:`koikoi_desktop.i18n.get_name_style`, set from the ``name_display`` setting)."""
    return i18n.get_name_style()


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
    """A full-window learning screen: heading, header buttons, hit regions, wheel scrolling."""

    title_key = ""

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.size: tuple[int, int] = (int(app.size[0]), int(app.size[1]))
        self.focus = FocusGroup()
        self.buttons: list[Button] = []
        self.hits: list[tuple[pygame.Rect, Callable[[], object]]] = []
        self.wheel_hits: list[tuple[pygame.Rect, Callable[[int], object]]] = []
        self.message = ""
        self.pointer: tuple[int, int] = (0, 0)  # last pointer position (for the wheel)
        #: The language the header buttons were measured in (their widths fit its labels).
        self.built_language = ""

    # ------------------------------------------------------------------ lifecycle
    @property
    def scale(self) -> float:
        return scale_of(self.size, self.app.ui_scale)

    def px(self, n: float) -> int:
        return round(n * self.scale)

    def font(self, n: int) -> int:
        return theme.font_px(n, self.scale)

    def enter(self) -> None:
        self.build()

    def resume(self) -> None:
        self.build()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.build()

    def header_items(self) -> list[tuple[Label, Callable[[], object]]]:
        """Header buttons left of Back: (label, callback) rows."""
        return []

    def build(self) -> None:
        """Lay out the header buttons (right-aligned, Back last)."""
        items = [*self.header_items(), (lambda: gfx.tr("ui.common.back"), self.close)]
        f = self.font(17)
        h = self.px(38)
        gap = self.px(10)
        x = self.size[0] - self.px(20)
        self.buttons = []
        for label, cb in reversed(items):
            text = label() if callable(label) else label
            w = max(self.px(90), gfx.measure(text, f, bold=True)[0] + self.px(28))
            x -= w
            self.buttons.insert(0, Button(label, cb, pygame.Rect(x, self.px(16), w, h)))
            x -= gap
        self.buttons[-1].primary = True
        self.focus.set(self.buttons)
        self.built_language = i18n.get_language()

    def header_left(self) -> int:
        """The x where the header buttons start (the heading must end before it)."""
        return self.buttons[0].rect.x if self.buttons else self.size[0]

    def close(self) -> None:
        stack = self.app.stack
        if len(stack) > 1:
            stack.pop()
        else:
            stack.replace(self.app.screens.title())

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
    def hit(self, rect: pygame.Rect, callback: Callable[[], object]) -> None:
        self.hits.append((pygame.Rect(rect), callback))

    def handle(self, intent: Intent) -> None:
        if intent.kind == IntentKind.BACK:
            self.on_back()
            return
        if intent.kind in (IntentKind.PRESS, IntentKind.RELEASE, IntentKind.MOVE):
            self.pointer = intent.pos
            if self.focus.handle(intent):
                return
            if intent.kind == IntentKind.PRESS:
                for rect, cb in reversed(self.hits):
                    if rect.collidepoint(intent.pos):
                        cb()
                        return
            self.on_pointer(intent)
            return
        if intent.kind == IntentKind.WHEEL:
            for rect, on_wheel in reversed(self.wheel_hits):
                if rect.collidepoint(self.pointer):
                    on_wheel(intent.pos[1])
                    return
            self.on_wheel(intent.pos[1])
            return
        if self.on_key(intent):
            return
        self.focus.handle(intent)

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
    def heading(self) -> str:
        return gfx.tr(self.title_key) if self.title_key else ""

    def draw_frame(self, surface: pygame.Surface) -> None:
        """Backdrop, heading and header buttons; clears the hit regions for this frame."""
        self.hits = []
        self.wheel_hits = []
        if surface.get_size() != self.size or self.built_language != i18n.get_language():
            # a new size or language: the header buttons are measured again for their labels
            self.size = surface.get_size()
            self.build()
        surface.blit(felt(surface.get_size()), (0, 0))
        gfx.blit_text(
            surface,
            self.heading(),
            self.font(30),
            (self.px(24), self.px(18)),
            bold=True,
            max_width=max(20, self.header_left() - self.px(40)),
        )

    def draw_buttons(self, surface: pygame.Surface) -> None:
        self.focus.draw(surface, font=self.font(17))
        if self.message:
            gfx.blit_text(
                surface,
                self.message,
                self.font(16),
                (self.size[0] // 2, self.size[1] - self.px(14)),
                color=theme.OCHRE,
                anchor="midbottom",
                max_width=self.size[0] - 40,
            )


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
