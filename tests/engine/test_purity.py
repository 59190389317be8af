"""The engine stays pure (ARCHITECTURE.md): no pygame, no files, no clock, no global random.

Read from the source (ast), so a new engine module is checked the day it is written:

* it imports only the standard library's pure modules, pydantic and the engine itself;
* it opens no file and calls none of the ``random`` module's functions — randomness comes in as
  a ``random.Random`` the caller seeded (``random.Random(seed)`` with an explicit seed is the
  one construction allowed);
* importing it loads no pygame and no platformdirs (a fresh interpreter).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import koikoi_desktop.engine

ENGINE = Path(koikoi_desktop.engine.__file__).parent
MODULES = sorted(ENGINE.glob("*.py"))

#: Imports an engine module may make (top-level package names).
ALLOWED = {
    "__future__",
    "collections",
    "dataclasses",
    "enum",
    "functools",
    "hashlib",  # chance streams and the deals' commitment (pure functions of their input)
    "itertools",
    "json",  # text records (notation), never a file
    "math",
    "pydantic",
    "random",  # for the ``random.Random`` type and seeded instances only
    "re",
    "struct",  # chance.deck reads its SHAKE-256 stream as 16-bit numbers
    "types",
    "typing",
    "koikoi_desktop",
}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_engine_imports_only_pure_modules() -> None:
    assert MODULES
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        stray = _imports(tree) - ALLOWED
        assert not stray, f"{path.name} imports {sorted(stray)}"
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("koikoi_desktop.")
            ):
                assert node.module.startswith("koikoi_desktop.engine"), (path.name, node.module)


def test_the_engine_opens_no_file_and_draws_on_no_global_random() -> None:
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            assert not (isinstance(f, ast.Name) and f.id == "open"), path.name
            if (
                isinstance(f, ast.Attribute)
                and isinstance(f.value, ast.Name)
                and f.value.id == "random"
            ):
                assert f.attr == "Random" and node.args, (
                    f"{path.name}:{node.lineno} random.{f.attr}(): pass a seeded Random in"
                )


def test_importing_the_engine_loads_no_pygame_or_platformdirs() -> None:
    code = (
        "import sys, koikoi_desktop.engine, koikoi_desktop.engine.sim;"
        "bad = [m for m in ('pygame', 'platformdirs', 'sqlite3') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
