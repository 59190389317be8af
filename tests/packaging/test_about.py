"""The credits-and-licences screen (``credits``): version, licences, fitted text, navigation."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

from koikoi_desktop import __version__, i18n, scenes
from koikoi_desktop.i18n import ENGLISH, Words, say
from koikoi_desktop.scenes.about import CreditsScene, notices_folder
from koikoi_desktop.scenes.base import SceneStack
from koikoi_desktop.ui import gfx

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fonts() -> Any:
    pygame.font.init()
    yield


def make_app(size: tuple[int, int] = (1280, 800), words: Words = ENGLISH) -> Any:
    app = SimpleNamespace(size=size, ui_scale=1.0, stack=SceneStack(), words=words)
    app.router = scenes.SceneRouter(app)
    return app


def test_registered_as_credits_and_reachable_from_the_command_line() -> None:
    assert "credits" in scenes.CLI_SCENES
    scene = scenes.create("credits", make_app())
    assert type(scene) is CreditsScene and scene.name == "credits"


def test_shows_version_licences_and_where_the_notices_are() -> None:
    scene = CreditsScene(make_app())
    assert __version__ in say(scene.subheading, ENGLISH)
    text = " ".join(" ".join([t, *ps]) for t, ps in scene.sections())
    for needle in ("MIT", "BY-SA 4.0", "LGPL 2.1", "zlib", "Open Font License", pygame.version.ver):
        assert needle in text, needle
    assert notices_folder() == ROOT
    assert "THIRD_PARTY_NOTICES.md" in text
    assert str(ROOT) not in text  # told in words, not as a raw path (issue 16)


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_every_language_fits_the_panel(code: str, size: tuple[int, int]) -> None:
    scene = CreditsScene(make_app(size, Words(code)))
    scene.enter()
    surface = pygame.Surface(size)
    scene.draw(surface)
    panel = scene.panel_rect()
    inner = panel.inflate(-int(48 * scene.scale), -int(36 * scene.scale))
    font, lines = scene.layout(inner)
    assert len(lines) * int(font * 1.45) <= inner.h
    assert all(gfx.measure(t, font, bold=b)[0] <= inner.w for t, b in lines if t)
    assert font >= 12
    # The buttons sit below the panel, inside the window.
    assert all(b.rect.top > panel.bottom and b.rect.bottom <= size[1] for b in scene.buttons)
    # Every title is a translated string, not a key.
    assert not any(t.startswith("ui.") for t, _ in lines)


def test_back_returns_to_the_screen_below() -> None:
    app = make_app()
    title_app = SimpleNamespace(
        size=(1280, 800),
        ui_scale=1.0,
        stack=app.stack,
        has_autosave=lambda: False,
        request_quit=lambda **_: None,
        storage=None,
        warnings=[],
    )
    title_app.router = scenes.SceneRouter(title_app)
    below = scenes.create("title", title_app)
    app.stack.push(below)
    app.stack.push(CreditsScene(app))
    app.stack.top.on_back()
    assert app.stack.top is below


def test_versions_without_package_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    """A packaged build may keep a module without its metadata: fall back to __version__."""
    import platformdirs

    from koikoi_desktop.scenes import about

    def missing(name: str) -> str:
        raise about.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(about.metadata, "version", missing)
    versions = about.library_versions()
    assert versions["platformdirs"] == platformdirs.__version__
    assert versions["pydantic"] != "?"
