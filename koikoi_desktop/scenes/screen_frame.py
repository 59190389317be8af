"""The frame of a full-window screen, as a part a scene holds: :class:`ScreenFrame`.

The frame is what the learning screens, the ledger and the settings have in common: the felt
backdrop and a heading; a row of header buttons, right-aligned with Back last (keyboard-focusable
through a :class:`~koikoi_desktop.ui.widgets.FocusGroup`); the layout scale of the window and the
player's interface scale (``px``, ``font``); and *hit regions*: rectangles the scene registers
while drawing (cards, chips, list rows) with the callback a click (or the wheel) over them runs.

A scene holds one (``self.frame``) and calls it by name at each point; nothing is inherited::

    def build(self):                        # enter, resume, resize
        self.frame.build(header_items)      # the header buttons, measured in today's language
    def handle(self, intent):
        if intent.kind == IntentKind.BACK: ...
        if self.frame.handle(intent): return  # header buttons, hit regions, wheel regions
        ...                                   # the scene's own keys and wheel
    def draw(self, surface):
        if self.frame.stale(surface.get_size()):
            self.resize(surface.get_size())   # a new size or language: measured again
        self.frame.draw_backdrop(surface)      # felt, heading; forgets last frame's regions
        ...

Decisions:

* Composition, not a base class: the ledger and the settings are not learning screens; they
  only need the same frame, so they are plain :class:`~koikoi_desktop.scenes.base.Scene`\\ s that
  hold one. The learning screens (month and yaku reference, quiz, rules, hanafuda history) keep
  a thin :class:`~koikoi_desktop.scenes.learning.LearnScene` base: they *are* learning screens —
  the same lifecycle, the same Back, the reference screens swapping in for each other
  (``LearnScene.open``), the active rules explained — and that base holds a frame like any other
  scene, so the frame's code lives here only.
* Hit regions are recorded in ``draw`` (layout of wrapped, translated text is only known there).
  They are view state, never game state, so ``draw`` stays read-only for the match; a click that
  arrives before the first frame simply finds no region. The last region registered wins (it is
  drawn on top).
* The frame never calls back into its scene: the scene asks it (``stale``) and rebuilds its own
  layout, so the order of a scene's build stays in the scene.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from koikoi_desktop.i18n import Key, Label, Words, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import felt, scale_of
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, FocusGroup

#: A header button: its label (worded when drawn) and what a click runs.
HeaderItem = tuple[Label, Callable[[], object]]

POINTER = (IntentKind.PRESS, IntentKind.RELEASE, IntentKind.MOVE)


def go_back(app: AppServices) -> None:
    """Back from a full-window screen: to the screen below, or to the title when it is alone
    (opened with ``--scene``)."""
    stack = app.stack
    if len(stack) > 1:
        stack.pop()
    else:
        stack.replace(app.router.build(screens.Title()))


class ScreenFrame:
    """Backdrop, heading, header buttons, hit regions and the layout scale of one screen.

    ``heading`` words the title when drawn; ``back`` is what the Back button runs (the scene's
    own Back: the ledger first closes an opened match)."""

    def __init__(self, app: AppServices, *, heading: Label, back: Callable[[], object]) -> None:
        self.app = app
        self.heading = heading
        self.back = back
        #: The size the header was laid out for (the window's, until a resize or a draw says
        #: otherwise).
        self.size: tuple[int, int] = (int(app.size[0]), int(app.size[1]))
        self.focus = FocusGroup()
        self.buttons: list[Button] = []
        self.hits: list[tuple[pygame.Rect, Callable[[], object]]] = []
        self.wheel_hits: list[tuple[pygame.Rect, Callable[[int], object]]] = []
        self.pointer: tuple[int, int] = (0, 0)  # last pointer position (for the wheel)
        #: The words the header buttons were measured in (their widths fit its labels).
        self.built_words: Words | None = None

    # ------------------------------------------------------------------ scale
    @property
    def scale(self) -> float:
        return scale_of(self.size, self.app.ui_scale)

    def px(self, n: float) -> int:
        return round(n * self.scale)

    def font(self, n: int) -> int:
        return theme.font_px(n, self.scale)

    # ------------------------------------------------------------------ layout
    def build(self, items: Sequence[HeaderItem] = ()) -> None:
        """Lay out the header buttons: ``items`` then Back, right-aligned; Back is primary. The
        focus group holds the buttons (a scene may set it again with its own widgets first)."""
        words = self.app.words
        rows = [*items, (Key("ui.common.back"), self.back)]
        f = self.font(17)
        h = self.px(38)
        gap = self.px(10)
        x = self.size[0] - self.px(20)
        self.buttons = []
        for label, cb in reversed(rows):
            text = say(label, words)
            w = max(self.px(90), gfx.measure(text, f, bold=True)[0] + self.px(28))
            x -= w
            self.buttons.insert(0, Button(label, cb, pygame.Rect(x, self.px(16), w, h)))
            x -= gap
        self.buttons[-1].primary = True
        self.focus.set(self.buttons)
        self.built_words = words

    def stale(self, size: tuple[int, int]) -> bool:
        """The header was laid out for another size or language (the scene builds again)."""
        return size != self.size or self.built_words != self.app.words

    def header_left(self) -> int:
        """The x where the header buttons start (the heading must end before it)."""
        return self.buttons[0].rect.x if self.buttons else self.size[0]

    # ------------------------------------------------------------------ input
    def hit(self, rect: pygame.Rect, callback: Callable[[], object]) -> None:
        """A click on ``rect`` runs ``callback`` (until the next frame)."""
        self.hits.append((pygame.Rect(rect), callback))

    def wheel(self, rect: pygame.Rect, on_wheel: Callable[[int], object]) -> None:
        """The wheel over ``rect`` runs ``on_wheel(dy)`` (until the next frame)."""
        self.wheel_hits.append((pygame.Rect(rect), on_wheel))

    def handle(self, intent: Intent) -> bool:
        """What the frame takes of ``intent``: a pointer on a header button (the focus group),
        a press on a hit region, the wheel over a wheel region. Records where the pointer is.
        True when taken; the scene handles the rest (Back, keys, the wheel elsewhere)."""
        if intent.kind in POINTER:
            self.pointer = intent.pos
            if self.focus.handle(intent):
                return True
            if intent.kind == IntentKind.PRESS:
                for rect, cb in reversed(self.hits):
                    if rect.collidepoint(intent.pos):
                        cb()
                        return True
            return False
        if intent.kind == IntentKind.WHEEL:
            for rect, on_wheel in reversed(self.wheel_hits):
                if rect.collidepoint(self.pointer):
                    on_wheel(intent.pos[1])
                    return True
        return False

    def route(
        self,
        intent: Intent,
        *,
        back: Callable[[], object],
        wheel: Callable[[int], object],
        key: Callable[[Intent], bool],
        pointer: Callable[[Intent], object] | None = None,
    ) -> None:
        """A framed screen's one order of handling ``intent``: Back; what the frame takes
        (:meth:`handle`); a pointer event nothing took (``pointer``); the wheel elsewhere; the
        keys the screen uses (``key`` returns True for those); any other key moves the header
        buttons' focus."""
        if intent.kind == IntentKind.BACK:
            back()
        elif self.handle(intent):
            return
        elif intent.kind in POINTER:
            if pointer is not None:
                pointer(intent)
        elif intent.kind == IntentKind.WHEEL:
            wheel(intent.pos[1])
        elif not key(intent):
            self.focus.handle(intent)

    # ------------------------------------------------------------------ drawing
    def draw_backdrop(self, surface: pygame.Surface) -> None:
        """Felt and heading; forgets the last frame's hit regions (this frame registers its
        own). The scene rebuilds first when :meth:`stale`."""
        self.hits = []
        self.wheel_hits = []
        surface.blit(felt(surface.get_size()), (0, 0))
        gfx.blit_text(
            surface,
            say(self.heading, self.app.words),
            self.font(30),
            (self.px(24), self.px(18)),
            bold=True,
            max_width=max(20, self.header_left() - self.px(40)),
        )

    def draw_buttons(self, surface: pygame.Surface) -> None:
        """The header buttons (with the keyboard's focus, once the keyboard is used)."""
        self.focus.draw(surface, self.app.words, font=self.font(17))
