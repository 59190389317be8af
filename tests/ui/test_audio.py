"""Sound: effects are synthesised, short and audible; the player never fails without a device."""

from __future__ import annotations

import io
import itertools
import wave
from types import SimpleNamespace

import pygame
import pytest

from koikoi_desktop.ui import audio as audio


def peak(samples) -> int:
    return max(abs(v) for v in samples)


def rms(samples) -> float:
    return (sum(v * v for v in samples) / len(samples)) ** 0.5


@pytest.fixture
def player():
    a = audio.Audio(effects_volume=0.5, music_volume=0.4)
    yield a
    a.quit()


@pytest.mark.parametrize("name", audio.EFFECTS)
def test_effect_is_short_audible_and_in_range(name):
    s = audio.synthesize(name)
    seconds = len(s) / audio.RATE
    assert 0.05 <= seconds <= 2.0, (name, seconds)
    assert peak(s) == pytest.approx(audio.EFFECT_PEAK * 32767, rel=0.01)
    assert rms(s) > 600, name  # not near-silence
    assert abs(s[-1]) < 0.05 * 32767, name  # ends quietly: no click when it stops


def test_effects_are_deterministic_and_distinct():
    assert audio.synthesize("capture") == audio.synthesize("capture")
    made = {name: audio.synthesize(name) for name in audio.EFFECTS}
    names = list(made)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert made[a] != made[b], (a, b)


def test_unknown_effect_is_an_error():
    with pytest.raises(ValueError):
        audio.synthesize("applause")
    with pytest.raises(ValueError):
        audio.Audio().play("applause")


def zero_crossings_per_second(s) -> float:
    crossings = sum(1 for a, b in itertools.pairwise(s) if (a < 0) != (b < 0))
    return crossings / (len(s) / audio.RATE)


def test_won_melody_rises_and_lost_melody_falls():
    """Pitch estimated by zero crossings of the first and the last note of each melody."""

    def window(s, start, seconds=0.06):
        i = int(start * audio.RATE)
        return s[i : i + int(seconds * audio.RATE)]

    won, lost = audio.synthesize("round_won"), audio.synthesize("round_lost")
    assert zero_crossings_per_second(window(won, 0.09)) < zero_crossings_per_second(
        window(won, 0.41)
    )
    assert zero_crossings_per_second(window(lost, 0.01)) > zero_crossings_per_second(
        window(lost, 0.33)
    )


def test_melodies_fade_out():
    for name in ("yaku", "round_won", "round_lost"):
        s = audio.synthesize(name)
        half = len(s) // 2
        assert rms(s[half:]) < 0.5 * rms(s[:half]), name


def test_ambient_loop_is_quiet_long_and_seamless():
    s = audio.ambient_loop()
    assert len(s) == int(audio.AMBIENT_SECONDS * audio.AMBIENT_RATE)
    assert peak(s) <= audio.AMBIENT_PEAK * 32767 + 1
    assert peak(s) < 0.5 * peak(audio.synthesize("card_place"))
    # Seamless: the jump from the last sample to the first is no bigger than a typical step.
    steps = [abs(s[i + 1] - s[i]) for i in range(len(s) - 1)]
    typical = sorted(steps)[int(len(steps) * 0.99)]
    assert abs(s[0] - s[-1]) <= typical


def test_wav_bytes_round_trip():
    s = audio.synthesize("yaku")
    with wave.open(io.BytesIO(audio.to_wav_bytes(s))) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, audio.RATE)
        assert w.getnframes() == len(s)


def test_export_wavs(tmp_path):
    paths = audio.export_wavs(tmp_path)
    assert sorted(p.name for p in paths) == sorted(
        [f"{n}.wav" for n in audio.EFFECTS] + ["ambient.wav"]
    )
    assert all(p.stat().st_size > 1000 for p in paths)


def test_volumes_are_clamped():
    a = audio.Audio(effects_volume=3, music_volume=-1)
    assert (a.effects_volume, a.music_volume) == (1.0, 0.0)
    a.set_effects_volume(float("nan"))
    assert a.effects_volume == 0.0
    a.apply_settings(SimpleNamespace(sound_volume=25, music_volume=100, muted=True))
    assert (a.effects_volume, a.music_volume, a.muted) == (0.25, 1.0, True)


def test_init_with_dummy_driver_plays_without_error(player):
    """tests/conftest.py sets SDL_AUDIODRIVER=dummy: the mixer opens on a null device."""
    assert player.init() is True
    assert player.available and player.error is None
    player.wait_ready()
    assert sorted(player._sounds) == sorted(audio.EFFECTS)
    for name in audio.EFFECTS:
        player.play(name)
    player.set_effects_volume(0.3)
    assert player._sounds["capture"].get_volume() == pytest.approx(0.3, abs=0.01)
    player.start_music()
    player.wait_ready()
    assert player.music_playing
    player.set_music_volume(0.0)
    assert player._music_channel.get_volume() == 0.0
    player.set_music_volume(0.4)
    player.set_muted(True)
    player.play("capture")  # muted: nothing, no error
    player.set_muted(False)
    player.stop_music()
    player.quit()
    assert not player.available


def test_init_never_raises_without_a_device(monkeypatch, player):
    def broken_init(*args, **kwargs):
        raise pygame.error("No available audio device")

    if pygame.mixer.get_init():
        pygame.mixer.quit()
    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    assert player.init() is False
    assert not player.available
    assert "audio device" in (player.error or "")
    for name in audio.EFFECTS:
        player.play(name)  # silently nothing
    player.start_music()
    assert not player.music_playing
    player.set_muted(True)
    player.apply_settings(SimpleNamespace(sound_volume=50, music_volume=50, muted=False))
    player.quit()


def test_a_synthesis_bug_is_raised_not_turned_into_silence(monkeypatch, player):
    monkeypatch.setattr(audio, "synthesize", lambda name, rate=audio.RATE: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        player.init(background=False)


def test_a_background_synthesis_bug_reaches_the_main_thread(monkeypatch, player):
    monkeypatch.setattr(audio, "synthesize", lambda name, rate=audio.RATE: 1 / 0)
    assert player.init() is True  # the mixer opened; the effects fail on the worker thread
    with pytest.raises(ZeroDivisionError):
        player.wait_ready()  # taken on this thread, as App.loop's audio.update() does


def test_play_before_effects_are_ready_is_skipped(player):
    assert player.init() is True
    player.play("capture")  # may run before the worker finished: never an error
    player.wait_ready()
    assert player.ready and player.play("capture") is True


def test_play_says_whether_the_effect_started(player):
    assert player.play("capture") is False  # before init
    player.init(background=False)
    assert player.play("capture") is True
    player.set_effects_volume(0.0)
    assert player.play("capture") is False
    player.set_effects_volume(0.5)
    player.set_muted(True)
    assert player.play("capture") is False


def test_sounds_are_kept_between_runs_and_remade_when_damaged(tmp_path, monkeypatch):
    """The second start reads the sounds the first one made (no synthesis: it would fail
    here); a damaged file is made again; a folder of another version is removed."""
    cache = tmp_path / "cache"
    (cache / "sounds-old").mkdir(parents=True)
    (cache / "sounds-old" / "capture.wav").write_bytes(b"old")
    made = audio.cached_work("effects", cache)
    assert sorted(made) == sorted(audio.EFFECTS)
    folder = next(cache.glob("sounds-*"))
    assert folder.name != "sounds-old" and not (cache / "sounds-old").exists()
    monkeypatch.setattr(audio, "synthesize", lambda name, rate=audio.RATE: 1 / 0)
    assert audio.cached_work("effects", cache) == made  # read back, nothing synthesised
    a = audio.Audio(cache=cache)
    a.init()
    a.wait_ready()  # in the worker process, from the cache
    assert a.ready and a.play("capture")
    a.quit()
    (folder / "yaku.wav").write_bytes(made["yaku"][:100])  # cut short
    with pytest.raises(ZeroDivisionError):  # so it is made again (and synthesis is broken here)
        audio.cached_work("effects", cache)
    monkeypatch.undo()
    assert audio.cached_work("effects", cache) == made
    assert (folder / "yaku.wav").read_bytes() == made["yaku"]


def test_a_cache_that_cannot_be_written_still_gives_the_sounds(tmp_path):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder would be")
    assert audio.cached_work("ambient", blocker)[:4] == b"RIFF"


def _deaf_worker(work, cache=None):
    """A worker that, like one forked before it could take back SIGTERM, ignores it."""
    import signal
    import time

    signal.signal(signal.SIGTERM, lambda *_: None)
    time.sleep(60)


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGKILL"), reason="POSIX signals")
def test_cancel_ends_a_worker_forked_from_a_process_that_catches_sigterm(monkeypatch):
    import signal

    # SDL catches SIGTERM in the game; a forked worker inherits that handler.
    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        job = audio.SynthJob("effects")
        job.cancel()
        assert not job.process.is_alive()
        monkeypatch.setattr(audio, "cached_work", _deaf_worker)
        deaf = audio.SynthJob("effects")
        deaf.cancel()  # SIGTERM is ignored: SIGKILL ends it
        assert not deaf.process.is_alive()
    finally:
        signal.signal(signal.SIGTERM, previous)
