"""The packaged Linux build, made once per test session for every test that needs it.

The build installs nothing (PyInstaller comes with the ``test`` extra of the README's test
command); it takes 20-60 s.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.packaging.helpers import build


@pytest.fixture(scope="session")
def linux_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not sys.platform.startswith("linux"):
        pytest.skip("the Linux bundle")
    out = tmp_path_factory.mktemp("dist")
    build(out)
    return out
