"""Scene stack lifecycle, the registry, and the command line (no window needed for most)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pygame
import pytest

from koikoi_desktop import app, scenes
from koikoi_desktop.scenes.base import Scene, SceneStack


class Probe(Scene):
    def __init__(self, log: list[str], name: str) -> None:
        super().__init__(None)
        self.log, self.name = log, name

    def enter(self) -> None:
        self.log.append(f"{self.name}.enter")

    def exit(self) -> None:
        self.log.append(f"{self.name}.exit")

    def pause(self) -> None:
        self.log.append(f"{self.name}.pause")

    def resume(self) -> None:
        self.log.append(f"{self.name}.resume")


def test_stack_lifecycle_order() -> None:
    log: list[str] = []
    st = SceneStack()
    st.push(Probe(log, "a"))
    st.push(Probe(log, "b"))
    st.pop()
    st.replace(Probe(log, "c"))
    st.reset(Probe(log, "d"))
    assert log == [
        "a.enter",
        "a.pause",
        "b.enter",
        "b.exit",
        "a.resume",
        "a.exit",
        "c.enter",
        "c.exit",
        "d.enter",
    ]
    assert st.names() == ["d"]


def test_pop_to_and_find() -> None:
    log: list[str] = []
    st = SceneStack()
    for n in "xyz":
        st.push(Probe(log, n))
    assert st.pop_to("x") is st.scenes[0]
    assert st.names() == ["x"]
    assert st.pop_to("missing") is None


def test_an_unregistered_name_is_an_error() -> None:
    """A name no screen is registered under is an error, not a placeholder screen."""
    with pytest.raises(KeyError):
        scenes.create("nowhere", app.App(app.parse_args([])))


def test_every_registered_name_builds_its_screen(tmp_path: Any) -> None:
    """Each name builds a Scene that carries that name (the stack finds screens by it)."""
    a = _open_app(tmp_path)
    for name in scenes.REGISTRY:
        scene = scenes.create(name, a)
        assert isinstance(scene, Scene) and scene.name == name, name
        scene.exit()
    a.close_storage()


def test_every_screen_is_on_the_command_line_or_left_out_with_a_reason() -> None:
    """``--scene`` takes every registered screen and every screen of a seeded match, except
    the ones left out in one place, each with its reason; no name is listed twice."""
    everything = set(scenes.REGISTRY) | set(scenes.FAST_FORWARD)
    left_out = set(scenes.NOT_FROM_THE_COMMAND_LINE)
    assert left_out <= set(scenes.REGISTRY)
    assert set(scenes.CLI_SCENES) == everything - left_out
    assert len(scenes.CLI_SCENES) == len(set(scenes.CLI_SCENES))
    assert all(len(why) > 20 for why in scenes.NOT_FROM_THE_COMMAND_LINE.values())


@pytest.mark.parametrize("name", scenes.CLI_SCENES)
def test_every_cli_scene_opens_and_is_screenshot(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """``--screenshot FILE --scene NAME`` opens NAME (a seeded match's screens played on to
    it) and writes the frame it drew."""
    import pygame

    seen: list[list[str]] = []
    real = app.App.shutdown

    def shutdown(self: Any) -> None:
        seen.append(self.stack.names())
        real(self)

    monkeypatch.setattr(app.App, "shutdown", shutdown)
    shot = tmp_path / f"{name}.png"
    argv = ["--screenshot", str(shot), "--scene", name, "--size", "1024x640", "--frames", "2"]
    argv += ["--seed", "5", "--speed", "off", "--data-dir", str(tmp_path / "data")]
    assert app.main(argv) == 0
    assert seen and name in seen[0], seen
    assert pygame.image.load(str(shot)).get_size() == (1024, 640)


@pytest.mark.parametrize("name", sorted(scenes.NOT_FROM_THE_COMMAND_LINE))
def test_a_screen_left_out_of_the_command_line_says_why(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert app.main(["--scene", name]) == 2
    err = capsys.readouterr().err
    assert scenes.NOT_FROM_THE_COMMAND_LINE[name] in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--seed", "x"], "--seed"),
        (["--frames", "0"], "--frames"),
        (["--size", "800x600"], "minimum"),
        (["--size", "big"], "WIDTHxHEIGHT"),
        (["--scene", "nowhere"], "unknown scene"),
        (["--lang", "xx"], "unknown language"),
        (["--screenshot", "/no/such/dir/x.png"], "does not exist"),
        (["--bogus"], "unrecognized"),
    ],
)
def test_bad_values_one_line_exit_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert app.main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert err.count("\n") == 1


def test_headless_frames_and_screenshot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    shot = tmp_path / "t.png"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "koikoi_desktop",
            "--frames",
            "5",
            "--screenshot",
            str(shot),
            "--data-dir",
            str(tmp_path / "data"),
            "--size",
            "1024x640",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    import pygame

    img = pygame.image.load(str(shot))
    assert img.get_size() == (1024, 640)


def test_crash_report_written(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    def boom(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("kaboom")

    monkeypatch.setattr(app.App, "run", boom)
    assert app.main(["--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert "report written to" in err and err.count("\n") == 0
    reports = list((tmp_path / "crash").glob("crash-*.txt"))
    assert len(reports) == 1 and "kaboom" in reports[0].read_text()


# ---------------------------------------------------------------- settings, storage, continue
def _open_app(data: Any) -> Any:
    args = app.parse_args(["--data-dir", str(data), "--speed", "off"])
    a = app.App(args)
    app.sdl_defaults(args)
    a.open_storage()
    return a


def test_click_to_move_setting_is_read(tmp_path: Any) -> None:
    from koikoi_desktop.storage import Storage

    with Storage.open(tmp_path) as st:
        st.settings.click_to_move = True
        st.save_settings()
    a = _open_app(tmp_path)
    assert a.click_mode is True
    a.close_storage()


def test_a_settings_change_survives_a_replaced_settings_object(tmp_path: Any) -> None:
    """Storage may put a new Settings object in place on save; the app must not keep writing
    to the old one (the second change would be lost)."""
    from koikoi_desktop.storage import Storage

    a = _open_app(tmp_path)
    new = a.prefs.draft()
    new.reduced_motion = True
    a.prefs.apply(new)
    a.storage.settings = a.storage.settings.model_copy()  # what a replacing save does
    new = a.prefs.draft()
    new.card_badges = False
    a.prefs.apply(new)
    assert a.settings.reduced_motion is True and a.settings.card_badges is False
    a.close_storage()
    with Storage.open(tmp_path) as st:
        assert st.settings.reduced_motion is True
        assert st.settings.card_badges is False


def test_a_refused_setting_fails_at_once_and_changes_nothing(tmp_path: Any) -> None:
    """A change is a whole Settings model: a refused value raises when it is set on the draft
    (validate_assignment) or when the draft is applied (a copy made without checks), and leaves
    every field as it was, on screen and on disk."""
    from pydantic import ValidationError

    from koikoi_desktop.storage import Storage

    a = _open_app(tmp_path)
    new = a.prefs.draft()
    new.card_badges = False
    with pytest.raises(ValidationError):
        new.sound_volume = 500
    with pytest.raises(ValidationError):
        a.prefs.apply(a.settings.model_copy(update={"card_badges": False, "sound_volume": 500}))
    assert a.settings.card_badges is True and a.settings.sound_volume == 80
    a.close_storage()
    with Storage.open(tmp_path) as st:
        assert st.settings.card_badges is True


def test_an_unknown_saved_preset_starts_the_models_default(tmp_path: Any) -> None:
    """A preset name this version lacks (a hand edit) starts a new game with the Settings
    model's own default preset and opponent, the only place those defaults are written."""
    from koikoi_desktop.storage import Storage
    from koikoi_desktop.storage.models import Settings

    with Storage.open(tmp_path) as st:
        st.settings.default_preset = "no-such-rules"
        st.settings.default_opponent = "grandmaster"
        st.save_settings()
    a = _open_app(tmp_path)
    ng = scenes.create("new-game", a)
    assert (ng.preset, ng.opponent) == (Settings().default_preset, Settings().default_opponent)
    table = scenes.create("table", a)
    assert table.rules.based_on == Settings().default_preset
    a.close_storage()


def test_quit_closes_storage_and_releases_the_ledger_lock(tmp_path: Any) -> None:
    from koikoi_desktop.storage import Storage

    args = app.parse_args(["--frames", "2", "--data-dir", str(tmp_path), "--size", "1024x640"])
    a = app.App(args)
    assert a.run() == 0
    with Storage.open(tmp_path) as other:  # the database is closed and free: this copy records
        assert other.can_write_ledger and other.db is not None
        assert other.db.saved_matches() == [] or not other.saved_in_use_elsewhere()


def test_main_module_calls_freeze_support_first() -> None:
    import ast
    from pathlib import Path

    import koikoi_desktop

    src = (Path(koikoi_desktop.__file__).parent / "__main__.py").read_text()
    guard = next(n for n in ast.parse(src).body if isinstance(n, ast.If))
    first = ast.unparse(guard.body[0])
    assert first == "multiprocessing.freeze_support()"


def test_title_menu_reaches_every_screen_and_fits_1024x640(ui_app: Any) -> None:
    import pygame

    ui_app.on_resize((1024, 640))
    title = scenes.create("title", ui_app)
    ui_app.stack.push(title)
    screen = pygame.Rect(0, 0, 1024, 640)
    assert len(title.buttons) == 10
    for b in title.buttons:
        assert screen.contains(b.rect)
    for a, b in zip(title.buttons, title.buttons[1:], strict=False):
        assert not a.rect.colliderect(b.rect)
    opened = []
    for b in title.buttons[2:-1]:  # Continue is disabled without an autosave; Quit quits
        b.on_click()
        opened.append(ui_app.stack.top.name)
        ui_app.stack.pop()
        assert ui_app.stack.top is title
    assert opened == [
        "rules",
        "month-reference",
        "yaku-reference",
        "ledger",
        "settings",
        "about",
        "credits",
    ]
    # keyboard: Tab from New game reaches "How to play" after Continue (disabled, skipped)
    title.focus.index = 0
    ui_app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0, unicode=""))
    assert title.focus.index == 2


def test_window_icon_is_set_before_the_window_opens(tmp_path: Any, monkeypatch: Any) -> None:
    import pygame

    from koikoi_desktop.assets import asset_root

    calls: list[str] = []
    real_icon, real_mode = pygame.display.set_icon, pygame.display.set_mode

    def set_icon(surf: Any) -> None:
        calls.append(f"icon {surf.get_size()}")
        real_icon(surf)

    def set_mode(*a: Any, **k: Any) -> Any:
        calls.append("mode")
        return real_mode(*a, **k)

    monkeypatch.setattr(pygame.display, "set_icon", set_icon)
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    assert (asset_root() / "ui" / app.ICON_FILE).is_file()
    a = _open_app(tmp_path)
    a.open_window()
    try:
        assert calls[:2] == ["icon (64, 64)", "mode"] and a.icon_set
    finally:
        a.close_storage()
        pygame.display.quit()


@pytest.mark.parametrize("name", ["round-summary", "match-result"])
def test_scene_flag_fast_forwards_to_the_end_screens(tmp_path: Any, name: str) -> None:
    import pygame

    args = app.parse_args(["--scene", name, "--seed", "5", "--data-dir", str(tmp_path)])
    a = app.App(args)
    app.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    try:
        a.first_scene()
        top = a.stack.top
        assert top is not None and top.name == name
        if name == "round-summary":
            assert top.entry.round == 1 and a.stack.find("table") is not None
        else:
            assert top.match.outcome is not None
        a.stack.draw(a.screen)
    finally:
        while a.stack.top is not None:
            a.stack.pop()
        a.close_storage()
        pygame.display.quit()


def test_title_tells_a_damaged_settings_file_in_one_line(tmp_path: Any) -> None:
    """Issue 6: a damaged file is moved aside, never deleted, and the player sees one clear
    line about it at the start (wrapped to the window, not cut off)."""
    from koikoi_desktop import scenes

    (tmp_path / "settings.json").write_text('{"schema_version": 1, "language": 7', "utf-8")
    a = _open_app(tmp_path)
    title = scenes.create("title", a)
    lines = title.storage_lines()
    assert len(lines) == 1 and "settings" in lines[0].lower()
    assert list(tmp_path.glob("settings.json.damaged-*"))
    surface = pygame.Surface((1024, 640))
    title.draw(surface)  # draws the wrapped line without error
    a.close_storage()
