"""Small widgets: button, toggle, choice (cycle), slider, list, label, and a focus group.

Every widget takes an :class:`~koikoi_desktop.ui.input.Intent` in ``handle`` and returns True
when it used it. A :class:`FocusGroup` owns keyboard focus for a set of widgets (Tab / arrows move
it, Enter activates). Focus is drawn as a thick ochre outline *and* corner marks, so it is visible
without colour. Labels are :data:`koikoi_desktop.i18n.Label` (a string, or a callable worded
with the ``Words`` passed to ``draw``), so a language switch shows at the next frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from koikoi_desktop.i18n import Key, Label, Words, say
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind

__all__ = ["Button", "Choice", "FocusGroup", "Label", "ListView", "Slider", "Toggle", "Widget"]


def draw_focus(
    surface: pygame.Surface,
    rect: pygame.Rect,
    color: tuple[int, int, int] = theme.OCHRE,
    width: int = 3,
) -> None:
    """A focus/target mark readable without colour: thick outline plus corner brackets."""
    pygame.draw.rect(surface, color, rect.inflate(6, 6), width=width, border_radius=8)
    n = max(6, min(rect.w, rect.h) // 5)
    r = rect.inflate(12, 12)
    for cx, cy, dx, dy in (
        (r.left, r.top, 1, 1),
        (r.right, r.top, -1, 1),
        (r.left, r.bottom, 1, -1),
        (r.right, r.bottom, -1, -1),
    ):
        pygame.draw.line(surface, color, (cx, cy), (cx + dx * n, cy), width)
        pygame.draw.line(surface, color, (cx, cy), (cx, cy + dy * n), width)


class Widget:
    """Base: a rect, an enabled flag, hover state."""

    focusable = True

    def __init__(self, rect: pygame.Rect | None = None) -> None:
        self.rect = pygame.Rect(rect) if rect is not None else pygame.Rect(0, 0, 10, 10)
        self.enabled = True
        self.hover = False
        self.visible = True

    def handle(self, intent: Intent) -> bool:
        if intent.kind == IntentKind.MOVE:
            self.hover = self.rect.collidepoint(intent.pos)
        return False

    def activate(self) -> None:
        """What Enter does while this widget has focus."""

    def key(self, intent: Intent) -> bool:
        """Left/right while focused (sliders, choices); True if used."""
        return False

    def draw(
        self, surface: pygame.Surface, words: Words, *, focused: bool = False, font: int = 20
    ) -> None:
        raise NotImplementedError


class Button(Widget):
    """A push button; ``on_click`` runs on click or Enter."""

    def __init__(
        self,
        label: Label,
        on_click: Callable[[], Any],
        rect: pygame.Rect | None = None,
        *,
        primary: bool = False,
        hint: Label = "",
    ) -> None:
        super().__init__(rect)
        self.label = label
        self.on_click = on_click
        self.primary = primary
        self.hint = hint
        self._pressed = False

    def handle(self, intent: Intent) -> bool:
        super().handle(intent)
        if not (self.enabled and self.visible):
            return False
        if intent.kind == IntentKind.PRESS and self.rect.collidepoint(intent.pos):
            self._pressed = True
            return True
        if intent.kind == IntentKind.RELEASE and self._pressed:
            self._pressed = False
            if self.rect.collidepoint(intent.pos):
                self.on_click()
            return True
        return False

    def activate(self) -> None:
        if self.enabled:
            self.on_click()

    def draw(
        self, surface: pygame.Surface, words: Words, *, focused: bool = False, font: int = 20
    ) -> None:
        if not self.visible:
            return
        font_in = font
        if not self.enabled:
            bg = theme.BUTTON_DISABLED
        elif self.primary:
            bg = theme.DEEP_RED if not self.hover else theme.VERMILION
        else:
            bg = theme.BUTTON_HOVER if self.hover else theme.BUTTON
        pygame.draw.rect(surface, bg, self.rect, border_radius=8)
        pygame.draw.rect(surface, theme.PANEL_EDGE, self.rect, width=1, border_radius=8)
        color = theme.PAPER if self.enabled else theme.MUTED
        text = say(self.label, words)
        room = self.rect.w - 12
        # a long translation steps the font down (to 3/4) before it is cut with an ellipsis
        while font > 11 and 4 * font > 3 * font_in and gfx.measure(text, font, bold=True)[0] > room:
            font -= 1
        gfx.blit_text(
            surface,
            text,
            font,
            self.rect.center,
            color=color,
            bold=True,
            anchor="center",
            max_width=self.rect.w - 12,
        )
        if focused:
            draw_focus(surface, self.rect)


class Choice(Widget):
    """Cycle through options with click or left/right: ``options`` are (value, label) pairs.
    With a single option there is nothing to cycle: it shows no arrows and a step does
    nothing."""

    def __init__(
        self,
        label: Label,
        options: Sequence[tuple[Any, Label]],
        value: Any,
        on_change: Callable[[Any], Any],
        rect: pygame.Rect | None = None,
    ) -> None:
        super().__init__(rect)
        self.label = label
        self.options = list(options)
        self.index = next((i for i, (v, _) in enumerate(self.options) if v == value), 0)
        self.on_change = on_change
        #: Where the "‹" arrow was last drawn (its hit region, with a margin), or None before
        #: the first draw. A press there steps back; anywhere else on the row steps forward.
        self.back_zone: pygame.Rect | None = None

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    def set_value(self, value: Any) -> None:
        self.index = next((i for i, (v, _) in enumerate(self.options) if v == value), self.index)

    def shown(self, words: Words) -> str:
        """The value as drawn: between arrows when there is something to choose."""
        val = say(self.options[self.index][1], words) if self.options else ""
        return f"‹ {val} ›" if len(self.options) > 1 else val

    def step(self, d: int) -> None:
        if not self.enabled or len(self.options) < 2:
            return
        self.index = (self.index + d) % len(self.options)
        self.on_change(self.value)

    def handle(self, intent: Intent) -> bool:
        super().handle(intent)
        if self.enabled and intent.kind == IntentKind.PRESS and self.rect.collidepoint(intent.pos):
            # The arrows sit with the value at the row's right end: "‹" steps back, "›" and
            # the rest of the row forward (issue 43: a press left of the row's middle went
            # back, so the "‹" drawn on the right went forward).
            back = self.back_zone is not None and self.back_zone.collidepoint(intent.pos)
            self.step(-1 if back else 1)
            return True
        return False

    def activate(self) -> None:
        self.step(1)

    def key(self, intent: Intent) -> bool:
        if intent.kind in (IntentKind.LEFT, IntentKind.RIGHT):
            self.step(-1 if intent.kind == IntentKind.LEFT else 1)
            return True
        return False

    def note_back_arrow(self, shown: str, font: int, pad: int, room: int) -> None:
        """Keep the hit region of the "‹" that starts ``shown``, the value drawn right-aligned
        at ``pad`` from the row's right end in at most ``room`` pixels (every draw of a choice
        calls this, as the framed screens keep their buttons' regions)."""
        self.back_zone = None
        if len(self.options) > 1:
            start = self.rect.right - pad - min(gfx.measure(shown, font, bold=True)[0], room)
            arrow = gfx.measure("‹ ", font, bold=True)[0]
            self.back_zone = pygame.Rect(start - pad, self.rect.y, arrow + 2 * pad, self.rect.h)

    def split(self, label: str, value: str, font: int, pad: int) -> tuple[int, int]:
        """Widths for the value and the label: both whole when they fit side by side; else the
        value keeps what the whole label leaves it, but at least half the row, and the label
        the rest (so "Practice mode (undo, hints)" beside "‹ off ›" is never cut)."""
        avail = self.rect.w - 3 * pad
        label_w = gfx.measure(label, font)[0]
        value_w = gfx.measure(value, font, bold=True)[0]
        value_room = min(value_w, max(avail - label_w, avail // 2))
        return value_room, avail - value_room

    def draw(
        self, surface: pygame.Surface, words: Words, *, focused: bool = False, font: int = 20
    ) -> None:
        bg = theme.BUTTON_HOVER if self.hover else theme.BUTTON
        pygame.draw.rect(surface, bg, self.rect, border_radius=6)
        color = theme.PAPER if self.enabled else theme.MUTED
        pad = 10
        label = say(self.label, words)
        shown = self.shown(words)
        value_room, label_room = self.split(label, shown, font, pad)
        gfx.blit_text(
            surface,
            label,
            font,
            (self.rect.x + pad, self.rect.centery),
            color=color,
            anchor="midleft",
            max_width=label_room,
        )
        gfx.blit_text(
            surface,
            shown,
            font,
            (self.rect.right - pad, self.rect.centery),
            color=theme.OCHRE if self.enabled else theme.MUTED,
            bold=True,
            anchor="midright",
            max_width=value_room,
        )
        self.note_back_arrow(shown, font, pad, value_room)
        if focused:
            draw_focus(surface, self.rect)


class Toggle(Choice):
    """An on/off switch (a two-option choice)."""

    def __init__(
        self,
        label: Label,
        value: bool,
        on_change: Callable[[Any], Any],
        rect: pygame.Rect | None = None,
    ) -> None:
        super().__init__(
            label,
            [(False, Key("ui.common.off")), (True, Key("ui.common.on"))],
            value,
            on_change,
            rect,
        )


class Slider(Widget):
    """An integer slider; click or drag on the bar, left/right to step."""

    def __init__(
        self,
        label: Label,
        lo: int,
        hi: int,
        value: int,
        on_change: Callable[[int], Any],
        rect: pygame.Rect | None = None,
        *,
        step: int = 1,
    ) -> None:
        super().__init__(rect)
        self.label, self.lo, self.hi, self.value, self.on_change, self.step_size = (
            label,
            lo,
            hi,
            value,
            on_change,
            step,
        )
        self._drag = False

    def _bar(self) -> pygame.Rect:
        return pygame.Rect(
            self.rect.x + self.rect.w // 2, self.rect.centery - 3, self.rect.w // 2 - 60, 6
        )

    def _set_from_x(self, x: int) -> None:
        bar = self._bar()
        frac = min(1.0, max(0.0, (x - bar.x) / max(1, bar.w)))
        v = self.lo + round(frac * (self.hi - self.lo) / self.step_size) * self.step_size
        if v != self.value:
            self.value = v
            self.on_change(v)

    def handle(self, intent: Intent) -> bool:
        super().handle(intent)
        if intent.kind == IntentKind.PRESS and self._bar().inflate(20, 24).collidepoint(intent.pos):
            self._drag = True
            self._set_from_x(intent.pos[0])
            return True
        if intent.kind == IntentKind.MOVE and self._drag:
            self._set_from_x(intent.pos[0])
            return True
        if intent.kind == IntentKind.RELEASE and self._drag:
            self._drag = False
            return True
        return False

    def key(self, intent: Intent) -> bool:
        if intent.kind in (IntentKind.LEFT, IntentKind.RIGHT):
            d = self.step_size if intent.kind == IntentKind.RIGHT else -self.step_size
            v = min(self.hi, max(self.lo, self.value + d))
            if v != self.value:
                self.value = v
                self.on_change(v)
            return True
        return False

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
            max_width=self.rect.w // 2 - 14,
        )
        bar = self._bar()
        pygame.draw.rect(surface, theme.PANEL_EDGE, bar, border_radius=3)
        frac = (self.value - self.lo) / max(1, self.hi - self.lo)
        knob = pygame.Rect(0, 0, 14, 22)
        knob.center = (bar.x + int(frac * bar.w), bar.centery)
        pygame.draw.rect(surface, theme.OCHRE, knob, border_radius=4)
        gfx.blit_text(
            surface,
            str(self.value),
            font,
            (self.rect.right - 10, self.rect.centery),
            bold=True,
            anchor="midright",
        )
        if focused:
            draw_focus(surface, self.rect)


class ListView(Widget):
    """A scrolling list of text rows; ``on_select(index)`` on click or Enter."""

    def __init__(
        self,
        rows: Sequence[Label],
        rect: pygame.Rect | None = None,
        *,
        on_select: Callable[[int], Any] | None = None,
        row_h: int = 30,
    ) -> None:
        super().__init__(rect)
        self.rows = list(rows)
        self.on_select = on_select
        self.row_h = row_h
        self.scroll = 0
        self.selected = 0

    def handle(self, intent: Intent) -> bool:
        super().handle(intent)
        if intent.kind == IntentKind.WHEEL and self.hover:
            self.scroll = max(0, min(len(self.rows) - 1, self.scroll - intent.pos[1]))
            return True
        if intent.kind == IntentKind.PRESS and self.rect.collidepoint(intent.pos):
            i = self.scroll + (intent.pos[1] - self.rect.y) // self.row_h
            if 0 <= i < len(self.rows):
                self.selected = i
                if self.on_select:
                    self.on_select(i)
            return True
        return False

    def key(self, intent: Intent) -> bool:
        if intent.kind in (IntentKind.UP, IntentKind.DOWN) and self.rows:
            self.selected = max(
                0,
                min(
                    len(self.rows) - 1,
                    self.selected + (1 if intent.kind == IntentKind.DOWN else -1),
                ),
            )
            visible = max(1, self.rect.h // self.row_h)
            if self.selected < self.scroll:
                self.scroll = self.selected
            elif self.selected >= self.scroll + visible:
                self.scroll = self.selected - visible + 1
            return True
        return False

    def activate(self) -> None:
        if self.on_select and self.rows:
            self.on_select(self.selected)

    def draw(
        self, surface: pygame.Surface, words: Words, *, focused: bool = False, font: int = 18
    ) -> None:
        pygame.draw.rect(surface, theme.PANEL, self.rect, border_radius=6)
        visible = max(1, self.rect.h // self.row_h)
        for j, row in enumerate(self.rows[self.scroll : self.scroll + visible]):
            i = self.scroll + j
            r = pygame.Rect(self.rect.x, self.rect.y + j * self.row_h, self.rect.w, self.row_h)
            if i == self.selected:
                pygame.draw.rect(surface, theme.BUTTON_HOVER, r)
                pygame.draw.rect(surface, theme.OCHRE, r, width=1)
            gfx.blit_text(
                surface,
                say(row, words),
                font,
                (r.x + 8, r.centery),
                anchor="midleft",
                max_width=r.w - 16,
            )
        if focused:
            draw_focus(surface, self.rect)


class FocusGroup:
    """Keyboard focus over widgets: Tab/Shift-Tab/up/down move; Enter activates."""

    def __init__(self, widgets: Sequence[Widget] = ()) -> None:
        self.widgets: list[Widget] = list(widgets)
        self.index = 0
        self.keyboard_used = False

    def set(self, widgets: Sequence[Widget]) -> None:
        self.widgets = list(widgets)
        self.index = min(self.index, max(0, len(self.widgets) - 1))
        self._skip(1)

    @property
    def focused(self) -> Widget | None:
        if not self.widgets:
            return None
        return self.widgets[self.index]

    def _skip(self, d: int) -> None:
        for _ in range(len(self.widgets)):
            w = self.widgets[self.index]
            if w.enabled and w.visible and w.focusable:
                return
            self.index = (self.index + d) % len(self.widgets)

    def move(self, d: int) -> None:
        if self.widgets:
            self.index = (self.index + d) % len(self.widgets)
            self._skip(d)

    def handle(self, intent: Intent) -> bool:
        """Pointer intents go to every widget; keys go to focus navigation."""
        if intent.kind in (IntentKind.PRESS, IntentKind.RELEASE, IntentKind.MOVE, IntentKind.WHEEL):
            used = False
            for i, w in enumerate(self.widgets):
                if w.visible and w.handle(intent):
                    used = True
                    if intent.kind == IntentKind.PRESS:
                        self.index = i
            return used
        if not self.widgets:
            return False
        self.keyboard_used = True
        focused = self.focused
        if focused is not None and focused.key(intent):
            return True
        if intent.kind in (IntentKind.DOWN, IntentKind.NEXT, IntentKind.RIGHT):
            self.move(1)
            return True
        if intent.kind in (IntentKind.UP, IntentKind.PREV, IntentKind.LEFT):
            self.move(-1)
            return True
        if intent.kind == IntentKind.CONFIRM and focused is not None:
            focused.activate()
            return True
        return False

    def draw(self, surface: pygame.Surface, words: Words, *, font: int = 20) -> None:
        for i, w in enumerate(self.widgets):
            if w.visible:
                w.draw(surface, words, focused=self.keyboard_used and i == self.index, font=font)
