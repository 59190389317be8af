"""The table's sidebar: the yaku tracker of both players and the move log (drawn into the
table's static layer by :class:`~.view.TableView`, each part only when what it shows has
changed), from the controller's snapshot: read-only.

Tracker labels: the name column is as wide as the longest yaku name needs, leaving room for the
widest row of card chips (five brights). Every yaku is named as on every other screen (the one
name style of the ``Words`` it is drawn in); a name that does not fit takes a second line
rather than another name.
In a short window the opponent's part lists only the yaku they have begun, so the move log
keeps room. A player's heading puts the yaku score on the right; a name too long to share the
line with it gets the line to itself and the score goes under it, so neither is cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from koikoi_desktop.i18n import Words
from koikoi_desktop.scenes.table.snapshot import TableSnapshot
from koikoi_desktop.scenes.table.text import LogLine, log_text
from koikoi_desktop.ui import gfx, theme, tracker
from koikoi_desktop.ui.layout import TableLayout

CHIP_GAP = 2
#: A sidebar shorter than this (a window about 1024x640) lists, for the opponent, only the yaku
#: they have begun.
COMPACT_BELOW = 720

#: (layout, card id, size) -> the card's image (the view's cache).
Images = Callable[[TableLayout, int, tuple[int, int]], pygame.Surface]


def _metrics(lay: TableLayout) -> tuple[int, int, int, int]:
    """Font size, chip width and height, padding of the tracker at the layout's scale."""
    fs = theme.font_px(14, lay.scale)
    chip_h = max(14, round(20 * lay.scale))
    return fs, round(chip_h * 0.625), chip_h, 10


def tracker_key(snap: TableSnapshot, lay: TableLayout) -> tuple[object, ...]:
    return (
        lay.sidebar.size,
        lay.scale,
        snap.view.cap_masks,
        snap.viewer,
        snap.names,
        snap.show_tracker,
        id(snap.rules),
        snap.words,  # the language and the name style the names are drawn in
    )


def _label(words: Words, key: str, fs: int, room: int) -> list[str]:
    """The row's yaku name in at most two lines of ``room`` pixels (the same name as on every
    other screen: never swapped for another one to fit)."""
    lines = gfx.wrap(words.yaku_name(key), fs, room)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]  # blit_text shortens the rest, if it must
    return lines


def _label_width(words: Words, rows: list[tracker.Row], fs: int, width: int, chip_w: int) -> int:
    """Width of the name column: what the longest name needs, but never so much that the
    widest chip row (plus a count like 10/10) no longer fits."""
    m = fs // 2
    chips = max((len(r.cards) for r in rows if not r.count_only), default=5)
    keep = max(chips * (chip_w + CHIP_GAP), gfx.measure("10/10", fs)[0]) + 6
    want = max((gfx.measure(words.yaku_name(r.key), fs)[0] for r in rows), default=0) + m + 14
    return max(int(width * 0.4), min(want, width - keep))


def draw_tracker(
    surface: pygame.Surface, snap: TableSnapshot, lay: TableLayout, image: Images
) -> int:
    """The sidebar panel and both players' yaku progress; returns the y below them."""
    words = snap.words
    side = lay.sidebar
    fs, chip_w, chip_h, pad = _metrics(lay)
    x0 = side.x + pad
    width = side.w - 2 * pad
    y = int(side.y) + 8
    if not snap.show_tracker:  # help level: no tracker
        return y
    caps = [set(snap.view.captured[0]), set(snap.view.captured[1])]
    for p in (snap.viewer, 1 - snap.viewer):
        color = theme.OCHRE if p == snap.viewer else theme.PAPER
        name = snap.names[p]
        score_text = f"{words.t('term.yaku')}: {snap.bases[p]}"
        score_w = gfx.measure(score_text, fs + 1, bold=True)[0]
        fits = gfx.measure(name, fs + 1, bold=True)[0] + 10 + score_w <= width
        if not fits:  # the name gets its own lines; the score goes under it, on the right
            for line in gfx.wrap(name, fs + 1, width, bold=True):
                gfx.blit_text(surface, line, fs + 1, (x0, y), bold=True, color=color)
                y += fs + 5
        gfx.blit_text(
            surface,
            score_text,
            fs + 1,
            (side.right - pad, y),
            anchor="topright",
            bold=True,
            color=color,
        )
        if fits:
            gfx.blit_text(
                surface,
                name,
                fs + 1,
                (x0, y),
                bold=True,
                color=color,
                max_width=width - score_w - 10,
            )
        y += fs + 10
        rows = tracker.rows(caps[p], caps[1 - p], snap.rules)
        if p != snap.viewer and side.h < COMPACT_BELOW:
            # a short window: the opponent's rows are the yaku they have begun (what threatens),
            # so the move log under them keeps room for its lines (issue 43: about two)
            rows = [r for r in rows if r.held or r.done]
        label_w = _label_width(words, rows, fs, width, chip_w)
        for row in rows:
            y = _tracker_row(
                words,
                surface,
                lay,
                image,
                row,
                caps[p],
                (x0, y),
                (width, label_w),
                (chip_w, chip_h),
                fs,
            )
        y += 8
    return y


def _tracker_row(
    words: Words,
    surface: pygame.Surface,
    lay: TableLayout,
    image: Images,
    row: tracker.Row,
    mine: set[int],
    pos: tuple[int, int],
    widths: tuple[int, int],
    chip: tuple[int, int],
    fs: int,
) -> int:
    """One yaku row: name (✓ made, ✗ no longer possible), then held / missing / gone cards."""
    x, y = pos
    width, label_w = widths
    cw, chh = chip
    color = theme.OCHRE if row.done else (theme.MUTED if not row.possible else theme.PAPER)
    m = fs // 2
    room = label_w - m - 14
    lines = _label(words, row.key, fs, room)
    line_h = fs + 3
    row_h = max(chh, len(lines) * line_h)  # a two-line name makes its row taller
    cy = y + row_h // 2
    chip_y = cy - chh // 2
    if row.done:  # a drawn tick: readable without colour and in any font
        pygame.draw.lines(
            surface, color, False, [(x, cy), (x + m // 2, cy + m // 2), (x + m, cy - m // 2)], 2
        )
    elif not row.possible:
        pygame.draw.line(surface, color, (x, cy - m // 2), (x + m, cy + m // 2), 2)
        pygame.draw.line(surface, color, (x, cy + m // 2), (x + m, cy - m // 2), 2)
    top = cy - (len(lines) * line_h) // 2
    for i, line in enumerate(lines):
        gfx.blit_text(
            surface,
            line,
            fs,
            (x + m + 5, top + i * line_h + line_h // 2),
            anchor="midleft",
            color=color,
            max_width=room,
        )
    cx = x + label_w
    if row.count_only:
        gfx.blit_text(
            surface,
            f"{row.held}/{row.need}",
            fs,
            (cx, cy),
            anchor="midleft",
            color=color,
            bold=row.done,
        )
        return y + row_h + 3
    step = min(cw + CHIP_GAP, (width - label_w) // max(1, len(row.cards)))
    for c in row.cards:
        r = pygame.Rect(cx, chip_y, cw, chh)
        if c in mine:
            surface.blit(image(lay, c, (cw, chh)), r)
        elif c in row.gone:
            img = image(lay, c, (cw, chh)).copy()
            img.set_alpha(90)
            surface.blit(img, r)
            pygame.draw.line(surface, theme.DANGER, r.topleft, r.bottomright, 2)
            pygame.draw.line(surface, theme.DANGER, r.topright, r.bottomleft, 2)
        else:
            pygame.draw.rect(surface, theme.MUTED, r, width=1, border_radius=2)
        cx += step
    return y + row_h + 3


def log_rect(lay: TableLayout, top: int) -> pygame.Rect:
    """Where the move log sits: from ``top`` (below the tracker) to above the buttons."""
    side = lay.sidebar
    return pygame.Rect(side.x, top, side.w, side.bottom - top)


def log_key(snap: TableSnapshot, lay: TableLayout, top: int, back: int = 0) -> tuple[object, ...]:
    # the log holds facts: its words change with the language, the name style and the names
    return (
        top,
        lay.sidebar.size,
        lay.scale,
        len(snap.log),
        snap.log[-1:],
        snap.names,
        snap.words,
        back,
    )


def _log_frame(lay: TableLayout, top: int, bottom: int | None) -> tuple[int, int, int, int]:
    """The log's heading line, its first line, its line height and how many lines fit."""
    fs = _metrics(lay)[0]
    side = lay.sidebar
    if bottom is None:
        bottom = side.bottom - round(40 * lay.scale)
    head_y = top + 10
    y = head_y + fs + 8
    line_h = fs + 6
    fit = max(0, (bottom - 10 - y) // line_h) if head_y + fs + 4 <= bottom else 0
    return head_y, y, line_h, fit


def _log_width(lay: TableLayout) -> int:
    """How wide a line of the move log may be (the scroll bar keeps its strip on the right)."""
    pad = _metrics(lay)[3]
    return lay.sidebar.w - 2 * pad - 8


class WordedLog:
    """The move log's entries worded and wrapped, kept from one drawing to the next (a drawing
    cache, like the static layer that owns it): a new entry costs its own wording and wrap, not
    the whole log's again.

    An entry's lines depend on the entry (an immutable fact, recognised by identity: the memo
    holds it, so its id is not reused while it is kept; an equal entry made anew is worded anew)
    and on the context: the words (language and name style), the names, the rules, the font
    size and the wrap width. A change of any of these drops every kept line, so a language
    change mid-match rewords the whole log. Only the entries of the last log asked for are
    kept (a new round, an undo or a resume lets the others go).
    """

    def __init__(self) -> None:
        self._context: tuple[object, ...] = ()
        #: id(entry) -> (the entry, its lines; None: an event with no line)
        self._kept: dict[int, tuple[LogLine, tuple[str, ...] | None]] = {}

    def entries(self, snap: TableSnapshot, lay: TableLayout) -> list[tuple[str, ...]]:
        """Every entry of the move log worded now (in today's language) and wrapped to the
        sidebar, oldest first (an event with no line is left out)."""
        fs, width = _metrics(lay)[0], _log_width(lay)
        context = (snap.words, snap.names, snap.rules, fs, width)
        if context != self._context:
            self._context, self._kept = context, {}
        old = self._kept
        kept: dict[int, tuple[LogLine, tuple[str, ...] | None]] = {}
        out: list[tuple[str, ...]] = []
        for entry in snap.log:
            hit = old.get(id(entry))
            if hit is None or hit[0] is not entry:
                text = log_text(snap.words, entry, snap.names, snap.rules)
                hit = (entry, tuple(gfx.wrap(text, fs, width)) if text else None)
            kept[id(entry)] = hit
            if hit[1] is not None:
                out.append(hit[1])
        self._kept = kept
        return out


def log_window(entries: Sequence[Sequence[str]], fit: int, back: int) -> tuple[list[str], int, int]:
    """The whole entries shown ending ``back`` entries before the newest (clamped: the oldest
    entry can come to the top, never past it), as lines; the clamped ``back`` and the largest
    ``back`` there is."""
    # the largest back: the oldest entries fill the window from the top
    used, first_fit = 0, 0
    for lines in entries:
        if used + len(lines) > fit:
            break
        used += len(lines)
        first_fit += 1
    most = max(0, len(entries) - max(1, first_fit))
    back = max(0, min(back, most))
    shown: list[str] = []
    for lines in reversed(entries[: len(entries) - back]):
        if len(shown) + len(lines) > fit:
            break  # only whole entries: never the tail of a sentence at the top
        shown[:0] = lines
    return shown, back, most


def log_most_back(
    memo: WordedLog, snap: TableSnapshot, lay: TableLayout, top: int, bottom: int | None = None
) -> int:
    """How many entries the log can be scrolled back (0: everything is on show)."""
    fit = _log_frame(lay, top, bottom)[3]
    return log_window(memo.entries(snap, lay), fit, 0)[2]


def draw_log(
    surface: pygame.Surface,
    memo: WordedLog,
    snap: TableSnapshot,
    lay: TableLayout,
    top: int,
    bottom: int | None = None,
    back: int = 0,
) -> None:
    """The move log under the tracker, newest line last (brighter), down to ``bottom`` (the
    top of the buttons under it; default: one row of buttons); scrolled ``back`` entries
    before the newest (the wheel over it, Page Up / Page Down), with a bar on its right that
    shows where. ``memo`` keeps the entries' lines between drawings."""
    words = snap.words
    side = lay.sidebar
    fs, _, _, pad = _metrics(lay)
    x0 = side.x + pad
    pygame.draw.rect(surface, theme.PANEL, log_rect(lay, top))
    pygame.draw.line(surface, theme.PANEL_EDGE, (side.x, top), (side.x, side.bottom))
    pygame.draw.line(surface, theme.PANEL_EDGE, (side.x + 8, top + 4), (side.right - 8, top + 4))
    head_y, y, line_h, fit = _log_frame(lay, top, bottom)
    if not fit:  # no room left under the tracker (a tall one, a small window)
        return
    entries = memo.entries(snap, lay)
    lines, back, most = log_window(entries, fit, back)
    if entries and not lines:
        return  # no room for a whole entry (a tall tracker, a small window): no log at all
    gfx.blit_text(surface, words.t("ui.table.log"), fs, (x0, head_y), bold=True)
    first_y = y
    for i, line in enumerate(lines):
        last = back == 0 and i == len(lines) - 1
        gfx.blit_text(
            surface,
            line,
            fs,
            (x0, y),
            color=theme.PAPER if last else theme.MUTED,
            max_width=_log_width(lay),
        )
        y += line_h
    if most:  # scrolled or scrollable: where the window stands in the whole log
        track = pygame.Rect(side.right - 6, first_y, 3, fit * line_h)
        pygame.draw.rect(surface, theme.PANEL_EDGE, track, border_radius=1)
        n = len(entries)
        shown_n = max(1, n - most)
        h = max(8, track.h * shown_n // n)
        at = track.bottom - h - (track.h - h) * back // most
        pygame.draw.rect(surface, theme.MUTED, (track.x, at, 3, h), border_radius=1)
