"""Screens, registered by name, imported lazily.

``REGISTRY`` maps a scene name to ``"module:ClassName"``. To add a screen, write the module (e.g.
``koikoi_desktop/scenes/month_reference.py``) with a class deriving from
:class:`koikoi_desktop.scenes.base.Scene` whose constructor is ``(app, **kwargs)`` and register
it here. Decision: modules are imported when a screen is first created (the title does not pay
for the ledger's imports); a registered name whose module or class is missing is a bug and
raises at once (``tests/ui/test_scenes.py`` creates every registered screen).
"""

from __future__ import annotations

import importlib
from typing import Any

from koikoi_desktop.scenes.base import AppServices, Scene, SceneStack

REGISTRY: dict[str, str] = {
    "title": "koikoi_desktop.scenes.title:TitleScene",
    "new-game": "koikoi_desktop.scenes.new_game:NewGameScene",
    "table": "koikoi_desktop.scenes.table:TableScene",
    "round-summary": "koikoi_desktop.scenes.round_summary:RoundSummaryScene",
    "match-result": "koikoi_desktop.scenes.match_result:MatchResultScene",
    "pause": "koikoi_desktop.scenes.pause:PauseScene",
    "month-reference": "koikoi_desktop.scenes.month_reference:MonthReferenceScene",
    "quiz": "koikoi_desktop.scenes.quiz:QuizScene",
    "yaku-reference": "koikoi_desktop.scenes.yaku_reference:YakuReferenceScene",
    "rules": "koikoi_desktop.scenes.rules_screen:RulesScene",
    "tutorial": "koikoi_desktop.scenes.tutorial:TutorialScene",
    "settings": "koikoi_desktop.scenes.settings_screen:SettingsScene",
    "ledger": "koikoi_desktop.scenes.ledger:LedgerScene",
    "about": "koikoi_desktop.scenes.rules_screen:HanafudaHistoryScene",
    "credits": "koikoi_desktop.scenes.about:CreditsScene",
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
    "quiz",
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
    """The class registered under ``name`` (``KeyError`` for a name not registered)."""
    module_name, _, class_name = REGISTRY[name].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Scene)):
        raise TypeError(f"{REGISTRY[name]} is not a Scene")
    return cls


def create(name: str, app: AppServices, **kwargs: Any) -> Scene:
    """Instantiate the scene registered as ``name``."""
    scene = scene_class(name)(app, **kwargs)
    if not scene.name:
        scene.name = name
    return scene


__all__ = ["CLI_SCENES", "REGISTRY", "Scene", "SceneStack", "create", "scene_class"]
