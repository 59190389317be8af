"""Positions whose verdict is known (issue 45): the review and the coach judge them as a strong
player would, in one currency (the match-win chance lost), and say the same.

Each position is a stacked deal of a one-round Nintendo match (so the round is the match):

* **the last-round koi-koi**: the dealer's first turn makes Hanami (5 points); stopping wins
  the match for sure, a koi-koi leaves it to the rest of the round: a blunder, though a koi-koi
  expects more points;
* **the yaku handed over**: the opponent has taken two of the three poetry ribbons, and laying
  the third (March's) on an empty month of the field lets any March card of his complete Akatan:
  a blunder;
* **the clear capture**: in the same position, taking October's plain card with the Deer is the
  review's best move and is not flagged.

Each verdict is checked three ways: :func:`~koikoi_desktop.review.analysis.judge` of the
decision as the coach builds it during play (``coach.decision_point``), the coach itself
(what it says, in words), and the review of the match record (the decision found by
``decision_points``, as the review screen's worker judges it): the same class and figure.
"""

from __future__ import annotations

from typing import Any

import pytest

from koikoi_desktop.ai import InlineExecutor
from koikoi_desktop.ai.evaluate import REVIEW_WORLDS
from koikoi_desktop.engine import PRESETS, Action, match_record, new_match
from koikoi_desktop.engine.actions import KOIKOI
from koikoi_desktop.i18n import ENGLISH, Words
from koikoi_desktop.review.analysis import LIMITS, Judgement, decision_points, judge
from koikoi_desktop.review.coach import SPOKEN, Coach, CoachNote, decision_point
from koikoi_desktop.review.timeline import Timeline
from koikoi_desktop.scenes.table.text import coach_text
from tests.engine.helpers import stacked_deck

ONE_ROUND = PRESETS["nintendo"].with_rounds(1)


def _match(deck: list[int]) -> Any:
    return new_match(ONE_ROUND, first_dealer=0, rounds=1, seed=1, decks=[deck])


def _apply(m: Any, text: str) -> None:
    """Apply ``text``, then any forced steps (a draw's only choice)."""
    m.apply(Action.from_text(text))
    while m.round.to_move is not None and len(m.round.legal_actions()) == 1:
        m.apply(m.round.legal_actions()[0])


def hanami_to_stop() -> Any:
    """The dealer plays the Cherry Curtain on March's ribbon and draws the Sake Cup onto
    September's: Hanami, and the stop-or-koi-koi question."""
    deck = stacked_deck(
        ONE_ROUND,
        dealer_hand=[9, 1, 5, 13, 17, 21, 37, 41],
        nondealer_hand=[2, 6, 14, 18, 22, 38, 42, 45],
        field=[10, 34, 25, 29, 26, 30, 3, 7],
        pile=[33],
    )
    m = _match(deck)
    _apply(m, "play 9")
    assert m.round.phase == "decide" and m.round.to_move == 0
    assert [y.key for y in m.round.koikoi_odds(0).yaku] == ["hanami"]
    return m


def ribbons_in_reach() -> Any:
    """The opponent has taken January's and February's poetry ribbons; the dealer holds
    March's, with no March card on the field."""
    deck = stacked_deck(
        ONE_ROUND,
        dealer_hand=[10, 17, 21, 25, 37, 41, 13, 45],
        nondealer_hand=[2, 18, 22, 26, 30, 38, 42, 46],
        field=[3, 7, 15, 19, 31, 35, 39, 47],
        pile=[48, 6],
    )
    m = _match(deck)
    _apply(m, "play 13")  # the Cuckoo takes April's plain card; Dec takes Dec
    _apply(m, "play 2")  # his poetry ribbon takes January's plain card; Feb's ribbon is drawn
    assert m.round.to_move == 0 and {2, 6} <= set(m.round.captured(1))
    assert not any(c in m.round.field for c in (9, 11, 12))
    return m


def _three_ways(m: Any, action: str) -> tuple[Judgement, CoachNote | None, Judgement]:
    """The judgement as the coach builds it, the coach's note (None when it says nothing) and
    the review's judgement of the same decision from the record."""
    a = Action.from_text(action)
    point = decision_point(m, a)
    assert point is not None and point.context is not None
    direct = judge(point, worlds=REVIEW_WORLDS)
    coach = Coach(InlineExecutor(), worlds=REVIEW_WORLDS)
    coach.ask(point)
    heard = coach.poll()
    assert heard is not None
    note = CoachNote.of(heard, undo=False) if heard.cls in SPOKEN else None
    m.apply(a)
    timeline = Timeline.from_record(match_record(m))
    [found] = [p for p in decision_points(timeline) if (p.deal, p.move) == (0, point.move)]
    reviewed = judge(found, worlds=REVIEW_WORLDS)
    assert heard == direct == reviewed  # the coach says what the review says
    return direct, note, reviewed


def test_a_last_round_koikoi_that_can_lose_a_won_match_is_a_blunder() -> None:
    j, note, _ = _three_ways(hanami_to_stop(), str(KOIKOI))
    assert (j.cls, j.best) == ("blunder", "stop")
    assert j.wins["stop"] == 1.0 and j.win_loss - j.margin >= LIMITS[2]
    assert j.values["koikoi"] > j.values["stop"] and j.loss < 0  # more points, lost match
    assert note is not None and note.cls == "blunder"
    said = coach_text(ENGLISH, note)
    lost = round(j.win_loss * 100)
    assert said.startswith(f"Coach: Blunder ?? — -{lost}% chance to win the match")
    assert "-0.0" not in said and "-0%" not in said


def test_handing_over_the_third_poetry_ribbon_is_a_blunder() -> None:
    j, note, _ = _three_ways(ribbons_in_reach(), "play 10")
    assert j.cls == "blunder" and j.best != "play 10"
    assert j.win_loss - j.margin >= LIMITS[2]
    assert note is not None and note.cls == "blunder"
    for lang in ("en", "uk", "ru", "sk", "ja"):
        words = Words(lang)
        said = coach_text(words, note)
        assert words.t("ui.review.class.blunder") in said and str(round(j.win_loss * 100)) in said


def test_the_clearly_best_capture_is_not_flagged() -> None:
    j, note, _ = _three_ways(ribbons_in_reach(), "play 37")
    assert j.cls == "good" and j.best == "play 37" and j.win_loss == 0.0
    assert note is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_independent_worlds_give_the_same_verdicts(seed: int) -> None:
    """Sampled on worlds independent of the review's own, the three positions keep their
    classes (the verdicts are past the noise, not made by it)."""
    cases = ((hanami_to_stop, str(KOIKOI), "blunder"), (ribbons_in_reach, "play 10", "blunder"))
    for make, action, cls in (*cases, (ribbons_in_reach, "play 37", "good")):
        point = decision_point(make(), Action.from_text(action))
        assert point is not None
        assert judge(point, worlds=REVIEW_WORLDS, seed=seed).cls == cls
