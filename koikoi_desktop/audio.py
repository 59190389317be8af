"""Sound: short effects and a quiet ambient loop, all synthesised by this module.

Decisions:

* **Synthesised at run time, not shipped as files.** Every sound is computed here with the
  ``array`` module (a Karplus-Strong plucked string for the koto-like notes, filtered noise for
  card sounds, a falling sine for the small drum), turned into an in-memory WAV and handed to
  ``pygame.mixer.Sound``. Nothing to license, nothing to lose from a broken install, and the sound
  "source" is this readable code. ``export_wavs(folder)`` writes them out to listen to.
  Measured cost: see ``benchmarks/bench_audio.py`` (effects are made in ``init``; the ambient loop
  only when music first starts).
* **Never raises from** ``init``: no audio device, ``SDL_AUDIODRIVER=dummy``, a missing mixer
  module, or any synthesis error leaves ``available`` False and every call a silent no-op.
  ``play`` with an unknown name raises ``ValueError`` (a programming error, caught by tests).
* Volumes are floats 0..1 (``apply_settings`` reads the settings model's 0..100 integers);
  effects and music have separate volumes; ``muted`` silences both without forgetting them.
* Melodies use Japanese pentatonic scales: *yo* (bright) for good news, *in* / miyako-bushi
  (dark) for a lost round and the ambient loop.
* The ambient loop is seamless: its drone frequencies complete whole cycles in the loop's length
  and the tails of late notes wrap around to its start.
"""

from __future__ import annotations

import contextlib
import io
import math
import random
import sys
import threading
import wave
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

RATE = 22050
AMBIENT_RATE = 16000  # the loop is dark and soft: a lower rate halves its making time
EFFECTS: tuple[str, ...] = (
    "card_place", "capture", "draw_flip", "yaku", "koikoi", "round_won", "round_lost",
)
AMBIENT_SECONDS = 16.0
EFFECT_PEAK = 0.70
AMBIENT_PEAK = 0.22

Signal = list[float]

# ------------------------------------------------------------------------------ building blocks


def _silence(seconds: float, rate: int) -> Signal:
    return [0.0] * max(1, int(seconds * rate))


def _mix(dst: Signal, src: Signal, at: float, rate: int, gain: float = 1.0,
         *, wrap: bool = False) -> None:
    """Add ``src`` into ``dst`` starting at ``at`` seconds (cut at the end, or wrapped round)."""
    start = int(at * rate)
    n = len(dst)
    for i, v in enumerate(src):
        j = start + i
        if j >= n:
            if not wrap:
                break
            j %= n
        dst[j] += v * gain


def _lowpass(sig: Signal, alpha: float) -> Signal:
    """One-pole low-pass: ``alpha`` near 0 is dark, 1 passes everything."""
    out, y = [], 0.0
    for x in sig:
        y += alpha * (x - y)
        out.append(y)
    return out


def _noise(n: int, rng: random.Random) -> Signal:
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def _decay(sig: Signal, seconds: float, rate: int, attack: float = 0.002) -> Signal:
    """Multiply by a short linear attack and an exponential decay (time constant ``seconds``)."""
    k = math.exp(-1.0 / (seconds * rate))
    a = max(1, int(attack * rate))
    env, out = 1.0, []
    for i, x in enumerate(sig):
        out.append(x * env * (i / a if i < a else 1.0))
        env *= k
    return out


def _pluck(freq: float, seconds: float, rate: int, rng: random.Random, *,
           brightness: float = 0.5, sustain: float = 0.996) -> Signal:
    """A plucked string (Karplus-Strong): a noise burst recirculated through an averaging loop."""
    period = max(2, round(rate / freq))
    buf = _lowpass(_noise(period, rng), 0.15 + 0.8 * brightness)
    mean = sum(buf) / period
    buf = [b - mean for b in buf]
    out: Signal = []
    n = int(seconds * rate)
    idx = 0
    for _ in range(n):
        cur = buf[idx]
        nxt = buf[(idx + 1) % period]
        out.append(cur)
        buf[idx] = sustain * 0.5 * (cur + nxt)
        idx = (idx + 1) % period
    fade = min(n, int(0.03 * rate))  # no click where the note is cut
    for i in range(fade):
        out[n - fade + i] *= 1.0 - i / fade
    return out


def _drum(seconds: float, rate: int, *, start_hz: float = 150.0, end_hz: float = 60.0) -> Signal:
    """A soft low drum: a sine whose pitch falls, with a fast decay."""
    n = int(seconds * rate)
    out, phase = [], 0.0
    for i in range(n):
        f = end_hz + (start_hz - end_hz) * math.exp(-i / (0.03 * rate))
        phase += 2 * math.pi * f / rate
        out.append(math.sin(phase))
    return _decay(out, seconds / 4, rate, attack=0.001)


def _tap(rate: int, rng: random.Random, *, bright: float = 0.2, body_hz: float = 140.0) -> Signal:
    """A card set down on felt: a dull noise click over a short low thump."""
    n = int(0.09 * rate)
    click = _decay(_lowpass(_noise(n, rng), bright), 0.012, rate, attack=0.0008)
    thump = _decay([math.sin(2 * math.pi * body_hz * i / rate) for i in range(n)], 0.02, rate)
    return [c * 1.6 + t * 0.5 for c, t in zip(click, thump, strict=True)]


def _normalise(sig: Signal, peak: float) -> Signal:
    top = max((abs(v) for v in sig), default=0.0)
    if top == 0.0:
        return sig
    return [v * peak / top for v in sig]


def _hz(semitones_from_a4: float) -> float:
    return float(440.0 * 2.0 ** (semitones_from_a4 / 12.0))


# Scale degrees as semitones from A4. Yo (bright): D E G A B; in / miyako-bushi (dark): A Bb D E F.
YO = [-7, -5, -2, 0, 2, 5, 7, 10, 12, 14]
IN = [-12, -11, -7, -5, -4, 0, 1, 5, 7, 8, 12]

# ------------------------------------------------------------------------------------ effects


def _card_place(rate: int, rng: random.Random) -> Signal:
    sig = _silence(0.10, rate)
    _mix(sig, _tap(rate, rng), 0.0, rate)
    return sig


def _capture(rate: int, rng: random.Random) -> Signal:
    sig = _silence(0.20, rate)
    _mix(sig, _tap(rate, rng, bright=0.25), 0.0, rate, 0.8)
    _mix(sig, _tap(rate, rng, bright=0.55, body_hz=220.0), 0.055, rate, 1.0)
    return sig


def _draw_flip(rate: int, rng: random.Random) -> Signal:
    """A card turned over: a short rising swish of air, then a light tap."""
    n = int(0.12 * rate)
    noise = _noise(n, rng)
    out, lo, lo2 = [], 0.0, 0.0
    for i, x in enumerate(noise):
        p = i / n
        alpha = 0.05 + 0.5 * p  # the band rises as the card turns
        lo += alpha * (x - lo)
        lo2 += 0.02 * (lo - lo2)
        out.append((lo - lo2) * math.sin(math.pi * p) ** 2)
    sig = _silence(0.18, rate)
    _mix(sig, out, 0.0, rate, 1.0)
    _mix(sig, _tap(rate, rng, bright=0.35, body_hz=180.0), 0.105, rate, 0.45)
    return sig


def _notes(rate: int, rng: random.Random, notes: list[tuple[float, int, float]], *,
           length: float, scale: list[int], brightness: float = 0.55,
           sustain: float = 0.997, ring: float = 0.35) -> Signal:
    """Plucked notes ``(start seconds, scale degree, gain)``, each fading with time constant
    ``ring`` so the effect dies away well before its end."""
    sig = _silence(length, rate)
    for at, degree, gain in notes:
        note = _pluck(_hz(scale[degree]), length - at, rate, rng,
                      brightness=brightness, sustain=sustain)
        _mix(sig, _decay(note, ring, rate, attack=0.001), at, rate, gain)
    return sig


def _yaku(rate: int, rng: random.Random) -> Signal:
    return _notes(rate, rng, [(0.0, 2, 0.8), (0.09, 4, 0.85), (0.18, 7, 1.0)],
                  length=0.9, scale=YO)


def _koikoi(rate: int, rng: random.Random) -> Signal:
    """"Koi, koi!": two short rising pairs of notes over a small drum."""
    sig = _notes(rate, rng, [(0.0, 5, 0.8), (0.08, 7, 1.0), (0.24, 5, 0.8), (0.32, 7, 1.0)],
                 length=0.75, scale=YO, brightness=0.7, sustain=0.994)
    _mix(sig, _drum(0.35, rate), 0.0, rate, 0.9)
    _mix(sig, _drum(0.35, rate), 0.24, rate, 0.7)
    return sig


def _round_won(rate: int, rng: random.Random) -> Signal:
    run = [(0.0, 0, 0.6), (0.08, 1, 0.65), (0.16, 2, 0.7), (0.24, 3, 0.75), (0.32, 4, 0.8),
           (0.40, 5, 0.9), (0.56, 5, 0.8), (0.56, 7, 0.7), (0.56, 8, 0.6)]
    sig = _notes(rate, rng, run, length=1.6, scale=YO)
    _mix(sig, _drum(0.5, rate, start_hz=120.0, end_hz=55.0), 0.0, rate, 0.8)
    return sig


def _round_lost(rate: int, rng: random.Random) -> Signal:
    fall = [(0.0, 8, 0.8), (0.16, 7, 0.75), (0.32, 5, 0.7), (0.52, 4, 0.75), (0.52, 1, 0.5)]
    return _notes(rate, rng, fall, length=1.3, scale=IN, brightness=0.3, ring=0.3)


_MAKERS: dict[str, Callable[[int, random.Random], Signal]] = {
    "card_place": _card_place,
    "capture": _capture,
    "draw_flip": _draw_flip,
    "yaku": _yaku,
    "koikoi": _koikoi,
    "round_won": _round_won,
    "round_lost": _round_lost,
}


def synthesize(name: str, rate: int = RATE) -> array[int]:
    """The 16-bit mono samples of effect ``name`` (deterministic: same input, same samples).

    >>> len(synthesize("card_place")) == int(0.10 * RATE)
    True
    """
    maker = _MAKERS.get(name)
    if maker is None:
        raise ValueError(f"unknown sound {name!r}; expected one of {EFFECTS}")
    rng = random.Random(f"koikoi-{name}")
    return _to_int16(_normalise(maker(rate, rng), EFFECT_PEAK))


def ambient_loop(rate: int = AMBIENT_RATE, seconds: float = AMBIENT_SECONDS) -> array[int]:
    """A quiet, seamless loop: a soft drone with sparse koto notes of the *in* scale."""
    rng = random.Random("koikoi-ambient")
    n = int(seconds * rate)
    sig = [0.0] * n
    # Drone: A2 and E3 with a slow swell; whole cycles in the loop, so the seam is silent.
    for f, gain in ((110.0, 0.5), (165.0, 0.3), (220.0, 0.12)):
        cycles = round(f * seconds)
        w = 2 * math.pi * cycles / n
        swell_w = 2 * math.pi * 2 / n  # two swells per loop
        for i in range(n):
            sig[i] += gain * math.sin(w * i) * (0.75 + 0.25 * math.sin(swell_w * i))
    sig = [0.35 * v for v in sig]
    t = 0.6
    while t < seconds:
        degree = rng.choice(range(3, len(IN)))
        note = _decay(_pluck(_hz(IN[degree]), 2.5, rate, rng, brightness=0.25, sustain=0.998),
                      0.8, rate)
        _mix(sig, note, t, rate, rng.uniform(0.35, 0.6), wrap=True)
        t += rng.choice((0.8, 1.2, 1.6, 2.4))
    return _to_int16(_normalise(sig, AMBIENT_PEAK))


def _to_int16(sig: Signal) -> array[int]:
    return array("h", (max(-32767, min(32767, int(v * 32767))) for v in sig))


def to_wav_bytes(samples: array[int], rate: int = RATE) -> bytes:
    """A mono 16-bit WAV file, in memory."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        data = array("h", samples)
        if data.itemsize != 2:  # pragma: no cover - 'h' is 2 bytes on every supported platform
            raise RuntimeError("array('h') is not 16-bit here")
        if sys.byteorder == "big":  # WAV is little-endian
            data.byteswap()
        w.writeframes(data.tobytes())
    return buf.getvalue()


def export_wavs(folder: Path | str) -> list[Path]:
    """Write every effect and the ambient loop as WAV files into ``folder`` (for listening)."""
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in EFFECTS:
        path = out_dir / f"{name}.wav"
        path.write_bytes(to_wav_bytes(synthesize(name)))
        paths.append(path)
    path = out_dir / "ambient.wav"
    path.write_bytes(to_wav_bytes(ambient_loop(), AMBIENT_RATE))
    paths.append(path)
    return paths


# -------------------------------------------------------------------------------------- player


class Audio:
    """The game's sound player. Construct freely; nothing happens until ``init()``.

    >>> a = Audio(effects_volume=2.0)
    >>> a.effects_volume, a.available
    (1.0, False)
    >>> a.play("capture")  # before init (or without a device): silently nothing
    """

    def __init__(self, *, effects_volume: float = 0.8, music_volume: float = 0.6,
                 muted: bool = False) -> None:
        self.effects_volume = _clamp(effects_volume)
        self.music_volume = _clamp(music_volume)
        self.muted = bool(muted)
        self.available = False
        self.error: str | None = None  # why audio is unavailable, for a log line
        self._sounds: dict[str, Any] = {}
        self._music: Any = None
        self._music_channel: Any = None
        self._music_wanted = False
        self._music_thread: threading.Thread | None = None
        self._effects_thread: threading.Thread | None = None

    # -- life cycle
    def init(self, *, background: bool = True) -> bool:
        """Open the mixer; True when it opened. Never raises.

        With ``background`` (the game's way) the effects are synthesised on a daemon thread
        (~0.2 s of CPU) so start-up does not wait; an effect played before they are ready is
        skipped. ``background=False`` makes them now and returns False if that fails.
        """
        if self.available:
            return True
        try:
            import pygame

            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
            if pygame.mixer.get_num_channels() < 8:
                pygame.mixer.set_num_channels(8)
            pygame.mixer.set_reserved(1)  # channel 0: the ambient loop
            self._music_channel = pygame.mixer.Channel(0)
        except Exception as exc:  # no device, no mixer, anything: run silently
            self._fail(exc)
            return False
        self.available = True
        self.error = None
        if not background:
            return self._make_effects()
        self._effects_thread = threading.Thread(
            target=self._make_effects, name="effects-synth", daemon=True)
        self._effects_thread.start()
        return True

    def _make_effects(self) -> bool:
        try:
            import pygame

            sounds = {
                name: pygame.mixer.Sound(file=io.BytesIO(to_wav_bytes(synthesize(name))))
                for name in EFFECTS
            }
        except Exception as exc:
            self._fail(exc)
            return False
        self._sounds = sounds
        self._apply_volumes()
        return True

    def _fail(self, exc: BaseException) -> None:
        self.available = False
        self.error = f"{type(exc).__name__}: {exc}"
        self._sounds = {}
        self._music_channel = None

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until background synthesis is done (tests, benchmarks; the game never waits)."""
        for thread in (self._effects_thread, self._music_thread):
            if thread is not None:
                thread.join(timeout)

    def quit(self) -> None:
        """Stop everything and close the mixer (safe to call at any time)."""
        self.wait_ready()
        try:
            self.stop_music()
            if self.available:
                import pygame

                pygame.mixer.stop()
                pygame.mixer.quit()
        except Exception:
            pass
        self.available = False
        self._sounds = {}
        self._music = None
        self._music_channel = None
        self._music_thread = None
        self._effects_thread = None

    # -- effects
    def play(self, name: str) -> None:
        """Play effect ``name`` (one of ``EFFECTS``) unless muted or without audio."""
        if name not in _MAKERS:
            raise ValueError(f"unknown sound {name!r}; expected one of {EFFECTS}")
        if not self.available or self.muted or self.effects_volume <= 0.0:
            return
        sound = self._sounds.get(name)  # None while the effects are still being made
        if sound is not None:
            with contextlib.suppress(Exception):
                sound.play()

    # -- ambient loop
    def start_music(self) -> None:
        """Start the ambient loop (made on first use); kept off while muted or at volume 0."""
        self._music_wanted = True
        self._update_music()

    def stop_music(self) -> None:
        self._music_wanted = False
        self._update_music()

    @property
    def music_playing(self) -> bool:
        try:
            return bool(self._music_channel is not None and self._music_channel.get_busy())
        except Exception:
            return False

    def _update_music(self) -> None:
        if not self.available or self._music_channel is None:
            return
        try:
            audible = self._music_wanted and not self.muted and self.music_volume > 0.0
            if audible and self._music is None:
                self._make_music_in_background()  # calls back here when the loop is ready
            elif audible and not self._music_channel.get_busy():
                self._music_channel.play(self._music, loops=-1, fade_ms=1500)
            elif not audible and self._music_channel.get_busy():
                self._music_channel.fadeout(400)
            self._music_channel.set_volume(self.music_volume)
        except Exception:
            pass

    def _make_music_in_background(self) -> None:
        """Synthesise the loop (~0.3 s of CPU) on a daemon thread so no frame stalls."""
        if self._music_thread is not None:
            return

        def work() -> None:
            try:
                import pygame

                wav = to_wav_bytes(ambient_loop(), AMBIENT_RATE)
                if self.available:
                    self._music = pygame.mixer.Sound(file=io.BytesIO(wav))
                    self._update_music()
            except Exception as exc:
                self.error = f"ambient loop: {type(exc).__name__}: {exc}"

        self._music_thread = threading.Thread(target=work, name="ambient-synth", daemon=True)
        self._music_thread.start()

    # -- volumes
    def set_effects_volume(self, volume: float) -> None:
        self.effects_volume = _clamp(volume)
        self._apply_volumes()

    def set_music_volume(self, volume: float) -> None:
        self.music_volume = _clamp(volume)
        self._update_music()

    def set_muted(self, muted: bool) -> None:
        self.muted = bool(muted)
        if self.muted and self.available:
            try:
                import pygame

                for ch in range(1, pygame.mixer.get_num_channels()):
                    pygame.mixer.Channel(ch).stop()
            except Exception:
                pass
        self._update_music()

    def toggle_mute(self) -> bool:
        self.set_muted(not self.muted)
        return self.muted

    def apply_settings(self, settings: Any) -> None:
        """Take ``sound_volume`` / ``music_volume`` (0..100) and ``muted`` from the settings."""
        self.effects_volume = _clamp(getattr(settings, "sound_volume", 80) / 100.0)
        self.music_volume = _clamp(getattr(settings, "music_volume", 60) / 100.0)
        self.muted = bool(getattr(settings, "muted", False))
        self._apply_volumes()
        self._update_music()

    def _apply_volumes(self) -> None:
        for sound in self._sounds.values():
            with contextlib.suppress(Exception):
                sound.set_volume(self.effects_volume)


def _clamp(volume: float) -> float:
    try:
        v = float(volume)
    except (TypeError, ValueError):
        return 0.0
    if math.isnan(v):
        return 0.0
    return min(1.0, max(0.0, v))
