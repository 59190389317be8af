"""The learned parts of the Expert (issue 44): the match-equity table and the leaf value.

What the shipped files must be (they load, their provenance is recorded, the table is a
chance and monotone in the lead), that the match goal and the Expert use them, and that the
training scripts run, reproduce their output from the seed and resume from a checkpoint
(tiny runs, slow tier: they play real self-play)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from koikoi_desktop.ai import InlineExecutor, Thinker
from koikoi_desktop.ai.equity import EquityTable, equity_table, provenance
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.ai.utility import MatchGoal
from koikoi_desktop.ai.value import (
    DENSE,
    MISSING,
    N_FEATURES,
    PROGRESS0,
    PROGRESS_GOALS,
    STAGES,
    leaf_model,
    sparse_features,
)
from koikoi_desktop.engine import PRESETS, MatchContext, Rules, mask_of, new_round
from koikoi_desktop.engine.cards import CURTAIN, MOON, POETRY, RAIN_MAN, ids_of
from koikoi_desktop.engine.match import new_match
from koikoi_desktop.engine.yaku import score_yaku
from koikoi_desktop.review.analysis import judge
from koikoi_desktop.review.coach import decision_point
from koikoi_desktop.scenes.table.seats import ComputerSeats

TRAINING = Path(__file__).resolve().parents[2] / "training"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"training_{name}", TRAINING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("family", ["nintendo", "seed-003"])
def test_the_table_is_a_chance_monotone_in_the_lead_and_exact_at_the_end(family: str) -> None:
    t = equity_table(family)
    assert t is not None and t.matches >= 100 and t.rounds >= 12 * t.matches // 2
    for r in range(t.max_rounds + 1):
        for deal in (False, True):
            row = [t.chance(lead=x, rounds_left=r, deal_next=deal) for x in range(-60, 61)]
            assert all(0.0 <= p <= 1.0 for p in row)
            assert all(a <= b + 1e-9 for a, b in itertools.pairwise(row)), (r, deal)
    assert t.chance(lead=1, rounds_left=0, deal_next=None) == 1.0
    assert t.chance(lead=0, rounds_left=0, deal_next=None) == 0.5
    # dealing is worth something, and an even match with rounds to go is about even
    even = t.chance(lead=0, rounds_left=6, deal_next=None)
    assert 0.4 < even < 0.6
    assert t.chance(lead=0, rounds_left=6, deal_next=True) > t.chance(
        lead=0, rounds_left=6, deal_next=False
    )


def test_the_table_says_how_it_was_made() -> None:
    p = provenance()
    assert p["command"].startswith("python training/match_equity.py")
    assert p["commit"] and p["level"] == "intermediate"
    assert set(p["matches"]) == {"nintendo", "seed-003"}


def test_the_match_goal_asks_the_table_where_there_is_one() -> None:
    rules = PRESETS["nintendo"]
    ctx = MatchContext(0, (10, 4), 5, rules)  # 6 ahead, 6 rounds to go after this one
    goal = MatchGoal(ctx, dealer=0)
    t = equity_table("nintendo")
    assert goal.table is t and t is not None
    # winning this round by 3 (I deal next): the table's cell for a lead of 9, 6 rounds left
    assert goal.win_chance(3) == t.chance(lead=9, rounds_left=6, deal_next=True)
    assert goal.win_chance(-3) == t.chance(lead=3, rounds_left=6, deal_next=False)
    # a race and a coin match keep the normal spread
    assert MatchGoal(MatchContext(0, (10, 4), 5, PRESETS["seed-001"])).table is None
    assert MatchGoal(MatchContext(0, (100, 100), 5, PRESETS["seed-000"])).table is None
    # and a custom rule set whose settlement is not its family's
    odd = rules.model_copy(update={"settlement": "zero_sum"})
    assert MatchGoal(MatchContext(0, (10, 4), 5, odd)).table is None


def test_the_leaf_model_loads_and_values_a_world() -> None:
    m = leaf_model()
    assert len(m.weights) == len(STAGES) and all(len(w) == N_FEATURES for w in m.weights)
    assert m.meta["command"].startswith("python training/leaf_value.py")
    assert m.meta["rounds"] > 0 and all(n > 0 for n in m.meta["positions"])


def _progress_of(idx: list[int], seat: int) -> dict[str, int]:
    """The yaku whose progress indicator is set for ``seat`` (0: me, 1: him): key -> missing."""
    per_seat = len(PROGRESS_GOALS) * len(MISSING)
    out = {}
    for i in idx:
        j = i - PROGRESS0 - seat * per_seat
        if 0 <= j < per_seat:
            out[PROGRESS_GOALS[j // len(MISSING)]] = MISSING[j % len(MISSING)]
    return out


def test_the_leaf_features_count_what_each_seat_misses_and_who_can_capture() -> None:
    """The features of a constructed world: two of the three poetry ribbons in my pile are one
    card from Akatan, and a third in his pile makes it hopeless; the tempo is the best capture
    of the seat to move, signed from the seat valued."""
    rules = PRESETS["nintendo"]
    k = knowledge_for(rules)
    s = new_round(rules, dealer=0, rng=random.Random(1))
    poetry = ids_of(POETRY)
    s.caps = [mask_of(poetry[:2]), 0]
    for c in poetry[:2]:
        for hand in (0, 1):
            s.hands[hand] &= ~(1 << c)
        s.field_mask &= ~(1 << c)
    idx, dense = sparse_features(s, 0, k)
    assert len(dense) == len(DENSE) and all(0 <= i < N_FEATURES - len(DENSE) for i in idx)
    assert _progress_of(idx, 0)["akatan"] == 1 and "akatan" not in _progress_of(idx, 1)
    blocked = s.copy()
    blocked.caps = [blocked.caps[0], 1 << poetry[2]]
    idx_b, _ = sparse_features(blocked, 0, k)
    assert "akatan" not in _progress_of(idx_b, 0)
    # the tempo: seen from the other seat the same world's signs turn over
    _, theirs = sparse_features(s, 1, k)
    tempo = {name: x for name, x in zip(DENSE, dense, strict=True)}
    other = {name: x for name, x in zip(DENSE, theirs, strict=True)}
    assert s.to_move == 0 and tempo["to_move"] == 1.0 and other["to_move"] == 0.0
    assert tempo["my_tempo_moving"] == -other["his_tempo_moving"] > 0.0
    assert tempo["his_reply_to_me"] == -other["my_reply_to_him"] <= 0.0
    assert tempo["his_tempo_moving"] == tempo["my_reply_to_him"] == 0.0


def test_sanko_is_as_far_off_as_the_engines_goal_says_with_or_without_the_rain_man() -> None:
    """How far a pile is from Sanko is the engine's goal for the rules, in the one place the
    Intermediate and the learned value read (``Knowledge.open_goals``, which ``threats``
    sorts): with the Rain Man allowed in Sanko, Rain Man and Crane with the Curtain and the
    Moon in the other pile are one card away (Phoenix), and Rain Man, Crane and Curtain make
    it; without, the same pile cannot make it at all, and needs one more non-rain bright in the
    second case."""
    plain = PRESETS["nintendo"]
    rainy = Rules.model_validate({**plain.model_dump(), "sanko_allows_rain_man": True})
    pile, blocked = mask_of([RAIN_MAN, 1]), mask_of([CURTAIN, MOON])
    made = mask_of([RAIN_MAN, 1, CURTAIN])

    def sanko(rules: Rules, pile: int, blocked: int) -> int | None:
        k = knowledge_for(rules)
        return next((t.missing for t in k.threats(pile, blocked) if t.key == "sanko"), None)

    assert sanko(rainy, pile, blocked) == 1 and sanko(plain, pile, blocked) is None
    assert sanko(rainy, made, 0) is None and sanko(plain, made, 0) == 1
    # the engine agrees: with the Rain Man allowed, the Phoenix or the Curtain makes Sanko
    phoenix, curtain = score_yaku([RAIN_MAN, 1, 45], rainy).keys(), score_yaku(made, rainy).keys()
    assert "sanko" in phoenix and "sanko" in curtain and not score_yaku(made, plain).keys()
    # and the learned value's progress indicators say what the threats say
    for rules, expected in ((rainy, {"sanko": 1}), (plain, {})):
        w = new_round(rules, dealer=0, rng=random.Random(1))
        w.caps = [pile, blocked]
        for c in (RAIN_MAN, 1, CURTAIN, MOON):
            w.hands[0] &= ~(1 << c)
            w.hands[1] &= ~(1 << c)
            w.field_mask &= ~(1 << c)
        idx, _ = sparse_features(w, 0, knowledge_for(rules))
        assert {key: n for key, n in _progress_of(idx, 0).items() if key == "sanko"} == expected


def _count_learned(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the calls of the two learned parts (the leaf value, the equity table's cells)."""
    calls = {"leaf": 0, "table": 0}
    leaf_cls = type(leaf_model())
    leaf_value, chance = leaf_cls.value, EquityTable.chance

    def counting_leaf(self: object, *args: object, **kw: object) -> float:
        calls["leaf"] += 1
        return leaf_value(self, *args, **kw)  # type: ignore[arg-type]

    def counting_chance(self: EquityTable, **kw: Any) -> float:
        calls["table"] += 1
        return chance(self, **kw)

    monkeypatch.setattr(leaf_cls, "value", counting_leaf)
    monkeypatch.setattr(EquityTable, "chance", counting_chance)
    return calls


def test_the_games_expert_plays_with_the_learned_leaf_and_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Expert as the table seats it (``make_opponent`` at the in-game budget, asked with the
    match context) values its look-ahead by the learned leaf and a round's result by the learned
    table: this fails if either were off by default."""
    seats = ComputerSeats(("expert", "expert"), seed=3, thinker=Thinker(InlineExecutor()))
    m = new_match(PRESETS["nintendo"], first_dealer=0, seed=5)
    p = m.round.to_move
    assert p is not None
    expert = seats.opponents[p]
    assert expert.learned_leaf is True  # type: ignore[attr-defined]
    calls = _count_learned(monkeypatch)
    action, _reason = seats.now(p, m)
    assert action in m.round.view(p).legal
    assert calls["leaf"] > 0 and calls["table"] > 0, calls


def test_the_review_judges_by_the_learned_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review (and the coach, which asks the same ``judge``) prices a decision of a
    12-round nintendo match by the learned table's chance of winning the match."""
    m = new_match(PRESETS["nintendo"], first_dealer=0, seed=5)
    point = decision_point(m, m.round.legal_actions()[0])
    assert point is not None and point.context is not None
    calls = _count_learned(monkeypatch)
    judged = judge(point, worlds=8)
    assert calls["table"] > 0, calls
    assert all(0.0 <= w <= 1.0 for w in judged.wins.values())


def test_match_equity_script_runs_resumes_and_reproduces(tmp_path: Path) -> None:
    met = _script("match_equity")
    ck = tmp_path / "ck.json"
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert met.main(["--matches", "2", "--seed", "3", "--block", "2", "--out", str(one)]) == 0
    # the same run in two steps through a checkpoint
    met.main(
        [
            "--matches",
            "1",
            "--seed",
            "3",
            "--block",
            "1",
            "--checkpoint",
            str(ck),
            "--out",
            str(two),
        ]
    )
    met.main(
        [
            "--matches",
            "2",
            "--seed",
            "3",
            "--block",
            "1",
            "--checkpoint",
            str(ck),
            "--out",
            str(two),
        ]
    )
    a, b = json.loads(one.read_text()), json.loads(two.read_text())
    assert a["families"] == b["families"]
    assert a["families"]["nintendo"]["matches"] == 2


def test_leaf_value_script_runs_resumes_and_reproduces(tmp_path: Path) -> None:
    leaf = _script("leaf_value")
    ck = tmp_path / "ck.json"
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    args = ["--seed", "3", "--block", "6", "--holdout", "0", "--ridge", "5"]
    assert leaf.main(["--rounds", "12", *args, "--out", str(one)]) == 0
    leaf.main(["--rounds", "6", *args, "--checkpoint", str(ck), "--out", str(two)])
    leaf.main(["--rounds", "12", *args, "--checkpoint", str(ck), "--out", str(two)])
    a, b = json.loads(one.read_text()), json.loads(two.read_text())
    assert a["weights"] == b["weights"] and a["positions"] == b["positions"]
    assert len(a["weights"]) == len(STAGES)
