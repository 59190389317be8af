"""Finding the asset folder and caching rasterised card sprites.

The SVG card art, fonts and UI art live in the repository's top-level ``assets/`` folder.  The
wheel and the PyInstaller bundle carry that folder as the package's data folder
``koikoi_desktop/data/`` (pyproject.toml, packaging/koikoi-desktop.spec), which
:func:`asset_root` finds through ``importlib.resources`` (PyInstaller's importer answers it with
the folder inside the bundle); in a source checkout it is the top-level ``assets/`` beside the
package.  Nothing is looked up relative to the working directory.

:class:`CardSprites` rasterises each card once per size with ``pygame.image.load_sized_svg`` and
keeps the result; a window resize asks for a new size, and the cache keeps only the few most
recent sizes so memory stays bounded (a table uses one or two card sizes at a time).

Nothing here imports pygame at module import time.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from koikoi_desktop.engine.cards import DECK

if TYPE_CHECKING:
    import pygame

#: File names of the 48 cards, by id: the engine's codes (RULES.md §2), one source of truth.
CARD_CODES: tuple[str, ...] = tuple(c.code for c in DECK)

#: Width : height of the card art (viewBox 0 0 200 320).
CARD_ASPECT = 200 / 320


#: The package's data folder in a wheel or a bundle (the checkout's ``assets/``).
DATA_FOLDER = "data"


def _candidates() -> list[Path]:
    """The package's data folder, then, in a source checkout only, the top-level ``assets/``
    (an installed package never looks beside itself in site-packages)."""
    package = resources.files("koikoi_desktop")
    if not isinstance(package, Path):
        raise FileNotFoundError(
            f"the koikoi_desktop package is not a folder ({package}): "
            "pygame needs the assets as files"
        )
    package = package.resolve()  # asset_root() is kept for the run: never a relative path
    out = [package / DATA_FOLDER]
    checkout = package.parent
    if (checkout / "pyproject.toml").is_file():
        out.append(checkout / "assets")
    return out


@cache
def asset_root() -> Path:
    """The folder holding ``cards/``, ``ui/`` and the other assets.

    The environment variable ``KOIKOI_ASSETS_DIR`` names the folder outright (tests of damaged
    installs, art work in progress): it is used even when files are missing from it, so a broken
    copy shows the placeholders rather than quietly borrowing another copy's art.

    >>> (asset_root() / "cards").is_dir()
    True
    """
    override = os.environ.get("KOIKOI_ASSETS_DIR")
    if override:
        return Path(override).expanduser()
    for cand in _candidates():
        if (cand / "cards").is_dir():
            return cand
    raise FileNotFoundError(
        "asset folder not found; looked in: " + ", ".join(str(c) for c in _candidates())
    )


def card_path(card_id: int) -> Path:
    """The SVG of card ``card_id`` (1-48); 0 means the back.

    >>> card_path(1).name
    '01_JAN_CRANE.svg'
    >>> card_path(48).name
    '48_DEC_PLAIN_3.svg'
    """
    if card_id == 0:
        return back_path()
    if not 1 <= card_id <= 48:
        raise ValueError(f"no card with id {card_id}")
    return asset_root() / "cards" / f"{card_id:02d}_{CARD_CODES[card_id - 1]}.svg"


def back_path() -> Path:
    """The SVG of the card back."""
    return asset_root() / "cards" / "back.svg"


def badge_path(name: str) -> Path:
    """A badge pictogram, e.g. ``month_01`` or ``kind_bright``."""
    return asset_root() / "ui" / "badges" / f"{name}.svg"


def card_size_for_height(height: int) -> tuple[int, int]:
    """Card (width, height) in pixels for a card ``height`` pixels tall, keeping 5:8."""
    return max(1, round(height * CARD_ASPECT)), height


def load_svg(path: Path, size: tuple[int, int]) -> pygame.Surface:
    """Rasterise ``path`` at exactly ``size``; ``convert_alpha()`` when a display mode is set.

    SDL_image rounds the raster size up, so asking 120x192 of a 200x320 viewBox returns 121x192
    with an empty last column.  An off-by-one result is cropped or padded (transparent) to the
    size asked for, so the art stays sharp; anything further off is smooth-scaled.
    """
    import pygame

    size = (int(size[0]), int(size[1]))
    surf = pygame.image.load_sized_svg(str(path), size)
    got = surf.get_size()
    if got != size:
        if abs(got[0] - size[0]) <= 1 and abs(got[1] - size[1]) <= 1:
            exact = pygame.Surface(size, pygame.SRCALPHA)
            exact.blit(surf, (0, 0))
            surf = exact
        else:
            surf = pygame.transform.smoothscale(
                surf.convert_alpha() if pygame.display.get_surface() else surf, size
            )
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        surf = surf.convert_alpha()
    return surf


class CardSprites:
    """Rasterised card sprites keyed by (card id, size); id 0 is the back.

    ``get`` rasterises on first use.  Only ``max_sizes`` distinct sizes are kept: asking for a
    new size after a window resize drops the oldest size, so the cache clears itself on resize;
    :meth:`clear` empties it explicitly.
    """

    def __init__(self, max_sizes: int = 3) -> None:
        self.max_sizes = max_sizes
        self._by_size: OrderedDict[tuple[int, int], dict[int, pygame.Surface]] = OrderedDict()

    def get(self, card_id: int, size: tuple[int, int]) -> pygame.Surface:
        size = (int(size[0]), int(size[1]))
        sprites = self._by_size.get(size)
        if sprites is None:
            sprites = {}
            self._by_size[size] = sprites
            while len(self._by_size) > self.max_sizes:
                self._by_size.popitem(last=False)
        else:
            self._by_size.move_to_end(size)
        surf = sprites.get(card_id)
        if surf is None:
            surf = load_svg(card_path(card_id), size)
            sprites[card_id] = surf
        return surf

    def prewarm(self, size: tuple[int, int]) -> None:
        """Rasterise the whole deck and the back at ``size`` (on resize, before drawing).

        A card whose file is missing or damaged is skipped: ``get`` raises for it again when
        it is drawn, and the caller shows its placeholder (``ui.cards.card_surface``)."""
        import pygame

        for cid in range(49):
            try:
                self.get(cid, size)
            except (pygame.error, OSError):  # a damaged SVG, a missing file: shown as such
                continue

    def sizes(self) -> list[tuple[int, int]]:
        return list(self._by_size)

    def clear(self) -> None:
        self._by_size.clear()
