"""packaging/build.py installs nothing: a missing tool or a stale install stops it with one line
naming the command that fixes it (``pip install -e '.[build]'``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.packaging.helpers import ROOT, packaging_script

HINT = "pip install -e '.[build]'"


def test_without_the_game_installed_it_says_what_to_install(tmp_path: Path) -> None:
    # -I -S: no site-packages and no PYTHONPATH, as in a Python where nothing was installed.
    dist = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(ROOT / "packaging" / "build.py"), "--distpath", str(dist)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"build: koikoi-desktop is not installed in this Python; run {HINT} first"
    ]
    assert "pip" not in proc.stdout and not dist.exists()


def test_without_pyinstaller_it_stops_instead_of_installing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build = packaging_script("build")
    real = build.importlib.util.find_spec

    def hide_pyinstaller(name: str, *args: Any) -> Any:
        return None if name == "PyInstaller" else real(name, *args)

    monkeypatch.setattr(build.importlib.util, "find_spec", hide_pyinstaller)
    calls: list[Any] = []
    monkeypatch.setattr(build.subprocess, "run", lambda *a, **k: calls.append(a))
    with pytest.raises(SystemExit) as stop:
        build.main(["--distpath", "unused"])
    assert str(stop.value) == f"build: missing pyinstaller; run {HINT} first"
    assert calls == []


def test_a_version_bumped_since_the_install_stops_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build = packaging_script("build")
    installed = build.version()
    assert installed == build.checkout_version()  # the test environment is current
    monkeypatch.setattr(build, "checkout_version", lambda: "99.0")
    with pytest.raises(SystemExit) as stop:
        build.check_tools()
    assert str(stop.value) == (
        f"build: the installed koikoi-desktop is {installed} but this "
        f"checkout is 99.0; run {HINT} again"
    )
