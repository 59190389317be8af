"""A placeholder screen for a registered scene whose module has not landed yet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from koikoi_desktop.scenes.common import MenuScene
from koikoi_desktop.ui import gfx
from koikoi_desktop.ui.widgets import Label


class StubScene(MenuScene):
    """Shows the screen's name, "coming soon" and a Back button."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.heading = lambda: gfx.tr(f"ui.scene.{self.name}")
        self.subheading = lambda: gfx.tr("ui.common.coming_soon")

    def items(self) -> list[tuple[Label, Callable[[], Any], bool]]:
        return [(lambda: gfx.tr("ui.common.back"), self.on_back, True)]

    def on_back(self) -> None:
        if len(self.app.stack) > 1:
            self.app.stack.pop()
        else:
            from koikoi_desktop.scenes import create

            self.app.stack.replace(create("title", self.app))
