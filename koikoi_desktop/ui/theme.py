"""Colours and sizes shared by every screen (the palette of ART.md, plus table felt).

Highlights never rely on hue alone: every "lit" state also changes shape or outline
(thick outline, corner marks, a lift), so the table reads the same without colour.
"""

from __future__ import annotations

Color = tuple[int, int, int]

FELT: Color = (28, 74, 52)
FELT_DARK: Color = (20, 54, 38)
FELT_LIGHT: Color = (40, 96, 68)
PANEL: Color = (22, 28, 26)
PANEL_EDGE: Color = (70, 84, 76)
PAPER: Color = (244, 236, 216)
INK: Color = (27, 23, 20)
MUTED: Color = (170, 176, 160)
VERMILION: Color = (200, 50, 30)
DEEP_RED: Color = (142, 27, 18)
OCHRE: Color = (217, 160, 43)
INDIGO: Color = (36, 64, 122)
PINE: Color = (47, 107, 58)
LEAF: Color = (93, 138, 58)
PINK: Color = (229, 154, 165)
VIOLET: Color = (106, 61, 143)
WHITE: Color = (255, 255, 255)
TARGET: Color = (255, 214, 90)
DANGER: Color = (235, 90, 70)

BUTTON: Color = (46, 58, 52)
BUTTON_HOVER: Color = (66, 84, 74)
BUTTON_FOCUS_EDGE: Color = OCHRE
BUTTON_DISABLED: Color = (38, 42, 40)

#: Month colours for placeholder cards (before the art lands) and small month chips.
MONTH_COLORS: dict[int, Color] = {
    1: (47, 107, 58),
    2: (200, 50, 30),
    3: (229, 154, 165),
    4: (106, 61, 143),
    5: (36, 64, 122),
    6: (142, 27, 18),
    7: (176, 60, 70),
    8: (27, 23, 20),
    9: (217, 160, 43),
    10: (210, 80, 30),
    11: (60, 70, 90),
    12: (120, 90, 150),
}


def font_px(size: int, scale: float) -> int:
    """A font pixel size scaled by the window (``scale`` = height / 800) and the UI scale."""
    return max(10, round(size * scale))
