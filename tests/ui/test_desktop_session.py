"""The game as a desktop program: signals, no display, the window class, the terminal.

Each test runs ``python -m koikoi_desktop`` as a child process with its own data folder. The
real-window tests start their own Xvfb (skipped only where Xvfb or xdotool is not installed;
CI installs both, and x11-utils for ``xprop``).
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import engine, scenes
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.scenes.title import TitleScene

from .conftest import pump
from .xvfb import find_window, start_xvfb

ROOT = Path(__file__).resolve().parents[2]
#: A seed whose first dealer is the computer: it moves first, so the saved match has a move.
COMPUTER_FIRST = 6


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a game started by hand: no SDL driver chosen, this source tree."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SDL_", "KOIKOI_")) and k not in ("DISPLAY", "WAYLAND_DISPLAY")
    }
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def game(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "koikoi_desktop", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def xdisplay() -> Iterator[str]:
    """A private Xvfb display (":N")."""
    if not (shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("xprop")):
        pytest.skip("needs Xvfb, xdotool and xprop (apt-get install -y xvfb xdotool x11-utils)")
    xvfb, n = start_xvfb()
    try:
        yield f":{n}"
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


def saved_record(data: Path) -> str | None:
    """The record of the match the game has saved (read as another program would)."""
    path = data / "koikoi.sqlite3"
    if not path.exists():
        return None
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        row = conn.execute("SELECT record FROM saved").fetchone()
    except sqlite3.OperationalError:  # the game is still creating its tables
        return None
    finally:
        conn.close()
    return None if row is None else str(row[0])


def moves_made(record: str | None) -> int:
    if record is None:
        return 0
    m = engine.replay_match(record)
    return sum(len(d.moves) for d in m.deals)


# ------------------------------------------------------------------------------- signals


@pytest.mark.xvfb
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_saves_the_match_and_exits_0(
    tmp_path: Path, xdisplay: str, signum: signal.Signals
) -> None:
    """A real window under Xvfb: the first-dealer prompt is answered with the keyboard, the
    computer moves; the signal then ends the run within 2 s with status 0 (no question), the
    match is saved, and Continue in a new run offers it and plays on from that position. The
    window's class is the desktop file's, and the terminal shows no audio library's lines."""
    data = tmp_path / "data"
    env = child_env(DISPLAY=xdisplay)
    proc = game(
        [
            *("--data-dir", str(data), "--scene", "table", "--seed", str(COMPUTER_FIRST)),
            *("--speed", "off", "--size", "1024x640"),
        ],
        env,
    )
    try:
        wid = find_window(env, proc)
        wm_class = subprocess.run(
            ["xprop", "-id", wid, "WM_CLASS"], env=env, capture_output=True, text=True, timeout=20
        ).stdout
        assert wm_class.strip() == 'WM_CLASS(STRING) = "koikoi-desktop", "koikoi-desktop"'
        desktop = next((ROOT / "packaging" / "linux").glob("*.desktop")).read_text("utf-8")
        assert "StartupWMClass=koikoi-desktop" in desktop.splitlines()
        end = time.monotonic() + 60
        while moves_made(saved_record(data)) == 0:
            assert time.monotonic() < end, "the computer's first move was not saved"
            subprocess.run(["xdotool", "windowfocus", "--sync", wid], env=env, timeout=20)
            subprocess.run(["xdotool", "key", "Return"], env=env, timeout=20)
            time.sleep(0.7)
        time.sleep(0.5)  # the player's turn: the table is idle
        before = saved_record(data)
        start = time.monotonic()
        proc.send_signal(signum)
        status = proc.wait(timeout=10)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    assert status == 0, stderr
    assert took < 2.0, f"the game took {took:.2f} s to stop"
    lines = stderr.splitlines()
    assert not [ln for ln in lines if "ALSA lib" in ln], stderr
    assert all(ln.startswith("koikoi-desktop: playing without sound (") for ln in lines), stderr
    record = saved_record(data)
    assert record is not None and moves_made(record) >= 1
    assert before is not None and moves_made(record) >= moves_made(before)

    # Continue, in a new run of the app on the same folder: the saved match, played on
    from koikoi_desktop import app as app_mod

    args = app_mod.parse_args(["--data-dir", str(data), "--speed", "off"])
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    try:
        title = a.stack.push(scenes.create("title", a))
        assert isinstance(title, TitleScene) and a.has_autosave()
        cont = title.buttons[1]
        assert cont.enabled
        a.stack.draw(pygame.display.get_surface())
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            a.dispatch(pygame.event.Event(kind, button=1, pos=cont.rect.center))
        t = a.stack.top
        assert isinstance(t, TableScene)
        assert engine.match_record(t.match) == record
        c = t.controller
        assert pump(t, lambda: c.my_turn() and c.state.phase == "play")
        assert c.apply(c.state.legal_actions()[0])
        assert moves_made(engine.match_record(t.match)) == moves_made(record) + 1
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        a.close_storage()
        pygame.display.quit()


# ------------------------------------------------------------------------------ no display


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is Linux's")
def test_no_display_is_one_line_and_status_1(tmp_path: Path) -> None:
    proc = game(["--data-dir", str(tmp_path / "data")], child_env())
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1
    assert err.splitlines() == [
        "koikoi-desktop: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not "
        "set); start the game from a desktop session"
    ], err
    # a scripted run draws without a display, as before
    shot = tmp_path / "title.png"
    proc = game(
        ["--data-dir", str(tmp_path / "data"), "--frames", "2", "--screenshot", str(shot)],
        child_env(),
    )
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is Linux's")
def test_a_display_that_does_not_answer_is_named(tmp_path: Path) -> None:
    """DISPLAY set to a display nobody serves: the line names it (it used to say DISPLAY was
    not set, which sent the player looking for the wrong thing)."""
    free = next(n for n in range(899, 300, -1) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    proc = game(["--data-dir", str(tmp_path / "data")], child_env(DISPLAY=f":{free}"))
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1
    assert err.splitlines() == [
        f"koikoi-desktop: no display to open the window on (no display answered at "
        f"DISPLAY=:{free}); start the game from a desktop session"
    ], err


# ------------------------------------------------------------------------------ the terminal


def test_audio_library_lines_are_held_back_and_others_kept(capfd: Any) -> None:
    from koikoi_desktop.chatter import native_chatter_filtered

    with native_chatter_filtered():
        os.write(2, b"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n")
        os.write(2, b"koikoi-desktop: a line of the game's own\n")
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "koikoi-desktop: a line of the game's own\nafter\n"


def test_opening_audio_prints_no_library_lines() -> None:
    """The mixer opened the way the game opens it, with no audio driver chosen (on a machine
    without a sound card libasound writes eight lines while it looks for one)."""
    code = (
        "from koikoi_desktop.ui.audio import Audio\n"
        "a = Audio()\n"
        "ok = a.init(background=False)\n"
        "print('opened' if ok else f'no sound: {a.error}')\n"
        "a.quit()\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=child_env(), capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == "", run.stderr
