"""The animation queue: sequential steps, each a set of card tweens started together.

A :class:`Step` is prepared when it *starts* (not when queued), so it moves cards from wherever
they are by then: the table queues one step per engine event and each step changes the display
model, then tweens every card whose place changed. ``speed`` scales durations (``off`` = 0, so
the queue drains in one update); ``skip()`` (a click) finishes everything at once. Tweens
interpolate rects with an ease-out curve; a ``flip`` tween turns the card face up halfway.

Reduced motion (``AnimationQueue.reduced``): nothing flies, slides or turns. Each tween puts its
card at the destination at once (face already as it ends) and fades it in there over at most
``FADE`` seconds; the pauses between steps stay, so a move can still be followed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

SPEEDS = {"off": 0.0, "fast": 0.45, "normal": 1.0}
FADE = 0.18

Box = tuple[float, float, float, float]


def ease_out(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def lerp_box(a: Box, b: Box, t: float) -> Box:
    return (
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
        a[3] + (b[3] - a[3]) * t,
    )


@dataclass
class Sprite:
    """A card as drawn: its box, whether its face shows, and its drawing order."""

    card: int
    box: Box
    face_up: bool = True
    z: int = 0
    lifted: bool = False
    alpha: int = 255


@dataclass
class Tween:
    sprite: Sprite
    start: Box
    end: Box
    delay: float
    duration: float
    face_up_at_end: bool | None = None
    fade: bool = False  # reduced motion: appear at the end and fade in, no movement

    def at(self, t: float) -> None:
        local = (t - self.delay) / self.duration if self.duration > 0 else 1.0
        if local <= 0:
            return
        if self.fade:
            self.sprite.box = self.end
            if self.face_up_at_end is not None:
                self.sprite.face_up = self.face_up_at_end
            self.sprite.alpha = round(255 * min(1.0, local))
            return
        self.sprite.box = lerp_box(self.start, self.end, ease_out(local))
        if self.face_up_at_end is not None and local >= 0.5:
            self.sprite.face_up = self.face_up_at_end

    def finish(self) -> None:
        self.sprite.box = self.end
        self.sprite.alpha = 255
        if self.face_up_at_end is not None:
            self.sprite.face_up = self.face_up_at_end


@dataclass
class Step:
    """``prepare()`` runs when the step starts and returns its tweens; ``hold`` is a pause after
    (scaled by the speed); ``beat`` the least the step lasts at any speed (not scaled)."""

    prepare: Callable[[], list[Tween]]
    hold: float = 0.0
    beat: float = 0.0
    label: str = ""
    on_done: Callable[[], None] | None = None
    tweens: list[Tween] = field(default_factory=list)
    length: float = 0.0


class AnimationQueue:
    """Steps run one after another; ``busy`` while any remain."""

    def __init__(self, speed: str = "normal", *, reduced: bool = False) -> None:
        self.steps: deque[Step] = deque()
        self.current: Step | None = None
        self.elapsed = 0.0
        self.speed = speed
        self.reduced = reduced

    @property
    def factor(self) -> float:
        return SPEEDS.get(self.speed, 1.0)

    @property
    def busy(self) -> bool:
        return self.current is not None or bool(self.steps)

    def push(self, step: Step) -> None:
        self.steps.append(step)

    def _start_next(self) -> None:
        self.current = self.steps.popleft()
        self.elapsed = 0.0
        tweens = self.current.prepare()
        f = self.factor
        for tw in tweens:
            tw.delay *= f
            tw.duration *= f
            if self.reduced and tw.duration > 0:
                tw.fade = True
                tw.duration = min(tw.duration, FADE)
                if tw.delay <= 0:
                    tw.at(1e-6)  # in place at once: not one frame at the old spot
        self.current.tweens = tweens
        self.current.length = max((tw.delay + tw.duration for tw in tweens), default=0.0)
        self.current.length += self.current.hold * f
        self.current.length = max(self.current.length, self.current.beat)

    def _finish_current(self) -> None:
        step = self.current
        assert step is not None
        for tw in step.tweens:
            tw.finish()
        self.current = None
        if step.on_done is not None:
            step.on_done()

    def update(self, dt: float) -> None:
        budget = dt
        guard = 0
        while guard < 10000:
            guard += 1
            if self.current is None:
                if not self.steps:
                    return
                self._start_next()
            step = self.current
            assert step is not None
            self.elapsed += budget
            if self.elapsed >= step.length:
                budget = self.elapsed - step.length
                self._finish_current()
                continue
            for tw in step.tweens:
                tw.at(self.elapsed)
            return

    def skip(self) -> None:
        """Finish every queued step now (click to skip)."""
        guard = 0
        while self.busy and guard < 10000:
            guard += 1
            if self.current is None:
                self._start_next()
            self._finish_current()


class AnimationClock:
    """The table's one clock: seconds of animation time.

    The table scene advances it every frame; a prompt pushed over the table advances the same
    clock (the stack updates only its top scene), so the cards and banners below and a prompt's
    staged reveal move on one time. Whatever must move with it subscribes with :meth:`on_tick`.
    """

    def __init__(self) -> None:
        self.now = 0.0
        self._ticks: list[Callable[[float], None]] = []

    def on_tick(self, fn: Callable[[float], None]) -> None:
        self._ticks.append(fn)

    def advance(self, dt: float) -> None:
        self.now += dt
        for fn in self._ticks:
            fn(dt)
