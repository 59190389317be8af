"""Screens: the router that builds a screen's scene from its record, each module imported when
its screen is first built.

Every screen is declared once, as a record in :mod:`koikoi_desktop.scenes.screens` (its
arguments, typed). :func:`build` turns a record into its scene; the app holds a :class:`Router`
(``app.router``) and a scene opens another with
``self.app.stack.push(self.app.router.build(screens.Review(record=…)))``. ``REGISTRY`` names the
screens that open with no arguments (tests, ``create(name, app)``); ``CLI_SCENES``, the names
``--scene NAME`` accepts, is derived from it, ``FAST_FORWARD`` (screens of a seeded match) and
``NOT_FROM_THE_COMMAND_LINE`` (registered screens left out, each with its reason).

Decision: each case imports its screen's module inside the case (a plain ``import``, which mypy
and the import-circle test read), not at the top of this module: importing every screen at
start-up costs about 0.35 s on this machine (``python -m koikoi_desktop --frames 1`` starts in
about 0.7 s with the title alone), so the title does not pay for the ledger's or the review's
imports. No ``importlib.import_module``: nothing is looked up by a string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices, Scene, SceneStack
from koikoi_desktop.scenes.screens import FastForward, Screen


def build(app: AppServices, screen: Screen) -> Scene:
    """The scene of ``screen`` (a record of :mod:`~koikoi_desktop.scenes.screens`) for ``app``."""
    match screen:
        case screens.Title():
            from koikoi_desktop.scenes.title import TitleScene

            return TitleScene(app)
        case screens.NewGame():
            from koikoi_desktop.scenes.new_game import NewGameScene

            return NewGameScene(app)
        case screens.Table():
            from koikoi_desktop.scenes.table.scene import TableScene

            return TableScene(app, screen)
        case screens.Tutorial():
            from koikoi_desktop.scenes.table.scene import TableScene
            from koikoi_desktop.scenes.tutorial import LessonGuide, lesson_config

            lesson = screens.Table(config=lesson_config(app))
            return TableScene(app, lesson, guide=LessonGuide(), name="tutorial")
        case screens.Pause():
            from koikoi_desktop.scenes.pause import PauseScene

            return PauseScene(app)
        case screens.Settings():
            from koikoi_desktop.scenes.settings_screen import SettingsScene

            return SettingsScene(app)
        case screens.Ledger():
            from koikoi_desktop.scenes.ledger.listing import LedgerListScene

            return LedgerListScene(app, screen)
        case screens.LedgerMatch():
            from koikoi_desktop.scenes.ledger.match import LedgerMatchScene

            return LedgerMatchScene(app, screen)
        case screens.LedgerStats():
            from koikoi_desktop.scenes.ledger.statistics import LedgerStatsScene

            return LedgerStatsScene(app, screen)
        case screens.Review():
            from koikoi_desktop.scenes.review.scene import ReviewScene

            return ReviewScene(app, screen)
        case screens.Rules():
            from koikoi_desktop.scenes.rules_screen import RulesScene

            return RulesScene(app, screen)
        case screens.History():
            from koikoi_desktop.scenes.rules_screen import HanafudaHistoryScene

            return HanafudaHistoryScene(app)
        case screens.Credits():
            from koikoi_desktop.scenes.about import CreditsScene

            return CreditsScene(app)
        case screens.MonthReference():
            from koikoi_desktop.scenes.month_reference import MonthReferenceScene

            return MonthReferenceScene(app, screen)
        case screens.YakuReference():
            from koikoi_desktop.scenes.yaku_reference import YakuReferenceScene

            return YakuReferenceScene(app, screen)
        case screens.Quiz():
            from koikoi_desktop.scenes.quiz import QuizScene

            return QuizScene(app, screen)
        case screens.Unsaved():
            from koikoi_desktop.scenes.unsaved import UnsavedScene

            return UnsavedScene(app)
        case screens.MenuOffer():
            from koikoi_desktop.scenes.menu_offer import MenuOfferScene

            return MenuOfferScene(app, screen)
        case _:
            assert_never(screen)


class SceneRouter:
    """The screens of ``app``, built on request (``app.router``; see :func:`build`)."""

    def __init__(self, app: AppServices) -> None:
        self.app = app

    def build(self, screen: Screen) -> Scene:
        return build(self.app, screen)


#: The screens that open with no arguments, by the name a scene carries (``Scene.name``).
REGISTRY: dict[str, Callable[[], Screen]] = {
    "title": screens.Title,
    "new-game": screens.NewGame,
    "table": screens.Table,
    "pause": screens.Pause,
    "month-reference": screens.MonthReference,
    "quiz": screens.Quiz,
    "yaku-reference": screens.YakuReference,
    "rules": screens.Rules,
    "tutorial": screens.Tutorial,
    "settings": screens.Settings,
    "ledger": screens.Ledger,
    "ledger-match": screens.LedgerMatch,
    "ledger-stats": screens.LedgerStats,
    "about": screens.History,
    "credits": screens.Credits,
    "unsaved": screens.Unsaved,
    "review": screens.Review,
}

#: ``--scene NAME`` for a screen of a seeded match: its table, played on to where ``NAME`` shows
#: (the app builds these; ``None``: the table itself).
FAST_FORWARD: dict[str, FastForward | None] = {
    "table": None,
    "round-summary": "round-summary",
    "match-result": "match-result",
    "review": "match-result",  # the match's review, opened from its result
}

#: Registered screens that ``--scene`` does not open, each with the reason: the one place that
#: leaves a screen out of the command line (a test holds every other name to a screenshot).
NOT_FROM_THE_COMMAND_LINE: dict[str, str] = {
    "pause": "the pause menu pauses a match: with no table under it there is nothing to resume, "
    "save or concede (a table opens it over itself)",
    "unsaved": "it lists the finished matches the disk refused in this session, which a fresh "
    "start has none of (the app opens it at quit when there are some)",
}

#: Names accepted by ``--scene``: every registered screen but those above, then the screens of
#: a seeded match. Derived, never listed a second time.
CLI_SCENES: tuple[str, ...] = tuple(
    dict.fromkeys([*(n for n in REGISTRY if n not in NOT_FROM_THE_COMMAND_LINE), *FAST_FORWARD])
)


def create(name: str, app: AppServices) -> Scene:
    """The screen registered as ``name``, with no arguments (``KeyError`` for another name)."""
    return build(app, REGISTRY[name]())


__all__ = [
    "CLI_SCENES",
    "FAST_FORWARD",
    "NOT_FROM_THE_COMMAND_LINE",
    "REGISTRY",
    "Scene",
    "SceneRouter",
    "SceneStack",
    "Screen",
    "build",
    "create",
    "screens",
]
