"""Pieces shared by the menu-like screens: the felt backdrop and a vertical button menu."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pygame

from koikoi_desktop.i18n import Label, say
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, FocusGroup


@functools.lru_cache(maxsize=4)
def felt(size: tuple[int, int]) -> pygame.Surface:
    """The table cloth: a vignette of green with a faint woven grid (rendered once per size)."""
    w, h = size
    surf = pygame.Surface(size)
    surf.fill(theme.FELT)
    steps = 12
    for i in range(steps):
        t = i / steps
        c = tuple(int(theme.FELT_DARK[k] * (1 - t) + theme.FELT[k] * t) for k in range(3))
        rect = pygame.Rect(0, 0, w, h).inflate(-2 * int(w * 0.035 * i), -2 * int(h * 0.035 * i))
        pygame.draw.rect(surf, c, rect, border_radius=int(min(w, h) * 0.08 * t))
    grid = pygame.Surface(size, pygame.SRCALPHA)
    for x in range(0, w, 6):
        pygame.draw.line(grid, (255, 255, 255, 6), (x, 0), (x, h))
    for y in range(0, h, 6):
        pygame.draw.line(grid, (0, 0, 0, 10), (0, y), (w, y))
    surf.blit(grid, (0, 0))
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        surf = surf.convert()  # display format: a full-window blit is several times faster
    return surf


def scale_of(size: tuple[int, int], ui_scale: float = 1.0) -> float:
    """Layout scale: 1.0 at 1280x800, following the smaller of the two ratios."""
    return min(size[0] / 1280, size[1] / 800) * ui_scale


class MenuScene(Scene):
    """A titled screen with a centred column of buttons; Esc runs ``on_back`` if set."""

    heading: Label = ""
    subheading: Label = ""

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.focus = FocusGroup()
        self.buttons: list[Button] = []
        self.size: tuple[int, int] = (int(app.size[0]), int(app.size[1]))

    # Subclasses: return (label, callback[, primary]) rows.
    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return []

    def on_back(self) -> None:
        """Esc: by default, leave this screen."""
        self.app.stack.pop()

    def enter(self) -> None:
        self.build()

    def resume(self) -> None:
        self.build()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.build()

    @property
    def scale(self) -> float:
        return scale_of(self.size, self.app.ui_scale)

    def menu_top(self) -> int:
        return int(self.size[1] * 0.40)

    def build(self) -> None:
        self.buttons = []
        s = self.scale
        bw, bh, gap = int(340 * s), int(48 * s), int(12 * s)
        y = self.menu_top()
        for item in self.items():
            label, cb, primary = item
            rect = pygame.Rect(0, 0, bw, bh)
            rect.midtop = (self.size[0] // 2, y)
            self.buttons.append(Button(label, cb, rect, primary=primary))
            y += bh + gap
        self.focus.set(self.buttons)

    def handle(self, intent: Intent) -> None:
        if intent.kind == IntentKind.BACK:
            self.on_back()
            return
        self.focus.handle(intent)

    def draw_heading(self, surface: pygame.Surface) -> None:
        s = self.scale
        w, h = self.size
        words = self.app.words
        heading = say(self.heading, words)
        gfx.blit_text(
            surface,
            heading,
            theme.font_px(44, s),
            (w // 2, int(h * 0.16)),
            bold=True,
            anchor="center",
            max_width=w - 40,
        )
        sub = say(self.subheading, words)
        if sub:
            gfx.blit_text(
                surface,
                sub,
                theme.font_px(20, s),
                (w // 2, int(h * 0.16) + int(46 * s)),
                color=theme.MUTED,
                anchor="center",
                max_width=w - 40,
            )

    def draw_dialog(
        self, surface: pygame.Surface, text: str, message: Label, *, message_at: int = 60
    ) -> int:
        """A dialog's body: the felt, the heading, ``text`` wrapped and centred under it, the
        buttons, and ``message`` (the outcome of the last button, "" for none) in up to three
        lines ``message_at`` (scaled) above the bottom. Returns the y under ``text``, for a
        line of the dialog's own."""
        words = self.app.words
        w, h = surface.get_size()
        s = self.scale
        surface.blit(felt((w, h)), (0, 0))
        self.draw_heading(surface)
        size = theme.font_px(17, s)
        y = int(h * 0.27)
        for line in gfx.wrap(text, size, int(w * 0.8)):
            gfx.blit_text(surface, line, size, (w // 2, y), color=theme.PAPER, anchor="center")
            y += int(24 * s)
        self.focus.draw(surface, words, font=theme.font_px(20, s))
        if message:
            my = h - int(message_at * s)
            for line in gfx.wrap(say(message, words), size, int(w * 0.9))[:3]:
                gfx.blit_text(surface, line, size, (w // 2, my), color=theme.OCHRE, anchor="center")
                my += int(22 * s)
        return y

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(felt(surface.get_size()), (0, 0))
        self.draw_heading(surface)
        self.focus.draw(surface, self.app.words, font=theme.font_px(21, self.scale))
