"""The short soak: ``benchmarks/soak.py`` for three 3-round computer matches.

It runs as its own process (the figures are that process's memory, not pytest's) and must end
with status 0 and sane figures: every frame drawn, every match through the match result and
"play again", no leaked threads, memory in the range of a small game. The 100-match run with its
10 MB bar is run by hand (``python benchmarks/soak.py --matches 100 --max-growth-mb 10``).

Decision: the run is bounded by matches, not seconds, and the computer decides on the frame that
asks (``--sync-ai``), so a loaded machine makes it slower but never shorter or red. How fast it
draws is a benchmark figure (printed), not an assertion.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from koikoi_desktop.scenes.round_summary import AUTO_CONTINUE

ROOT = Path(__file__).resolve().parents[2]
MATCHES = int(os.environ.get("KOIKOI_SOAK_MATCHES") or 3)
ROUNDS = 3
#: Only against a hang: a three-match run takes seconds.
HANG_SECONDS = 900


def test_short_soak(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYTHONPATH": str(ROOT),
    }
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "soak.py"),
            "--matches",
            str(MATCHES),
            "--rounds",
            str(ROUNDS),
            "--sync-ai",
            "--quiet",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=HANG_SECONDS,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert "Traceback" not in proc.stderr
    f = json.loads(out.read_text())
    print(f)
    assert f["matches"] == MATCHES, "a match did not reach the match result and play again"
    assert f["rounds"] >= ROUNDS * MATCHES
    # every round drawn: at least its summary, shown for AUTO_CONTINUE simulated seconds
    assert f["frames"] > 60 * AUTO_CONTINUE * f["rounds"]
    assert 10 < f["rss_final_mb"] <= f["rss_peak_mb"] < 400
    assert f["threads_at_end"] <= 4, "worker threads pile up"
    assert 0 < f["open_fds_at_end"] < 200, "file descriptors leak"
    if f["growth_after_warmup_mb"] is not None:
        assert f["growth_after_warmup_mb"] < 60
