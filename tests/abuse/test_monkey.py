"""Monkey test: thousands of random events on every registered scene, through the real app.

Each scene is opened the way ``--scene NAME`` opens it (``App.first_scene``; the pause menu over a
table), then a seeded random stream of events goes through the same path as ``App.loop``: posted to
SDL's queue, read back with ``pygame.event.get()`` (a frame's resizes coalesced as the app
does), fed to ``App.dispatch``, then
``stack.update(1/60)``, ``stack.draw`` and ``display.flip``. The stream mixes mouse moves, presses,
releases, drags, the wheel, keys (F1-F12, Esc, Enter, arrows, letters, digits, Tab...), text input,
window resizes from below the minimum up to 2560x1440 (``VIDEORESIZE`` + ``WINDOWRESIZED``), focus
loss, minimise/restore, and window-close requests, which the monkey answers "no" (Esc on the
table's "quit?" prompt; elsewhere the app's quit is undone, as if the player changed their mind).

Checked after every frame: no exception; every table's engine state holds exactly the 48 cards
(hands + field + captures + pile + drawn card, no card twice); at rest (no animation, no drag)
the table's *drawn* board also accounts for all 48; no illegal action from a computer seat ever
reaches the engine, and an illegal action from the player changes nothing (the table catches it
and shows the engine's reason); the scene stack stays small.

Replay: the run's base seed is printed (and is in every failure message). Decisions:

* The base seed is fixed (CI runs the same streams every time, so a red CI is a real, replayable
  bug and never luck); ``KOIKOI_MONKEY_SEED=random`` draws a fresh one for exploratory runs,
  which is how new bugs are hunted. Replay a failure with
  ``KOIKOI_MONKEY_SEED=<seed> python -m pytest tests/abuse/test_monkey.py -k <scene> -s``.
* Every bound is a count, never a clock: ``KOIKOI_MONKEY_EVENTS`` events per scene (default
  400; a table scene re-rasterises the deck at every new window size, ~0.6 s each) and, at the
  table, a number of moves and frames. A loaded machine makes the run slower, never shorter:
  the same events reach the same frames on every machine (a time limit used to let a busy
  machine stop the table's monkey after a dozen frames). The stream is the same for a seed
  whatever the count, so a replay with a higher count reaches any failure again.
  ``KOIKOI_MONKEY_EVENTS=20000`` is a long run.
* Determinism for replays: the app's computer opponents think through an injected
  ``InlineExecutor`` (on the frame that asks), so a move lands on the same frame in every
  replay, whatever the machine's load. The global ``random`` (used for a new match with no seed)
  is seeded from the run seed too.
"""

from __future__ import annotations

import collections
import os
import random
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as app_mod
from koikoi_desktop import engine, scenes
from koikoi_desktop.ai import InlineExecutor
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.table.scene import TableScene

_SEED_ENV = os.environ.get("KOIKOI_MONKEY_SEED", "")
BASE_SEED = (
    random.SystemRandom().randrange(10**9) if _SEED_ENV == "random" else int(_SEED_ENV or 20261122)
)
EVENTS = int(os.environ.get("KOIKOI_MONKEY_EVENTS") or 400)
MAX_STACK = 12
HOME_AFTER = 40  # frames away from the scene under test before the monkey is brought back
SIZES_BELOW_MIN = [(640, 480), (1000, 600), (300, 200)]

KEYS = (
    [getattr(pygame, f"K_F{i}") for i in range(1, 13)]
    + [
        pygame.K_ESCAPE,
        pygame.K_RETURN,
        pygame.K_KP_ENTER,
        pygame.K_SPACE,
        pygame.K_TAB,
        pygame.K_BACKSPACE,
        pygame.K_DELETE,
        pygame.K_HOME,
        pygame.K_END,
        pygame.K_PAGEUP,
        pygame.K_PAGEDOWN,
        pygame.K_LSHIFT,
        pygame.K_LCTRL,
        pygame.K_LALT,
    ]
    + [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN] * 4
    + [pygame.K_RETURN, pygame.K_ESCAPE] * 3
    + list(range(pygame.K_a, pygame.K_z + 1))
    + list(range(pygame.K_0, pygame.K_9 + 1))
)
PLAY_KEYS = [pygame.K_RETURN, pygame.K_RETURN, pygame.K_LEFT, pygame.K_RIGHT]  # keyboard play
MODS = [0] * 8 + [pygame.KMOD_SHIFT, pygame.KMOD_CTRL, pygame.KMOD_ALT, pygame.KMOD_GUI]
TEXTS = ["a", "Z", "ё", "Ї", "こ", "🎴", " ", "\t", "1", "%s{x}", "\u200b"]


print(
    f"\nmonkey base seed {BASE_SEED} (replay: KOIKOI_MONKEY_SEED={BASE_SEED}), "
    f"{EVENTS} events per scene"
)


def _rects(scene: Any) -> list[pygame.Rect]:
    """Places worth aiming at on ``scene``: its buttons and focusable widgets (a prompt's
    buttons too), and on the table its card sprites, the field and the movable cards."""
    out: list[pygame.Rect] = []
    groups = [
        getattr(scene, "buttons", None),
        getattr(getattr(scene, "focus", None), "widgets", None),
    ]
    for group in groups:
        for w in group or ():
            r = getattr(w, "rect", None)
            if isinstance(r, pygame.Rect):
                out.append(r)
    if isinstance(scene, TableScene) and scene.match is not None:
        sprites = scene.director.sprites
        out += [pygame.Rect(*map(round, sp.box)) for sp in sprites.values()]
        out.append(scene.lay.field_band)
        # the cards the player can move now, and the field: aimed at more often
        wanted = [*scene.controller.pickable(), *scene.director.board.field_cards()]
        out += [pygame.Rect(*map(round, sprites[c].box)) for c in wanted if c in sprites] * 3
    return out


class Monkey:
    """Random events, aimed half the time at something on screen."""

    def __init__(self, app: Any, rng: random.Random) -> None:
        self.app = app
        self.rng = rng
        self.held: set[int] = set()
        self.pos = (10, 10)
        self.minimised = False
        self.log: collections.deque[str] = collections.deque(maxlen=40)
        self.stay = False  # True: no Esc, window close or right-click (keeps the table on top)

    def point(self) -> tuple[int, int]:
        r = self.rng
        w, h = self.app.size
        top = self.app.stack.top
        rects = _rects(top) if top is not None else []
        if rects and r.random() < 0.6:
            rect = r.choice(rects)
            return (
                r.randint(rect.left, max(rect.left, rect.right - 1)),
                r.randint(rect.top, max(rect.top, rect.bottom - 1)),
            )
        if r.random() < 0.05:  # off the window edge, as a drag leaving the window does
            return (r.randint(-50, w + 50), r.randint(-50, h + 50))
        return (r.randrange(w), r.randrange(h))

    def post(self, type_: int, **attrs: Any) -> None:
        shown = dict(attrs)
        if "key" in shown:
            shown["key"] = pygame.key.name(shown["key"]) or shown["key"]
        self.log.append(f"{pygame.event.event_name(type_)} {shown}")
        pygame.event.post(pygame.event.Event(type_, **attrs))

    def motion(self, to: tuple[int, int]) -> None:
        rel = (to[0] - self.pos[0], to[1] - self.pos[1])
        buttons = tuple(int(b in self.held) for b in (1, 2, 3))
        self.post(pygame.MOUSEMOTION, pos=to, rel=rel, buttons=buttons, touch=False)
        self.pos = to

    def button(self, down: bool, b: int, pos: tuple[int, int]) -> None:
        self.motion(pos)
        if down:
            self.held.add(b)
        else:
            self.held.discard(b)
        self.post(
            pygame.MOUSEBUTTONDOWN if down else pygame.MOUSEBUTTONUP, pos=pos, button=b, touch=False
        )

    def key(self, k: int) -> None:
        if self.stay and k == pygame.K_ESCAPE:
            k = pygame.K_RETURN
        mod = self.rng.choice(MODS)
        uni = chr(k) if 32 <= k < 127 else ""
        if uni and mod & pygame.KMOD_SHIFT:
            uni = uni.upper()
        self.post(pygame.KEYDOWN, key=k, mod=mod, unicode=uni, scancode=0)
        if uni and self.rng.random() < 0.5:
            self.post(pygame.TEXTINPUT, text=uni)
        self.post(pygame.KEYUP, key=k, mod=mod, unicode=uni, scancode=0)

    def resize(self) -> None:
        r = self.rng
        if r.random() < 0.1:
            w, h = r.choice(SIZES_BELOW_MIN)
        elif r.random() < 0.3:
            w, h = r.choice(
                [(1024, 640), (2560, 1440), (1280, 800), (1920, 1080), (1024, 1440), (2560, 640)]
            )
        else:
            w, h = r.randint(1024, 2560), r.randint(640, 1440)
        self.post(pygame.VIDEORESIZE, w=w, h=h, size=(w, h))
        self.post(pygame.WINDOWRESIZED, x=w, y=h)
        self.post(pygame.WINDOWSIZECHANGED, x=w, y=h)

    def one(self) -> int:
        """Post one random thing (a drag is several events); returns whether it was a QUIT."""
        r = self.rng
        x = r.random()
        if x < 0.30:
            self.motion(self.point())
        elif x < 0.42:
            self.button(
                True, r.choice([1, 1, 1, 1, 2] if self.stay else [1, 1, 1, 1, 3, 2]), self.point()
            )
        elif x < 0.54:
            self.button(False, r.choice([1, 1, 1, 1, 3, 2]), self.point())
        elif x < 0.62:  # a drag from something to something
            self.button(True, 1, self.point())
            to = self.point()
            for i in range(1, r.randint(2, 6)):
                t = i / 5
                self.motion(
                    (
                        round(self.pos[0] + (to[0] - self.pos[0]) * t),
                        round(self.pos[1] + (to[1] - self.pos[1]) * t),
                    )
                )
            self.button(False, 1, to)
        elif x < 0.66:
            self.post(
                pygame.MOUSEWHEEL,
                x=0,
                y=r.choice([-3, -1, 1, 1, 3, 12]),
                flipped=False,
                precise_x=0.0,
                precise_y=0.0,
                touch=False,
            )
        elif x < 0.93:
            top = self.app.stack.top
            playing = isinstance(top, TableScene) and top.controller.my_turn()
            self.key(r.choice(PLAY_KEYS if playing and r.random() < 0.6 else KEYS))
        elif x < 0.94:
            self.post(pygame.TEXTINPUT, text=r.choice(TEXTS))
        elif x < 0.955:  # dragging a window edge sends a burst of sizes
            if self.stay and r.random() < 0.8:
                return 0  # a resize costs the table a re-rasterised deck: fewer in long play
            for _ in range(r.choice([1, 1, 2, 4])):
                self.resize()
        elif x < 0.963:
            self.post(pygame.WINDOWFOCUSLOST)
            self.post(pygame.ACTIVEEVENT, gain=0, state=1)
            self.post(pygame.WINDOWLEAVE)
        elif x < 0.971:
            self.post(pygame.WINDOWFOCUSGAINED)
            self.post(pygame.ACTIVEEVENT, gain=1, state=1)
            self.post(pygame.WINDOWENTER)
        elif x < 0.98:
            if self.minimised:
                self.post(pygame.WINDOWRESTORED)
                self.post(pygame.WINDOWSHOWN)
            else:
                self.post(pygame.WINDOWMINIMIZED)
                self.post(pygame.WINDOWHIDDEN)
            self.minimised = not self.minimised
        elif x < 0.985 and not self.stay:
            self.post(pygame.QUIT)
            return 1
        else:
            self.post(pygame.WINDOWEXPOSED)
        return 0


def check_tables(app: Any, illegal: list[tuple[Any, int | None, str]]) -> None:
    """The 48 cards are all there, in the engine and (at rest) on the drawn board."""
    for sc in app.stack.scenes:
        if not isinstance(sc, TableScene) or sc.match is None:
            continue
        st = sc.match.round
        parts = [
            st.hand(0),
            st.hand(1),
            st.field,
            st.captured(0),
            st.captured(1),
            st.draw_pile,
            (st.pending_draw,) if st.pending_draw else (),
        ]
        cards = [c for part in parts for c in part]
        assert sorted(cards) == list(range(1, 49)), f"engine holds {len(cards)} cards: {parts}"
        d = sc.director
        c = sc.controller
        if not sc.queue.busy and c.grip == "none" and c.after is None and not c.cues and d.sprites:
            b = d.board
            shown = (
                b.hands[0]
                + b.hands[1]
                + b.field_cards()
                + b.caps[0]
                + b.caps[1]
                + ([b.reveal] if b.reveal else [])
                + list(b.stacked)
            )
            assert len(shown) == len(set(shown)), f"a card drawn twice: {sorted(shown)}"
            assert len(shown) + b.pile == 48, f"board shows {len(shown)} + pile {b.pile}"
            # the table never knows a card its viewer may not see (in the round it shows)
            shown_round = c.display[0] if c.display is not None else st
            hidden = set(shown_round.hand(1 - c.viewer)) | set(shown_round.draw_pile)
            if shown_round.outcome is not None and shown_round.outcome.instant:
                hidden -= set(shown_round.hand(shown_round.outcome.winner or 0))
            leak = hidden & set(d.sprites)
            assert not leak, f"hidden cards on the board: {sorted(leak)}"
    for match, seat, text in illegal:
        for sc in app.stack.scenes:
            if isinstance(sc, TableScene) and sc.match is match and seat in sc.controller.opponents:
                raise AssertionError(f"computer seat {seat} sent an illegal action: {text}")


class Illegal(list):  # type: ignore[type-arg]
    """(match, seat, action text) of every refused action; ``applied`` counts the accepted."""

    applied = 0


@pytest.fixture
def patched_engine(monkeypatch: pytest.MonkeyPatch) -> Illegal:
    """Record every illegal action that reaches ``Match.apply`` (and prove it changed nothing)."""
    illegal = Illegal()
    orig_apply = engine.Match.apply

    def apply(self: Any, action: Any, *, events: bool = True) -> Any:
        before = engine.match_record(self)
        seat = self.round.to_move
        try:
            made = orig_apply(self, action, events=events)
            illegal.applied += 1
            return made
        except engine.IllegalAction:
            assert engine.match_record(self) == before, f"illegal {action} changed the match"
            illegal.append((self, seat, str(action)))
            raise

    monkeypatch.setattr(engine.Match, "apply", apply)
    return illegal


TABLE_FAMILY = ("table", "pause", "round-summary", "match-result")


def open_app(tmp_path: Path, name: str, rng: random.Random) -> Any:
    speeds = ["off", "off", "fast"] if name in TABLE_FAMILY else ["off", "fast", "normal"]
    argv = [
        "--data-dir",
        str(tmp_path / "data"),
        "--speed",
        rng.choice(speeds),
        "--lang",
        rng.choice(list(app_mod.LANG_CODES)),
        "--seed",
        str(rng.randrange(10**6)),
    ]
    if name in scenes.CLI_SCENES:
        argv += ["--scene", name]
    args = app_mod.parse_args(argv)
    a = app_mod.App(args)
    a.ai_executor = InlineExecutor()  # the computer decides in the frame that asks: replayable
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    return a


def start(a: Any, name: str) -> None:
    if name in scenes.CLI_SCENES:
        a.first_scene()
        return
    # a scene reached only from another one (the pause menu): open it the way the player does
    a.stack.push(scenes.create("title", a))
    table = a.stack.push(a.router.build(screens.Table(seed=a.seed)))
    if name == "pause":
        table.open_pause()
    else:
        a.stack.push(scenes.create(name, a))


@pytest.mark.parametrize("name", [*scenes.REGISTRY, "round-summary", "match-result"])
def test_monkey(name: str, tmp_path: Path, patched_engine: Illegal) -> None:
    rng = random.Random(f"{BASE_SEED}:{name}")
    random.seed(f"{BASE_SEED}:{name}:global")
    a = open_app(tmp_path, name, rng)
    monkey = Monkey(a, rng)
    frame = posted = quits = refused = away = 0
    seen: set[str] = set()
    try:
        start(a, name)
        a.running = True
        while posted < EVENTS:
            frame += 1
            for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 12, 20])):
                posted += 1
                quits += monkey.one()
            for event in app_mod.coalesce_resizes(pygame.event.get()):
                a.dispatch(event)
                top = a.stack.top
                if event.type == pygame.QUIT and getattr(top, "key", None) == ("quit",):
                    monkey.key(pygame.K_ESCAPE)  # "Do you want to quit?" - no
            if not a.running:  # the player changed their mind
                refused += 1
                a.running = True
            if a.stack.top is None:
                start(a, name)
            a.stack.update(1 / 60)
            if a.stack.top is None:
                start(a, name)
                continue
            a.stack.draw(a.screen)
            pygame.display.flip()
            check_tables(a, patched_engine)
            seen.add(a.stack.top.name)
            away = 0 if name in a.stack.names() else away + 1
            if away > HOME_AFTER:  # wandered off for a while: back to the scene under test
                while a.stack.top is not None:
                    a.stack.pop()
                start(a, name)
            assert len(a.stack) <= MAX_STACK, f"scene stack keeps growing: {a.stack.names()}"
    except BaseException as exc:
        recent = "\n  ".join(monkey.log)
        raise AssertionError(
            f"{type(exc).__name__}: {exc}\n"
            f"monkey failed on scene {name!r} at frame {frame} after {posted} events "
            f"(stack {a.stack.names()}); replay with KOIKOI_MONKEY_SEED={BASE_SEED} "
            f"python -m pytest tests/abuse/test_monkey.py -k {name!r}\n"
            f"last events:\n  {recent}"
        ) from exc
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        pygame.display.quit()
    print(
        f"monkey {name}: seed {BASE_SEED}, {posted} events, {frame} frames, {quits} quit "
        f"requests ({refused} answered no), {patched_engine.applied} moves played, "
        f"{len(patched_engine)} illegal refused; visited {sorted(seen)}"
    )


def test_monkey_plays_matches(tmp_path: Path, patched_engine: Illegal) -> None:
    """A noisy player who stays at the table: every kind of event except leaving (no Esc, no
    window close, no right-click), aimed at the hand and the field, with animations running, for
    whole rounds - the 48 cards are checked after every frame across many real moves."""
    from koikoi_desktop.scenes.match_config import MatchConfig

    rng = random.Random(f"{BASE_SEED}:plays")
    random.seed(f"{BASE_SEED}:plays:global")
    a = open_app(tmp_path, "table", rng)
    a.prefs.set_speed("fast")
    monkey = Monkey(a, rng)
    monkey.stay = True
    want = max(30, EVENTS // 30)  # engine moves to see (human and computer)
    frame = 0
    try:
        a.stack.push(scenes.create("title", a))
        rules = engine.PRESETS[rng.choice(sorted(engine.PRESETS))]
        a.stack.push(
            a.router.build(
                screens.Table(
                    config=MatchConfig(
                        rules,
                        ("human", rng.choice(["beginner", "intermediate"])),
                        rng.randrange(10**6),
                    ),
                )
            )
        )
        a.running = True
        while patched_engine.applied < want and frame < want * 40:
            frame += 1
            for _ in range(rng.choice([0, 1, 2, 3, 5])):
                monkey.one()
            for event in app_mod.coalesce_resizes(pygame.event.get()):
                a.dispatch(event)
            a.running = True
            top = a.stack.top
            if top is None or top.name not in (
                "table",
                "table-prompt",
                "round-summary",
                "match-result",
            ):
                if top is not None and top.name == "title":
                    break  # the match ended and the player went back to the title
                a.stack.pop()  # a screen opened by a stray click: close it
                continue
            a.stack.update(1 / 60)
            if a.stack.top is None:
                break
            a.stack.draw(a.screen)
            pygame.display.flip()
            check_tables(a, patched_engine)
    except BaseException as exc:
        recent = "\n  ".join(monkey.log)
        raise AssertionError(
            f"{type(exc).__name__}: {exc}\nmonkey failed at the table at frame {frame} "
            f"({patched_engine.applied} moves, stack {a.stack.names()}); replay with "
            f"KOIKOI_MONKEY_SEED={BASE_SEED} python -m pytest tests/abuse/test_monkey.py "
            f"-k plays\nlast events:\n  {recent}"
        ) from exc
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        pygame.display.quit()
    print(
        f"monkey at the table: seed {BASE_SEED}, {frame} frames, {patched_engine.applied} "
        f"moves played, {len(patched_engine)} illegal refused"
    )
    assert patched_engine.applied >= 6, "the noisy player never got a game going"


def test_a_burst_of_resizes_is_handled_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dragging a window edge queues many sizes in one frame; the app lays out (and
    re-rasterises the cards) once, at the last size, through its real loop."""
    args = app_mod.parse_args(
        ["--data-dir", str(tmp_path / "d"), "--frames", "1", "--scene", "table", "--speed", "off"]
    )
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.first_scene()
    sizes: list[tuple[int, int]] = []
    real = a.stack.resize
    monkeypatch.setattr(a.stack, "resize", lambda size: (sizes.append(size), real(size)))
    for w, h in ((1100, 700), (1500, 900), (2000, 1200), (1300, 820)):
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=w, h=h, size=(w, h)))
    try:
        a.loop()
        assert sizes == [(1300, 820)]
        assert a.screen.get_size() == (1300, 820)
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        pygame.display.quit()
