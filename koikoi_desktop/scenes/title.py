"""The title screen: New game and Continue, then the rest of the game in two columns.

Layout decision: ten entries in one column do not fit a 1024x640 window, so New game and
Continue (the two a returning player wants) stay full width and the other eight sit in pairs,
in reading order (How to play · Month reference, Yaku reference · Ledger, Settings · About
hanafuda, Credits · Quit). Keyboard focus follows that reading order with the arrows and Tab.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from koikoi_desktop.i18n import Key, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.scenes.screens import Screen
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.cards import card_surface
from koikoi_desktop.ui.widgets import Button, Label
from koikoi_desktop.words.names import rating_title
from koikoi_desktop.words.storage import notice_text

#: The two fans beside the title: crane, curtain and moon on the left; sake cup, rain man and
#: phoenix on the right (no card shown twice).
FAN_LEFT = (1, 9, 29)
FAN_RIGHT = (45, 41, 33)


class TitleScene(MenuScene):
    """The first screen. Continue is enabled only when an autosave exists."""

    name = "title"

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.heading = Key("ui.title.name")
        self.subheading = Key("ui.title.tagline")
        #: A line under the menu, worded when drawn ("" for none).
        self.message: Label = ""
        self.elsewhere = False
        #: The player's rating (rounded), read with the buttons; None before a rated match.
        #: The player's newest rating and its deviation (facts; worded when drawn).
        self.rating: tuple[float, float] | None = None
        self._fan_cache: tuple[tuple[int, int], pygame.Surface] | None = None

    def menu_top(self) -> int:
        return int(self.size[1] * 0.36)

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return [
            (Key("ui.title.new_game"), self.go(screens.NewGame()), True),
            (Key("ui.title.continue"), self.on_continue, False),
            (Key("ui.title.rules"), self.go(screens.Rules()), False),
            (Key("ui.title.month_reference"), self.go(screens.MonthReference()), False),
            (Key("ui.title.yaku_reference"), self.go(screens.YakuReference()), False),
            (Key("ui.title.ledger"), self.go(screens.Ledger()), False),
            (Key("ui.title.settings"), self.go(screens.Settings()), False),
            (Key("ui.title.about"), self.go(screens.History()), False),
            (Key("ui.scene.credits"), self.go(screens.Credits()), False),
            (Key("ui.title.quit"), self.app.request_quit, False),
        ]

    def build(self) -> None:
        self.buttons = []
        s = self.scale
        half, bh, gap = int(270 * s), int(44 * s), int(10 * s)
        full = 2 * half + gap
        cx = self.size[0] // 2
        y = self.menu_top()
        for i, (label, cb, primary) in enumerate(self.items()):
            if i < 2:
                rect = pygame.Rect(cx - full // 2, y, full, bh)
                y += bh + gap
            else:
                col = (i - 2) % 2
                rect = pygame.Rect(cx - full // 2 + col * (half + gap), y, half, bh)
                if col == 1:
                    y += bh + gap
            self.buttons.append(Button(label, cb, rect, primary=primary))
            if i == 1:
                y += gap  # a little air between "play" and the rest
        self.buttons[1].enabled = self.app.has_autosave()
        store = self.app.storage
        # read once per build, not per frame: drawing does no I/O
        self.elsewhere = store is not None and store.saved_in_use_elsewhere()
        latest = store.ledger.rating_history(1) if store is not None else []
        self.rating = (latest[-1].rating, latest[-1].rd) if latest else None
        self.focus.set(self.buttons)

    def go(self, screen: Screen) -> Callable[[], object]:
        """A button's action: build ``screen`` when pressed, and push it."""
        return lambda: self.app.stack.push(self.app.router.build(screen))

    def on_continue(self) -> None:
        if not self.app.continue_match():
            self.message = Key("ui.title.no_autosave")
            self.build()  # a saved match set aside leaves Continue disabled

    def on_back(self) -> None:
        """Esc on the title does nothing (Quit is a button; closing the window also quits)."""

    def _fan(self, size: tuple[int, int]) -> pygame.Surface:
        """The two fans of brights beside the title, drawn once per window size."""
        cached = self._fan_cache
        if cached is not None and cached[0] == size:
            return cached[1]
        w, h = size
        layer = pygame.Surface(size, pygame.SRCALPHA)
        s = self.scale
        ch = int(150 * s)
        cw = ch * 2 // 3
        cy = int(h * 0.17)
        for side, ids in ((-1, FAN_LEFT), (1, FAN_RIGHT)):
            cx = w // 2 + side * int(w * 0.31)
            for i, cid in enumerate(ids):
                angle = side * (22 - 16 * i)
                img = pygame.transform.rotozoom(card_surface(self.app, cid, (cw, ch)), -angle, 1.0)
                x = cx + int(math.sin(math.radians(angle)) * ch * 0.5)
                layer.blit(img, img.get_rect(center=(x, cy + int(abs(angle) * s * 0.8))))
        self._fan_cache = (size, layer)
        return layer

    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        surface.blit(self._fan((w, h)), (0, 0))
        s = self.scale
        self.draw_heading(surface)
        if self.rating is not None:
            gfx.blit_text(
                surface,
                rating_title(words, *self.rating),
                theme.font_px(19, s),
                (w // 2, self.menu_top() - int(24 * s)),
                color=theme.OCHRE,
                anchor="center",
                bold=True,
                max_width=w - 40,
            )
        self.focus.draw(surface, self.app.words, font=theme.font_px(21, s))
        size = theme.font_px(16, s)
        lines: list[str] = []
        for msg in ([say(self.message, words)] if self.message else []) + self.storage_lines():
            lines += gfx.wrap(msg, size, int(w * 0.9))
        y = h - int(22 * s)
        for line in reversed(lines[-4:]):
            gfx.blit_text(surface, line, size, (w // 2, y), color=theme.OCHRE, anchor="center")
            y -= int(22 * s)

    def storage_lines(self) -> list[str]:
        """A damaged, newer or refusing file is told in one line each here (the newest two), as
        well as on the ledger screen, and a saved match another running copy is playing."""
        words = self.app.words
        storage = self.app.storage
        if storage is None:
            return []
        lines = [notice_text(words, n) for n in storage.warnings][-2:]
        if self.elsewhere:
            lines.append(words.t("ui.title.saved_elsewhere"))
        return lines
