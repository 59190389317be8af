"""The pause menu (Esc on the table): resume, rules, settings, save and quit, concede, and
"end the match now" where the preset allows it (R-MATCH-2, A-44)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import pygame

from koikoi_desktop.i18n import Key, Words
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.common import MenuScene
from koikoi_desktop.scenes.table.prompts import TableHost, concede_prompt
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.widgets import Label
from koikoi_desktop.words.deal import seal_code

if TYPE_CHECKING:
    from koikoi_desktop import engine


#: How far the pause menu darkens the table (a black veil of this opacity, 0-255).
PAUSE_DIM = 218


class PausedTable(TableHost, Protocol):
    """What the pause menu needs of the table below it (``scenes.table.scene.TableScene``): a
    protocol, so the table opens its pause menu without the two importing each other."""

    @property
    def match(self) -> engine.Match | None: ...

    def end_now(self) -> None: ...


class PauseScene(MenuScene):
    """Drawn over the table (not opaque)."""

    name = "pause"
    opaque = False

    def __init__(self, app: AppServices, *, table: PausedTable | None = None) -> None:
        super().__init__(app)
        self.table = table
        self.heading = Key("ui.pause.title")
        self.subheading = self.seal_line

    def seal_line(self, words: Words) -> str:
        """The match's deal seal (its commitment; the seed stays hidden until the end)."""
        m = self.table.match if self.table is not None else None
        if m is None or m.commitment is None:
            return ""
        return words.t("ui.deals.pause", code=seal_code(m.commitment))

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        rows: list[tuple[Label, Callable[[], object], bool]] = [
            (Key("ui.common.resume"), self.on_back, True),
            (Key("ui.title.rules"), lambda: self.go(self.app.router.build(screens.Rules())), False),
            (
                Key("ui.title.yaku_reference"),
                lambda: self.go(self.app.router.build(screens.YakuReference())),
                False,
            ),
            (
                Key("ui.title.settings"),
                lambda: self.go(self.app.router.build(screens.Settings())),
                False,
            ),
            (Key("ui.pause.save_quit"), self.save_quit, False),
            (Key("ui.pause.concede"), self.concede, False),
        ]
        m = self.table.match if self.table is not None else None
        if m is not None and m.can_end_now:
            rows.insert(1, (Key("ui.pause.end_now"), self.end_now, False))
        return rows

    def menu_top(self) -> int:
        return int(self.size[1] * 0.30)

    def go(self, scene: Scene) -> None:
        self.app.stack.push(scene)

    def save_quit(self) -> None:
        if self.table is not None:
            self.table.controller.save()
        self.app.request_quit(match_saved=True)

    def concede(self) -> None:
        """Give up the match, once confirmed: the menu closes and the table asks "concede the
        match?" (Enter keeps playing); a confirmed concede is recorded and the result shown."""
        t = self.table
        if t is None or t.match is None:
            self.on_back()
            return
        self.app.stack.pop()
        self.app.stack.push(concede_prompt(self.app.words, t))

    def end_now(self) -> None:
        t = self.table
        if t is None:
            return
        self.app.stack.pop()
        t.end_now()

    def draw(self, surface: pygame.Surface) -> None:
        # the table under it is only a backdrop: dimmed so far that every line on the menu
        # stands at a contrast of 4.5:1 or more (WCAG AA) over any card (issue 43: the seal
        # line and the menu sat on the cards and the turn banner)
        gfx.dim(surface, PAUSE_DIM)
        self.draw_heading(surface)
        self.focus.draw(surface, self.app.words, font=theme.font_px(21, self.scale))
