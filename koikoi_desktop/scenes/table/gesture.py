"""The table's gesture machine: one object owns what the pointer is doing with the cards.

No pygame and no drawing (``tests/ui/test_gesture.py`` drives it without a window). A press,
a drag, a click, hovering and a long press, the card held and where it is held, and every
threshold live here and nowhere else. The machine is fed pointer intents (press, move,
release, the right button) together with the layout's answers about the point (:class:`Hit`:
which card is under it, which lit card a held card overlaps most, whether it is in the field),
and what the table allows now (:class:`Table`: the cards that may be lifted, the lifted card's
lit targets, click to move). It answers with typed commands for the controller, in order:

* :class:`Lift` — a card that may move was pressed: it is lifted and held;
* :class:`Follow` — the held card passed the drag threshold: it follows the pointer (the
  Director puts it at :meth:`Gesture.held_box`);
* :class:`Aim` — the held (or lifted) card points at a lit target (0: none);
* :class:`LetGo` — a click ended: the card stays lifted for a second click;
* :class:`Drop` — a drag ended, or a second click was made, on a target or the field;
* :class:`PutBack` — nothing is held any more (a long press ended, the right button);
* :class:`Inspect` — show a card enlarged with its facts (0: hide it).

A long press (``LONG_PRESS`` still) shows the pressed card; released there, it puts the card
back and plays nothing; moved past the drag threshold, it becomes a drag like any other (issue
43: the card flew back). A press on the enlarged card's pop-up presses that card. Hovering
(the pointer still for ``HOVER_DELAY`` on a face-up card, nothing held, moved since the last
press or release) shows the card; the keyboard's I shows one until other input.

The machine keeps no copy of the controller's state: the lifted card, what is aimed at and
what is shown enlarged come in with each :class:`Table`, and a command changes them.
"""

from __future__ import annotations

from dataclasses import dataclass

Pos = tuple[int, int]
Box = tuple[float, float, float, float]

#: Pixels (city-block) the pointer must travel with a press held before it is a drag (else it
#: is a click, or a long press).
DRAG_THRESHOLD = 6
#: Seconds the pointer rests on a card before it is shown enlarged.
HOVER_DELAY = 0.35
#: Seconds a press is held still before it is a long press (the card is shown enlarged).
LONG_PRESS = 0.5
#: Pixels the pointer may wander while resting (the hover clock does not start again).
HOVER_JITTER = 3


# ------------------------------------------------------------------------------ commands
@dataclass(frozen=True, slots=True)
class Lift:
    """The pointer pressed ``card`` (one that may move): lift it and hold it."""

    card: int


@dataclass(frozen=True, slots=True)
class Follow:
    """The held card is dragged: it follows the pointer."""


@dataclass(frozen=True, slots=True)
class Aim:
    """The held or lifted card points at lit target ``target`` (0: none)."""

    target: int


@dataclass(frozen=True, slots=True)
class LetGo:
    """A click ended: the pointer lets go, the card stays lifted for a second click."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The lifted card is dropped on field card ``target`` (0: none), ``on_field`` when the
    point is inside the field."""

    target: int
    on_field: bool


@dataclass(frozen=True, slots=True)
class PutBack:
    """Nothing is lifted or held any more."""


@dataclass(frozen=True, slots=True)
class Inspect:
    """Show ``card`` enlarged with its facts (0: show none)."""

    card: int


Command = Lift | Follow | Aim | LetGo | Drop | PutBack | Inspect


# ------------------------------------------------------------------------------ inputs
@dataclass(frozen=True, slots=True)
class Hit:
    """What the layout says lies under a point.

    ``card``: the topmost card there (0: none), ``face_up``: the topmost face-up card,
    ``field``: the topmost field card, ``popup``: the card whose enlarged pop-up covers the
    point, ``box``: ``card``'s box (where a grab holds it from); ``aim``: the lit target that
    the held card, drawn at :meth:`Gesture.held_box`, overlaps most (0: none); ``on_field``:
    the point is inside the field.
    """

    card: int = 0
    face_up: int = 0
    field: int = 0
    popup: int = 0
    box: Box | None = None
    aim: int = 0
    on_field: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """What the table allows and shows now (from the controller).

    ``pickable``: the cards the player may lift (empty: not the player's turn); ``lifted``:
    the lifted card (0: none) and ``targets`` its lit targets; ``aimed`` and ``inspected``:
    the target aimed at and the card shown enlarged; ``click_only``: the setting "click to
    move" (a card never follows the pointer); ``calm``: nothing moves and nothing is open over
    the table (hovering may show a card).
    """

    pickable: frozenset[int] = frozenset()
    lifted: int = 0
    targets: frozenset[int] = frozenset()
    aimed: int = 0
    inspected: int = 0
    click_only: bool = False
    calm: bool = True


def _far(a: Pos, b: Pos, limit: int) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) > limit


class Gesture:
    """The pointer's gesture on the table (see the module docstring)."""

    def __init__(self) -> None:
        #: Where the pointer is (None: not seen yet).
        self.pointer: Pos | None = None
        #: Where the press being held began (None: no press held).
        self.press_at: Pos | None = None
        self.press_time = 0.0
        #: The press has left its place by more than the drag threshold.
        self.moved = False
        self.long_pressed = False
        #: The card the pointer holds (0: none), grabbed ``offset`` from its box's corner
        #: (None: by its middle, as a press on its pop-up takes it).
        self.held = 0
        self.offset: tuple[float, float] | None = None
        #: The held card follows the pointer (a drag, past the threshold).
        self.dragging = False
        #: The face-up card under the resting pointer, and how long it has rested there.
        self.hover_card = 0
        self.hover_time = 0.0
        self.hover_at: Pos | None = None
        #: Hovering counts only once the pointer has moved since the last press or release.
        self.hover_armed = True
        #: The card the keyboard's I shows (0: none); other input hides it.
        self.looked = 0

    # ------------------------------------------------------------------ reading
    def held_box(self, size: tuple[float, float]) -> Box | None:
        """Where the held card (``size``) is drawn while dragged (None: not dragged)."""
        if not self.dragging or self.pointer is None:
            return None
        return self.box_at(self.pointer, size)

    def box_at(self, pos: Pos, size: tuple[float, float]) -> Box | None:
        """Where the held card (``size``) would be drawn with the pointer at ``pos`` (None:
        nothing held)."""
        if not self.held:
            return None
        dx, dy = self.offset if self.offset is not None else (size[0] / 2, size[1] / 2)
        return (pos[0] - dx, pos[1] - dy, size[0], size[1])

    def wait(self) -> float:
        """Seconds until the machine would act by time alone (a hover, a long press);
        infinity when nothing is timed."""
        waits = [float("inf")]
        if self.hover_card and self.hover_time < HOVER_DELAY:
            waits.append(HOVER_DELAY - self.hover_time)
        if self.pressing_still and self.press_time < LONG_PRESS:
            waits.append(LONG_PRESS - self.press_time)
        return min(waits)

    @property
    def pressing_still(self) -> bool:
        """A press is held where it began (a long press may come)."""
        return self.press_at is not None and not self.moved and not self.long_pressed

    # ------------------------------------------------------------------ intents
    def press(self, pos: Pos, hit: Hit, t: Table) -> list[Command]:
        """The main button went down at ``pos``."""
        out: list[Command] = []
        self.pointer = pos
        self.hover_armed = False  # the card under a press is not looked at by hovering
        self.hover_time = 0.0
        self.press_at, self.press_time, self.moved, self.long_pressed = pos, 0.0, False, False
        self._hide(t, out, keyboard=True)
        card = hit.popup if hit.popup in t.pickable else hit.card
        self.held, self.dragging = 0, False
        if t.lifted and card != t.lifted and card not in t.pickable:
            if t.pickable:  # a second click: the lifted card goes there
                out += self._drop(hit, t, dragged=False)
            return out
        if card and card in t.pickable:
            box = hit.box if hit.popup != card else None
            self.held = card
            self.offset = (pos[0] - box[0], pos[1] - box[1]) if box is not None else None
            self.dragging = False
            out.append(Lift(card))
        return out

    def move(self, pos: Pos, hit: Hit, t: Table) -> list[Command]:
        """The pointer moved to ``pos`` (``hit.aim`` asked for the held box there)."""
        out: list[Command] = []
        self.pointer = pos
        if self.hover_at is None or _far(pos, self.hover_at, HOVER_JITTER):
            self.hover_at, self.hover_time = pos, 0.0
        if self.press_at is None and not self.held:
            self.hover_armed = True
        if self.press_at is not None and _far(pos, self.press_at, DRAG_THRESHOLD):
            self.moved = True
        if self.held and self.moved and not t.click_only and self.held in t.pickable:
            if not self.dragging:
                self.dragging = True
                if self.long_pressed:  # a long press then a drag: a drag like any other
                    self.long_pressed = False
                    self._hide(t, out)
                out.append(Follow())
            aim = hit.aim
        elif not self.held and t.lifted:  # a lifted card: the lit card pointed at
            aim = hit.field if hit.field in t.targets else 0
        else:
            aim = t.aimed
        if aim != t.aimed:
            out.append(Aim(aim))
        return out

    def release(self, pos: Pos, hit: Hit, t: Table) -> list[Command]:
        """The main button went up at ``pos``."""
        out: list[Command] = []
        self.pointer = pos
        self.hover_armed = False  # nor the card under a drop
        self.press_at = None
        held, dragged = self.held, self.dragging
        self.held, self.dragging = 0, False
        if self.long_pressed:  # a long press looked at a card: it does not also play it
            self.long_pressed = False
            self._hide(t, out)
            if t.lifted:
                out.append(PutBack())
            return out
        if not held:
            return out
        if dragged:
            return out + self._drop(hit, t, dragged=True)
        out.append(LetGo())  # a click: the card stays lifted for a second click
        return out

    def alt_press(self, t: Table) -> list[Command]:
        """The right button (not on a face-up card: that opens the month reference)."""
        self.held, self.dragging, self.press_at = 0, False, None
        return [PutBack()] if t.lifted else []

    def look(self, card: int, t: Table) -> list[Command]:
        """The keyboard's I: show ``card`` (I again hides it)."""
        self.looked = 0 if self.looked else card
        return [Inspect(self.looked)] if self.looked != t.inspected else []

    def other_input(self, t: Table) -> list[Command]:
        """Input other than the pointer and I: the keyboard's look at a card ends (a card
        shown by hovering or a long press stays)."""
        if not self.looked:
            return []
        self.looked = 0
        return [Inspect(0)] if t.inspected else []

    def reset(self) -> None:
        """The table was covered or re-laid out: nothing is pressed or held."""
        self.press_at, self.held, self.dragging = None, 0, False
        self.moved = self.long_pressed = False

    def cover(self, t: Table) -> list[Command]:
        """Another screen covers the table: nothing is pressed, held, hovered or looked at,
        and where the pointer is stays unknown until it moves on the table again (the pointer
        that rested on a card went on to the screen on top, which the table does not see)."""
        self.reset()
        self.pointer = self.hover_at = None
        self.hover_card, self.hover_time, self.looked = 0, 0.0, 0
        return [Inspect(0)] if t.inspected else []

    def tick(self, dt: float, under_press: int, under_pointer: int, t: Table) -> list[Command]:
        """Time passes: ``under_press`` and ``under_pointer`` are the face-up cards now under
        the press and the pointer (the layout's answers; cards move by themselves)."""
        if self.looked:  # the keyboard's look at a card holds until other input
            want = 0 if not t.calm else self.looked
            return [Inspect(want)] if want != t.inspected else []
        want = t.inspected
        if self.pressing_still:
            self.press_time += dt
            if self.press_time >= LONG_PRESS and under_press:
                self.long_pressed = True
                want = under_press
        under = 0
        if (
            self.pointer is not None
            and self.hover_armed
            and not self.held
            and not t.lifted
            and t.calm
        ):
            under = under_pointer
        if under != self.hover_card:
            self.hover_card, self.hover_time = under, 0.0
        elif under:
            self.hover_time += dt
        if not self.long_pressed:
            if self.dragging or not t.calm:
                want = 0
            elif self.hover_card and self.hover_time >= HOVER_DELAY:
                want = self.hover_card
            elif not self.hover_card:
                want = 0
        return [Inspect(want)] if want != t.inspected else []

    # ------------------------------------------------------------------ helpers
    def _drop(self, hit: Hit, t: Table, *, dragged: bool) -> list[Command]:
        """Where a drop (or a second click) lands: after a drag the lit card the held card
        overlaps most, else the field card under the point (not the card itself)."""
        target = hit.aim if dragged and hit.aim else hit.field
        if target == t.lifted:
            target = 0
        out: list[Command] = [Drop(target, hit.on_field)]
        if t.aimed:
            out.append(Aim(0))
        return out

    def _hide(self, t: Table, out: list[Command], *, keyboard: bool = False) -> None:
        """Hide the card shown enlarged (a press acts on the table; holding still shows it
        again)."""
        if keyboard:
            self.looked = 0
        if t.inspected:
            out.append(Inspect(0))
