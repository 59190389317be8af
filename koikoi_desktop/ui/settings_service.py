"""The one settings service: the player's settings model and what derives from it.

The :class:`~koikoi_desktop.storage.models.Settings` model is the only home of a setting (the
storage's object once the data folder is open). What the screens use is computed from it when
asked, never copied: the words (language and name style), the UI scale, the animation speed,
reduced motion, click-to-move and the help level. A change is a whole new model, checked by
pydantic and by mypy (no field names in strings)::

    new = app.prefs.draft()
    new.help_level = "none"        # validate_assignment: a refused value raises here
    app.prefs.apply(new)

``apply`` checks the model once more, makes the new words first (a language the catalogs lack
is refused before anything changes), puts the model in place, saves it, and tells every
observer which fields changed, so the screen under the settings takes the change at once.

Decision: the command line's ``--lang`` and ``--speed`` are the start's choices, not settings:
they win until the player changes that setting (then the setting speaks).
"""

from __future__ import annotations

from collections.abc import Callable

from koikoi_desktop import i18n
from koikoi_desktop.storage import Storage
from koikoi_desktop.storage.models import Settings

#: The fields the audio player takes (``Audio.apply_settings``).
AUDIO_FIELDS = frozenset({"sound_volume", "music_volume", "muted"})

#: Told the names of the fields a change changed (only when some did).
Observer = Callable[[frozenset[str]], None]


class SettingsService:
    """The live settings and their derived values (see the module's docstring)."""

    def __init__(self, *, language: str | None = None, speed: str | None = None) -> None:
        self.storage: Storage | None = None
        self._own = Settings()
        self._language = language
        self._speed = speed
        self._words: i18n.Words | None = None
        self._observers: list[Observer] = []

    def attach(self, storage: Storage) -> None:
        """Read and save the settings through the opened data folder from now on."""
        self.storage = storage
        self._words = None

    @property
    def model(self) -> Settings:
        """The live model: always ``storage.settings`` when storage is open (a reload after a
        damaged file may put a new object there; a copy kept here would go stale). Without
        storage (tests, a broken data folder) the service's own model, all defaults."""
        return self.storage.settings if self.storage is not None else self._own

    def draft(self) -> Settings:
        """A copy of the model to change and :meth:`apply` (changing it changes nothing)."""
        return self.model.model_copy(deep=True)

    def observe(self, observer: Observer) -> None:
        self._observers.append(observer)

    # ------------------------------------------------------------------ derived values
    @property
    def words(self) -> i18n.Words:
        """The language and name style every screen speaks in (made again when either
        changes)."""
        s = self.model
        language = self._language or s.language
        if (
            self._words is None
            or self._words.language != language
            or self._words.name_style != s.name_display
        ):
            self._words = i18n.Words(language, s.name_display)
        return self._words

    @property
    def ui_scale(self) -> float:
        return float(self.model.ui_scale)

    @property
    def anim_speed(self) -> str:
        return self._speed or self.model.animation_speed

    @property
    def reduced_motion(self) -> bool:
        return self.model.reduced_motion

    @property
    def click_mode(self) -> bool:
        """Click to move (instead of dragging): a held card never follows the pointer."""
        return self.model.click_to_move

    @property
    def help_level(self) -> str:
        return self.model.help_level

    # ------------------------------------------------------------------ changes
    def speak(self, language: str) -> bool:
        """The player picked ``language`` (the settings' row): saved, and spoken from now on,
        even where the command line chose another and the saved one is already this."""
        new = self.draft()
        new.language = language  # type: ignore[assignment]  # validated: a Literal of codes
        spoken = self.words.language
        if new.language == self.model.language and spoken != language:
            self._language = None  # the saved language, which the command line had overruled
            self._tell(frozenset({"language"}))
        return self.apply(new)

    def apply(self, new: Settings) -> bool:
        """Make ``new`` the settings, save them and tell the observers; True when written to
        disk (a refusing disk becomes a storage warning; the running game changes anyway).

        ``new`` is checked as a whole first: a value the model refuses raises pydantic's
        ``ValidationError`` and a language without a catalog ``ValueError``; nothing changes.
        """
        checked = Settings.model_validate(new.model_dump(warnings=False))
        old = self.model
        changed = frozenset(
            name for name in Settings.model_fields if getattr(old, name) != getattr(checked, name)
        )
        if "language" in changed or "name_display" in changed:
            language = checked.language if "language" in changed else self.words.language
            # a language the catalogs lack is refused here (ValueError), before any change
            self._words = i18n.Words(language, checked.name_display)
            if "language" in changed:
                self._language = None  # the player chose: the command line's choice is done
        if "animation_speed" in changed:
            self._speed = None
        if self.storage is not None:
            self.storage.settings = checked
        else:
            self._own = checked
        saved = self.storage is not None and self.storage.save_settings()
        if changed:
            self._tell(changed)
        return saved

    def set_speed(self, speed: str) -> bool:
        """The player picked an animation speed (the settings' row): saved, and used from now
        on, even where the command line chose another and the saved one is already this."""
        new = self.draft()
        new.animation_speed = speed  # type: ignore[assignment]  # validated: a Literal
        if new.animation_speed == self.model.animation_speed and self.anim_speed != speed:
            self._speed = None  # the saved speed, which the command line had overruled
            self._tell(frozenset({"animation_speed"}))
        return self.apply(new)

    def _tell(self, changed: frozenset[str]) -> None:
        for observer in list(self._observers):
            observer(changed)
