"""The enlarged card does not outlive the screen that covers the table, in a real window under
Xvfb with a real pointer (xdotool), issue 46 found 4.

Resting the pointer on a hand card shows it enlarged; a right-click on it opens the month
reference; a click on the reference's Back returns to the table. Before the fix the enlarged
card was still drawn there (the table still took the pointer to be on the card, since the
pointer's travel to Back happened over the reference) until the pointer moved, and the card
showed through the pause menu opened while it was up.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .xvfb import PRELUDE, click, game, needs_xvfb, wait_for, window, x_display, xdo

pytestmark = pytest.mark.xvfb

CHILD = (
    PRELUDE
    + r"""
start()
t = table(4)

def drawn():
    # what the table's view draws enlarged this frame (None: nothing)
    shown = t.frame().inspect
    return shown[0] if shown else 0

def say(n, **facts):
    facts.update(top=a.stack.top.name, inspected=t.inspected, drawn=drawn())
    write(n, facts)

wait(lambda: t.controller.my_turn() and not t.queue.busy)
card = sorted(t.controller.pickable())[0]
x, y, w, h = t.director.sprites[card].box
say(1, card=card, at=[round(x + w / 2), round(y + h / 2)])  # the test rests the pointer there
wait(lambda: t.inspected == card)
say(2)  # the test right-clicks the card
wait(lambda: a.stack.top.name == "month-reference")
frame()
say(3, back=list(a.stack.top.frame.buttons[-1].rect.center))  # the test clicks Back
wait(lambda: a.stack.top is t)
for _ in range(30):
    frame()
say(4)  # back on the table, the pointer still on Back: the test rests it on the card again
wait(lambda: t.inspected == card)
say(5)  # the test presses Esc
wait(lambda: a.stack.top.name == "pause")
for _ in range(10):
    frame()
say(6)
pygame.display.quit()
"""
)


@needs_xvfb
def test_real_window_no_stale_enlarged_card_after_the_reference_or_under_the_pause(
    tmp_path: Path,
) -> None:
    with x_display() as env, game(env, CHILD, str(tmp_path)) as proc:
        first = wait_for(tmp_path / "1.json", proc, 90)
        wid = window(env, proc)
        card = first["card"]
        xdo(env, "mousemove", "--window", wid, str(first["at"][0] - 3), str(first["at"][1]))
        xdo(env, "mousemove", "--window", wid, *map(str, first["at"]))
        shown = wait_for(tmp_path / "2.json", proc, 30)
        assert shown["inspected"] == card and shown["drawn"] == card
        xdo(env, "click", "3")  # right-click: the month reference at the card's month
        ref = wait_for(tmp_path / "3.json", proc, 30)
        assert ref["top"] == "month-reference"
        click(env, wid, ref["back"])
        back = wait_for(tmp_path / "4.json", proc, 30)
        assert back["top"] == "table"
        assert back["inspected"] == 0 and back["drawn"] == 0  # it stayed until the pointer moved
        xdo(env, "mousemove", "--window", wid, str(first["at"][0] - 3), str(first["at"][1]))
        xdo(env, "mousemove", "--window", wid, *map(str, first["at"]))
        again = wait_for(tmp_path / "5.json", proc, 30)
        assert again["drawn"] == card  # hovering still works after the reference
        xdo(env, "key", "--window", wid, "Escape")
        paused = wait_for(tmp_path / "6.json", proc, 30)
        assert paused["top"] == "pause"
        assert paused["inspected"] == 0 and paused["drawn"] == 0  # it showed through the menu
        proc.wait(timeout=30)
