"""The real-window tests' one harness: a private Xvfb display, the game as a child process with
the real frame loop, its window found by xdotool, real keys and clicks sent to it.

A child script writes what it shows (and where to click) to numbered JSON files; a test waits
for each with :func:`wait_for` and answers with :func:`xdo` / :func:`click`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Marks a test that needs a real X server and xdotool (skipped where they are missing).
needs_xvfb = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")),
    reason="needs Xvfb and xdotool (apt-get install -y xvfb xdotool)",
)


def _answers(n: int) -> bool:
    """Whether display ``:n`` takes a client (the socket is there before the server listens
    under load)."""
    probe = subprocess.run(
        ["xdotool", "getdisplaygeometry"],
        env=dict(os.environ, DISPLAY=f":{n}"),
        capture_output=True,
        timeout=20,
    )
    return probe.returncode == 0


def start_xvfb() -> tuple[subprocess.Popen[bytes], int]:
    """An Xvfb on a free display number, tried in random order (tests of other work trees may
    start theirs at the same moment: a number taken meanwhile is given up for the next)."""
    for n in random.sample(range(300, 900), 40):
        if Path(f"/tmp/.X{n}-lock").exists() or Path(f"/tmp/.X11-unix/X{n}").exists():
            continue
        xvfb = subprocess.Popen(
            ["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            if xvfb.poll() is not None:
                break  # the number was taken after all
            if Path(f"/tmp/.X11-unix/X{n}").exists() and _answers(n) and xvfb.poll() is None:
                return xvfb, n  # ours answers (a socket alone may be another test's server)
            time.sleep(0.05)
        if xvfb.poll() is None:
            xvfb.terminate()
            xvfb.wait(timeout=10)
    raise RuntimeError("no X display could be started")


@contextmanager
def x_display() -> Iterator[dict[str, str]]:
    """A private display for the duration: the environment a game started on it needs."""
    xvfb, n = start_xvfb()
    try:
        yield dict(os.environ, DISPLAY=f":{n}", SDL_VIDEODRIVER="x11", PYTHONPATH=str(ROOT))
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


@contextmanager
def game(env: dict[str, str], code: str, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """The child script ``code`` (``python -c``) with ``args``, killed if it is still running
    when the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def wait_for(path: Path, proc: subprocess.Popen[bytes], timeout: float) -> dict[str, Any]:
    """The facts the child wrote to ``path`` (an AssertionError if it exits or takes longer)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists():
            time.sleep(0.1)
            return json.loads(path.read_text())  # type: ignore[no-any-return]
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"game exited early: {err[-2000:]}")
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {path.name}")


def find_window(env: dict[str, str], proc: subprocess.Popen[Any], timeout: float = 60) -> str:
    """The id of the window that the process ``proc`` shows on ``env``'s display (an
    AssertionError if it exits first or none appears within ``timeout`` seconds)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            err = proc.stderr.read() if proc.stderr else ""
            raise AssertionError(f"the game exited early: {err!r:.2000}")
        found = subprocess.run(
            ["xdotool", "search", "--pid", str(proc.pid)],
            env=env,
            capture_output=True,
            text=True,
            timeout=20,
        ).stdout.split()
        if found:
            return found[-1]
        time.sleep(0.1)
    raise AssertionError("the game window did not appear")


def window(env: dict[str, str], proc: subprocess.Popen[bytes]) -> str:
    """The child's window id, focused."""
    wid = find_window(env, proc)
    xdo(env, "windowfocus", "--sync", wid)
    return wid


def xdo(env: dict[str, str], *step: str, pause: float = 0.1) -> None:
    """One xdotool command, then a short pause for the game to take it."""
    subprocess.run(["xdotool", *step], env=env, check=True, timeout=10)
    time.sleep(pause)


def click(env: dict[str, str], wid: str, at: Any) -> None:
    """A real left click at the window point ``at`` (x, y)."""
    x, y = at
    xdo(env, "mousemove", "--window", wid, str(x), str(y))
    xdo(env, "click", "1")


#: The head of every child script: the game's app on the real window and frame loop, as the
#: game itself runs it. ``out`` is the folder named by the first argument (the numbered files
#: go there); ``start(*flags)`` opens the app on the title screen (the computer thinks inline
#: unless ``inline=False``); ``table(seed)`` seats a human against the Beginner on the
#: nintendo preset and begins the match; ``frame()`` runs one frame, then sleeps ``PAUSE``;
#: ``wait(until)`` runs frames until ``until()``; ``write(n, facts)`` writes the numbered
#: file. The screens and constructors the child scripts use are named here once.
PRELUDE = r"""
import json, sys, time
from pathlib import Path
import pygame
from koikoi_desktop import app as app_mod, engine, scenes
from koikoi_desktop.ai import InlineExecutor
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.scene import TableScene

out = Path(sys.argv[1])
a = None
PAUSE = 1 / 120  # the wait after each frame, for X to deliver the test's input

def start(*flags, data=None, speed="off", inline=True):
    global a
    args = app_mod.parse_args(["--data-dir", str(data or out / "data"), "--speed", speed,
                               "--size", "1280x800", *flags])
    a = app_mod.App(args)
    if inline:
        a.ai_executor = InlineExecutor()
    app_mod.sdl_defaults(args)
    a.open_storage(); a.open_window(); a.open_sprites()
    a.stack.push(scenes.create("title", a))
    return a

def table(seed, seats=("human", "beginner")):
    cfg = MatchConfig(engine.PRESETS["nintendo"], seats, seed)
    t = TableScene(a, screens.Table(config=cfg))
    a.stack.push(t)
    t.prompt.widgets[-1].activate()
    return t

def frame():
    for ev in pygame.event.get():
        a.dispatch(ev)
    a.stack.update(1 / 60)
    a.stack.draw(a.screen)
    pygame.display.flip()
    time.sleep(PAUSE)

def wait(until, limit=3600):
    for _ in range(limit):
        if until():
            return
        frame()
    raise SystemExit("step not reached")

def write(n, facts):
    (out / f"{n}.json").write_text(json.dumps(facts, ensure_ascii=False))
"""
