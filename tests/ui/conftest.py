"""Fixtures for the UI tests: an App with a (dummy-driver) window, and a table ready to play."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def ui_app(tmp_path: Path) -> Iterator[Any]:
    from koikoi_desktop import app as app_mod

    args = app_mod.parse_args(["--data-dir", str(tmp_path / "data"), "--speed", "off"])
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    yield a
    while a.stack.top is not None:
        a.stack.pop()
    import pygame

    pygame.display.quit()


def pump(scene: Any, until: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Update ``scene`` (1/60 s per step) until ``until()`` or the timeout (computer moves run
    in a worker thread, so real time must pass too)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if until():
            return True
        scene.update(1 / 60)
        time.sleep(0.0005)
    return until()


@pytest.fixture
def pump_fn() -> Callable[..., bool]:
    return pump
