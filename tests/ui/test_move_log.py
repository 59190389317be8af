"""The move log at 1024x640 (issue 43, found 3): it shows more than about two moves, the wheel
over it scrolls it (and no longer moves the hand's keyboard focus), Page Up / Page Down page
through it and End comes back to the newest line."""

from __future__ import annotations

from typing import Any

import pygame

from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.ui import gfx

from .test_table import start_table


def play_moves(t: TableScene, pump_fn: Any, n: int) -> None:
    c = t.controller
    while len(c.state.moves) < n:
        c.apply(c.state.legal_actions()[0])
        pump_fn(t, lambda: (c.my_turn() and c.state.phase == "play") or t.prompt is not None)
        if t.prompt is not None:
            t.prompt.widgets[-1].activate()
            pump_fn(t, lambda: c.my_turn() and c.state.phase == "play")


def log_lines(t: TableScene, monkeypatch: Any) -> list[str]:
    """The lines drawn inside the move log now (its heading left out)."""
    f = t.frame()
    t.view._static = None
    t.draw(t.app.screen)
    area = t.view.log_area(t.frame())
    seen: list[str] = []
    real = gfx.blit_text

    def spy(surface: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> Any:
        rect = real(surface, text, size, pos, **kw)
        if area.collidepoint(rect.topleft):
            seen.append(text)
        return rect

    with monkeypatch.context() as m:
        m.setattr(gfx, "blit_text", spy)
        t.view._static = None
        t.view.static_layer(f, t.size)
    return seen[1:]


def wheel(t: TableScene, at: tuple[int, int], steps: int) -> None:
    t.app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    t.app.dispatch(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=steps, flipped=False))


def key(t: TableScene, k: int) -> None:
    t.app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_the_move_log_shows_more_and_scrolls(ui_app: Any, pump_fn: Any, monkeypatch: Any) -> None:
    ui_app.on_resize((1024, 640))
    t = start_table(ui_app, pump_fn, 2)
    c = t.controller
    play_moves(t, pump_fn, 10)
    newest = log_lines(t, monkeypatch)
    assert len(newest) >= 5, newest  # about two moves before
    area = t.view.log_area(t.frame())
    assert area.h > 0
    focus, used = c.focus, c.keyboard_used
    wheel(t, area.center, 3)  # up: older entries
    assert t.log_back == 3
    older = log_lines(t, monkeypatch)
    assert older != newest
    wheel(t, (200, 300), 2)  # the wheel over the table does nothing
    assert t.log_back == 3 and c.focus == focus and c.keyboard_used == used
    wheel(t, area.center, 999)  # as far as it goes: the first round's heading at the top
    top = log_lines(t, monkeypatch)
    assert top[0] == t.app.words.t("ui.common.round_n", n=1)
    wheel(t, area.center, -999)
    assert t.log_back == 0 and log_lines(t, monkeypatch) == newest
    key(t, pygame.K_PAGEUP)
    assert t.log_back > 0
    key(t, pygame.K_END)
    assert t.log_back == 0
