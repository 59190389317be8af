"""The unpacked Linux game's first question: add it to the desktop's menu (issue 46).

Opened by the app over the title when :func:`koikoi_desktop.menu_entry.unpacked_bundle` finds
the game started from its unpacked folder and the menu has no entry for it yet (never in a
scripted run). "Add to the menu" runs the folder's install.sh and says where the game went, or
why it could not, in one line; "Not now" asks again next start; "Don't ask again" is kept in
the settings. After a successful add the only button left is "Continue".
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from koikoi_desktop import menu_entry
from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene
from koikoi_desktop.ui.widgets import Label


class MenuOfferScene(MenuScene):
    """Add to the menu / Not now / Don't ask again."""

    name = "menu-offer"

    def __init__(self, app: AppServices, screen: screens.MenuOffer) -> None:
        super().__init__(app)
        self.heading = Key("ui.menu_offer.title")
        self.bundle = screen.bundle
        self.added = False
        #: The outcome of "Add to the menu", worded when drawn ("" before).
        self.message: Label = ""

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        if self.added:
            return [(Key("ui.common.continue"), self.on_back, True)]
        return [
            (Key("ui.menu_offer.add"), self.add, True),
            (Key("ui.menu_offer.later"), self.on_back, False),
            (Key("ui.menu_offer.never"), self.never, False),
        ]

    def menu_top(self) -> int:
        return int(self.size[1] * 0.46)

    def add(self) -> None:
        try:
            where = menu_entry.add_to_menu(self.bundle)
        except menu_entry.InstallFailed as exc:
            self.message = Key("ui.menu_offer.failed", reason=str(exc))
            return
        self.added = True
        self.message = Key("ui.menu_offer.added", path=str(where))
        self.build()

    def never(self) -> None:
        new = self.app.prefs.draft()
        new.offer_menu_entry = False
        self.app.prefs.apply(new)
        self.on_back()

    def draw(self, surface: pygame.Surface) -> None:
        text = self.app.words.t(
            "ui.menu_offer.text", folder=str(self.bundle), path=str(menu_entry.installed_dir())
        )
        self.draw_dialog(surface, text, self.message, message_at=70)
