"""The coach (issue 37): at help level full the table judges the person's decisions with the
review's evaluator in the background and says so when one is a mistake or a blunder.

The constructed blunder: a stacked deal where the person plays on past a sure instant win
(:func:`test_a_constructed_blunder_playing_on_past_a_sure_instant_win`). The seeded ones: seed
31 of the Nintendo preset, the person against the Beginner; in round 1 the person (played here by
the Intermediate's choices, as a learner might play) makes a yaku and stops, where the review's
evaluator at :data:`WORLDS` worlds finds koi-koi worth 11 points and 14% of the chance to win
the match more (a mistake: past the 6% threshold, not clearly past the blunder's 12%); seed 18
gives a card play the review calls a blunder.
Everything here is counted in frames and moves, never in wall-clock time.
"""

from __future__ import annotations

import concurrent.futures as cf
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest

from koikoi_desktop import engine
from koikoi_desktop.ai import InlineExecutor, Thinker, decide, make_opponent
from koikoi_desktop.engine import match_record
from koikoi_desktop.i18n import ENGLISH, Words, say
from koikoi_desktop.review import coach as coach_mod
from koikoi_desktop.review.analysis import LIMITS, review_record
from koikoi_desktop.review.coach import Coach
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.controller import (
    Ask,
    ShowFirstDealer,
    ShowResult,
    ShowSummary,
    TableController,
)
from koikoi_desktop.scenes.table.text import LogLine, coach_text, log_text
from tests.engine.helpers import stacked_deck

#: The coach's budget in these tests (the game's is the review's 160): small, and the review
#: is asked at the same budget so the two must agree exactly.
WORLDS = 24
SEED = 31


def make(
    *,
    help_level: str = "full",
    seats: tuple[str, str] = ("human", "beginner"),
    practice: bool = False,
    coach: Coach | None = None,
    coach_on: Callable[[], bool] = lambda: True,
    seed: int = SEED,
) -> TableController:
    config = MatchConfig(engine.PRESETS["nintendo"], seats, seed, practice, help_level=help_level)
    c = TableController(
        config,
        names=("Ana", "Bo"),
        thinker=Thinker(InlineExecutor()),
        speed="off",
        coach=coach if coach is not None else Coach(InlineExecutor(), worlds=WORLDS),
        coach_on=coach_on,
    )
    c.start()
    return c


class Counting(InlineExecutor):
    """Judges at once, and counts the questions asked."""

    def __init__(self) -> None:
        self.asked = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.asked += 1
        return super().submit(fn, *args, **kwargs)


def coach_lines(c: TableController) -> list[LogLine]:
    return [ln for ln in c.log if ln.kind == "coach"]


def play(c: TableController, until: Callable[[], bool], frames: int = 20000) -> bool:
    """The scene's part (cues done at once) and the person's moves (the Intermediate's
    choices, the koi-koi question answered the same way), frame by frame until ``until()``."""
    me = make_opponent("intermediate", seed=c.seed)
    for _ in range(frames):
        if until():
            return True
        while c.cues:
            cue = c.cues.popleft()
            if isinstance(cue, ShowFirstDealer):
                c.first_dealer_seen()
            elif isinstance(cue, ShowSummary):
                c.summary_seen()
            elif isinstance(cue, Ask):
                m = c.played()
                action, _ = decide(me, c.view(cue.seat), m.context(cue.seat))
                c.answer(action)
            elif isinstance(cue, ShowResult):
                return until()
        if c.my_turn():
            m = c.played()
            action, _ = decide(me, c.view(), m.context(c.viewer))
            c.apply(action)
        c.update(1 / 60)
    return until()


def test_the_coach_flags_a_blunder_and_the_review_agrees() -> None:
    c = make(practice=True)
    assert play(c, lambda: bool(coach_lines(c)))
    note = coach_lines(c)[0].note
    assert note is not None
    assert note.cls == "mistake" and LIMITS[1] <= note.win_loss
    assert note.played == "stop" and note.best == "koikoi" and note.round == 1
    # the line, worded now, in the review's words (the stop ended the round: no Undo offered)
    text = log_text(ENGLISH, coach_lines(c)[0], c.names(ENGLISH), c.rules)
    # (the figures follow the match goal's chance of winning, which the AI learns: a pattern)
    assert text == coach_text(ENGLISH, note)
    assert re.fullmatch(
        r"Coach: Mistake \? — -1\d% chance to win the match \(95% range of the loss: "
        r"\d+–\d+%; expected points: played \+6\.0, best \+1\d\.\d\)\. "
        r"Better: calls koi-koi: \+1\d\.\d+ expected against 6 points now",
        text,
    ), text
    assert say(c.message, ENGLISH) == text and not note.undo
    for lang in ("uk", "ru", "sk", "ja"):
        words = Words(lang)
        said = coach_text(words, note)
        assert said != text and words.t("ui.review.class.mistake") in said
    # the review of the same record, at the same budget, judges that decision the same way
    review = review_record(match_record(c.played()), worlds=WORLDS, rounds=[note.round])
    same = [j for j in review.judgements if (j.deal, j.move) == (note.deal, note.move)]
    assert len(same) == 1
    j = same[0]
    assert (j.cls, j.win_loss, j.value_played, j.value_best, j.played, j.best) == (
        note.cls,
        note.win_loss,
        note.value_played,
        note.value_best,
        note.played,
        note.best,
    )
    assert j.reason == note.reason


def teshi_declined(*, practice: bool = True) -> TableController:
    """A stacked deal of a one-round seed-000 match (instant wins declared by choice on the
    first turn): the person, dealer, holds all four Pine cards (Teshi: 6), declines to declare
    and plays February on February. Declaring won the match for sure; playing on leaves it to
    the round."""
    rules = engine.PRESETS["seed-000"].with_rounds(1)
    deck = stacked_deck(
        rules,
        dealer_hand=[1, 2, 3, 4, 5, 9, 13, 17],
        nondealer_hand=[6, 10, 14, 18, 21, 25, 29, 33],
        field=[7, 11, 15, 19, 22, 26, 30, 34],
    )
    config = MatchConfig(rules, ("human", "beginner"), 7, practice, deal=(0, (tuple(deck),)))
    c = TableController(
        config,
        names=("Ana", "Bo"),
        thinker=Thinker(InlineExecutor()),
        speed="off",
        coach=Coach(InlineExecutor(), worlds=WORLDS),
    )
    c.start()
    asked: list[Ask] = []
    for _ in range(600):
        while c.cues:
            cue = c.cues.popleft()
            if isinstance(cue, Ask):
                asked.append(cue)
                c.decline(cue.key)  # the prompt's "play on"
        if asked and c.my_turn():
            break
        c.update(1 / 60)
    assert [a.question for a in asked] == ["declare"] and c.my_turn()
    assert c.apply(engine.Action.from_text("play 5"))  # February takes February: not Teshi
    assert play(c, lambda: bool(coach_lines(c)), frames=600)
    return c


def test_a_constructed_blunder_playing_on_past_a_sure_instant_win() -> None:
    """Playing on past a declared Teshi that won the match: the coach calls it a blunder, by
    the match-win chance it threw away, says why, and the review of the record agrees."""
    c = teshi_declined()
    note = coach_lines(c)[0].note
    assert note is not None
    assert (note.cls, note.played, note.best) == ("blunder", "play 5", "declare")
    assert note.reason.key == "declare" and note.reason.params["instant"] == "teshi"
    assert note.undo  # practice: U takes it back
    message = say(c.message, ENGLISH)
    assert message.startswith("Coach: Blunder ?? — -") and "% chance to win the match" in message
    assert "Teshi" in message and message.endswith("U to take it back.")
    review = review_record(match_record(c.played()), worlds=WORLDS, rounds=[1])
    j = next(j for j in review.judgements if (j.deal, j.move) == (note.deal, note.move))
    assert (j.cls, j.win_loss, j.played, j.best, j.reason) == (
        note.cls,
        note.win_loss,
        note.played,
        note.best,
        note.reason,
    )


def test_practice_offers_undo_and_it_takes_the_flagged_move_back() -> None:
    """The constructed blunder in practice: the line offers U, and U takes the move back;
    without practice the same line offers nothing, and the computer's reply does not wipe it
    off (the person's next move does)."""
    c = teshi_declined()
    note = coach_lines(c)[0].note
    assert note is not None and note.cls == "blunder" and note.played == "play 5"
    assert note.undo and say(c.message, ENGLISH).endswith("U to take it back.")
    while c.cues:  # the scene shows what is queued; then U
        assert not isinstance(c.cues[0], Ask | ShowSummary | ShowResult)
        c.cues.popleft()
    assert c.can_undo() and c.undo()
    assert all(a != "play 5" for n, seat, a in c.actions if n == note.round and seat == 0)
    assert c.log[-1].kind == "undone"
    c = teshi_declined(practice=False)
    assert say(c.message, ENGLISH).startswith("Coach: Blunder ??")
    assert not say(c.message, ENGLISH).endswith("U to take it back.")
    n = len(c.actions)
    assert play(c, lambda: len(c.actions) > n and c.actions[-1][1] == 1)
    assert say(c.message, ENGLISH).startswith("Coach: Blunder ??")


@pytest.mark.parametrize("level", ["highlights", "none"])
def test_the_coach_says_nothing_at_light_and_none(level: str) -> None:
    counting = Counting()
    c = make(help_level=level, coach=Coach(counting, worlds=WORLDS))
    assert play(c, lambda: len(c.played().ledger) >= 2)
    assert not coach_lines(c) and counting.asked == 0
    # the same match at full: the coach judged the person's decisions
    counting = Counting()
    c = make(coach=Coach(counting, worlds=WORLDS))
    assert play(c, lambda: len(c.played().ledger) >= 2)
    assert coach_lines(c) and counting.asked > 5


def test_the_setting_turns_the_coach_off() -> None:
    on = [False]
    c = make(coach_on=lambda: on[0])
    assert play(c, lambda: len(c.played().ledger) >= 2)
    assert not coach_lines(c)
    # the same match from the start with the setting on: the blunder of round 1 is flagged
    on[0] = True
    c = make(coach_on=lambda: on[0])
    assert play(c, lambda: bool(coach_lines(c)))
    note = coach_lines(c)[0].note
    assert note is not None and (note.cls, note.round) == ("mistake", 1)


def test_no_coach_between_computers_or_in_hot_seat() -> None:
    for seats in (("intermediate", "beginner"), ("human", "human")):
        counting = Counting()
        c = make(seats=seats, coach=Coach(counting, worlds=WORLDS))
        for _ in range(40):  # forty moves, whoever makes them
            st = c.state
            if c.played().outcome is not None or st.to_move is None:
                break
            c.apply(st.legal_actions()[0])
        assert counting.asked == 0 and not coach_lines(c)


def test_a_slow_judgement_is_dropped_and_never_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The evaluator blocks (until the test lets it go); the table plays on, the computer
    moves, and once the coach's bound has passed on its clock the judgement is dropped: no
    line, even after the evaluator finally answers."""
    release = threading.Event()
    started = threading.Event()
    real = coach_mod.judge

    def slow(point: Any, *, worlds: int) -> Any:
        started.set()
        release.wait(60)
        return real(point, worlds=worlds)

    monkeypatch.setattr(coach_mod, "judge", slow)
    now = [0.0]
    pool = cf.ThreadPoolExecutor(max_workers=1)
    coach = Coach(pool, worlds=WORLDS, clock=lambda: now[0])
    c = make(coach=coach)
    try:
        # to the person's blunder (the stop of round 1): the moves before it were judged by the
        # blocked evaluator one at a time, each dropped when the next decision came
        assert play(c, lambda: any(a == "stop" for _, seat, a in c.actions if seat == 0))
        assert coach.pending and started.wait(60)
        moves = len(c.actions)
        # the table goes on while the judgement is still being made: the round ends, the
        # next is dealt and the computer moves, frame by frame, without waiting for it
        assert play(c, lambda: len(c.actions) > moves + 1, frames=3000)
        assert coach.pending and not coach_lines(c)
        now[0] += coach.bound + 0.1  # the bound passes
        c.update(1 / 60)
        assert not coach.pending and coach.dropped >= 1
        release.set()
        pool.shutdown(wait=True)
        for _ in range(10):
            c.update(1 / 60)
        assert not coach_lines(c)
    finally:
        release.set()
        pool.shutdown(wait=True)


def play_round_one(app: Any, pump_fn: Any) -> Any:
    """Seed 31 through the real table scene: the person's moves are the Intermediate's, the
    koi-koi prompt is answered with its Stop button, until round 1's summary."""
    from koikoi_desktop import scenes
    from koikoi_desktop.scenes import screens
    from koikoi_desktop.scenes.table.scene import TableScene

    t = TableScene(
        app,
        screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), SEED)),
    )
    app.stack.push(scenes.create("title", app))
    app.stack.push(t)
    assert t.prompt is not None
    t.prompt.widgets[-1].activate()  # the first dealer is seen
    c = t.controller
    me = make_opponent("intermediate", seed=SEED)

    def ready() -> bool:
        return t.prompt is not None or t.waiting_summary or c.my_turn()

    for _ in range(200):
        assert pump_fn(t, ready, 10)
        if t.waiting_summary:
            return t
        if t.prompt is not None:
            assert t.prompt.key[-1] == "decide"
            t.prompt.widgets[0].activate()  # Stop: the blunder of seed 31
        elif c.my_turn():
            c.apply(decide(me, c.view(), c.played().context(0))[0])
    raise AssertionError("round 1 did not end in 200 steps")


def test_the_settings_row_turns_the_coach_off_in_the_game(ui_app: Any, pump_fn: Any) -> None:
    from koikoi_desktop import scenes

    ui_app.coach_worlds = WORLDS
    settings = ui_app.stack.push(scenes.create("settings", ui_app))
    label = ENGLISH.t("ui.settings.coach")
    row = next(w for _, w in settings.rows if w is not None and say(w.label, ENGLISH) == label)
    row.step(1)  # on -> off
    ui_app.stack.pop()
    t = play_round_one(ui_app, pump_fn)
    assert not coach_lines(t.controller)
    while ui_app.stack.top is not None:
        ui_app.stack.pop()
    settings = ui_app.stack.push(scenes.create("settings", ui_app))
    row = next(w for _, w in settings.rows if w is not None and say(w.label, ENGLISH) == label)
    row.step(1)  # off -> on
    ui_app.stack.pop()
    t = play_round_one(ui_app, pump_fn)
    lines = coach_lines(t.controller)
    assert lines and lines[0].note is not None and lines[0].note.cls == "mistake"
    assert t.controller.snapshot(ENGLISH).message.startswith("Coach: Mistake ? — -1")
    # the line follows the move it speaks of in the log (the stop, once it was shown)
    log = t.controller.log
    stopped = [i for i, ln in enumerate(log) if isinstance(ln.event, engine.Stopped)]
    assert stopped and stopped[0] < log.index(lines[0])


def test_a_dead_worker_stops_the_coach_with_one_line_and_the_match_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The coach's worker process dies (killed, out of memory): no crash, one line that the
    coach stopped, nothing asked of it again, and the match plays on."""
    from concurrent.futures.process import BrokenProcessPool

    class Dead(cf.Executor):
        asked = 0

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
            Dead.asked += 1
            fut: cf.Future[Any] = cf.Future()
            fut.set_exception(BrokenProcessPool("the worker ended"))
            return fut

    coach = Coach(Dead(), worlds=WORLDS)
    c = make(coach=coach)
    said: list[str] = []
    real_say = c.say

    def heard(text: Any, *args: Any) -> None:
        said.append(say(text, ENGLISH))  # a message is worded when shown
        real_say(text, *args)

    monkeypatch.setattr(c, "say", heard)
    assert play(c, lambda: Dead.asked >= 1)
    moves = len(c.actions)
    assert play(c, lambda: len(c.actions) > moves + 3, frames=3000)  # the match goes on
    assert coach.stopped and Dead.asked == 1  # asked once, never again
    assert said.count(ENGLISH.t("ui.coach.stopped")) == 1 and not coach_lines(c)
