"""The application: command line, window, scene stack and the frame loop.

This is the only module that sets SDL defaults, initialises pygame, creates the window and owns
the loop. ``main(argv)`` parses the command line (a bad value prints one line on stderr and
returns 2), runs the app and returns the exit status. A crash writes a report to the data
directory and prints one line saying where.

Decisions:

* Only ``pygame.display`` and ``pygame.font`` are initialised (not the mixer): the game has no
  sound yet and an audio device that is missing must never stop the window from opening.
* ``--autoplay`` and benchmark runs use a fixed simulated time step of 1/60 s per frame with no
  frame cap: the match runs as fast as the machine draws, every frame still goes through the real
  scenes, and a run is reproducible for a seed. Interactive play is capped at 60 fps.
* A scripted run (``--frames``, ``--screenshot`` or ``--autoplay``) on Linux without a display
  uses SDL's dummy video driver, so ``python -m koikoi_desktop --frames 60 --screenshot x.png``
  works on a headless machine.
* ``--autoplay`` quits by itself a few (simulated) seconds after the match result is shown.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import sys
import time
import traceback
from pathlib import Path
from typing import Any

MIN_SIZE = (1024, 640)
DEFAULT_SIZE = (1280, 800)
FPS = 60
LANG_CODES = ("en", "uk", "ru", "sk", "ja")
ICON_FILE = "icon-64.png"  # under assets/ui/, copied from packaging/icons/


class UsageError(Exception):
    """A bad command-line value (reported as one line, exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise UsageError(message)


def _nonneg_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def _pos_int(text: str) -> int:
    value = _nonneg_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800, got {text!r}")
    w, h = int(parts[0]), int(parts[1])
    if w < MIN_SIZE[0] or h < MIN_SIZE[1]:
        raise argparse.ArgumentTypeError(
            f"{w}x{h} is smaller than the minimum window size {MIN_SIZE[0]}x{MIN_SIZE[1]}"
        )
    if w > 10000 or h > 10000:
        raise argparse.ArgumentTypeError(f"{w}x{h} is larger than 10000x10000")
    return (w, h)


def build_parser() -> argparse.ArgumentParser:
    from koikoi_desktop.scenes import CLI_SCENES

    p = _Parser(prog="koikoi-desktop", description="Koi-Koi Desktop: hanafuda for two.")
    p.add_argument(
        "--seed", type=_nonneg_int, help="random seed for the match (reproducible deals)"
    )
    p.add_argument(
        "--autoplay",
        action="store_true",
        help="computer vs computer through the real scenes, starting a match at once",
    )
    p.add_argument("--frames", type=_pos_int, help="quit after N frames (exit status 0)")
    p.add_argument(
        "--screenshot", metavar="FILE", help="write the last drawn frame to FILE on exit"
    )
    p.add_argument("--scene", metavar="NAME", help=f"start on a screen: {', '.join(CLI_SCENES)}")
    p.add_argument("--size", type=_size, metavar="WxH", help="window size (minimum 1024x640)")
    p.add_argument("--data-dir", metavar="DIR", help="where settings, ledger and autosave live")
    p.add_argument("--lang", metavar="CODE", help=f"language: {', '.join(LANG_CODES)}")
    p.add_argument("--render-deck", metavar="FILE", help="write a sheet of all 48 cards and exit")
    p.add_argument("--speed", choices=("off", "fast", "normal"), help="animation speed")
    p.add_argument("--preset", metavar="NAME", help="rule preset for --autoplay / --scene table")
    return p


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Parse and validate; raises UsageError with a one-line message."""
    from koikoi_desktop.scenes import CLI_SCENES

    args = build_parser().parse_args(argv)
    if args.scene is not None and args.scene not in CLI_SCENES:
        raise UsageError(f"unknown scene {args.scene!r} (choose from {', '.join(CLI_SCENES)})")
    if args.lang is not None and args.lang not in LANG_CODES:
        raise UsageError(f"unknown language {args.lang!r} (choose from {', '.join(LANG_CODES)})")
    for value, what in ((args.screenshot, "screenshot"), (args.render_deck, "deck sheet")):
        if value is None:
            continue
        target = Path(value).expanduser().resolve()
        if not target.parent.is_dir():
            raise UsageError(f"cannot write {what}: folder {target.parent} does not exist")
        if target.is_dir():
            raise UsageError(f"cannot write {what}: {target} is a folder")
        if not os.access(target.parent, os.W_OK):
            raise UsageError(f"cannot write {what}: folder {target.parent} is not writable")
    if args.data_dir is not None:
        d = Path(args.data_dir).expanduser()
        if d.exists() and not d.is_dir():
            raise UsageError(f"--data-dir {d} exists and is not a folder")
    if args.preset is not None:
        try:
            from koikoi_desktop.engine import PRESETS

            names = sorted(PRESETS)
        except ImportError:
            names = ["nintendo", "seed-000", "seed-001", "seed-003"]
        if args.preset not in names:
            raise UsageError(f"unknown preset {args.preset!r} (choose from {', '.join(names)})")
    return args


def _data_dir(args: argparse.Namespace | None, storage: Any = None) -> Path:
    """Where crash reports go: the storage's folder, --data-dir, KOIKOI_DATA_DIR or the user dir."""
    for cand in (getattr(storage, "data_dir", None), getattr(storage, "root", None)):
        if cand:
            return Path(cand)
    if args is not None and getattr(args, "data_dir", None):
        return Path(args.data_dir).expanduser()
    if os.environ.get("KOIKOI_DATA_DIR"):
        return Path(os.environ["KOIKOI_DATA_DIR"])
    import platformdirs

    return Path(platformdirs.user_data_dir("koikoi-desktop", appauthor=False))


def write_crash_report(
    exc: BaseException,
    args: argparse.Namespace | None,
    storage: Any = None,
    *,
    record: str | None = None,
) -> Path:
    """Write the traceback, environment and the match's text ``record`` (when a match was on
    the table) to ``crash-<time>.txt`` in the data folder (the temp folder when that refuses);
    returns the path."""
    import tempfile

    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    from koikoi_desktop import __version__

    lines = [
        f"Koi-Koi Desktop {__version__} crash report, {stamp}",
        f"python {platform.python_version()} on {platform.platform()}",
        f"argv: {sys.argv!r}",
        "",
        "".join(traceback.format_exception(exc)),
    ]
    if record:
        lines += ["match record (replay with koikoi_desktop.engine.replay_match):", record]
    text = "\n".join(lines)
    tmp = Path(tempfile.gettempdir())
    places = [(_data_dir(args, storage), f"crash-{stamp}.txt"), (tmp, f"koikoi-crash-{stamp}.txt")]
    for folder, name in places:
        path = folder / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="backslashreplace")
            return path
        except OSError:
            continue
    return path  # nowhere to write; the caller still names where it tried


def _crash_box(args: argparse.Namespace, path: Path) -> None:
    """Tell a player who started the game from a menu (no terminal) where the report is.

    Only for an interactive run with a real video driver: a scripted run (``--frames``,
    ``--screenshot``, ``--autoplay``) must never wait for a click. English only: the crash may
    have come from the translations themselves.
    """
    if args.frames or args.screenshot or args.autoplay:
        return
    if os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
        return
    try:
        import pygame

        pygame.display.message_box(
            "Koi-Koi Desktop",
            f"The game stopped because of an error.\n\nA report was written to:\n{path}",
            message_type="error",
        )
    except Exception:
        pass  # no display at all: the line on stderr is all we can do


def _match_record(app: Any) -> str | None:
    """The text record of the match on the table, if any (for the crash report)."""
    from koikoi_desktop.engine import match_record

    try:
        table = app.stack.find("table")
        return match_record(table.match) if table is not None and table.match else None
    except Exception:
        return None


def _sdl_defaults(args: argparse.Namespace) -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    scripted = bool(args.frames or args.screenshot or args.autoplay)
    headless = (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    )
    if scripted and headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def main(argv: list[str] | None = None) -> int:
    """Run the game; returns the exit status (0 ok, 1 crash, 2 bad command line)."""
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen build's Expert worker (no-op otherwise)
    try:
        args = parse_args(argv)
    except UsageError as exc:
        print(f"koikoi-desktop: error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    app: Any = None
    try:
        if args.render_deck:
            return _render_deck(args)
        app = App(args)
        return int(app.run())
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        path = write_crash_report(
            exc, args, getattr(app, "storage", None), record=_match_record(app)
        )
        what = " ".join(str(exc).split())[:200]  # one line, whatever the message holds
        print(
            f"koikoi-desktop: crashed ({type(exc).__name__}: {what}); report written to {path}",
            file=sys.stderr,
        )
        _crash_box(args, path)
        return 1


def _render_deck(args: argparse.Namespace) -> int:
    _sdl_defaults(args)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.display.init()
    pygame.display.set_mode((1, 1))
    from koikoi_desktop.deck_sheet import render_deck_sheet

    render_deck_sheet(Path(args.render_deck))
    pygame.display.quit()
    print(f"deck sheet written to {args.render_deck}")
    return 0


class App:
    """The running game: window, services (storage, sprites, settings) and the scene stack.

    Scenes reach everything through this object: ``stack``, ``size``, ``storage``, ``sprites``,
    ``ui_scale``, ``anim_speed``, ``reduced_motion``, ``autoplay``, ``seed``, ``quit()``.
    """

    def __init__(
        self, args: argparse.Namespace | None = None, *, record_frames: bool = False
    ) -> None:
        from koikoi_desktop.scenes import SceneStack

        self.args = args if args is not None else parse_args([])
        self.stack = SceneStack()
        self.running = False
        self.size: tuple[int, int] = self.args.size or DEFAULT_SIZE
        self.autoplay: bool = bool(self.args.autoplay)
        self.seed: int | None = self.args.seed
        self.fixed_dt: float | None = 1 / FPS if (self.autoplay or record_frames) else None
        self.record_frames = record_frames
        self.frame_ms: list[float] = []
        self.frame = 0
        self.clock_s = 0.0  # simulated seconds (autoplay) or real seconds since start
        self.storage: Any = None
        self._settings: Any = None
        self.sprites: Any = None
        self.ui_scale = 1.0
        self.anim_speed = self.args.speed or "normal"
        self.reduced_motion = False
        self.click_mode = False
        self.warnings: list[str] = []
        self.screen: Any = None
        self.first_frame_at: float | None = None
        self._window: Any = None
        self._fullscreen = False
        self._storage_closed = False
        self._windowed_size: tuple[int, int] = self.size
        self.icon_set = False

    # ----------------------------------------------------------------- services
    def open_storage(self) -> None:
        import importlib

        try:
            Storage = getattr(importlib.import_module("koikoi_desktop.storage"), "Storage", None)
        except ImportError:
            return
        if Storage is None or not hasattr(Storage, "open"):
            return
        data_dir = Path(self.args.data_dir).expanduser() if self.args.data_dir else None
        self.storage = Storage.open(data_dir)
        self.warnings.extend(getattr(self.storage, "warnings", []) or [])
        s = self.settings
        if s is not None:
            self.ui_scale = float(getattr(s, "ui_scale", 1.0) or 1.0)
            if self.args.speed is None:
                self.anim_speed = str(getattr(s, "animation_speed", self.anim_speed) or "normal")
            self.reduced_motion = bool(getattr(s, "reduced_motion", False))
            self.click_mode = bool(getattr(s, "click_to_move", False))

    @property
    def settings(self) -> Any:
        """The live settings model: always ``storage.settings`` when storage is open.

        Decision: never keep a copy of the storage's object. A save (or a reload after a damaged
        file) may put a new object there, and a copy would go stale, so a later change made
        through the copy would be lost. Without storage (tests, a broken data folder) the value
        assigned here is used.
        """
        store = self.storage
        live = getattr(store, "settings", None) if store is not None else None
        return live if live is not None else self._settings

    @settings.setter
    def settings(self, value: Any) -> None:
        self._settings = value

    def setting(self, name: str, default: Any = None) -> Any:
        s = self.settings
        return getattr(s, name, default) if s is not None else default

    def save_setting(self, name: str, value: Any) -> None:
        """Change one setting and persist it (ignored when storage is unavailable)."""
        s = self.settings
        if s is None or not hasattr(s, name):
            return
        try:
            setattr(s, name, value)
            if self.storage is not None:
                self.storage.save_settings()
        except Exception as exc:  # a read-only settings model or a full disk: say so, keep going
            self.warnings.append(str(exc))

    def open_sprites(self) -> None:
        try:
            from koikoi_desktop.assets import CardSprites
        except ImportError:
            return
        try:
            self.sprites = CardSprites(max_sizes=10)  # table, captures, chips, prompts, summary
        except Exception as exc:
            self.warnings.append(f"card art unavailable: {exc}")

    def has_autosave(self) -> bool:
        if self.storage is None:
            return False
        try:
            return self.storage.read_autosave() is not None
        except Exception:
            return False

    def continue_match(self) -> bool:
        """Resume the autosaved match on the table; False when there is none."""
        if not self.has_autosave():
            return False
        from koikoi_desktop import scenes

        data = self.storage.read_autosave()
        self.stack.push(scenes.create("table", self, autosave=data))
        return True

    # ----------------------------------------------------------------- window
    def _set_language(self) -> None:
        from koikoi_desktop.ui import gfx

        code = self.args.lang or self.setting("language", None)
        if code:
            try:
                gfx.set_language(str(code))
            except Exception as exc:
                self.warnings.append(f"language {code}: {exc}")

    def open_window(self) -> None:
        import warnings

        import pygame

        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        self.set_window_icon()
        flags = pygame.RESIZABLE
        self.screen = pygame.display.set_mode(self.size, flags)
        pygame.display.set_caption("Koi-Koi")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                self._window = pygame.Window.from_display_module()
                self._window.minimum_size = MIN_SIZE
            except Exception:
                self._window = None
        scripted = bool(self.args.frames or self.args.screenshot or self.autoplay or self.args.size)
        if self.setting("fullscreen", False) and not scripted:
            self.toggle_fullscreen()  # the saved choice (a --size or scripted run stays windowed)

    def set_window_icon(self) -> None:
        """The game's icon on the window and task bar (set before ``set_mode``, as SDL wants on
        some platforms). A missing or unreadable file only leaves the default icon."""
        import pygame

        try:
            from koikoi_desktop.assets import asset_root

            icon = pygame.image.load(str(asset_root() / "ui" / ICON_FILE))
            pygame.display.set_icon(icon)
            self.icon_set = True
        except Exception as exc:
            self.warnings.append(f"window icon: {exc}")

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window has a new size: recompute every layout and re-rasterise the cards.

        Windowed, a size under the minimum is raised to it; fullscreen takes the screen as it
        is (``set_mode`` here would leave fullscreen)."""
        import pygame

        if not self._fullscreen:
            size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        self.screen = pygame.display.get_surface()
        if self.screen is not None and self.screen.get_size() != size and not self._fullscreen:
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        if self.screen is not None:
            size = self.screen.get_size()
        self.size = size
        from koikoi_desktop.ui import cards

        cards.clear_cache()
        if self.sprites is not None and hasattr(self.sprites, "clear"):
            self.sprites.clear()
        self.stack.resize(size)

    @property
    def fullscreen(self) -> bool:
        return self._fullscreen

    def toggle_fullscreen(self) -> None:
        """F11 (and the settings screen): desktop fullscreen and back to the window's size.

        Decision: ``Window.set_fullscreen(desktop=True)`` / ``set_windowed()`` rather than
        ``pygame.display.toggle_fullscreen``, which several video drivers refuse ("not
        supported"); without a Window object, ``set_mode`` does it. The windowed size is kept
        and restored. The choice is saved in the settings (``fullscreen``)."""
        import pygame

        going_full = not self._fullscreen
        try:
            if going_full:
                self._windowed_size = self.size
            if self._window is not None:
                if going_full:
                    self._window.set_fullscreen(desktop=True)
                else:
                    self._window.set_windowed()
            elif going_full:
                pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)
        except pygame.error as exc:
            self.warnings.append(f"fullscreen: {exc}")
            return
        self._fullscreen = going_full
        surf = pygame.display.get_surface()
        if not going_full and surf is not None and surf.get_size() != self._windowed_size:
            surf = pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)
        if surf is not None:
            self.on_resize(surf.get_size())
        if bool(self.setting("fullscreen", False)) != going_full:
            self.save_setting("fullscreen", going_full)

    def quit(self) -> None:
        self.running = False

    def request_quit(self) -> None:
        """Window closed: a match in progress asks first (and keeps the autosave)."""
        if self.autoplay or self.args.frames:
            self.quit()
            return
        table = self.stack.find("table")
        if table is not None and hasattr(table, "ask_quit") and table.ask_quit():
            return
        self.quit()

    # ----------------------------------------------------------------- scenes
    def first_scene(self) -> None:
        from koikoi_desktop import scenes

        name = self.args.scene or ("table" if self.autoplay else "title")
        if name == "title":
            self.stack.push(scenes.create("title", self))
            return
        self.stack.push(scenes.create("title", self))
        if name in ("table", "round-summary", "match-result"):
            self.stack.push(
                scenes.create(
                    "table",
                    self,
                    autoplay=self.autoplay,
                    seed=self.seed,
                    preset=self.args.preset,
                    fast_forward=None if name == "table" else name,
                )
            )
        else:
            self.stack.push(scenes.create(name, self))

    # ----------------------------------------------------------------- loop
    def run(self) -> int:
        start = time.perf_counter()
        sdl_defaults(self.args)
        self.open_storage()
        self._set_language()
        self.open_window()
        self.open_sprites()
        self.first_scene()
        status = self.loop(start)
        self.shutdown()
        return status

    def loop(self, start: float | None = None) -> int:
        import pygame

        clock = pygame.time.Clock()
        self.running = True
        max_frames = self.args.frames
        crash_in = os.environ.get("KOIKOI_TEST_CRASH", "")
        while self.running and self.stack.top is not None:
            t0 = time.perf_counter()
            if self.fixed_dt is not None:
                clock.tick()
                dt = self.fixed_dt
            else:
                dt = min(0.1, clock.tick(FPS) / 1000.0)
            self.clock_s += dt
            for event in coalesce_resizes(pygame.event.get()):
                self.dispatch(event)
            if not self.running:
                break
            if crash_in:
                _test_crash(crash_in, self)
            self.stack.update(dt)
            if self.stack.top is None:
                break
            self.stack.draw(self.screen)
            pygame.display.flip()
            self.frame += 1
            if self.first_frame_at is None and start is not None:
                self.first_frame_at = time.perf_counter() - start
            if self.record_frames:
                self.frame_ms.append((time.perf_counter() - t0) * 1000.0)
            if max_frames is not None and self.frame >= max_frames:
                break
        return 0

    def dispatch(self, event: Any) -> None:
        import pygame

        if event.type == pygame.QUIT:
            self.request_quit()
        elif event.type == pygame.VIDEORESIZE:
            self.on_resize((event.w, event.h))
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
        else:
            self.stack.handle(event)

    def shutdown(self) -> None:
        import pygame

        if self.args.screenshot and self.screen is not None:
            pygame.image.save(self.screen, str(Path(self.args.screenshot).expanduser()))
        while self.stack.top is not None:
            self.stack.pop()
        self.close_storage()
        pygame.display.quit()

    def close_storage(self) -> None:
        """Write what is pending (a background autosave, settings) and release the ledger lock."""
        store = self.storage
        if store is not None and hasattr(store, "close") and not self._storage_closed:
            self._storage_closed = True
            try:
                store.close()
            except Exception as exc:  # a full disk at exit: nothing more to do than say so
                print(f"koikoi-desktop: could not close the data folder: {exc}", file=sys.stderr)


def coalesce_resizes(events: list[Any]) -> list[Any]:
    """Keep only the last ``VIDEORESIZE`` of a frame's events (the others in their places).

    Dragging a window edge queues many sizes per frame, and each resize re-lays out the scenes
    and re-rasterises the card art (about a quarter of a second on the table): only the final
    size matters.
    """
    import pygame

    last = max((i for i, e in enumerate(events) if e.type == pygame.VIDEORESIZE), default=-1)
    return [e for i, e in enumerate(events) if e.type != pygame.VIDEORESIZE or i == last]


def _test_crash(spec: str, app: App) -> None:
    """Test hook: ``KOIKOI_TEST_CRASH=SCENE[:FRAME]`` ("1" = the title) raises when that scene
    is on top (from frame FRAME on), to prove the crash report path end to end."""
    name, _, frame = spec.partition(":")
    name = "title" if name == "1" else name
    top = app.stack.top
    if top is not None and top.name == name and app.frame >= int(frame or 0):
        raise RuntimeError(f"KOIKOI_TEST_CRASH={spec}: a forced crash in the {name} scene")


def sdl_defaults(args: argparse.Namespace) -> None:
    """Set SDL environment defaults before pygame opens a display."""
    _sdl_defaults(args)
