"""The application: window, services, scene stack and the frame loop.

This is the only module that sets SDL defaults, initialises pygame, creates the window and owns
the loop. ``main(argv)`` parses the command line (:mod:`koikoi_desktop.cli`; a bad value prints
one line on stderr and returns 2), runs the app and returns the exit status. Its crash handler
is the only broad ``except`` of the package: a crash writes a report
(:mod:`koikoi_desktop.crash`) and prints one line saying where.

Input is translated once: :meth:`App.dispatch` turns each pygame event into an
:class:`~koikoi_desktop.ui.input.Intent` (window events the app handles itself) and the scene
stack passes intents down; no scene sees a pygame event.

Decisions:

* The app owns one :class:`~koikoi_desktop.ui.audio.Audio` (``App.audio``), opened after the
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
* **Idle costs nothing.** An interactive run draws at 60 fps only while something moves. When
  the top scene says it will look the same for a while (:meth:`Scene.still_for
  <koikoi_desktop.scenes.base.Scene.still_for>`: the title with no input, the table waiting for
  the player, the month reference), the loop sleeps until an event or the scene's next deadline
  (a hover delay, a message fading). It sleeps in steps of :data:`IDLE_STEP` (a frame's time,
  so input is seen as soon as a drawn frame would see it) and looks at the event queue after
  each: ``pygame.event.wait`` looks every millisecond, which alone costs 1.5% of a core
  (measured). Nothing is drawn until an event or the deadline; at most every :data:`MAX_SLEEP`
  the loop goes round without drawing (the audio takes finished work). The quiet time is given
  to the scene's ``update`` before the events that ended it, so an animation an event starts
  begins at its first frame. Measured by ``benchmarks/idle_cpu.py``. Scripted runs
  (``--frames``, ``--autoplay``) never sleep: their frames are counted.
* **SIGTERM and SIGINT** (a logout, a shutdown, Ctrl+C) save the match in progress — the same
  save as the "Save and quit" button — and end the run with status 0, without the "Leave the
  match?" question that closing the window asks. The app handles both signals itself (SDL's
  handlers, which turn them into a window-close event, are switched off with
  ``SDL_NO_SIGNAL_HANDLERS``).
* **No display** (no ``DISPLAY`` or ``WAYLAND_DISPLAY`` on Linux, or a video driver that fails
  to start) is an expected failure: one line on stderr and exit status 1, never a game running
  invisibly on SDL's offscreen driver. Scripted runs still use the dummy driver without a
  display.
* The window's class (X11 ``WM_CLASS``, the Wayland app id) is :data:`WINDOW_CLASS`, the
  desktop file's ``StartupWMClass``, so docks group the window under the game's icon.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING

from koikoi_desktop import crash, i18n
from koikoi_desktop.assets import CardSprites, asset_root
from koikoi_desktop.cli import (
    LANG_CODES,
    MIN_SIZE,
    UsageError,
    build_parser,
    ledger_command,
    parse_args,
    render_deck,
    review_command,
    tell_checking,
    verify_command,
)
from koikoi_desktop.scenes import screens
from koikoi_desktop.storage import Notice, Storage
from koikoi_desktop.storage.cause import refusal_of
from koikoi_desktop.storage.models import Settings
from koikoi_desktop.ui.settings_service import AUDIO_FIELDS, SettingsService
from koikoi_desktop.words.storage import notice_text, refused_text

if TYPE_CHECKING:
    from types import FrameType
    from typing import TextIO

    import pygame

    from koikoi_desktop.scenes.base import Router, Scene
    from koikoi_desktop.ui.audio import Audio

__all__ = ["LANG_CODES", "MIN_SIZE", "App", "UsageError", "build_parser", "main", "parse_args"]

DEFAULT_SIZE = (1280, 800)
FPS = 60
#: The exit status of a scripted ``--autoplay --record`` run that could not record every match.
UNRECORDED_STATUS = 3
ICON_FILE = "icon-64.png"  # under assets/ui/, copied from packaging/icons/
#: The window class (X11 WM_CLASS, Wayland app id): packaging/linux/*.desktop StartupWMClass.
WINDOW_CLASS = "koikoi-desktop"
#: The longest an idle loop sleeps before going round once without drawing (seconds).
MAX_SLEEP = 1.0
#: How often a sleeping loop looks at the event queue (seconds): a frame's time.
IDLE_STEP = 1 / FPS
#: Video drivers that draw into memory, with no window a person can see.
HIDDEN_DRIVERS = ("offscreen", "dummy")


class NoDisplay(Exception):
    """No display to open the window on (reported as one line, exit status 1)."""


def _match_record(app: App | None) -> str | None:
    """The text record of the match on the table, if any (for the crash report)."""
    stack = getattr(app, "stack", None)
    table = stack.find("table") if stack is not None else None
    match = getattr(table, "match", None)
    from koikoi_desktop.engine import match_record

    return match_record(match) if match is not None else None


def sdl_defaults(args: argparse.Namespace) -> None:
    """Set SDL environment defaults before pygame opens a display."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", WINDOW_CLASS)
    os.environ.setdefault("SDL_VIDEO_WAYLAND_WMCLASS", WINDOW_CLASS)
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"  # SIGTERM and SIGINT are the app's (App.run)
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
    # Private by default (issue 46): every file the game creates (the ledger and its WAL,
    # saved matches, crash reports, exports, settings) is readable by the player only, 0600,
    # and every folder 0700, whichever code creates it (SQLite included).
    os.umask(0o077)
    try:
        args = parse_args(argv)
    except UsageError as exc:
        print(f"koikoi-desktop: error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    app: App | None = None
    try:
        if args.render_deck:
            sdl_defaults(args)
            return render_deck(args)
        if args.export_ledger or args.import_ledger:
            return ledger_command(args)
        if args.verify_deals:
            return verify_command(args)
        if args.review:
            return review_command(args)
        app = App(args)
        return int(app.run())
    except NoDisplay as exc:  # expected on a machine without a desktop session: one line
        print(f"koikoi-desktop: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the one crash handler: a report, one line, a message box
        storage = app.storage if app is not None else None
        folder = crash.data_dir_for(args.data_dir, storage.data_dir if storage else None)
        path = crash.write_report(exc, folder, record=_match_record(app))
        what = " ".join(str(exc).split())[:200]  # one line, whatever the message holds
        print(
            f"koikoi-desktop: crashed ({type(exc).__name__}: {what}); report written to {path}",
            file=sys.stderr,
        )
        crash.tell_player(path, scripted=bool(args.frames or args.screenshot or args.autoplay))
        return 1


class App:
    """The running game: window, services (storage, sprites, settings) and the scene stack.

    Scenes reach everything through this object: ``stack``, ``size``, ``storage``, ``sprites``,
    ``words``, ``ui_scale``, ``anim_speed``, ``reduced_motion``, ``autoplay``, ``seed``,
    ``quit()``.
    """

    def __init__(
        self, args: argparse.Namespace | None = None, *, record_frames: bool = False
    ) -> None:
        from koikoi_desktop.scenes import SceneRouter, SceneStack

        self.args = args if args is not None else parse_args([])
        self.stack = SceneStack()
        #: Builds a screen's scene from its record (``scenes.screens``).
        self.router: Router = SceneRouter(self)
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
        #: The one settings service: the model and what derives from it (the words, the scale,
        #: the animation speed, click-to-move, the help level), observed by the screens.
        self.prefs = SettingsService(language=self.args.lang, speed=self.args.speed)
        self.prefs.observe(self.settings_changed)
        self.sprites: CardSprites | None = None
        #: Storage's notices (worded when shown) and the display's refusals.
        self.warnings: list[Notice | str] = []
        self.screen: pygame.Surface | None = None
        self.first_frame_at: float | None = None
        self._window: pygame.Window | None = None
        self._fullscreen = False
        self._storage_closed = False
        #: Finished matches still refused by the disk when the storage closed.
        self.unrecorded = 0
        #: The export a signal made of refused matches: the file, and why it failed (or None).
        self.exported_at_signal: tuple[Path, OSError | None] | None = None
        self._warnings_taken = 0
        #: --autoplay --record: computer-vs-computer matches go into the ledger (marked).
        self.record_autoplay = bool(self.args.record)
        #: --autoplay --matches N: how many matches are left to play before quitting.
        self.matches_left = int(self.args.matches or 1)
        self._windowed_size: tuple[int, int] = self.size
        self.icon_set = False
        #: Where the table's computer opponents think: None = their own worker (a thread, or a
        #: process for Expert); tests inject ``ai.InlineExecutor()`` to decide synchronously.
        self.ai_executor: Executor | None = None
        #: The coach's budget (worlds per judgement): None, the coach's own (the review's, so
        #: both say the same); tests lower it.
        self.coach_worlds: int | None = None
        from koikoi_desktop.ui.sound_cues import SoundCues

        #: The one audio player (``open_audio``, after the window); None until then.
        self.audio: Audio | None = None
        #: Which effect goes with what the table shows (silent until ``open_audio``).
        self.cues = SoundCues(None)
        self._sound_log: TextIO | None = None
        #: The signal (SIGTERM, SIGINT) that asked the run to end, once one has arrived.
        self.stop_signal: int | None = None

    # ----------------------------------------------------------------- services
    def open_storage(self) -> None:
        """Open the data folder (settings, ledger, saved matches). Problems found on disk
        become warning lines, never exceptions (see :class:`koikoi_desktop.storage.Storage`)."""
        data_dir = Path(self.args.data_dir).expanduser() if self.args.data_dir else None
        self.storage = Storage.open(data_dir, checking=tell_checking)
        kill_at = os.environ.get("KOIKOI_TEST_KILL_AT_SQL", "")
        if kill_at:
            _test_kill_at_sql(int(kill_at), self.storage)
        self.warnings.extend(self.storage.warnings)
        self._warnings_taken = len(self.storage.warnings)
        self.prefs.attach(self.storage)

    def take_storage_warnings(self) -> None:
        """Move the storage's new warning lines into :attr:`warnings` (shown by the title)."""
        if self.storage is None:
            return
        new = self.storage.warnings[self._warnings_taken :]
        self._warnings_taken = len(self.storage.warnings)
        self.warnings.extend(new)

    @property
    def settings(self) -> Settings:
        """The live settings model (``prefs.model``): read its fields; change them through
        :attr:`prefs` (``prefs.draft()``, then ``prefs.apply(new)``)."""
        return self.prefs.model

    # what derives from the settings, computed from the model when read (never copied here)
    @property
    def words(self) -> i18n.Words:
        return self.prefs.words

    @property
    def ui_scale(self) -> float:
        return self.prefs.ui_scale

    @property
    def anim_speed(self) -> str:
        return self.prefs.anim_speed

    @property
    def reduced_motion(self) -> bool:
        return self.prefs.reduced_motion

    @property
    def click_mode(self) -> bool:
        return self.prefs.click_mode

    def settings_changed(self, changed: frozenset[str]) -> None:
        """A change made through :attr:`prefs`: the window and the sound take it here, then
        every screen on the stack (the one under the settings too) takes it at once."""
        if "language" in changed:
            self.retitle()
        if self.audio is not None and changed & AUDIO_FIELDS:
            self.audio.apply_settings(self.settings)
        if "ui_scale" in changed:
            self.stack.resize(self.size)
        for scene in list(self.stack.scenes):
            scene.settings_changed(changed)

    def open_audio(self) -> None:
        """Open the game's one audio player (after the window) with the saved volumes and start
        the ambient loop. No audio device is an expected failure: one line on stderr, and the
        game goes on silently (every effect is then a no-op)."""
        from koikoi_desktop.ui.audio import Audio
        from koikoi_desktop.ui.sound_cues import SoundCues

        cache = self.storage.data_dir / "cache" if self.storage is not None else None
        audio = Audio(cache=cache)
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
        """The card sprite cache (table, captures, chips, prompts, summary sizes)."""
        self.sprites = CardSprites(max_sizes=10)

    def has_autosave(self) -> bool:
        """Whether Continue has a saved match to offer."""
        return self.storage is not None and self.storage.saved_match() is not None

    def continue_match(self) -> bool:
        """Resume the most recent saved match on the table; False when there is none or it
        cannot be resumed (then it is set aside in the database and one line says why)."""
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
            match_id = str(data.meta.get("match_id", ""))
            self.storage.discard_autosave(exc.why, match_id, detail=exc.detail)
            self.take_storage_warnings()
            return False
        self.storage.claim_saved(resumed.match_id)
        self.stack.push(self.router.build(screens.Table(autosave=resumed)))
        return True

    # ----------------------------------------------------------------- window
    def find_display(self) -> None:
        """Start the video driver, or raise :class:`NoDisplay` (one line, exit status 1).

        Called before anything else is opened, so a start with no display opens nothing it
        would have to close (the data folder's open marker above all)."""
        import pygame

        from koikoi_desktop.chatter import native_chatter_filtered

        try:
            with native_chatter_filtered():  # the display probes' own lines (see chatter.py)
                pygame.display.init()
        except pygame.error as exc:  # no video driver could start
            raise NoDisplay(f"no display to open the window on ({exc})") from None
        driver = pygame.display.get_driver()
        asked = os.environ.get("SDL_VIDEODRIVER", "").lower()
        if driver in HIDDEN_DRIVERS and driver not in asked:
            pygame.display.quit()
            named = [
                f"{v}={os.environ[v]}" for v in ("DISPLAY", "WAYLAND_DISPLAY") if os.environ.get(v)
            ]
            why = (
                f"no display answered at {' '.join(named)}"
                if named
                else "DISPLAY and WAYLAND_DISPLAY are not set"
            )
            raise NoDisplay(
                f"no display to open the window on ({why}); start the game from a desktop session"
            )

    def open_window(self) -> None:
        import warnings

        import pygame

        if not pygame.display.get_init():
            self.find_display()
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        self.set_window_icon()
        flags = pygame.RESIZABLE
        self.screen = pygame.display.set_mode(self.size, flags)
        self.retitle()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                self._window = pygame.Window.from_display_module()
                self._window.minimum_size = MIN_SIZE
            except pygame.error:  # a video driver without window objects: set_mode does it
                self._window = None
        scripted = bool(self.args.frames or self.args.screenshot or self.autoplay or self.args.size)
        if self.settings.fullscreen and not scripted:
            self.toggle_fullscreen()  # the saved choice (a --size or scripted run stays windowed)

    def retitle(self) -> None:
        """The window's title: the game's name in the player's language, the same name as the
        menu entry's (``app.name``; tests/packaging check the desktop file against it)."""
        import pygame

        if pygame.display.get_init():
            pygame.display.set_caption(self.words.t("app.name"))

    def set_window_icon(self) -> None:
        """The game's icon on the window and task bar (set before ``set_mode``, as SDL wants on
        some platforms). A missing or unreadable file only leaves the default icon."""
        import pygame

        try:
            icon = pygame.image.load(str(asset_root() / "ui" / ICON_FILE))
        except (pygame.error, OSError) as exc:  # a damaged install: the default icon
            self.warnings.append(f"window icon: {exc}")
            return
        pygame.display.set_icon(icon)
        self.icon_set = True

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
        if self.sprites is not None:
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
        if self.settings.fullscreen != going_full:
            new = self.prefs.draft()
            new.fullscreen = going_full
            self.prefs.apply(new)

    def quit(self) -> None:
        """End the run at the loop's next turn, asking nothing. Only the quit path itself calls
        this (:meth:`request_quit` when nothing is left to ask, :meth:`confirm_quit` once the
        player has answered, a signal, a scripted run): screens ask :meth:`request_quit`."""
        self.running = False

    def request_quit(self, *, match_saved: bool = False) -> None:
        """The one way out a player takes (the window's close button, the title's Quit, "Save
        and quit" on the pause menu or the table's question): a match in progress asks first
        (and keeps the autosave) unless ``match_saved`` says it was just saved for this quit;
        finished matches the disk has refused so far are offered a retry or an export first
        (the "Matches not saved yet" dialog). Only when nothing is left to ask does the run end.
        """
        if self.autoplay or self.args.frames:
            self.quit()
            return
        table = self.stack.find("table")
        if (
            not match_saved
            and table is not None
            and hasattr(table, "ask_quit")
            and table.ask_quit()
        ):
            return
        if self.ask_about_pending():
            return
        self.quit()

    def confirm_quit(self) -> None:
        """The player answered the "Matches not saved yet" dialog (they were written after all,
        or the player chose to quit without them): the run ends."""
        self.quit()

    def ask_about_pending(self) -> bool:
        """Open the "matches not saved yet" dialog when the storage holds any; True if it did."""
        store = self.storage
        if store is None or not store.pending or self.stack.find("unsaved") is not None:
            return False
        if store.retry_pending():
            return False
        self.stack.push(self.router.build(screens.Unsaved()))
        return True

    def match_finished(self) -> bool:
        """An autoplay match ended: True when ``--matches`` asks for another one (started)."""
        self.matches_left -= 1
        if not self.autoplay or self.matches_left <= 0:
            return False
        self.seed = None if self.seed is None else self.seed + 1
        self.stack.reset(self.router.build(screens.Title()))
        self.stack.push(self._autoplay_table())
        return True

    def _autoplay_table(self) -> Scene:
        from koikoi_desktop import engine
        from koikoi_desktop.scenes.defaults import default_preset
        from koikoi_desktop.scenes.match_config import MatchConfig

        rules = engine.PRESETS[self.args.preset or default_preset(self.settings)]
        seats = self.args.seats or ("intermediate", "intermediate")
        config = MatchConfig(rules=rules, seats=seats, seed=self.seed)
        return self.router.build(screens.Table(config=config, autoplay=True))

    # ----------------------------------------------------------------- scenes
    def first_scene(self) -> None:
        from koikoi_desktop import scenes

        name = self.args.scene or ("table" if self.autoplay else "title")
        if name == "title":
            self.stack.push(self.router.build(screens.Title()))
            if self.args.resume:
                self.continue_match()  # with none or a bad one: the title, with its one line
            else:
                self.offer_menu_entry()
            return
        self.stack.push(self.router.build(screens.Title()))
        if self.autoplay and name == "table":
            self.stack.push(self._autoplay_table())
        elif name in scenes.FAST_FORWARD:
            self.stack.push(
                self.router.build(
                    screens.Table(
                        autoplay=self.autoplay,
                        seed=self.seed,
                        preset=self.args.preset,
                        fast_forward=scenes.FAST_FORWARD[name],
                    )
                )
            )
            if name == "review":  # the seeded match's review, opened from its result
                from koikoi_desktop.scenes.match_result import MatchResultScene

                result = self.stack.top
                assert isinstance(result, MatchResultScene), result
                result.review()
        else:
            self.stack.push(scenes.create(name, self))

    def offer_menu_entry(self) -> None:
        """The unpacked Linux game, started by double-click with no menu entry yet, asks to add
        itself to the desktop's menu (:mod:`koikoi_desktop.menu_entry`; never a scripted run,
        never after "Don't ask again")."""
        from koikoi_desktop import menu_entry

        if self.args.frames or self.autoplay or not self.settings.offer_menu_entry:
            return
        bundle = menu_entry.unpacked_bundle()
        if bundle is not None and not menu_entry.in_menu():
            self.stack.push(self.router.build(screens.MenuOffer(bundle=bundle)))

    # ----------------------------------------------------------------- loop
    def run(self) -> int:
        start = time.perf_counter()
        sdl_defaults(self.args)
        before = {sig: signal.signal(sig, self.on_signal) for sig in STOP_SIGNALS}
        try:
            # The display first (issue 46): a start with no display says so and exits before
            # it has touched the data folder, which it leaves exactly as it found it.
            self.find_display()
            self.open_storage()
            self.open_window()
            self.open_audio()
            self.open_sprites()
            self.first_scene()
            status = self.loop(start)
            self.shutdown()
        finally:
            for sig, handler in before.items():
                if handler is not None:  # None: a handler Python did not install
                    signal.signal(sig, handler)
        if status == 0 and self.record_autoplay and self.unrecorded:
            return UNRECORDED_STATUS  # a scripted run whose matches are not all on disk
        return status

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        """SIGTERM or SIGINT: end the run at the loop's next turn (:meth:`stop_for_signal`)."""
        self.stop_signal = signum

    def stop_for_signal(self) -> None:
        """Save the match in progress (as "Save and quit" does) and end the run, asking
        nothing: whoever sent the signal is not looking at the window."""
        table = self.stack.find("table")
        controller = getattr(table, "controller", None)
        if controller is not None:
            controller.save()
        self.export_pending_at_signal()
        self.quit()

    def export_pending_at_signal(self) -> None:
        """Keep what can be kept when nobody can be asked (issue 46): finished matches the
        disk refused are exported to the first usual folder that takes them (documents, then
        home), and the line at close names the file. A scripted run keeps its exit status
        for them instead (``UNRECORDED_STATUS``) and writes nothing outside its data folder."""
        from datetime import UTC, datetime

        from koikoi_desktop.scenes.unsaved import export_folders, export_pending_somewhere

        store = self.storage
        if store is None or not store.pending or self.autoplay or self.args.frames:
            return
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        target, failed = export_pending_somewhere(store, export_folders(), stamp)
        self.exported_at_signal = (target, failed)

    def loop(self, start: float | None = None) -> int:
        import pygame

        clock = pygame.time.Clock()
        self.running = True
        max_frames = self.args.frames
        crash_in = os.environ.get("KOIKOI_TEST_CRASH", "")
        may_sleep = self.fixed_dt is None and max_frames is None  # a person's run, not a script
        still = 0.0  # how long the top scene will look the same (0: it moves)
        while self.running and self.stack.top is not None:
            t0 = time.perf_counter()
            if self.stop_signal is not None:
                self.stop_for_signal()
                break
            if still > 0:
                events, quiet = self.sleep(clock, still)
                if self.stop_signal is not None:
                    continue
                self.stack.update(quiet)  # the time that passed while still
                if not events and quiet < still:  # MAX_SLEEP passed, and nothing new
                    still = self.stack.still_for()
                    if still > 0:
                        continue
                dt = 0.0
            elif self.fixed_dt is not None:
                clock.tick()
                dt = self.fixed_dt
                events = pygame.event.get()
            else:
                dt = min(0.1, clock.tick(FPS) / 1000.0)
                events = pygame.event.get()
            self.clock_s += dt
            for event in coalesce_resizes(events):
                self.dispatch(event)
            if not self.running:
                break
            if crash_in:
                _test_crash(crash_in, self)
            self.stack.update(dt)
            if self.stack.top is None:
                break
            assert self.screen is not None  # the window is open while the loop runs
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
            still = self.stack.still_for() if may_sleep else 0.0
        return 0

    def sleep(
        self, clock: pygame.time.Clock, still: float
    ) -> tuple[list[pygame.event.Event], float]:
        """Wait for an event, at most ``still`` seconds (and :data:`MAX_SLEEP`): the events
        that came (none at the timeout) and the seconds that passed."""
        events = self.wait_for_events(min(still, MAX_SLEEP))
        quiet = clock.tick() / 1000.0
        self.clock_s += quiet
        if self.audio is not None:
            self.audio.update()  # a sound made in the background is taken while idle too
        return events, quiet

    def wait_for_events(self, timeout: float) -> list[pygame.event.Event]:
        """Sleep until there are events or a signal, at most ``timeout`` seconds, looking every
        :data:`IDLE_STEP`; the events (none at the timeout)."""
        import pygame

        end = time.perf_counter() + timeout
        while self.stop_signal is None:
            left = end - time.perf_counter()
            if left <= 0:
                break
            time.sleep(min(IDLE_STEP, left))
            events = pygame.event.get()
            if events:
                return events
        return []

    def dispatch(self, event: pygame.event.Event) -> None:
        """One pygame event: window events here, the rest translated once into an intent for
        the top scene (events no scene uses are dropped)."""
        import pygame

        from koikoi_desktop.ui.input import IntentKind, to_intent

        if event.type == pygame.QUIT:
            self.request_quit()
        elif event.type == pygame.VIDEORESIZE:
            self.on_resize((event.w, event.h))
        else:
            intent = to_intent(event)
            if intent is None:
                return
            if intent.kind is IntentKind.FULLSCREEN:
                self.toggle_fullscreen()
            else:
                self.stack.handle(intent)

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
            self.unrecorded = len(store.pending)
            unrecorded = store.unrecorded()
            if unrecorded is None:
                return
            # stderr speaks English, whatever the game's language; one line, with the export
            # a signal made of them (or where it failed and why)
            line = notice_text(i18n.ENGLISH, unrecorded)
            if self.exported_at_signal is not None:
                target, failed = self.exported_at_signal
                line += " " + (
                    i18n.ENGLISH.t("ui.quit_pending.exported", path=str(target))
                    if failed is None
                    else i18n.ENGLISH.t(
                        "ui.quit_pending.export_failed",
                        path=str(target),
                        reason=refused_text(i18n.ENGLISH, refusal_of(failed)),
                    )
                )
            print(f"koikoi-desktop: {line}", file=sys.stderr)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def coalesce_resizes(events: list[pygame.event.Event]) -> list[pygame.event.Event]:
    """Keep only the last ``VIDEORESIZE`` of a frame's events (the others in their places).

    Dragging a window edge queues many sizes per frame, and each resize re-lays out the scenes
    and re-rasterises the card art (about a quarter of a second on the table): only the final
    size matters.
    """
    import pygame

    last = max((i for i, e in enumerate(events) if e.type == pygame.VIDEORESIZE), default=-1)
    return [e for i, e in enumerate(events) if e.type != pygame.VIDEORESIZE or i == last]


def _test_kill_at_sql(n: int, storage: Storage) -> None:
    """Test hook: ``KOIKOI_TEST_KILL_AT_SQL=N`` SIGKILLs the game just before the N-th SQL
    statement on the ledger's connection (counted by SQLite's trace callback, whichever thread
    runs it), so a process test stops the real game at a named point of its work instead of
    after a sleep whose meaning depends on the machine's speed."""
    db = storage.db
    if db is None:
        return
    count = 0

    def trace(_sql: str) -> None:
        nonlocal count
        count += 1
        if count == n:
            os.kill(os.getpid(), signal.SIGKILL)

    db.conn.set_trace_callback(trace)


def _test_crash(spec: str, app: App) -> None:
    """Test hook: ``KOIKOI_TEST_CRASH=SCENE[:FRAME]`` ("1" = the title) raises when that scene
    is on top (from frame FRAME on), to prove the crash report path end to end."""
    name, _, frame = spec.partition(":")
    name = "title" if name == "1" else name
    top = app.stack.top
    if top is not None and top.name == name and app.frame >= int(frame or 0):
        raise RuntimeError(f"KOIKOI_TEST_CRASH={spec}: a forced crash in the {name} scene")
