"""The learned match-equity table (issue 44, item 1): the chance of winning a match from its score.

``data/match_equity.json`` is made by ``training/match_equity.py`` (in the repository, not in the
wheel; the file records the command, the commit and how many self-play matches and rounds made
it): for each preset family with a fixed number of rounds and no bankruptcy, the chance of
winning the match (a draw counts ½) with ``r`` rounds left to play, leading by ``lead`` (points
or coins: the lead as :class:`~koikoi_desktop.engine.MatchContext` counts it), and dealing the
first of those rounds or not. It is the exact consequence of how rounds end in self-play (each
round's result seen from its dealer, measured; the match by backward induction over the rounds
with the engine's deal and settlement rules), so the dealer's edge (R-SETUP-3) is in it.

>>> t = equity_table("nintendo")
>>> t is not None and t.chance(lead=0, rounds_left=12, deal_next=True) > 0.5
True
>>> ahead = t.chance(lead=5, rounds_left=1, deal_next=False)
>>> ahead > t.chance(lead=0, rounds_left=1, deal_next=False)
True
>>> equity_table("seed-001") is None   # a race: not a fixed number of rounds
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

#: The shipped table, inside the package (it is package data in the wheel).
DATA = ("data", "match_equity.json")


@dataclass(frozen=True)
class EquityTable:
    """One family's table: ``cells[r][deal][lead + max_lead]``."""

    family: str
    max_lead: int
    cells: tuple[tuple[tuple[float, ...], ...], ...]
    matches: int
    rounds: int

    @property
    def max_rounds(self) -> int:
        return len(self.cells) - 1

    def covers(self, rounds_left: int) -> bool:
        return 0 <= rounds_left <= self.max_rounds

    def chance(self, *, lead: float, rounds_left: int, deal_next: bool | None) -> float:
        """P(win the match) before the next ``rounds_left`` rounds, leading by ``lead``
        (fractions interpolated), dealing the next round (``deal_next``; None: not known, the
        mean of both)."""
        if not self.covers(rounds_left):
            raise ValueError(f"the table covers 0-{self.max_rounds} rounds, not {rounds_left}")
        row = self.cells[rounds_left]
        if deal_next is None:
            return 0.5 * (self._at(row[0], lead) + self._at(row[1], lead))
        return self._at(row[1 if deal_next else 0], lead)

    def _at(self, cells: tuple[float, ...], lead: float) -> float:
        x = min(max(lead + self.max_lead, 0.0), float(len(cells) - 1))
        i = int(x)
        f = x - i
        if f == 0.0 or i + 1 >= len(cells):
            return cells[i]
        return (1.0 - f) * cells[i] + f * cells[i + 1]


@cache
def _load() -> dict[str, Any]:
    ref = resources.files("koikoi_desktop.ai").joinpath(*DATA)
    data: dict[str, Any] = json.loads(ref.read_text(encoding="utf-8"))
    return data


def provenance() -> dict[str, Any]:
    """How the shipped table was made: command, commit, seed, matches and rounds a family."""
    data = _load()
    fams = data["families"]
    return {
        "command": data["command"],
        "commit": data["commit"],
        "seed": data["seed"],
        "level": data["level"],
        "matches": {f: fams[f]["matches"] for f in fams},
        "rounds": {f: fams[f]["rounds"] for f in fams},
    }


@cache
def equity_table(family: str) -> EquityTable | None:
    """The table of a preset family (``Rules.based_on``), or None when the family has none
    (a race to a target, or coins that can run out: the match goal's normal spread serves)."""
    data = _load()
    fam = data["families"].get(family)
    if fam is None:
        return None
    cells = tuple(tuple(tuple(float(v) for v in d) for d in r) for r in fam["table"])
    return EquityTable(
        family, int(data["max_lead"]), cells, int(fam["matches"]), int(fam["rounds"])
    )


__all__ = ["EquityTable", "equity_table", "provenance"]
