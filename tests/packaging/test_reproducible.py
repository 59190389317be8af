"""Two builds of the same commit on one machine are the same, file for file and byte for byte,
and so are their archives and checksums.

The session's build (``linux_dist``) is compared with a second one made here (20-60 s).

What makes them identical (packaging/build.py): PyInstaller runs with a fixed PYTHONHASHSEED
(it writes ``base_library.zip`` in the order of a set of module names, which otherwise changes
from run to run) and SOURCE_DATE_EPOCH (the Windows program's link time); its ``.pyc`` files
use hash-based headers, not source timestamps. The archive's members are sorted, with one
timestamp, no owner names, normalised modes and a gzip header without a date. So nothing is
left out of the comparison: no file of the bundle differs, not even in its timestamps inside.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.packaging.helpers import NAME, build

pytestmark = pytest.mark.slow


def manifest(root: Path) -> dict[str, tuple[str, int, str]]:
    """Relative path -> (kind, size, SHA-256 or link target) of everything under ``root``."""
    out: dict[str, tuple[str, int, str]] = {}
    for p in root.rglob("*"):
        rel = p.relative_to(root).as_posix()
        if p.is_symlink():
            out[rel] = ("link", 0, str(p.readlink()))
        elif p.is_dir():
            out[rel] = ("dir", 0, "")
        else:
            out[rel] = ("file", p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest())
    return out


def test_two_builds_give_the_same_files_and_archive(linux_dist: Path, tmp_path: Path) -> None:
    second = tmp_path / "dist"
    build(second)
    first_files, second_files = manifest(linux_dist / NAME), manifest(second / NAME)
    assert len(first_files) > 100
    assert sorted(first_files) == sorted(second_files), "the file lists differ"
    sizes = [k for k in first_files if first_files[k][1] != second_files[k][1]]
    assert sizes == [], f"sizes differ: {sizes}"
    contents = [k for k in first_files if first_files[k] != second_files[k]]
    assert contents == [], f"contents differ: {contents}"

    sums = f"{NAME}-linux.tar.gz.sha256"
    assert (linux_dist / sums).read_bytes() == (second / sums).read_bytes()
