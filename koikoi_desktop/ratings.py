"""Ratings: the player's Glicko-2 rating and the computer levels' measured Elo-scale ratings.

Pure: no pygame, no files except :func:`level_ratings`, which reads the measured data file that
ships in the package (``ai/level_ratings.json``, written by ``benchmarks/level_ratings.py``).

Why Glicko-2 and not Elo: a player's rating starts from nothing and is fed by a few matches a
week. Elo with a fixed K either moves too slowly at first or jumps too far once it has settled;
Glicko-2 carries its own uncertainty (the rating deviation, RD), so the first matches move the
rating a lot and later ones less, the RD grows back after a long pause, and the volatility
follows a player who is improving fast. The computer levels have measured ratings with an
interval, which is exactly an opponent's rating and RD for Glicko-2.

Glickman's worked example (``glicko2.pdf``): a 1500 / 200 / 0.06 player who beat a 1400 / 30
player and lost to 1550 / 100 and 1700 / 300 players, with τ = 0.5:

>>> r = update(Rating(1500.0, 200.0, 0.06),
...            [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
...             (Rating(1700.0, 300.0), 0.0)], tau=0.5)
>>> round(r.rating, 2), round(r.rd, 2), round(r.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper's 1464.06 rounds its intermediate steps; unrounded arithmetic gives 1464.0507.)

**A match counts for its length** (issue 45). A rated match is one game of a rating period
weighted by :func:`match_weight`: its rounds over 12 (the standard match of the ``nintendo``
rules), at most 1, so a 3-round match moves the rating a quarter as far as a 12-round one would
from the same position, and shrinks the RD less. A weight ``w`` is the weighted likelihood of
Glicko-2: the game's terms of ``v`` and ``Δ`` are multiplied by ``w``, as if ``w`` of a game
had been played (``w`` = 1 is Glickman's update). A conceded match counts as a whole match
whatever its length (giving up is never cheaper than playing on). Measured with the levels as
shipped: a new player's first 3-round win against the Intermediate (1223, from 1,044 matches)
lifts him from 1000 to 1117, below it; a 12-round win to 1325.

**Provisional**: a rating whose RD is above :data:`PROVISIONAL_RD` (110, lichess's mark) is
shown with a question mark, "1107?" (:func:`shown`): a new player's rating says it is a
guess until enough matches have settled it.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

#: Glicko-2 scale factor between the Glicko scale and the internal one (Glickman: 173.7178).
SCALE = 400.0 / math.log(10.0)
#: The system constant τ: how far the volatility may move in one rating period.
TAU = 0.5
#: The centre of Glicko-2's internal scale (only differences of ratings matter).
CENTRE = 1500.0
#: A new player: as strong as the Beginner (the anchor of the level scale), RD 350, volatility
#: 0.06 (Glickman's suggested RD and volatility). The wide RD lets the first matches move it far.
START_RATING = 1000.0
START_RD = 350.0
START_VOLATILITY = 0.06
#: A rating is provisional ("1107?") while its RD is above this (lichess: 110).
PROVISIONAL_RD = 110.0
#: The rounds of a match that counts as one whole game for the rating (weight 1).
FULL_MATCH_ROUNDS = 12
#: The RD never falls below this (a floor keeps a settled rating responsive).
MIN_RD = 30.0
#: Nor rises above the RD of someone never rated (Glickman's ceiling): beating an opponent far
#: below you tells almost nothing, and without the ceiling the RD would grow on and on.
MAX_RD = START_RD
#: Every stored rating lies in these bounds (the ledger's check of a rating row uses them).
RATING_BOUNDS = (0.0, 5000.0)
_EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko (Elo-like) scale: rating, RD, volatility."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
    weights: Sequence[float] | None = None,
) -> Rating:
    """The player's rating after one rating period with ``results`` — (opponent, score) pairs,
    score 1 a win, 0.5 a draw, 0 a loss. No results: only the RD grows (steps 6 and 8 of
    Glickman's paper). Games in one period are independent of their order. ``weights`` (one
    per result, 1 when None) count a game as that fraction of a game (module docstring).

    >>> update(Rating(1500.0, 200.0), [(Rating(1500.0, 50.0), 1.0)]).rating > 1500.0
    True
    """
    mu = (player.rating - CENTRE) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(START_RD, phi_star * SCALE), sigma)
    ws = [1.0] * len(results) if weights is None else [float(w) for w in weights]
    if len(ws) != len(results) or any(not 0.0 < w <= 1.0 for w in ws):
        raise ValueError("one weight in (0, 1] per result")
    terms = []
    for (opp, score), w in zip(results, ws, strict=True):
        mu_j = (opp.rating - CENTRE) / SCALE
        phi_j = opp.rd / SCALE
        terms.append((_g(phi_j), _e(mu, mu_j, phi_j), score, w))
    v = 1.0 / sum(w * g * g * e * (1.0 - e) for g, e, _, w in terms)
    delta = v * sum(w * g * (s - e) for g, e, s, w in terms)
    # Step 5: the new volatility by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * sum(w * g * (s - e) for g, e, s, w in terms)
    return Rating(mu_new * SCALE + CENTRE, phi_new * SCALE, sigma_new)


def match_weight(rounds: int, *, conceded: bool = False) -> float:
    """How much of a whole game a rated match of ``rounds`` rounds counts for (module
    docstring): rounds / 12, at most 1; a conceded match 1.

    >>> match_weight(3), match_weight(6), match_weight(12), match_weight(20), match_weight(1)
    (0.25, 0.5, 1.0, 1.0, 0.08333333333333333)
    >>> match_weight(2, conceded=True)
    1.0
    """
    if conceded:
        return 1.0
    return min(1.0, max(1, rounds) / FULL_MATCH_ROUNDS)


def provisional(rd: float) -> bool:
    """Whether a rating of deviation ``rd`` is still provisional (above 110)."""
    return rd > PROVISIONAL_RD


def shown(rating: float, rd: float) -> str:
    """A rating as the screens show it: whole, with "?" while provisional.

    >>> shown(1106.8, 320.0), shown(1203.2, 80.0)
    ('1107?', '1203')
    """
    return f"{round(rating)}{'?' if provisional(rd) else ''}"


def rate_match(player: Rating, opponent: Rating, score: float, weight: float = 1.0) -> Rating:
    """The player's rating after one rated match (a rating period of one game, counted as
    ``weight`` of a game: :func:`match_weight`): the RD kept between :data:`MIN_RD` and
    :data:`MAX_RD`, the rating within :data:`RATING_BOUNDS`.

    >>> r = Rating(1000.0)
    >>> for _ in range(3000):  # a player who always beats an opponent far below
    ...     r = rate_match(r, Rating(1000.0, 30.0), 1.0)
    >>> MIN_RD <= r.rd <= MAX_RD and RATING_BOUNDS[0] <= r.rating <= RATING_BOUNDS[1]
    True
    """
    new = update(player, [(opponent, score)], weights=[weight])
    low, high = RATING_BOUNDS
    return Rating(min(high, max(low, new.rating)), min(MAX_RD, max(MIN_RD, new.rd)), new.volatility)


def replay(
    history: Iterable[tuple[Rating, float] | tuple[Rating, float, float]],
    start: Rating | None = None,
) -> Rating:
    """The rating after rating each (opponent, score) — or (opponent, score, weight) — in
    order from ``start`` (a new player)."""
    r = start or Rating()
    for item in history:
        r = rate_match(r, *item)
    return r


def fit_bradley_terry(
    games: Sequence[tuple[str, str, float, float]],
    *,
    anchor: tuple[str, float],
    prior_draws: float = 1.0,
    iterations: int = 5000,
) -> dict[str, float]:
    """Maximum-likelihood Bradley-Terry ratings on the Elo scale from ``games`` — (a, b, score of
    a, matches) with draws counted half — with ``anchor`` = (name, rating) pinned. Each pairing
    gets ``prior_draws`` virtual drawn matches, which keeps the fit finite when one side won
    them all. Solved by Hunter's MM iteration.

    >>> r = fit_bradley_terry([("a", "b", 76.0, 100.0)], anchor=("a", 1000.0), prior_draws=0)
    >>> round(r["b"] - r["a"])
    -200
    """
    names = sorted({g[0] for g in games} | {g[1] for g in games})
    wins = dict.fromkeys(names, 0.0)
    pairs: list[tuple[str, str, float]] = []
    for a, b, score, n in games:
        wins[a] += score + prior_draws / 2.0
        wins[b] += n - score + prior_draws / 2.0
        pairs.append((a, b, n + prior_draws))
    pi = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        denom = dict.fromkeys(names, 0.0)
        for a, b, n in pairs:
            d = n / (pi[a] + pi[b])
            denom[a] += d
            denom[b] += d
        new = {k: wins[k] / denom[k] for k in names}
        total = sum(new.values())
        new = {k: v * len(names) / total for k, v in new.items()}
        change = max(abs(math.log(new[k] / pi[k])) for k in names)
        pi = new
        if change < 1e-12:
            break
    base = pi[anchor[0]]
    return {k: anchor[1] + 400.0 * math.log10(v / base) for k, v in pi.items()}


@dataclass(frozen=True, slots=True)
class LevelRating:
    """A computer level's measured rating with its 95% interval."""

    level: str
    rating: float
    low: float
    high: float

    @property
    def opponent(self) -> Rating:
        """The level as a Glicko-2 opponent: its rating, RD the interval's half-width (at least
        :data:`MIN_RD`; the anchor level has no interval of its own)."""
        half = (self.high - self.low) / 2.0
        return Rating(self.rating, max(MIN_RD, half), START_VOLATILITY)


def not_told_apart(levels: dict[str, LevelRating]) -> list[tuple[str, str]]:
    """Neighbouring levels (in rating order) whose 95% intervals overlap: the measurement does
    not tell them apart, and the new-game screen says so.

    >>> lv = {"a": LevelRating("a", 1000, 1000, 1000), "b": LevelRating("b", 1177, 1127, 1230),
    ...       "c": LevelRating("c", 1267, 1197, 1343)}
    >>> not_told_apart(lv)
    [('b', 'c')]
    """
    order = sorted(levels.values(), key=lambda lv: lv.rating)
    return [(a.level, b.level) for a, b in itertools.pairwise(order) if a.high >= b.low]


def parse_level_ratings(data: dict[str, Any]) -> dict[str, LevelRating]:
    """The levels of a ``level_ratings.json`` document."""
    return {
        name: LevelRating(name, float(v["rating"]), float(v["ci95"][0]), float(v["ci95"][1]))
        for name, v in data["levels"].items()
    }


_LEVELS: dict[str, LevelRating] | None = None


def level_ratings() -> dict[str, LevelRating]:
    """The shipped, measured level ratings (``ai/level_ratings.json``), read once."""
    global _LEVELS
    if _LEVELS is None:
        text = resources.files("koikoi_desktop.ai").joinpath("level_ratings.json").read_text()
        _LEVELS = parse_level_ratings(json.loads(text))
    return _LEVELS
