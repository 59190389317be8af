"""Text and panels for the scenes: cached text rendering, word wrap.

The words come from the scene (``app.words``, an :class:`koikoi_desktop.i18n.Words`); text is
drawn with :mod:`koikoi_desktop.text` (the shipped fonts, with per-run font switching for mixed
scripts). Rendered lines and wrapped paragraphs are cached by their text, so a language change
needs no clearing: the old lines age out of the caches.
"""

from __future__ import annotations

import functools

import pygame

from koikoi_desktop import text as text_mod
from koikoi_desktop.ui import theme

#: While a list is set here, every line cut short with an ellipsis is added to it as (the
#: whole text, what was shown): the one place text is cut reports it, so a layout test can ask
#: whether anything on a screen was cut (``tests/ui/test_no_cut_text.py``). None: not watched.
cuts: list[tuple[str, str]] | None = None


def cut(text_: str, shown: str) -> str:
    """Report that ``text_`` is shown cut short as ``shown`` (see :data:`cuts`); returns
    ``shown``. Every place that shortens a line with "…" calls this."""
    if cuts is not None:
        cuts.append((text_, shown))
    return shown


#: Rendered lines kept. Decision (issue 9 soak): a frame draws at most a few hundred distinct
#: lines, while every match adds new ones (balances, log lines); 2048 surfaces let a session's
#: memory climb by ~0.4 MB a match for a hundred matches, so the cache matches text.py's 512.
@functools.lru_cache(maxsize=512)
def _render_cached(
    text_: str, size: int, color: tuple[int, int, int], bold: bool
) -> pygame.Surface:
    return text_mod.render(text_, size, color, bold=bold)


def text(
    text_: str, size: int, color: tuple[int, int, int] = theme.PAPER, *, bold: bool = False
) -> pygame.Surface:
    """Render one line of text (cached: draw calls render the same labels every frame)."""
    return _render_cached(text_, size, tuple(color), bold)


def measure(text_: str, size: int, *, bold: bool = False) -> tuple[int, int]:
    """Width and height of a rendered line."""
    return text(text_, size, bold=bold).get_size()


def fit_size(text_: str, size: int, width: int, *, bold: bool = False) -> int:
    """The font size, at most ``size`` and at least 10 px, at which ``text_`` fits ``width``."""
    while size > 10 and measure(text_, size, bold=bold)[0] > width:
        size -= 1
    return size


def blit_seat_tag(
    surface: pygame.Surface,
    name: str,
    note: str,
    size: int,
    pos: tuple[int, int],
    room: int,
    line: int,
) -> None:
    """A seat's bold name tag at ``pos``: "name · note" on one line when it fits ``room``
    (``note`` may be empty), else the name and, ``line`` pixels under it, the note; each line
    in the largest size up to ``size`` that fits (the table's and the review's seat tags)."""
    tag = f"{name} · {note}" if note else name
    parts = [tag]
    if note and measure(tag, size, bold=True)[0] > room:
        parts = [name, note]
    x, y = pos
    for i, part in enumerate(parts):
        fitted = fit_size(part, size, room, bold=True)
        blit_text(surface, part, fitted, (x, y + i * line), bold=True, max_width=room)


def wrap(text_: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width`` pixels (characters for scripts without spaces); cached."""
    return list(_wrap_cached(text_, size, width, bold))


@functools.lru_cache(maxsize=1024)
def _wrap_cached(text_: str, size: int, width: int, bold: bool) -> tuple[str, ...]:
    return tuple(_wrap(text_, size, width, bold=bold))


def _wrap(text_: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    return text_mod.wrap(text_, size, width, bold=bold)


def blit_text(
    surface: pygame.Surface,
    text_: str,
    size: int,
    pos: tuple[int, int],
    *,
    color: tuple[int, int, int] = theme.PAPER,
    bold: bool = False,
    anchor: str = "topleft",
    max_width: int | None = None,
) -> pygame.Rect:
    """Draw a line anchored at ``pos`` (a pygame Rect attribute name); returns its rect.

    With ``max_width`` a too-long line is shortened with an ellipsis rather than overflowing.
    """
    surf = text(text_, size, color, bold=bold)
    if max_width is not None and surf.get_width() > max_width and len(text_) > 1:
        lo = text_
        while len(lo) > 1 and measure(lo + "…", size, bold=bold)[0] > max_width:
            lo = lo[:-1]
        surf = text(cut(text_, lo.rstrip() + "…"), size, color, bold=bold)
    rect = surf.get_rect(**{anchor: pos})
    surface.blit(surf, rect)
    return rect


def draw_panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    *,
    color: tuple[int, int, int] = theme.PANEL,
    edge: tuple[int, int, int] = theme.PANEL_EDGE,
    alpha: int = 235,
    radius: int = 10,
) -> None:
    """A rounded, slightly translucent panel (made once per size and colours, then reused)."""
    surface.blit(_panel(tuple(rect.size), tuple(color), tuple(edge), alpha, radius), rect)


@functools.lru_cache(maxsize=64)
def _panel(
    size: tuple[int, int],
    color: tuple[int, ...],
    edge: tuple[int, ...],
    alpha: int,
    radius: int,
) -> pygame.Surface:
    panel = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(panel, (*color[:3], alpha), panel.get_rect(), border_radius=radius)
    pygame.draw.rect(panel, (*edge[:3], 255), panel.get_rect(), width=1, border_radius=radius)
    return panel


def dim(surface: pygame.Surface, alpha: int = 150) -> None:
    """Darken the whole surface (behind a modal prompt or menu): each channel is multiplied by
    (255 - alpha) / 255, the same as a black veil of that opacity, without a full-window
    per-pixel-alpha blit (0.4 ms instead of 3 ms at 1920x1080)."""
    k = max(0, min(255, 255 - alpha))
    surface.fill((k, k, k), special_flags=pygame.BLEND_RGB_MULT)
