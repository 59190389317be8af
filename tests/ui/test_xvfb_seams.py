"""The table's seams in a real window under Xvfb, with real clicks and keys (xdotool): a language
change mid-match through Menu → Settings rewords the names, the buttons and the whole move log;
the match then continues in a new game process (Continue, started with ``--lang en``) with the
same move log and the same field, and plays on into the next round (issue 34 items 1, 2).

Each game runs in a child process (a real X11 window, the real frame loop). At each step it
writes what it shows (and where to click) to a numbered file; the test answers with xdotool and
waits for the next one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi_desktop.scenes.table.text import LogLine

from .xvfb import PRELUDE, click, game, needs_xvfb, wait_for, window, x_display, xdo

pytestmark = pytest.mark.xvfb

COMMON = (
    PRELUDE
    + r"""
from koikoi_desktop.i18n import say as worded
from koikoi_desktop.scenes.table.text import log_text
from koikoi_desktop.ui.widgets import Choice

data = Path(sys.argv[2])
PAUSE = 1 / 240

def say(n, **facts):
    facts["top"] = a.stack.top.name
    write(n, facts)

def centre(rect):
    return [rect.centerx, rect.centery]

def play_on(t, until):
    # the person plays its first legal move and stops when a yaku is made; the computer answers
    c = t.controller
    for _ in range(3000):
        if until():
            return
        top = a.stack.top
        if top is not t and top.name == "round-summary":
            top.on_back()
        elif t.prompt is not None:
            t.prompt.widgets[0].activate()
        elif c.my_turn():
            c.apply(c.state.legal_actions()[0])
        frame()
    raise SystemExit("position not reached")

def table_facts(t):
    c = t.controller
    w = a.words
    said = [log_text(w, x, c.names(w), c.rules) for x in c.log]
    return dict(names=list(c.names(w)), buttons=[worded(b.label, w) for b in t.buttons],
                log=[repr(x) for x in c.log], words=said,
                field=list(t.director.board.field), round=t.match.round_number)
"""
)

FIRST = (
    COMMON
    + r"""
start(data=data)
t = table(11)
c = t.controller
play_on(t, lambda: len(t.match.ledger) >= 1 and len(c.state.moves) >= 6 and c.my_turn()
        and c.state.phase == "play" and not t.queue.busy and a.stack.top is t)
for _ in range(10):
    frame()
say(1, menu=centre(t.buttons[0].rect), **table_facts(t))
wait(lambda: a.stack.top.name == "pause")
frame()
pause = a.stack.top
settings = next(b for b in pause.buttons if b.label == pause.items()[3][0])
say(2, settings=centre(settings.rect))
wait(lambda: a.stack.top.name == "settings")
frame()
s = a.stack.top
lang = next(w for _, w in s.rows if isinstance(w, Choice)
            and getattr(w.on_change, "__name__", "") == "set_language")
codes = [v for v, _ in lang.options]
clicks = (codes.index("uk") - lang.index) % len(codes)
say(3, lang=[lang.rect.right - 6, lang.rect.centery], clicks=clicks)
wait(lambda: lang.value == "uk")
say(4)
wait(lambda: a.stack.top is t)
for _ in range(10):
    frame()
say(5, **table_facts(t))
a.shutdown()
"""
)

SECOND = (
    COMMON
    + r"""
start("--lang", "en", data=data)
frame()
title = a.stack.top
say(1, cont=centre(title.buttons[1].rect), enabled=title.buttons[1].enabled)
wait(lambda: isinstance(a.stack.top, TableScene))
t = a.stack.top
c = t.controller
wait(lambda: c.my_turn() and not t.queue.busy)
for _ in range(10):
    frame()
say(2, **table_facts(t))
n = t.match.round_number
play_on(t, lambda: t.match.round_number > n and c.my_turn() and not t.queue.busy
        and a.stack.top is t)
for _ in range(10):
    frame()
say(3, **table_facts(t))
a.shutdown()
"""
)


@needs_xvfb
def test_real_window_language_change_then_continue_in_english(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    data = str(tmp_path / "data")  # both games use the same data folder
    with x_display() as env:
        # the first game: a match into its second round, then Menu → Settings → Ukrainian
        with game(env, FIRST, str(one), data) as proc:
            before = wait_for(one / "1.json", proc, 120)
            assert before["names"] == ["You", "Computer (Beginner)"]
            wid = window(env, proc)
            click(env, wid, before["menu"])
            pause = wait_for(one / "2.json", proc, 30)
            click(env, wid, pause["settings"])
            settings = wait_for(one / "3.json", proc, 30)
            for _ in range(int(settings["clicks"])):
                click(env, wid, settings["lang"])
            wait_for(one / "4.json", proc, 30)
            xdo(env, "key", "--window", wid, "Escape")  # the settings close
            xdo(env, "key", "--window", wid, "Escape")  # the pause menu closes
            uk = wait_for(one / "5.json", proc, 30)
            assert uk["top"] == "table"
            assert uk["names"] == ["Ви", "Комп’ютер (Початківець)"]
            assert [b.split(" (")[0] for b in uk["buttons"]] == ["Меню"]
            assert uk["log"] == before["log"]  # the same facts, in other words
            words: list[str] = uk["words"]
            assert words != before["words"] and all(words)
            assert not [w for w in words if any("a" <= ch.lower() <= "z" for ch in w)], words
            proc.wait(timeout=30)

        # the second game, started with --lang en: Continue, the same log and field, play on
        with game(env, SECOND, str(two), data) as proc:
            title = wait_for(two / "1.json", proc, 120)
            assert title["enabled"]
            wid = window(env, proc)
            click(env, wid, title["cont"])
            resumed = wait_for(two / "2.json", proc, 60)
            assert resumed["names"] == ["You", "Computer (Beginner)"]
            log: list[str] = resumed["log"]
            # the log rebuilt from the record: every move's line; the coach's verdicts are not
            # part of the record (like a computer's practice reasons) and are not rebuilt
            was: list[str] = before["log"]
            said: list[str] = before["words"]
            kept = [i for i, x in enumerate(was) if not x.startswith("LogLine(kind='coach'")]
            assert log[:-1] == [was[i] for i in kept]
            assert log[-1] == repr(LogLine("resumed"))
            assert resumed["words"][:-1] == [said[i] for i in kept]
            assert resumed["field"] == before["field"]
            after = wait_for(two / "3.json", proc, 180)
            assert after["round"] == int(resumed["round"]) + 1
            assert after["log"][: len(log)] == log
            assert repr(LogLine("round", n=int(after["round"]))) in after["log"]
            proc.wait(timeout=30)
