"""Every script in ``benchmarks/`` still runs against today's code and prints its figures.

A benchmark is run by hand, rarely, so a renamed API breaks it silently (``ledger_screen.py``
wrote a ``ledger.jsonl`` long after the game stopped reading one; ``ledger_totals.py`` imported a
helper ``storage_io.py`` had dropped). Each script here runs as its own process, as README's
table runs it (``sys.executable``, the dummy SDL drivers, a private temporary folder), with the
smallest arguments that still go through all of its measuring code, and must exit 0 without a
traceback and print a figure of its own (a pattern of its output, with a number in it).

The figures of such tiny runs mean nothing: how fast is a benchmark's own business, printed by
it, never asserted here. A new script must be added to :data:`RUNS` or, with its reason, to
:data:`NOT_RUN` (``test_every_script_is_run_here_or_named_with_a_reason``), and have its row in
README's table; every benchmark command the documents give names a script and flags it takes.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
#: Only against a hang: each run takes seconds.
HANG_SECONDS = 300


@dataclass(frozen=True)
class Run:
    """A tiny run of one script: its arguments (``{tmp}``: the test's temporary folder) and a
    pattern its standard output matches when it printed its figures."""

    argv: tuple[str, ...]
    figure: str
    #: Exit statuses of a run that went through (a script whose status is its verdict against
    #: a target exits 1 when a tiny run misses it).
    ok: tuple[int, ...] = (0,)
    linux_only: bool = False


RUNS: dict[str, Run] = {
    "ai_latency": Run(("--rounds", "1", "--expert-budget", "20"), r"expert .*p95=\s*[\d.]+ ms"),
    "bundle": Run(
        ("--dist", "{tmp}/dist", "--runs", "1"),
        r"bundled --frames 1, median of 1: +[\d.]+ s",
        linux_only=True,
    ),
    "coach_latency": Run(
        ("--matches", "1", "--worlds", "4"), r"through the coach's worker p50 [\d.]+ ms"
    ),
    "decision_oracle": Run(
        ("--matches", "1", "--worlds", "2", "--keep", "0.05", "--budget", "20"),
        r"as played +\d+ +vs-int [+-][\d.]+",
    ),
    "duplicate_rounds": Run(("--pairs", "4"), r"[+-][\d.]+ points a round \(se [\d.]+\)"),
    "engine_speed": Run(("--seconds", "0.01"), r"nintendo +public_rounds_per_s +[\d,]+"),
    "fuzz_engine": Run(("--actions", "2000"), r'"rounds": [1-9]\d*.*"violations": 0'),
    # Its status is the verdict (worst idle screen under 3% of a core), which a table measured
    # one second after start-up misses: 1 is a run that went through, as its last line shows.
    "idle_cpu": Run(
        ("--settle", "1", "--seconds", "0.2"),
        r"worst idle screen: [\d.]+% of a core",
        ok=(0, 1),
        linux_only=True,
    ),
    "leaf_fit": Run(("--rounds", "20"), r"4\+ pooled +\d+ +[-\d.]+"),
    "learning_screens": Run(
        ("--frames", "1"), r"1920x1080 settings +first +[\d.]+ ms(?s:.*)cold cache: [\d.]+ ms"
    ),
    "ledger_import": Run(
        ("--matches", "12", "--rounds", "1", "--cache", "{tmp}/import"),
        r"import: [\d.]+ s \([\d,]+ matches/s\), peak \d+ MB",
    ),
    "ledger_totals": Run(
        ("--dir", "{tmp}/totals", "--sizes", "10", "--samples", "3", "--batch", "10"),
        r"rebuild the counters from every row: median +[\d.]+ ms",
    ),
    "paired_arena": Run(
        ("--matches", "2", "--rounds", "1", "--budget", "20", "--b", "prior_weight=0.6"),
        r"B - A over 1 pairs: win rate [+-][\d.]+",
    ),
    "reading_ceiling": Run(
        ("--matches", "1", "--rounds", "1", "--pool", "20"), r"his own policy +log loss [\d.]+"
    ),
    "render": Run(
        ("--smoke",),
        r"while the Expert thinks \(1280x800\): \d+ frames(?s:.*)launch to first frame: [\d.]+ s",
    ),
    "render_deck": Run(("--repeat", "1"), r"1920x1080 \(120x192\): best +[\d.]+ ms"),
    "review_agreement": Run(
        ("--matches", "1", "--rounds", "1", "--worlds", "4"),
        r"the same class in [\d.]+%, two classes apart \d+",
    ),
    "review_speed": Run(("--matches", "1", "--worlds", "4"), r'"worst_inline_s": [\d.]+'),
    "round_spread": Run(("--matches", "1", "--preset", "nintendo"), r"nintendo +12 +[+-][\d.]+"),
    "storage_io": Run(
        ("--cache", "{tmp}/cache", "--sizes", "0,20"), r"20 matches(?s:.*)median [\d.]+ ms"
    ),
    "text_audio": Run((), r'"render_label_cached_us": [\d.]+'),
}

#: Scripts this test does not run, each with the reason (another test runs it).
NOT_RUN: dict[str, str] = {
    "soak": "tests/abuse/test_soak_short.py runs it as a process (three 3-round matches)",
    "level_ratings": "tests/ai/test_level_ratings_script.py runs its main on a tiny round robin",
}


def _scripts() -> set[str]:
    return {p.stem for p in BENCHMARKS.glob("*.py")}


def test_every_script_is_run_here_or_named_with_a_reason() -> None:
    assert not set(RUNS) & set(NOT_RUN)
    assert set(RUNS) | set(NOT_RUN) == _scripts()


#: The documents that give benchmark commands, and how a command is written in them (up to the
#: backtick that ends its code span or block).
DOCS = (ROOT / "README.md", BENCHMARKS / "EXPERT.md")
COMMAND = re.compile(r"python\s+(?:benchmarks/(\w+)\.py|-m\s+koikoi_desktop\.ai\.arena)([^`]*)")


def test_readme_has_a_row_for_every_script() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert set(re.findall(r"^\| `python benchmarks/(\w+)\.py", readme, re.M)) == _scripts()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_documented_commands_name_a_script_and_flags_it_takes(doc: Path) -> None:
    """Each ``python benchmarks/NAME.py --flag …`` (and arena command) of the README and
    ``benchmarks/EXPERT.md`` names a script that exists, and each of its flags is one the
    script declares (``"--flag"`` in its source: argparse's ``add_argument``)."""
    commands = list(COMMAND.finditer(doc.read_text(encoding="utf-8")))
    assert commands
    for m in commands:
        name = m.group(1)
        source = BENCHMARKS / f"{name}.py" if name else ROOT / "koikoi_desktop/ai/arena.py"
        assert source.exists(), m.group(0)
        code = source.read_text(encoding="utf-8")
        for flag in re.findall(r"(?<![\w-])--[a-z][\w-]*", m.group(2)):
            assert f'"{flag}"' in code, f"{doc.name}: {m.group(0)!r}: {source.name} has no {flag}"


def _stand_in_bundle(dist: Path) -> None:
    """A ``--dist`` folder whose "bundled game" starts the game from this checkout: the
    script's measuring of a bundle (sizes, archives, timed starts) without the PyInstaller
    build, which ``tests/packaging`` runs (``packaging/build.py``, 20-30 s)."""
    game = dist / "koikoi-desktop" / "koikoi-desktop"
    game.parent.mkdir(parents=True)
    game.write_text(
        f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m koikoi_desktop "$@"\n'
    )
    game.chmod(game.stat().st_mode | stat.S_IXUSR)
    (dist / "koikoi-desktop-linux.tar.gz").write_bytes(b"\0" * 1000)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_script_runs_and_prints_its_figures(name: str, tmp_path: Path) -> None:
    run = RUNS[name]
    if run.linux_only and not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    if name == "bundle":
        _stand_in_bundle(tmp_path / "dist")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "KOIKOI_"))}
    env.update(
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        PYTHONPATH=str(ROOT),
        TMPDIR=str(tmp_path),  # the scripts' own temporary folders, caches and data folders
        XDG_DATA_HOME=str(tmp_path / "xdg"),
    )
    argv = [a.replace("{tmp}", str(tmp_path)) for a in run.argv]
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / f"{name}.py"), *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=HANG_SECONDS,
    )
    said = proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.returncode in run.ok, said
    assert "Traceback" not in proc.stderr, said
    assert re.search(run.figure, proc.stdout), said
