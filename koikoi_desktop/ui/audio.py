"""Sound: short effects and a quiet ambient loop, all synthesised by this module.

Decisions:

* **Synthesised at run time, not shipped as files.** Every sound is computed here with the
  ``array`` module (a Karplus-Strong plucked string for the koto-like notes, filtered noise for
  card sounds, a falling sine for the small drum), turned into an in-memory WAV and handed to
  ``pygame.mixer.Sound``. Nothing to license, nothing to lose from a broken install, and the sound
  "source" is this readable code. ``export_wavs(folder)`` writes them out to listen to.
  Measured cost: see ``benchmarks/text_audio.py``. The effects are made in a worker process
  (:class:`SynthJob`) once the first frame is drawn, the ambient loop when music first starts;
  ``Audio.update`` (once a frame) takes the results.
* **No device is an expected failure, a bug is not.** ``init`` catches only ``pygame.error``
  from opening the mixer (no audio device, a driver that refuses): ``available`` stays False,
  ``error`` says why (the app prints it as one line) and every call is a silent no-op. A
  synthesis error is a bug: it is raised again on the main thread (``update``), never turned into
  silence. ``play`` with an unknown name raises ``ValueError``.
* Volumes are floats 0..1 (``apply_settings`` reads the settings model's 0..100 integers);
  effects and music have separate volumes; ``muted`` silences both without forgetting them.
* Melodies use Japanese pentatonic scales: *yo* (bright) for good news, *in* / miyako-bushi
  (dark) for a lost round and the ambient loop.
* The ambient loop is seamless: its drone frequencies complete whole cycles in the loop's length
  and the tails of late notes wrap around to its start.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import io
import math
import multiprocessing.process
import random
import sys
import wave
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from koikoi_desktop.storage.models import Settings

from koikoi_desktop.chatter import native_chatter_filtered
from koikoi_desktop.processes import Worker
from koikoi_desktop.storage.atomic import atomic_write_bytes

RATE = 22050
AMBIENT_RATE = 16000  # the loop is dark and soft: a lower rate halves its making time
EFFECTS: tuple[str, ...] = (
    "deal",
    "card_place",
    "capture",
    "draw_flip",
    "yaku",
    "koikoi",
    "stop",
    "round_won",
    "round_lost",
    "match_won",
    "match_lost",
)
AMBIENT_SECONDS = 16.0
EFFECT_PEAK = 0.70
AMBIENT_PEAK = 0.22

Signal = list[float]

# ------------------------------------------------------------------------------ building blocks


def _silence(seconds: float, rate: int) -> Signal:
    return [0.0] * max(1, int(seconds * rate))


def _mix(
    dst: Signal | array[float],
    src: Signal,
    at: float,
    rate: int,
    gain: float = 1.0,
    *,
    wrap: bool = False,
) -> None:
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


def _pluck(
    freq: float,
    seconds: float,
    rate: int,
    rng: random.Random,
    *,
    brightness: float = 0.5,
    sustain: float = 0.996,
) -> Signal:
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


def _deal(rate: int, rng: random.Random) -> Signal:
    """A packet dealt: three quick, light taps, the last one firmest."""
    sig = _silence(0.16, rate)
    for i, gain in enumerate((0.45, 0.6, 0.9)):
        _mix(sig, _tap(rate, rng, bright=0.3 + 0.1 * i, body_hz=170.0), 0.03 * i, rate, gain)
    return sig


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


def _notes(
    rate: int,
    rng: random.Random,
    notes: list[tuple[float, int, float]],
    *,
    length: float,
    scale: list[int],
    brightness: float = 0.55,
    sustain: float = 0.997,
    ring: float = 0.35,
) -> Signal:
    """Plucked notes ``(start seconds, scale degree, gain)``, each fading with time constant
    ``ring`` so the effect dies away well before its end."""
    sig = _silence(length, rate)
    for at, degree, gain in notes:
        note = _pluck(
            _hz(scale[degree]), length - at, rate, rng, brightness=brightness, sustain=sustain
        )
        _mix(sig, _decay(note, ring, rate, attack=0.001), at, rate, gain)
    return sig


def _yaku(rate: int, rng: random.Random) -> Signal:
    return _notes(rate, rng, [(0.0, 2, 0.8), (0.09, 4, 0.85), (0.18, 7, 1.0)], length=0.9, scale=YO)


def _koikoi(rate: int, rng: random.Random) -> Signal:
    """ "Koi, koi!": two short rising pairs of notes over a small drum."""
    sig = _notes(
        rate,
        rng,
        [(0.0, 5, 0.8), (0.08, 7, 1.0), (0.24, 5, 0.8), (0.32, 7, 1.0)],
        length=0.75,
        scale=YO,
        brightness=0.7,
        sustain=0.994,
    )
    _mix(sig, _drum(0.35, rate), 0.0, rate, 0.9)
    _mix(sig, _drum(0.35, rate), 0.24, rate, 0.7)
    return sig


def _clack(rate: int, rng: random.Random) -> Signal:
    """One strike of the wooden clappers (hyoshigi): a bright click over a hollow ring."""
    n = int(0.12 * rate)
    click = _decay(_lowpass(_noise(n, rng), 0.75), 0.006, rate, attack=0.0003)
    ring = _decay(
        [math.sin(2 * math.pi * 930.0 * i / rate) for i in range(n)], 0.03, rate, attack=0.0005
    )
    return [c * 1.2 + r * 0.8 for c, r in zip(click, ring, strict=True)]


def _stop(rate: int, rng: random.Random) -> Signal:
    """ "Stop": two strikes of the clappers and a low drum under the second."""
    sig = _silence(0.45, rate)
    _mix(sig, _clack(rate, rng), 0.0, rate, 0.8)
    _mix(sig, _clack(rate, rng), 0.13, rate, 1.0)
    _mix(sig, _drum(0.3, rate, start_hz=110.0, end_hz=55.0), 0.13, rate, 0.6)
    return sig


def _round_won(rate: int, rng: random.Random) -> Signal:
    run = [
        (0.0, 0, 0.6),
        (0.08, 1, 0.65),
        (0.16, 2, 0.7),
        (0.24, 3, 0.75),
        (0.32, 4, 0.8),
        (0.40, 5, 0.9),
        (0.56, 5, 0.8),
        (0.56, 7, 0.7),
        (0.56, 8, 0.6),
    ]
    sig = _notes(rate, rng, run, length=1.6, scale=YO)
    _mix(sig, _drum(0.5, rate, start_hz=120.0, end_hz=55.0), 0.0, rate, 0.8)
    return sig


def _round_lost(rate: int, rng: random.Random) -> Signal:
    fall = [(0.0, 8, 0.8), (0.16, 7, 0.75), (0.32, 5, 0.7), (0.52, 4, 0.75), (0.52, 1, 0.5)]
    return _notes(rate, rng, fall, length=1.3, scale=IN, brightness=0.3, ring=0.3)


def _match_won(rate: int, rng: random.Random) -> Signal:
    """The match is won: the round's run played twice as high and wide, a drum on each chord."""
    run = [
        (0.0, 0, 0.55),
        (0.1, 2, 0.6),
        (0.2, 3, 0.65),
        (0.3, 4, 0.7),
        (0.4, 5, 0.8),
        (0.62, 3, 0.7),
        (0.62, 5, 0.8),
        (0.95, 5, 0.8),
        (0.95, 7, 0.8),
        (0.95, 9, 0.7),
    ]
    sig = _notes(rate, rng, run, length=2.0, scale=YO, ring=0.45)
    _mix(sig, _drum(0.5, rate, start_hz=120.0, end_hz=55.0), 0.0, rate, 0.7)
    _mix(sig, _drum(0.6, rate, start_hz=110.0, end_hz=50.0), 0.95, rate, 0.9)
    return sig


def _match_lost(rate: int, rng: random.Random) -> Signal:
    """The match is lost: a slow fall through the dark scale to a low, soft drum."""
    fall = [
        (0.0, 10, 0.7),
        (0.22, 8, 0.7),
        (0.44, 7, 0.7),
        (0.66, 5, 0.75),
        (0.95, 3, 0.8),
        (0.95, 0, 0.6),
    ]
    sig = _notes(rate, rng, fall, length=1.9, scale=IN, brightness=0.3, ring=0.4)
    _mix(sig, _drum(0.7, rate, start_hz=90.0, end_hz=45.0), 0.95, rate, 0.7)
    return sig


_MAKERS: dict[str, Callable[[int, random.Random], Signal]] = {
    "deal": _deal,
    "card_place": _card_place,
    "capture": _capture,
    "draw_flip": _draw_flip,
    "yaku": _yaku,
    "koikoi": _koikoi,
    "stop": _stop,
    "round_won": _round_won,
    "round_lost": _round_lost,
    "match_won": _match_won,
    "match_lost": _match_lost,
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
    """A quiet, seamless loop: a soft drone with sparse koto notes of the *in* scale.

    The loop is 256 000 samples: it is built in an ``array('d')`` (8 bytes a sample) rather
    than a list of floats (32), so making it costs the game a few MB of memory, not tens."""
    rng = random.Random("koikoi-ambient")
    n = int(seconds * rate)
    sig = array("d", bytes(8 * n))
    # Drone: A2 and E3 with a slow swell; whole cycles in the loop, so the seam is silent.
    for f, gain in ((110.0, 0.5), (165.0, 0.3), (220.0, 0.12)):
        cycles = round(f * seconds)
        w = 2 * math.pi * cycles / n
        swell_w = 2 * math.pi * 2 / n  # two swells per loop
        g = 0.35 * gain
        for i in range(n):
            sig[i] += g * math.sin(w * i) * (0.75 + 0.25 * math.sin(swell_w * i))
    t = 0.6
    while t < seconds:
        degree = rng.choice(range(3, len(IN)))
        note = _decay(
            _pluck(_hz(IN[degree]), 2.5, rate, rng, brightness=0.25, sustain=0.998), 0.8, rate
        )
        _mix(sig, note, t, rate, rng.uniform(0.35, 0.6), wrap=True)
        t += rng.choice((0.8, 1.2, 1.6, 2.4))
    top = max(max(sig), -min(sig)) or 1.0
    k = AMBIENT_PEAK * 32767 / top
    return array("h", (max(-32767, min(32767, int(v * k))) for v in sig))


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


def effect_wavs() -> dict[str, bytes]:
    """Every effect as an in-memory WAV file (what the player loads; ~0.3 s of CPU)."""
    return {name: to_wav_bytes(synthesize(name)) for name in EFFECTS}


def ambient_wav() -> bytes:
    """The ambient loop as an in-memory WAV file (~0.5 s of CPU)."""
    return to_wav_bytes(ambient_loop(), AMBIENT_RATE)


#: What a synthesis worker can be asked to make (by name: the worker process imports this
#: module itself, so no function object travels between processes).
WORKS: dict[str, Callable[[], Any]] = {"effects": effect_wavs, "ambient": ambient_wav}


def _source_tag() -> str:
    """What the cached sounds were made by: a digest of this module's source (the package
    version where the source is not a file, as in a frozen build)."""
    try:
        data = Path(__file__).read_bytes()
    except OSError:
        from koikoi_desktop import __version__

        data = __version__.encode()
    return hashlib.sha256(data).hexdigest()[:16]


def _read_cached(path: Path) -> bytes | None:
    """A cached WAV file, or None when it is missing or not a whole 16-bit mono WAV."""
    try:
        data = path.read_bytes()
        with wave.open(io.BytesIO(data)) as w:
            whole = w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getnframes() > 0
            whole = whole and len(data) >= 44 + 2 * w.getnframes()
    except (OSError, EOFError, wave.Error):
        return None
    return data if whole else None


def cached_work(work: str, cache: Path | None) -> Any:
    """``WORKS[work]()``, read from the sound cache under ``cache`` when this version of the
    module already made it there; made and written there otherwise.

    Decision: the cache is an optimisation (about a second of CPU saved at every start), never a
    source of truth. A missing, damaged or older file is made again; a cache that cannot be
    written (read-only folder, full disk) only means the next start makes the sounds again, so
    that failure is not reported. Folders of older versions are removed when a new one is
    written."""
    if cache is None:
        return WORKS[work]()
    folder = cache / f"sounds-{_source_tag()}"
    names = EFFECTS if work == "effects" else ("ambient",)
    found = {n: _read_cached(folder / f"{n}.wav") for n in names}
    if all(v is not None for v in found.values()):
        return found if work == "effects" else found["ambient"]
    made = WORKS[work]()
    files = made if work == "effects" else {"ambient": made}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            atomic_write_bytes(folder / f"{name}.wav", data)
        for old in cache.glob("sounds-*"):
            if old != folder and old.is_dir():
                for f in old.iterdir():
                    f.unlink()
                old.rmdir()
    except OSError:
        pass  # see the docstring: the sounds were made; only the saving for next time failed
    return made


class SynthJob:
    """One synthesis in a worker process, collected without blocking (``done`` / ``result``).

    Decision: a process, not a thread. Synthesis is ~1 s of pure-Python CPU; on a thread it held
    the interpreter lock in 5 ms slices, and every thread that releases the lock and wants it
    back — the frame loop after a flip, the computer opponent's worker thread — waited for the
    next slice: an autoplay match took twice as long while the sounds were being made. A worker
    process runs on another core and hands back bytes (~1 MB). Like the Expert's worker it
    runs on a :class:`koikoi_desktop.processes.Worker` (it dies with the game); it is
    a daemon, so quitting never waits for it, and ``cancel`` ends it at once.
    """

    def __init__(self, work: str, cache: Path | None = None) -> None:
        if work not in WORKS:
            raise ValueError(f"unknown synthesis {work!r}; expected one of {sorted(WORKS)}")
        self._worker = Worker(name=f"koikoi-{work}-synth")
        # The worker hands back the result or the error unchanged: raised by :meth:`result`,
        # so the crash handler reports a real bug
        # (``tests/ui/test_audio.py::test_a_background_synthesis_bug_reaches_the_main_thread``).
        self._future = self._worker.submit(cached_work, work, cache)

    @property
    def process(self) -> multiprocessing.process.BaseProcess | None:
        """The worker process."""
        return self._worker.process

    def done(self, timeout: float = 0.0) -> bool:
        """Whether the result (or an error, or the worker's end) is waiting."""
        return bool(cf.wait([self._future], timeout=timeout).done)

    def result(self) -> Any:
        """The worker's result; its exception is raised here. A worker that ended without an
        answer (killed from outside) is an error too (``BrokenProcessPool``)."""
        try:
            return self._future.result()
        finally:
            self._worker.stop()

    def cancel(self) -> None:
        """End the worker now (SIGKILL: a worker ignores SIGTERM, see
        :mod:`koikoi_desktop.processes`) and wait until it is gone."""
        self._worker.stop()
        self._worker.join(timeout=5.0)


class Audio:
    """The game's sound player. Construct freely; nothing happens until ``init()``.

    The app owns one (``App.audio``), opened after the window. Without an audio device ``init``
    returns False, ``error`` says why, and every call is a silent no-op.

    >>> a = Audio(effects_volume=2.0)
    >>> a.effects_volume, a.available
    (1.0, False)
    >>> a.play("capture")  # before init (or without a device): nothing, and False
    False
    """

    def __init__(
        self,
        *,
        effects_volume: float = 0.8,
        music_volume: float = 0.6,
        muted: bool = False,
        cache: Path | None = None,
    ) -> None:
        self.effects_volume = _clamp(effects_volume)
        self.music_volume = _clamp(music_volume)
        self.muted = bool(muted)
        self.available = False
        self.error: str | None = None  # why audio is unavailable, for the one log line
        #: Where made sounds are kept between runs (``cached_work``); None: made every time.
        self.cache = cache
        self._sounds: dict[str, Any] = {}
        self._music: Any = None
        self._music_channel: Any = None
        self._music_wanted = False
        self._effects_job: SynthJob | None = None
        self._effects_wanted = False
        self._music_job: SynthJob | None = None
        self._music_pending = False

    # -- life cycle
    def init(self, *, background: bool = True) -> bool:
        """Open the mixer; True when it opened, False (with ``error``) when there is no device.

        With ``background`` (the game's way) the effects are synthesised in a worker process so
        start-up does not wait; an effect played before they are ready is skipped.
        ``background=False`` makes them now.
        """
        if self.available:
            return True
        import pygame

        try:
            if not pygame.mixer.get_init():
                with native_chatter_filtered():
                    pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
        except pygame.error as exc:  # no audio device (or the driver refuses): play silently
            self.error = str(exc) or "the audio device did not open"
            return False
        if pygame.mixer.get_num_channels() < 8:
            pygame.mixer.set_num_channels(8)
        pygame.mixer.set_reserved(1)  # channel 0: the ambient loop
        self._music_channel = pygame.mixer.Channel(0)
        self.available = True
        self.error = None
        if background:
            self._effects_wanted = True  # started by the first update(): after a frame is drawn
        else:
            self._load_effects(cached_work("effects", self.cache))
        return True

    def update(self) -> None:
        """Take finished background synthesis (called once a frame by the app). A synthesis
        that failed raises its error here, on the caller's thread.

        The first call starts the synthesis: the app calls this after its first frame is on the
        screen, so start-up never shares the interpreter with it."""
        if not (
            self._effects_wanted or self._music_pending or self._effects_job or self._music_job
        ):
            return  # the usual frame: nothing under way
        if self._effects_wanted and self.available:
            self._effects_wanted = False
            self._effects_job = SynthJob("effects", self.cache)
        if self._music_pending and self.available:
            self._music_pending = False
            self._music_job = SynthJob("ambient", self.cache)
        job = self._effects_job
        if job is not None and job.done():
            self._effects_job = None
            self._load_effects(job.result())
        music = self._music_job
        if music is not None and music.done():
            self._music_job = None
            if self.available:
                import pygame

                self._music = pygame.mixer.Sound(file=io.BytesIO(music.result()))
                self._update_music()

    def _load_effects(self, wavs: dict[str, bytes]) -> None:
        if not self.available:
            return
        import pygame

        self._sounds = {name: pygame.mixer.Sound(file=io.BytesIO(w)) for name, w in wavs.items()}
        self._apply_volumes()

    @property
    def ready(self) -> bool:
        """Whether the effects are loaded (False before ``init`` or without a device)."""
        return bool(self._sounds)

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until background synthesis is done and taken (tests, benchmarks; the game never
        waits)."""
        self.update()  # starts what is still to be made
        for job in (self._effects_job, self._music_job):
            if job is not None:
                job.done(timeout)
        self.update()

    def quit(self) -> None:
        """Stop everything and close the mixer (safe to call at any time). A synthesis still
        running is stopped."""
        for job in (self._effects_job, self._music_job):
            if job is not None:
                job.cancel()
        if self.available:
            import pygame

            if pygame.mixer.get_init():
                pygame.mixer.stop()
                pygame.mixer.quit()
        self.available = False
        self._sounds = {}
        self._music = None
        self._music_channel = None
        self._music_wanted = False
        self._effects_job = None
        self._effects_wanted = False
        self._music_job = None
        self._music_pending = False

    # -- effects
    def play(self, name: str) -> bool:
        """Play effect ``name`` (one of ``EFFECTS``); True when it started. Nothing (False)
        while muted, at volume 0, without audio, before the effects are made, or when every
        channel is busy."""
        if name not in _MAKERS:
            raise ValueError(f"unknown sound {name!r}; expected one of {EFFECTS}")
        if not self.available or self.muted or self.effects_volume <= 0.0:
            return False
        if self._effects_job is not None or self._effects_wanted:
            self.update()
        sound = self._sounds.get(name)
        return sound is not None and sound.play() is not None

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
        return bool(
            self.available and self._music_channel is not None and self._music_channel.get_busy()
        )

    def _update_music(self) -> None:
        ch = self._music_channel
        if not self.available or ch is None:
            return
        audible = self._music_wanted and not self.muted and self.music_volume > 0.0
        if audible and self._music is None:
            self._music_pending = self._music_job is None  # update() starts the synthesis
        elif audible and not ch.get_busy():
            ch.play(self._music, loops=-1, fade_ms=1500)
        elif not audible and ch.get_busy():
            ch.fadeout(400)
        ch.set_volume(self.music_volume)

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
            import pygame

            for ch in range(1, pygame.mixer.get_num_channels()):
                pygame.mixer.Channel(ch).stop()
        self._update_music()

    def toggle_mute(self) -> bool:
        self.set_muted(not self.muted)
        return self.muted

    def apply_settings(self, settings: Settings) -> None:
        """Take ``sound_volume`` / ``music_volume`` (0..100) and ``muted`` from the settings."""
        self.effects_volume = _clamp(settings.sound_volume / 100.0)
        self.music_volume = _clamp(settings.music_volume / 100.0)
        self.set_muted(settings.muted)
        self._apply_volumes()

    def _apply_volumes(self) -> None:
        for sound in self._sounds.values():
            sound.set_volume(self.effects_volume)


def _clamp(volume: float) -> float:
    try:
        v = float(volume)
    except (TypeError, ValueError):
        return 0.0
    if math.isnan(v):
        return 0.0
    return min(1.0, max(0.0, v))
