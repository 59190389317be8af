"""Every rule id (R-…) of RULES.md is named by at least one test under tests/engine.

A test names a rule in its function (or class) name — ``test_r_turn_1a_free_discard`` names
R-TURN-1a — or in its docstring (``R-TURN-1a``). The ids are read from ``../shared/RULES.md``
(relative to the repository root) when that file exists, else from the committed copy below.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
RULES_MD = REPO.parent / "shared" / "RULES.md"

#: Committed copy of the ids in RULES.md (used when the shared file is not there).
KNOWN_IDS = (
    "R-DECK",
    "R-DECK-1",
    "R-SETUP-1",
    "R-SETUP-2",
    "R-SETUP-3",
    "R-DEAL",
    "R-DEAL-1",
    "R-DEAL-2",
    "R-DEAL-3",
    "R-DEAL-4",
    "R-DEAL-5",
    "R-INSTANT",
    "R-INSTANT-1",
    "R-INSTANT-2",
    "R-INSTANT-3",
    "R-TURN",
    "R-TURN-0",
    "R-TURN-1",
    "R-TURN-1a",
    "R-TURN-1b",
    "R-TURN-2",
    "R-TURN-3",
    "R-TURN-4",
    "R-INV",
    "R-INV-1",
    "R-INV-2",
    "R-INV-3",
    "R-INV-4",
    "R-YAKU",
    "R-YAKU-1",
    "R-YAKU-2",
    "R-YAKU-3",
    "R-YAKU-4",
    "R-YAKU-5",
    "R-YAKU-6",
    "R-YAKU-7",
    "R-KOI",
    "R-KOI-1",
    "R-KOI-2",
    "R-KOI-3",
    "R-KOI-4",
    "R-KOI-5",
    "R-KOI-6",
    "R-KOI-7",
    "R-END",
    "R-END-1",
    "R-END-2",
    "R-END-3",
    "R-END-4",
    "R-MULT",
    "R-MULT-1",
    "R-MULT-2",
    "R-MULT-3",
    "R-MULT-4",
    "R-PAY",
    "R-MATCH",
    "R-MATCH-1",
    "R-MATCH-2",
    "R-MATCH-3",
    "R-MATCH-4",
)

_ID_RE = re.compile(r"(?<![\w-])R-[A-Z]+(?:-\d+[a-z]?)?(?![\w])")


def rule_ids() -> set[str]:
    """The rule ids RULES.md defines (the shared file if present, else the committed copy)."""
    if RULES_MD.exists():
        return {m.rstrip(".") for m in _ID_RE.findall(RULES_MD.read_text(encoding="utf-8"))}
    return set(KNOWN_IDS)


def collect_texts() -> list[str]:
    """The name and docstring of every test function and class under tests/engine."""
    out: list[str] = []
    for path in sorted(HERE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            ) and node.name.startswith(("test_", "Test")):
                out.append(node.name)
                out.append(ast.get_docstring(node) or "")
    return out


def _named(rule: str, texts: list[str]) -> bool:
    lit = re.compile(re.escape(rule) + r"(?![\w]|-\w)")
    snake_id = re.escape(rule.lower().replace("-", "_"))
    snake = re.compile(r"(?<![a-z0-9])" + snake_id + r"(?![a-z0-9])")
    return any(lit.search(t) or snake.search(t.lower()) for t in texts)


def test_rule_ids_found() -> None:
    """The id list is not empty and contains the known ids (guards the parser itself)."""
    ids = rule_ids()
    assert set(KNOWN_IDS) <= ids, sorted(set(KNOWN_IDS) - ids)


def test_every_rule_id_has_a_test() -> None:
    """Every R- id of RULES.md is named by a test's name or docstring under tests/engine."""
    texts = collect_texts()
    missing = sorted(r for r in rule_ids() if not _named(r, texts))
    assert not missing, f"rule ids without a test: {missing}"


def test_matcher_is_exact() -> None:
    """R-TURN-1 is not named by R-TURN-1a, nor R-TURN by R-TURN-1 (the check can fail)."""
    assert not _named("R-TURN-1", ["see R-TURN-1a"])
    assert not _named("R-TURN", ["see R-TURN-1"])
    assert _named("R-TURN-1a", ["test_r_turn_1a_free_discard"])
    assert _named("R-TURN", ["turns alternate (R-TURN)."])
    assert not _named("R-KOI-1", ["test_r_koi_12"])
