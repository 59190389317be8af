"""The move log at 1024x640 (issue 43, found 3): it shows more than about two moves, the wheel
over it scrolls it (and no longer moves the hand's keyboard focus), Page Up / Page Down page
through it and End comes back to the newest line."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pygame

from koikoi_desktop.i18n import Words
from koikoi_desktop.scenes.table import sidebar as table_sidebar
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.scenes.table.snapshot import TableSnapshot
from koikoi_desktop.scenes.table.text import LogLine, log_text
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


def test_the_log_is_worded_once_per_entry_and_anew_when_its_words_change(
    ui_app: Any, pump_fn: Any, monkeypatch: Any
) -> None:
    """The view keeps each entry's lines (issue: a round's log cost O(n²) wording): a frame with
    one more entry words that entry only; other words, names or another log word everything that
    is not the very same fact in the very same context, so no stale line can show."""
    t = start_table(ui_app, pump_fn, 2)
    play_moves(t, pump_fn, 6)
    snap, lay = t.frame().snap, t.frame().lay
    fs, width = table_sidebar._metrics(lay)[0], table_sidebar._log_width(lay)  # the log's own

    def fresh(s: TableSnapshot) -> list[tuple[str, ...]]:
        """The log worded from nothing (what drawing without a memo shows)."""
        texts = [log_text(s.words, e, s.names, s.rules) for e in s.log]
        return [tuple(gfx.wrap(x, fs, width)) for x in texts if x]

    worded: list[LogLine] = []
    real = table_sidebar.log_text

    def counting(words: Words, line: LogLine, names: Any, rules: Any) -> str:
        worded.append(line)
        return real(words, line, names, rules)

    monkeypatch.setattr(table_sidebar, "log_text", counting)
    memo = table_sidebar.WordedLog()
    assert memo.entries(snap, lay) == fresh(snap) and len(worded) == len(snap.log) > 6
    worded.clear()
    assert memo.entries(snap, lay) == fresh(snap) and worded == []
    longer = replace(snap, log=(*snap.log, LogLine("undone")))
    assert memo.entries(longer, lay) == fresh(longer) and worded == [LogLine("undone")]
    worded.clear()
    for changed in (
        replace(longer, words=Words("uk")),  # a language change mid-match: every line anew
        replace(longer, words=Words("uk", "romaji")),
        replace(longer, names=("Ada", "Bob")),
        replace(longer, log=tuple(replace(e) for e in longer.log)),  # a resume: equal facts
    ):
        assert memo.entries(changed, lay) == fresh(changed), changed.words
        assert len(worded) == len(changed.log)
        worded.clear()
    uk = memo.entries(replace(snap, words=Words("uk")), lay)
    assert all(re.search("[А-яІіЇїЄє]", " ".join(lines)) for lines in uk), uk  # none English
