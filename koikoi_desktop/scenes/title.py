"""The title screen: New game, Continue, Month reference, Ledger, Settings, About, Quit."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pygame

from koikoi_desktop import scenes
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.cards import card_surface
from koikoi_desktop.ui.widgets import Label

#: The fan of cards behind the title: the five brights.
FAN = (1, 9, 29, 41, 45)


class TitleScene(MenuScene):
    """The first screen. Continue is enabled only when an autosave exists."""

    name = "title"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.heading = lambda: gfx.tr("ui.title.name")
        self.subheading = lambda: gfx.tr("ui.title.tagline")
        self.message = ""

    def menu_top(self) -> int:
        return int(self.size[1] * 0.36)

    def items(self) -> list[tuple[Label, Callable[[], Any], bool]]:
        return [
            (lambda: gfx.tr("ui.title.new_game"), lambda: self.go("new-game"), True),
            (lambda: gfx.tr("ui.title.continue"), self.on_continue, False),
            (lambda: gfx.tr("ui.title.month_reference"), lambda: self.go("month-reference"), False),
            (lambda: gfx.tr("ui.title.ledger"), lambda: self.go("ledger"), False),
            (lambda: gfx.tr("ui.title.settings"), lambda: self.go("settings"), False),
            (lambda: gfx.tr("ui.title.about"), lambda: self.go("about"), False),
            (lambda: gfx.tr("ui.title.quit"), self.app.quit, False),
        ]

    def build(self) -> None:
        super().build()
        self.buttons[1].enabled = self.app.has_autosave()
        self.focus.set(self.buttons)

    def go(self, name: str) -> None:
        self.app.stack.push(scenes.create(name, self.app))

    def on_continue(self) -> None:
        if not self.app.continue_match():
            self.message = gfx.tr("ui.title.no_autosave")

    def on_back(self) -> None:
        """Esc on the title does nothing (Quit is a button; closing the window also quits)."""

    def _fan(self, size: tuple[int, int]) -> pygame.Surface:
        """The two fans of brights beside the title, drawn once per window size."""
        cached = getattr(self, "_fan_cache", None)
        if cached is not None and cached[0] == size:
            return cached[1]  # type: ignore[no-any-return]
        w, h = size
        layer = pygame.Surface(size, pygame.SRCALPHA)
        s = self.scale
        ch = int(150 * s)
        cw = ch * 2 // 3
        cy = int(h * 0.17)
        for side, ids in ((-1, FAN[:3]), (1, FAN[2:][::-1])):
            cx = w // 2 + side * int(w * 0.31)
            for i, cid in enumerate(ids):
                angle = side * (22 - 16 * i)
                img = pygame.transform.rotozoom(card_surface(self.app, cid, (cw, ch)), -angle, 1.0)
                x = cx + int(math.sin(math.radians(angle)) * ch * 0.5)
                layer.blit(img, img.get_rect(center=(x, cy + int(abs(angle) * s * 0.8))))
        self._fan_cache = (size, layer)
        return layer

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        surface.blit(self._fan((w, h)), (0, 0))
        s = self.scale
        self.draw_heading(surface)
        self.focus.draw(surface, font=theme.font_px(21, s))
        if self.message:
            gfx.blit_text(
                surface,
                self.message,
                theme.font_px(18, s),
                (w // 2, h - int(30 * s)),
                color=theme.OCHRE,
                anchor="center",
            )
