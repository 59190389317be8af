"""The short soak: ``benchmarks/soak.py`` for about 12 seconds of 3-round computer matches.

It runs as its own process (the figures are that process's memory, not pytest's) and must end
with status 0 and sane figures: every frame drawn, several matches through the match result and
"play again", no leaked threads, memory in the range of a small game. The 100-match run with its
10 MB bar is run by hand (``python benchmarks/soak.py --matches 100 --max-growth-mb 10``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECONDS = float(os.environ.get("KOIKOI_SOAK_SECONDS") or 12)


def test_short_soak(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "soak.py"), "--seconds", str(SECONDS),
         "--rounds", "3", "--quiet", "--json", str(out)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=SECONDS * 10 + 60)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert "Traceback" not in proc.stderr
    f = json.loads(out.read_text())
    print(f)
    assert f["frames"] > 500
    assert f["matches"] >= 1, "no match ended: the match result / play-again path never ran"
    assert f["rounds"] >= 3 * f["matches"]
    assert f["fps"] > 20
    assert 10 < f["rss_final_mb"] <= f["rss_peak_mb"] < 400
    assert f["threads_at_end"] <= 4, "worker threads pile up"
    assert 0 < f["open_fds_at_end"] < 200, "file descriptors leak"
    if f["growth_after_warmup_mb"] is not None:
        assert f["growth_after_warmup_mb"] < 60
