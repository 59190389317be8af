"""The new-game screen: preset, match length, opponent (or two players on one computer),
practice mode, and every rule setting of the preset, each changeable.

Changing any setting makes the match "custom, based on <preset>" (shown above the list). The
left side follows every change: the match length shows the rules' length (one set in the list
included), and the description under the buttons says what changed from the preset. The
settings come from the engine (``rules.SETTINGS`` and ``setting_choices``), so a new rule option
appears here without UI changes; a combination the rules model rejects (A-38) is refused and the
old value stays: the refusal is kept as facts (``engine.rules.RulesRefusal``: which setting,
which bound or conflict) and worded when drawn, in the player's language.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from koikoi_desktop import engine
from koikoi_desktop.ai import LEVELS
from koikoi_desktop.engine import rules as rules_mod
from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.scenes.defaults import default_opponent, default_preset
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.ui import gfx, helps, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, Choice, Label, Toggle, Widget
from koikoi_desktop.words.names import (
    level_label,
    levels_not_apart,
    preset_name,
    rating_title,
    refusal_text,
    rule_label,
    rule_value_label,
    rules_label,
)

HOTSEAT = "hotseat"
#: Changes from the preset named one by one in the description of custom rules.
SHOWN_CHANGES = 3


class NewGameScene(MenuScene):
    """Set up a match and start it on the table."""

    name = "new-game"

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.preset = default_preset(app.settings)
        self.rules = engine.PRESETS[self.preset]
        self.opponents = [*LEVELS, HOTSEAT]
        self.opponent = default_opponent(app.settings, tuple(self.opponents))
        self.practice = False
        self.help_level: str = app.settings.help_level
        #: Why the last change was refused, as facts (worded when drawn); None: nothing refused.
        self.refusal: rules_mod.RulesRefusal | None = None
        self.scroll = 0
        self.rule_widgets: list[Choice] = []
        self.left: list[Widget] = []
        store = app.storage
        latest = store.ledger.rating_history(1) if store is not None else []
        #: The player's newest rating and its deviation (read once; worded when drawn).
        self.rating = (latest[-1].rating, latest[-1].rd) if latest else None

    # ------------------------------------------------------------------ model
    def lengths(self) -> list[tuple[object, str]]:
        """The match lengths the preset offers (None: its target race), plus the length of the
        rules now when one was set in the full list."""
        words = self.app.words
        r = engine.PRESETS[self.preset]
        opts: list[int | None]
        if r.match_end == "target":
            opts = [None, 12]
        else:
            opts = [3, 6, 12] if r.unit == "coins" else ([6, 12] if r.end_match_anytime else [12])
        cur = self.current_length()
        if cur not in opts:
            opts.append(cur)
        target = self.rules.target_score or r.target_score
        return [
            (
                n,
                words.t("ui.newgame.first_to", n=target)
                if n is None
                else words.t("ui.newgame.rounds", n=n),
            )
            for n in opts
        ]

    def current_length(self) -> int | None:
        """The rules' match length: a number of rounds, or None for a target race."""
        return self.rules.rounds if self.rules.match_end == "rounds" else None

    def description(self) -> str:
        """The preset's description, or for custom rules what changed from the preset."""
        words = self.app.words
        if not rules_mod.is_custom(self.rules):
            return words.t(f"preset.{self.preset}.desc")
        base = engine.PRESETS[self.preset]
        changed = self.rules.changes_from_preset()
        parts = [
            words.t(
                "ui.newgame.change",
                rule=rule_label(words, k),
                value=rule_value_label(words, k, v),
                was=rule_value_label(words, k, getattr(base, k)),
            )
            for k, v in list(changed.items())[:SHOWN_CHANGES]
        ]
        if len(changed) > SHOWN_CHANGES:
            parts.append(words.t("ui.newgame.more_changes", n=len(changed) - SHOWN_CHANGES))
        return words.t(
            "ui.newgame.custom_desc",
            preset=preset_name(words, self.preset),
            changes="; ".join(parts),
        )

    def notes(self) -> list[str]:
        """The paragraphs under the buttons: the rules' description, what practice mode means
        (its switch says only its name), the player's rating ("1107?" while provisional) and,
        against the computer, which levels the measured ratings do not tell apart."""
        words = self.app.words
        out = [self.description(), words.t("ui.newgame.practice_help")]
        if self.opponent != HOTSEAT:
            if self.rating is not None:
                out.append(rating_title(words, *self.rating))
            out += levels_not_apart(words)
        return out

    def set_preset(self, name: str) -> None:
        self.preset = name
        self.rules = engine.PRESETS[name]
        self.refusal = None
        self.build()

    def set_length(self, n: int | None) -> None:
        """A match length from the left side; the other settings changed in the list stay."""
        base = engine.PRESETS[self.preset]
        if n is None:  # the preset's own target race
            keep = ("match_end", "rounds", "target_score", "starting_balance")
            self.change({k: getattr(base, k) for k in keep})
        else:
            try:
                self.rules = self.rules.with_rounds(n)
                self.refusal = None
            except ValueError as exc:
                self.refused(exc)
            self.sync_rule_widgets()

    def set_rule(self, name: str, value: object) -> None:
        self.change({name: value})

    def change(self, values: dict[str, object]) -> None:
        """Settings changed: the rules model checks the combination (a refusal is shown in one
        line and the old values stay); every widget shows the rules now."""
        try:
            self.rules = engine.Rules.model_validate({**self.rules.model_dump(), **values})
            self.refusal = None
        except ValueError as exc:
            self.refused(exc)
        self.sync_rule_widgets()

    def refused(self, exc: ValueError) -> None:
        """Keep why the rules model refused a change (which setting, which bound or conflict);
        :func:`~koikoi_desktop.words.names.refusal_text` words it when drawn."""
        self.refusal = rules_mod.refusal_of(exc)

    def start(self) -> None:
        seats: tuple[str, str] = (
            ("human", "human") if self.opponent == HOTSEAT else ("human", self.opponent)
        )
        cfg = MatchConfig(
            rules=self.rules,
            seats=seats,
            seed=self.app.seed,
            practice=self.practice,
            help_level=self.help_level,
        )
        if self.app.settings.help_level != self.help_level:
            new = self.app.prefs.draft()
            new.help_level = self.help_level  # type: ignore[assignment]  # one of HELP_LEVELS
            self.app.prefs.apply(new)  # the next game's default
        self.app.stack.replace(self.app.router.build(screens.Table(config=cfg)))

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        words = self.app.words
        s = self.scale
        w, h = self.size
        col_w = int(min(420 * s, w * 0.36))
        x = int(40 * s)
        y = int(110 * s)
        rh, gap = int(44 * s), int(10 * s)

        def rect() -> pygame.Rect:
            return pygame.Rect(x, 0, col_w, rh)

        presets = [(n, rules_label(words, engine.PRESETS[n])) for n in engine.PRESETS]
        self.length = Choice(
            Key("ui.newgame.length"),
            self.lengths(),
            self.current_length(),
            self.set_length,
            rect(),
        )
        self.left = [
            Choice(Key("ui.newgame.preset"), presets, self.preset, self.set_preset, rect()),
            self.length,
            Choice(
                Key("ui.newgame.opponent"),
                [
                    (o, words.t("ui.newgame.hotseat") if o == HOTSEAT else level_label(words, o))
                    for o in self.opponents
                ],
                self.opponent,
                self._set_opp,
                rect(),
            ),
            Toggle(Key("ui.newgame.practice"), self.practice, self._set_practice, rect()),
            Choice(
                Key("ui.settings.help_level"),
                [(v, words.t(f"ui.settings.help_level.{v}")) for v in helps.HELP_LEVELS],
                self.help_level,
                self._set_help,
                rect(),
            ),
        ]
        for wdg in self.left:
            wdg.rect.y = y
            y += rh + gap
        y += gap * 2
        self.start_btn = Button(
            Key("ui.newgame.start"),
            self.start,
            pygame.Rect(x, y, col_w, int(52 * s)),
            primary=True,
        )
        self.back_btn = Button(
            Key("ui.common.back"),
            self.on_back,
            pygame.Rect(x, y + int(62 * s), col_w, int(44 * s)),
        )
        # every rule setting, in a scrolling column on the right
        rx = x + col_w + int(40 * s)
        self.rules_area = pygame.Rect(
            rx, int(110 * s), w - rx - int(30 * s), h - int(110 * s) - int(40 * s)
        )
        self.rule_widgets = []
        for name in rules_mod.SETTINGS:
            opts = [(v, rule_value_label(words, name, v)) for v in rules_mod.setting_choices(name)]
            cur = getattr(self.rules, name)
            if cur not in [v for v, _ in opts]:
                opts.append((cur, rule_value_label(words, name, cur)))
            cw = Choice(
                self._label_fn(name),
                opts,
                cur,
                self._setter(name),
                pygame.Rect(rx, 0, self.rules_area.w, int(34 * s)),
            )
            self.rule_widgets.append(cw)
        self.focus.set([*self.left, self.start_btn, self.back_btn, *self.rule_widgets])
        self.place_rules()

    @staticmethod
    def _label_fn(name: str) -> Label:
        return lambda w: rule_label(w, name)

    def _setter(self, name: str) -> Callable[[object], None]:
        return lambda v: self.set_rule(name, v)

    def _set_opp(self, v: object) -> None:
        self.opponent = str(v)

    def _set_practice(self, v: object) -> None:
        self.practice = bool(v)

    def _set_help(self, v: object) -> None:
        self.help_level = str(v)

    def sync_rule_widgets(self) -> None:
        """Every widget shows the rules now: the full list and the match length."""
        for name, wdg in zip(rules_mod.SETTINGS, self.rule_widgets, strict=True):
            wdg.set_value(getattr(self.rules, name))
        self.length.options = list(self.lengths())
        self.length.set_value(self.current_length())

    def row_h(self) -> int:
        return int(38 * self.scale)

    def place_rules(self) -> None:
        area = self.rules_area
        visible = max(1, area.h // self.row_h())
        focused = self.focus.focused
        if focused in self.rule_widgets:
            i = self.rule_widgets.index(focused)
            if i < self.scroll:
                self.scroll = i
            elif i >= self.scroll + visible:
                self.scroll = i - visible + 1
        self.scroll = max(0, min(self.scroll, len(self.rule_widgets) - visible))
        for i, wdg in enumerate(self.rule_widgets):
            row = i - self.scroll
            wdg.visible = 0 <= row < visible
            wdg.rect.y = area.y + row * self.row_h()

    def handle(self, intent: Intent) -> None:
        if intent.kind == IntentKind.BACK:
            self.on_back()
            return
        if intent.kind == IntentKind.WHEEL:
            self.scroll -= intent.pos[1] * 2
            self.place_rules()
            return
        self.focus.handle(intent)
        self.place_rules()

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        words = self.app.words
        w, h = surface.get_size()
        surface.blit(felt((w, h)), (0, 0))
        s = self.scale
        gfx.blit_text(
            surface,
            words.t("ui.scene.new-game"),
            theme.font_px(38, s),
            (int(40 * s), int(28 * s)),
            bold=True,
            color=theme.OCHRE,
        )
        gfx.blit_text(
            surface,
            words.t("ui.newgame.rules_heading", preset=rules_label(words, self.rules)),
            theme.font_px(19, s),
            (self.rules_area.x, self.rules_area.y - int(34 * s)),
            bold=True,
            max_width=self.rules_area.w,
        )
        y = self.back_btn.rect.bottom + int(20 * s)
        # the preset's description, then what practice mode means (its switch says only its name)
        for text in self.notes():
            for line in gfx.wrap(text, theme.font_px(15, s), self.left[0].rect.w)[:6]:
                gfx.blit_text(
                    surface, line, theme.font_px(15, s), (self.left[0].rect.x, y), color=theme.MUTED
                )
                y += int(21 * s)
            y += int(10 * s)
        fs = theme.font_px(17, s)
        self.focus.draw(surface, self.app.words, font=fs)
        if len(self.rule_widgets) * self.row_h() > self.rules_area.h:
            frac = self.rules_area.h / (len(self.rule_widgets) * self.row_h())
            bar_h = max(20, int(self.rules_area.h * frac))
            top = self.rules_area.y + int(self.scroll * self.row_h() * frac)
            pygame.draw.rect(
                surface,
                theme.PANEL_EDGE,
                (self.rules_area.right + 6, top, 5, bar_h),
                border_radius=3,
            )
        if self.refusal is not None:
            self.draw_refusal(surface, refusal_text(words, self.refusal), fs)

    def draw_refusal(self, surface: pygame.Surface, line: str, fs: int) -> None:
        """Why a change was refused, wrapped (it names two settings in full) on a panel at the
        foot of the screen, over whatever lies there."""
        w, h = surface.get_size()
        s = self.scale
        lines = gfx.wrap(line, fs, w - int(80 * s), bold=True)[:3]
        step = int(fs * 1.35)
        panel = pygame.Rect(0, 0, w - int(40 * s), step * len(lines) + int(16 * s))
        panel.midbottom = (w // 2, h - int(8 * s))
        pygame.draw.rect(surface, theme.PANEL, panel, border_radius=int(8 * s))
        pygame.draw.rect(surface, theme.DANGER, panel, width=2, border_radius=int(8 * s))
        y = panel.y + int(8 * s) + step // 2
        for text in lines:
            gfx.blit_text(
                surface, text, fs, (w // 2, y), color=theme.DANGER, anchor="center", bold=True
            )
            y += step

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return []
