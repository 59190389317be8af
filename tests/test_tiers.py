"""The quick tier (``python -m pytest -m quick``, README): what ``tests/conftest.py`` marks."""

from __future__ import annotations

import ast
from pathlib import Path

from .conftest import SLOW

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("abuse", "ai", "engine", "review", "storage", "ui")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test")
    }


def test_every_slow_name_is_a_test_of_its_file() -> None:
    for rel, names in SLOW.items():
        path = ROOT / rel
        assert path.is_file(), rel
        stale = set(names) - {"*"} - _tests_in(path)
        assert not stale, f"{rel}: no such test {sorted(stale)}"


def test_the_quick_tier_keeps_tests_of_every_package() -> None:
    """Each package's test folder keeps quick tests: a file not wholly slow with a test that is
    not listed (markers in the files themselves are not read here; they mark few tests)."""
    for pkg in PACKAGES:
        kept = [
            name
            for path in sorted((ROOT / "tests" / pkg).glob("test_*.py"))
            if "*" not in SLOW.get(path.relative_to(ROOT).as_posix(), ())
            for name in _tests_in(path) - set(SLOW.get(path.relative_to(ROOT).as_posix(), ()))
        ]
        assert kept, pkg
