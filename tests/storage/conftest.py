"""Fixtures for the storage tests: a private data directory and realistic match records."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.storage import MatchRecord, Notice, RoundEntry, Storage
from koikoi_desktop.words.storage import notice_text

_counter = itertools.count()


def make_record(
    *,
    rounds: int = 12,
    winner: int | None = 0,
    preset: str = "nintendo",
    level: str = "intermediate",
    practice: bool = False,
    player_name: str = "Kaede",
    calls: tuple[int, int] | None = (1, 0),
    seq: int | None = None,
    **extra: Any,
) -> MatchRecord:
    """A plausible finished match: ``rounds`` rounds alternately won by seat 0 and seat 1."""
    n = next(_counter) if seq is None else seq
    entries = []
    balances = [0, 0]
    for i in range(rounds):
        w = i % 2
        final = 2 + (i * 7 + n) % 9
        balances[w] += final
        entries.append(
            RoundEntry(
                round=i + 1,
                dealer=(i + 1) % 2,
                end="stop",
                winner=w,
                yaku=[{"key": "tane", "points": 1}, {"key": "akatan", "points": 5}],
                base=final,
                factors=[{"name": "seven_plus", "factor": 2}] if final >= 7 else [],
                final=final,
                paid=final,
                balances=(balances[0], balances[1]),
                koikoi_calls=calls,
            )
        )
    return MatchRecord(
        match_id=f"m{n:06d}",
        date=datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=n),
        preset=preset,
        options={"koikoi_limit": None} if n % 3 == 0 else {},
        opponent_name=player_name,
        opponent_level=level,
        practice=practice,
        rounds=entries,
        final_balances=(balances[0], balances[1]),
        winner=winner,
        **extra,
    )


@pytest.fixture
def record() -> Callable[..., MatchRecord]:
    return make_record


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(data_dir: Path) -> Iterator[Storage]:
    s = Storage.open(data_dir)
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _no_env_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOIKOI_DATA_DIR", raising=False)


def files(directory: Path) -> dict[str, bytes]:
    """Every regular file of ``directory`` with its bytes (lock file excluded)."""
    return {
        p.name: p.read_bytes()
        for p in sorted(directory.iterdir())
        if p.is_file() and p.name != "ledger.lock"
    }


def aside(directory: Path, name: str) -> list[Path]:
    """Quarantined copies of ``name`` (``name.damaged-…`` etc.)."""
    return sorted(
        p for p in directory.iterdir() if p.name.startswith(name + ".") and p.name != name
    )


def said(notice: Notice) -> str:
    """A storage notice as the command line prints it (English)."""
    return notice_text(ENGLISH, notice)


class Helpers:
    """Helpers handed to tests as the ``h`` fixture (test modules cannot import conftest)."""

    make_record = staticmethod(make_record)
    said = staticmethod(said)
    files = staticmethod(files)
    aside = staticmethod(aside)


@pytest.fixture(scope="session")
def h() -> type[Helpers]:
    return Helpers
