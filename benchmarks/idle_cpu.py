"""CPU the game uses while nothing moves: the title, the table waiting for the player, the month
reference.

    python benchmarks/idle_cpu.py [--seconds 10] [--settle 6] [--compare]

Each screen is the real game (``python -m koikoi_desktop`` with a fresh data folder) in a real
X window: under the current ``DISPLAY``, else under an Xvfb this script starts (else, with
neither, SDL's dummy driver). After ``--settle`` seconds (start-up, the deal) the script reads
the process's CPU time (user + system, ``/proc/PID/stat``) over ``--seconds`` seconds and prints
it with its share of one core; then it stops the game with SIGTERM (which saves and exits 0).

The table is reached as a returning player reaches it: a match is saved at the player's turn
(through the recorder, as a played move saves it) and the game is started with ``--continue``.

``--compare`` adds each screen drawn every frame (``--frames``, a scripted run, which never
sleeps): what the same screen cost before the loop slept on events. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET = 0.03  # of one core


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def saved_match_at_players_turn(data: Path) -> None:
    """A match against the Intermediate saved at the player's first turn (the player deals)."""
    from koikoi_desktop import engine
    from koikoi_desktop.storage import Storage
    from koikoi_desktop.storage.recorder import MatchRecorder

    rules = engine.PRESETS["nintendo"]
    match = engine.new_match(rules, first_dealer=0, seed=5)
    assert match.round.to_move == 0
    with Storage.open(data) as store:
        MatchRecorder(
            store,
            match_id="idle-benchmark",
            seats=("human", "intermediate"),
            names=("You", "Computer (Intermediate)"),
            rules=rules,
            practice=False,
        ).move_made(match)


def measure(args: list[str], env: dict[str, str], settle: float, seconds: float) -> float:
    proc = subprocess.Popen(
        [sys.executable, "-m", "koikoi_desktop", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(settle)
        if proc.poll() is not None:
            raise SystemExit(f"the game exited early: {proc.stderr.read() if proc.stderr else ''}")
        before = cpu_seconds(proc.pid)
        time.sleep(seconds)
        used = cpu_seconds(proc.pid) - before
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return used


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--settle", type=float, default=6.0)
    ap.add_argument("--compare", action="store_true", help="also draw every frame (--frames)")
    opts = ap.parse_args()
    if not Path("/proc/self/stat").exists():
        raise SystemExit("needs /proc (Linux)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "KOIKOI_"))}
    env["PYTHONPATH"] = str(ROOT)
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    xvfb = None
    if not env.get("DISPLAY") and shutil.which("Xvfb"):
        n = next(n for n in range(150, 250) if not Path(f"/tmp/.X11-unix/X{n}").exists())
        xvfb = subprocess.Popen(
            ["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while not Path(f"/tmp/.X11-unix/X{n}").exists():
            time.sleep(0.05)
        env["DISPLAY"] = f":{n}"
    elif not env.get("DISPLAY"):
        env["SDL_VIDEODRIVER"] = "dummy"
    where = f"X display {env['DISPLAY']}" if "DISPLAY" in env else "SDL's dummy driver"
    print(f"idle CPU, {opts.seconds:g} s per screen after {opts.settle:g} s to settle ({where})")
    screens = [
        ("title", ["--scene", "title"]),
        ("table, the player's turn", ["--continue"]),
        ("month reference", ["--scene", "month-reference"]),
    ]
    rows = []
    try:
        for name, extra in screens:
            modes = [("sleeps on events", [])]
            if opts.compare:
                modes.append(("every frame (--frames)", ["--frames", "1000000"]))
            for mode, more in modes:
                with tempfile.TemporaryDirectory() as tmp:
                    data = Path(tmp) / "data"
                    if extra == ["--continue"]:
                        saved_match_at_players_turn(data)
                    run = ["--data-dir", str(data), "--size", "1280x800", *extra, *more]
                    used = measure(run, env, opts.settle, opts.seconds)
                share = used / opts.seconds
                rows.append((name, mode, used, share))
                print(
                    f"  {name:26} {mode:24} {used:6.2f} CPU s  {share * 100:5.1f}% of a core",
                    flush=True,
                )
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)
    idle = [r for r in rows if r[1] == "sleeps on events"]
    worst = max(r[3] for r in idle)
    ok = worst < TARGET
    print(f"worst idle screen: {worst * 100:.1f}% of a core (target < {TARGET * 100:.0f}%)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
