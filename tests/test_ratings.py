"""The Glicko-2 update (Glickman's worked example and its invariants) and the level fit."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop.ratings import (
    MIN_RD,
    Rating,
    fit_bradley_terry,
    level_ratings,
    rate_match,
    replay,
    update,
)

ratings = st.floats(min_value=600.0, max_value=2400.0)
rds = st.floats(min_value=30.0, max_value=350.0)
vols = st.floats(min_value=0.03, max_value=0.1)
players = st.builds(Rating, ratings, rds, vols)
opponents = st.builds(Rating, ratings, rds)


def test_glickmans_worked_example() -> None:
    """The example of Glickman's "Example of the Glicko-2 system" (τ = 0.5): 1464.06 / 151.52 /
    0.05999 in the paper, which rounds its steps."""
    r = update(
        Rating(1500.0, 200.0, 0.06),
        [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0), (Rating(1700.0, 300.0), 0.0)],
        tau=0.5,
    )
    assert math.isclose(r.rating, 1464.06, abs_tol=0.02)
    assert math.isclose(r.rd, 151.52, abs_tol=0.01)
    assert math.isclose(r.volatility, 0.05999, abs_tol=0.00001)


@settings(max_examples=200, deadline=None)
@given(players, opponents)
def test_a_win_never_lowers_and_a_loss_never_raises_the_rating(p: Rating, o: Rating) -> None:
    assert rate_match(p, o, 1.0).rating >= p.rating
    assert rate_match(p, o, 0.0).rating <= p.rating
    assert rate_match(p, o, 0.0).rating <= rate_match(p, o, 0.5).rating
    assert rate_match(p, o, 0.5).rating <= rate_match(p, o, 1.0).rating


@settings(max_examples=200, deadline=None)
@given(players, opponents, st.sampled_from([0.0, 0.5, 1.0]))
def test_a_game_shrinks_the_rd_and_a_pause_grows_it(p: Rating, o: Rating, score: float) -> None:
    """A game narrows the RD the pause of one rating period (with the new volatility) would
    give; with no game the RD only grows (to at most 350)."""
    after = rate_match(p, o, score)
    grown = math.sqrt(p.rd**2 + (after.volatility * 173.7178) ** 2)
    assert after.rd >= MIN_RD and (after.rd < grown or after.rd == MIN_RD)
    assert update(p, []).rd >= p.rd or update(p, []).rd == 350.0
    assert 0 < after.volatility < 1


@settings(max_examples=100, deadline=None)
@given(players, ratings, ratings, rds)
def test_beating_a_stronger_opponent_gains_more(p: Rating, a: float, b: float, rd: float) -> None:
    weak, strong = sorted((a, b))
    gain_weak = rate_match(p, Rating(weak, rd), 1.0).rating - p.rating
    gain_strong = rate_match(p, Rating(strong, rd), 1.0).rating - p.rating
    assert gain_strong >= gain_weak - 1e-9


def test_replay_is_the_chain_of_single_matches() -> None:
    o = Rating(1200.0, 40.0)
    games = [(o, 1.0), (o, 0.0), (o, 1.0)]
    r = Rating()
    for opp, s in games:
        r = rate_match(r, opp, s)
    assert replay(games) == r


@settings(max_examples=50, deadline=None)
@given(st.floats(min_value=0.05, max_value=0.95), st.floats(min_value=500.0, max_value=1500.0))
def test_the_level_fit_recovers_the_elo_difference(p: float, anchor: float) -> None:
    """A fit of a win share p without the prior gives 400·log10(p / (1 − p)) above the anchor."""
    r = fit_bradley_terry([("a", "b", 1000.0 * p, 1000.0)], anchor=("b", anchor), prior_draws=0)
    assert r["b"] == anchor
    assert math.isclose(r["a"] - anchor, 400.0 * math.log10(p / (1 - p)), abs_tol=0.01)


def test_the_level_fit_stays_finite_when_one_side_won_every_match() -> None:
    r = fit_bradley_terry([("x", "y", 40.0, 40.0), ("y", "z", 30.0, 40.0)], anchor=("z", 1000.0))
    assert r["x"] > r["y"] > r["z"] == 1000.0 and r["x"] < 3000.0


def test_the_shipped_level_ratings_are_measured_data_with_the_beginner_at_1000() -> None:
    """The data file the benchmark wrote: every level, with its interval, the command and the
    commit that measured it."""
    import json
    from importlib import resources

    data = json.loads(
        resources.files("koikoi_desktop.ai").joinpath("level_ratings.json").read_text()
    )
    assert data["command"].startswith("python benchmarks/level_ratings.py") and data["commit"]
    assert {p["a"] for p in data["pairings"]} | {p["b"] for p in data["pairings"]} == {
        "beginner",
        "intermediate",
        "expert",
    }
    levels = level_ratings()
    assert levels["beginner"].rating == 1000.0
    assert levels["expert"].rating > levels["intermediate"].rating > 1000.0
    for lv in levels.values():
        assert lv.low <= lv.rating <= lv.high
        assert lv.opponent.rd >= MIN_RD
