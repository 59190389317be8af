"""The scene base class and the scene stack (lifecycle: enter, exit, pause, resume).

A scene is one screen. The stack calls ``enter`` when a scene is pushed, ``pause`` on the scene
below it, ``exit`` when it is popped and ``resume`` on the one uncovered. ``draw`` is read-only:
it must not change game state (the app may call it any number of times). A scene with
``opaque = False`` (the pause menu, a prompt) is drawn over the scene below it.

The stack needs no display: tests drive it with plain objects.

Scenes reach the running game through :class:`AppServices` (the :class:`koikoi_desktop.app.App`
implements it; a test may pass any object with the parts a scene uses).
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pygame

    from koikoi_desktop.assets import CardSprites
    from koikoi_desktop.i18n import Words
    from koikoi_desktop.scenes.screens import Screen
    from koikoi_desktop.storage import Notice, Storage
    from koikoi_desktop.storage.models import Settings
    from koikoi_desktop.ui.audio import Audio
    from koikoi_desktop.ui.input import Intent
    from koikoi_desktop.ui.settings_service import SettingsService
    from koikoi_desktop.ui.sound_cues import SoundCues


class Router(Protocol):
    """Builds the scene of a screen's record (``app.router``; the records, one per screen, are
    :mod:`koikoi_desktop.scenes.screens`).

    Decision: a scene opens another by its record instead of importing its module, so the
    screens, which open each other in circles (title -> table -> pause -> title), import none
    of each other, and mypy checks every argument (the record's fields).
    ``koikoi_desktop.scenes.SceneRouter`` implements it, importing each screen's module when it is
    first built (start-up cost).
    """

    def build(self, screen: Screen) -> Scene: ...


class AppServices(Protocol):
    """What a scene may use of the running app: the stack, the window's size and scale, the
    player's settings, storage, card art, the animation preferences, and a few commands."""

    stack: SceneStack
    size: tuple[int, int]
    autoplay: bool
    #: ``--autoplay --record``: computer-vs-computer matches go into the ledger (marked).
    record_autoplay: bool
    seed: int | None
    storage: Storage | None
    sprites: CardSprites | None
    #: One-line notices (storage's, worded when shown; a refused setting of the display).
    warnings: list[Notice | str]
    #: Where computer opponents think (None: their own worker; tests inject an inline one).
    ai_executor: Executor | None
    #: The coach's budget (worlds per judgement): None, the coach's own (the review's); tests
    #: lower it.
    coach_worlds: int | None
    #: The one audio player (None until the window is open, or without a device).
    audio: Audio | None
    #: Which sound effect goes with what the table shows (``ui/sound_cues.py``).
    cues: SoundCues
    #: Builds a screen's scene from its record (:class:`Router`).
    router: Router
    #: The one settings service: a change is ``new = prefs.draft()``, set its fields (checked
    #: by pydantic and mypy), ``prefs.apply(new)``; every screen on the stack is then told
    #: (:meth:`Scene.settings_changed`).
    prefs: SettingsService

    @property
    def settings(self) -> Settings:
        """The live settings model: read its fields (``app.settings.help_level``)."""
        ...

    # what derives from the settings, computed when read (``prefs``), never set by a screen
    @property
    def words(self) -> Words:
        """The language and name style to word everything in, read when drawn."""
        ...

    @property
    def ui_scale(self) -> float: ...

    @property
    def anim_speed(self) -> str: ...

    @property
    def reduced_motion(self) -> bool: ...

    @property
    def click_mode(self) -> bool:
        """Settings "click to move (instead of dragging)": a held card never follows the
        pointer; every press on a card is a click (click the card, then where it goes)."""
        ...

    @property
    def fullscreen(self) -> bool: ...

    def toggle_fullscreen(self) -> None: ...

    def has_autosave(self) -> bool: ...

    def continue_match(self) -> bool: ...

    # The one quit path (issue 46): a screen asks to leave and the app decides what to ask
    # first; no screen can end the run itself (the protocol has no ``quit``).
    def request_quit(self, *, match_saved: bool = False) -> None: ...

    def confirm_quit(self) -> None: ...

    def match_finished(self) -> bool: ...


class Scene:
    """One screen. Subclasses override what they need; every method has a harmless default.

    ``app`` is the running app (:class:`AppServices`): scenes reach the stack (``app.stack``),
    settings, storage and the window size through it.
    """

    name = ""
    opaque = True

    def __init__(self, app: AppServices) -> None:
        self.app = app

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

    def settings_changed(self, changed: frozenset[str]) -> None:
        """The player changed these settings fields (``app.prefs``): take them at once, on
        the stack under the settings screen too (after a UI scale change the app has resized
        every scene already)."""

    def handle(self, intent: Intent) -> None:
        """One intent (only the top scene receives input; the app translated the event)."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (only the top scene is updated, unless ``live_below``)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; read-only."""

    def still_for(self) -> float:
        """How many seconds the scene will look the same if no input comes (asked after each
        frame; the app sleeps until an event or this deadline): 0 while something moves,
        ``math.inf`` when only input changes it.

        The default: a scene without its own :meth:`update` changes only on input (``inf``);
        one with an ``update`` is taken to move (0) unless it says better.
        """
        return math.inf if type(self).update is Scene.update else 0.0


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

    def handle(self, intent: Intent) -> None:
        if self.scenes:
            self.scenes[-1].handle(intent)

    def update(self, dt: float) -> None:
        if self.scenes:
            self.scenes[-1].update(dt)

    def still_for(self) -> float:
        """How long the screen stays the same without input: the top scene's answer (only the
        top scene is updated; a scene drawn under a see-through one does not change)."""
        return self.scenes[-1].still_for() if self.scenes else math.inf

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
