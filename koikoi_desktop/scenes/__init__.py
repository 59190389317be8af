"""Screens, built by typed constructors, each module imported when its screen is first built.

:class:`SceneFactory` implements :class:`~koikoi_desktop.scenes.base.Screens`: one method per
screen, with the screen's own keyword arguments, so mypy checks every call (the app holds one as
``app.screens``; a scene opens another with ``self.app.screens.review(record=…)``). ``REGISTRY``
names the screens that open with no arguments (tests, ``create(name, app)``); ``CLI_SCENES``, the
names ``--scene NAME`` accepts, is derived from it, ``FAST_FORWARD`` (screens of a seeded match)
and ``NOT_FROM_THE_COMMAND_LINE`` (registered screens left out, each with its reason).

To add a screen, write the module (a class deriving from :class:`Scene`), add its method here and
to the ``Screens`` protocol, and its name to ``REGISTRY`` if it opens without arguments.

Decision: each method imports its screen's module inside the method (a plain ``import``, which
mypy and the import-circle test read), not at the top of this module: importing every screen at
start-up costs about 0.35 s on this machine (``python -m koikoi_desktop --frames 1`` starts in
about 0.7 s with the title alone), so the title does not pay for the ledger's or the review's
imports. No ``importlib.import_module``: nothing is looked up by a string.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from koikoi_desktop.scenes.base import AppServices, FastForward, Scene, SceneStack, Screens

if TYPE_CHECKING:
    from pathlib import Path

    from koikoi_desktop.engine import Rules
    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.storage.recorder import Resumed
    from koikoi_desktop.words.names import Names


class SceneFactory:
    """The screens of ``app``, built on request (see :class:`Screens`)."""

    def __init__(self, app: AppServices) -> None:
        self.app = app

    def title(self) -> Scene:
        from koikoi_desktop.scenes.title import TitleScene

        return TitleScene(self.app)

    def new_game(self) -> Scene:
        from koikoi_desktop.scenes.new_game import NewGameScene

        return NewGameScene(self.app)

    def table(
        self,
        *,
        config: MatchConfig | None = None,
        autoplay: bool = False,
        seed: int | None = None,
        preset: str | None = None,
        fast_forward: FastForward | None = None,
        autosave: Resumed | None = None,
    ) -> Scene:
        from koikoi_desktop.scenes.table.scene import TableScene

        return TableScene(
            self.app,
            config=config,
            autoplay=autoplay,
            seed=seed,
            preset=preset,
            fast_forward=fast_forward,
            autosave=autosave,
        )

    def tutorial(self) -> Scene:
        """The guided first round: the table, with a lesson as its guide."""
        from koikoi_desktop.scenes.table.scene import TableScene
        from koikoi_desktop.scenes.tutorial import LessonGuide, lesson_config

        return TableScene(
            self.app, config=lesson_config(self.app), guide=LessonGuide(), name="tutorial"
        )

    def pause(self) -> Scene:
        """The pause menu with no table under it (the table opens its own, over itself)."""
        from koikoi_desktop.scenes.pause import PauseScene

        return PauseScene(self.app)

    def settings(self) -> Scene:
        from koikoi_desktop.scenes.settings_screen import SettingsScene

        return SettingsScene(self.app)

    def ledger(self) -> Scene:
        from koikoi_desktop.scenes.ledger import LedgerScene

        return LedgerScene(self.app)

    def review(
        self,
        *,
        record: str = "",
        match_id: str | None = None,
        names: Names | None = None,
        viewer: int = 0,
        start_round: int | None = None,
        rounds: Sequence[int] | None = None,
        settled_only: bool = False,
        seats: tuple[str, str] | None = None,
        inline: bool = False,
    ) -> Scene:
        from koikoi_desktop.scenes.review.scene import ReviewScene

        return ReviewScene(
            self.app,
            record=record,
            match_id=match_id,
            names=names,
            viewer=viewer,
            start_round=start_round,
            rounds=rounds,
            settled_only=settled_only,
            seats=seats,
            inline=inline,
        )

    def rules(
        self, *, page: str = "turn", rules: Rules | str | None = None, preset: str | None = None
    ) -> Scene:
        from koikoi_desktop.scenes.rules_screen import RulesScene

        return RulesScene(self.app, page=page, rules=rules, preset=preset)

    def hanafuda_history(self) -> Scene:
        from koikoi_desktop.scenes.rules_screen import HanafudaHistoryScene

        return HanafudaHistoryScene(self.app)

    def credits(self) -> Scene:
        from koikoi_desktop.scenes.about import CreditsScene

        return CreditsScene(self.app)

    def month_reference(
        self, *, month: int | None = None, card: int = 0, rules: Rules | str | None = None
    ) -> Scene:
        from koikoi_desktop.scenes.month_reference import MonthReferenceScene

        return MonthReferenceScene(self.app, month=month, card=card, rules=rules)

    def yaku_reference(self, *, rules: Rules | str | None = None, yaku: str | None = None) -> Scene:
        from koikoi_desktop.scenes.yaku_reference import YakuReferenceScene

        return YakuReferenceScene(self.app, rules=rules, yaku=yaku)

    def quiz(
        self, *, seed: int | None = None, on_leave: Callable[[int], None] | None = None
    ) -> Scene:
        from koikoi_desktop.scenes.quiz import QuizScene

        return QuizScene(self.app, seed=seed, on_leave=on_leave)

    def unsaved(self) -> Scene:
        from koikoi_desktop.scenes.unsaved import UnsavedScene

        return UnsavedScene(self.app)

    def menu_offer(self, *, bundle: Path) -> Scene:
        from koikoi_desktop.scenes.menu_offer import MenuOfferScene

        return MenuOfferScene(self.app, bundle)


#: The screens that open with no arguments, by the name a scene carries (``Scene.name``).
REGISTRY: dict[str, Callable[[SceneFactory], Scene]] = {
    "title": SceneFactory.title,
    "new-game": SceneFactory.new_game,
    "table": SceneFactory.table,
    "pause": SceneFactory.pause,
    "month-reference": SceneFactory.month_reference,
    "quiz": SceneFactory.quiz,
    "yaku-reference": SceneFactory.yaku_reference,
    "rules": SceneFactory.rules,
    "tutorial": SceneFactory.tutorial,
    "settings": SceneFactory.settings,
    "ledger": SceneFactory.ledger,
    "about": SceneFactory.hanafuda_history,
    "credits": SceneFactory.credits,
    "unsaved": SceneFactory.unsaved,
    "review": SceneFactory.review,
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
    return REGISTRY[name](SceneFactory(app))


__all__ = [
    "CLI_SCENES",
    "FAST_FORWARD",
    "NOT_FROM_THE_COMMAND_LINE",
    "REGISTRY",
    "Scene",
    "SceneFactory",
    "SceneStack",
    "Screens",
    "create",
]
