"""``benchmarks/duplicate_rounds.py``, the duplicate-deal screen of one-ply players: both sides
hold each hand once, alike choosers score exactly 0, and a stronger chooser scores above 0."""

from __future__ import annotations

import pytest

from koikoi_desktop.engine import PRESETS, Action, PlayerView
from koikoi_desktop.engine.events import Discarded, Played
from tests.benchmark_scripts import load_benchmark

dup = load_benchmark("duplicate_rounds")

NINTENDO = PRESETS["nintendo"]


def test_each_side_holds_each_hand_once() -> None:
    seen: dict[str, list[tuple[int, frozenset[int]]]] = {"a": [], "b": []}
    inter = dup.chooser("intermediate", 0, 1)

    def watching(name: str):  # type: ignore[no-untyped-def]
        def choose(view: PlayerView) -> Action:
            # the public record is kept: the Expert's reading of the opponent reads it
            assert any(isinstance(e, Played | Discarded) for e in view.history) or (
                sum(view.turns) == 0
            )
            if sum(view.turns) < 2 and view.phase == "play":
                seen[name].append((view.player, frozenset(view.hand)))
            action: Action = inter(view)
            return action

        return choose

    dup.duplicate(NINTENDO, watching("a"), watching("b"), pairs=3, seed=5)
    # in each pair a holds, in one seat, the hand b holds in that seat in the other round
    assert len(seen["a"]) == len(seen["b"]) == 2 * 3  # a first play a round, 2 rounds a pair
    assert sorted(seen["a"], key=repr) == sorted(seen["b"], key=repr)
    assert {seat for seat, _ in seen["a"]} == {0, 1}


def test_alike_choosers_score_zero_and_the_stronger_one_scores_above_it() -> None:
    same = dup.duplicate(
        NINTENDO, dup.chooser("intermediate", 0, 1), dup.chooser("intermediate", 0, 1), 20, 3
    )
    assert same == [0.0] * 20
    stronger = dup.duplicate(
        NINTENDO, dup.chooser("intermediate", 0, 1), dup.chooser("beginner", 0, 1), 60, 3
    )
    assert sum(stronger) > 0


def test_an_unknown_chooser_is_refused_in_one_line() -> None:
    with pytest.raises(SystemExit, match="no chooser 'grandmaster'"):
        dup.chooser("grandmaster", 0, 1)
