"""The coach in a real window under Xvfb (issue 37): after the person's blunder, made with a
real click, the table shows the coach's line.

The game runs in a child process with the real frame loop and nothing injected: the computer
thinks in its worker thread and the coach judges in its worker process at the review's budget,
as in the game. The position is seed 31's (see ``test_coach.py``): in round 1 the person makes
a yaku where stopping throws away about 11 points that koi-koi is worth. The child plays the
person's moves before it (the Intermediate's choices), then writes where the koi-koi prompt's
Stop button is; the test clicks it with xdotool, and the child writes what the coach said.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .xvfb import PRELUDE, click, game, needs_xvfb, wait_for, window, x_display

pytestmark = pytest.mark.xvfb

CHILD = (
    PRELUDE
    + r"""
from koikoi_desktop.ai import decide, make_opponent
from koikoi_desktop.scenes.table.text import log_text

start(speed="fast", inline=False)
t = table(31)
c = t.controller
me = make_opponent("intermediate", seed=31)

def coach_lines():
    return [ln for ln in c.log if ln.kind == "coach"]

for _ in range(20000):
    p = t.prompt
    if p is not None and p.key and p.key[-1] == "decide":
        break
    if c.my_turn() and not t.queue.busy and c.state.phase in ("play", "draw"):
        c.apply(decide(me, c.view(), c.played().context(0))[0])
    frame()
else:
    raise SystemExit("no koi-koi prompt")
for _ in range(10):
    frame()
stop = t.prompt.widgets[0]
(out / "1.json").write_text(json.dumps({"stop": list(stop.rect.center), "label": stop.label,
                                        "lines": len(coach_lines())}))
shown = False
for _ in range(3000):
    frame()
    if coach_lines() and not shown:
        shown = True
        for _ in range(5):
            frame()
        pygame.image.save(a.screen, str(out / "coach.png"))
        line = log_text(a.words, coach_lines()[0], c.names(a.words), c.rules)
        (out / "2.json").write_text(json.dumps({
            "line": line, "message": c.snapshot(a.words).message, "cls": coach_lines()[0].note.cls,
            "played": [x for x in c.actions if x[1] == 0][-1][2],
            "dropped": c.coach.dropped}))
        break
else:
    (out / "2.json").write_text(json.dumps({"line": "", "actions": c.actions[-3:]}))
pygame.display.quit()
"""
)


@needs_xvfb
def test_real_window_shows_the_coach_line_after_a_blunder(tmp_path: Path) -> None:
    with x_display() as env, game(env, CHILD, str(tmp_path)) as proc:
        asked = wait_for(tmp_path / "1.json", proc, 180)
        assert asked["lines"] == 0  # the coach has said nothing before the blunder
        wid = window(env, proc)
        click(env, wid, asked["stop"])  # Stop: the blunder
        said = wait_for(tmp_path / "2.json", proc, 120)
        assert said["played"] == "stop"
        assert said["cls"] in ("mistake", "blunder")  # the stop's class, by match-win chance
        assert str(said["line"]).startswith("Coach: ")
        line = str(said["line"])
        assert "% chance to win the match (" in line and "expected points: played +" in line
        assert said["message"] == said["line"]
        proc.wait(timeout=30)
