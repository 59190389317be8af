"""Computer opponents: Beginner, Intermediate and Expert, each seeing only a PlayerView and the
public match context of its seat.

>>> from koikoi_desktop.engine import PRESETS, new_match
>>> m = new_match(PRESETS["nintendo"], first_dealer=0, seed=5)
>>> seat = m.round.to_move
>>> bot = make_opponent("intermediate", seed=1)
>>> bot.choose(m.round.view(seat), m.context(seat)) in m.round.legal_actions()
True
>>> bot.last_reason.key in ReasonKey
True

``make_opponent(level, seed=None, budget=None, persona=None)``: ``budget`` (a :class:`Budget`,
an int = playouts, or a string such as ``"250ms"``) matters for Expert only. What a round's result
is worth in the match is :class:`MatchGoal` (``utility``); to score every legal action of a
position for a review, see ``Expert.evaluate`` (``expert``'s module docstring).
"""

from __future__ import annotations

from .base import (
    LEVELS,
    PERSONAS,
    Budget,
    Opponent,
    Persona,
    Reason,
    ReasonKey,
    personas,
)
from .beginner import Beginner
from .expert import PLAY_BUDGET, Expert
from .intermediate import Intermediate
from .levels import make_opponent
from .utility import MatchGoal, certain_decision, match_point
from .worker import Decision, InlineExecutor, Thinker, decide

__all__ = [
    "LEVELS",
    "PERSONAS",
    "PLAY_BUDGET",
    "Beginner",
    "Budget",
    "Decision",
    "Expert",
    "InlineExecutor",
    "Intermediate",
    "MatchGoal",
    "Opponent",
    "Persona",
    "Reason",
    "ReasonKey",
    "Thinker",
    "certain_decision",
    "decide",
    "make_opponent",
    "match_point",
    "personas",
]
