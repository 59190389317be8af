"""Credits and licences: the game's version, its licences and what it is built with.

Registered as ``credits`` (``--scene credits``). A panel on the felt lists, in the player's
language: the version; the licences (code MIT, card art and icon CC BY-SA 4.0, fonts OFL);
who made it (fonts and sound credits included); the libraries with the versions actually
running (Python, pygame-ce with its LGPL replace-the-library note, SDL, pydantic, platformdirs);
and where the full licence texts are (``LICENSE``, ``THIRD_PARTY_NOTICES.md``, ``licenses/``) —
next to the program in a packaged build, the checkout's root from source, the wheel's
``.dist-info/licenses/`` when installed with pip — told in words, not as a file-system path.

Decisions:

* The name ``about`` belongs to the "about hanafuda" history page of the learning screens
  (``rules_screen:HanafudaHistoryScene``), which the title's "About hanafuda" button opens;
  this screen (``CreditsScene``) is the game's own About and offers a button to that page.
* Text is fitted, not scrolled: the body font shrinks step by step (down to 11 px at scale 1)
  until every wrapped line fits the panel, so a long translation or a 1024x640 window never
  overflows.
* Nothing is read from disk while drawing: versions and the notices folder are looked up once
  when the screen opens.
"""

from __future__ import annotations

import importlib
import platform
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import pygame

from koikoi_desktop import __version__
from koikoi_desktop.i18n import Key
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import MenuScene, felt
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.widgets import Label

NOTICES = "THIRD_PARTY_NOTICES.md"
DIST_NAME = "koikoi-desktop"


def _dist_version(name: str) -> str:
    """A package's version: its metadata, else its ``__version__`` (a packaged build keeps
    the modules but not always their metadata)."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        pass
    try:
        return str(getattr(importlib.import_module(name), "__version__", "?"))
    except ImportError:
        return "?"


def library_versions() -> dict[str, str]:
    """Versions of what the running game is built with (placeholders of the libraries text)."""
    pg = getattr(pygame, "version", None)
    sdl = (
        ".".join(map(str, pygame.get_sdl_version())) if hasattr(pygame, "get_sdl_version") else "?"
    )
    return {
        "python": platform.python_version(),
        "pygame": str(getattr(pg, "ver", "?")),
        "sdl": sdl,
        "pydantic": _dist_version("pydantic"),
        "platformdirs": _dist_version("platformdirs"),
    }


def _installed_licences() -> Path | None:
    """The licence folder of the installed wheel that this module comes from:
    ``koikoi_desktop-<version>.dist-info/licenses/`` (PEP 639), holding LICENSE,
    THIRD_PARTY_NOTICES.md and the art and font licences (pyproject.toml's ``license-files``)."""
    try:
        dist = metadata.distribution(DIST_NAME)
    except metadata.PackageNotFoundError:
        return None
    package = Path(__file__).resolve().parents[1]
    if Path(str(dist.locate_file("koikoi_desktop"))).resolve() != package:
        return None  # metadata of another copy (an editable install of another checkout)
    for f in dist.files or []:
        if f.name == NOTICES and f.parent.name == "licenses":
            return Path(str(dist.locate_file(f))).parent
    return None


def notices_folder() -> Path | None:
    """Where LICENSE and THIRD_PARTY_NOTICES.md are: beside the packaged program, inside the
    bundle, at the root of a source checkout, or in an installed wheel's metadata."""
    checkout = Path(__file__).resolve().parents[2]
    cands = []
    if getattr(sys, "frozen", False):
        cands.append(Path(sys.executable).resolve().parent)
        meipass = getattr(sys, "_MEIPASS", None)
        if meipass:
            cands.append(Path(meipass))
    if (checkout / "pyproject.toml").is_file():
        cands.append(checkout)
    for c in cands:
        if (c / NOTICES).is_file():
            return c
    return _installed_licences()


class CreditsScene(MenuScene):
    """Version, licences and credits; Esc or Back returns."""

    name = "credits"

    def __init__(self, app: AppServices) -> None:
        super().__init__(app)
        self.heading = Key("ui.credits.heading")
        self.subheading = lambda w: w.t("ui.credits.version", version=__version__)
        self.versions = library_versions()
        self.folder = notices_folder()

    def items(self) -> list[tuple[Label, Callable[[], object], bool]]:
        return [
            (Key("ui.title.about"), self.open_hanafuda, False),
            (Key("ui.common.back"), self.on_back, True),
        ]

    def open_hanafuda(self) -> None:
        self.app.stack.push(self.app.router.build(screens.History()))

    def on_back(self) -> None:
        if len(self.app.stack) > 1:
            self.app.stack.pop()
        else:
            self.app.stack.replace(self.app.router.build(screens.Title()))

    def menu_top(self) -> int:
        s = self.scale
        n = len(self.items())
        return self.size[1] - int(24 * s) - n * int(48 * s) - (n - 1) * int(12 * s)

    def sections(self) -> list[tuple[str, list[str]]]:
        """(title, paragraphs) shown in the panel, in the current language."""
        # Where the notices are, in words: a raw file-system path means nothing to a player.
        # Without the files (a bare installed package) the sentence is left out.
        words = self.app.words
        notices = []
        if self.folder is not None:
            wheel = self.folder.parent.name.endswith(".dist-info")
            notices = [words.t("ui.credits.notices_installed" if wheel else "ui.credits.notices")]
        return [
            (words.t("ui.credits.licence.title"), [words.t("ui.credits.licence.text")]),
            (
                words.t("ui.credits.made.title"),
                [
                    words.t("ui.credits.made.text"),
                    words.t("about.credits.fonts"),
                    words.t("about.credits.sound"),
                ],
            ),
            (
                words.t("ui.credits.libraries.title"),
                [
                    words.t("ui.credits.libraries.text", **self.versions),
                    *notices,
                ],
            ),
        ]

    def panel_rect(self) -> pygame.Rect:
        s = self.scale
        w, h = self.size
        top = int(h * 0.16) + int(46 * s) + int(40 * s)
        bottom = self.menu_top() - int(20 * s)
        width = min(w - int(80 * s), int(940 * s))
        return pygame.Rect((w - width) // 2, top, width, max(40, bottom - top))

    def layout(self, inner: pygame.Rect) -> tuple[int, list[tuple[str, bool]]]:
        """The body font size and the lines ((text, is_title)) that fit ``inner``."""
        size = theme.font_px(18, self.scale)
        smallest = max(10, theme.font_px(11, self.scale))
        while True:
            lines: list[tuple[str, bool]] = []
            for title, paragraphs in self.sections():
                if lines:
                    lines.append(("", False))
                lines.append((title, True))
                for para in paragraphs:
                    lines += [(ln, False) for ln in gfx.wrap(para, size, inner.w)]
            line_h = int(size * 1.45)
            if len(lines) * line_h <= inner.h or size <= smallest:
                return size, lines
            size -= 1

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(felt(surface.get_size()), (0, 0))
        self.draw_heading(surface)
        s = self.scale
        panel = self.panel_rect()
        gfx.draw_panel(surface, panel, radius=max(6, int(12 * s)))
        inner = panel.inflate(-int(48 * s), -int(36 * s))
        size, lines = self.layout(inner)
        y = inner.top
        line_h = int(size * 1.45)
        for text, is_title in lines:
            if text:
                gfx.blit_text(
                    surface,
                    text,
                    size,
                    (inner.left, y),
                    color=theme.OCHRE if is_title else theme.PAPER,
                    bold=is_title,
                    max_width=inner.w,
                )
            y += line_h
        self.focus.draw(surface, self.app.words, font=theme.font_px(21, s))
