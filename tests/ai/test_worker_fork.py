"""The game's worker processes (the Expert's, the coach's, the review's, the sounds') start
from :func:`koikoi_desktop.ai.worker.worker_context`, and a forked one never collects what it
inherited: a full test run once hung for good in a coach worker whose collector freed an SQLite
connection left over in the parent, while another thread of the parent held SQLite's mutex."""

from __future__ import annotations

import ast
import concurrent.futures as cf
import gc
import os
import sys
from pathlib import Path

import pytest

import koikoi_desktop
from koikoi_desktop.ai.worker import worker_context

FREED: list[int] = []


class _Cycle:
    """Garbage only the collector can free (it refers to itself); says in whose process."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        FREED.append(os.getpid())


def _collect_in_the_child() -> list[int]:
    gc.collect()
    return list(FREED)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_a_forked_worker_never_collects_what_it_inherited() -> None:
    FREED.clear()
    was = gc.isenabled()
    gc.disable()  # the garbage below must still be there at the fork
    try:
        _Cycle()
        with cf.ProcessPoolExecutor(max_workers=1, mp_context=worker_context()) as pool:
            freed_there = pool.submit(_collect_in_the_child).result(timeout=60)
    finally:
        if was:
            gc.enable()
    assert freed_there == []  # the child left it alone
    gc.collect()
    freed_here = list(FREED)
    assert freed_here == [os.getpid()]  # the parent, whose garbage it is, frees it


def test_every_worker_process_starts_from_the_one_context() -> None:
    """No module but ``ai/worker.py`` chooses a start method that forks."""
    root = Path(koikoi_desktop.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        if path.name == "worker.py" and path.parent.name == "ai":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value == "fork":
                found.append(str(path.relative_to(root)))
    assert found == []
