"""Making an opponent of a level: the one map from level names to opponent classes (the table,
the arena, the review and the worker process all build their opponents here)."""

from __future__ import annotations

from .base import LEVELS, Budget, Opponent, Persona
from .beginner import Beginner
from .expert import Expert
from .intermediate import Intermediate

_CLASSES: dict[str, type[Opponent]] = {
    "beginner": Beginner,
    "intermediate": Intermediate,
    "expert": Expert,
}


def make_opponent(
    level: str,
    seed: int | None = None,
    budget: Budget | int | str | None = None,
    *,
    persona: Persona | None = None,
) -> Opponent:
    """A computer opponent of ``level`` (beginner, intermediate or expert)."""
    try:
        cls = _CLASSES[level.lower()]
    except KeyError:
        raise ValueError(f"Unknown level {level!r}; choose one of: {', '.join(LEVELS)}.") from None
    if isinstance(budget, int):
        budget = Budget(playouts=budget)
    elif isinstance(budget, str):
        budget = Budget.parse(budget)
    return cls(persona, seed=seed, budget=budget)
