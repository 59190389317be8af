"""Sound cues: one map from what the table shows to the effects, the app's one audio player, and
the settings screen changing it while the game runs (headless, dummy audio driver)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import engine, scenes
from koikoi_desktop.engine import events as ev_
from koikoi_desktop.i18n import ENGLISH, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.storage import Storage
from koikoi_desktop.ui import audio as audio
from koikoi_desktop.ui import sound_cues
from koikoi_desktop.ui.sound_cues import CUES, ENDINGS, SoundCues


class FakeAudio:
    """Records what was played."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> bool:
        assert name in audio.EFFECTS
        self.played.append(name)
        return True


def test_every_effect_has_a_cue_and_every_cue_an_effect() -> None:
    used = set(CUES.values()) | {e for pair in ENDINGS.values() for e in pair}
    assert used == set(audio.EFFECTS)


def _event(kind: str, player: int | None) -> Any:
    """An engine event of ``kind`` about ``player`` (the winner, for the ends)."""
    p = 0 if player is None else player
    return {
        "discard": lambda: ev_.Discarded(p, 1),
        "play": lambda: ev_.Played(p, 1, (2,)),
        "draw": lambda: ev_.Drew(p, 1, (2,)),
        "sweep": lambda: ev_.Swept(p, (1, 2), 1),
        "draw_pending": lambda: ev_.DrawPending(p, 1, (2, 3)),
        "yaku": lambda: ev_.YakuMade(p, 6, ("inoshikacho",)),
        "koikoi": lambda: ev_.KoiKoiCalled(p, 1),
        "stop": lambda: ev_.Stopped(p, 6),
        "round_over": lambda: ev_.RoundOver(player, 6, ev_.RoundEnd.STOP),
        "exchange": lambda: ev_.ExchangeDecided(p, True),
        "match_over": lambda: ev_.MatchOver(player, ev_.MatchEnd.ROUNDS),
    }[kind]()


@pytest.mark.parametrize(
    ("moment", "kind", "player", "ours", "want"),
    [
        ("deal", "", None, (0,), "deal"),
        ("place", "discard", 0, (0,), "card_place"),
        ("onto", "play", 1, (0,), "card_place"),
        ("capture", "draw", 1, (0,), "capture"),
        ("capture", "sweep", 0, (0,), "capture"),
        ("flip", "draw_pending", 0, (0,), "draw_flip"),
        ("announce", "yaku", 1, (0,), "yaku"),
        ("announce", "koikoi", 0, (0,), "koikoi"),
        ("announce", "stop", 1, (0,), "stop"),
        ("announce", "round_over", 0, (0,), "round_won"),
        ("announce", "round_over", 0, (1,), "round_lost"),
        ("announce", "round_over", None, (0,), None),
        ("announce", "exchange", 0, (0,), None),
        ("result", "match_over", 1, (1,), "match_won"),
        ("result", "match_over", 1, (0,), "match_lost"),
    ],
)
def test_effect_for(
    moment: str, kind: str, player: int | None, ours: tuple[int, ...], want: str | None
) -> None:
    ev = _event(kind, player) if kind else None
    assert SoundCues.effect_for(moment, ev, ours) == want


def test_a_burst_plays_once_and_is_logged(monkeypatch: Any) -> None:
    fake, log = FakeAudio(), io.StringIO()
    cues = SoundCues(fake, log=log)
    clock = [100.0]
    monkeypatch.setattr(sound_cues.time, "perf_counter", lambda: clock[0])
    for _ in range(5):  # a skipped animation starts its steps in one frame
        cues.show("capture", SimpleNamespace(kind="play", player=0))
    cues.show("flip", SimpleNamespace(kind="draw", player=0))  # too close to the capture
    clock[0] += sound_cues.GAP_S + 0.01  # the next moment, at a person's pace
    cues.show("flip", SimpleNamespace(kind="draw", player=0))
    assert fake.played == ["capture", "draw_flip"]
    lines = [line.split("\t") for line in log.getvalue().splitlines()]
    assert [(x[1], x[2]) for x in lines] == [("capture", "played")] + [
        ("capture", "repeat")
    ] * 4 + [("draw_flip", "repeat"), ("draw_flip", "played")]
    assert all(x[3] == "-1" for x in lines)  # not the disk driver: no byte position


def test_ours_are_the_human_seats() -> None:
    assert sound_cues.ours(("human", "expert")) == [0]
    assert sound_cues.ours(("expert", "human")) == [1]
    assert sound_cues.ours(("human", "human")) == [0, 1]
    assert sound_cues.ours(("beginner", "expert")) == [0]


# ------------------------------------------------------------------------- through the table


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    args = appmod.parse_args(["--data-dir", str(tmp_path / "data"), "--speed", "fast"])
    a = appmod.App(args)
    appmod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.stack.push(scenes.create("title", a))
    yield a
    while a.stack.top is not None:
        a.stack.pop()
    if a.audio is not None:
        a.audio.quit()
    pygame.display.quit()


def test_the_table_cues_each_animated_moment_in_order(
    app: Any, monkeypatch: Any, pump_fn: Any
) -> None:
    fake = FakeAudio()
    app.cues = SoundCues(fake)
    monkeypatch.setattr(sound_cues, "REPEAT_S", 0.0)
    monkeypatch.setattr(sound_cues, "GAP_S", 0.0)
    cfg = MatchConfig(engine.PRESETS["nintendo"], ("intermediate", "intermediate"), seed=11)
    t = TableScene(app, screens.Table(config=cfg, autoplay=True))
    app.stack.push(t)
    shown: list[Any] = []
    real = t.director.play

    def spy(events: Any) -> None:
        events = list(events)
        shown.extend(events)
        real(events)

    monkeypatch.setattr(t.director, "play", spy)
    assert pump_fn(
        t,
        lambda: (
            (t.match is not None and bool(t.match.ledger) and not t.queue.busy)
            or app.stack.top.name == "match-result"
        ),
        60,
    )
    played = fake.played
    assert played[0] == "deal"  # the deal comes first, packet by packet
    assert played.count("deal") >= 4
    captures = sum(
        1
        for e in shown
        if (isinstance(e, (ev_.Played, ev_.GajiPaired, ev_.Drew)) and e.captured)
        or isinstance(e, ev_.Swept)
    )
    assert captures >= 3 and played.count("capture") == captures
    draws = sum(1 for e in shown if e.kind in ("draw", "draw_pending"))
    assert played.count("draw_flip") >= draws > 0
    ended = [e for e in shown if isinstance(e, ev_.RoundOver)]
    if ended and ended[0].winner is not None:  # seat 0 stands for "us" between computers
        assert ("round_won" if ended[0].winner == 0 else "round_lost") in played


# ------------------------------------------------------------------------- the app's player


@pytest.fixture
def disk_audio(monkeypatch: Any, tmp_path: Path) -> None:
    """SDL's disk driver: a real mixer writing to a file (the dummy driver opens nothing)."""
    if pygame.mixer.get_init():
        pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "disk")
    monkeypatch.setenv("SDL_DISKAUDIOFILE", str(tmp_path / "out.raw"))


def test_the_dummy_driver_opens_no_mixer(app: Any) -> None:
    app.open_audio()
    assert isinstance(app.audio, audio.Audio) and not app.audio.available
    assert not pygame.mixer.get_init()
    assert app.cues.show("capture", SimpleNamespace(kind="play", player=0)) == "capture"


def test_the_app_opens_one_player_after_the_window(app: Any, disk_audio: None) -> None:
    app.open_audio()
    assert isinstance(app.audio, audio.Audio) and app.audio.available
    assert app.cues.audio is app.audio
    app.audio.wait_ready()
    assert app.audio.ready and app.audio.music_playing
    assert app.cues.show("capture", SimpleNamespace(kind="play", player=0)) == "capture"


def test_no_audio_device_is_one_line_and_a_silent_game(
    app: Any, monkeypatch: Any, capsys: Any, disk_audio: None
) -> None:
    if pygame.mixer.get_init():
        pygame.mixer.quit()

    def no_device(*args: Any, **kwargs: Any) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    app.open_audio()
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["koikoi-desktop: playing without sound (No available audio device)"]
    assert not app.audio.available
    assert app.cues.show("capture", SimpleNamespace(kind="play", player=0)) == "capture"
    app.audio.update()
    app.stack.update(1 / 60)  # the game goes on


def test_settings_sliders_and_mute_change_the_player_live_and_are_saved(
    app: Any, tmp_path: Path, disk_audio: None
) -> None:
    app.open_audio()
    app.audio.wait_ready()
    s = app.stack.push(scenes.create("settings", app))
    rows = {say(w.label, ENGLISH): w for _, w in s.rows if callable(getattr(w, "label", None))}

    left = SimpleNamespace(kind="left")
    effects = rows[ENGLISH.t("ui.settings.sound_volume")]
    for _ in range(4):  # 80 -> 60
        effects.key(left)
    assert app.audio.effects_volume == pytest.approx(0.6)
    assert app.audio._sounds["capture"].get_volume() == pytest.approx(0.6, abs=0.01)
    music = rows[ENGLISH.t("ui.settings.music_volume")]
    for _ in range(12):  # 60 -> 0: the loop fades out
        music.key(left)
    assert app.audio.music_volume == 0.0
    mute = rows[ENGLISH.t("ui.settings.muted")]
    mute.step(1)  # off -> on, as a click does
    assert app.audio.muted and app.audio.play("capture") is False
    saved = Storage.open(tmp_path / "data").settings
    assert (saved.sound_volume, saved.music_volume, saved.muted) == (60, 0, True)
