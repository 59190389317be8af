"""The learn-the-suit badge: a corner index that tells a beginner a card's month and category.

Like the index in the corner of a Western playing card, the badge is a small paper tab in the
card's top-left corner holding, top to bottom:

* the month number (1-12) in bold ink;
* the month plant's pictogram (pine, plum, cherry ... paulownia; ``assets/ui/badges/month_MM.svg``);
* the category glyph, whose *shape* alone tells the category, so it works without colour:
  bright = eight-rayed sun, animal = paw print, plain = empty ring, ribbon = a tanzaku strip —
  with brush marks for a poetry ribbon, a hollow inner border for a blue ribbon and solid for a
  plain red ribbon (``assets/ui/badges/kind_*.svg``).

The UI draws it over the card art (so a setting can switch it off); ``draw_badge`` takes the
*card's* rect and places the badge itself, sized in proportion to the card.  Rendered badges are
cached per (card, card size).  The card facts (month, kind, ribbon colour) come from the engine's
deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koikoi_desktop.assets import badge_path, load_svg
from koikoi_desktop.engine import card, month_of

if TYPE_CHECKING:
    import pygame

INK = (27, 23, 20)
PAPER = (244, 236, 216)


def card_month(card_id: int) -> int:
    """Month (1-12) of a card (the engine's ``month_of``).

    >>> card_month(1), card_month(44), card_month(48)
    (1, 11, 12)
    """
    return month_of(card_id)


def card_glyph(card_id: int) -> str:
    """Name of the category glyph of a card (its engine kind; ribbons by their flags).

    >>> [card_glyph(i) for i in (1, 5, 2, 22, 14, 3)]
    ['bright', 'animal', 'ribbon_poetry', 'ribbon_blue', 'ribbon_red', 'plain']
    """
    c = card(card_id)
    if c.kind != "ribbon":
        return c.kind
    if "poetry" in c.flags:
        return "ribbon_poetry"
    return "ribbon_blue" if "blue" in c.flags else "ribbon_red"


def badge_rect(card_rect: pygame.Rect) -> pygame.Rect:
    """Where the badge goes on a card drawn in ``card_rect`` (its top-left corner)."""
    import pygame

    w = max(10, round(card_rect.width * 0.26))
    h = round(w * 2.35)
    inset = max(2, round(card_rect.width * 0.035))
    return pygame.Rect(card_rect.x + inset, card_rect.y + inset, w, h)


_cache: dict[tuple[int, int, int], pygame.Surface] = {}
_fonts: dict[int, pygame.font.Font] = {}


def _font(px: int) -> pygame.font.Font:
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    f = _fonts.get(px)
    if f is None:
        f = pygame.font.Font(None, px)
        f.bold = True
        _fonts[px] = f
    return f


def render_badge(card_id: int, size: tuple[int, int]) -> pygame.Surface:
    """The badge of ``card_id`` as a surface of ``size`` (width, height), cached."""
    import pygame

    key = (card_id, size[0], size[1])
    surf = _cache.get(key)
    if surf is not None:
        return surf
    w, h = size
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    radius = max(2, w // 5)
    pygame.draw.rect(surf, (*PAPER, 236), surf.get_rect(), border_radius=radius)
    pygame.draw.rect(surf, INK, surf.get_rect(), width=max(1, w // 16), border_radius=radius)
    pad = max(1, w // 10)
    inner = w - 2 * pad
    # month number
    digits = str(card_month(card_id))
    font = _font(max(8, round(w * (0.8 if len(digits) == 1 else 0.7))))
    text = font.render(digits, True, INK)
    y = pad
    surf.blit(text, text.get_rect(midtop=(w // 2, y + 1)))
    y += round(w * 0.62)
    # plant pictogram
    pic = load_svg(badge_path(f"month_{card_month(card_id):02d}"), (inner, inner))
    surf.blit(pic, (pad, y))
    y += inner + max(1, pad // 2)
    # separator and category glyph
    pygame.draw.line(surf, INK, (pad, y), (w - pad - 1, y), max(1, w // 24))
    y += max(1, pad // 2) + 1
    gsize = min(inner, h - y - pad)
    if gsize > 2:
        glyph = load_svg(badge_path(f"kind_{card_glyph(card_id)}"), (gsize, gsize))
        surf.blit(glyph, ((w - gsize) // 2, y))
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        surf = surf.convert_alpha()
    _cache[key] = surf
    return surf


def draw_badge(surface: pygame.Surface, rect: pygame.Rect, card_id: int) -> pygame.Rect:
    """Draw the learn-the-suit badge of ``card_id`` over a card drawn in ``rect``.

    Returns the rect the badge covers.  Card id 0 (the back) has no badge.
    """
    import pygame

    rect = pygame.Rect(rect)
    if card_id == 0:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    br = badge_rect(rect)
    surface.blit(render_badge(card_id, br.size), br)
    return br


def clear_cache() -> None:
    _cache.clear()
