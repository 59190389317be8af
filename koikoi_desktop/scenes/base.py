"""The scene base class and the scene stack (lifecycle: enter, exit, pause, resume).

A scene is one screen. The stack calls ``enter`` when a scene is pushed, ``pause`` on the scene
below it, ``exit`` when it is popped and ``resume`` on the one uncovered. ``draw`` is read-only:
it must not change game state (the app may call it any number of times). A scene with
``opaque = False`` (the pause menu, a prompt) is drawn over the scene below it.

The stack needs no display: tests drive it with plain objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pygame


class Scene:
    """One screen. Subclasses override what they need; every method has a harmless default.

    ``app`` is the running :class:`koikoi_desktop.app.App` (or a test double): scenes reach the
    stack (``app.stack``), settings, storage and the window size through it.
    """

    name = ""
    opaque = True

    def __init__(self, app: Any, **kwargs: Any) -> None:
        self.app = app
        self.kwargs = kwargs

    def enter(self) -> None:
        """Pushed onto the stack."""

    def exit(self) -> None:
        """Popped off the stack."""

    def pause(self) -> None:
        """Another scene was pushed on top."""

    def resume(self) -> None:
        """The scene on top was popped; this one is on top again."""

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: recompute the layout."""

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event (only the top scene receives events)."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (only the top scene is updated, unless ``live_below``)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; read-only."""


class SceneStack:
    """A stack of scenes with lifecycle calls. ``top`` gets events and updates."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def __len__(self) -> int:
        return len(self.scenes)

    def names(self) -> list[str]:
        return [s.name for s in self.scenes]

    def push(self, scene: Scene) -> Scene:
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.exit()
        if self.scenes:
            self.scenes[-1].resume()
        return scene

    def replace(self, scene: Scene) -> Scene:
        """Swap the top scene for ``scene`` (the one below is not resumed in between)."""
        if self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def reset(self, scene: Scene) -> Scene:
        """Empty the stack (exiting every scene, top first) and start from ``scene``."""
        while self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def find(self, name: str) -> Scene | None:
        for s in reversed(self.scenes):
            if s.name == name:
                return s
        return None

    def pop_to(self, name: str) -> Scene | None:
        """Pop scenes until the one named ``name`` is on top (returns it, or None if absent)."""
        if self.find(name) is None:
            return None
        while self.scenes and self.scenes[-1].name != name:
            self.pop()
        return self.top

    def handle(self, event: pygame.event.Event) -> None:
        if self.scenes:
            self.scenes[-1].handle(event)

    def update(self, dt: float) -> None:
        if self.scenes:
            self.scenes[-1].update(dt)

    def resize(self, size: tuple[int, int]) -> None:
        for s in self.scenes:
            s.resize(size)

    def draw(self, surface: pygame.Surface) -> None:
        start = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                start = i
                break
        for s in self.scenes[start:]:
            s.draw(surface)
