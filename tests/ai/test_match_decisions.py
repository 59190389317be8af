"""Decisions that depend on the match (issue 13): the certain last-round and end-of-race answers
under every preset, the Intermediate's expected-value koi-koi and the defence after the
opponent's koi-koi, on built deals."""

from __future__ import annotations

import dataclasses

import pytest

from koikoi_desktop.ai import make_opponent
from koikoi_desktop.ai.expert import Expert
from koikoi_desktop.ai.intermediate import finishers, koikoi_estimate
from koikoi_desktop.ai.knowledge import knowledge_for
from koikoi_desktop.ai.utility import MatchGoal, match_point, stop_points
from koikoi_desktop.engine import PRESETS, MatchContext, PlayerView, Rules, new_round
from koikoi_desktop.engine.actions import KOIKOI, STOP, hand_capture
from koikoi_desktop.engine.round import RoundState

from .conftest import round_with

BUDGET = 300  # Expert playouts: the certain answers are taken before any search


def threatened(rules: Rules) -> RoundState:
    """Seat 0 (dealer) has Tsukimi on its third turn; the opponent holds the boar and the
    butterflies, one card (the deer) from Ino-Shika-Cho: without the match, both levels stop."""
    s = round_with(
        rules,
        dealer_hand=[31, 35, 39, 40, 43, 46, 47, 48],
        other_hand=[23, 27, 4, 8, 12, 16, 20, 24],
        field=[29, 33, 21, 25, 3, 7, 15, 19],
        pile_top=[10, 30, 38, 45, 22],
    )
    for move in ("play 31", "play 23", "play 43", "play 27", "play 35"):
        s.apply(move)
    assert s.phase == "decide" and s.to_move == 0 and KOIKOI in s.legal_actions()
    return s


def promising(rules: Rules) -> RoundState:
    """Seat 0 has Tsukimi on its second turn, the opponent nothing, and the curtain (Hanami)
    lies within reach of its hand: without the match, koi-koi is tempting."""
    s = round_with(
        rules,
        dealer_hand=[31, 35, 39, 40, 43, 46, 47, 11],
        other_hand=[23, 28, 8, 16, 20, 24, 48, 6],
        field=[29, 33, 9, 2, 3, 7, 15, 19],
        pile_top=[30, 38, 22],
    )
    for move in ("play 31", "play 35"):
        s.apply(move)
        if s.phase == "decide":
            break
        s.apply(s.legal_actions()[-1])
    assert s.phase == "decide" and s.to_move == 0 and KOIKOI in s.legal_actions()
    return s


YEAR = PRESETS["seed-001"].with_rounds(12)  # seed-001's "year" variant: 12 rounds, no target

#: (preset, rule set, position, balances before the round, rounds played, expected answer).
#: Stop points: 5 (Tsukimi) everywhere but seed-003 (3).
TABLE = [
    # stopping wins the match: taken, however tempting koi-koi is
    ("nintendo", PRESETS["nintendo"], promising, (20, 24), 11, STOP),  # last round: 25-24
    ("seed-003", PRESETS["seed-003"], promising, (20, 24), 11, STOP),  # zero-sum: 23-21
    ("seed-001", PRESETS["seed-001"], promising, (45, 30), 6, STOP),  # reaches the target 50
    ("seed-000", PRESETS["seed-000"], promising, (195, 5), 3, STOP),  # bankrupts the opponent
    ("seed-000", PRESETS["seed-000"], promising, (98, 102), 11, STOP),  # last round: 103-97
    ("seed-001", YEAR, promising, (30, 34), 11, STOP),
    # stopping ends the match lost while koi-koi can still win it: koi-koi, however risky
    ("nintendo", PRESETS["nintendo"], threatened, (20, 40), 11, KOIKOI),
    ("seed-003", PRESETS["seed-003"], threatened, (20, 40), 11, KOIKOI),
    ("seed-000", PRESETS["seed-000"], threatened, (80, 120), 11, KOIKOI),
    ("seed-001", YEAR, threatened, (20, 40), 11, KOIKOI),
]


@pytest.mark.parametrize("level", ["intermediate", "expert"])
@pytest.mark.parametrize(
    "preset, rules, position, balances, played, expected",
    TABLE,
    ids=[f"{p}-{pos.__name__}-{bal[0]}:{bal[1]}-r{n}" for p, _, pos, bal, n, _ in TABLE],
)
def test_certain_match_decisions(
    level: str,
    preset: str,
    rules: Rules,
    position: object,
    balances: tuple[int, int],
    played: int,
    expected: object,
) -> None:
    state = position(rules)  # type: ignore[operator]
    view = state.view(0)
    ctx = MatchContext(0, balances, played, rules)
    # the position is what the row says: stopping now ends the match, won or lost
    end = ctx.after(0, stop_points(view))[1]
    assert end is not None and end.winner == (0 if expected == STOP else 1)
    bot = make_opponent(level, seed=5, budget=BUDGET)
    assert bot.choose(view, ctx) == expected
    assert bot.last_reason.key == ("stop_wins_match" if expected == STOP else "koikoi_for_match")


@pytest.mark.parametrize("level", ["intermediate", "expert"])
def test_without_the_match_the_positions_tempt_the_other_way(level: str) -> None:
    rules = PRESETS["nintendo"]
    assert make_opponent(level, seed=5, budget=BUDGET).choose(promising(rules).view(0), None) == (
        KOIKOI
    )
    assert make_opponent(level, seed=5, budget=BUDGET).choose(threatened(rules).view(0), None) == (
        STOP
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_certain_answer_mid_match_or_when_nothing_can_win(preset: str) -> None:
    rules = PRESETS[preset]
    view = threatened(rules).view(0)
    assert match_point(view, MatchContext(0, (30, 30), 2, rules)) is None
    if rules.match_end == "rounds":  # so far behind that no koi-koi can catch up
        hopeless = MatchContext(0, (0, 5000), rules.match_rounds - 1, rules)
        assert match_point(view, hopeless) is None


def test_a_lost_race_is_not_a_match_point_for_the_stopper() -> None:
    """In a race a stop never loses the match: the opponent may still be one round away."""
    rules = PRESETS["seed-001"]
    view = threatened(rules).view(0)
    assert match_point(view, MatchContext(0, (10, 49), 8, rules)) is None


# --------------------------------------------------------------------------- koi-koi by value
def test_koikoi_estimate_reads_the_threats_and_what_is_left() -> None:
    rules = PRESETS["nintendo"]
    k = knowledge_for(rules)
    risky = koikoi_estimate(threatened(rules).view(0), k, MatchGoal(None))
    good = koikoi_estimate(promising(rules).view(0), k, MatchGoal(None))
    assert risky.p_opp > 0.5 > risky.p_me and risky.ev < risky.sure
    assert good.p_opp == 0.0 and good.p_me > 0.5 and good.ev > good.sure
    assert abs(good.p_me + good.p_opp + good.p_none - 1.0) < 1e-9
    assert good.win == 20  # Tsukimi + Hanami = 10 points, doubled at 7+


# --------------------------------------------------------------------------- defence
#: Rounds (nintendo, dealer 0) recorded from Intermediate-vs-Beginner deals: the deck order and
#: the moves up to the point where seat 0 plays right after the opponent's koi-koi.
DEFENCE = {
    "tanzaku": (
        [24, 38, 29, 37, 44, 39, 31, 15, 1, 22, 6, 35, 12, 21, 16, 8, 33, 46, 26, 11, 10, 32, 41,
         48, 20, 9, 45, 2, 43, 30, 7, 42, 19, 17, 47, 5, 23, 4, 3, 36, 25, 27, 14, 40, 18, 13,
         34, 28],
        ["play 35", "play 31>29", "play 33", "play 38", "koikoi", "play 48", "play 21"],
    ),
    "tane": (
        [30, 10, 43, 42, 47, 17, 41, 7, 4, 27, 37, 18, 22, 25, 28, 21, 32, 9, 33, 6, 34, 2, 16,
         15, 1, 31, 20, 24, 38, 29, 46, 13, 48, 36, 11, 23, 8, 19, 14, 5, 44, 26, 39, 40, 35, 45,
         3, 12],
        ["play 17", "draw>2", "play 25>27", "play 18", "play 33", "play 32", "play 10", "play 9",
         "play 30", "koikoi"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("level", ["intermediate", "expert"])
@pytest.mark.parametrize("case", sorted(DEFENCE))
def test_defends_after_the_opponents_koikoi(level: str, case: str) -> None:
    """After the opponent's koi-koi, the play takes a card that would give him his next yaku
    (a fifth ribbon, a sixth animal: a doubled stop). The call is what makes the block: the
    Intermediate's defence is a rule the call switches on, so without the call it plays for its
    own cards; the Expert weighs the block by its search, and the call must raise the block's
    lead over the best other play by several points. Decision (issue 13): the Expert may block
    without a call too — its prior weighs the opponent's reply 2.5 — and in the "tane" position
    it takes his sixth animal by under a point either way, a fair play (it denies him a stop)."""
    rules = PRESETS["nintendo"]
    deck, moves = DEFENCE[case]
    s = new_round(rules, dealer=0, deck=deck)
    for move in moves:
        s.apply(move)
    view = s.view(0)
    assert view.phase == "play" and view.calls == (0, 1)
    fin = finishers(view, 1, knowledge_for(rules))
    assert fin & view.field_mask  # a finisher of his lies on the field
    bot = make_opponent(level, seed=2, budget=800)
    action = bot.choose(view, None)
    assert hand_capture(action, view.field_mask)[0] & fin
    assert bot.last_reason.key == "blocks_koikoi"
    calm = dataclasses.replace(view, calls=(0, 0))  # the same cards, as if he had not called
    if level == "intermediate":
        other = make_opponent(level, seed=2, budget=800).choose(calm, None)
        assert not hand_capture(other, calm.field_mask)[0] & fin
        return

    def block_lead(v: PlayerView) -> float:
        scores = make_opponent(level, seed=2, budget=800).evaluate(v, None)
        takes = {a: bool(hand_capture(a, v.field_mask)[0] & fin) for a in scores}
        block = max(x for a, x in scores.items() if takes[a])
        return block - max(x for a, x in scores.items() if not takes[a])

    assert block_lead(view) > 0.0
    assert block_lead(view) - block_lead(calm) > 3.0


# --------------------------------------------------------------------------- the review's API
def test_expert_evaluate_scores_every_legal_action() -> None:
    """``Expert.evaluate(view, context)``: one value per legal action, in the match goal's
    round points, the stop at what it surely pays (issue 14 builds the review on it)."""
    rules = PRESETS["nintendo"]
    expert = make_opponent("expert", seed=4, budget=400)
    ctx = MatchContext(0, (20, 20), 3, rules)
    view = promising(rules).view(0)
    scores = expert.evaluate(view, ctx)
    assert set(scores) == {STOP, KOIKOI}
    stop = MatchGoal(ctx, dealer=view.dealer).settled(5)  # the next deal counted (issue 44)
    assert scores[STOP] == stop and scores[KOIKOI] > scores[STOP]
    assert expert.last_playouts > 0
    # a play: the moon (a bright) against the August plain, every legal action scored
    s = round_with(
        rules,
        dealer_hand=[31, 35, 36, 39, 40, 46, 47, 27],
        other_hand=[4, 8, 12, 16, 20, 24, 28, 48],
        field=[29, 32, 3, 7, 11, 15, 19, 23],
    )
    play = s.view(0)
    scores = expert.evaluate(play, MatchContext(0, (0, 0), 0, rules))
    assert set(scores) == set(play.legal)
    assert max(scores, key=scores.__getitem__).target == 29
    with pytest.raises(ValueError):
        expert.evaluate(play, MatchContext(1, (0, 0), 0, rules))


def test_expert_plays_out_to_the_end_after_a_call_only_when_asked() -> None:
    """``Expert.full_after_call`` (an arena experiment, off by default): once somebody has
    called koi-koi, a play decision's playouts run to the end of the round instead of
    ``horizon`` turns; before any call the horizon stands either way."""
    rules = PRESETS["nintendo"]
    deck, moves = DEFENCE["tanzaku"]
    s = new_round(rules, dealer=0, deck=deck)
    for move in moves:
        s.apply(move)
    called = s.view(0)
    calm = dataclasses.replace(called, calls=(0, 0))
    expert = make_opponent("expert", seed=2, budget=200)
    assert isinstance(expert, Expert)
    assert expert._horizon(called) == expert._horizon(calm) == expert.horizon == 4
    expert.full_after_call = True  # as the arena's --tune sets it
    assert expert._horizon(called) is None and expert._horizon(calm) == 4
    action = expert.choose(called, None)  # the full playouts still decide a legal play
    assert action in called.legal


def test_the_look_ahead_score_counts_the_tempo_of_the_player_to_move() -> None:
    """``Expert._leaf``: the standing × ``leaf_weight`` plus the best capture of the player to
    move × ``leaf_mover`` less his opponent's × ``leaf_reply``, signed for the seat that asks;
    a called round is scored by the standing alone."""
    rules = PRESETS["nintendo"]
    k = knowledge_for(rules)
    # the dealer (to move) can take the crane (1) with a January plain; the other hand holds
    # a March plain (12) for the March plain on the field, and nothing else matches
    s = round_with(
        rules,
        dealer_hand=[3, 13, 17, 21, 25, 29, 33, 37],
        other_hand=[12, 14, 18, 22, 26, 30, 34, 38],
        field=[1, 11, 5, 6, 41, 42, 45, 46],
    )
    assert s.phase == "play" and s.to_move == 0
    mine = k.best_capture(s.hands[0], s.field_mask, s.caps[0], s.caps[1])
    his = k.best_capture(s.hands[1], s.field_mask, s.caps[1], s.caps[0])
    assert mine > his > 0  # the crane is worth more than a plain
    expert = make_opponent("expert", seed=2, budget=BUDGET)
    assert isinstance(expert, Expert)
    expert.learned_leaf = False  # the tempo is an option of the standing's look-ahead score
    expert.leaf_weight, expert.leaf_mover, expert.leaf_reply = 0.7, 1.2, 0.65
    tempo = 1.2 * mine - 0.65 * his
    assert expert._leaf(s, 0, k) == pytest.approx(tempo)  # nothing captured: standing 0
    assert expert._leaf(s, 1, k) == pytest.approx(-tempo)
    s.apply("play 3")  # the dealer takes the crane (and draws): the other seat is to move
    assert s.phase == "play" and s.to_move == 1
    standing = k.standing(s.caps[0], s.caps[1])
    assert standing > 0
    mover = k.best_capture(s.hands[1], s.field_mask, s.caps[1], s.caps[0])
    reply = k.best_capture(s.hands[0], s.field_mask, s.caps[0], s.caps[1])
    want = 0.7 * standing - (1.2 * mover - 0.65 * reply)
    assert expert._leaf(s, 0, k) == pytest.approx(want)
    s.calls[0] = 1  # after a call the fit does not hold: the standing alone
    assert expert._leaf(s, 0, k) == pytest.approx(0.7 * standing)
    expert.leaf_mover = expert.leaf_reply = 0.0
    s.calls[0] = 0
    assert expert._leaf(s, 0, k) == pytest.approx(0.7 * standing)
