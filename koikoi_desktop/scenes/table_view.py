"""Drawing the table (read-only: nothing here changes the match or the board).

Highlights never rely on hue alone: lit targets get a thick outline with corner brackets, the
target under a dragged card a filled outline, the last move a small triangle marker and a
dashed-looking double outline, the keyboard focus a lift plus brackets.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import pygame

from koikoi_desktop.names import rules_label
from koikoi_desktop.scenes import table_sidebar
from koikoi_desktop.scenes.common import felt
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.cards import card_surface, draw_badge
from koikoi_desktop.ui.widgets import draw_focus

if TYPE_CHECKING:
    from koikoi_desktop.scenes.table import TableScene

GROUP_KEYS = ("bright", "animal", "ribbon", "plain")


def card_image(scene: TableScene, card: int, size: tuple[int, int]) -> pygame.Surface:
    """A cached sprite at one of the two table sizes, scaled live only for moving cards."""
    lay = scene.lay
    if size in (lay.card, lay.small):
        return card_surface(scene.app, card, size)
    big = card_surface(scene.app, card, lay.card)
    return pygame.transform.smoothscale(big, (max(1, size[0]), max(1, size[1])))


def draw_table(scene: TableScene, surface: pygame.Surface) -> None:
    lay = scene.lay
    if scene.match is None:
        surface.blit(felt(surface.get_size()), (0, 0))
        draw_prompt(scene, surface)
        return
    s = lay.scale
    surface.blit(static_layer(scene, surface.get_size()), (0, 0))  # felt included
    draw_pile(scene, surface)
    lit = set(scene.choice.targets) if scene.choice is not None else set()
    hot = 0
    if scene.drag is not None and scene.drag.moved and scene.choice is not None:
        hot = scene.drop_target(scene.choice, pygame.mouse.get_pos(), click=False)
    focus_card = 0
    kb_target = -1
    if scene.my_turn() and scene.choice is None and scene.drag is None:
        cards = scene.pickable()
        if cards and scene.focus < len(cards) and getattr(scene, "_kb", True):
            focus_card = cards[scene.focus % len(cards)]
    if scene.choice is not None and scene.drag is None:
        opts = scene.choice.options()
        if opts:
            kb_target = opts[scene.choice.cursor % len(opts)]
    board = scene.director.board
    badges = bool(scene.app.setting("card_badges", True))
    for sp in sorted(scene.director.sprites.values(), key=lambda x: x.z):
        x, y, w, h = sp.box
        rect = pygame.Rect(round(x), round(y), round(w), round(h))
        lifted = (
            scene.choice is not None and sp.card == scene.choice.card
        ) or sp.card == focus_card
        if lifted and scene.drag is None:
            rect.y -= lay.lift
        if sp.z >= 1000 or lifted:
            surface.blit(_shadow(rect.size), rect.move(5, 7))
        img = card_image(scene, sp.card if sp.face_up else 0, rect.size)
        if sp.alpha < 255:  # reduced motion: fading in where it lands
            img = img.copy()
            img.set_alpha(sp.alpha)
        surface.blit(img, rect)
        if sp.face_up and badges and rect.size == lay.card:
            draw_badge(surface, rect, sp.card)
        if sp.card in lit:
            draw_focus(surface, rect, theme.TARGET, 3)
            if sp.card == hot or sp.card == kb_target:
                pygame.draw.rect(surface, theme.WHITE, rect.inflate(2, 2), width=4, border_radius=6)
        if sp.card in scene.director.last_cards and not scene.queue.busy:
            _last_marker(surface, rect)
        if sp.card == focus_card:
            draw_focus(surface, rect, theme.OCHRE, 2)
    if scene.choice is not None and scene.choice.open_field is not None:
        _open_field_hint(scene, surface, kb_target == 0)
    del board
    for b in side_buttons(scene):
        b.draw(surface, font=theme.font_px(15, s))
    draw_status(scene, surface)
    if scene.director.banner:
        draw_banner(scene, surface, scene.director.banner)
    draw_prompt(scene, surface)


def _header_key(scene: TableScene) -> tuple[Any, ...]:
    st, number, balances = scene.shown
    return (
        scene.lay.header.size,
        scene.lay.scale,
        number,
        st.dealer,
        balances,
        tuple(st.calls),
        scene.viewer,
        scene.names,
        scene.config.practice,
        id(scene.rules),
        dealer_known(scene),
        gfx.tr("ui.table.log"),  # the language
    )


def _bands_key(scene: TableScene) -> tuple[Any, ...]:
    st = scene.shown[0]
    board = scene.director.board
    return (
        scene.lay.main.size,
        scene.lay.scale,
        st.dealer,
        tuple(len(c) for c in board.caps),
        tuple(map(tuple, board.caps)),
        len(board.field),
        scene.viewer,
        scene.names,
        dealer_known(scene),
        gfx.tr("ui.table.log"),
    )


def dealer_known(scene: TableScene) -> bool:
    """False while the first dealer is still being drawn (the header must not tell first)."""
    p = scene.prompt
    return p is None or p.key != ("first",)


class _Static:
    """The table's static layer at one window size, and what each of its parts shows."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.surf = felt(size).copy()
        self.keys: dict[str, Any] = {}
        self.log_top = 0


def static_layer(scene: TableScene, size: tuple[int, int]) -> pygame.Surface:
    """Felt, header, captions, slot outlines, the yaku tracker and the move log; the cards are
    blitted on top every frame.

    Each part is redrawn only when what it shows has changed, in place: its rectangle gets the
    felt (or the panel) back, then the part is drawn again. A new log line therefore costs the
    log's few lines of text, not a whole-window copy and every label (text layout is the costly
    part of a frame: a full rebuild took ~4 ms at 1920x1080)."""
    st_cache: _Static | None = getattr(scene, "_static", None)
    if st_cache is None or st_cache.size != size or st_cache.keys.get("lay") is not scene.lay:
        st_cache = _Static(size)
        st_cache.keys["lay"] = scene.lay
        scene._static = st_cache  # type: ignore[attr-defined]
    surf, keys, lay = st_cache.surf, st_cache.keys, scene.lay
    back = felt(size)
    key = _header_key(scene)
    if keys.get("header") != key:
        surf.blit(back, lay.header, lay.header)
        draw_header(scene, surf)
        keys["header"] = key
    key = _bands_key(scene)
    if keys.get("bands") != key:
        surf.blit(back, lay.main, lay.main)
        draw_bands(scene, surf)
        keys["bands"] = key
    key = table_sidebar.tracker_key(scene)
    if keys.get("tracker") != key:
        pygame.draw.rect(surf, theme.PANEL, lay.sidebar)
        pygame.draw.line(surf, theme.PANEL_EDGE, lay.sidebar.topleft, lay.sidebar.bottomleft)
        st_cache.log_top = table_sidebar.draw_tracker(scene, surf)
        keys["tracker"] = key
        keys.pop("log", None)
    key = table_sidebar.log_key(scene, st_cache.log_top)
    if keys.get("log") != key:
        table_sidebar.draw_log(scene, surf, st_cache.log_top)
        keys["log"] = key
    return surf


@functools.lru_cache(maxsize=8)
def _shadow(size: tuple[int, int]) -> pygame.Surface:
    shadow = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(shadow, (0, 0, 0, 90), shadow.get_rect(), border_radius=6)
    return shadow


def _last_marker(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surface, theme.PAPER, rect.inflate(4, 4), width=1, border_radius=6)
    pygame.draw.rect(surface, theme.INK, rect.inflate(8, 8), width=1, border_radius=8)
    cx = rect.centerx
    pygame.draw.polygon(
        surface, theme.PAPER, [(cx - 7, rect.top - 12), (cx + 7, rect.top - 12), (cx, rect.top - 3)]
    )


def _open_field_hint(scene: TableScene, surface: pygame.Surface, focused: bool) -> None:
    lay = scene.lay
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
        gfx.tr("ui.table.place_here"),
        theme.font_px(15, lay.scale),
        (area.right - 8, area.top + 6),
        color=color,
        anchor="topright",
    )


def _unit(scene: TableScene) -> str:
    return gfx.tr("ui.common.coins" if scene.rules.unit == "coins" else "ui.common.points")


def draw_header(scene: TableScene, surface: pygame.Surface) -> None:
    lay = scene.lay
    st, number, balances = scene.shown
    s = lay.scale
    pygame.draw.rect(surface, theme.PANEL, lay.header)
    pygame.draw.line(surface, theme.PANEL_EDGE, lay.header.bottomleft, lay.header.bottomright)
    fs = theme.font_px(17, s)
    total = scene.rules.rounds if scene.rules.match_end == "rounds" else None
    rnd = (
        gfx.tr("ui.common.round_n_of", n=number, total=total)
        if total
        else gfx.tr("ui.common.round_n", n=number)
    )
    if scene.rules.match_end == "target" and scene.rules.target_score:
        rnd += " · " + gfx.tr("ui.table.target", n=scene.rules.target_score)
    parts = [rnd, gfx.tr("ui.table.dealer", name=scene.names[st.dealer]), rules_label(scene.rules)]
    if not dealer_known(scene):
        del parts[1]
    if scene.config.practice:
        parts.append(gfx.tr("ui.table.practice"))
    x = lay.header.x + 12
    cy = lay.header.centery
    for part in parts:
        r = gfx.blit_text(surface, part, fs, (x, cy), anchor="midleft", color=theme.PAPER)
        x = r.right + 18
    # balances on the right
    right = lay.header.right - 12
    for p in (1, 0):
        calls = st.calls[p]
        txt = gfx.tr("ui.table.balance", name=scene.names[p], n=balances[p], unit=_unit(scene))
        if calls:
            txt += " · " + gfx.tr("ui.table.calls", n=calls)
        r = gfx.blit_text(
            surface,
            txt,
            fs,
            (right, cy),
            anchor="midright",
            bold=p == scene.viewer,
            color=theme.OCHRE if p == scene.viewer else theme.PAPER,
            max_width=max(120, right - x - 20),
        )
        right = r.left - 22


def draw_bands(scene: TableScene, surface: pygame.Surface) -> None:
    lay = scene.lay
    s = lay.scale
    fs = theme.font_px(14, s)
    st = scene.shown[0]
    board = scene.director.board
    for top in (True, False):
        p = (1 - scene.viewer) if top else scene.viewer
        groups = lay.opp_caps if top else lay.my_caps
        counts = {g: 0 for g in GROUP_KEYS}
        from koikoi_desktop.ui.cards import kind_of

        for c in board.caps[p]:
            counts[kind_of(c)] += 1
        for g, rect in groups.items():
            lab = f"{gfx.tr(f'kind.{g}.plural')} {counts[g]}"
            gfx.blit_text(surface, lab, fs, (rect.x, rect.y), color=theme.MUTED, max_width=rect.w)
            slot = pygame.Rect(rect.x, rect.bottom - lay.small[1], lay.small[0], lay.small[1])
            pygame.draw.rect(surface, theme.FELT_LIGHT, slot, width=1, border_radius=5)
        if top:
            tag = scene.names[p]
            if st.dealer == p and dealer_known(scene):
                tag += " · " + gfx.tr("term.dealer")
            gfx.blit_text(
                surface,
                tag,
                fs,
                (lay.opp_hand.x, lay.opp_band.y),
                bold=True,
                max_width=lay.opp_hand.w + 40,
            )
        else:
            mark = st.dealer == p and dealer_known(scene)
            tag = scene.names[p] + (" · " + gfx.tr("term.dealer") if mark else "")
            gfx.blit_text(surface, tag, fs, (lay.hand_area.x, lay.hand_area.y + 2), bold=True)
    # field slots: faint outlines
    for r in lay.field_slots(len(board.field))[:16]:
        pygame.draw.rect(surface, theme.FELT_LIGHT, r, width=1, border_radius=6)
    pygame.draw.rect(surface, theme.FELT_LIGHT, lay.reveal, width=1, border_radius=6)


def draw_pile(scene: TableScene, surface: pygame.Surface) -> None:
    lay = scene.lay
    n = scene.director.board.pile
    r = lay.pile
    if n > 0:
        back = card_surface(scene.app, 0, lay.card)
        for i in range(min(4, (n + 5) // 6), 0, -1):
            surface.blit(back, r.move(-i * 2, -i * 2))
    else:
        pygame.draw.rect(surface, theme.FELT_LIGHT, r, width=1, border_radius=6)
    gfx.blit_text(
        surface,
        gfx.tr("ui.table.deck", n=n),
        theme.font_px(15, lay.scale),
        (r.centerx, r.bottom + 6),
        anchor="midtop",
        color=theme.PAPER,
    )


def draw_status(scene: TableScene, surface: pygame.Surface) -> None:
    """The one-line hint / thinking note / illegal-move reason above the viewer's captures."""
    lay = scene.lay
    fs = theme.font_px(17, lay.scale)
    st = scene.shown[0]
    text, color = "", theme.PAPER
    if scene.message:
        text, color = scene.message, theme.DANGER
    elif scene.suggestion:
        text, color = scene.suggestion, theme.OCHRE
    elif st.outcome is None and st.to_move is not None and scene.prompt is None:
        p = st.to_move
        if p in scene.opponents:
            text = gfx.tr("ui.table.thinking", name=scene.names[p])
        elif scene.my_turn():
            if st.phase == "draw":
                text = gfx.tr("ui.table.hint_draw")
            elif scene.choice is not None:
                text = gfx.tr("ui.table.hint_target")
            else:
                text = gfx.tr("ui.table.hint_play")
    if text:
        gfx.blit_text(
            surface,
            text,
            fs,
            (lay.main.centerx, lay.message.centery),
            color=color,
            anchor="center",
            max_width=lay.main.w - 30,
            bold=bool(scene.message),
        )


def draw_banner(scene: TableScene, surface: pygame.Surface, text: str) -> None:
    lay = scene.lay
    fs = theme.font_px(28, lay.scale)
    w, h = gfx.measure(text, fs, bold=True)
    w = min(w, lay.main.w - 60)
    rect = pygame.Rect(0, 0, w + 60, h + 28)
    rect.center = lay.field_band.center
    gfx.draw_panel(surface, rect, color=theme.DEEP_RED, edge=theme.OCHRE, alpha=235)
    gfx.blit_text(surface, text, fs, rect.center, anchor="center", bold=True, max_width=w)


def side_buttons(scene: TableScene) -> list[Any]:
    """Menu, and in practice mode Undo and Suggest, along the bottom of the sidebar."""
    from koikoi_desktop import scenes
    from koikoi_desktop.ui.widgets import Button

    lay = scene.lay
    side = lay.sidebar
    h = round(34 * lay.scale)
    specs: list[tuple[str, Any]] = [
        (
            gfx.tr("ui.table.menu"),
            lambda: scene.app.stack.push(scenes.create("pause", scene.app, table=scene)),
        )
    ]
    if scene.config.practice:
        specs.append((gfx.tr("ui.table.undo"), scene.undo))
        specs.append((gfx.tr("ui.table.suggest"), scene.suggest))
    n = len(specs)
    w = (side.w - 20 - 8 * (n - 1)) // n
    out = []
    for i, (label, cb) in enumerate(specs):
        b = Button(label, cb, pygame.Rect(side.x + 10 + i * (w + 8), side.bottom - h - 8, w, h))
        if label == gfx.tr("ui.table.undo"):
            b.enabled = scene.can_undo()
        out.append(b)
    return out


def draw_prompt(scene: TableScene, surface: pygame.Surface) -> None:
    p = scene.prompt
    if p is None:
        return
    lay = scene.lay
    s = lay.scale
    if p.opaque:
        surface.blit(felt(surface.get_size()), (0, 0))
    else:
        gfx.dim(surface, 110)
    gfx.draw_panel(surface, p.rect, alpha=245)
    fs = theme.font_px(19, s)
    y = p.rect.y + round(16 * s)
    gfx.blit_text(
        surface,
        p.title,
        theme.font_px(25, s),
        (p.rect.centerx, y),
        anchor="midtop",
        bold=True,
        color=theme.OCHRE,
        max_width=p.rect.w - 30,
    )
    y += round(46 * s)
    rv = p.reveal
    shown = rv.lines_shown() if rv is not None else len(p.lines)
    if rv is not None and p.cards:  # a staged reveal: the cards first, then what they decide
        y = _prompt_cards(scene, surface, p, y + round(6 * s)) + round(12 * s)
    for i, line in enumerate(p.lines):
        for sub in gfx.wrap(line, fs, p.rect.w - 40):
            if i < shown:
                gfx.blit_text(surface, sub, fs, (p.rect.x + 20, y), max_width=p.rect.w - 40)
            y += int(fs * 1.45)
    if rv is None and p.cards:
        _prompt_cards(scene, surface, p, y + round(8 * s))
    if rv is None or rv.done:
        p.focus.draw(surface, font=theme.font_px(19, s))


def prompt_card_row(scene: TableScene, p: Any) -> tuple[tuple[int, int], float]:
    """Card size and step of a prompt's row of cards (wider apart when they carry names)."""
    lay = scene.lay
    rv = p.reveal
    captions = rv.captions if rv is not None else []
    ch = int(lay.card[1] * (0.95 if captions else 0.8))
    cw = round(ch * 0.625)
    n = len(p.cards)
    cap_fs = theme.font_px(15, lay.scale)
    want = cw + 6
    if captions:
        want = max(cw + round(18 * lay.scale), *(gfx.measure(c, cap_fs)[0] + 14 for c in captions))
    step = min(want, (p.rect.w - 40 - cw) / max(1, n - 1)) if n > 1 else 0
    return (cw, ch), step


def _prompt_cards(scene: TableScene, surface: pygame.Surface, p: Any, y: int) -> int:
    """The prompt's row of cards (revealed one by one when staged); returns the y below it."""
    (cw, ch), step = prompt_card_row(scene, p)
    rv = p.reveal
    captions = rv.captions if rv is not None else []
    n = len(p.cards)
    x = p.rect.centerx - (step * (n - 1) + cw) / 2
    cap_fs = theme.font_px(15, scene.lay.scale)
    bottom = y + ch
    for i, c in enumerate(p.cards):
        at = pygame.Rect(round(x), y, cw, ch)
        _reveal_card(scene, surface, c, at, rv.progress(i) if rv else 1.0, rv)
        if i < len(captions):
            r = gfx.blit_text(
                surface,
                captions[i],
                cap_fs,
                (at.centerx, at.bottom + 4),
                anchor="midtop",
                color=theme.MUTED,
                max_width=max(cw, int(step) - 8) if n > 1 else p.rect.w - 40,
            )
            bottom = max(bottom, r.bottom)
        x += step
    return bottom


def _reveal_card(
    scene: TableScene,
    surface: pygame.Surface,
    card: int,
    rect: pygame.Rect,
    t: float,
    rv: Any,
) -> None:
    """A prompt card being revealed: ``t`` 0 = face down, 1 = face up. It turns over (narrows
    to its edge, then widens showing its face) or, with reduced motion, stays still while its
    face fades in over the back."""
    size = rect.size
    if t >= 1.0:
        surface.blit(card_image(scene, card, size), rect)
        return
    back = card_image(scene, 0, size)
    if rv is not None and rv.fade_only:
        surface.blit(back, rect)
        if t > 0:
            face = card_image(scene, card, size).copy()
            face.set_alpha(round(255 * t))
            surface.blit(face, rect)
        return
    import math

    width = abs(math.cos(math.pi * t))
    img = back if t < 0.5 else card_image(scene, card, size)
    w = max(1, round(size[0] * width))
    if w != size[0]:
        img = pygame.transform.smoothscale(img, (w, size[1]))
    surface.blit(img, img.get_rect(center=rect.center))
