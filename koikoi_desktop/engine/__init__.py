"""The Koi-Koi rules engine: pure Python, no pygame, no I/O, no clock, no global random state.

The acceptance surface (RULES.md is the specification)::

    from koikoi_desktop.engine import (DECK, Card, Rules, PRESETS, score_yaku, payout,
                                       new_round, new_match, Action, IllegalAction)

>>> from koikoi_desktop.engine import DECK, PRESETS, new_round
>>> import random
>>> s = new_round(PRESETS["nintendo"], dealer=1, rng=random.Random(42))
>>> len(s.hand(0)), len(s.hand(1)), len(s.field), s.to_move
(8, 8, 8, 1)
"""

from koikoi_desktop.engine.actions import Action, Event, IllegalAction
from koikoi_desktop.engine.cards import DECK, Card, card, ids_of, mask_of, month_of
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
    RecordError,
    match_record,
    replay_match,
    replay_round,
    round_record,
)
from koikoi_desktop.engine.round import Outcome, RoundState, instant_win, new_round
from koikoi_desktop.engine.rules import PRESETS, Rules, is_custom, preset
from koikoi_desktop.engine.view import PlayerView
from koikoi_desktop.engine.yaku import Score, Yaku, factors, payout, score_yaku

__all__ = [
    "DECK",
    "PRESETS",
    "Action",
    "Card",
    "Event",
    "FirstDealer",
    "IllegalAction",
    "LedgerEntry",
    "Match",
    "MatchContext",
    "MatchOutcome",
    "Outcome",
    "PlayerView",
    "RecordError",
    "RoundState",
    "Rules",
    "Score",
    "Yaku",
    "card",
    "choose_first_dealer",
    "factors",
    "ids_of",
    "instant_win",
    "is_custom",
    "mask_of",
    "match_record",
    "month_of",
    "new_match",
    "new_round",
    "payout",
    "preset",
    "replay_match",
    "replay_round",
    "round_record",
    "score_yaku",
]
