"""``benchmarks/reading_ceiling.py``, the ceiling of reading the opponent's hand from his plays:
the true hand always fits his plays, other hands can be ruled out, and every reading is a
distribution over his hand."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from tests.benchmark_scripts import load_benchmark

rc = load_benchmark("reading_ceiling")


@pytest.fixture(scope="module")
def positions() -> list:  # type: ignore[type-arg]
    return list(itertools.islice(rc.positions(2, 3, 4), 24))


def test_positions_follow_his_plays(positions: list) -> None:  # type: ignore[type-arg]
    assert len(positions) == 24
    for pos in positions:
        assert pos.view.player == 0 and pos.view.phase == "play" and pos.his_plays
        assert pos.his_hand.bit_count() == pos.view.opponent_hand_size
        assert pos.his_hand & pos.view.unseen_mask == pos.his_hand  # his hand is unseen to me
        for play in pos.his_plays:  # what he played is no longer in his hand
            assert not (pos.his_hand >> play.action.card) & 1


def test_the_true_hand_fits_his_plays_and_others_are_ruled_out(
    positions: list,  # type: ignore[type-arg]
) -> None:
    rng = random.Random(1)
    ruled_out = 0
    for pos in positions:
        assert rc.likelihood(pos.his_plays, pos.his_hand, 0.0) > 0.0
        unseen = [c for c in range(1, 49) if (pos.view.unseen_mask >> c) & 1]
        for _ in range(10):
            hand = sum(1 << c for c in rng.sample(unseen, pos.view.opponent_hand_size))
            ruled_out += rc.likelihood(pos.his_plays, hand, 0.0) == 0.0
    assert ruled_out > 0  # his plays do tell something


def test_every_reading_is_a_distribution_over_his_hand(
    positions: list,  # type: ignore[type-arg]
) -> None:
    rng = random.Random(2)
    for pos in positions[:6]:
        chance, ess = rc.estimates(pos, 40, 0.05, rng)
        assert set(chance) == set(rc.READINGS)
        assert 1.0 <= ess <= 40.0 + 1e-9
        for name, probs in chance.items():
            assert set(probs) == {c for c in range(1, 49) if (pos.view.unseen_mask >> c) & 1}
            assert all(0.0 <= p <= 1.0 + 1e-9 for p in probs.values())
            assert math.isclose(sum(probs.values()), pos.view.opponent_hand_size), name


def test_log_loss_scores_certainty_and_doubt() -> None:
    assert rc.log_loss({1: 1.0, 2: 0.0}, 1 << 1) == pytest.approx(-2 * math.log(0.995))
    assert rc.log_loss({1: 0.5}, 0) == pytest.approx(math.log(2))


def test_bad_flags_say_so_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        rc.main(["--eps", "1"])
    assert "reading_ceiling:" in str(exc.value) and "\n" not in str(exc.value)


def test_the_script_prints_every_reading(capsys: pytest.CaptureFixture[str]) -> None:
    assert rc.main(["--matches", "1", "--rounds", "2", "--pool", "20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1 matches of 2 rounds, seed 1:")
    assert [line.split(" log loss")[0].strip() for line in lines[1:]] == list(rc.READINGS)
    assert "closes   0.0% of the gap" in lines[1]  # uniform is the baseline
