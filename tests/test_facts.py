"""One place for the game's facts (issue 44, item 4): ``engine.facts`` names what the AI, the UI
and storage list, and the copies that must stay (the opponent classes, the level
ratings, the catalogs' words, the saved-match model) agree with it; no module lists the card
kinds or the levels again."""

from __future__ import annotations

import ast
import json
from importlib import resources
from pathlib import Path
from typing import get_args

import koikoi_desktop
from koikoi_desktop.ai import levels
from koikoi_desktop.engine import DECK, PRESETS, facts, goals
from koikoi_desktop.i18n import LANGUAGES, catalog
from koikoi_desktop.storage import models

ROOT = Path(koikoi_desktop.__file__).parent


def test_the_copies_that_must_stay_agree_with_the_facts() -> None:
    # the lights: the bright cards, and the yaku made of nothing but them
    assert tuple(c.id for c in DECK if c.kind == "bright") == facts.LIGHT_CARDS
    for rules in PRESETS.values():
        of_lights = {g.key for g in goals(rules) if set(g.cards) <= set(facts.LIGHT_CARDS)}
        assert of_lights == set(facts.LIGHT_YAKU) & {g.key for g in goals(rules)}
        counting = {g.key: g.need for g in goals(rules) if g.counting}
        assert counting == {k: n for k, n in facts.YAKU_NEEDS.items() if k in counting}
    assert sorted(facts.CARD_KINDS) == sorted({c.kind for c in DECK})
    # the levels: one opponent class each, one measured rating each, the saved seats
    assert tuple(levels._CLASSES) == facts.LEVELS
    ratings = json.loads(
        resources.files("koikoi_desktop.ai").joinpath("level_ratings.json").read_text()
    )
    assert tuple(ratings["levels"]) == facts.LEVELS
    assert get_args(models.SeatKind) == facts.SEAT_KINDS == ("human", *facts.LEVELS)
    # every catalog has a word for every level and card kind
    for code in LANGUAGES:
        entries = catalog(code)
        for level in facts.LEVELS:
            assert f"ui.level.{level}" in entries, (code, level)
        for kind in facts.CARD_KINDS:
            assert f"kind.{kind}" in entries, (code, kind)


def _literal_tuples(tree: ast.AST) -> list[tuple[int, tuple[object, ...]]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
            out.append((node.lineno, tuple(e.value for e in node.elts)))  # type: ignore[attr-defined]
    return out


def test_no_module_lists_the_kinds_the_levels_or_the_lights_again() -> None:
    listed = {
        facts.CARD_KINDS: "facts.CARD_KINDS",
        facts.LEVELS: "facts.LEVELS",
        facts.SEAT_KINDS: "facts.SEAT_KINDS",
        facts.LIGHT_CARDS: "facts.LIGHT_CARDS",
        facts.LIGHT_YAKU: "facts.LIGHT_YAKU",
    }
    homes = {
        ROOT / "engine" / "facts.py",
        ROOT / "engine" / "cards.py",
        ROOT / "engine" / "yaku.py",
    }
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if path in homes:
            continue
        for line, values in _literal_tuples(ast.parse(path.read_text(encoding="utf-8"))):
            if values in listed:
                found.append(f"{path.relative_to(ROOT)}:{line} repeats {listed[values]}")
    assert not found, found
