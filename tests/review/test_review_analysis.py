"""The match review's analysis: exact replays, view-only evaluation, judgements that mean it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.evaluate import evaluate_actions
from koikoi_desktop.ai.utility import MatchGoal
from koikoi_desktop.engine import PRESETS, Action, MatchContext, match_record, new_match, new_round
from koikoi_desktop.engine.actions import DECLARE, KOIKOI
from koikoi_desktop.engine.cards import GAJI, ids_of
from koikoi_desktop.engine.deal import deal_positions
from koikoi_desktop.review.analysis import (
    CLASSES,
    Review,
    decision_kind,
    decision_points,
    judge,
    review_record,
)
from koikoi_desktop.review.runner import ReviewRunner
from koikoi_desktop.review.timeline import Timeline

NINTENDO = PRESETS["nintendo"]


def random_match(seed: int, rounds: int = 2, preset: str = "nintendo") -> Any:
    m = new_match(PRESETS[preset], first_dealer=seed % 2, seed=seed, rounds=rounds)
    rng = random.Random(seed)
    while m.outcome is None:
        m.apply(rng.choice(m.round.legal_actions()))
    return m


def bot_match(levels: tuple[str, str], seed: int, rounds: int, budget: int = 150) -> Any:
    bots = [make_opponent(levels[p], seed=seed + p, budget=budget) for p in (0, 1)]
    m = new_match(NINTENDO, first_dealer=seed % 2, seed=seed, rounds=rounds)
    while m.outcome is None:
        p = m.round.to_move
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    return m


# ----------------------------------------------------------------------------- replay
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["nintendo", "seed-000", "seed-003"]))
def test_the_review_replays_to_the_same_final_state_as_the_match(seed: int, preset: str) -> None:
    m = random_match(seed, rounds=3, preset=preset)
    t = Timeline.from_record(match_record(m))
    assert len(t.deals) == len(m.deals) == len(m.ledger)
    for deal, entry in zip(t.deals, m.ledger, strict=True):
        out = deal.final.outcome
        assert out is not None and deal.entry == entry
        assert (out.winner, out.final, out.reason) == (entry.winner, entry.final, entry.end)
        assert deal.state_at(0).moves == [] and deal.final.moves == list(deal.moves)
    assert t.deals[-1].final.caps == m.round.caps
    assert t.deals[-1].final.field_mask == m.round.field_mask
    assert t.match.balances == m.balances
    assert len(t.positions) == sum(len(d.moves) + 1 for d in m.deals)


def test_a_match_in_progress_shows_only_its_settled_rounds() -> None:
    m = new_match(NINTENDO, first_dealer=0, seed=5)
    rng = random.Random(5)
    while len(m.ledger) < 2:
        m.apply(rng.choice(m.round.legal_actions()))
    m.apply(m.round.legal_actions()[0])  # a move of round 3: its hands must stay hidden
    t = Timeline.from_record(match_record(m), settled_only=True)
    assert [d.round for d in t.deals] == [1, 2]
    assert len(Timeline.from_record(match_record(m)).deals) == 3


# ----------------------------------------------------------------------------- hidden cards
def _permuted_twin(seed: int) -> tuple[Any, Any, int] | None:
    """A round and a twin whose unseen cards (at the move returned) are dealt differently."""
    rng = random.Random(seed)
    s = new_round(NINTENDO, dealer=0, rng=rng)
    deck = list(s.deck)
    for _ in range(rng.randrange(0, 10)):
        if s.outcome is not None:
            return None
        s.apply(rng.choice(s.legal_actions()))
    if s.outcome is not None or s.phase != "play" or len(s.legal_actions()) < 2:
        return None
    p = s.to_move
    view = s.view(p)
    unseen = set(view.unseen)
    spots = [i for i, c in enumerate(deck) if c in unseen]
    shuffled = [deck[i] for i in spots]
    rng.shuffle(shuffled)
    twin_deck = list(deck)
    for i, c in zip(spots, shuffled, strict=True):
        twin_deck[i] = c
    t = new_round(NINTENDO, dealer=0, deck=twin_deck)
    try:
        for mv in s.moves:
            t.apply(mv)
    except ValueError:
        return None
    if t.view(p) != view or t.hands[1 - p] == s.hands[1 - p]:
        return None  # the twin differs in what the seat saw (an instant win...): try another
    return s, t, p


def test_evaluation_uses_only_the_seats_view() -> None:
    """Dealing the cards the seat cannot see differently changes nothing in its judgement."""
    found = 0
    for seed in range(200):
        twin = _permuted_twin(seed)
        if twin is None:
            continue
        s, t, p = twin
        legal = s.legal_actions()
        played = legal[-1]
        a = evaluate_actions(s.view(p), legal, rng=random.Random(3), worlds=12)
        b = evaluate_actions(t.view(p), legal, rng=random.Random(3), worlds=12)
        assert a == b
        from koikoi_desktop.review.analysis import DecisionPoint

        ctx = MatchContext(p, (2, 0) if p == 0 else (0, 2), 8, NINTENDO)
        ja = judge(
            DecisionPoint(0, len(s.moves), 1, 1, p, "play", played, s.view(p), ctx), worlds=12
        )
        jb = judge(
            DecisionPoint(0, len(t.moves), 1, 1, p, "play", played, t.view(p), ctx), worlds=12
        )
        assert ja == jb
        found += 1
        if found == 4:
            break
    assert found == 4


# ----------------------------------------------------------------------------- judgements
def test_beginner_loses_more_per_decision_than_expert_in_arena_matches() -> None:
    """Duplicate pairs as in the arena: the same deals, the seats swapped, four deal seeds
    pooled (one 4-round pair is too few decisions: the judge samples 24 worlds)."""
    losses: dict[str, list[float]] = {"beginner": [], "expert": []}
    both = (("beginner", "expert"), ("expert", "beginner"))
    pairs = [(s, lv) for s in (20, 21, 22, 23) for lv in both]
    for seed, levels in pairs:
        m = bot_match(levels, seed, rounds=4)
        review = review_record(match_record(m), worlds=24)
        for j in review.judgements:
            losses[levels[j.seat]].append(j.win_loss)
    mean = {k: sum(v) / len(v) for k, v in losses.items()}
    assert len(losses["beginner"]) >= 80 and len(losses["expert"]) >= 80
    assert mean["beginner"] > mean["expert"], mean


def _thrown_last_round() -> tuple[str, int]:
    """A two-round match whose last round a seat threw: behind before it, it made a yaku that
    would have won the match had it stopped, called koi-koi instead, and lost the match.
    Everything else is played by Intermediate opponents. Returns (record, the call's move)."""
    for seed in range(400):
        m = new_match(NINTENDO, first_dealer=seed % 2, seed=seed, rounds=2)
        bots = [make_opponent("intermediate", seed=seed + p) for p in (0, 1)]
        thrown: tuple[int, int] | None = None
        while m.outcome is None:
            r = m.round
            p = r.to_move
            lead = m.balances[p] - m.balances[1 - p]
            if (
                thrown is None
                and len(m.ledger) == 1
                and r.phase == "decide"
                and KOIKOI in r.legal_actions()
                and lead < 0 < lead + r.koikoi_odds(p).payout
            ):
                thrown = (p, len(r.moves))
                m.apply(KOIKOI)
                continue
            m.apply(bots[p].choose(r.view(p), m.context(p)))
        if thrown is not None and m.outcome.winner == 1 - thrown[0]:
            return match_record(m), thrown[1]
    raise AssertionError("no round to throw found")


def test_throwing_the_last_round_is_a_blunder() -> None:
    record, move = _thrown_last_round()
    t = Timeline.from_record(record)
    point = next(p for p in decision_points(t) if p.deal == 1 and p.move == move)
    assert point.kind == "koikoi" and point.played == KOIKOI
    assert point.context is not None and point.context.rounds_left == 0
    j = judge(point, worlds=48)
    assert j.cls == "blunder", j
    assert j.best == "stop" and j.wins is not None and j.wins["stop"] == 1.0
    assert j.win_loss is not None and j.win_loss >= 0.2
    assert j.reason.key in ("stop_sure", "stop_sure_loss")
    review = review_record(record, worlds=8, rounds=[2])
    assert any(x.move == move and x.cls == "blunder" for x in review.judgements)


def test_classes_come_from_the_documented_thresholds() -> None:
    """One currency: the match-win chance lost, classed by the lower end of its 95% range."""
    from koikoi_desktop.review.analysis import LIMITS, class_of, classify

    assert LIMITS == (0.03, 0.06, 0.12)
    assert [classify(x) for x in (0.0, 0.029, 0.03, 0.059, 0.06, 0.119, 0.12, 0.5)] == [
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert class_of(0.20, 0.05) == "blunder" and class_of(0.15, 0.05) == "mistake"
    assert class_of(0.04, 0.02) == "good"  # not clearly past the inaccuracy's 3%


def test_accuracy_is_100_only_without_a_flagged_decision_and_falls_with_the_losses() -> None:
    from koikoi_desktop.review.analysis import Judgement, seat_accuracy

    def j(win_loss: float, cls: str = "good") -> Judgement:
        return Judgement(0, 0, 1, 1, 0, "play", "a", "b", 0.0, cls, {}, win_loss=win_loss)

    assert seat_accuracy([j(0.0)] * 19) == 100
    one = seat_accuracy([j(0.0)] * 18 + [j(0.21, "blunder")])
    assert one is not None and one < 100
    many = seat_accuracy([j(0.0)] * 500 + [j(0.13, "blunder")])
    assert many == 99  # rounded down: never "100%" beside a blunder
    falls = [seat_accuracy([j(0.0)] * 9 + [j(x)]) for x in (0.0, 0.01, 0.05, 0.1, 0.3)]
    assert falls == sorted(falls, reverse=True) and len(set(falls)) == len(falls)


def test_win_chance_follows_the_lead_and_the_rounds_left() -> None:
    """The review's chance of winning the match is the AI's match goal (issue 13): exact when
    the engine says the round ends the match, estimated before."""
    early = MatchGoal(MatchContext(0, (0, 0), 1, NINTENDO)).win_chance
    late = MatchGoal(MatchContext(0, (0, 0), 11, NINTENDO)).win_chance  # the last round
    assert early(0) == late(0) == 0.5
    assert 0.5 < early(3) < late(3) == 1.0
    assert MatchGoal(MatchContext(0, (0, 10), 11, NINTENDO)).win_chance(3) == 0.0
    # a race and a coin match have one too (a fixed-length match was the only one before)
    race = MatchGoal(MatchContext(0, (45, 10), 3, PRESETS["seed-001"])).win_chance
    assert race(5) == 1.0 and 0.0 < race(-5) < race(0) < race(4) < 1.0
    coins = MatchGoal(MatchContext(0, (30, 2), 4, PRESETS["seed-000"])).win_chance
    assert coins(5) == 1.0  # the opponent's purse is emptied: bankruptcy ends it


def test_decision_kinds() -> None:
    r = new_round(NINTENDO, dealer=0, rng=random.Random(1))
    v = r.view(0)
    assert decision_kind(v, v.legal[0]) == "play"
    assert decision_kind(v, Action.from_text("declare")) == "declare"


def _gaji_deal(field: list[int]) -> Any:
    """The dealer's first view in a round with the lightning wild, the lightning in the
    dealer's hand and ``field`` on the table."""
    rules = NINTENDO.model_copy(update={"gaji_wild": True})
    sources = {
        "d": [GAJI, 3, 7, 11, 15, 19, 23, 27],
        "nd": [4, 8, 12, 16, 20, 24, 28, 32],
        "f": list(field),
    }
    deck = [sources[dest].pop(0) for dest, _ in deal_positions(rules)]
    deck += [c for c in range(1, 49) if c not in deck]
    r = new_round(rules, dealer=0, deck=deck)
    assert r.to_move == 0
    return r.view(0)


def test_the_lightning_is_a_gaji_decision_only_when_it_may_pair_with_another_month() -> None:
    """The engine says what a Gaji pairing is (``is_gaji_pairing``): the lightning facing two
    November cards on the field chooses between them like any card (``play``), but with no
    November card about it may pair with any field card, so playing it is the ``gaji`` choice."""
    choice = _gaji_deal([41, 42, 1, 5, 9, 13, 17, 21])
    assert Action.play(GAJI, 41) in choice.legal
    assert decision_kind(choice, Action.play(GAJI, 41)) == "play"
    wild = _gaji_deal([1, 5, 9, 13, 17, 21, 25, 29])
    assert decision_kind(wild, Action.play(GAJI, 5)) == "gaji"
    assert decision_kind(wild, Action.play(GAJI)) == "gaji"
    assert decision_kind(wild, Action.play(3)) == "play"


def test_a_review_round_trips_through_its_cache_text_and_exports_the_issue_fields() -> None:
    m = random_match(4, rounds=1)
    review = review_record(match_record(m), worlds=6)
    again = Review.from_json(review.to_json())
    assert again is not None and again.judgements == review.judgements
    assert Review.from_json('{"version": 999, "judgements": []}') is None
    assert Review.from_json("not json") is None
    doc = review.export()
    need = {"seat", "round", "turn", "kind", "played", "best", "loss", "class"}
    assert doc["decisions"] and all(need <= set(d) for d in doc["decisions"])
    seats = doc["summary"]["seats"]
    assert [s["seat"] for s in seats] == [0, 1]
    assert sum(s["decisions"] for s in seats) == len(doc["decisions"])
    for s in seats:
        assert sum(s["counts"].values()) == s["decisions"]
        assert s["decisions"] == 0 or 0 <= s["accuracy"] <= 100


def test_every_exchange_decision_is_even() -> None:
    rules = PRESETS["nintendo"].model_copy(update={"hand_exchange": True})
    s = new_round(rules, dealer=0, rng=random.Random(2))
    assert s.phase == "exchange"
    from koikoi_desktop.review.analysis import DecisionPoint

    p = s.to_move
    j = judge(DecisionPoint(0, 0, 1, 1, p, "exchange", s.legal_actions()[0], s.view(p), None))
    assert j.cls == "good" and j.loss == 0 and j.win_loss == 0


def test_the_worker_process_judges_like_this_thread() -> None:
    m = random_match(8, rounds=1)
    t = Timeline.from_record(match_record(m))
    points = decision_points(t)[:6]
    runner = ReviewRunner(t, points, worlds=8)
    runner.start()
    got = runner.wait(timeout=60)
    assert runner.finished and runner.error is None
    assert got == [judge(p, worlds=8) for p in points]
    assert ids_of(0) == ()


@pytest.mark.parametrize("timing", ["first_turn", "at_deal"])
def test_an_instant_win_not_declared_is_judged_against_declaring(timing: str) -> None:
    """Seed 18 deals the dealer an instant win that may be declared (at the deal or in place
    of the first play); keeping it is judged against the sure points of declaring."""
    rules = NINTENDO.model_copy(
        update={"instant_win_declaration": "optional", "instant_win_timing": timing}
    )
    s = new_round(rules, dealer=0, rng=random.Random(18))
    assert s.outcome is None and DECLARE in s.legal_actions()
    other = next(a for a in s.legal_actions() if a != DECLARE)
    from koikoi_desktop.review.analysis import DecisionPoint

    view = s.view(0)
    kind = decision_kind(view, other)
    assert kind == ("declare" if timing == "at_deal" else "play")
    j = judge(DecisionPoint(0, 0, 1, 1, 0, kind, other, view, None), worlds=16)
    declared = j.values["declare"]
    assert declared > 0 and declared == int(declared)  # sure points: the same in every world
    if j.best == "declare":
        assert j.reason.key == "declare" and j.loss == round(declared - j.values[str(other)], 3)


def test_every_decision_kind_of_both_seats_is_found_and_judged() -> None:
    """With the lightning wild (Gaji), the hand exchange and optional instant wins, random
    matches give every kind of decision to both seats; each is judged over exactly its legal
    alternatives, the loss measured against the best of them."""
    rules = NINTENDO.model_copy(
        update={
            "gaji_wild": True,
            "hand_exchange": True,
            "instant_win_declaration": "optional",
        }
    )
    found: dict[tuple[str, int], Any] = {}
    for seed in range(60):
        m = new_match(rules, first_dealer=seed % 2, seed=seed, rounds=2)
        rng = random.Random(seed)
        while m.outcome is None:
            m.apply(rng.choice(m.round.legal_actions()))
        for p in decision_points(Timeline.from_record(match_record(m))):
            found.setdefault((p.kind, p.seat), p)
    kinds = {"play", "match", "koikoi", "exchange", "gaji"}
    assert {(k, s) for k in kinds for s in (0, 1)} <= set(found), sorted(found)
    for (kind, _), p in sorted(found.items()):
        legal = {str(a) for a in p.view.legal}
        j = judge(p, worlds=6)
        assert (j.kind, j.seat, j.played) == (kind, p.seat, str(p.played))
        assert set(j.values) == legal and j.best in legal
        assert j.loss == round(j.values[j.best] - j.values[j.played], 3)
        assert j.win_loss == round(max(0.0, j.wins[j.best] - j.wins[j.played]), 4)
        assert j.cls in CLASSES and j.worlds % 6 == 0 and (j.worlds >= 6 or kind == "exchange")
        if kind == "gaji":  # a choice the lightning's wildness made
            assert any(GAJI in (a.card, a.target) for a in p.view.legal)


def test_a_loss_not_clearly_past_its_threshold_takes_the_class_below_and_says_so() -> None:
    """-14% ± 2.9: past the blunder's 12%, not clearly (its range starts at 11%): a mistake,
    and the judgement says its figure is past a threshold it does not clear."""
    from koikoi_desktop.review.analysis import Judgement, class_of

    cls = class_of(0.1362, 0.0285)
    j = Judgement(0, 0, 1, 1, 0, "koikoi", "stop", "koikoi", 11.2, cls, {}, 0.1362, margin=0.0285)
    assert cls == "mistake" and j.past_threshold
    clear = Judgement(
        0, 0, 1, 1, 0, "koikoi", "stop", "koikoi", 0.0, "blunder", {}, 0.2, margin=0.01
    )
    assert class_of(0.2, 0.01) == "blunder" and not clear.past_threshold
