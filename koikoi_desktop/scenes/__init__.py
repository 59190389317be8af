"""Screens, registered by name, imported lazily.

``REGISTRY`` maps a scene name to ``"module:ClassName"``. To add or replace a screen, write the
module (e.g. ``koikoi_desktop/scenes/month_reference.py``) with a class deriving from
:class:`koikoi_desktop.scenes.base.Scene` whose constructor is ``(app, **kwargs)``; nothing else
needs to change. Decision: a registered module that is not written yet (or whose class has
another name) does not break the app: :func:`create` falls back to the one ``Scene`` subclass the
module defines, and to a "coming soon" stub when the module is missing, so the team can land
screens one at a time.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from koikoi_desktop.scenes.base import Scene, SceneStack

REGISTRY: dict[str, str] = {
    "title": "koikoi_desktop.scenes.title:TitleScene",
    "new-game": "koikoi_desktop.scenes.new_game:NewGameScene",
    "table": "koikoi_desktop.scenes.table:TableScene",
    "round-summary": "koikoi_desktop.scenes.round_summary:RoundSummaryScene",
    "match-result": "koikoi_desktop.scenes.match_result:MatchResultScene",
    "pause": "koikoi_desktop.scenes.pause:PauseScene",
    "month-reference": "koikoi_desktop.scenes.month_reference:MonthReferenceScene",
    "yaku-reference": "koikoi_desktop.scenes.yaku_reference:YakuReferenceScene",
    "rules": "koikoi_desktop.scenes.rules_screen:RulesScene",
    "tutorial": "koikoi_desktop.scenes.tutorial:TutorialScene",
    "settings": "koikoi_desktop.scenes.settings_screen:SettingsScene",
    "ledger": "koikoi_desktop.scenes.ledger:LedgerScene",
    "about": "koikoi_desktop.scenes.rules_screen:AboutScene",
    "credits": "koikoi_desktop.scenes.about:AboutScene",
    "unsaved": "koikoi_desktop.scenes.unsaved:UnsavedScene",
    "review": "koikoi_desktop.scenes.review:ReviewScene",
}

#: Names accepted by ``--scene`` (screens that make sense without a match in progress,
#: plus the table and the end-of-round/match screens, which the app fills with a seeded game).
CLI_SCENES: tuple[str, ...] = (
    "title",
    "new-game",
    "table",
    "month-reference",
    "yaku-reference",
    "rules",
    "tutorial",
    "settings",
    "ledger",
    "about",
    "credits",
    "round-summary",
    "match-result",
    "review",
)


def scene_class(name: str) -> type[Scene]:
    """The class registered under ``name`` (a stub class if its module is not written yet)."""
    target = REGISTRY[name]
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        from koikoi_desktop.scenes.stub import StubScene

        return type(f"Stub_{name}", (StubScene,), {"name": name})
    cls = getattr(module, class_name, None)
    if cls is None:
        found = [
            c
            for _, c in inspect.getmembers(module, inspect.isclass)
            if c.__module__ == module.__name__ and issubclass(c, Scene)
        ]
        if not found:
            raise LookupError(f"scene module {module_name} defines no Scene subclass")
        cls = found[0]
    return cls


def create(name: str, app: Any, **kwargs: Any) -> Scene:
    """Instantiate the scene registered as ``name``."""
    scene = scene_class(name)(app, **kwargs)
    if not scene.name:
        scene.name = name
    return scene


__all__ = ["CLI_SCENES", "REGISTRY", "Scene", "SceneStack", "create", "scene_class"]
