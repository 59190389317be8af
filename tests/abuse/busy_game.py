"""A real game, busy in its workers: the child process of ``test_workers.py``.

``python busy_game.py OUT SCREEN ARGS...`` runs the game's own entry point
(``koikoi_desktop.app.main(ARGS)``: the real frame loop, the real signal handling, the real
exit status) on SDL's dummy drivers, with sound opened as on a machine with a sound card. Each
frame, after the scenes' update, a stand-in for the player acts:

* ``table``: the person seated at the table plays (the Intermediate's choices, through the
  controller, as a click would) and answers the table's prompts; the computer is the Expert
  (it thinks in its worker process) and the coach is on (it judges in its own).
* ``review``: nothing; the review screen's analysis runs in its worker (busy once the first
  judgement is shown and more are being made).

When every worker of SCREEN is busy at once (table: the computer thinking, the coach judging,
the sounds being made; review: a judgement under way), it writes OUT (JSON: the workers'
process ids) once, and plays on until it is killed or signalled.

The sound synthesis is made slow here (a minute's sleep first; the worker is a fork, so it runs
the patched function): on this machine the real one is over in a second, before the table is
busy, and the test wants it running when the game ends.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

from koikoi_desktop import app as app_mod
from koikoi_desktop.ai import decide, make_opponent
from koikoi_desktop.scenes.base import SceneStack
from koikoi_desktop.ui import audio


def _slow(work: Any) -> Any:
    def made() -> Any:
        time.sleep(60)
        return work()

    return made


_open_audio = app_mod.App.open_audio


def open_audio(self: app_mod.App) -> None:
    """As the game opens sound where there is a device (the dummy driver is asked for here,
    which the game takes as "no device")."""
    _open_audio(self)
    assert self.audio is not None
    if self.audio.init():
        self.audio.start_music()


ME = make_opponent("intermediate", seed=5)


def busy_workers(stack: SceneStack, screen: str) -> bool:
    """Whether every worker ``screen`` has is busy now."""
    names = {p.name for p in multiprocessing.active_children()}
    synth = any(n.endswith("-synth") for n in names)
    if screen == "review":
        review = stack.find("review")
        runner = getattr(review, "runner", None)
        # judging, with a judgement already shown (the screen is drawn: its first frame, which
        # rasterises the cards, is behind it)
        return runner is not None and runner._worker is not None and 0 < runner.done < runner.total
    table = stack.find("table")
    if table is None:
        return False
    c = table.controller
    return bool(synth and c.thinker.busy and c.thinker._procs is not None and c.coach.pending)


def play(stack: SceneStack) -> None:
    """The person at the table, between frames."""
    table = stack.find("table")
    if table is None:
        return
    c = table.controller
    prompt = table.prompt
    if prompt is not None:
        if prompt.widgets:
            prompt.widgets[-1].activate()
        return
    if c.my_turn() and not table.queue.busy and c.state.phase in ("play", "draw"):
        c.apply(decide(ME, c.view(), c.played().context(c.viewer))[0])


def main(out: Path, screen: str, args: list[str]) -> int:
    """Run the game with ``args``, the stand-in playing on ``screen``; the exit status."""
    for name in list(audio.WORKS):
        audio.WORKS[name] = _slow(audio.WORKS[name])
    app_mod.App.open_audio = open_audio
    update = SceneStack.update
    written = False

    def update_and_play(self: SceneStack, dt: float) -> None:
        nonlocal written
        update(self, dt)
        if screen == "table":
            play(self)
        if not written and busy_workers(self, screen):
            pids = [p.pid for p in multiprocessing.active_children()]
            out.write_text(json.dumps({"pids": pids}))
            written = True

    SceneStack.update = update_and_play
    return app_mod.main(args)


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2], sys.argv[3:]))
