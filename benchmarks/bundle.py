"""Size and start-up of the packaged game: ``python benchmarks/bundle.py [--dist DIR] [--runs N]``.

Builds the bundle with ``packaging/build.py`` into a temporary folder (or measures an existing
``--dist`` folder) and prints:

* bundle size on disk (sum of file sizes, symlinks counted once; and allocated blocks),
* archive size,
* launch-to-first-frame time of the bundled game: wall time of ``koikoi-desktop --frames 1``
  (process start, Python start, imports, storage, window, fonts, card art, first title frame,
  then quit), from an empty environment with the dummy video driver, over ``--runs`` runs
  (the first run is reported separately: it also pays for reading the files from disk when
  they are not cached). The figure is an upper bound of launch-to-first-frame, since it includes
  closing the window. The same run from source is printed for comparison.

Targets (issue 8): bundle under 80 MB, first frame under 1.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "koikoi-desktop"
EXE = NAME + (".exe" if sys.platform.startswith("win") else "")


def sizes(path: Path) -> tuple[int, int]:
    apparent = blocks = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            apparent += st.st_size
            blocks += getattr(st, "st_blocks", (st.st_size + 4095) // 4096 * 8) * 512
    return apparent, blocks


def timed_runs(cmd: list[str], runs: int, extra_env: dict[str, str] | None = None) -> list[float]:
    out = []
    with tempfile.TemporaryDirectory() as home:
        env = {
            "HOME": home,
            "PATH": "/usr/bin:/bin",
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            **(extra_env or {}),
        }
        if sys.platform.startswith("win"):
            import os

            env.update(
                {
                    k: os.environ[k]
                    for k in ("SYSTEMROOT", "LOCALAPPDATA", "APPDATA")
                    if k in os.environ
                }
            )
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(
                [*cmd, "--frames", "1"],
                env=env,
                cwd=home,
                check=True,
                capture_output=True,
                timeout=120,
            )
            out.append(time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description="Measure the packaged game's size and start-up.")
    ap.add_argument("--dist", type=Path, help="an existing dist folder (default: build one)")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    tmp = None
    if args.dist is None:
        tmp = tempfile.TemporaryDirectory(prefix="koikoi-bench-")
        dist = Path(tmp.name)
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, str(ROOT / "packaging" / "build.py"), "--distpath", str(dist)],
            check=True,
            capture_output=True,
        )
        print(f"build (packaging/build.py):            {time.perf_counter() - t0:6.1f} s")
    else:
        dist = args.dist.resolve()
    bundle = dist / NAME
    apparent, blocks = sizes(bundle)
    archives = sorted(dist.glob(f"{NAME}-*.tar.gz")) + sorted(dist.glob(f"{NAME}-*.zip"))
    print(f"bundle size (files):                    {apparent / 1e6:6.1f} MB  (target < 80 MB)")
    print(f"bundle size (disk blocks):              {blocks / 1e6:6.1f} MB")
    for a in archives:
        print(f"archive {a.name + ':':31s}{a.stat().st_size / 1e6:6.1f} MB")
    runs = timed_runs([str(bundle / EXE)], args.runs)
    rest = runs[1:] or runs
    print(f"bundled --frames 1, first run:          {runs[0]:6.2f} s")
    print(
        f"bundled --frames 1, median of {len(rest)}:        {statistics.median(rest):6.2f} s"
        f"  (min {min(rest):.2f}, max {max(rest):.2f}; target < 1.5 s)"
    )
    src = timed_runs(
        [sys.executable, "-m", "koikoi_desktop"], max(3, args.runs // 2), {"PYTHONPATH": str(ROOT)}
    )
    print(f"from source --frames 1, median of {len(src)}:    {statistics.median(src):6.2f} s")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
