"""benchmarks/level_ratings.py on a tiny round robin: the data file it writes, and a run that
resumes from its raw results instead of playing again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from koikoi_desktop.ratings import parse_level_ratings
from tests.benchmark_scripts import load_benchmark


def test_the_script_writes_the_data_file_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_benchmark("level_ratings")
    raw, out = tmp_path / "raw.jsonl", tmp_path / "ratings.json"
    argv = ["--pairings", "beginner-intermediate=4", "--bootstrap", "50"]
    argv += ["--raw", str(raw), "--out", str(out)]
    assert bench.main(argv) == 0
    assert "2 to play" in capsys.readouterr().err
    data = json.loads(out.read_text())
    assert data["command"] == "python benchmarks/level_ratings.py " + " ".join(argv)
    assert data["pairings"][0]["matches"] == 4 and data["levels"]["beginner"]["rating"] == 1000
    mid = parse_level_ratings(data)["intermediate"]
    assert mid.low <= mid.rating <= mid.high
    assert len(raw.read_text().splitlines()) == 2  # one line per duplicate pair
    assert bench.main(argv) == 0  # every pair is in the raw file: nothing is played again
    assert "0 to play" in capsys.readouterr().err
    assert json.loads(out.read_text())["levels"] == data["levels"]


def test_a_pairing_may_name_its_seed_and_reuse_an_earlier_runs_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pairs a run played on seed 5 (as the arena would, ``--a beginner --b intermediate``)
    feed a later run that names them with ``@5``, beside the same levels on another seed and
    the other way round: nothing is played twice, and the seeds are pooled in one fit."""
    bench = load_benchmark("level_ratings")
    raw, out = tmp_path / "raw.jsonl", tmp_path / "ratings.json"
    first = ["--pairings", "beginner-intermediate=2", "--seed", "5", "--bootstrap", "20"]
    assert bench.main([*first, "--raw", str(raw)]) == 0
    assert "1 to play" in capsys.readouterr().err
    argv = ["--pairings", "beginner-intermediate=2@5", "intermediate-beginner=2"]
    argv += ["--bootstrap", "20", "--raw", str(raw), "--out", str(out)]
    assert bench.main(argv) == 0
    assert "1 pairs already played, 1 to play" in capsys.readouterr().err
    data = json.loads(out.read_text())
    assert [(p["a"], p["seed"], p["matches"]) for p in data["pairings"]] == [
        ("beginner", 5, 2),
        ("intermediate", 1, 2),
    ]
    assert data["seeds"] == [1, 5]
    row = data["pairings"][0]  # the arena's own figures of the pairs it played
    assert row["win_rate_a"] == (row["wins_a"] + row["draws"] / 2) / row["matches"]
    assert row["win_rate_a_ci95"][0] <= row["win_rate_a"] <= row["win_rate_a_ci95"][1]
    seeds = [json.loads(line)["seed"] for line in raw.read_text().splitlines()]
    assert seeds == [5, 1]
    with pytest.raises(SystemExit):
        bench.main(["--pairings", "beginner-intermediate=2", "beginner-intermediate=4"])


def test_a_run_without_the_anchor_prints_its_pairings_and_no_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The arena's figures on their own (``expert-intermediate=400 --seed 7001``, read back
    from a finished raw file): the pairing's line, and no ratings, since no pairing plays the
    Beginner the ratings are pinned to (before: a KeyError after every match was played);
    ``--out`` is refused at once, before anything is played."""
    bench = load_benchmark("level_ratings")
    raw = tmp_path / "raw.jsonl"
    pairs = [
        [{"winner": 0, "diff": 12}, {"winner": 1, "diff": -3}],
        [{"winner": None, "diff": 0}] * 2,
    ]
    raw.write_text(
        "".join(
            json.dumps(
                {
                    "preset": "nintendo",
                    "seed": 9,
                    "pairing": "expert-intermediate",
                    "pair": i,
                    "matches": m,
                }
            )
            + "\n"
            for i, m in enumerate(pairs)
        )
    )
    argv = ["--pairings", "expert-intermediate=4", "--seed", "9", "--raw", str(raw)]
    assert bench.main(argv) == 0
    out = capsys.readouterr()
    assert "2 pairs already played, 0 to play" in out.err
    assert "expert-intermediate seed 9: 4 matches, 1-1-2, win rate of the first 0.500" in out.out
    assert "no ratings" in out.out
    assert json.loads(out.out.splitlines()[-1])["levels"] == {}
    with pytest.raises(SystemExit):
        bench.main([*argv, "--out", str(tmp_path / "ratings.json")])
    assert not (tmp_path / "ratings.json").exists()
