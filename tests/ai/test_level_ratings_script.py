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
