"""Card images for the scenes: the SVG sprite cache, or placeholders.

``card_surface(app, card_id, size)`` returns a cached, display-format surface: the real art,
rasterised once per size, or, when the card's file is missing or damaged, a plain placeholder
(month colour, month number, category) so every screen still works. Card id 0 is the back.
The cache is cleared on resize by the app.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from koikoi_desktop.assets import CardSprites
from koikoi_desktop.engine import DECK, KINDS, kind_of, month_of
from koikoi_desktop.ui import badges, gfx, theme

__all__ = ["ANIMALS", "BRIGHTS", "KIND_ORDER", "RIBBONS", "HasSprites", "kind_of", "month_of"]


class HasSprites(Protocol):
    """What ``card_surface`` needs of the app: its card sprite cache (None without art)."""

    @property
    def sprites(self) -> CardSprites | None: ...


#: Card ids of each category, read from the engine's deck (the one source of card facts).
BRIGHTS = frozenset(c.id for c in DECK if c.kind == "bright")
ANIMALS = frozenset(c.id for c in DECK if c.kind == "animal")
RIBBONS = frozenset(c.id for c in DECK if c.kind == "ribbon")
KIND_ORDER = KINDS


_placeholders: dict[tuple[int, tuple[int, int]], pygame.Surface] = {}


def clear_cache() -> None:
    _placeholders.clear()


def placeholder(card_id: int, size: tuple[int, int]) -> pygame.Surface:
    """A readable stand-in card: month colour band, month number, category letter."""
    key = (card_id, size)
    if key in _placeholders:
        return _placeholders[key]
    w, h = size
    surf = pygame.Surface(size, pygame.SRCALPHA)
    rad = max(3, w // 12)
    if card_id == 0:
        pygame.draw.rect(surf, theme.DEEP_RED, surf.get_rect(), border_radius=rad)
        pygame.draw.rect(surf, theme.INK, surf.get_rect(), width=max(1, w // 30), border_radius=rad)
        pygame.draw.rect(
            surf, theme.OCHRE, surf.get_rect().inflate(-w // 5, -w // 5), width=1, border_radius=rad
        )
    else:
        m = month_of(card_id)
        pygame.draw.rect(surf, theme.PAPER, surf.get_rect(), border_radius=rad)
        band = pygame.Rect(0, int(h * 0.28), w, int(h * 0.44))
        pygame.draw.rect(surf, theme.MONTH_COLORS[m], band)
        pygame.draw.rect(surf, theme.INK, surf.get_rect(), width=max(1, w // 30), border_radius=rad)
        size_px = max(10, h // 6)
        gfx.blit_text(
            surf,
            str(m),
            size_px,
            (w // 2, int(h * 0.14)),
            color=theme.INK,
            bold=True,
            anchor="center",
        )
        kind = kind_of(card_id)
        gfx.blit_text(
            surf,
            kind[:1].upper(),
            size_px,
            (w // 2, h // 2),
            color=theme.PAPER,
            bold=True,
            anchor="center",
        )
        gfx.blit_text(
            surf,
            f"#{card_id}",
            max(9, h // 9),
            (w // 2, int(h * 0.86)),
            color=theme.INK,
            anchor="center",
        )
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        surf = surf.convert_alpha()
    _placeholders[key] = surf
    return surf


def card_surface(app: HasSprites, card_id: int, size: tuple[int, int]) -> pygame.Surface:
    """The card's image at ``size``: the real art, or the placeholder when the install lacks
    the card's file or it is damaged (``KOIKOI_ASSETS_DIR`` tests) or no art was loaded."""
    sprites = app.sprites
    if sprites is not None:
        try:
            return sprites.get(card_id, size)
        except (pygame.error, OSError):  # a missing or damaged SVG: the placeholder stands in
            pass
    return placeholder(card_id, size)


def draw_badge(surface: pygame.Surface, rect: pygame.Rect, card_id: int) -> None:
    """The learn-the-suit badge (``ui/badges.py``); none when its pictograms are missing or
    damaged in the install."""
    try:
        badges.draw_badge(surface, rect, card_id)
    except (pygame.error, OSError):
        return
