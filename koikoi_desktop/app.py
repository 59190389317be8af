"""The application: command line, window, scene stack and the frame loop.

This is the only module that sets SDL defaults, initialises pygame, creates the window and owns
the loop. ``main(argv)`` parses the command line (a bad value prints one line on stderr and
returns 2), runs the app and returns the exit status. A crash writes a report to the data
directory and prints one line saying where.

Decisions:

* The app owns one :class:`~koikoi_desktop.audio.Audio` (``App.audio``), opened after the
  window so a missing audio device can never stop the window from opening: without one, one line
  on stderr says so and the game plays on silently. Effects are chosen in one place,
  :class:`~koikoi_desktop.ui.sound_cues.SoundCues` (``App.cues``); the settings screen changes
  volumes and mute on ``App.audio`` while the game runs.
* A scripted run (``--frames``, ``--screenshot``, ``--autoplay``) uses SDL's dummy audio driver
  unless ``SDL_AUDIODRIVER`` says otherwise, and with the dummy driver — SDL's "no audio
  device", asked for — no mixer is opened at all: tests and scripted runs stay as light as
  before sound existed (measured: an open mixer and its effects made an uncapped autoplay match
  a few tenths of a second slower on a busy machine). The disk-audio test and
  ``benchmarks/render.py`` use SDL's ``disk`` driver instead, which mixes and paces like a real
  device. An interactive run lets SDL pick the real device.
* ``--autoplay`` and benchmark runs use a fixed simulated time step of 1/60 s per frame with no
  frame cap: the match runs as fast as the machine draws, every frame still goes through the real
  scenes, and a run is reproducible for a seed. Interactive play is capped at 60 fps, and so is
  ``--autoplay --realtime`` (a match to watch and hear at the pace a person plays).
* A scripted run (``--frames``, ``--screenshot`` or ``--autoplay``) on Linux without a display
  uses SDL's dummy video driver, so ``python -m koikoi_desktop --frames 60 --screenshot x.png``
  works on a headless machine.
* ``--autoplay`` quits by itself a few (simulated) seconds after the match result is shown.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from koikoi_desktop import crash
from koikoi_desktop.cli import LANG_CODES, MIN_SIZE, UsageError, build_parser, parse_args

if TYPE_CHECKING:
    from koikoi_desktop.storage import Storage

__all__ = ["LANG_CODES", "MIN_SIZE", "App", "UsageError", "build_parser", "main", "parse_args"]

DEFAULT_SIZE = (1280, 800)
FPS = 60
ICON_FILE = "icon-64.png"  # under assets/ui/, copied from packaging/icons/


def _data_dir(args: argparse.Namespace | None, storage: Storage | None = None) -> Path:
    """Where crash reports go: the open storage's folder, else --data-dir / KOIKOI_DATA_DIR /
    the user data folder."""
    if storage is not None:
        return storage.data_dir
    from koikoi_desktop.storage.paths import resolve_data_dir

    return resolve_data_dir(getattr(args, "data_dir", None) if args is not None else None)


def write_crash_report(
    exc: BaseException,
    args: argparse.Namespace | None,
    storage: Storage | None = None,
    *,
    record: str | None = None,
) -> Path:
    """Write a crash report (:mod:`koikoi_desktop.crash`) and return its path."""
    return crash.write_report(exc, _data_dir(args, storage), record=record)


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
    import pygame

    # no display at all: the line on stderr is all we can do
    with contextlib.suppress(pygame.error):
        pygame.display.message_box(
            "Koi-Koi Desktop",
            f"The game stopped because of an error.\n\nA report was written to:\n{path}",
            message_type="error",
        )


def _match_record(app: Any) -> str | None:
    """The text record of the match on the table, if any (for the crash report)."""
    stack = getattr(app, "stack", None)
    table = stack.find("table") if stack is not None else None
    match = getattr(table, "match", None)
    return str(match.record_text()) if match is not None else None


def _sdl_defaults(args: argparse.Namespace) -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    scripted = bool(args.frames or args.screenshot or args.autoplay)
    if scripted:
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
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
        if args.export_ledger or args.import_ledger:
            return _ledger_command(args)
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


def _ledger_command(args: argparse.Namespace) -> int:
    """``--export-ledger FILE`` / ``--import-ledger FILE``: one line of result, exit 0; a bad
    file or a refusing disk: one line on stderr, exit 2, nothing changed."""
    from koikoi_desktop.storage import Storage

    data_dir = Path(args.data_dir).expanduser() if args.data_dir else None
    with Storage.open(data_dir) as store:
        for line in store.warnings:
            print(f"koikoi-desktop: {line}", file=sys.stderr)
        try:
            if args.export_ledger:
                path = store.export_all(args.export_ledger)
                print(f"exported {store.db.count(include_computer=True) if store.db else 0} "
                      f"matches to {path}")
            else:
                added, same, aside = store.import_ledger(args.import_ledger)
                print(f"imported {added} matches ({same} already in the ledger, "
                      f"{aside} kept aside as conflicting)")
        except (ValueError, OSError) as exc:  # a bad file, or the disk refuses: nothing changed
            print(f"koikoi-desktop: error: {exc}", file=sys.stderr)
            return 2
    return 0


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
        fixed = (self.autoplay and not getattr(self.args, "realtime", False)) or record_frames
        self.fixed_dt: float | None = 1 / FPS if fixed else None
        self.record_frames = record_frames
        self.frame_ms: list[float] = []
        self.frame = 0
        self.clock_s = 0.0  # simulated seconds (autoplay) or real seconds since start
        self.storage: Storage | None = None
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
        self._warnings_taken = 0
        #: --autoplay --record: computer-vs-computer matches go into the ledger (marked).
        self.record_autoplay = bool(self.args.record)
        #: --autoplay --matches N: how many matches are left to play before quitting.
        self.matches_left = int(self.args.matches or 1)
        self._windowed_size: tuple[int, int] = self.size
        self.icon_set = False
        from koikoi_desktop.ui.sound_cues import SoundCues

        #: The one audio player (``open_audio``, after the window); None until then.
        self.audio: Any = None
        #: Which effect goes with what the table shows (silent until ``open_audio``).
        self.cues = SoundCues(None)
        self._sound_log: Any = None

    # ----------------------------------------------------------------- services
    def open_storage(self) -> None:
        """Open the data folder (settings, ledger, saved matches). Problems found on disk
        become warning lines, never exceptions (see :class:`koikoi_desktop.storage.Storage`)."""
        from koikoi_desktop.storage import Storage

        data_dir = Path(self.args.data_dir).expanduser() if self.args.data_dir else None
        self.storage = Storage.open(data_dir)
        self.warnings.extend(self.storage.warnings)
        self._warnings_taken = len(self.storage.warnings)
        s = self.storage.settings
        self.ui_scale = float(s.ui_scale)
        if self.args.speed is None:
            self.anim_speed = str(s.animation_speed)
        self.reduced_motion = bool(s.reduced_motion)
        self.click_mode = bool(s.click_to_move)

    def take_storage_warnings(self) -> None:
        """Move the storage's new warning lines into :attr:`warnings` (shown by the title)."""
        if self.storage is None:
            return
        new = self.storage.warnings[self._warnings_taken :]
        self._warnings_taken = len(self.storage.warnings)
        self.warnings.extend(new)

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

    def open_audio(self) -> None:
        """Open the game's one audio player (after the window) with the saved volumes and start
        the ambient loop. No audio device is an expected failure: one line on stderr, and the
        game goes on silently (every effect is then a no-op)."""
        from koikoi_desktop.audio import Audio
        from koikoi_desktop.ui.sound_cues import SoundCues

        cache = self.storage.data_dir / "cache" if self.storage is not None else None
        audio = Audio(cache=cache)
        if self.settings is not None:
            audio.apply_settings(self.settings)
        if os.environ.get("SDL_AUDIODRIVER", "").lower() == "dummy":
            pass  # SDL's "no audio device" by request (scripted runs, tests): nothing to open
        elif audio.init():
            audio.start_music()
        else:
            print(f"koikoi-desktop: playing without sound ({audio.error})", file=sys.stderr)
        log_path = os.environ.get("KOIKOI_SOUND_LOG", "")
        if log_path:  # a debugging aid (see ui/sound_cues.py)
            self._sound_log = open(log_path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
        self.audio = audio
        self.cues = SoundCues(audio, log=self._sound_log)

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
        """Whether Continue has a saved match to offer."""
        return self.storage is not None and self.storage.saved_match() is not None

    def continue_match(self) -> bool:
        """Resume the most recent saved match on the table; False when there is none or it
        cannot be resumed (then it is set aside in the database and one line says why)."""
        from koikoi_desktop import scenes
        from koikoi_desktop.storage.recorder import ResumeError, resume

        if self.storage is None:
            return False
        data = self.storage.read_autosave()
        if data is None:
            self.take_storage_warnings()
            return False
        try:
            resumed = resume(data)
        except ResumeError as exc:
            self.storage.discard_autosave(str(exc), str(data.meta.get("match_id", "")))
            self.take_storage_warnings()
            return False
        self.storage.claim_saved(resumed.match_id)
        self.stack.push(scenes.create("table", self, autosave=resumed))
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
        from koikoi_desktop import i18n

        # the settings model only admits the known styles
        i18n.set_name_style(str(self.setting("name_display", "translated")))

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
        """Window closed: a match in progress asks first (and keeps the autosave); finished
        matches the disk has refused so far are offered a retry or an export first."""
        if self.autoplay or self.args.frames:
            self.quit()
            return
        table = self.stack.find("table")
        if table is not None and hasattr(table, "ask_quit") and table.ask_quit():
            return
        if self.ask_about_pending():
            return
        self.quit()

    def ask_about_pending(self) -> bool:
        """Open the "matches not saved yet" dialog when the storage holds any; True if it did."""
        from koikoi_desktop import scenes

        store = self.storage
        if store is None or not store.pending or self.stack.find("unsaved") is not None:
            return False
        if store.retry_pending():
            return False
        self.stack.push(scenes.create("unsaved", self))
        return True

    def match_finished(self) -> bool:
        """An autoplay match ended: True when ``--matches`` asks for another one (started)."""
        from koikoi_desktop import scenes

        self.matches_left -= 1
        if not self.autoplay or self.matches_left <= 0:
            return False
        self.seed = None if self.seed is None else self.seed + 1
        self.stack.reset(scenes.create("title", self))
        self.stack.push(self._autoplay_table())
        return True

    def _autoplay_table(self) -> Any:
        from koikoi_desktop import engine, scenes
        from koikoi_desktop.scenes.table import MatchConfig

        name = self.args.preset or str(self.setting("default_preset", "nintendo"))
        rules = engine.PRESETS[name if name in engine.PRESETS else "nintendo"]
        seats = self.args.seats or ("intermediate", "intermediate")
        config = MatchConfig(rules=rules, seats=seats, seed=self.seed)
        return scenes.create("table", self, config=config, autoplay=True)

    # ----------------------------------------------------------------- scenes
    def first_scene(self) -> None:
        from koikoi_desktop import scenes

        name = self.args.scene or ("table" if self.autoplay else "title")
        if name == "title":
            self.stack.push(scenes.create("title", self))
            if self.args.resume:
                self.continue_match()  # with none or a bad one: the title, with its one line
            return
        self.stack.push(scenes.create("title", self))
        if self.autoplay and name == "table":
            self.stack.push(self._autoplay_table())
        elif name in ("table", "round-summary", "match-result"):
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
        self.open_audio()
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
            if self.audio is not None:
                self.audio.update()  # after the flip: the first frame is up before synthesis
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
        if self.audio is not None:
            self.audio.quit()
        if self._sound_log is not None:
            self._sound_log.close()
            self._sound_log = None
        pygame.display.quit()

    def close_storage(self) -> None:
        """Write what is pending (a background autosave, settings, refused matches) and close
        the database. Matches the disk still refuses are named on stderr: the dialog at quit
        has already offered a retry and an export."""
        store = self.storage
        if store is not None and not self._storage_closed:
            self._storage_closed = True
            store.close()
            if store.pending:
                print(
                    f"koikoi-desktop: {len(store.pending)} finished matches could not be "
                    "written to the coin ledger",
                    file=sys.stderr,
                )


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
