"""Drawing the table: read-only, from a :class:`TableFrame` (nothing here reads input or changes
the match, the board or the scene).

A frame is what one picture needs: the controller's :class:`~.controller.TableSnapshot`
(built from the viewer's PlayerView), the card sprites where the animation has them, the
display board (for the counts that lag the engine while cards fly), the layout, the side
buttons, and the target under a dragged card (worked out by the scene when the pointer moved).
:class:`TableView` owns the caches: the static layer (felt, header, captions, tracker, log —
each part redrawn only when what it shows changed), the move log's entries worded and wrapped
(:class:`~.sidebar.WordedLog`, kept with the layer: a new entry is worded alone) and the card
shadows.

Highlights never rely on hue alone, and no two look alike: lit targets get a thick outline with
corner brackets; the target under a dragged card (or the pointer, or the keyboard's choice) a
white frame drawn over everything, and the dragged card turns see-through over it, so the card
it would take stays in view; the last move a small triangle marker and a double outline; the
keyboard focus (shown only once the keyboard is used) a lift and a bar with a notch under the
card, never brackets; at the start of the player's turn (help levels full and light) each hand
card the engine says can take something half a lift and a lit bar along its top edge.

Reading at a glance (issue 16): the field's free positions are drawn only while a card is
dragged; each capture group has its category, a bold count and the yaku it is closest to (the
tracker's rows, ticked from the engine's scoring); a turn banner names whose turn it is and
lights the step (play a card, the draw or the draw's target, koi-koi or stop), following the
animation rather than the engine; a card under the pointer (or a long press) is shown enlarged
with its name, month, category and the yaku it counts toward (``yaku_facts``, probed through
the engine); a yaku, a koi-koi or a stop pops up over the field with its cards.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from koikoi_desktop.engine import Rules, month_of
from koikoi_desktop.engine.facts import CARD_KINDS
from koikoi_desktop.i18n import Words
from koikoi_desktop.scenes import yaku_facts
from koikoi_desktop.scenes.base import AppServices
from koikoi_desktop.scenes.common import felt
from koikoi_desktop.scenes.table import sidebar as table_sidebar
from koikoi_desktop.scenes.table.snapshot import TableSnapshot
from koikoi_desktop.scenes.table.text import koi_word, stop_word
from koikoi_desktop.ui import gfx, theme, tracker
from koikoi_desktop.ui.animation import Sprite, ease_out
from koikoi_desktop.ui.board import Announce, Board, is_hidden
from koikoi_desktop.ui.cards import card_surface, draw_badge, kind_of
from koikoi_desktop.ui.layout import TableLayout
from koikoi_desktop.ui.widgets import Button, draw_focus
from koikoi_desktop.words.names import amount_text, kind_name, rules_label

GROUP_KEYS = CARD_KINDS
#: Opacity of a dragged card while it is over a card it would take.
DRAG_OVER_ALPHA = 150


@dataclass(frozen=True, slots=True)
class TableFrame:
    """Everything one picture of the table shows (see the module docstring)."""

    snap: TableSnapshot
    lay: TableLayout
    sprites: Sequence[Sprite]
    board: Board
    last_cards: frozenset[int]
    banner: str
    animating: bool
    hot: int
    buttons: Sequence[Button]
    #: (seat, step) for the turn banner, or None (no turn: the deal, the round's end).
    turn: tuple[int, str] | None = None
    #: The yaku / koi-koi / stop announcement on show.
    announce: Announce | None = None
    #: The card shown enlarged (hover, long press) and where it lies on the table.
    inspect: tuple[int, pygame.Rect] | None = None
    #: Where the enlarged card must not go: the lit targets (and a hand card's own targets).
    inspect_avoid: tuple[pygame.Rect, ...] = ()
    #: How many entries the move log is scrolled back from the newest (0: the newest last).
    log_back: int = 0


#: The steps of a turn, in order, as the banner names them (catalog ``ui.turn.<step>``).
TURN_STEPS = ("play", "draw", "decide")


def idle_turn(snap: TableSnapshot) -> tuple[int, str] | None:
    """Whose turn and which step the engine's round is at (the table at rest)."""
    v = snap.view
    if v.outcome is not None or v.to_move is None or not snap.dealer_known:
        return None
    phase = v.phase
    if phase == "draw":
        return (v.to_move, "choose" if v.pending_draw else "draw")
    if phase in ("play", "decide", "declare", "exchange"):
        return (v.to_move, phase)
    return None


def card_image(
    app: AppServices, lay: TableLayout, card: int, size: tuple[int, int]
) -> pygame.Surface:
    """A cached sprite at one of the two table sizes, scaled live only for moving cards."""
    if size in (lay.card, lay.small):
        return card_surface(app, card, size)
    big = card_surface(app, card, lay.card)
    return pygame.transform.smoothscale(big, (max(1, size[0]), max(1, size[1])))


def _lifted(snap: TableSnapshot, card: int) -> bool:
    return card == snap.lifted or card == snap.focus


def _can_take(f: TableFrame, card: int) -> bool:
    """A hand card that can take something, at the start of the turn (not while cards fly)."""
    return card in f.snap.capturable and not f.animating


def _see_through(f: TableFrame, sp: Sprite) -> bool:
    """The dragged card over a card it would take."""
    return f.snap.dragging and sp.card == f.snap.lifted and f.hot != 0


def _face_shown(sp: Sprite) -> bool:
    return sp.face_up and not is_hidden(sp.card)


def _is_chosen(snap: TableSnapshot, card: int, hot: int) -> bool:
    """The lit target under the pointer, or the keyboard's choice."""
    return (card in snap.lit and card == hot) or card == snap.cursor


def _sprite_rect(f: TableFrame, sp: Sprite) -> pygame.Rect:
    """Where a sprite is drawn: its box, lifted when picked up or focused (not while held),
    half a lift when it can take something."""
    x, y, w, h = sp.box
    rect = pygame.Rect(round(x), round(y), round(w), round(h))
    if _lifted(f.snap, sp.card) and not f.snap.held:
        rect.y -= f.lay.lift
    elif _can_take(f, sp.card):
        rect.y -= f.lay.lift // 2
    return rect


def _mark_card(surface: pygame.Surface, f: TableFrame, sp: Sprite, rect: pygame.Rect) -> None:
    """A card's marks: lit target, last move, keyboard focus, the can-take edge."""
    card = sp.card
    if card in f.snap.lit:
        draw_focus(surface, rect, theme.TARGET, 3)
    if card in f.last_cards and not f.animating:
        _last_marker(surface, rect, arrow=rect.h >= f.lay.card[1])
    if card == f.snap.focus:
        _keyboard_focus(surface, rect)
    if _can_take(f, card):
        _lit_edge(surface, rect)


class _Static:
    """The table's static layer at one window size, and what each of its parts shows."""

    def __init__(self, size: tuple[int, int], lay: TableLayout) -> None:
        self.size = size
        self.lay = lay
        self.surf = felt(size).copy()
        self.keys: dict[str, object] = {}
        self.log_top = 0
        self.log_words = table_sidebar.WordedLog()  # the log's entries worded and wrapped


class TableView:
    """Draws frames of one table; owns the drawing caches."""

    def __init__(self, app: AppServices) -> None:
        self.app = app
        self._static: _Static | None = None

    def image(self, lay: TableLayout, card: int, size: tuple[int, int]) -> pygame.Surface:
        return card_image(self.app, lay, card, size)

    # ------------------------------------------------------------------ the frame
    def draw(self, surface: pygame.Surface, f: TableFrame) -> None:
        """The static layer, the field's free slots while dragging, the pile and turn banner,
        the cards, then what lies over them."""
        surface.blit(self.static_layer(f, surface.get_size()), (0, 0))  # felt included
        if f.snap.dragging:  # where a card may go: the empty field positions show
            _empty_slots(surface, f)
        self.draw_pile(surface, f)
        draw_turn(surface, f)
        chosen = self.draw_cards(surface, f)
        if chosen is not None:  # over everything, the dragged card included
            pygame.draw.rect(surface, theme.WHITE, chosen.inflate(2, 2), width=4, border_radius=6)
        self.draw_overlays(surface, f)

    def draw_cards(self, surface: pygame.Surface, f: TableFrame) -> pygame.Rect | None:
        """Every card sprite with its marks, in z order; returns where the chosen target lies
        (the target about to take the held card), for its frame over everything."""
        chosen: pygame.Rect | None = None
        for sp in f.sprites:
            rect = _sprite_rect(f, sp)
            self.draw_card(surface, f, sp, rect)
            _mark_card(surface, f, sp, rect)
            if _is_chosen(f.snap, sp.card, f.hot):
                chosen = rect  # the keyboard's target shows at every help level
        return chosen

    def draw_card(
        self, surface: pygame.Surface, f: TableFrame, sp: Sprite, rect: pygame.Rect
    ) -> None:
        """One card: its shadow when raised, its face (or back), faded where it must be, and
        its badge at full size."""
        lay = f.lay
        see_through = _see_through(f, sp)
        if (sp.z >= 1000 or _lifted(f.snap, sp.card)) and not see_through:
            surface.blit(_shadow(rect.size), rect.move(5, 7))
        face = _face_shown(sp)
        img = self.image(lay, sp.card if face else 0, rect.size)
        alpha = sp.alpha  # below 255: reduced motion, fading in where it lands
        if see_through:  # over the card it would take, which stays in view
            alpha = min(alpha, DRAG_OVER_ALPHA)
        if alpha < 255:
            img = img.copy()
            img.set_alpha(alpha)
        surface.blit(img, rect)
        if face and self.app.settings.card_badges and rect.size == lay.card:
            draw_badge(surface, rect, sp.card)

    def draw_overlays(self, surface: pygame.Surface, f: TableFrame) -> None:
        """Over the cards: the open-field hint, the side buttons, the status line, the
        announcement (or the banner) and the enlarged card."""
        lay = f.lay
        if f.snap.open_field:
            _open_field_hint(f.snap.words, surface, lay, f.snap.cursor == 0)
        for b in f.buttons:
            b.draw(surface, f.snap.words, font=theme.font_px(15, lay.scale))
        draw_status(surface, f)
        if f.announce is not None:
            self.draw_announce(surface, lay, f.announce.text(f.snap.words), f.announce)
        elif f.banner:
            draw_banner(surface, lay, f.banner)
        if f.inspect is not None:
            self.draw_inspect(surface, f, *f.inspect)

    # ------------------------------------------------------------------ overlays
    def draw_announce(
        self, surface: pygame.Surface, lay: TableLayout, text: str, a: Announce
    ) -> None:
        """A yaku made, koi-koi or stop: a solid panel pops up over the field (growing from
        70%), with the yaku's cards dealt in one by one or, for koi-koi, rings going out.
        Reduced motion and "off" show it still. Drawn straight on the frame: no surface is
        made or kept per announcement (each line has its own size)."""
        t = 1.0 if a.still else a.progress
        pop = ease_out(min(1.0, t / 0.18))
        fs = theme.font_px(34 if a.kind != "yaku" else 30, lay.scale)
        w_text, h_text = gfx.measure(text, fs, bold=True)
        cw, ch = lay.card
        n = len(a.cards)
        step = round(cw * 0.8)
        cards_w = (n - 1) * step + cw if n else 0
        w = min(lay.main.w - 40, max(w_text, cards_w) + round(60 * lay.scale))
        h = h_text + round(36 * lay.scale) + (ch + round(16 * lay.scale) if n else 0)
        full = pygame.Rect(0, 0, w, h)
        full.center = lay.field_band.center
        color = {"koikoi": theme.VERMILION, "stop": theme.INDIGO}.get(a.kind, theme.DEEP_RED)
        if a.kind == "koikoi" and not a.still:  # rings going out from the panel
            for k in (0, 1):
                r = (t * 1.6 + k * 0.35) % 1.0
                ring = full.inflate(round(full.w * 0.5 * r), round(full.h * 1.2 * r))
                edge = tuple(round(v * (1 - r)) for v in theme.OCHRE)
                pygame.draw.rect(surface, edge, ring, width=3, border_radius=18)
        rect = full.inflate(-round(w * 0.3 * (1 - pop)), -round(h * 0.3 * (1 - pop)))
        pygame.draw.rect(surface, color, rect, border_radius=14)
        pygame.draw.rect(surface, theme.OCHRE, rect, width=2, border_radius=14)
        if pop < 0.95:  # still growing: the words come once it stands
            return
        gfx.blit_text(
            surface,
            text,
            fs,
            (full.centerx, full.y + round(14 * lay.scale)),
            anchor="midtop",
            bold=True,
            color=theme.PAPER,
            max_width=full.w - 30,
        )
        x = full.centerx - cards_w // 2
        y = full.bottom - ch - round(14 * lay.scale)
        for i, c in enumerate(a.cards):
            shown = min(1.0, max(0.0, (t - 0.15 - i * 0.06) / 0.12))
            if shown <= 0:
                break
            img = self.image(lay, c, lay.card)
            if shown < 1:
                img = img.copy()
                img.set_alpha(round(255 * shown))
            surface.blit(img, (x + i * step, y + round((1 - shown) * 12)))

    def inspect_layout(
        self, f: TableFrame
    ) -> tuple[pygame.Rect, tuple[int, int], list[tuple[str, int, bool, tuple[int, int, int]]]]:
        """Where the card looked at closely (``f.inspect``) goes, the size of its image and
        its lines of facts (wrapped): one answer for drawing it and for a press on it."""
        assert f.inspect is not None
        card, at = f.inspect
        lay, snap = f.lay, f.snap
        ch = min(round(lay.card[1] * 2.0), lay.main.h - 40)
        cw = round(ch * 0.625)
        fs = theme.font_px(17, lay.scale)
        small = theme.font_px(15, lay.scale)
        pad = round(12 * lay.scale)
        text_w = round(260 * lay.scale)
        lines = inspect_lines(card, snap)
        wrapped: list[tuple[str, int, bool, tuple[int, int, int]]] = []
        for i, (line, color) in enumerate(lines):
            size = fs if i == 0 else small
            for sub in gfx.wrap(line, size, text_w, bold=i == 0):
                wrapped.append((sub, size, i == 0, color))
        text_h = sum(round(size * 1.35) for _, size, _, _ in wrapped)
        box = (cw + text_w + 3 * pad, max(ch, text_h) + 2 * pad)
        return place_inspect(box, at, lay.main, f.inspect_avoid), (cw, ch), wrapped

    def inspect_panel(self, f: TableFrame) -> pygame.Rect:
        """The pop-up of the card looked at closely (``f.inspect``)."""
        return self.inspect_layout(f)[0]

    def draw_inspect(
        self, surface: pygame.Surface, f: TableFrame, card: int, at: pygame.Rect
    ) -> None:
        """A card looked at closely: twice its table size, with its name, month, category
        and the yaku it counts toward under the rules in play (with the viewer's progress)."""
        panel, (cw, ch), wrapped = self.inspect_layout(f)
        pad = round(12 * f.lay.scale)
        text_w = round(260 * f.lay.scale)
        gfx.draw_panel(surface, panel, alpha=245)
        img = card_surface(self.app, card, (cw, ch))
        surface.blit(img, (panel.x + pad, panel.y + pad))
        x = panel.x + 2 * pad + cw
        y = panel.y + pad
        for sub, size, bold, color in wrapped:
            gfx.blit_text(surface, sub, size, (x, y), bold=bold, color=color, max_width=text_w)
            y += round(size * 1.35)

    def static_layer(self, f: TableFrame, size: tuple[int, int]) -> pygame.Surface:
        """Felt, header, captions, slot outlines, the yaku tracker and the move log; the cards
        are blitted on top every frame.

        Each part is redrawn only when what it shows has changed, in place: its rectangle gets
        the felt (or the panel) back, then the part is drawn again. A new log line therefore
        costs the log's few lines of text, not a whole-window copy and every label (text layout
        is the costly part of a frame: a full rebuild took ~4 ms at 1920x1080)."""
        cache = self._static
        if cache is None or cache.size != size or cache.lay is not f.lay:
            cache = self._static = _Static(size, f.lay)
        surf, keys, lay = cache.surf, cache.keys, f.lay
        back = felt(size)
        key: tuple[object, ...] = _header_key(f)
        if keys.get("header") != key:
            surf.blit(back, lay.header, lay.header)
            draw_header(surf, f)
            keys["header"] = key
        key = _bands_key(f)
        if keys.get("bands") != key:
            surf.blit(back, lay.main, lay.main)
            draw_bands(surf, f)
            keys["bands"] = key
        key = table_sidebar.tracker_key(f.snap, lay)
        if keys.get("tracker") != key:
            pygame.draw.rect(surf, theme.PANEL, lay.sidebar)
            pygame.draw.line(surf, theme.PANEL_EDGE, lay.sidebar.topleft, lay.sidebar.bottomleft)
            cache.log_top = table_sidebar.draw_tracker(surf, f.snap, lay, self.image)
            keys["tracker"] = key
            keys.pop("log", None)
        bottom = _log_bottom(f)
        key = (*table_sidebar.log_key(f.snap, lay, cache.log_top, f.log_back), bottom)
        if keys.get("log") != key:
            table_sidebar.draw_log(
                surf, cache.log_words, f.snap, lay, cache.log_top, bottom, f.log_back
            )
            keys["log"] = key
        return surf

    def log_area(self, f: TableFrame) -> pygame.Rect:
        """Where the move log lies as last drawn (the wheel over it scrolls it); empty before
        the first frame."""
        cache = self._static
        if cache is None or cache.lay is not f.lay:
            return pygame.Rect(0, 0, 0, 0)
        r = table_sidebar.log_rect(f.lay, cache.log_top)
        r.h = max(0, _log_bottom(f) - r.y)
        return r

    def log_most_back(self, f: TableFrame) -> int:
        """How far the move log can be scrolled back, as last laid out."""
        cache = self._static
        if cache is None or cache.lay is not f.lay:
            return 0
        return table_sidebar.log_most_back(
            cache.log_words, f.snap, f.lay, cache.log_top, _log_bottom(f)
        )

    def draw_pile(self, surface: pygame.Surface, f: TableFrame) -> None:
        words = f.snap.words
        lay = f.lay
        n = f.board.pile
        r = lay.pile
        if n > 0:
            back = self.image(lay, 0, lay.card)
            for i in range(min(4, (n + 5) // 6), 0, -1):
                surface.blit(back, r.move(-i * 2, -i * 2))
        else:
            pygame.draw.rect(surface, theme.FELT_LIGHT, r, width=1, border_radius=6)
        gfx.blit_text(
            surface,
            words.t("ui.table.deck", n=n),
            theme.font_px(15, lay.scale),
            (r.centerx, r.bottom + 6),
            anchor="midtop",
            color=theme.PAPER,
        )


def place_inspect(
    size: tuple[int, int],
    at: pygame.Rect,
    area: pygame.Rect,
    avoid: Sequence[pygame.Rect] = (),
) -> pygame.Rect:
    """Where a card looked at closely (``size``) goes: above the card at ``at``, else below,
    right or left of it, else in a corner of ``area`` — the first place inside ``area`` that
    covers neither the card nor any rectangle of ``avoid`` (the lit targets); when none is
    free, the place that covers the least of them.

    >>> area = pygame.Rect(0, 0, 1000, 600)
    >>> place_inspect((300, 200), pygame.Rect(450, 300, 60, 90), area).midbottom
    (480, 292)
    >>> place_inspect((300, 200), pygame.Rect(450, 300, 60, 90), area,
    ...               [pygame.Rect(400, 80, 200, 200)]).midtop
    (480, 398)
    """
    spots: list[pygame.Rect] = []
    for anchor, point in (
        ("midbottom", (at.centerx, at.top - 8)),
        ("midtop", (at.centerx, at.bottom + 8)),
        ("midleft", (at.right + 8, at.centery)),
        ("midright", (at.left - 8, at.centery)),
        ("topleft", area.topleft),
        ("topright", area.topright),
        ("bottomleft", area.bottomleft),
        ("bottomright", area.bottomright),
    ):
        r = pygame.Rect((0, 0), size)
        setattr(r, anchor, point)
        spots.append(r.clamp(area))

    def covered(r: pygame.Rect) -> int:
        cut = [r.clip(x) for x in (at, *avoid)]
        return sum(c.w * c.h for c in cut)

    free = [r for r in spots if covered(r) == 0]
    return free[0] if free else min(spots, key=covered)


def inspect_lines(card: int, snap: TableSnapshot) -> list[tuple[str, tuple[int, int, int]]]:
    """The facts shown beside an enlarged card: name, month and plant, category, and each yaku
    it counts toward under the rules in play (``yaku_facts``, probed through the engine) with
    the viewer's progress from the tracker (the engine's scoring of the captures)."""
    words = snap.words
    m = month_of(card)
    out: list[tuple[str, tuple[int, int, int]]] = [(words.card_name(card), theme.OCHRE)]
    month = words.t(f"month.{m}.name")
    out.append((f"{month} — {words.t(f'month.{m}.plant')}", theme.PAPER))  # as the reference
    out.append((words.t(yaku_facts.card_kind_detail(card)), theme.PAPER))
    made, extra = yaku_facts.feeds_split(card, snap.rules)
    if not made and not extra:
        out.append((words.t("ui.reference.feeds_none"), theme.MUTED))
        return out
    out.append((words.t("ui.learn.label", label=words.t("ui.reference.feeds")), theme.MUTED))
    caps = snap.view.captured
    rows = {
        r.key: r
        for r in tracker.rows(set(caps[snap.viewer]), set(caps[1 - snap.viewer]), snap.rules)
    }
    for k in made + extra:
        r = rows.get(k)
        progress = f"  {r.held}/{r.need}" if r is not None and not r.done else ""
        label = (
            words.yaku_name(k)
            if k in made
            else words.t(
                "ui.monthref.adds",
                n=yaku_facts.extra_step(k, snap.rules)[0],
                yaku=words.yaku_name(k),
            )
        )
        color = theme.OCHRE if r is not None and r.done else theme.PAPER
        out.append(("· " + label + progress, color))
    return out


def turn_text(snap: TableSnapshot, turn: tuple[int, str]) -> tuple[str, list[tuple[str, bool]]]:
    """The banner's words: whose turn, and the steps (label, current) in order."""
    words = snap.words
    seat, step = turn
    whose = words.t_person("ui.turn.whose", snap.names[seat])
    if step in ("declare", "exchange", "koikoi", "stop"):
        return whose, [(words.t(f"ui.turn.{step}", word=_call_word(snap, step)), True)]
    current = {"choose": "draw"}.get(step, step)
    steps: list[tuple[str, bool]] = []
    for i, name in enumerate(TURN_STEPS):
        if name == "decide" and current != "decide":
            continue
        key = "choose" if name == "draw" and step == "choose" else name
        steps.append((words.t(f"ui.turn.{key}", n=i + 1), name == current))
    return whose, steps


def _call_word(snap: TableSnapshot, step: str) -> str:
    words = snap.words
    return koi_word(words, snap.rules) if step == "koikoi" else stop_word(words, snap.rules)


def draw_turn(surface: pygame.Surface, f: TableFrame) -> None:
    """The turn banner: a name tag (gold for the player, indigo for the other seat), then the
    turn's steps with the current one lit and boxed, the others dimmed; when the strip is too
    narrow, the current step alone."""
    if f.turn is None:
        return
    lay, snap = f.lay, f.snap
    area = lay.turn
    whose, steps = turn_text(snap, f.turn)
    fs = theme.font_px(18, lay.scale)
    pad = round(10 * lay.scale)
    sep = round(22 * lay.scale)
    mine = f.turn[0] == snap.viewer and f.turn[0] not in snap.computers
    tag_w = gfx.measure(whose, fs, bold=True)[0] + 2 * pad

    def width(items: list[tuple[str, bool]]) -> int:
        return sum(gfx.measure(t, fs, bold=cur)[0] + 2 * pad for t, cur in items) + sep * len(items)

    if tag_w + width(steps) > area.w:
        steps = [st for st in steps if st[1]]
    total = tag_w + width(steps)
    x = area.centerx - total // 2
    tag = pygame.Rect(x, area.y + 2, tag_w, area.h - 4)
    pygame.draw.rect(surface, theme.OCHRE if mine else theme.INDIGO, tag, border_radius=tag.h // 2)
    gfx.blit_text(
        surface,
        whose,
        fs,
        tag.center,
        anchor="center",
        bold=True,
        color=theme.INK if mine else theme.PAPER,
    )
    x = tag.right
    for i, (label, current) in enumerate(steps):
        cx = x + sep // 2
        if i:
            pygame.draw.polygon(
                surface,
                theme.MUTED,
                [(cx - 4, area.centery - 6), (cx + 4, area.centery), (cx - 4, area.centery + 6)],
            )
        x += sep
        w = gfx.measure(label, fs, bold=current)[0] + 2 * pad
        box = pygame.Rect(x, area.y + 2, w, area.h - 4)
        if current:
            pygame.draw.rect(surface, theme.PANEL, box, border_radius=6)
            pygame.draw.rect(surface, theme.PAPER, box, width=2, border_radius=6)
        gfx.blit_text(
            surface,
            label,
            fs,
            box.center,
            anchor="center",
            bold=current,
            color=theme.PAPER if current else theme.MUTED,
        )
        x += w


def _empty_slots(surface: pygame.Surface, f: TableFrame) -> None:
    """While a card is dragged: the outlines of the free field positions (hidden otherwise)."""
    slots = f.lay.field_slots(len(f.board.field))
    for i, r in enumerate(slots[:16]):
        if i >= len(f.board.field) or f.board.field[i] is None:
            pygame.draw.rect(surface, theme.FELT_LIGHT, r, width=2, border_radius=6)


@dataclass(frozen=True, slots=True)
class Near:
    """The yaku a capture group is closest to, as facts: its ``key``, ``held`` of ``need``
    cards, and whether the engine scores it ``made`` (worded when drawn)."""

    key: str
    held: int
    need: int
    made: bool

    def text(self, words: Words) -> str:
        """ "Red Poetry Ribbons — made!" or "Three Brights 2/3"."""
        if self.made:
            return words.t("ui.caps.made", yaku=words.yaku_name(self.key))
        return f"{words.yaku_name(self.key)} {self.held}/{self.need}"


def group_near(mine: set[int], theirs: set[int], rules: Rules) -> dict[str, Near]:
    """For each capture group, the yaku it is closest to: the tracker's rows (ticked from the
    engine's scoring) of yaku whose cards are mostly of that category; a made one first, else
    the row nearest completion among those still possible and begun."""
    best: dict[str, tuple[float, Near]] = {}
    for row in tracker.rows(mine, theirs, rules):
        kinds: list[str] = [kind_of(c) for c in row.cards]
        # the pile it is shown over holds a card of it: a viewing yaku begun with the sake cup
        # (an animal) is the animals' caption, not the brights' (issue 43: the Phoenix alone
        # was captioned "Flower Viewing 1/2")
        held: list[str] = [kind_of(c) for c in row.cards if c in mine]
        group = max(
            GROUP_KEYS,
            key=lambda g: (held.count(g), kinds.count(g), -GROUP_KEYS.index(g)),
        )
        if group not in held:
            continue
        if row.done:
            cand = (2.0, Near(row.key, row.held, row.need, True))
        elif row.possible and row.held > 0:
            ratio = min(0.99, row.held / row.need) + 1.0
            cand = (ratio, Near(row.key, row.held, row.need, False))
        else:
            continue
        if group not in best or cand[0] > best[group][0]:
            best[group] = cand
    return {g: near for g, (_, near) in best.items()}


def group_progress(
    words: Words, mine: set[int], theirs: set[int], rules: Rules
) -> dict[str, tuple[str, bool]]:
    """:func:`group_near` in words: each group's (text, made)."""
    return {g: (n.text(words), n.made) for g, n in group_near(mine, theirs, rules).items()}


def _group_caption(
    words: Words,
    surface: pygame.Surface,
    lay: TableLayout,
    rect: pygame.Rect,
    name: str,
    n: int,
    near: Near | None,
) -> None:
    """A capture group's caption: its category and a bold count, and under it the yaku the
    group is closest to (in a smaller size when the group is narrow; a made yaku that still
    does not fit drops "— made!" for a drawn tick before its name, as in the tracker, in
    ochre but not bold)."""
    big = theme.font_px(19, lay.scale)
    room = rect.w - gfx.measure(str(n), big, bold=True)[0] - 6
    fs = gfx.fit_size(name, theme.font_px(15, lay.scale), room)
    r = gfx.blit_text(
        surface,
        name,
        fs,
        (rect.x, rect.y + lay.caption // 2),
        anchor="midleft",
        color=theme.MUTED,
        max_width=room,
    )
    gfx.blit_text(
        surface,
        str(n),
        big,
        (r.right + 6, rect.y + lay.caption // 2),
        anchor="midleft",
        bold=True,
        color=theme.PAPER if n else theme.MUTED,
    )
    if near is None:
        return
    made = near.made
    text = near.text(words)
    base = theme.font_px(14, lay.scale)
    size = gfx.fit_size(text, base, rect.w, bold=made)
    x, w = rect.x, rect.w
    color = theme.OCHRE if made else theme.PAPER
    if made and (size < base * 3 // 4 or gfx.measure(text, size, bold=True)[0] > rect.w):
        text = words.yaku_name(near.key)  # in ochre after a tick, not bold: narrower
        made = False
        tick = max(6, base // 2)
        size = gfx.fit_size(text, base, rect.w - tick - 4)
        th = gfx.measure(text, size)[1]
        cy = rect.y + lay.caption + th // 2
        pygame.draw.lines(
            surface,
            color,
            False,
            [(x, cy), (x + tick // 2, cy + tick // 2), (x + tick, cy - tick // 2)],
            2,
        )
        x, w = x + tick + 4, w - tick - 4
    gfx.blit_text(
        surface,
        text,
        size,
        (x, rect.y + lay.caption),
        anchor="topleft",  # the room left below it is for a last-move outline on the cards
        bold=made,
        color=color,
        max_width=w,
    )


def _log_bottom(f: TableFrame) -> int:
    """The bottom of the move log: the top of the side buttons under it."""
    return min((b.rect.top for b in f.buttons), default=f.lay.sidebar.bottom)


def _header_key(f: TableFrame) -> tuple[object, ...]:
    words = f.snap.words
    s = f.snap
    return (
        f.lay.header.size,
        f.lay.scale,
        s.round_number,
        s.view.dealer,
        s.balances,
        s.view.calls,
        s.viewer,
        s.names,
        s.practice,
        s.title,
        id(s.rules),
        s.dealer_known,
        words,
    )


def _bands_key(f: TableFrame) -> tuple[object, ...]:
    words = f.snap.words
    s = f.snap
    board = f.board
    return (
        f.lay.main.size,
        f.lay.scale,
        s.view.dealer,
        tuple(map(tuple, board.caps)),
        len(board.field),
        s.viewer,
        s.names,
        s.dealer_known,
        id(s.rules),
        words,  # the language, and the name style the names are drawn in
    )


@functools.lru_cache(maxsize=8)
def _shadow(size: tuple[int, int]) -> pygame.Surface:
    shadow = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(shadow, (0, 0, 0, 90), shadow.get_rect(), border_radius=6)
    return shadow


def _last_marker(surface: pygame.Surface, rect: pygame.Rect, *, arrow: bool = True) -> None:
    """The last move's cards: a paper-and-ink outline, and over a full-size card an arrow
    (a small card in a capture pile keeps the outline only: its caption sits above it)."""
    pygame.draw.rect(surface, theme.PAPER, rect.inflate(4, 4), width=2, border_radius=6)
    pygame.draw.rect(surface, theme.INK, rect.inflate(8, 8), width=1, border_radius=8)
    if not arrow:
        return
    cx = rect.centerx
    pygame.draw.polygon(
        surface, theme.PAPER, [(cx - 7, rect.top - 12), (cx + 7, rect.top - 12), (cx, rect.top - 3)]
    )


def _lit_edge(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A hand card that can take something: a lit bar along its top edge (a target has an
    outline with corner brackets, the keyboard focus a bar under the card)."""
    bar = pygame.Rect(rect.x + 6, rect.top - 10, rect.w - 12, 4)  # clear of a focus ring
    pygame.draw.rect(surface, theme.TARGET, bar, border_radius=2)


def _keyboard_focus(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The keyboard's focus on a hand card: a bar with a notch under the card (the card is also
    lifted), unlike a target's brackets."""
    bar = pygame.Rect(rect.x + 4, rect.bottom + 5, rect.w - 8, 5)
    pygame.draw.rect(surface, theme.OCHRE, bar, border_radius=2)
    cx = rect.centerx
    pygame.draw.polygon(
        surface, theme.OCHRE, [(cx - 7, bar.top), (cx + 7, bar.top), (cx, bar.top - 7)]
    )


def _open_field_hint(
    words: Words, surface: pygame.Surface, lay: TableLayout, focused: bool
) -> None:
    area = lay.field_area.inflate(-4, -4)
    color = theme.WHITE if focused else theme.TARGET
    step = 14
    for x in range(area.left, area.right, step * 2):
        pygame.draw.line(surface, color, (x, area.top), (min(x + step, area.right), area.top), 2)
        pygame.draw.line(
            surface, color, (x, area.bottom), (min(x + step, area.right), area.bottom), 2
        )
    for y in range(area.top, area.bottom, step * 2):
        pygame.draw.line(surface, color, (area.left, y), (area.left, min(y + step, area.bottom)), 2)
        pygame.draw.line(
            surface, color, (area.right, y), (area.right, min(y + step, area.bottom)), 2
        )
    gfx.blit_text(
        surface,
        words.t("ui.table.place_here"),
        theme.font_px(15, lay.scale),
        (area.right - 8, area.top + 6),
        color=color,
        anchor="topright",
    )


def draw_header(surface: pygame.Surface, f: TableFrame) -> None:
    words = f.snap.words
    lay, s = f.lay, f.snap
    rules = s.rules
    pygame.draw.rect(surface, theme.PANEL, lay.header)
    pygame.draw.line(surface, theme.PANEL_EDGE, lay.header.bottomleft, lay.header.bottomright)
    fs = theme.font_px(17, lay.scale)
    total = rules.rounds if rules.match_end == "rounds" else None
    number = s.round_number
    rnd = (
        words.t("ui.common.round_n_of", n=number, total=total)
        if total
        else words.t("ui.common.round_n", n=number)
    )
    if rules.match_end == "target" and rules.target_score:
        rnd += " · " + words.t("ui.table.target", n=rules.target_score)
    dealer = words.t("ui.table.dealer", name=s.names[s.view.dealer]) if s.dealer_known else ""
    practice = words.t("ui.table.practice") if s.practice else ""
    balances: dict[int, str] = {}
    for p in (1, 0):
        calls = s.view.calls[p]
        amount = amount_text(words, s.balances[p], rules.unit)
        txt = words.t("ui.table.balance", name=s.names[p], amount=amount)
        if calls:
            txt += " · " + words.t("ui.table.calls", n=calls)
        balances[p] = txt
    # Everything on one line, whole: when it does not fit, the font steps down (to 3/4), then
    # the rules' name goes (the rules screen and the pause menu name them), then the dealer
    # (the seat's tag says "Dealer" too); the round, practice and the balances always stay.
    room = lay.header.w - 24
    choices = [
        [s.title or rnd, dealer, rules_label(words, rules), practice],
        [s.title or rnd, dealer, practice],
        [s.title or rnd, practice],
    ]
    parts, size = choices[-1], max(10, fs * 3 // 4)
    for candidate in choices:
        texts = [t for t in candidate if t]
        fitted = _fit_row([*texts, balances[1], balances[0]], fs, room, 18)
        if fitted:
            parts, size = texts, fitted
            break
    fs = size
    x = lay.header.x + 12
    cy = lay.header.centery
    for part in parts:
        r = gfx.blit_text(surface, part, fs, (x, cy), anchor="midleft", color=theme.PAPER)
        x = r.right + 18
    # balances on the right
    right = lay.header.right - 12
    for p in (1, 0):
        txt = balances[p]
        r = gfx.blit_text(
            surface,
            txt,
            fs,
            (right, cy),
            anchor="midright",
            bold=p == s.viewer,
            color=theme.OCHRE if p == s.viewer else theme.PAPER,
            max_width=max(120, right - x - 20),
        )
        right = r.left - 22


def _fit_row(texts: list[str], fs: int, room: int, gap: int) -> int:
    """The largest font size from ``fs`` down to 3/4 of it at which ``texts`` fit one line of
    ``room`` pixels with ``gap`` between them (the balances may be bold: measured bold); 0
    when none does."""
    for size in range(fs, max(10, fs * 3 // 4) - 1, -1):
        width = sum(gfx.measure(t, size, bold=True)[0] for t in texts)
        if width + gap * (len(texts) - 1) + 22 <= room:
            return size
    return 0


def draw_bands(surface: pygame.Surface, f: TableFrame) -> None:
    words = f.snap.words
    lay, s = f.lay, f.snap
    fs = theme.font_px(14, lay.scale)
    board = f.board
    dealer = s.view.dealer
    for top in (True, False):
        p = (1 - s.viewer) if top else s.viewer
        groups = lay.opp_caps if top else lay.my_caps
        mine, theirs = set(board.caps[p]), set(board.caps[1 - p])
        near = group_near(mine, theirs, s.rules)
        counts = tracker.group_counts(mine, theirs, s.rules)
        for g, rect in groups.items():
            n = counts[g]
            _group_caption(
                words, surface, lay, rect, kind_name(words, g, plural=True), n, near.get(g)
            )
            slot = pygame.Rect(rect.x, rect.bottom - lay.small[1], lay.small[0], lay.small[1])
            pygame.draw.rect(surface, theme.FELT_LIGHT, slot, width=1, border_radius=5)
        mark = dealer == p and s.dealer_known
        note = words.t("term.dealer") if mark else ""
        if top:  # above the opponent's hand: the name, and under it "Dealer" when too long
            room = min(lay.opp_caps["bright"].x, lay.opp_hand.right + 3 * lay.gap)
            room -= lay.opp_hand.x + lay.gap
            at = (lay.opp_hand.x, lay.opp_band.y)
            gfx.blit_seat_tag(surface, s.names[p], note, fs, at, room, lay.caption)
        else:
            tag = s.names[p] + (" · " + note if note else "")
            gfx.blit_text(surface, tag, fs, (lay.hand_area.x, lay.hand_area.y + 2), bold=True)
    # no field slot outlines: empty positions show only while a card is dragged


def draw_status(surface: pygame.Surface, f: TableFrame) -> None:
    """The one-line hint / thinking note / illegal-move reason above the viewer's captures."""
    words = f.snap.words
    lay, s = f.lay, f.snap
    fs = theme.font_px(17, lay.scale)
    v = s.view
    text, color = "", theme.PAPER
    if s.message:
        text, color = s.message, theme.DANGER
    elif s.suggestion:
        text, color = s.suggestion, theme.OCHRE
    elif v.outcome is None and v.to_move is not None and not s.asking:
        p = v.to_move
        if p in s.computers:
            # Only at rest: while a move is still being shown, the engine (and the computer now
            # thinking) is a step ahead of the table, and the turn banner tells whose move it is.
            if not f.animating:
                text = words.t("ui.table.thinking", name=s.names[p])
        elif s.my_turn and s.show_hints and f.turn is not None:  # help level: the hints
            # the hint speaks of the step the step bar shows, never of another (issue 43: "drag
            # a card from your hand" under "3. Stop or koi-koi?"); a question has its prompt
            step = f.turn[1]
            if step == "choose":
                text = words.t("ui.table.hint_draw")
            elif step == "play" and s.lifted:
                text = words.t("ui.table.hint_target")
            elif step == "play":
                text = words.t("ui.table.hint_play")
    if text:
        # one line, whole: the font steps down to 3/4 to fit; a longer line takes two lines
        # (rising over the field's edge rather than being cut)
        bold = bool(s.message)
        width = lay.main.w - 30
        size = max(gfx.fit_size(text, fs, width, bold=bold), max(10, fs * 3 // 4))
        lines = [text] if gfx.measure(text, size, bold=bold)[0] <= width else None
        if lines is None:
            lines = gfx.wrap(text, size, width, bold=bold)
        line_h = size + 4
        y = min(lay.message.centery - line_h // 2, lay.message.bottom - line_h * len(lines))
        for line in lines:
            gfx.blit_text(
                surface,
                line,
                size,
                (lay.main.centerx, y + line_h // 2),
                color=color,
                anchor="center",
                bold=bold,
            )
            y += line_h


def draw_banner(surface: pygame.Surface, lay: TableLayout, text: str) -> None:
    fs = theme.font_px(28, lay.scale)
    w, h = gfx.measure(text, fs, bold=True)
    w = min(w, lay.main.w - 60)
    rect = pygame.Rect(0, 0, w + 60, h + 28)
    rect.center = lay.field_band.center
    gfx.draw_panel(surface, rect, color=theme.DEEP_RED, edge=theme.OCHRE, alpha=235)
    gfx.blit_text(surface, text, fs, rect.center, anchor="center", bold=True, max_width=w)
