"""Drawing the review screen (read-only: nothing here changes the review's position or data).

The board picture of a position is rendered once (felt and cards, opaque) and kept in the view's
own cache (:class:`BoardCache`, which the screen holds and may empty, and only drawing fills);
each frame adds the marks of the played and best moves, the header, the judgement panel, the
move list, the slider and, when open, the summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pygame

from koikoi_desktop.engine import Action, RoundState
from koikoi_desktop.engine.facts import CARD_KINDS
from koikoi_desktop.review.analysis import Judgement, Review, turn_of
from koikoi_desktop.review.runner import ReviewRunner
from koikoi_desktop.review.timeline import DealLine, Position, Timeline
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import felt
from koikoi_desktop.scenes.table.text import chance_lost_text, percent
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.animation import AnimationQueue
from koikoi_desktop.ui.board import Director
from koikoi_desktop.ui.cards import card_surface, draw_badge, kind_of
from koikoi_desktop.ui.layout import TableLayout
from koikoi_desktop.ui.widgets import FocusGroup, draw_focus
from koikoi_desktop.words.names import Names

COLORS = {
    "good": theme.MUTED,
    "inaccuracy": theme.OCHRE,
    "mistake": (235, 140, 60),
    "blunder": theme.DANGER,
}
GROUPS = CARD_KINDS


class ReviewScene(Protocol):
    """What drawing reads of the review screen (:class:`koikoi_desktop.scenes.review.scene.
    ReviewScene`): its data, geometry and words. A protocol, so the screen may import this
    module without this module importing it back (no import circle)."""

    app: AppServices

    @property
    def size(self) -> tuple[int, int]: ...

    timeline: Timeline | None
    error: str
    note: str
    geo: dict[str, pygame.Rect]
    lay: TableLayout | None
    focus: FocusGroup
    #: The view's cache of the board picture on screen (drawing fills it, see ``BoardCache``).
    board_cache: BoardCache
    index: int
    viewer: int
    names: Names
    judged: dict[tuple[int, int], Judgement]
    decisions: set[tuple[int, int]]
    runner: ReviewRunner | None
    show_summary: bool

    @property
    def position(self) -> Position | None: ...
    def px(self, n: float) -> int: ...
    def font(self, n: int) -> int: ...
    def state(self) -> RoundState: ...
    def judgement(self, index: int | None = None) -> Judgement | None: ...
    def seat_name(self, seat: int) -> str: ...
    def move_text(self, state: RoundState, action: Action | str) -> str: ...
    def made_text(self, state: RoundState) -> str: ...
    def class_text(self, cls: str) -> str: ...
    def why_text(self, j: Judgement) -> str: ...
    def result_text(self, deal: DealLine) -> str: ...
    def row_text(self, pos: int) -> tuple[str, str]: ...
    def row_h(self) -> int: ...
    def list_font(self) -> int: ...
    def row_width(self) -> int: ...
    def row_lines(self, i: int) -> list[str]: ...
    def list_rows(self) -> list[tuple[int, pygame.Rect, int | None]]: ...
    def marked_cards(self) -> tuple[list[int], list[int]]: ...
    def summary_box(self) -> pygame.Rect: ...
    def summary_column(self, k: int) -> pygame.Rect: ...
    def chance_wrapped(self) -> list[str]: ...
    def counts_lines(self, seat: int, width: int) -> list[str]: ...
    def worst_top(self) -> int: ...
    def summary_rows_by_seat(
        self,
    ) -> list[tuple[int, list[tuple[pygame.Rect, Judgement, list[tuple[str, int, str]]]]]]: ...


@dataclass(frozen=True)
class Picture:
    """A rendered position: what it shows (``key``), the image, and each card's rectangle."""

    key: tuple[object, ...]
    surface: pygame.Surface
    boxes: dict[int, pygame.Rect]


class BoardCache:
    """The drawing's own memory of the last board picture (the screen empties it on a new
    layout; only :func:`board_picture` fills it). Nothing the review shows is kept here."""

    def __init__(self) -> None:
        self.picture: Picture | None = None

    def get(self, key: tuple[object, ...]) -> Picture | None:
        return self.picture if self.picture is not None and self.picture.key == key else None

    def keep(self, picture: Picture) -> Picture:
        self.picture = picture
        return picture

    def clear(self) -> None:
        self.picture = None


def draw(scene: ReviewScene, surface: pygame.Surface) -> None:
    """The whole screen."""
    words = scene.app.words
    if surface.get_size() != scene.size or scene.timeline is None or not scene.timeline.positions:
        surface.blit(felt(surface.get_size()), (0, 0))
    if surface.get_size() != scene.size:
        return  # the resize is on its way: its layout is not computed yet
    if scene.timeline is None or not scene.timeline.positions:
        gfx.blit_text(
            surface,
            scene.error or words.t("ui.review.nothing"),
            scene.font(20),
            scene.geo["main"].center,
            anchor="center",
            color=theme.DANGER,
            max_width=scene.size[0] - 40,
        )
        scene.focus.draw(surface, scene.app.words, font=scene.font(15))
        return
    surface.blit(board_picture(scene).surface, (0, 0))
    draw_marks(scene, surface)
    draw_header(scene, surface)
    pygame.draw.rect(surface, theme.PANEL, scene.geo["side"])
    pygame.draw.line(
        surface, theme.PANEL_EDGE, scene.geo["side"].topleft, scene.geo["side"].bottomleft
    )
    draw_panel(scene, surface)
    draw_list(scene, surface)
    draw_footer(scene, surface)
    if scene.show_summary:
        draw_summary(scene, surface)
    scene.focus.draw(surface, scene.app.words, font=scene.font(15))


def board_picture(scene: ReviewScene) -> Picture:
    """The felt and the cards of the current position, with where each card is (rendered
    once per position, size, side and language; kept in the view's cache)."""
    words = scene.app.words
    key = (scene.index, scene.size, scene.viewer, words)
    cached = scene.board_cache.get(key)
    if cached is not None:
        return cached
    surf = felt(scene.size).copy()
    lay = scene.lay
    assert lay is not None  # laid out on entering, before any drawing
    st = scene.state()
    director = Director(AnimationQueue("off"), lambda: lay, lambda: scene.viewer)
    board = director.board
    board.sync(st.view(scene.viewer))
    for p in (0, 1):  # a review shows both hands (the match is over)
        board.hands[p] = sorted(st.hand(p))
    board.shown_hands = {0, 1}
    director.snap()
    boxes = {c: pygame.Rect(*map(round, sp.box)) for c, sp in director.sprites.items()}
    badges = scene.app.settings.card_badges
    for sp in sorted(director.sprites.values(), key=lambda x: x.z):
        rect = boxes[sp.card]
        surf.blit(card_surface(scene.app, sp.card, rect.size), rect)
        if badges and rect.size == lay.card:
            draw_badge(surf, rect, sp.card)
    fs = scene.font(13)
    for top in (True, False):
        p = (1 - scene.viewer) if top else scene.viewer
        groups = lay.opp_caps if top else lay.my_caps
        counts = {g: 0 for g in GROUPS}
        for c in st.captured(p):
            counts[kind_of(c)] += 1
        for g, rect in groups.items():
            if counts[g]:
                gfx.blit_text(
                    surf,
                    f"{words.t(f'kind.{g}.plural')} {counts[g]}",
                    fs,
                    (rect.x, rect.y),
                    color=theme.MUTED,
                    max_width=rect.w,
                )
        note = words.t("term.dealer") if st.dealer == p else ""
        if top:
            tag = scene.seat_name(p) + (" · " + note if note else "")
            at = (lay.opp_hand.x, lay.opp_band.y)
            gfx.blit_text(surf, tag, fs, at, bold=True, max_width=lay.opp_hand.w + 60)
            continue
        # beside the hand, left of its first card: a narrow window leaves little room
        slots = lay.hand_slots(len(st.hand(p)))
        room = (slots[0].x if slots else lay.hand_area.right) - lay.hand_area.x - lay.gap
        at = (lay.hand_area.x, lay.hand_area.y + 2)
        gfx.blit_seat_tag(surf, scene.seat_name(p), note, fs, at, room, lay.caption)
    n = len(st.draw_pile)
    if n:
        back = card_surface(scene.app, 0, lay.card)
        for i in range(min(4, (n + 5) // 6), 0, -1):
            surf.blit(back, lay.pile.move(-i * 2, -i * 2))
    gfx.blit_text(
        surf,
        words.t("ui.table.deck", n=n),
        scene.font(14),
        (lay.pile.centerx, lay.pile.bottom + 6),
        anchor="midtop",
    )
    return scene.board_cache.keep(Picture(key, surf, boxes))


def draw_marks(scene: ReviewScene, surface: pygame.Surface) -> None:
    words = scene.app.words
    boxes = board_picture(scene).boxes
    played, best = scene.marked_cards()
    fs = scene.font(13)
    placed: list[pygame.Rect] = []
    for cards, color, key in (
        (best, theme.LEAF, "ui.review.best_tag"),
        (played, theme.OCHRE, "ui.review.played_tag"),
    ):
        for i, c in enumerate(cards):
            rect = boxes.get(c)
            if rect is None:
                continue
            draw_focus(surface, rect, color, 3)
            if i == 0:
                tag = words.t(key)
                tw, th = gfx.measure(tag, fs, bold=True)
                r = pygame.Rect(0, 0, tw + 10, th + 4)
                r.midbottom = (rect.centerx, rect.top - 6)
                r = clear_of(r, placed, surface.get_rect())
                placed.append(r)
                pygame.draw.rect(surface, color, r, border_radius=4)
                gfx.blit_text(
                    surface, tag, fs, r.center, anchor="center", bold=True, color=theme.INK
                )
    p = scene.position
    assert scene.timeline is not None and p is not None
    d = scene.timeline.deals[p.deal]
    if p.move >= len(d.moves):
        banner(scene, surface, scene.result_text(d))


def clear_of(r: pygame.Rect, placed: list[pygame.Rect], bounds: pygame.Rect) -> pygame.Rect:
    """``r`` moved sideways off the tags already ``placed`` (the "played" and "best" tags of
    two neighbouring small cards are wider than a card), kept inside ``bounds``.

    >>> a = pygame.Rect(100, 10, 60, 18)
    >>> clear_of(pygame.Rect(80, 10, 60, 18), [a], pygame.Rect(0, 0, 400, 300)).right
    98
    >>> clear_of(pygame.Rect(130, 10, 60, 18), [a], pygame.Rect(0, 0, 400, 300)).left
    162
    """
    x = r.x
    for other in placed:
        if pygame.Rect(x, r.y, r.w, r.h).colliderect(other):
            x = other.left - 2 - r.w if x + r.w / 2 < other.centerx else other.right + 2
    return pygame.Rect(x, r.y, r.w, r.h).clamp(bounds)


def banner(scene: ReviewScene, surface: pygame.Surface, text: str) -> None:
    lay = scene.lay
    assert lay is not None  # laid out on entering, before any drawing
    fs = scene.font(24)
    w, h = gfx.measure(text, fs, bold=True)
    w = min(w, lay.main.w - 60)
    rect = pygame.Rect(0, 0, w + 40, h + 22)
    rect.center = lay.field_band.center
    gfx.draw_panel(surface, rect, color=theme.DEEP_RED, edge=theme.OCHRE, alpha=235)
    gfx.blit_text(surface, text, fs, rect.center, anchor="center", bold=True, max_width=w)


def draw_header(scene: ReviewScene, surface: pygame.Surface) -> None:
    words = scene.app.words
    r = scene.geo["header"]
    pygame.draw.rect(surface, theme.PANEL, r)
    pygame.draw.line(surface, theme.PANEL_EDGE, r.bottomleft, r.bottomright)
    t = scene.timeline
    p = scene.position
    assert t is not None and p is not None
    d = t.deals[p.deal]
    rules = t.rules
    total = rules.match_rounds if rules.match_end == "rounds" else None
    rnd = (
        words.t("ui.common.round_n_of", n=d.round, total=max(total, len(t.deals)))
        if total
        else words.t("ui.common.round_n", n=d.round)
    )
    bal = d.balances_before
    parts = [
        words.t("ui.review.title"),
        rnd,
        words.t("ui.table.dealer", name=scene.seat_name(d.dealer)),
        f"{scene.seat_name(0)} {bal[0]} : {bal[1]} {scene.seat_name(1)}",
    ]
    text = " · ".join(parts)
    box = scene.geo["header_text"]
    gfx.blit_text(
        surface, text, scene.font(16), (box.x, box.centery), anchor="midleft", max_width=box.w
    )


def draw_panel(scene: ReviewScene, surface: pygame.Surface) -> None:
    words = scene.app.words
    box = scene.geo["panel"]
    gfx.draw_panel(surface, box, alpha=230, radius=8)
    pad = scene.px(10)
    x, y, width = box.x + pad, box.y + pad, box.w - 2 * pad
    fs = scene.font(15)
    t = scene.timeline
    p = scene.position
    assert t is not None and p is not None
    d = t.deals[p.deal]
    lines: list[tuple[str, tuple[int, int, int], bool]] = []
    if p.move >= len(d.moves):
        lines.append((words.t("ui.common.round_n", n=d.round), theme.OCHRE, True))
        lines.append((scene.result_text(d), theme.PAPER, False))
    else:
        st = d.states[p.move]
        mover = st.to_move
        j = scene.judgement()
        kind = j.kind if j is not None else ""
        head = words.t(
            "ui.review.turn_head",
            n=d.round,
            turn=turn_of(st),
            name=scene.seat_name(mover) if mover is not None else "",
        )
        lines.append((head, theme.OCHRE, True))
        made = scene.made_text(st)  # a koi-koi decision: what there is to stop with
        if made:
            lines.append((made, theme.PAPER, False))
        played = scene.move_text(st, d.moves[p.move])
        lines.append((words.t("ui.review.played", move=played), theme.PAPER, False))
        if j is not None:
            if kind:
                lines.insert(1, (words.t(f"ui.review.kind.{kind}"), theme.MUTED, False))
            if j.best != j.played:
                lines.append(
                    (words.t("ui.review.best", move=scene.move_text(st, j.best)), theme.LEAF, False)
                )
            else:
                lines.append((words.t("ui.review.was_best"), theme.LEAF, False))
            lines += [(text, color, bold) for text, color, bold in verdict_lines(scene, j)]
            lines.append((scene.why_text(j), theme.MUTED, False))
        elif (p.deal, p.move) in scene.decisions:
            lines.append((words.t("ui.review.pending"), theme.MUTED, False))
        else:
            lines.append((words.t("ui.review.forced"), theme.MUTED, False))
    line_h = int(fs * 1.3)
    for text, color, bold in lines:
        for sub in gfx.wrap(text, fs, width, bold=bold):
            if y + line_h > box.bottom - pad // 2:
                return
            gfx.blit_text(surface, sub, fs, (x, y), color=color, bold=bold, max_width=width)
            y += line_h


def verdict_lines(scene: ReviewScene, j: Judgement) -> list[tuple[str, tuple[int, int, int], bool]]:
    """The verdict on one decision in the panel: the figure it is classed by (the match-win
    chance lost) and its class first, then the range of that figure, the chances and the
    expected points of the move played and the best one (the second figure, explained where
    the two currencies part)."""
    words = scene.app.words
    color = COLORS[j.cls]
    flagged = j.cls != "good"
    out: list[tuple[str, tuple[int, int, int], bool]] = []
    lost = chance_lost_text(words, j.win_loss)
    head = scene.class_text(j.cls) + (f" · {lost}" if lost else "")
    out.append((head, color, True))
    if lost and j.margin > 0:
        low = max(0.0, j.win_loss - j.margin)
        high = min(1.0, j.win_loss + j.margin)
        out.append((words.t("ui.review.range", low=percent(low), high=percent(high)), color, False))
    if j.past_threshold:
        out.append((words.t("ui.review.unclear"), theme.MUTED, False))
    if j.best != j.played and j.wins:
        chances = words.t(
            "ui.review.chances",
            played=percent(j.wins[j.played]),
            best=percent(j.wins[j.best]),
        )
        out.append((chances, theme.PAPER, flagged))
    values = words.t(
        "ui.review.values", played=f"{j.value_played:+.1f}", best=f"{j.value_best:+.1f}"
    )
    out.append((values, theme.PAPER, False))
    if j.win_loss >= 0.0005 and j.loss < -0.05:
        out.append((words.t("ui.review.points_note"), theme.MUTED, False))
    return out


def draw_list(scene: ReviewScene, surface: pygame.Surface) -> None:
    """The move list: a heading per round, a row per move (its decision's mark at the
    right, a long move on two lines), and each round's result; the current position
    outlined."""
    rect = scene.geo["list"]
    pygame.draw.rect(surface, theme.FELT_DARK, rect, border_radius=6)
    t = scene.timeline
    assert t is not None
    fs = scene.list_font()
    step = round(fs * 1.25)
    width = scene.row_width()
    for i, r, pos in scene.list_rows():
        lines = scene.row_lines(i)
        top = r.y + (scene.row_h() - gfx.measure("Ág", fs)[1]) // 2  # line 1 as in a 1-line row
        if pos is None:
            pygame.draw.line(
                surface, theme.PANEL_EDGE, (r.x, r.bottom - 2), (r.right, r.bottom - 2)
            )
            gfx.blit_text(
                surface,
                lines[0],
                fs,
                (r.x + scene.px(6), r.centery),
                anchor="midleft",
                bold=True,
                color=theme.OCHRE,
            )
            continue
        _, mark = scene.row_text(pos)
        if pos == scene.index:
            pygame.draw.rect(surface, theme.BUTTON_HOVER, r)
            pygame.draw.rect(surface, theme.OCHRE, r, width=2)
        j = scene.judgement(pos)
        p = t.positions[pos]
        final = p.move >= len(t.deals[p.deal].moves)
        if j is not None and j.cls != "good":
            color = COLORS[j.cls]
        elif final or (p.deal, p.move) not in scene.decisions:
            color = theme.MUTED  # a round's result, or a forced move
        else:
            color = theme.PAPER
        for k, line in enumerate(lines):
            gfx.blit_text(
                surface,
                line,
                fs,
                (r.x + scene.px(6), top + k * step),
                color=color,
                bold=final,
                max_width=width,
            )
        if mark:
            gfx.blit_text(
                surface,
                mark,
                fs,
                (r.right - scene.px(6), top),
                anchor="topright",
                bold=True,
                color=color,
            )


def draw_footer(scene: ReviewScene, surface: pygame.Surface) -> None:
    words = scene.app.words
    fr = scene.geo["foot"]
    pygame.draw.rect(surface, theme.PANEL, fr)
    pygame.draw.line(surface, theme.PANEL_EDGE, fr.topleft, fr.topright)
    t = scene.timeline
    assert t is not None
    status = scene.geo["status"]
    fs = scene.font(13)
    r = scene.runner
    if r is not None:
        bar = pygame.Rect(status.x, status.centery - scene.px(4), status.w // 3, scene.px(8))
        pygame.draw.rect(surface, theme.BUTTON, bar, border_radius=4)
        fill = bar.copy()
        fill.w = max(2, int(bar.w * r.progress))
        pygame.draw.rect(surface, theme.OCHRE, fill, border_radius=4)
        gfx.blit_text(
            surface,
            words.t("ui.review.analysing", n=r.done, total=r.total),
            fs,
            (bar.right + scene.px(10), status.centery),
            anchor="midleft",
        )
        hint_x = (
            bar.right
            + scene.px(10)
            + gfx.measure(words.t("ui.review.analysing", n=r.done, total=r.total), fs)[0]
            + scene.px(20)
        )
    else:
        text = scene.note or words.t("ui.review.done", n=len(scene.judged))
        done = gfx.blit_text(
            surface,
            text,
            fs,
            (status.x, status.centery),
            anchor="midleft",
            color=theme.OCHRE if scene.note else theme.MUTED,
            max_width=status.w // 2,
        )
        hint_x = done.right + scene.px(20)
    gfx.blit_text(
        surface,
        words.t("ui.review.keys"),
        fs,
        (status.right, status.centery),
        anchor="midright",
        color=theme.MUTED,
        max_width=max(10, status.right - hint_x),
    )
    # the slider over the whole match, with a tick per flagged move and per round
    bar = scene.geo["slider"]
    track = pygame.Rect(bar.x, bar.centery - scene.px(3), bar.w, scene.px(6))
    pygame.draw.rect(surface, theme.PANEL_EDGE, track, border_radius=3)
    n = max(1, len(t.positions) - 1)
    for d in t.deals[1:]:
        x = track.x + track.w * t.index_of(d.index, 0) // n
        pygame.draw.line(
            surface, theme.MUTED, (x, track.y - scene.px(6)), (x, track.bottom + scene.px(6))
        )
    for (deal, move), j in scene.judged.items():
        if j.cls in ("mistake", "blunder"):
            x = track.x + track.w * t.index_of(deal, move) // n
            pygame.draw.line(
                surface,
                COLORS[j.cls],
                (x, track.y - scene.px(3)),
                (x, track.bottom + scene.px(3)),
                3,
            )
    knob = pygame.Rect(0, 0, scene.px(14), scene.px(24))
    knob.center = (track.x + track.w * scene.index // n, track.centery)
    pygame.draw.rect(surface, theme.OCHRE, knob, border_radius=4)
    pygame.draw.rect(surface, theme.INK, knob, width=1, border_radius=4)


def draw_summary(scene: ReviewScene, surface: pygame.Surface) -> None:
    words = scene.app.words
    box = scene.summary_box()
    # the board behind is veiled (its cards and captions would show through the panel)
    gfx.dim(surface.subsurface(scene.geo["main"].clip(surface.get_rect())), 170)
    gfx.draw_panel(surface, box, alpha=250)
    pad = scene.px(16)
    title = words.t("ui.review.summary_title")
    if scene.runner is not None:
        title += " · " + words.t("ui.review.so_far", n=scene.runner.done, total=scene.runner.total)
    gfx.blit_text(
        surface,
        title,
        scene.font(22),
        (box.x + pad, box.y + pad),
        bold=True,
        color=theme.OCHRE,
        max_width=box.w - 2 * pad,
    )
    review = Review(list(scene.judged.values()))
    rows = dict(scene.summary_rows_by_seat())
    for k, seat in enumerate((scene.viewer, 1 - scene.viewer)):
        col = scene.summary_column(k)
        x, y, col_w = col.x, col.y, col.w
        s = review.seat_summary(seat)
        gfx.blit_text(
            surface, scene.seat_name(seat), scene.font(18), (x, y), bold=True, max_width=col_w
        )
        y += scene.px(28)
        acc = "—" if s["accuracy"] is None else f"{s['accuracy']:.0f}%"
        gfx.blit_text(
            surface,
            words.t("ui.review.accuracy", n=acc, d=s["decisions"]),
            scene.font(15),
            (x, y),
            max_width=col_w,
        )
        y += scene.px(24)
        for line in scene.counts_lines(seat, col_w):
            gfx.blit_text(surface, line, scene.font(14), (x, y), color=theme.MUTED, max_width=col_w)
            y += scene.px(19)
        y = scene.worst_top()
        head = words.t("ui.review.worst") if s["worst"] else words.t("ui.review.no_worst")
        gfx.blit_text(surface, head, scene.font(14), (x, y), bold=True, max_width=col_w)
        for rect, j, lines in rows.get(seat, []):
            gfx.draw_panel(surface, rect, alpha=200, radius=6)
            ly = rect.y + scene.px(4)
            for text, size, role in lines:
                color = {"head": COLORS[j.cls], "move": theme.PAPER}.get(role, theme.MUTED)
                gfx.blit_text(
                    surface,
                    text,
                    size,
                    (rect.x + scene.px(6), ly),
                    bold=role == "head",
                    color=color,
                    max_width=rect.w - scene.px(12),
                )
                ly += round(size * 1.3)
    chance = scene.chance_wrapped()
    y = box.bottom - pad - scene.px(22) - len(chance) * scene.px(18)
    for line in chance:
        gfx.blit_text(surface, line, scene.font(13), (box.x + pad, y), color=theme.MUTED)
        y += scene.px(18)
    gfx.blit_text(
        surface,
        words.t("ui.review.summary_keys"),
        scene.font(13),
        (box.centerx, box.bottom - pad),
        anchor="midbottom",
        color=theme.MUTED,
        max_width=box.w - 2 * pad,
    )
