"""Real refusing disks for tests: small tmpfs mounts, full or remounted read-only.

Mounting needs root (CI containers are); elsewhere a test that asks for one is skipped. Used by
``tests/storage/test_refusing_disk.py`` and the UI tests that meet such a disk through the app.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def tmpfs(tmp_path: Path) -> Iterator[Callable[[int], Path]]:
    """For a fixture: ``make(size)`` -> a fresh tmpfs folder of ``size`` bytes; every one is
    unmounted when the generator is closed."""
    made: list[Path] = []

    def make(size: int) -> Path:
        where = tmp_path / f"fs{len(made)}"
        where.mkdir()
        if os.geteuid() != 0:
            pytest.skip("needs root to mount a small file system")
        proc = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
            capture_output=True,
        )
        if proc.returncode != 0:
            pytest.skip("cannot mount a tmpfs here")
        made.append(where)
        return where

    yield make
    for where in reversed(made):
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path, leave: int) -> Path:
    """Fill the file system of ``folder`` until ``leave`` bytes are free."""
    fs = os.statvfs(folder)
    free = fs.f_bavail * fs.f_frsize
    filler = folder / "filler"
    with open(filler, "wb") as f:
        f.write(b"\0" * max(0, free - leave))
    return filler


def read_only(folder: Path) -> None:
    """Remount the tmpfs at ``folder`` read-only."""
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
