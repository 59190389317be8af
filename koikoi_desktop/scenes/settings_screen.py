"""The settings screen: every field of the settings model, applied at once and saved.

``SettingsScene(app)``. One scrolling column of rows in five sections (general, display, sound,
game, player). Each change is written to the settings model, saved through ``Storage`` at once
(``app.prefs``: a draft of the model, changed and applied) and applied to the running app, which
tells every screen on the stack (``Scene.settings_changed``):

* language: ``app.prefs.speak`` makes the app a new ``app.words`` (every screen words its
  labels in it when it draws); the row shows the language the game speaks now, which ``--lang``
  may have chosen;
* card and yaku names: the name style of ``app.words`` (the one source of names every screen
  asks);
* UI scale: ``app.ui_scale`` (derived) and a resize of every scene on the stack;
* fullscreen: ``app.toggle_fullscreen()`` when it differs from the window's state;
* animation speed, reduced motion, click-to-move, the help level: derived from the model when
  read (``app.anim_speed`` / ``reduced_motion`` / ``click_mode``); the table under this screen
  takes them at once;
* volumes and mute: the app's audio player takes them (``App.settings_changed``).

Decisions: the default rule options offered are the ones each preset's rulebook presents as
optional (``engine.rules.PRESET_TOGGLES``), stored in ``default_options`` only where they differ
from the preset (so a preset's own default never becomes a stale override). ``window_size`` is
not shown: the window remembers its own size. The quiz score can be reset here. The player name
is saved as typed; the birth date (YYYY-MM-DD, optional) is saved once it is a valid date or empty,
and a partial or impossible date is shown in red and not saved.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import Any

import pygame
from pydantic import ValidationError

from koikoi_desktop import i18n
from koikoi_desktop.engine import PRESETS, Rules
from koikoi_desktop.engine.facts import LEVELS
from koikoi_desktop.engine.rules import PRESET_TOGGLES
from koikoi_desktop.i18n import Key, Label, Words, say
from koikoi_desktop.scenes.base import AppServices, Scene
from koikoi_desktop.scenes.defaults import default_preset
from koikoi_desktop.scenes.screen_frame import ScreenFrame, go_back
from koikoi_desktop.storage.models import Settings
from koikoi_desktop.ui import gfx, helps, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, Choice, Slider, Widget
from koikoi_desktop.words.names import preset_name, rule_label, rule_value_label

UI_SCALES = (0.75, 0.875, 1.0, 1.125, 1.25, 1.5)
OPPONENTS = LEVELS
#: Values offered for each optional rule (RULES.md §13 "toggle" rows).
OPTION_VALUES: dict[str, tuple[object, ...]] = {
    "viewing_value": (5, 3),
    "koi_multiplier": ("double_per_call", "none"),
    "trio_bonus": (None, 3),
    "match_end": ("target", "rounds"),
    "settlement": ("winner_only", "zero_sum"),
}
ROUNDS_CHOICES = {"seed-000": (12, 6, 3), "seed-003": (12, 6)}


# The settings' fields as the rows put them into a draft (typed: mypy checks each name, the
# model checks each value on assignment).
def put_help_level(s: Settings, v: Any) -> None:
    s.help_level = v


def put_coach(s: Settings, v: Any) -> None:
    s.coach = v


def put_card_badges(s: Settings, v: Any) -> None:
    s.card_badges = v


def put_click_to_move(s: Settings, v: Any) -> None:
    s.click_to_move = v


def put_reduced_motion(s: Settings, v: Any) -> None:
    s.reduced_motion = v


def put_sound_volume(s: Settings, v: Any) -> None:
    s.sound_volume = v


def put_music_volume(s: Settings, v: Any) -> None:
    s.music_volume = v


def put_muted(s: Settings, v: Any) -> None:
    s.muted = v


def put_default_opponent(s: Settings, v: Any) -> None:
    s.default_opponent = v


def put_name_display(s: Settings, v: Any) -> None:
    s.name_display = v


def put_player_name(s: Settings, v: Any) -> None:
    s.player_name = v


def put_ui_scale(s: Settings, v: float) -> None:
    s.ui_scale = v


def put_fullscreen(s: Settings, v: bool) -> None:
    s.fullscreen = v


def put_preset(s: Settings, name: str) -> None:
    s.default_preset = name
    s.default_options = {}


def put_options(s: Settings, opts: dict[str, Any]) -> None:
    s.default_options = opts


def put_birth(s: Settings, v: _dt.date | None) -> None:
    s.birth_date = v


def put_quiz_reset(s: Settings) -> None:
    s.quiz_score = s.quiz_streak = s.quiz_best_streak = 0


def with_option(
    preset: str, options: dict[str, object], field: str, value: object
) -> dict[str, object]:
    """``options`` with ``field`` set (dropped when equal to the preset), kept valid for Rules."""
    base = PRESETS[preset]
    out = {k: v for k, v in options.items() if k in Rules.model_fields and k != "based_on"}
    out[field] = value
    if field == "match_end":  # a fixed-length "year" needs rounds; a target race needs a target
        if value == "rounds":
            out.update(rounds=out.get("rounds") or 12, target_score=None)
        else:
            out.update(rounds=None, target_score=base.target_score or 50)
    if field == "rounds" and base.unit == "coins" and isinstance(value, int):
        out["starting_balance"] = base.with_rounds(value).starting_balance
    merged = {**base.model_dump(), **out}
    Rules.model_validate(merged)  # raises on an impossible combination
    return {k: v for k, v in out.items() if base.model_dump().get(k) != v}


class TextField(Widget):
    """A one-line text entry: click or Enter to edit, type, Enter to finish."""

    def __init__(
        self,
        label: Label,
        value: str,
        on_change: Callable[[str], object],
        rect: pygame.Rect | None = None,
        *,
        placeholder: Label = "",
        max_len: int = 40,
        valid: Callable[[str], bool] = lambda s: True,
    ) -> None:
        super().__init__(rect)
        self.label, self.value, self.on_change = label, value, on_change
        self.placeholder, self.max_len, self.valid = placeholder, max_len, valid
        self.editing = False

    def handle(self, intent: Intent) -> bool:
        super().handle(intent)
        if intent.kind == IntentKind.PRESS:
            inside = self.rect.collidepoint(intent.pos)
            self.editing = inside
            return inside
        return False

    def activate(self) -> None:
        self.editing = not self.editing

    def key(self, intent: Intent) -> bool:
        if not self.editing:
            return False
        if intent.kind == IntentKind.UNDO:
            self.value = self.value[:-1]
        elif intent.kind == IntentKind.CONFIRM and intent.text == " ":
            self.value = (self.value + " ")[: self.max_len]
        elif intent.kind == IntentKind.CONFIRM:
            self.editing = False
            return True
        elif intent.kind == IntentKind.KEY and intent.text and intent.text.isprintable():
            self.value = (self.value + intent.text)[: self.max_len]
        else:
            return intent.kind in (IntentKind.LEFT, IntentKind.RIGHT)
        self.on_change(self.value)
        return True

    def draw(
        self, surface: pygame.Surface, words: Words, *, focused: bool = False, font: int = 20
    ) -> None:
        pygame.draw.rect(surface, theme.BUTTON, self.rect, border_radius=6)
        gfx.blit_text(
            surface,
            say(self.label, words),
            font,
            (self.rect.x + 10, self.rect.centery),
            anchor="midleft",
            max_width=int(self.rect.w * 0.45),
        )
        box = pygame.Rect(
            self.rect.x + int(self.rect.w * 0.48),
            self.rect.y + 5,
            int(self.rect.w * 0.52) - 10,
            self.rect.h - 10,
        )
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=4)
        ok = self.valid(self.value)
        edge = theme.OCHRE if self.editing else (theme.PANEL_EDGE if ok else theme.DANGER)
        pygame.draw.rect(
            surface, edge, box, width=2 if self.editing or not ok else 1, border_radius=4
        )
        text = self.value + ("|" if self.editing else "")
        color = theme.PAPER if ok else theme.DANGER
        if not self.value and not self.editing:
            text, color = say(self.placeholder, words), theme.MUTED
        gfx.blit_text(
            surface,
            text,
            font,
            (box.x + 8, box.centery),
            color=color,
            anchor="midleft",
            max_width=box.w - 16,
        )
        if focused:
            from koikoi_desktop.ui.widgets import draw_focus

            draw_focus(surface, self.rect)


class WideChoice(Choice):
    """A Choice whose label takes all the width its value leaves (long rule names fit)."""

    def draw(
        self, surface: pygame.Surface, words: Words, *, focused: bool = False, font: int = 20
    ) -> None:
        bg = theme.BUTTON_HOVER if self.hover else theme.BUTTON
        pygame.draw.rect(surface, bg, self.rect, border_radius=6)
        pad = 10
        val = self.options[self.index][1] if self.options else ""
        text = f"‹ {say(val, words)} ›"
        vw = min(gfx.measure(text, font, bold=True)[0], int(self.rect.w * 0.6))
        gfx.blit_text(
            surface,
            text,
            font,
            (self.rect.right - pad, self.rect.centery),
            color=theme.OCHRE if self.enabled else theme.MUTED,
            bold=True,
            anchor="midright",
            max_width=vw,
        )
        self.note_back_arrow(text, font, pad, vw)
        label = say(self.label, words)
        gfx.blit_text(
            surface,
            label,
            font,
            (self.rect.x + pad, self.rect.centery),
            color=theme.PAPER if self.enabled else theme.MUTED,
            anchor="midleft",
            max_width=self.rect.w - vw - 3 * pad,
        )
        if focused:
            from koikoi_desktop.ui.widgets import draw_focus

            draw_focus(surface, self.rect)


def wide_toggle(label: Label, value: bool, on_change: Callable[[bool], None]) -> Choice:
    """An on/off row drawn like :class:`WideChoice`."""
    return WideChoice(
        label,
        [(False, Key("ui.common.off")), (True, Key("ui.common.on"))],
        value,
        on_change,
    )


def parse_date(text: str) -> _dt.date:
    """``YYYY-MM-DD`` → date; raises ValueError otherwise."""
    return _dt.date.fromisoformat(text.strip())


class SettingsScene(Scene):
    """Every setting, one row each, saved and applied on change. It holds the screen's frame
    (``self.frame``: heading, header buttons, hit regions, scale;
    :mod:`~koikoi_desktop.scenes.screen_frame`)."""

    name = "settings"

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.frame = ScreenFrame(app, heading=Key("ui.settings.title"), back=self.close)
        #: "Saved", or why a value was not (worded when drawn).
        self.message: Label = ""
        self.scroll = 0
        self.rows: list[tuple[str, Widget | None]] = []  # (section heading or "", widget)
        self.content_h = 0

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        self.build()

    def resume(self) -> None:
        self.build()

    def resize(self, size: tuple[int, int]) -> None:
        self.frame.size = size
        self.build()

    def close(self) -> None:
        go_back(self.app)

    # ------------------------------------------------------------------ model access
    def save(self, edit: Callable[[Settings], object]) -> bool:
        """Change a draft of the settings with ``edit`` (typed field assignments, each checked
        by the model) and apply it through the settings service: saved, and every screen on
        the stack, the one under this one too, takes the change at once."""
        try:
            new = self.app.prefs.draft()
            edit(new)
            self.app.prefs.apply(new)
        except ValidationError:  # a value the settings model refuses: nothing was written
            self.message = Key("ui.settings.invalid")
            return False
        self.message = Key("ui.settings.saved")
        return True

    def setter(self, put: Callable[[Settings, Any], object]) -> Callable[[Any], None]:
        """A row's callback: its value put into a draft by ``put`` and saved."""

        def cb(value: Any) -> None:
            self.save(lambda s: put(s, value))

        return cb

    # ------------------------------------------------------------------ appliers
    def set_language(self, code: str) -> None:
        """The language: saved and spoken (every screen, the ones under this one too, words
        itself in it from its next frame)."""
        try:
            self.app.prefs.speak(code)
        except ValidationError:
            self.message = Key("ui.settings.invalid")
            return
        self.message = Key("ui.settings.saved")
        self.build()

    def set_name_style(self, style: str) -> None:
        """How card and yaku names are shown: saved, and used at once by every screen."""
        self.save(lambda s: put_name_display(s, style))

    def set_scale(self, value: float) -> None:
        if self.save(lambda s: put_ui_scale(s, value)):
            self.build()  # the app resized every screen on the stack already

    def set_speed(self, value: str) -> None:
        try:
            self.app.prefs.set_speed(value)
        except ValidationError:
            self.message = Key("ui.settings.invalid")
            return
        self.message = Key("ui.settings.saved")

    def set_fullscreen(self, value: bool) -> None:
        if self.save(lambda s: put_fullscreen(s, value)) and self.app.fullscreen != value:
            self.app.toggle_fullscreen()
            if self.app.fullscreen != value:  # the display refused: said here, where it was asked
                self.message = Key("ui.settings.fullscreen_refused")

    def set_preset(self, name: str) -> None:
        if self.save(lambda s: put_preset(s, name)):
            self.build()

    def set_option(self, field: str) -> Callable[[object], None]:
        def cb(value: object) -> None:
            preset = self.preset()
            try:
                opts = with_option(preset, dict(self.app.settings.default_options), field, value)
            except ValueError:  # pydantic's ValidationError too: a combination Rules refuses
                self.message = Key("ui.settings.invalid")
                return
            self.save(lambda s: put_options(s, opts))

        return cb

    def set_birth(self, text: str) -> None:
        if not text.strip():
            self.save(lambda s: put_birth(s, None))
            return
        try:
            value = parse_date(text)
        except ValueError:
            return
        self.save(lambda s: put_birth(s, value))

    def reset_quiz(self) -> None:
        self.save(put_quiz_reset)

    def preset(self) -> str:
        return default_preset(self.app.settings)

    def option_value(self, field: str) -> object:
        opts = self.app.settings.default_options
        return opts.get(field, getattr(PRESETS[self.preset()], field))

    # ------------------------------------------------------------------ layout
    def build(self) -> None:
        """The header (Back), then the rows: each section's heading, then its widgets (one
        method a section)."""
        self.frame.build()
        rows: list[tuple[str, Widget | None]] = []
        for key, widgets in (
            ("ui.settings.section.general", self.general_rows),
            ("ui.settings.section.display", self.display_rows),
            ("ui.settings.section.sound", self.sound_rows),
            ("ui.settings.section.game", self.game_rows),
            ("ui.settings.section.player", self.player_rows),
        ):
            rows.append((key, None))
            rows += [("", w) for w in widgets()]
        self.rows = rows
        self.layout()

    def general_rows(self) -> list[Widget]:
        """Language, names, help level, the coach, card badges, click to move."""
        words = self.app.words
        s = self.app.settings
        langs = list(i18n.LANGUAGES.items())
        styles = [(v, Key(f"ui.settings.name_display.{v}")) for v in i18n.NAME_STYLES]
        levels = [(v, Key(f"ui.settings.help_level.{v}")) for v in helps.HELP_LEVELS]
        return [
            # the language the game speaks now (``--lang`` may differ from the saved one)
            WideChoice(Key("ui.settings.language"), langs, words.language, self.set_language),
            WideChoice(
                Key("ui.settings.name_display"),
                styles,
                words.name_style,
                self.set_name_style,
            ),
            WideChoice(
                Key("ui.settings.help_level"), levels, s.help_level, self.setter(put_help_level)
            ),
            wide_toggle(Key("ui.settings.coach"), s.coach, self.setter(put_coach)),
            wide_toggle(
                Key("ui.settings.card_badges"), s.card_badges, self.setter(put_card_badges)
            ),
            wide_toggle(
                Key("ui.settings.click_to_move"),
                s.click_to_move,
                self.setter(put_click_to_move),
            ),
        ]

    def display_rows(self) -> list[Widget]:
        """Fullscreen, the UI scale, the animation speed, reduced motion."""
        s = self.app.settings
        scales = sorted({*UI_SCALES, s.ui_scale})
        speeds = [(v, Key(f"ui.settings.animation_speed.{v}")) for v in ("off", "fast", "normal")]
        return [
            wide_toggle(Key("ui.settings.fullscreen"), s.fullscreen, self.set_fullscreen),
            WideChoice(
                Key("ui.settings.ui_scale"),
                [(v, f"{round(v * 100)}%") for v in scales],
                s.ui_scale,
                self.set_scale,
            ),
            WideChoice(
                Key("ui.settings.animation_speed"),
                speeds,
                self.app.anim_speed,
                self.set_speed,
            ),
            wide_toggle(
                Key("ui.settings.reduced_motion"),
                s.reduced_motion,
                self.setter(put_reduced_motion),
            ),
        ]

    def sound_rows(self) -> list[Widget]:
        """The two volumes and mute."""
        s = self.app.settings
        return [
            Slider(
                Key("ui.settings.sound_volume"),
                0,
                100,
                s.sound_volume,
                self.setter(put_sound_volume),
                step=5,
            ),
            Slider(
                Key("ui.settings.music_volume"),
                0,
                100,
                s.music_volume,
                self.setter(put_music_volume),
                step=5,
            ),
            wide_toggle(Key("ui.settings.muted"), s.muted, self.setter(put_muted)),
        ]

    def game_rows(self) -> list[Widget]:
        """The default preset with its optional rules, and the default opponent."""
        presets = [(n, self._preset_label(n)) for n in PRESETS]
        rows: list[Widget] = [
            WideChoice(Key("ui.settings.default_preset"), presets, self.preset(), self.set_preset)
        ]
        preset = self.preset()
        for field in PRESET_TOGGLES.get(preset, ()):
            if field == "rounds":
                values: tuple[object, ...] = ROUNDS_CHOICES.get(preset, (12, 6))
            else:
                values = OPTION_VALUES.get(field, (False, True))
            opts = [(v, self._value_label(field, v)) for v in values]
            label = self._option_label(field)
            rows.append(WideChoice(label, opts, self.option_value(field), self.set_option(field)))
        opponents = [(v, Key(f"ui.settings.opponent.{v}")) for v in OPPONENTS]
        rows.append(
            WideChoice(
                Key("ui.settings.default_opponent"),
                opponents,
                self.app.settings.default_opponent,
                self.setter(put_default_opponent),
            )
        )
        return rows

    def player_rows(self) -> list[Widget]:
        """The player's name, birth date (for the presets' first-dealer rules), the quiz."""
        birth = self.app.settings.birth_date
        return [
            TextField(
                Key("ui.settings.player_name"),
                self.app.settings.player_name,
                self.setter(put_player_name),
                placeholder=Key("ui.common.you"),
            ),
            TextField(
                Key("ui.settings.birth_date"),
                birth.isoformat() if birth else "",
                self.set_birth,
                placeholder=Key("ui.settings.birth_date.hint"),
                max_len=10,
                valid=_date_ok,
            ),
            Button(Key("ui.settings.reset_quiz"), self.reset_quiz),
        ]

    def _preset_label(self, name: str) -> Label:
        return lambda w: preset_name(w, name)

    def _value_label(self, field: str, v: object) -> Label:
        return lambda w: rule_value_label(w, field, v)

    def _option_label(self, field: str) -> Label:
        return lambda w: "   " + rule_label(w, field)

    def viewport(self) -> pygame.Rect:
        top = self.frame.px(76)
        w = min(self.frame.size[0] - self.frame.px(40), self.frame.px(820))
        return pygame.Rect(
            (self.frame.size[0] - w) // 2, top, w, self.frame.size[1] - top - self.frame.px(34)
        )

    def layout(self) -> None:
        view = self.viewport()
        row_h, gap, sec_h = self.frame.px(40), self.frame.px(6), self.frame.px(38)
        y = 0
        for _heading, widget in self.rows:
            if widget is None:
                y += sec_h
                continue
            widget.rect = pygame.Rect(view.x, view.y + y - self.scroll, view.w, row_h)
            y += row_h + gap
        self.content_h = y
        widgets = [w for _, w in self.rows if w is not None]
        self.frame.focus.set([*widgets, *self.frame.buttons])

    def scroll_by(self, dy: int) -> None:
        limit = max(0, self.content_h - self.viewport().h)
        self.scroll = max(0, min(limit, self.scroll + dy))
        self.layout()

    def on_wheel(self, dy: int) -> None:
        self.scroll_by(-dy * self.frame.px(60))

    def handle(self, intent: Intent) -> None:
        """Rows scrolled out of view must not take clicks meant for the header; Esc goes back;
        the frame takes the rows and buttons (its focus group holds both) and the wheel over the
        rows; every key goes to :meth:`on_key`."""
        if (
            intent.kind == IntentKind.PRESS
            and not self.viewport().collidepoint(intent.pos)
            and not any(b.rect.collidepoint(intent.pos) for b in self.frame.buttons)
        ):
            return
        self.frame.route(intent, back=self.close, wheel=self.on_wheel, key=self.on_key)

    def on_key(self, intent: Intent) -> bool:
        focused = self.frame.focus.focused
        if isinstance(focused, TextField) and focused.editing:
            return bool(self.frame.focus.handle(intent))
        self.frame.focus.handle(intent)
        self.keep_focus_visible()
        return True

    def keep_focus_visible(self) -> None:
        w = self.frame.focus.focused
        if w is None or w in self.frame.buttons:
            return
        view = self.viewport()
        if w.rect.y < view.y:
            self.scroll_by(w.rect.y - view.y - self.frame.px(40))
        elif w.rect.bottom > view.bottom:
            self.scroll_by(w.rect.bottom - view.bottom + self.frame.px(16))
        self.frame.focus.index = self.frame.focus.widgets.index(w)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        if self.frame.stale(surface.get_size()):
            self.resize(surface.get_size())  # measured again for a new size or language
        self.frame.draw_backdrop(surface)
        view = self.viewport()
        self.frame.wheel(view, self.on_wheel)
        sec_h = self.frame.px(38)
        y = 0
        clip = surface.get_clip()
        surface.set_clip(view)
        f = self.frame.font(18)
        for heading, widget in self.rows:
            if widget is None:
                gfx.blit_text(
                    surface,
                    words.t(heading),
                    self.frame.font(20),
                    (view.x, view.y + y - self.scroll + sec_h - self.frame.px(6)),
                    color=theme.OCHRE,
                    bold=True,
                    anchor="bottomleft",
                )
                y += sec_h
                continue
            y += widget.rect.h + self.frame.px(6)
        for _, widget in self.rows:
            if widget is None:
                continue
            if widget.rect.colliderect(view):
                focused = self.frame.focus.keyboard_used and self.frame.focus.focused is widget
                widget.draw(surface, self.app.words, focused=focused, font=f)
        surface.set_clip(clip)
        if self.content_h > view.h:  # a scroll bar, so the player knows there is more
            bar_h = max(self.frame.px(30), view.h * view.h // self.content_h)
            top = view.y + (view.h - bar_h) * self.scroll // max(1, self.content_h - view.h)
            pygame.draw.rect(
                surface,
                theme.PANEL_EDGE,
                pygame.Rect(view.right + self.frame.px(6), top, self.frame.px(5), bar_h),
                border_radius=3,
            )
        for b in self.frame.buttons:
            b.draw(
                surface,
                self.app.words,
                focused=self.frame.focus.keyboard_used and self.frame.focus.focused is b,
                font=self.frame.font(17),
            )
        if self.message:
            gfx.blit_text(
                surface,
                say(self.message, self.app.words),
                self.frame.font(15),
                (self.frame.size[0] // 2, self.frame.size[1] - self.frame.px(8)),
                color=theme.OCHRE,
                anchor="midbottom",
                max_width=self.frame.size[0] - 40,
            )


def _date_ok(text: str) -> bool:
    if not text.strip():
        return True
    try:
        d = parse_date(text)
    except ValueError:
        return False
    return _dt.date(1900, 1, 1) <= d <= _dt.date.today()
