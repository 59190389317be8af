"""``benchmarks/leaf_fit.py``, the fit behind the Expert's look-ahead score: its least squares
recover known coefficients, and it records positions of real rounds."""

from __future__ import annotations

import random

import pytest

from tests.benchmark_scripts import load_benchmark

leaf_fit = load_benchmark("leaf_fit")


def test_the_fit_recovers_known_coefficients() -> None:
    rng = random.Random(3)
    xs = [[rng.uniform(-5, 5), rng.uniform(0, 4), rng.uniform(0, 4)] for _ in range(400)]
    ys = [0.7 * a + 1.2 * b - 0.65 * c + 0.3 + rng.gauss(0, 0.01) for a, b, c in xs]
    beta, r2 = leaf_fit.fit(xs, ys)
    assert beta == pytest.approx([0.7, 1.2, -0.65, 0.3], abs=0.01)
    assert r2 > 0.999
    _, r2_noise = leaf_fit.fit([[rng.random()] for _ in range(400)], [rng.random() for _ in xs])
    assert r2_noise < 0.05  # a column unrelated to the result explains next to nothing


def test_positions_are_from_the_mover_before_any_call() -> None:
    rows = leaf_fit.positions("nintendo", rounds=6, seed=4)
    assert rows
    for turn, _standing, mine, his, result in rows:
        assert 0 <= turn <= 16 and mine >= 0 and his >= 0
        assert isinstance(result, int)
