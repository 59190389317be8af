"""The table's seams in a real window under Xvfb, with real clicks and keys (xdotool): a language
change mid-match through Menu → Settings rewords the names, the buttons and the whole move log;
the match then continues in a new game process (Continue, started with ``--lang en``) with the
same move log and the same field, and plays on into the next round (issue 34 items 1, 2).

Each game runs in a child process (a real X11 window, the real frame loop). At each step it
writes what it shows (and where to click) to a numbered file; the test answers with xdotool and
waits for the next one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.scenes.table.text import LogLine

from .test_xvfb_drag import _free_display, _wait_for

pytestmark = pytest.mark.xvfb

COMMON = r"""
import json, sys, time
from pathlib import Path
import pygame
from koikoi_desktop import app as app_mod, engine, scenes
from koikoi_desktop.ai import InlineExecutor
from koikoi_desktop.scenes.table.scene import MatchConfig, TableScene
from koikoi_desktop.scenes.table.text import log_text
from koikoi_desktop.ui.widgets import Choice

out, data = Path(sys.argv[1]), Path(sys.argv[2])
a = None

def start(extra):
    global a
    args = app_mod.parse_args(["--data-dir", str(data), "--speed", "off",
                               "--size", "1280x800", *extra])
    a = app_mod.App(args)
    a.ai_executor = InlineExecutor()
    app_mod.sdl_defaults(args)
    a.open_storage(); a._set_language(); a.open_window(); a.open_sprites()
    a.stack.push(scenes.create("title", a))

def frame():
    for ev in pygame.event.get():
        a.dispatch(ev)
    a.stack.update(1 / 60)
    a.stack.draw(a.screen)
    pygame.display.flip()
    time.sleep(1 / 240)

def say(n, **facts):
    facts["top"] = a.stack.top.name
    (out / f"{n}.json").write_text(json.dumps(facts, ensure_ascii=False))

def wait(until, limit=6000):
    for _ in range(limit):
        if until():
            return
        frame()
    raise SystemExit("step not reached")

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
    return dict(names=list(c.names), buttons=[b.label() for b in t.buttons],
                log=[repr(x) for x in c.log], words=[log_text(x, c.names, c.rules) for x in c.log],
                field=list(t.director.board.field), round=t.match.round_number)
"""

FIRST = (
    COMMON
    + r"""
start([])
t = TableScene(a, config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), 11))
a.stack.push(t)
t.prompt.widgets[-1].activate()
c = t.controller
play_on(t, lambda: len(t.match.ledger) >= 1 and len(c.state.moves) >= 6 and c.my_turn()
        and c.state.phase == "play" and not t.queue.busy and a.stack.top is t)
for _ in range(10):
    frame()
say(1, menu=centre(t.buttons[0].rect), **table_facts(t))
wait(lambda: a.stack.top.name == "pause")
frame()
pause = a.stack.top
settings = next(b for b in pause.buttons if b.label() == pause.items()[3][0]())
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
start(["--lang", "en"])
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


def _xdo(env: dict[str, str], *step: str) -> None:
    subprocess.run(["xdotool", *step], env=env, check=True, timeout=10)
    time.sleep(0.15)


def _window(env: dict[str, str], pid: int) -> str:
    for _ in range(100):
        found = subprocess.run(
            ["xdotool", "search", "--pid", str(pid)],
            env=env,
            capture_output=True,
            text=True,
            timeout=20,
        ).stdout.split()
        if found:
            return found[-1]
        time.sleep(0.1)
    raise AssertionError("the game window did not appear")


def _click(env: dict[str, str], wid: str, at: Any) -> None:
    x, y = at
    _xdo(env, "mousemove", "--window", wid, str(x), str(y))
    _xdo(env, "click", "1")


@pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")),
    reason="needs Xvfb and xdotool (apt-get install -y xvfb xdotool)",
)
def test_real_window_language_change_then_continue_in_english(tmp_path: Path) -> None:
    n = _free_display()
    xvfb = subprocess.Popen(
        ["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    game = None
    try:
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                break
            time.sleep(0.05)
        env = dict(
            os.environ,
            DISPLAY=f":{n}",
            SDL_VIDEODRIVER="x11",
            PYTHONPATH=str(Path(__file__).resolve().parents[2]),
        )
        one, two = tmp_path / "one", tmp_path / "two"
        one.mkdir()
        two.mkdir()
        data = str(tmp_path / "data")  # both games use the same data folder

        # the first game: a match into its second round, then Menu → Settings → Ukrainian
        game = subprocess.Popen(
            [sys.executable, "-c", FIRST, str(one), data],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        before = _wait_for(one / "1.json", game, 120)
        assert before["names"] == ["You", "Computer (Beginner)"]
        wid = _window(env, game.pid)
        _xdo(env, "windowfocus", "--sync", wid)
        _click(env, wid, before["menu"])
        pause = _wait_for(one / "2.json", game, 30)
        _click(env, wid, pause["settings"])
        settings = _wait_for(one / "3.json", game, 30)
        for _ in range(int(settings["clicks"])):  # type: ignore[call-overload]
            _click(env, wid, settings["lang"])
        _wait_for(one / "4.json", game, 30)
        _xdo(env, "key", "--window", wid, "Escape")  # the settings close
        _xdo(env, "key", "--window", wid, "Escape")  # the pause menu closes
        uk = _wait_for(one / "5.json", game, 30)
        assert uk["top"] == "table"
        assert uk["names"] == ["Ви", "Комп’ютер (Початківець)"]
        assert [b.split(" (")[0] for b in uk["buttons"]] == ["Меню"]  # type: ignore[union-attr]
        assert uk["log"] == before["log"]  # the same facts, in other words
        words: list[str] = uk["words"]  # type: ignore[assignment]
        assert words != before["words"] and all(words)
        assert not [w for w in words if any("a" <= ch.lower() <= "z" for ch in w)], words
        game.wait(timeout=30)

        # the second game, started with --lang en: Continue, the same log and field, play on
        game = subprocess.Popen(
            [sys.executable, "-c", SECOND, str(two), data],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        title = _wait_for(two / "1.json", game, 120)
        assert title["enabled"]
        wid = _window(env, game.pid)
        _xdo(env, "windowfocus", "--sync", wid)
        _click(env, wid, title["cont"])
        resumed = _wait_for(two / "2.json", game, 60)
        assert resumed["names"] == ["You", "Computer (Beginner)"]
        log: list[str] = resumed["log"]  # type: ignore[assignment]
        # the log rebuilt from the record: every move's line; the coach's verdicts are not part
        # of the record (like a computer's practice reasons) and are not rebuilt
        was: list[str] = before["log"]  # type: ignore[assignment]
        said: list[str] = before["words"]  # type: ignore[assignment]
        kept = [i for i, x in enumerate(was) if not x.startswith("LogLine(kind='coach'")]
        assert log[:-1] == [was[i] for i in kept]
        assert log[-1] == repr(LogLine("resumed"))
        assert resumed["words"][:-1] == [said[i] for i in kept]  # type: ignore[index]
        assert resumed["field"] == before["field"]
        after = _wait_for(two / "3.json", game, 180)
        assert after["round"] == int(resumed["round"]) + 1  # type: ignore[call-overload]
        assert after["log"][: len(log)] == log  # type: ignore[index]
        heading = repr(LogLine("round", n=int(after["round"])))  # type: ignore[call-overload]
        assert heading in after["log"]  # type: ignore[operator]
        game.wait(timeout=30)
    finally:
        if game is not None and game.poll() is None:
            game.kill()
        xvfb.terminate()
        xvfb.wait(timeout=10)
