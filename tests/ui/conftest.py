"""Fixtures for the UI tests: an App with a (dummy-driver) window, and a table ready to play.

Tests here are bounded by frames, never by wall-clock time: the app's computer opponents decide
through the inline executor (on the frame that asks), and :func:`pump` runs a fixed number of
frames of game time, so a loaded machine can make a test slower but not red or hollow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.ai import InlineExecutor

FPS = 60
#: The longest a computer worker may take to answer before pump gives up on it (a hang).
WORKER_HANG = 120.0


@pytest.fixture
def ui_app(tmp_path: Path) -> Iterator[Any]:
    from koikoi_desktop import app as app_mod

    args = app_mod.parse_args(["--data-dir", str(tmp_path / "data"), "--speed", "off"])
    a = app_mod.App(args)
    a.ai_executor = InlineExecutor()
    a.coach_worlds = 16  # the coach judges on the frame that asks, at a small budget
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    yield a
    while a.stack.top is not None:
        a.stack.pop()
    import pygame

    pygame.display.quit()


def _settle_thinkers(app: Any) -> None:
    """A table whose computer thinks in a worker (an app without the inline executor): wait for
    the answer, so it lands on the frame after it was asked, as with the inline executor."""
    for sc in app.stack.scenes:
        controller = getattr(sc, "controller", None)
        if controller is not None:
            assert controller.thinker.settle(WORKER_HANG), "the computer's worker hangs"


def pump(scene: Any, until: Callable[[], bool], seconds: float = 20.0) -> bool:
    """Run the app's frames (the stack's update, 1/60 s of game time each) until ``until()``,
    for at most ``seconds`` of game time; returns ``until()``."""
    app = scene.app
    for _ in range(round(seconds * FPS)):
        if until():
            return True
        _settle_thinkers(app)
        app.stack.update(1 / FPS)
    return until()


@pytest.fixture
def pump_fn() -> Callable[..., bool]:
    return pump
