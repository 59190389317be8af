"""Each kind of decision the rules can ask of a computer opponent (issue 5, item 1).

Deals are built card by card (``conftest.deck_for``) so each test reaches the decision it names;
the set-up asserts the phase it expects, so a change in the engine cannot silently skip a case.
"""

from __future__ import annotations

from koikoi_desktop.ai import LEVELS, Opponent, Reason, ReasonKey, make_opponent
from koikoi_desktop.engine import PRESETS, Action, Rules, new_round
from koikoi_desktop.engine.actions import DECLARE, KOIKOI, STOP
from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.words import names
from koikoi_desktop.words.reasons import reason_text

from .conftest import deck_for, round_with

NINTENDO = PRESETS["nintendo"]
BUDGET = 400  # Expert playouts: enough to see the obvious, small enough to be quick


def bots(seed: int = 3):
    return [make_opponent(level, seed=seed, budget=BUDGET) for level in LEVELS]


def said(bot: Opponent) -> str:
    """Why ``bot`` took its last decision, in English (the catalog's, as the English table)."""
    return reason_text(ENGLISH, bot.last_reason)


def variant(name: str, **changes: object) -> Rules:
    return Rules.model_validate({**PRESETS[name].model_dump(), **changes})


# a hand with no match on the field except the August plain 31
_FIELD = [29, 32, 3, 7, 11, 15, 19, 23]
_HAND = [31, 35, 36, 39, 40, 46, 47, 27]
_OTHER = [4, 8, 12, 16, 20, 24, 28, 48]


def test_two_match_choice_takes_the_moon_not_the_plain():
    s = round_with(NINTENDO, dealer_hand=_HAND, other_hand=_OTHER, field=_FIELD)
    view = s.view(0)
    assert view.phase == "play"
    assert {Action.play(31, 29), Action.play(31, 32)} <= set(view.legal)
    for bot in bots()[1:]:
        assert bot.choose(view, None) == Action.play(31, 29), bot
        assert ENGLISH.card_name(29, "translated") in said(bot)
    assert bots()[0].choose(view, None) in view.legal


def test_draw_choice_takes_the_curtain():
    field = [9, 12, 3, 7, 15, 19, 23, 29]
    other = [4, 8, 16, 20, 24, 28, 48, 44]
    s = round_with(NINTENDO, dealer_hand=_HAND, other_hand=other, field=field, pile_top=[11])
    s.apply("play 27")  # no July card on the field: laid down; the drawn 11 matches 9 and 12
    view = s.view(0)
    assert view.phase == "draw" and view.pending_draw == 11
    assert set(view.legal) == {Action.draw(9), Action.draw(12)}
    for bot in bots():
        assert bot.choose(view, None) == Action.draw(9), bot
        assert said(bot)


def _tsukimi_against_a_near_ino_shika_cho():
    """Dealer makes Tsukimi on his third turn; the opponent then holds the boar and the
    butterflies (one card, the deer, from Ino-Shika-Cho)."""
    s = round_with(
        NINTENDO,
        dealer_hand=[31, 35, 39, 40, 43, 46, 47, 48],
        other_hand=[23, 27, 4, 8, 12, 16, 20, 24],
        field=[29, 33, 21, 25, 3, 7, 15, 19],
        pile_top=[10, 30, 38, 45, 22],
    )
    for move in ("play 31", "play 23", "play 43", "play 27", "play 35"):
        s.apply(move)
    assert s.phase == "decide" and s.to_move == 0
    assert s.base(0) == 5 and {21, 25} <= s.captured(1)
    return s


def test_koikoi_or_stop_stops_when_the_opponent_is_one_card_away():
    view = _tsukimi_against_a_near_ino_shika_cho().view(0)
    assert set(view.legal) == {KOIKOI, STOP}
    inter, expert = bots()[1:]
    assert inter.choose(view, None) == STOP
    assert inter.last_reason.key == "stop_threat"
    assert ENGLISH.yaku_name("inoshikacho") in said(inter)
    assert expert.choose(view, None) == STOP
    assert "5 points" in said(expert)


def test_koikoi_when_far_ahead_of_the_opponent():
    """Tsukimi early, opponent with nothing, a hand card that takes an improving card next
    turn: Intermediate calls koi-koi (and says why)."""
    s = round_with(
        NINTENDO,
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
    assert s.phase == "decide" and s.to_move == 0
    view = s.view(0)
    assert 9 in view.field and 11 in view.hand  # the curtain (Hanami) is one play away
    inter = bots()[1]
    assert inter.choose(view, None) == KOIKOI
    assert said(inter).startswith("calls koi-koi")


def test_declare_instant_win_always():
    rules = PRESETS["seed-000"]  # instant wins are declared on one's first turn, optionally
    s = round_with(
        rules,
        dealer_hand=[1, 2, 3, 4, 5, 9, 13, 17],
        other_hand=[6, 10, 14, 18, 21, 25, 29, 33],
        field=[7, 11, 15, 19, 22, 26, 30, 34],
    )
    view = s.view(0)
    assert DECLARE in view.legal
    for bot in bots():
        assert bot.choose(view, None) == DECLARE
        assert "Teshi" in said(bot)


def test_exchange_is_decided_without_seeing_either_hand():
    rules = variant("seed-003", hand_exchange=True)
    field = [1, 5, 9, 13, 17, 21, 25, 29]
    a = deck_for(
        rules,
        dealer=0,
        dealer_hand=[2, 6, 10, 14, 18, 22, 26, 30],
        other_hand=[3, 7, 11, 15, 19, 23, 27, 31],
        field=field,
    )
    b = deck_for(
        rules,
        dealer=0,
        dealer_hand=[3, 7, 11, 15, 19, 23, 27, 31],
        other_hand=[41, 45, 33, 37, 42, 46, 34, 38],
        field=field,
        seed=9,
    )
    va = new_round(rules, dealer=0, deck=a).view(1)
    vb = new_round(rules, dealer=0, deck=b).view(1)
    assert va.phase == "exchange" and va.hand_hidden and va.hand == ()
    assert va == vb
    for level in LEVELS:
        for seed in range(6):
            x = make_opponent(level, seed=seed).choose(va, None)
            y = make_opponent(level, seed=seed).choose(vb, None)
            assert x == y and x in va.legal


def test_gaji_pairs_the_lightning_with_the_crane():
    rules = variant("seed-003", gaji_wild=True)
    s = round_with(
        rules,
        dealer_hand=[44, 35, 36, 39, 40, 46, 47, 27],
        other_hand=_OTHER,
        field=[1, 32, 3, 7, 11, 15, 19, 23],
    )
    view = s.view(0)
    assert Action.play(44, 1) in view.legal
    inter = bots()[1]
    assert inter.choose(view, None) == Action.play(44, 1)
    assert "lightning" in said(inter)
    assert bots()[2].choose(view, None) in view.legal


def test_the_opponents_english_names_every_card_as_the_english_table_does():
    """One ``card_name``: the reasons the computer explains in English name each card with the
    English catalog's name, the one the table shows (not a wording of the AI's own)."""
    for c in range(1, 49):
        text = reason_text(ENGLISH, Reason(ReasonKey.TAKES_PRETTY, {"card": c}))
        assert text == f"takes {ENGLISH.card_name(c, 'translated')}: it looks valuable"
    assert not hasattr(names, "card_name")  # one card_name: Words.card_name


def test_a_card_laid_while_holding_its_month_mate_is_not_called_unpairable():
    """Issue 34 item 7: "nobody can pair it" only when no one can: holding the other card of
    that month, the reason says so instead."""
    import dataclasses

    from koikoi_desktop.ai.intermediate import describe_play
    from koikoi_desktop.ai.knowledge import knowledge_for
    from koikoi_desktop.engine import month_of
    from koikoi_desktop.engine.cards import mask_of

    s = round_with(NINTENDO, dealer_hand=_HAND, other_hand=_OTHER, field=_FIELD)
    view = s.view(0)
    assert {month_of(c) for c in (45, 46, 47, 48)} == {12} and not view.field_mask & mask_of(
        [45, 46, 47, 48]
    )
    k = knowledge_for(NINTENDO)
    holding = dataclasses.replace(
        view,
        hand_mask=mask_of([45, 46]),
        hand=(45, 46),
        cap_masks=(view.cap_masks[0], mask_of([47, 48])),
    )
    assert describe_play(holding, Action.play(45), k).key == "discard_own"
    alone = dataclasses.replace(
        view, hand_mask=mask_of([45]), hand=(45,), cap_masks=(mask_of([46]), mask_of([47, 48]))
    )
    assert describe_play(alone, Action.play(45), k).key == "discard_safe"
