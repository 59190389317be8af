"""The Koi-Koi rules engine: pure Python, no pygame, no I/O, no clock, no global random state.

The acceptance surface (RULES.md is the specification)::

    from koikoi_desktop.engine import (DECK, Card, Rules, PRESETS, score_yaku, payout,
                                       new_round, new_match, Action, IllegalAction)

Every rule question has its answer here, so the UI and the AI never work one out themselves:
card facts (``month_of``, ``kind_of``, ``DECK``); what is legal (``legal_actions``) and why not
(``IllegalAction.key`` / ``.params``, an ``IllegalReason``); what a move takes
(``RoundState.captures``) and what a card would take from any field (``cardset``: the month's
cards, a choice of two, the Gaji wild); what a stop or a koi-koi puts at stake
(``koikoi_odds``); what happened (typed event records: ``Played``, ``Drew``, ``YakuMade`` ...
with ``EventKind``); taking moves back (``RoundState.pop``, ``Match.pop`` / ``Match.undo``,
``move_stack``); what a seat may see (``PlayerView``) and a round consistent with it
(``RoundState.from_view``).

>>> from koikoi_desktop.engine import DECK, PRESETS, new_round
>>> import random
>>> s = new_round(PRESETS["nintendo"], dealer=1, rng=random.Random(42))
>>> len(s.hand(0)), len(s.hand(1)), len(s.field), s.to_move
(8, 8, 8, 1)
"""

from koikoi_desktop.engine.actions import (
    Action,
    ActionKind,
    IllegalAction,
    IllegalReason,
    Phase,
)
from koikoi_desktop.engine.cards import (
    DECK,
    KINDS,
    Card,
    Kind,
    card,
    ids_of,
    kind_of,
    mask_of,
    month_of,
)
from koikoi_desktop.engine.events import (
    Dealt,
    Discarded,
    DrawPending,
    Drew,
    Event,
    EventKind,
    ExchangeDecided,
    Flipped,
    GajiPaired,
    InstantWinDeclined,
    InstantWon,
    KoiKoiCalled,
    MatchEnd,
    MatchOver,
    Played,
    Redealt,
    RoundEnd,
    RoundOver,
    Settled,
    Stopped,
    Swept,
    YakuMade,
)
from koikoi_desktop.engine.match import (
    FirstDealer,
    LedgerEntry,
    Match,
    MatchContext,
    MatchOutcome,
    choose_first_dealer,
    new_match,
)
from koikoi_desktop.engine.notation import (
    DealCheck,
    MatchText,
    RecordError,
    match_record,
    parse_match_record,
    replay_match,
    replay_round,
    round_record,
    verify_deals,
)
from koikoi_desktop.engine.round import Outcome, RoundState, instant_win, new_round
from koikoi_desktop.engine.rules import PRESETS, Rules, is_custom, preset
from koikoi_desktop.engine.view import PlayerView
from koikoi_desktop.engine.yaku import (
    Goal,
    KoikoiOdds,
    Score,
    Yaku,
    factors,
    goals,
    koikoi_odds,
    payout,
    score_yaku,
)

__all__ = [
    "DECK",
    "KINDS",
    "PRESETS",
    "Action",
    "ActionKind",
    "Card",
    "DealCheck",
    "Dealt",
    "Discarded",
    "DrawPending",
    "Drew",
    "Event",
    "EventKind",
    "ExchangeDecided",
    "FirstDealer",
    "Flipped",
    "GajiPaired",
    "Goal",
    "IllegalAction",
    "IllegalReason",
    "InstantWinDeclined",
    "InstantWon",
    "Kind",
    "KoiKoiCalled",
    "KoikoiOdds",
    "LedgerEntry",
    "Match",
    "MatchContext",
    "MatchEnd",
    "MatchOutcome",
    "MatchOver",
    "MatchText",
    "Outcome",
    "Phase",
    "Played",
    "PlayerView",
    "RecordError",
    "Redealt",
    "RoundEnd",
    "RoundOver",
    "RoundState",
    "Rules",
    "Score",
    "Settled",
    "Stopped",
    "Swept",
    "Yaku",
    "YakuMade",
    "card",
    "choose_first_dealer",
    "factors",
    "goals",
    "ids_of",
    "instant_win",
    "is_custom",
    "kind_of",
    "koikoi_odds",
    "mask_of",
    "match_record",
    "month_of",
    "new_match",
    "new_round",
    "parse_match_record",
    "payout",
    "preset",
    "replay_match",
    "replay_round",
    "round_record",
    "score_yaku",
    "verify_deals",
]
