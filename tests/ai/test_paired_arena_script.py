"""benchmarks/paired_arena.py: two Expert variants on the same duplicate pairs, compared pair by
pair, with resumable raw files that refuse other settings and tunes that refuse a typo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.benchmark_scripts import load_benchmark

#: A tiny run: one-round matches, 20 playouts a decision, two duplicate pairs a variant.
TINY = ["--seed", "3", "--matches", "4", "--rounds", "1", "--budget", "20"]


def _summary(out: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


def test_one_player_under_two_tunes_differs_by_exactly_0_and_a_complete_run_plays_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``deal_edge=0`` is the shipped value set through the tune: the same player on the same
    seeds plays the same games, so every pair is the same and the paired difference is exactly
    0; run again on its complete raw files, nothing is played and the figures are the same."""
    bench = load_benchmark("paired_arena")
    raw_a, raw_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = [*TINY, "--a", "", "--b", "deal_edge=0", "--raw-a", str(raw_a), "--raw-b", str(raw_b)]
    assert bench.main(argv) == 0
    out = capsys.readouterr()
    assert out.err.count("0 pairs already played, 2 to play") == 2
    data = _summary(out.out)
    assert data["paired"]["pairs"] == 2
    for field in ("win_rate", "points"):
        assert data["paired"][field] == 0.0 and data["paired"][f"{field}_ci95"] == [0.0, 0.0]
        assert data["paired"][f"{field}_verdict"] == "within the noise"
        assert data["a"][field] == data["b"][field]
    assert data["a"]["matches"] == data["b"]["matches"] == 4
    assert data["b"]["tune"] == "deal_edge=0" and data["a"]["tune"] == ""
    assert "B - A over 2 pairs: win rate +0.000 (+0.000 to +0.000): within the noise" in out.out
    lines_a, lines_b = raw_a.read_text().splitlines(), raw_b.read_text().splitlines()
    assert len(lines_a) == len(lines_b) == 2  # one line a duplicate pair
    recs = [json.loads(line) for line in lines_a + lines_b]
    assert [r["pair"] for r in recs] == [0, 1, 0, 1]
    assert recs[0]["matches"] == recs[2]["matches"] and recs[1]["matches"] == recs[3]["matches"]
    assert {r["seed"] for r in recs} == {3} and {r["preset"] for r in recs} == {"nintendo"}

    assert bench.main(argv) == 0
    again = capsys.readouterr()
    assert again.err.count("2 pairs already played, 0 to play") == 2
    assert "pair 0" not in again.err
    assert raw_a.read_text().splitlines() == lines_a
    assert _summary(again.out)["paired"] == data["paired"]


def test_a_baseline_serves_another_variant_and_a_file_of_other_settings_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The baseline's raw file is played once: a second comparison against it plays only the
    new variant (and the baseline's pairs a longer run adds). A raw file written for another
    tune, seed or preset is refused in one line with status 2, and is left as it was."""
    bench = load_benchmark("paired_arena")
    raw_a, raw_b, raw_c = (tmp_path / f"{n}.jsonl" for n in "abc")
    base = [*TINY, "--raw-a", str(raw_a)]
    assert bench.main([*base, "--b", "deal_edge=0", "--raw-b", str(raw_b)]) == 0
    capsys.readouterr()
    assert bench.main([*base, "--b", "max_candidates=1", "--raw-b", str(raw_c)]) == 0
    err = capsys.readouterr().err
    assert "A (as shipped, " in err and "2 pairs already played, 0 to play" in err
    assert "B (max_candidates=1, " in err and "0 pairs already played, 2 to play" in err
    longer = [a if a != "4" else "6" for a in base]
    assert bench.main([*longer, "--b", "max_candidates=1", "--raw-b", str(raw_c)]) == 0
    assert capsys.readouterr().err.count("2 pairs already played, 1 to play") == 2

    before = raw_b.read_text()
    refused = [
        [*base, "--b", "prior_weight=0.6", "--raw-b", str(raw_b)],  # B's file of another tune
        # B's file given as the baseline's
        [*TINY, "--raw-a", str(raw_b), "--b", "deal_edge=1", "--raw-b", str(tmp_path / "d")],
        [*base, "--b", "deal_edge=0", "--raw-b", str(raw_b), "--seed", "4"],
        [*base, "--b", "deal_edge=0", "--raw-b", str(raw_b), "--preset", "seed-001"],
        [*base, "--b", "deal_edge=0", "--raw-b", str(raw_b), "--budget", "30"],
    ]
    for argv in refused:
        assert bench.main(argv) == 2, argv
        out = capsys.readouterr()
        assert out.out == "" and len(out.err.strip().splitlines()) == 1, out.err
        assert "was played with" in out.err
    assert raw_b.read_text() == before
    assert "tune 'deal_edge=0', not 'prior_weight=0.6'" in _refusal(bench, refused[0], capsys)
    (tmp_path / "junk.jsonl").write_text("not json\n")
    damaged = [*base, "--b", "deal_edge=0", "--raw-b", str(tmp_path / "junk.jsonl")]
    assert "junk.jsonl: line 1 is not a pair record" in _refusal(bench, damaged, capsys)


def _refusal(bench: Any, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert bench.main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    return err


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--b", "prior_weigth=0.6"], "--b 'prior_weigth=0.6': the Expert has no setting"),
        (["--a", "budget=3", "--b", ""], "--a 'budget=3': the Expert has no setting 'budget'"),
        (["--b", "choose=1"], "the Expert has no setting 'choose'"),
        (["--b", "prior_weight"], "expected name=value"),
        (["--b", "prior_weight=high"], "prior_weight='high': expected a number or none"),
        (["--b", "", "--budget", "300ms"], "a time budget does not replay"),
        (["--b", "", "--opponent", "expert"], "invalid choice: 'expert'"),
        (["--b", "", "--matches", "0"], "must be at least 1"),
        (["--a", ""], "the following arguments are required: --b"),
    ],
)
def test_bad_flags_are_one_line_and_status_2_before_anything_is_played(
    flags: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_benchmark("paired_arena")
    raws = ["--raw-a", str(tmp_path / "a.jsonl"), "--raw-b", str(tmp_path / "b.jsonl")]
    assert bench.main([*TINY, *raws, *flags]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("paired_arena: ")
    assert len(out.err.strip().splitlines()) == 1 and said in out.err
    assert not list(tmp_path.iterdir())


def _write(raw: Path, tune: str, pairs: list[list[tuple[int | None, int]]]) -> None:
    key = {"preset": "nintendo", "seed": 9, "opponent": "intermediate", "rounds": None}
    key |= {"budget": "1200 playouts", "opponent_budget": None, "tune": tune}
    raw.write_text(
        "".join(
            json.dumps(
                {
                    **key,
                    "pair": i,
                    "matches": [{"winner": w, "diff": d, "rounds": 12} for w, d in pair],
                }
            )
            + "\n"
            for i, pair in enumerate(pairs)
        )
    )


def test_the_paired_difference_is_taken_pair_by_pair_over_the_pairs_both_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finished raw files of a 1,200-playout run, read back without playing: each variant's
    win rate (draws half) and points over its pairs, and B − A over the pairs both have, with
    a normal interval over the per-pair differences and its verdict."""
    bench = load_benchmark("paired_arena")
    raw_a, raw_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    Pair = list[tuple[int | None, int]]
    lost: Pair = [(1, -6), (0, 4)]
    split: Pair = [(None, 0), (1, -2)]
    won: Pair = [(0, 8), (0, 6)]
    # A: 0.5, 0.25, 0.5, 0.5 (points -1 each); B: 1.0, 0.5, 1.0, 1.0 (points 7, -1, 7, 7)
    _write(raw_a, "", [lost, split, lost, lost])
    _write(raw_b, "prior_weight=0.6", [won, lost, won, won])
    argv = ["--seed", "9", "--matches", "8", "--b", "prior_weight=0.60", "--budget", "1200"]
    argv += ["--raw-a", str(raw_a), "--raw-b", str(raw_b)]
    assert bench.main(argv) == 0
    out = capsys.readouterr()
    assert out.err.count("4 pairs already played, 0 to play") == 2
    data = _summary(out.out)
    a, b, paired = data["a"], data["b"], data["paired"]
    assert (a["wins"], a["losses"], a["draws"], a["win_rate"]) == (3, 4, 1, 0.438)
    assert (b["wins"], b["losses"], b["draws"], b["win_rate"]) == (7, 1, 0, 0.875)
    assert a["points"] == -1.0 and b["points"] == pytest.approx((7 - 1 + 7 + 7) / 4)
    # per pair B − A: +0.5, +0.25, +0.5, +0.5 → mean 0.4375, all above 0
    assert paired["pairs"] == 4 and paired["b_ahead"] == 4 and paired["a_ahead"] == 0
    assert paired["win_rate"] == 0.438 and paired["win_rate_verdict"] == "B better"
    lo, hi = paired["win_rate_ci95"]
    assert 0 < lo < 0.4375 < hi
    # points B − A: 8, 0, 8, 8 → mean 6, standard error 2
    assert paired["points"] == 6.0 and paired["points_ci95"] == [2.08, 9.92]
    assert paired["points_verdict"] == "B better"
    assert "B - A over 4 pairs: win rate +0.438" in out.out and ": B better;" in out.out
    # the other way round, the verdict turns
    swapped = ["--seed", "9", "--matches", "8", "--a", "prior_weight=0.6", "--b", ""]
    swapped += ["--budget", "1200", "--raw-a", str(raw_b), "--raw-b", str(raw_a)]
    assert bench.main(swapped) == 0
    assert _summary(capsys.readouterr().out)["paired"]["win_rate_verdict"] == "A better"
