"""The yaku reference: every yaku, its cards, its value under the active rules, and the factors.

``YakuReferenceScene(app, screens.YakuReference(rules=…, yaku=…))``. Nothing on this screen is
a hand-written value: values, the cards pictured, the "+1 per further card" steps, what
combines with what and the multipliers all come from
:mod:`koikoi_desktop.scenes.yaku_facts`, which asks the engine (``score_yaku`` on probe piles,
``engine.yaku.factors``) under the rules shown.

The rules shown start as the active ones (the match on the table, else the settings' default
preset and options); the preset chips switch to any of the four presets to compare, and the
"custom" chip (when the active rules are a custom set) switches back.

Keys: up/down choose a yaku, left/right switch the preset, M opens the month reference.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from koikoi_desktop.engine import PRESETS, Rules, is_custom
from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes import screens, yaku_facts
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.learning import (
    LearnScene,
    active_rules,
    card_size,
    chip,
    chip_width,
    draw_card,
    name_style,
    paragraph,
)
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Label
from koikoi_desktop.words.names import preset_name, rules_label


class YakuReferenceScene(LearnScene):
    """Every yaku with pictures, engine-computed value, combinations and multipliers."""

    name = "yaku-reference"
    title_key = "ui.scene.yaku-reference"

    def __init__(
        self, app: AppServices, screen: screens.YakuReference = screens.YakuReference()
    ) -> None:
        super().__init__(app)
        yaku = screen.yaku
        self.own_rules: Rules = active_rules(app, screen.rules)
        self.rules: Rules = self.own_rules
        keys = yaku_facts.all_keys()
        self.selected = yaku if yaku is not None and yaku in keys else keys[0]
        self.detail_scroll = 0

    def header_items(self) -> list[tuple[Label, Callable[[], object]]]:
        return [(Key("ui.title.month_reference"), self.open_months)]

    def open_months(self) -> None:
        self.open(self.app.router.build(screens.MonthReference(rules=self.rules)))

    # ------------------------------------------------------------------ state
    def choices(self) -> list[tuple[str, Rules]]:
        """(label, rules) of the rule chips: the four presets, plus the active custom set."""
        words = self.app.words
        out = [(preset_name(words, n), r) for n, r in PRESETS.items()]
        if is_custom(self.own_rules):
            out.append((rules_label(words, self.own_rules), self.own_rules))
        return out

    def set_rules(self, rules: Rules) -> None:
        self.rules = rules
        self.detail_scroll = 0

    def set_preset(self, name: str) -> None:
        self.set_rules(PRESETS[name])

    def cycle_rules(self, step: int) -> None:
        options = [r for _, r in self.choices()]
        i = next((k for k, r in enumerate(options) if r == self.rules), 0)
        self.set_rules(options[(i + step) % len(options)])

    def select(self, key: str) -> None:
        self.selected = key
        self.detail_scroll = 0

    def value_of(self, key: str) -> int:
        """The value shown for ``key`` (engine-computed under the rules shown)."""
        return yaku_facts.value(key, self.rules)

    # ------------------------------------------------------------------ input
    def on_key(self, intent: Intent) -> bool:
        keys = yaku_facts.all_keys()
        if intent.kind in (IntentKind.UP, IntentKind.DOWN):
            i = keys.index(self.selected) + (1 if intent.kind == IntentKind.DOWN else -1)
            self.select(keys[i % len(keys)])
            return True
        if intent.kind in (IntentKind.LEFT, IntentKind.RIGHT):
            self.cycle_rules(1 if intent.kind == IntentKind.RIGHT else -1)
            return True
        if intent.letter == "m":
            self.open_months()
            return True
        return False

    def on_wheel(self, dy: int) -> None:
        self.detail_scroll = max(0, self.detail_scroll - dy * self.px(50))

    # ------------------------------------------------------------------ layout
    def list_rect(self) -> pygame.Rect:
        top = self.px(122)
        return pygame.Rect(self.px(20), top, self.px(300), self.size[1] - top - self.px(20))

    def detail_rect(self) -> pygame.Rect:
        lst = self.list_rect()
        x = lst.right + self.px(24)
        return pygame.Rect(x, lst.y, self.size[0] - x - self.px(20), lst.h)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        self.draw_frame(surface)
        self.draw_rule_chips(surface)
        self.draw_list(surface)
        self.draw_detail(surface)
        self.draw_buttons(surface)

    def draw_rule_chips(self, surface: pygame.Surface) -> None:
        x, y = self.px(20), self.px(72)
        f = self.font(15)
        h = self.px(34)
        for label, rules in self.choices():
            w = min(self.size[0] - x - self.px(20), chip_width(label, f, self.px(12)))
            if w < self.px(60):
                break
            r = pygame.Rect(x, y, w, h)
            chip(surface, r, label, f, active=rules == self.rules)
            self.hit(r, self._rules_cb(rules))
            x += w + self.px(8)

    def _rules_cb(self, rules: Rules) -> Callable[[], None]:
        return lambda: self.set_rules(rules)

    def draw_list(self, surface: pygame.Surface) -> None:
        words = self.app.words
        lst = self.list_rect()
        gfx.draw_panel(surface, lst, alpha=200)
        keys = yaku_facts.all_keys()
        row_h = min(self.px(44), (lst.h - 8) // len(keys))
        style = name_style(self.app)
        f = self.font(16)
        for i, key in enumerate(keys):
            r = pygame.Rect(lst.x + 4, lst.y + 4 + i * row_h, lst.w - 8, row_h - 2)
            exists = yaku_facts.exists(key, self.rules)
            if key == self.selected:
                pygame.draw.rect(surface, theme.BUTTON_HOVER, r, border_radius=6)
                pygame.draw.rect(surface, theme.OCHRE, r, width=2, border_radius=6)
            color = theme.PAPER if exists else theme.MUTED
            val = str(self.value_of(key)) if exists else "—"
            vw = gfx.measure(val, f, bold=True)[0]
            gfx.blit_text(
                surface,
                words.yaku_name(key, style),
                f,
                (r.x + 8, r.centery),
                color=color,
                bold=key == self.selected,
                anchor="midleft",
                max_width=r.w - vw - 24,
            )
            gfx.blit_text(
                surface,
                val,
                f,
                (r.right - 8, r.centery),
                bold=True,
                color=theme.OCHRE if exists else theme.MUTED,
                anchor="midright",
            )
            self.hit(r, self._select_cb(key))

    def _select_cb(self, key: str) -> Callable[[], None]:
        return lambda: self.select(key)

    def names(self, keys: list[str]) -> str:
        words = self.app.words
        style = name_style(self.app)
        return words.t("ui.learn.list_sep").join(words.yaku_name(k, style) for k in keys)

    def draw_detail(self, surface: pygame.Surface) -> None:
        words = self.app.words
        area = self.detail_rect()
        key = self.selected
        rules = self.rules
        style = name_style(self.app)
        clip = surface.get_clip()
        surface.set_clip(area)
        self.wheel_hits.append((area, self.on_wheel))
        x, w = area.x, area.w
        y = area.y - self.detail_scroll
        # name line: chosen style, then the other two
        shown = words.yaku_name(key, style)
        y = paragraph(surface, shown, self.font(28), x, y, w, bold=True, gap=1.1)
        others = [words.yaku_name(key, s) for s in ("japanese", "romaji", "translated")]
        others = [n for n in dict.fromkeys(others) if n != shown]
        y = paragraph(surface, " · ".join(others), self.font(17), x, y, w, color=theme.OCHRE)
        if not yaku_facts.exists(key, rules):
            y = paragraph(
                surface,
                words.t("ui.yakuref.not_in_rules"),
                self.font(17),
                x,
                y + self.px(8),
                w,
                color=theme.DANGER,
                bold=True,
            )
        else:
            unit = words.t(f"ui.common.{rules.unit}")
            value = words.t("ui.yakuref.value", n=self.value_of(key), unit=unit)
            vrect = gfx.blit_text(
                surface,
                value,
                self.font(22),
                (x, y + self.px(4)),
                bold=True,
                color=theme.TARGET,
                max_width=w,
            )
            step, _ = yaku_facts.extra_step(key, rules)
            need = yaku_facts.NEEDS_ANY.get(key)
            if step:  # beside the value when it fits, else below it
                text = (
                    words.t("ui.yakuref.step_beyond", n=step, need=need)
                    if need and key != "sanko"
                    else words.t("ui.yakuref.step", n=step)
                )
                f15 = self.font(15)
                tw = gfx.measure(text, f15)[0]
                if vrect.right + self.px(16) + tw <= x + w:
                    gfx.blit_text(
                        surface,
                        text,
                        f15,
                        (vrect.right + self.px(16), vrect.centery),
                        color=theme.OCHRE,
                        anchor="midleft",
                    )
                else:
                    vrect.h = (
                        paragraph(surface, text, f15, x, vrect.bottom, w, color=theme.OCHRE)
                        - vrect.y
                    )
            y = vrect.bottom + self.px(2)
        y = paragraph(surface, words.t(f"yaku.{key}.desc"), self.font(15), x, y + self.px(4), w)
        y = self.draw_cards(surface, key, x, y + self.px(8), w)
        if yaku_facts.exists(key, rules):
            shared, disjoint, never = yaku_facts.combines_with(key, rules)
            f = self.font(14)
            for label_key, keys_ in (
                ("ui.yakuref.combines", shared),
                ("ui.yakuref.combines_disjoint", disjoint),
                ("ui.yakuref.excludes", never),
            ):
                if keys_:
                    y = paragraph(surface, words.t(label_key, yaku=self.names(keys_)), f, x, y, w)
            for note_key, fmt in yaku_facts.notes(key, rules):
                y = paragraph(
                    surface, "• " + words.t(note_key, **fmt), f, x, y, w, color=theme.MUTED
                )
        y += self.px(10)
        y = paragraph(surface, words.t("ui.yakuref.multipliers"), self.font(17), x, y, w, bold=True)
        for mkey, fmt in yaku_facts.multipliers(rules):
            y = paragraph(surface, "• " + words.t(mkey, **fmt), self.font(14), x, y, w)
        surface.set_clip(clip)
        content = y + self.detail_scroll - area.y
        self.detail_scroll = max(0, min(self.detail_scroll, content - area.h + self.px(20)))
        if content > area.h:  # a scroll bar says there is more below
            bar_h = max(self.px(30), area.h * area.h // content)
            top = area.y + (area.h - bar_h) * self.detail_scroll // max(1, content - area.h)
            pygame.draw.rect(
                surface,
                theme.PANEL_EDGE,
                pygame.Rect(area.right + self.px(6), top, self.px(5), bar_h),
                border_radius=3,
            )

    def draw_cards(self, surface: pygame.Surface, key: str, x: int, y: int, w: int) -> int:
        """The yaku's cards: the ones that make it, then (dimmer) the ones that add to it."""
        words = self.app.words
        rules = self.rules
        exists = yaku_facts.exists(key, rules)
        core = sorted(yaku_facts.core(key, rules) if exists else yaku_facts.minimal_set(key, rules))
        extra = sorted(yaku_facts.extra_step(key, rules)[1] - set(core)) if exists else []
        need = yaku_facts.NEEDS_ANY.get(key)
        f = self.font(14)
        if need and exists and len(core) > need:
            y = paragraph(
                surface, words.t("ui.yakuref.any_of", n=need), f, x, y, w, color=theme.MUTED
            )
        gap = self.px(6)
        big = self.px(130 if extra else 180) if len(core) <= 6 else self.px(96)
        per_row = max(1, (w + gap) // (card_size(big)[0] + gap))
        if len(core) > per_row:  # shrink so that two rows at most are needed
            for h in range(big, self.px(60), -self.px(4)):
                cw = card_size(h)[0]
                per_row = max(1, (w + gap) // (cw + gap))
                if -(-len(core) // per_row) <= 2:
                    big = h
                    break
        y = self._card_rows(surface, core, x, y, w, big, gap)
        if extra:
            y = paragraph(
                surface, words.t("ui.yakuref.extras"), f, x, y + self.px(4), w, color=theme.MUTED
            )
            y = self._card_rows(surface, extra, x, y, w, self.px(80), gap)
        return y + self.px(6)

    def _card_rows(
        self, surface: pygame.Surface, ids: list[int], x: int, y: int, w: int, h: int, gap: int
    ) -> int:
        cw, ch = card_size(h)
        per_row = max(1, (w + gap) // (cw + gap))
        for i, cid in enumerate(ids):
            r = pygame.Rect(x + (i % per_row) * (cw + gap), y + (i // per_row) * (ch + gap), cw, ch)
            draw_card(surface, self.app, cid, r)
            self.hit(r, self._card_cb(cid))
        rows = -(-len(ids) // per_row) if ids else 0
        return y + rows * (ch + gap)

    def _card_cb(self, cid: int) -> Callable[[], None]:
        return lambda: self.open(
            self.app.router.build(screens.MonthReference(card=cid, rules=self.rules))
        )
