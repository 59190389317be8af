"""Concede in a real window under Xvfb, with real keys and a real click (xdotool): the pause
menu's Concede asks first, Enter keeps playing, and only a confirmed concede ends and records
the match (issue 34 item 3).

The game runs in a child process (a real X11 window, the real frame loop). At each step it
writes what it shows (and where the Concede button is) to a numbered file; the test answers
with xdotool and waits for the next one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .xvfb import PRELUDE, click, game, needs_xvfb, wait_for, window, x_display, xdo

pytestmark = pytest.mark.xvfb

CHILD = (
    PRELUDE
    + r"""
start()
t = table(4)

def say(n, **facts):
    top = a.stack.top
    facts.update(top=top.name, key=list(getattr(top, "key", ()) or ()),
                 finished=t.controller.finished, ledger=a.storage.ledger.count())
    write(n, facts)

wait(lambda: t.controller.my_turn() and not t.queue.busy)
say(1)  # the table: the test presses Esc
for n in (2, 4):
    wait(lambda: a.stack.top.name == "pause")
    frame()
    b = next(b for b in a.stack.top.buttons if b.label == a.stack.top.items()[-1][0])
    say(n, concede=list(b.rect.center))  # the test clicks Concede
    wait(lambda: a.stack.top.name == "table-prompt")
    say(n + 1, labels=[w.label for w in a.stack.top.widgets],
        focused=a.stack.top.focus.focused.label)
    if n == 2:  # the test presses Enter: keep playing
        wait(lambda: a.stack.top is t)
        for _ in range(30):
            frame()
        say(4.5)
wait(lambda: a.stack.top.name == "match-result")
say(6, ending=a.stack.top.ending)
pygame.display.quit()
"""
)


@needs_xvfb
def test_real_window_concede_asks_and_enter_keeps_playing(tmp_path: Path) -> None:
    with x_display() as env, game(env, CHILD, str(tmp_path)) as proc:
        first = wait_for(tmp_path / "1.json", proc, 90)
        assert first["top"] == "table"
        wid = window(env, proc)
        xdo(env, "key", "--window", wid, "Escape")
        pause = wait_for(tmp_path / "2.json", proc, 30)
        click(env, wid, pause["concede"])
        ask = wait_for(tmp_path / "3.json", proc, 30)
        assert ask["key"] == ["concede"] and not ask["finished"]
        assert ask["labels"] == ["Keep playing", "Concede the match"]
        assert ask["focused"] == "Keep playing"
        xdo(env, "key", "--window", wid, "Return")  # Enter: keep playing
        kept = wait_for(tmp_path / "4.5.json", proc, 30)
        assert kept["top"] == "table" and not kept["finished"] and kept["ledger"] == 0
        xdo(env, "key", "--window", wid, "Escape")
        pause = wait_for(tmp_path / "4.json", proc, 30)
        click(env, wid, pause["concede"])
        wait_for(tmp_path / "5.json", proc, 30)
        xdo(env, "key", "--window", wid, "Right")
        xdo(env, "key", "--window", wid, "Return")  # confirmed
        result = wait_for(tmp_path / "6.json", proc, 30)
        assert result["top"] == "match-result" and result["ending"] == "conceded"
        assert result["finished"] and result["ledger"] == 1
        proc.wait(timeout=30)
