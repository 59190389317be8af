"""The gesture machine without a window (issue 43): a press, a click, a drag, a long press, a
hover and the pop-up, as the typed commands the controller receives. A stand-in table carries
the commands out the way the controller does (lifted, aimed, shown enlarged)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop.scenes.table.gesture import (
    DRAG_THRESHOLD,
    HOVER_DELAY,
    LONG_PRESS,
    Aim,
    Command,
    Drop,
    Follow,
    Gesture,
    Hit,
    Inspect,
    LetGo,
    Lift,
    PutBack,
    Table,
)

HAND, TARGET, OTHER = 5, 6, 30  # a hand card, the field card it takes, another field card
BOX = (100.0, 400.0, 60.0, 96.0)  # the hand card's box
AT = (120, 440)  # a point on the hand card


@dataclass
class Stand:
    """What the controller keeps of the commands (see ``TableController.command``)."""

    pickable: frozenset[int] = frozenset({HAND})
    lifted: int = 0
    aimed: int = 0
    inspected: int = 0
    click_only: bool = False
    seen: list[Command] = field(default_factory=list)

    def facts(self) -> Table:
        return Table(
            pickable=self.pickable,
            lifted=self.lifted,
            targets=frozenset({TARGET}) if self.lifted else frozenset(),
            aimed=self.aimed,
            inspected=self.inspected,
            click_only=self.click_only,
        )

    def run(self, commands: list[Command]) -> list[Command]:
        for cmd in commands:
            self.seen.append(cmd)
            if isinstance(cmd, Lift):
                self.lifted, self.aimed = cmd.card, 0
            elif isinstance(cmd, Aim):
                self.aimed = cmd.target
            elif isinstance(cmd, (Drop, PutBack)):
                self.lifted = self.aimed = 0
            elif isinstance(cmd, Inspect):
                self.inspected = cmd.card
        return commands


def on_hand() -> Hit:
    return Hit(card=HAND, face_up=HAND, box=BOX)


def over_target() -> Hit:
    return Hit(card=TARGET, face_up=TARGET, field=TARGET, aim=TARGET, on_field=True)


def wait(g: Gesture, s: Stand, seconds: float, *, press: int = 0, pointer: int = 0) -> None:
    for _ in range(round(seconds / 0.05)):
        s.run(g.tick(0.05, press, pointer, s.facts()))


def test_a_quick_drag_onto_a_match_drops_it_there() -> None:
    g, s = Gesture(), Stand()
    assert s.run(g.press(AT, on_hand(), s.facts())) == [Lift(HAND)]
    assert s.run(g.move((300, 200), over_target(), s.facts())) == [Follow(), Aim(TARGET)]
    assert g.held_box((60, 96)) == (300 - 20, 200 - 40, 60, 96)  # held where it was grabbed
    assert s.run(g.release((300, 200), over_target(), s.facts())) == [Drop(TARGET, True), Aim(0)]
    assert not g.held and not g.dragging


def test_a_long_press_then_a_drag_plays_the_card() -> None:
    """Found 1: held ~1.5 s (its pop-up opens), then dragged onto a lit match: the card
    was put back. Now the long press shows the card, and a drag after it is a drag."""
    g, s = Gesture(), Stand()
    s.run(g.press(AT, on_hand(), s.facts()))
    wait(g, s, 1.5, press=HAND, pointer=HAND)
    assert g.long_pressed and s.inspected == HAND  # the pop-up is open
    moved = s.run(g.move((300, 200), over_target(), s.facts()))
    assert Follow() in moved and Inspect(0) in moved and s.inspected == 0
    assert s.run(g.release((300, 200), over_target(), s.facts()))[0] == Drop(TARGET, True)


def test_a_long_press_released_in_place_only_looks() -> None:
    g, s = Gesture(), Stand()
    s.run(g.press(AT, on_hand(), s.facts()))
    wait(g, s, LONG_PRESS + 0.1, press=HAND, pointer=HAND)
    assert s.inspected == HAND
    assert s.run(g.release(AT, on_hand(), s.facts())) == [Inspect(0), PutBack()]
    assert not any(isinstance(c, Drop) for c in s.seen)


def test_a_drag_that_starts_on_the_pop_up_takes_the_card_it_shows() -> None:
    g, s = Gesture(), Stand()
    s.run(g.move(AT, on_hand(), s.facts()))
    wait(g, s, HOVER_DELAY + 0.1, pointer=HAND)
    assert s.inspected == HAND  # hovering shows it
    # the pop-up lies over another card: a press on it presses the card it shows
    popup = Hit(card=OTHER, face_up=OTHER, field=OTHER, popup=HAND, box=(400, 100, 60, 96))
    assert s.run(g.press((450, 150), popup, s.facts())) == [Inspect(0), Lift(HAND)]
    assert s.run(g.move((300, 200), over_target(), s.facts()))[0] == Follow()
    assert g.held_box((60, 96)) == (270.0, 152.0, 60, 96)  # by its middle
    assert s.run(g.release((300, 200), over_target(), s.facts()))[0] == Drop(TARGET, True)


def test_click_then_click_on_a_target() -> None:
    g, s = Gesture(), Stand()
    s.run(g.press(AT, on_hand(), s.facts()))
    assert s.run(g.release(AT, on_hand(), s.facts())) == [LetGo()]
    assert s.lifted == HAND  # lifted, waiting for the second click
    assert s.run(g.move((300, 200), over_target(), s.facts())) == [Aim(TARGET)]
    assert s.run(g.press((300, 200), over_target(), s.facts())) == [Drop(TARGET, True), Aim(0)]


def test_click_to_move_never_lets_the_card_follow() -> None:
    g, s = Gesture(), Stand(click_only=True)
    s.run(g.press(AT, on_hand(), s.facts()))
    assert Follow() not in s.run(g.move((300, 200), over_target(), s.facts()))
    assert s.run(g.release((300, 200), over_target(), s.facts())) == [LetGo()]
    assert s.lifted == HAND and g.held_box((60, 96)) is None
    s.run(g.press((300, 200), over_target(), s.facts()))
    assert Drop(TARGET, True) in s.seen


def test_within_the_threshold_it_is_a_click() -> None:
    g, s = Gesture(), Stand()
    s.run(g.press(AT, on_hand(), s.facts()))
    near = (AT[0] + DRAG_THRESHOLD // 2, AT[1] + DRAG_THRESHOLD // 2)
    assert Follow() not in s.run(g.move(near, on_hand(), s.facts()))
    assert s.run(g.release(near, on_hand(), s.facts())) == [LetGo()]


def test_a_drop_off_the_field_drops_on_nothing() -> None:
    g, s = Gesture(), Stand()
    s.run(g.press(AT, on_hand(), s.facts()))
    s.run(g.move((900, 600), Hit(), s.facts()))
    assert s.run(g.release((900, 600), Hit(), s.facts())) == [Drop(0, False)]


def test_not_the_players_turn_nothing_is_lifted_but_a_long_press_still_looks() -> None:
    g, s = Gesture(), Stand(pickable=frozenset())
    assert s.run(g.press(AT, on_hand(), s.facts())) == []
    wait(g, s, LONG_PRESS + 0.1, press=HAND, pointer=HAND)
    assert s.inspected == HAND
    assert s.run(g.release(AT, on_hand(), s.facts())) == [Inspect(0)]


POINTS = st.tuples(st.integers(0, 1000), st.integers(0, 700))
HITS = st.sampled_from([Hit(), on_hand(), over_target(), Hit(card=OTHER, field=OTHER)])
STEPS = st.lists(
    st.tuples(st.sampled_from(["press", "move", "release", "alt", "tick"]), POINTS, HITS),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(STEPS)
def test_commands_come_in_a_lawful_order(steps: list[tuple[str, tuple[int, int], Hit]]) -> None:
    """Whatever the pointer does: a drop or a follow only for a lifted card, never two
    drops for one lift, and once the button is up nothing is held."""
    g, s = Gesture(), Stand()
    for kind, pos, hit in steps:
        before = s.lifted
        if kind == "press":
            out = g.press(pos, hit, s.facts())
        elif kind == "move":
            out = g.move(pos, hit, s.facts())
        elif kind == "release":
            out = g.release(pos, hit, s.facts())
        elif kind == "alt":
            out = g.alt_press(s.facts())
        else:
            out = g.tick(0.2, hit.face_up, hit.face_up, s.facts())
        for cmd in out:
            if isinstance(cmd, (Drop, Follow)):
                assert s.lifted or before
        assert sum(isinstance(c, Drop) for c in out) <= 1
        s.run(out)
        if kind == "release":
            assert not g.held and not g.dragging


def test_on_the_table_a_press_on_the_pop_up_drags_its_card(ui_app: Any, pump_fn: Any) -> None:
    """Through the real scene: hovering a hand card shows it enlarged; a press on the pop-up
    (away from the card itself) takes that card, and a drag onto its match plays it."""
    import pygame

    from tests.ui.test_table import center, find_seed

    t, card, target = find_seed(ui_app, pump_fn, "match")
    c = t.controller
    at = center(t, card)
    motion = pygame.MOUSEMOTION
    ui_app.dispatch(
        pygame.event.Event(motion, pos=(at[0] + 1, at[1]), rel=(0, 0), buttons=(0,) * 3)
    )
    ui_app.dispatch(pygame.event.Event(motion, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    pump_fn(t, lambda: c.inspected == card, 2)
    assert c.inspected == card
    panel = t.view.inspect_panel(t.frame())
    sprite = pygame.Rect(*map(round, t.director.sprites[card].box))
    on_popup = next(
        (x, y)
        for x in range(panel.x + 4, panel.right - 4, 6)
        for y in range(panel.y + 4, panel.bottom - 4, 6)
        if not sprite.collidepoint(x, y)
    )
    ui_app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=on_popup))
    assert c.lifted is not None and c.lifted.card == card
    to = center(t, target)
    for p in (((on_popup[0] + to[0]) // 2, (on_popup[1] + to[1]) // 2), to):
        ui_app.dispatch(pygame.event.Event(motion, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    ui_app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=to))
    assert card not in c.state.hand(0)
    assert c.actions[-1][2].startswith(f"play {card}")
