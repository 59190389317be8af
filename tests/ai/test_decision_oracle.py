"""``benchmarks/decision_oracle.py``, the decision-by-decision screen of the Expert's card play:
its oracle prefers what plainly wins, it keeps only the Expert's real choices, and its figures
add up."""

from __future__ import annotations

import argparse
import random

import pytest

from koikoi_desktop.ai.utility import certain_decision
from koikoi_desktop.engine import PRESETS, MatchContext
from koikoi_desktop.engine.actions import KOIKOI, STOP
from tests.benchmark_scripts import load_benchmark

oracle = load_benchmark("decision_oracle")

NINTENDO = PRESETS["nintendo"]
START = MatchContext(0, (0, 0), 0, NINTENDO)


def curtain_deal(make_round):  # type: ignore[no-untyped-def]
    """The dealer, to move first, can take the cherry curtain (a bright, and half of Hanami with
    the sake cup that lies beside it) with his March plain; no other card of his matches."""
    return make_round(
        NINTENDO,
        dealer=0,
        dealer_hand=[11, 13, 17, 21, 25, 37, 41, 45],
        other_hand=[3, 7, 31, 14, 18, 22, 26, 38],
        field=[9, 33, 1, 2, 5, 6, 29, 30],
    )


def test_the_oracle_values_taking_a_bright_above_throwing_away_a_plain(make_round) -> None:
    view = curtain_deal(make_round).view(0)
    values = oracle.oracle_values(view, START, 12, random.Random(3))
    assert set(values) == set(view.legal)
    take = next(a for a in view.legal if a.card == 11)
    assert all(values[take] > v for a, v in values.items() if a != take)


def test_positions_are_the_experts_own_choices_with_every_legal_action_valued() -> None:
    positions = oracle.collect(matches=1, seed=4, worlds=2, keep=0.1, budget=30)
    assert positions
    for pos in positions:
        legal = set(pos.view.legal)
        assert pos.view.phase in ("play", "draw") and len(legal) > 1
        assert set(pos.values) == legal
        assert pos.expert in legal and pos.intermediate in legal
        assert pos.context.seat == pos.view.player


def test_the_other_kinds_keep_every_decision_of_their_kind() -> None:
    called = oracle.collect(matches=2, seed=4, worlds=2, keep=0.0, budget=30, kind="called")
    koikoi = oracle.collect(matches=2, seed=4, worlds=2, keep=0.0, budget=30, kind="koikoi")
    assert called and koikoi  # ``keep`` is the share of ``play`` alone
    for pos in called:
        assert pos.view.phase in ("play", "draw") and max(pos.view.calls) > 0
        assert set(pos.values) == set(pos.view.legal)
    for pos in koikoi:
        assert pos.view.phase == "decide" and set(pos.values) == {KOIKOI, STOP}
        assert certain_decision(pos.view, pos.context) is None
        assert pos.expert in (KOIKOI, STOP) and pos.intermediate in (KOIKOI, STOP)
    last = oracle.collect(matches=1, seed=4, worlds=2, keep=0.0, budget=30, kind="last-rounds")
    assert last and {pos.context.rounds_played for pos in last} == {9, 10, 11}
    assert all(pos.view.phase in ("play", "draw") for pos in last)
    with pytest.raises(ValueError, match="no kind of position 'stops'"):
        oracle.collect(matches=1, seed=4, worlds=2, keep=0.0, budget=30, kind="stops")
    with pytest.raises(ValueError, match="no kind of position 'stops'"):
        oracle.wanted("stops", koikoi[0].view, koikoi[0].context)


def test_a_run_without_positions_says_so_in_one_line() -> None:
    with pytest.raises(SystemExit, match="no koikoi positions in 0 matches"):
        oracle.main(["--matches", "0", "--positions", "koikoi"])


def test_the_figures_add_up(make_round) -> None:
    view = curtain_deal(make_round).view(0)
    legal = list(view.legal)
    values = {a: float(i) for i, a in enumerate(legal)}  # the last is the best
    pos = oracle.Position(view, START, values, legal[0], legal[-1])
    best = len(legal) - 1
    played = oracle.judge_chooser("played", [pos, pos], lambda p: p.expert)
    assert (played.vs_int, played.regret, played.departs, played.se) == (best, 0.0, 1.0, 0.0)
    assert played.by_stage == (best, None, None, None)  # the round's first turn
    same = oracle.judge_chooser("same", [pos], lambda p: p.intermediate)
    assert (same.vs_int, same.regret, same.departs) == (0.0, best, 0.0)
    with pytest.raises(ValueError):
        oracle.judge_chooser("none", [], lambda p: p.expert)


def test_variants_are_read_or_refused_in_one_line() -> None:
    assert oracle.parse_variant("deep:horizon=8,read_hand=0") == (
        "deep",
        {"horizon": 8.0, "read_hand": 0.0},
    )
    assert oracle.parse_variant("full:horizon=none") == ("full", {"horizon": None})
    for bad in ("horizon=8", "x:horizon", "x:horizon=deep"):
        with pytest.raises(argparse.ArgumentTypeError):
            oracle.parse_variant(bad)
    with pytest.raises(SystemExit, match="no setting 'horizn'"):
        oracle.expert_chooser(30, {"horizn": 8.0})


def test_the_split_oracle_is_judged_on_deals_it_did_not_choose_by(make_round) -> None:
    view = curtain_deal(make_round).view(0)
    a, b, *rest = list(view.legal)
    flat = (0.0, 0.0, 0.0, 0.0)
    # a beats b by 1 on every deal: whichever half chooses, it takes a and gains 1 over b
    steady = {a: (1.0, 1.0, 1.0, 1.0), b: flat, **dict.fromkeys(rest, (-5.0,) * 4)}
    pos = oracle.Position(view, START, {}, b, b, steady)
    assert oracle.split_choice(pos) == (1.0, 0.0, 1.0)
    # a looks best on the first half and b on the second: the first half picks a, which loses 2
    # to the Intermediate's b on the second half (and is 2 short of the best there, b); the
    # second half picks b, no gain, 3 short of a on the first half. The oracle's luck on the
    # deals it chose by does not count as skill.
    lucky = {a: (3.0, 3.0, -1.0, -1.0), b: (0.0, 0.0, 1.0, 1.0), **dict.fromkeys(rest, (-5.0,) * 4)}
    pos_b = oracle.Position(view, START, {}, b, b, lucky)
    assert oracle.split_choice(pos_b) == ((-2.0 + 0.0) / 2, (2.0 + 3.0) / 2, (1 + 0) / 2)
    figures = oracle.judge_split([pos, pos_b])
    assert (figures.vs_int, figures.positions, figures.by_stage[0]) == (0.0, 2, 0.0)
    with pytest.raises(ValueError):
        oracle.split_choice(oracle.Position(view, START, {}, b, b))
