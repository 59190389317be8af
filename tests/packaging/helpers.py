"""Helpers of the packaging tests: the checkout, packaging/'s scripts, a build."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
NAME = "koikoi-desktop"


def packaging_script(name: str) -> ModuleType:
    """``packaging/<name>.py`` loaded as a module (the folder is no package, and its name is
    taken by the ``packaging`` library)."""
    spec = importlib.util.spec_from_file_location(
        f"_koikoi_{name}", ROOT / "packaging" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(distpath: Path) -> None:
    """``python packaging/build.py --distpath DIR``, PyInstaller's work files in a temporary
    folder: nothing is written into the checkout. Fails the test with the build's output."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "build.py"), "--distpath", str(distpath)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, f"build failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
