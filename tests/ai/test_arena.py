"""The arena runs, plays duplicate pairs and prints its JSON summary last (issue 5, item 5)."""

from __future__ import annotations

import json

import pytest

from koikoi_desktop.ai import Budget, Reason, ReasonKey, make_opponent, personas
from koikoi_desktop.ai.arena import main, percentile
from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.words.reasons import reason_text


def test_arena_prints_the_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--preset", "nintendo", "--a", "expert", "--b", "beginner", "--matches", "2"]
    assert main([*argv, "--seed", "3", "--rounds", "2", "--budget-a", "30", "--quiet"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(last)
    assert data["matches"] == 2 and data["pairs"] == 1
    assert data["wins_a"] + data["wins_b"] + data["draws"] == 2
    lo, hi = data["win_rate_a_ci95"]
    assert 0.0 <= lo <= data["win_rate_a"] <= hi <= 1.0
    for key in ("mean_point_diff_per_match", "mean_point_diff_per_round", "koikoi", "budget"):
        assert key in data
    assert set(data["latency_ms"]) == {"expert", "beginner"}
    assert data["latency_ms"]["expert"]["p95"] >= data["latency_ms"]["expert"]["p50"]
    assert data["budget"] == {"a": "30 playouts", "b": None}
    assert data["illegal_moves"] == 0
    for level in ("expert", "beginner"):
        counts = data["match_points"][level]
        assert 0 <= counts["thrown"] <= counts["match_points"]


def test_thrown_decisions_are_counted_against_the_certain_answer() -> None:
    """``thrown_decision``: a stop that loses the match while koi-koi could win is thrown at
    once; a koi-koi where the stop won the match is pending (thrown if the match is lost)."""
    from koikoi_desktop.ai.arena import thrown_decision
    from koikoi_desktop.engine import PRESETS, MatchContext
    from koikoi_desktop.engine.actions import KOIKOI, STOP

    from .test_match_decisions import promising, threatened

    rules = PRESETS["nintendo"]
    losing = threatened(rules).view(0)
    behind = MatchContext(0, (20, 40), 11, rules)
    assert thrown_decision(losing, behind, STOP) == "thrown"
    assert thrown_decision(losing, behind, KOIKOI) == "kept"
    winning = promising(rules).view(0)
    ahead = MatchContext(0, (20, 24), 11, rules)
    assert thrown_decision(winning, ahead, KOIKOI) == "pending"
    assert thrown_decision(winning, ahead, STOP) == "kept"
    assert thrown_decision(winning, MatchContext(0, (20, 24), 3, rules), KOIKOI) is None


def test_percentile_nearest_rank() -> None:
    xs = list(range(1, 101))
    assert percentile(xs, 50) == 50 and percentile(xs, 95) == 95 and percentile([], 50) is None


def test_make_opponent_levels_personas_and_budgets() -> None:
    for level in ("beginner", "intermediate", "expert"):
        ps = personas(level)
        assert len(ps) >= 2 and all(1 <= p.birth_month <= 12 and p.age > 0 for p in ps)
        bot = make_opponent(level, seed=1, persona=ps[-1])
        assert bot.level == level and bot.name == ps[-1].name
    assert make_opponent("expert", budget=300).budget == Budget(playouts=300)
    assert make_opponent("expert", budget="250ms").budget == Budget(ms=250.0)
    with pytest.raises(ValueError):
        make_opponent("grandmaster")
    with pytest.raises(ValueError):
        Budget()


def test_reason_keeps_key_and_params_and_is_worded_from_the_catalog() -> None:
    r = Reason(ReasonKey.STOP_THREAT, {"points": 7, "n": 1, "yaku": "inoshikacho"})
    assert r.key == "stop_threat" and r.params["yaku"] == "inoshikacho"
    assert reason_text(ENGLISH, r) == (
        "stops: 7 points now, and the opponent lacks only 1 for Boar, Deer and Butterflies"
    )
    assert not hasattr(r, "text")  # a fact: the AI keeps no sentences


def test_thinker_answers_off_the_calling_thread() -> None:
    import random
    import threading

    from koikoi_desktop.ai import InlineExecutor, Thinker, decide
    from koikoi_desktop.engine import PRESETS, new_round

    state = new_round(PRESETS["nintendo"], dealer=1, rng=random.Random(8))
    thinker = Thinker()
    try:
        thinker.submit(make_opponent("expert", seed=2, budget=50), state.view(1), None)
        assert thinker.busy
        action, why = thinker.wait(30.0)  # type: ignore[misc]
        assert action in state.legal_actions() and isinstance(why, Reason) and why.key in ReasonKey
        assert not thinker.busy
        # a thread worker: the opponent runs on another thread than the one asking
        seen: list[str] = []
        bot = make_opponent("beginner", seed=2)
        real = bot.choose

        def choose(view, context):  # type: ignore[no-untyped-def]
            seen.append(threading.current_thread().name)
            return real(view, context)

        bot.choose = choose  # type: ignore[method-assign]
        thinker.submit(bot, state.view(1), None)
        assert thinker.wait(30.0) is not None
        assert seen and seen[0] != threading.current_thread().name
        idle = make_opponent("beginner", seed=2)  # not seat 0's turn: its error comes back
        thinker.submit(idle, state.view(0), None)
        with pytest.raises(ValueError):
            thinker.wait(30.0)
    finally:
        thinker.close()
    # injected inline executor: the answer is there when submit returns, same as decide()
    inline = Thinker(InlineExecutor())
    inline.submit(make_opponent("intermediate", seed=4), state.view(1), None)
    assert inline.poll() == decide(make_opponent("intermediate", seed=4), state.view(1), None)


def test_tune_refuses_a_name_the_expert_has_no_setting_of(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--tune prior_weigth=0.5`` (a typo) set an attribute nothing reads, and the arena
    measured the Expert as shipped under the tune's name; now it is one line and status 2, and
    ``play_match`` refuses it too."""
    from koikoi_desktop.ai.arena import parse_tune, play_match, tune_settings

    assert parse_tune(" horizon=none, prior_weight=0.60,") == {"horizon": None, "prior_weight": 0.6}
    assert {"prior_weight", "horizon", "learned_leaf", "deal_edge"} <= set(tune_settings())
    assert not {"budget", "seed", "last_playouts", "choose", "level"} & set(tune_settings())
    argv = ["--a", "expert", "--b", "beginner", "--matches", "2", "--rounds", "1", "--quiet"]
    for tune, said in (
        ("prior_weigth=0.5", "the Expert has no setting 'prior_weigth'"),
        ("budget=3", "the Expert has no setting 'budget'"),
        ("horizon", "expected name=value"),
        ("horizon=far", "horizon='far': expected a number or none"),
    ):
        assert main([*argv, "--budget-a", "20", "--tune", tune]) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err.count("\n") == 1
        assert out.err.startswith("arena: --tune: ") and said in out.err
        with pytest.raises(ValueError, match=said):
            play_match(
                "nintendo",
                ("expert", "beginner"),
                (Budget(playouts=20), None),
                match_seed=1,
                first_dealer=0,
                a_seat=0,
                bot_seeds=(1, 2),
                rounds=1,
                tune=tune,
            )
