"""Sound in the running game: ``python -m koikoi_desktop`` under SDL's ``disk`` audio driver.

The driver writes every mixed sample to a raw file (signed 16-bit, stereo, 44.1 kHz) at the pace
of a real device. With ``KOIKOI_SOUND_LOG`` the game logs each cue with the number of bytes the
driver had written at that moment, so each cue can be found in the file. Music is turned off in
the settings for the match, so the file holds effects only:

* at every capture the file is loud (the capture sound starts there);
* wherever no logged effect can still be ringing, the file is silent — a sound the cues did not
  log, or a cue logged where nothing played, fails the test; and enough of the file is such
  silence that this check has teeth.

A second, short run on the title screen with music on checks the ambient loop.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from koikoi_desktop.ui import audio as audio

ROOT = Path(__file__).resolve().parents[2]
RATE = 44100
FRAME_BYTES = 4  # 16-bit stereo
WINDOW = RATE // 50  # 20 ms
LOUD = 800.0  # RMS; the effects peak at 0.7 of full scale (RMS of a few thousand)
QUIET = 40.0

pytestmark = pytest.mark.slow


def launch(
    tmp_path: Path, data: Path, *args: str, timeout: float = 120, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m koikoi_desktop --data-dir data *args`` with the dummy video driver and the
    disk audio driver writing ``tmp_path / "out.raw"``; ``env`` adds variables."""
    proc_env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "disk",
        "SDL_DISKAUDIOFILE": str(tmp_path / "out.raw"),
        "PYTHONPATH": str(ROOT),
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "koikoi_desktop", "--data-dir", str(data), *args],
        env=proc_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=tmp_path,
    )


def run_game(tmp_path: Path, settings: dict[str, object], *args: str) -> tuple[array, list]:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    raw, log = tmp_path / "out.raw", tmp_path / "cues.log"
    proc = launch(tmp_path, data, *args, KOIKOI_SOUND_LOG=str(log))
    assert proc.returncode == 0, proc.stderr
    assert "without sound" not in proc.stderr
    samples = array("h", raw.read_bytes())
    if sys.byteorder == "big":
        samples.byteswap()
    cues = []
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            _, name, what, written = line.split("\t")
            cues.append((name, what, int(written) // FRAME_BYTES))
    return samples, cues


def rms(samples: array, frame: int, frames: int) -> float:
    seg = samples[2 * max(0, frame) : 2 * (frame + frames)]
    return (sum(v * v for v in seg) / len(seg)) ** 0.5 if seg else 0.0


def test_an_autoplay_match_sounds_at_its_captures_and_nowhere_else(tmp_path: Path) -> None:
    samples, cues = run_game(
        tmp_path,
        {"sound_volume": 100, "music_volume": 0},
        "--autoplay",
        "--realtime",
        "--speed",
        "fast",
        "--seed",
        "5",
        "--frames",
        "900",
    )
    played = [(name, at) for name, what, at in cues if what == "played"]
    captures = [at for name, at in played if name == "capture"]
    assert len(captures) >= 5, cues
    assert {"deal", "card_place", "draw_flip"} <= {name for name, _ in played}
    total = len(samples) // 2
    assert total > 10 * RATE  # the driver kept writing for the whole run
    # Loud at each capture: within 80 ms of the moment it was cued (the driver's buffers).
    for at in captures:
        assert max(rms(samples, at + k * WINDOW // 2, WINDOW) for k in range(8)) > LOUD, at
    # Silent wherever no logged effect can be ringing (its length, plus 60 ms of buffering).
    length = {name: len(audio.synthesize(name)) * RATE // audio.RATE for name in audio.EFFECTS}
    ringing = sorted((at - RATE // 50, at + length[name] + RATE * 6 // 100) for name, at in played)
    quiet_windows = loud_strays = 0
    k = 0
    for start in range(0, total - WINDOW, WINDOW):
        while k < len(ringing) and ringing[k][1] < start:
            k += 1
        if any(a <= start + WINDOW and start <= b for a, b in ringing[k : k + 40]):
            continue
        quiet_windows += 1
        if rms(samples, start, WINDOW) > QUIET:
            loud_strays += 1
    assert quiet_windows > total // WINDOW // 4, "too few silent stretches to check"
    assert loud_strays == 0, f"{loud_strays} windows sound where no effect was cued"


def test_the_ambient_loop_plays_quietly_on_the_title(tmp_path: Path) -> None:
    samples, cues = run_game(
        tmp_path, {"sound_volume": 100, "music_volume": 100}, "--frames", "300"
    )
    assert cues == []  # the title plays no effects
    total = len(samples) // 2
    tail = [
        rms(samples, f, RATE // 10) for f in range(total - 2 * RATE, total - RATE // 10, RATE // 10)
    ]
    assert len(tail) >= 15
    assert min(tail) > QUIET  # the loop is playing through the last two seconds
    peak = max(abs(v) for v in samples[-4 * RATE :])
    assert peak < 0.5 * audio.EFFECT_PEAK * 32767  # and it stays well under the effects


def test_muted_in_the_settings_the_match_writes_silence(tmp_path: Path) -> None:
    samples, cues = run_game(
        tmp_path,
        {"sound_volume": 100, "music_volume": 100, "muted": True},
        "--autoplay",
        "--realtime",
        "--speed",
        "fast",
        "--seed",
        "5",
        "--frames",
        "480",
    )
    assert any(name == "capture" for name, _, _ in cues)  # the cues still came
    assert all(what == "silent" for _, what, _ in cues if what != "repeat")
    assert len(samples) > 0 and max(abs(v) for v in samples) == 0


def _processes_naming(text: str) -> list[int]:
    """Live processes whose command line contains ``text`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (
                    (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                )  # any process: its bytes
            except OSError:
                continue  # ended while we looked
            if text in cmd:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; workers fork")
def test_quitting_while_the_sounds_are_still_being_made_ends_the_game(tmp_path: Path) -> None:
    # A fresh data folder has no made sounds yet: the workers are still making (or handing
    # over) them when the game quits after a few frames. Forked from a process where SDL
    # catches SIGTERM, they once ignored being cancelled, and the game hung at exit joining
    # them, leaving both behind.
    data = tmp_path / "fresh-data"
    proc = launch(tmp_path, data, "--frames", "3", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert _processes_naming(str(data)) == []
