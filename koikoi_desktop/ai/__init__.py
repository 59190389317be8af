"""Computer opponents: Beginner, Intermediate and Expert, each seeing only a PlayerView.

>>> import random
>>> from koikoi_desktop.engine import PRESETS, new_round
>>> state = new_round(PRESETS["nintendo"], dealer=0, rng=random.Random(5))
>>> bot = make_opponent("intermediate", seed=1)
>>> bot.choose(state.view(0)) in state.legal_actions()
True
>>> isinstance(bot.explain(), str)
True

``make_opponent(level, seed=None, budget=None, persona=None)``: ``budget`` (a :class:`Budget`,
an int = playouts, or a string such as ``"250ms"``) matters for Expert only.
"""

from __future__ import annotations

from .base import (
    LEVELS,
    PERSONAS,
    REASON_TEMPLATES,
    Budget,
    Opponent,
    Persona,
    Reason,
    personas,
)
from .beginner import Beginner
from .expert import PLAY_BUDGET, Expert
from .intermediate import Intermediate
from .levels import make_opponent
from .worker import Decision, InlineExecutor, Thinker, Why, decide

__all__ = [
    "LEVELS",
    "PERSONAS",
    "PLAY_BUDGET",
    "REASON_TEMPLATES",
    "Beginner",
    "Budget",
    "Decision",
    "Expert",
    "InlineExecutor",
    "Intermediate",
    "Opponent",
    "Persona",
    "Reason",
    "Thinker",
    "Why",
    "decide",
    "make_opponent",
    "personas",
]
