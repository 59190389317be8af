"""The pause menu dims the table so that every line on it reads (issue 43, found 5: the seal
line and the menu sat on the cards and the turn banner): each line's contrast over what lies
under it, computed from the drawn pixels, reaches WCAG AA (4.5:1)."""

from __future__ import annotations

from typing import Any

import pytest

from koikoi_desktop import engine
from koikoi_desktop.scenes.pause import PauseScene

from .contrast import AA, text_contrast
from .test_table import start_table


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_every_line_on_the_pause_menu_reaches_aa_contrast(
    ui_app: Any, pump_fn: Any, monkeypatch: Any, size: tuple[int, int]
) -> None:
    t = start_table(ui_app, pump_fn, 2)
    c = t.controller
    for _ in range(3):  # cards in the piles and the field, the turn banner up
        c.apply(c.state.legal_actions()[0])
        pump_fn(t, lambda: c.my_turn() and c.state.phase == "play")
    ui_app.on_resize(size)
    pause = PauseScene(ui_app, table=t)
    ui_app.stack.push(pause)
    assert t.match is not None and engine.PRESETS  # a match is on the table
    lines = text_contrast(
        ui_app.screen, lambda: t.draw(ui_app.screen), lambda: pause.draw(ui_app.screen), monkeypatch
    )
    assert len(lines) >= 5  # the heading, the seal line, the items
    low = [(text, round(r, 2)) for text, r in lines if r < AA]
    assert not low, low
