"""No cut text anywhere (issue 34, item 6): every screen and every table state, at the smallest
window (1024x640) and at 1920x1080, in all five languages, draws each line whole and no line of
text on another; the pause menu's lines stand at WCAG AA contrast (4.5:1) over the dimmed table
(issue 43).

A cut is what the game itself reports: the one place that shortens a line with "…"
(``gfx.cut``, called by ``gfx.blit_text`` and the ledger's middle cut) adds it to
``gfx.cuts`` while a test watches. Overlaps are read from the lines ``gfx.blit_text`` drew
(their ink). Each state is set up once, through the real scenes and the table's controller,
then drawn at both sizes in every language (the app's own resize and language switch, so this
also checks that every screen rewords and re-lays itself out when they change). The frames are
saved as PNGs in the test's temporary folder (or ``$KOIKOI_SHOTS``) for a person to look at.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import engine, i18n, scenes
from koikoi_desktop.i18n import Words
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.pause import PauseScene
from koikoi_desktop.scenes.table import prompts as prompts
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.ui import gfx

from .conftest import pump
from .contrast import AA, text_contrast

SIZES = [(1024, 640), (1920, 1080)]
LANGS = list(i18n.LANGUAGES)
#: The longest name the settings accept is 40 characters; a long but ordinary one.
LONG_NAME = "Alexandra Konstantinovna Dobrovolskaya"


@dataclass
class Line:
    text: str
    rect: pygame.Rect
    hidden: bool  # (partly) outside the clip in force: scrolled out of view


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    args = appmod.parse_args(
        ["--data-dir", str(tmp_path / "data"), "--size", "1024x640", "--speed", "off"]
    )
    a = appmod.App(args)
    appmod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    from koikoi_desktop.ai import InlineExecutor

    a.ai_executor = InlineExecutor()
    yield a
    while a.stack.top is not None:
        a.stack.pop()
    pygame.display.quit()


class Watch:
    """Records the lines drawn and the cuts reported while a frame is drawn."""

    def __init__(self, monkeypatch: Any) -> None:
        self.lines: list[Line] = []
        self.cuts: list[tuple[str, str]] = []
        real = gfx.blit_text

        def spy(surface: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> Any:
            rect = real(surface, text, size, pos, **kw)
            bold = kw.get("bold", False)
            ink = gfx.text(text, size, bold=bold).get_bounding_rect().move(rect.topleft)
            if kw.get("max_width") is not None and ink.w > rect.w:
                ink = rect  # a cut line: the box it was given
            self.lines.append(Line(text, ink, not surface.get_clip().contains(rect)))
            return rect

        monkeypatch.setattr(gfx, "blit_text", spy)
        monkeypatch.setattr(gfx, "cuts", self.cuts)

    def clear(self) -> None:
        self.lines.clear()
        self.cuts.clear()


def problems(w: Watch, size: tuple[int, int]) -> list[str]:
    """What is wrong with the lines of one frame: cuts, lines outside the window, overlaps."""
    out = [f"cut: {whole!r} shown as {shown!r}" for whole, shown in w.cuts]
    screen = pygame.Rect((0, 0), size)
    shown = [ln for ln in w.lines if ln.text.strip() and not ln.hidden and ln.rect.w > 0]
    out += [f"outside the window: {ln.text!r}" for ln in shown if not screen.contains(ln.rect)]
    for a, b in itertools.combinations(shown, 2):
        o = a.rect.clip(b.rect)
        if o.w > 1 and o.h > 1 and a.text != b.text:
            out.append(f"{a.text!r} overlaps {b.text!r}")
    return out


def draw_top(a: Any, w: Watch) -> None:
    """Draw the whole stack; record only what the top scene draws (an overlay's lines are
    meant to lie over the dimmed screen under it)."""
    w.clear()
    scenes_ = a.stack.scenes
    under = scenes_[:-1]
    start = max((i for i, s in enumerate(under) if s.opaque), default=0)
    for s in under[start:]:
        s.draw(a.screen)
    w.clear()
    scenes_[-1].draw(a.screen)


def sweep(
    a: Any,
    w: Watch,
    name: str,
    out: Path,
    found: dict[str, list[str]],
    remake: Callable[[], None] | None = None,
) -> None:
    """Draw the stack as it stands at both sizes in every language; note what is wrong.
    ``remake`` asks an open question again in the language of the moment (a question is worded
    when it is asked, and the language cannot change under it in the game)."""
    for size in SIZES:
        a.on_resize(size)
        for lang in LANGS:
            a.prefs.speak(lang)  # as the settings screen does
            for s in a.stack.scenes:  # what coming back from the settings does
                relabel = getattr(s, "relabel", None)
                if relabel is not None:
                    relabel()
            if remake is not None:
                remake()
            draw_top(a, w)
            bad = problems(w, size)
            if not any(ln.text.strip() for ln in w.lines):
                bad.append("no text drawn (a layer kept from another language or size?)")
            if bad:
                found[f"{name} {size[0]}x{size[1]} {lang}"] = bad
            if lang in ("en", "uk", "ja"):
                pygame.image.save(a.screen, str(out / f"{name}-{size[0]}x{size[1]}-{lang}.png"))
    a.prefs.speak("en")
    a.on_resize(SIZES[0])


# ---------------------------------------------------------------------------- table states


def table(a: Any, seats: tuple[str, str], seed: int, **kw: Any) -> TableScene:
    a.stack.reset(scenes.create("title", a))
    t = TableScene(
        a, screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], seats, seed, **kw))
    )
    a.stack.push(t)
    return t


def to_play(a: Any, t: TableScene, until: Callable[[], bool], limit: int = 800) -> None:
    """The person plays the first legal move, calls koi-koi when asked, closes summaries."""
    c = t.controller
    for _ in range(limit):
        if until():
            return
        top = a.stack.top
        if top is not t and top.name == "round-summary":
            top.on_back()
        elif t.prompt is not None:
            pr = t.prompt
            koi = [cb for label, cb, _ in pr.buttons if str(label).endswith("!")]
            if koi and pr.key[-1] == "decide":
                koi[0]()  # koi-koi, so the header shows a call
            else:
                pr.widgets[-1].activate()
        elif c.my_turn():
            c.apply(c.state.legal_actions()[0])
            t.run_cues()
        pump(t, lambda: until() or c.my_turn() or a.stack.top is not t, 5)
    raise AssertionError("the wanted position was not reached")


@pytest.mark.slow  # 40-60 s on 2 shared cores: every state, 2 sizes x 5 languages
def test_every_screen_and_table_state_draws_whole_lines(
    app: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    a = app
    w = Watch(monkeypatch)
    found: dict[str, list[str]] = {}

    shots = Path(os.environ.get("KOIKOI_SHOTS", tmp_path))  # where a person looks at them
    shots.mkdir(parents=True, exist_ok=True)

    def check(name: str, remake: Callable[[], None] | None = None) -> None:
        sweep(a, w, name, shots, found, remake)

    def ask_again(t: TableScene, make: Callable[[], Any]) -> Callable[[], None]:
        """Replace the question open over ``t`` with the same question asked now."""

        def again() -> None:
            assert t.prompt is a.stack.top
            a.stack.pop()
            prompt = a.stack.push(make())
            if prompt.reveal is not None:
                prompt.reveal.finish()  # shown whole, as after its staged reveal

        return again

    # the screens off the table, each opened in the language of the moment (as a player opens
    # them: the language is changed on the settings screen, which rewords itself)
    def opened(name: str, make: Callable[[], Any] | None = None) -> Callable[[], None]:
        def open_() -> None:
            a.stack.reset(scenes.create("title", a))
            if name != "title":
                a.stack.push(make() if make is not None else scenes.create(name, a))

        return open_

    for name in ("title", "new-game", "settings", "rules", "credits", "ledger", "tutorial"):
        check(name, opened(name))
    nintendo = engine.PRESETS["nintendo"]
    check(
        "month-reference",
        opened("month-reference", lambda: a.router.build(screens.MonthReference(rules=nintendo))),
    )
    check(
        "yaku-reference",
        opened("yaku-reference", lambda: a.router.build(screens.YakuReference(rules=nintendo))),
    )

    # the new-game screen with rules changed in the full list: its description of the changes
    def custom() -> None:
        opened("new-game")()
        ng = a.stack.top
        for field, value in (("rounds", 3), ("final_tie", "extra_round"), ("koikoi_limit", None)):
            ng.set_rule(field, value)
        ng.set_rule("seven_plus_double", False)

    check("new-game-custom", custom)

    # practice off: the first dealer, then the table mid-round
    t = table(a, ("human", "intermediate"), 2)
    c = t.controller
    first = c.first
    check(
        "table-first-dealer", ask_again(t, lambda: prompts.first_dealer_prompt(a.words, t, first))
    )
    to_play(a, t, lambda: len(c.state.moves) >= 6 and c.my_turn())
    check("table")
    t.log_back = 10**6  # the move log scrolled to its top (drawing clamps it; issue 43)
    check("table-log-scrolled")
    t.log_back = 0
    a.stack.push(PauseScene(a, table=t))
    check("pause")
    pause = a.stack.top
    for size in SIZES:  # and every line on it reads over the dimmed table (WCAG AA)
        a.on_resize(size)
        for lang in LANGS:
            a.prefs.speak(lang)
            lines = text_contrast(
                a.screen, lambda: t.draw(a.screen), lambda: pause.draw(a.screen), monkeypatch
            )
            low = [f"contrast {r:.2f}: {text!r}" for text, r in lines if r < AA]
            if low:
                found[f"pause {size[0]}x{size[1]} {lang}"] = low
    a.prefs.speak("en")
    a.on_resize(SIZES[0])
    a.stack.top.concede()  # the menu closes and the table asks first
    assert a.stack.top.key == ("concede",)
    check("table-concede", ask_again(t, lambda: prompts.concede_prompt(a.words, t)))

    # practice on, a long name, a suggestion and a refused move's reason, then koi-koi called
    t = table(a, ("human", "intermediate"), 5, practice=True, names=(LONG_NAME, ""))
    c = t.controller
    to_play(a, t, lambda: len(c.state.moves) >= 4 and c.my_turn())
    c.suggest()
    check("table-practice-suggestion")
    c.apply(engine.Action.discard(sorted(c.state.hand(c.viewer))[0]))  # refused or placed
    check("table-practice-message")
    to_play(a, t, lambda: sum(c.state.calls) > 0 and c.my_turn(), limit=3000)
    check("table-practice-koikoi")

    # a question open: stop or koi-koi
    t = table(a, ("human", "beginner"), 11)
    c = t.controller
    to_play(
        a,
        t,
        lambda: c.state.phase == "decide" and c.is_human(c.state.to_move) and not c.busy,
        limit=3000,
    )
    assert pump(t, lambda: t.prompt is not None)
    key, seat = t.prompt.key, c.state.to_move
    check("table-decide", ask_again(t, lambda: prompts.decide_prompt(a.words, t, seat, key)))

    # a choice pending on the table: the drawn card matches two field cards (both lit)
    t = table(a, ("human", "beginner"), 12)  # a seed with one in its first round
    c = t.controller
    to_play(
        a,
        t,
        lambda: c.my_turn() and c.state.phase == "draw" and bool(c.state.pending_draw),
        limit=6000,
    )
    assert pump(t, lambda: c.lifted is not None)
    check("table-draw-choice")

    # hot seat: the curtain, then the board for the second player
    t = table(a, ("human", "human"), 4)
    c = t.controller
    t.prompt.widgets[-1].activate()
    assert pump(t, lambda: t.prompt is not None or c.my_turn())
    c.apply(c.state.legal_actions()[0])
    t.run_cues()
    assert pump(t, lambda: t.prompt is not None and t.prompt.key[0] == "curtain")
    seat = t.prompt.key[1]
    check("table-hot-seat-curtain", ask_again(t, lambda: prompts.curtain_prompt(a.words, t, seat)))

    # the end of a round and of a match
    for end in ("round-summary", "match-result"):
        a.stack.reset(scenes.create("title", a))
        a.stack.push(
            a.router.build(
                screens.Table(autoplay=True, seed=4, preset="nintendo", fast_forward=end)
            )
        )
        assert a.stack.top.name == end
        check(end)

    report = "\n".join(f"{where}:\n  " + "\n  ".join(bad) for where, bad in found.items())
    assert not found, f"{len(found)} frames with cut or overlapping text:\n{report}"


def test_the_watch_sees_a_cut_and_an_overlap(monkeypatch: Any) -> None:
    """The checks are real: a line cut with an ellipsis and two lines on each other."""
    pygame.font.init()
    w = Watch(monkeypatch)
    surf = pygame.Surface((400, 200))
    gfx.blit_text(surf, "A long line that cannot fit", 20, (10, 10), max_width=40)
    assert w.cuts and w.cuts[0][0] == "A long line that cannot fit"
    assert any(p.startswith("cut:") for p in problems(w, (400, 200)))
    w.clear()
    gfx.blit_text(surf, "First", 20, (10, 10))
    gfx.blit_text(surf, "Second", 20, (14, 14))
    assert any("overlaps" in p for p in problems(w, (400, 200)))


def test_pile_captions_are_whole_for_every_yaku(monkeypatch: Any) -> None:
    """Each capture pile's caption names the yaku it is closest to ("Rainy Four Brights 3/4",
    "Sake under the cherry blossoms — made!"): drawn for every yaku of every preset, made and
    nearly made, over both players' piles, at both sizes in every language, none is cut."""
    from koikoi_desktop.scenes.table import view as tv
    from koikoi_desktop.ui import layout, tracker
    from koikoi_desktop.ui.cards import kind_of
    from koikoi_desktop.words.names import kind_name

    pygame.font.init()
    w = Watch(monkeypatch)
    found: list[str] = []
    for size in SIZES:
        lay = layout.compute(size, 1.0)
        surf = pygame.Surface(size)
        for lang in LANGS:
            words = Words(lang)
            for rules in engine.PRESETS.values():
                for row in tracker.rows(set(), set(), rules):
                    kinds = [kind_of(c) for c in row.cards]
                    g = max(tv.GROUP_KEYS, key=lambda k: kinds.count(k))
                    for near in (
                        tv.Near(row.key, row.need, row.need, True),
                        tv.Near(row.key, row.need - 1, row.need, False),
                    ):
                        for rect in (lay.my_caps[g], lay.opp_caps[g]):
                            w.clear()
                            name = kind_name(words, g, plural=True)
                            tv._group_caption(words, surf, lay, rect, name, 10, near)
                            found += [f"{size} {lang}: {c[0]!r}" for c in w.cuts]
    assert not found, "\n".join(sorted(set(found)))
