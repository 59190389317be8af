"""ruff, ruff format and mypy over the whole tree, as part of the README's test command.

Issue 17: nothing enforced them, so formatting drifted over 52 files and lint findings piled up.
They run here rather than as extra lines in ``.ci/run`` so that the one test command a developer
runs (and CI runs, exactly as the README gives it) fails on a lint, format or type finding just
as on a failing test. mypy is configured in pyproject.toml (strict on the whole package).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def _need(tool: str) -> None:
    # The tools are in the test extras (pyproject): missing means the set-up was skipped, which
    # must fail loudly rather than pass a check that never ran.
    assert shutil.which(tool) or _run(tool, "--version").returncode == 0, (
        f"{tool} is not installed: run the README's test command (pip install -e '.[test]')"
    )


def test_ruff_check_finds_nothing() -> None:
    _need("ruff")
    out = _run("ruff", "check", "--no-cache", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format_would_change_nothing() -> None:
    _need("ruff")
    out = _run("ruff", "format", "--check", "--no-cache", ".")
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
def test_mypy_strict_on_the_whole_package() -> None:
    _need("mypy")
    out = _run("mypy")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success" in out.stdout
