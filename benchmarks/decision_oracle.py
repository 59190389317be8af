"""Judge the Expert's card play decision by decision, with far less noise than the arena.

    python benchmarks/decision_oracle.py [--matches 12] [--seed 31] [--worlds 48] [--keep 0.35]
        [--budget 1200] [--positions play|called|koikoi|last-rounds]
        [--variant NAME:key=value,key=value ...]

A 400-match arena run takes an hour and still spreads ±0.05 in win rate, so a change to the
Expert's card play worth a point a match cannot be seen in it. This script looks at decisions
instead. It plays ``--matches`` nintendo matches of the Expert (``--budget`` playouts a decision)
against the Intermediate, every decision asked with the seat's match context, and keeps a share
(``--keep``) of the Expert's play and draw decisions that had two or more legal actions. Three
more kinds of position (``--positions``) look where that share hardly reaches, and keep every such
decision: ``called``, the Expert's play and draw decisions once either seat has called koi-koi in
the round (a few a match); ``koikoi``, its stop-or-koi-koi decisions that the match does not
answer for certain (``utility.certain_decision``; about five a match, best valued with
``--worlds 160``: one action's round is much wider than a card's); and ``last-rounds``, its play
and draw decisions in the last three rounds of the match, where the match goal weighs most. Each
kept position is valued action by action by an *oracle*: in ``--worlds`` deals of the cards the
Expert cannot see (the same deals for every action: common random numbers), the action is taken
and the round is played to its end by two Intermediates, each with its own match context; a
result is valued by the mover's match goal (``utility.MatchGoal``), in round points.

Then, over the same positions, for the Expert as it is and for each ``--variant`` (Expert
attributes, e.g. ``h8:horizon=8``; ``budget=N`` sets its playouts), it prints

* ``vs-int``: the mean oracle value of its choice less that of the Intermediate's choice in the
  same position (+: better card play than the Intermediate's, in round points a decision; a match
  has about 65 such decisions) and its standard error;
* ``regret``: the mean shortfall from the oracle's best action (noise in the oracle's values
  makes it read high: compare variants with it, do not read it alone);
* ``departs``: how often it chooses otherwise than the Intermediate;
* ``vs-int`` by the stage of the round (turns played 0-3, 4-7, 8-11, 12+).

One more line, ``oracle (split)``, asks how much better card play the oracle itself could teach:
it chooses by the mean of one half of the deals and is valued on the other half (both ways, the
two averaged), so the noise that makes the best of many noisy values look good cancels. Its
``vs-int`` is an unbiased estimate of what a player choosing by ``--worlds``/2 rounds played on
by two Intermediates would gain over the Intermediate's own choice, position by position — the
ceiling of card play by sampling the round on, at a budget far beyond a second a decision.

The oracle's continuation is the Intermediate's play for both seats: a faithful model of the
arena's opponent, a conservative one of the Expert's own later play (which is stronger), so a
variant that plays for positions only a search can use is judged a little unfairly. The figures
are a screen for the arena, not a substitute for it. The last line is the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from koikoi_desktop.ai import Budget, make_opponent
from koikoi_desktop.ai.base import Opponent
from koikoi_desktop.ai.utility import MatchGoal, certain_decision
from koikoi_desktop.engine import PRESETS, Action, MatchContext, PlayerView
from koikoi_desktop.engine.actions import KOIKOI
from koikoi_desktop.engine.match import new_match
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.sim import determinize

#: Stages of a round by turns played (both seats), for the by-stage figures.
STAGES = ((0, 4), (4, 8), (8, 12), (12, 99))
#: The kinds of position ``collect`` keeps (see the module docstring).
KINDS = ("play", "called", "koikoi", "last-rounds")


@dataclass(frozen=True)
class Position:
    """A decision of the Expert's: what it saw, its match context, the oracle's value of every
    legal action, and the actions the Intermediate and the Expert chose there."""

    view: PlayerView
    context: MatchContext
    values: dict[Action, float]
    intermediate: Action
    expert: Action
    #: The oracle's value of each action deal by deal (``values`` are their means); empty when
    #: only the means are known.
    samples: dict[Action, tuple[float, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Figures:
    """How one chooser did over a set of positions (see the module docstring)."""

    name: str
    positions: int
    vs_int: float
    se: float
    regret: float
    departs: float
    by_stage: tuple[float | None, ...]

    def line(self) -> str:
        stages = " ".join("   -  " if x is None else f"{x:+.3f}" for x in self.by_stage)
        return (
            f"{self.name:14s} {self.positions:5d}  vs-int {self.vs_int:+.3f} (se {self.se:.3f})"
            f"  regret {self.regret:.3f}  departs {self.departs:.2f}  by stage {stages}"
        )


Seats = dict[int, tuple[Opponent, MatchContext | None]]


def play_out(state: RoundState, me: int, seats: Seats) -> int:
    """Play ``state`` to the end of its round, each seat's choices by its opponent of ``seats``
    (seat → the opponent and its match context, which ``choose`` checks is the seat's); the
    result for seat ``me``."""
    s = state
    while s.outcome is None:
        legal = s.fast_legal()
        if len(legal) == 1:
            s.step(legal[0], events=False)
            continue
        p = s.to_move
        assert p is not None
        bot, context = seats[p]
        s.step(bot.choose(s.view(p), context), events=False)
    return s.outcome.points_for(me)


def oracle_samples(
    view: PlayerView, context: MatchContext, worlds: int, rng: random.Random
) -> dict[Action, tuple[float, ...]]:
    """Every legal action of ``view`` valued by the round played on by two Intermediates in
    each of ``worlds`` common deals of the unseen cards (deal by deal, the same deals for every
    action), in round points of the mover's match goal."""
    me = view.player
    seats: Seats = {
        me: (make_opponent("intermediate", seed=1), context),
        1 - me: (make_opponent("intermediate", seed=2), replace(context, seat=1 - me)),
    }
    goal = MatchGoal(context)
    legal = list(view.legal)
    out: dict[Action, list[float]] = {a: [] for a in legal}
    for _ in range(worlds):
        world = determinize(view, rng)
        for a in legal:
            s = world.copy()
            s.step(a, events=False)
            out[a].append(goal(play_out(s, me, seats)))
    return {a: tuple(v) for a, v in out.items()}


def means(samples: dict[Action, tuple[float, ...]]) -> dict[Action, float]:
    """The oracle's value of each action: the mean of its deals."""
    return {a: statistics.fmean(v) for a, v in samples.items()}


def oracle_values(
    view: PlayerView, context: MatchContext, worlds: int, rng: random.Random
) -> dict[Action, float]:
    """The mean of :func:`oracle_samples` for every legal action."""
    return means(oracle_samples(view, context, worlds, rng))


def check_kind(kind: str) -> None:
    """Refuse, in one line, a kind of position that is not one of ``KINDS``."""
    if kind not in KINDS:
        raise ValueError(f"no kind of position {kind!r}; the kinds are {', '.join(KINDS)}")


def wanted(kind: str, view: PlayerView, context: MatchContext) -> bool:
    """Whether a decision of the Expert's with two or more legal actions is of ``kind`` (before
    the share ``--keep`` that ``play`` takes of its own)."""
    if kind == "play":
        return view.phase in ("play", "draw")
    if kind == "called":
        return view.phase in ("play", "draw") and (view.calls[0] > 0 or view.calls[1] > 0)
    if kind == "last-rounds":
        return view.phase in ("play", "draw") and (context.rounds_left or 0) <= 2
    check_kind(kind)  # the last of the kinds: koikoi
    return (
        view.phase == "decide" and KOIKOI in view.legal and certain_decision(view, context) is None
    )


def collect(
    matches: int, seed: int, worlds: int, keep: float, budget: int, kind: str = "play"
) -> list[Position]:
    """Play the matches and value the kept positions of ``kind`` (see the module docstring)."""
    check_kind(kind)
    rules = PRESETS["nintendo"]
    pick = random.Random(seed)
    out: list[Position] = []
    for i in range(matches):
        expert_seat = i % 2
        expert = make_opponent("expert", seed=seed * 1000 + i, budget=Budget(playouts=budget))
        rival = make_opponent("intermediate", seed=seed * 1000 + 500 + i)
        bots = {expert_seat: expert, 1 - expert_seat: rival}
        m = new_match(rules, first_dealer=i % 2, seed=seed * 100_003 + i)
        while m.outcome is None:
            p = m.round.to_move
            assert p is not None
            view = m.round.view(p)
            context = m.context(p)
            action = bots[p].choose(view, context)
            if (
                p == expert_seat
                and len(view.legal) > 1
                and wanted(kind, view, context)
                and (kind != "play" or pick.random() < keep)
            ):
                rng = random.Random(seed * 7919 + len(out))
                samples = oracle_samples(view, context, worlds, rng)
                values = means(samples)
                # what the Intermediate opposite would have chosen in the Expert's place
                rival_choice = rival.choose(view, context)
                out.append(Position(view, context, values, rival_choice, action, samples))
            m.apply(action)
    return out


def figures(
    name: str, positions: list[Position], rows: list[tuple[float, float, float]]
) -> Figures:
    """The figures of a chooser from its ``rows``, one per position: (its value less the
    Intermediate's choice's, its shortfall from the best action, whether it departs: 0-1)."""
    n = len(positions)
    if n == 0:
        raise ValueError("no positions to judge")
    gains = [r[0] for r in rows]
    staged: list[list[float]] = [[] for _ in STAGES]
    for pos, g in zip(positions, gains, strict=True):
        turns = sum(pos.view.turns)
        for j, (lo, hi) in enumerate(STAGES):
            if lo <= turns < hi:
                staged[j].append(g)
    return Figures(
        name,
        n,
        statistics.fmean(gains),
        statistics.pstdev(gains) / n**0.5,
        statistics.fmean(r[1] for r in rows),
        statistics.fmean(r[2] for r in rows),
        tuple(statistics.fmean(x) if x else None for x in staged),
    )


def judge_chooser(
    name: str, positions: list[Position], choose: Callable[[Position], Action]
) -> Figures:
    """The figures of ``choose`` over ``positions``."""
    rows = []
    for pos in positions:
        a = choose(pos)
        v = pos.values
        rows.append(
            (v[a] - v[pos.intermediate], max(v.values()) - v[a], float(a != pos.intermediate))
        )
    return figures(name, positions, rows)


def split_choice(pos: Position) -> tuple[float, float, float]:
    """The oracle as a player, judged on deals it did not choose by (see the module docstring):
    it takes the best action by the mean of one half of ``pos.samples`` and is valued on the
    other half, both ways. Returns the mean over the two ways of (its value less the
    Intermediate's choice's, its shortfall from the best action on those deals, 1 if it departs
    from the Intermediate's choice else 0)."""
    n = min(len(v) for v in pos.samples.values()) if pos.samples else 0
    if n < 2:
        raise ValueError("a split needs two or more deals of every action")
    h = n // 2
    halves = (slice(0, h), slice(h, 2 * h))
    gain = short = departs = 0.0
    for pick, judge in (halves, halves[::-1]):
        chosen = max(pos.samples, key=lambda a: statistics.fmean(pos.samples[a][pick]))
        judged = {a: statistics.fmean(v[judge]) for a, v in pos.samples.items()}
        gain += judged[chosen] - judged[pos.intermediate]
        short += max(judged.values()) - judged[chosen]
        departs += chosen != pos.intermediate
    return gain / 2, short / 2, departs / 2


def judge_split(positions: list[Position]) -> Figures:
    """The figures of :func:`split_choice` over ``positions``, as :func:`judge_chooser`'s."""
    return figures("oracle (split)", positions, [split_choice(pos) for pos in positions])


def expert_chooser(budget: int, settings: dict[str, Any]) -> Callable[[Position], Action]:
    """A chooser that asks a fresh Expert with ``settings`` (attributes; ``budget`` playouts)."""
    settings = dict(settings)
    playouts = int(settings.pop("budget", budget))
    expert = make_opponent("expert", seed=5, budget=Budget(playouts=playouts))
    for key, value in settings.items():
        if not hasattr(expert, key):
            raise SystemExit(f"decision_oracle: the Expert has no setting {key!r}")
        setattr(expert, key, value)
    return lambda pos: expert.choose(pos.view, pos.context)


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``"h8:horizon=8,leaf_weight=1"`` → ``("h8", {"horizon": 8.0, "leaf_weight": 1.0})``
    (``none`` → None).

    >>> parse_variant("deep:horizon=8,read_hand=0")
    ('deep', {'horizon': 8.0, 'read_hand': 0.0})
    >>> parse_variant("full:horizon=none")
    ('full', {'horizon': None})
    """
    name, sep, rest = text.partition(":")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"a variant looks like NAME:key=value, not {text!r}")
    settings: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise argparse.ArgumentTypeError(f"{item!r} is not key=value")
        try:
            settings[key.strip()] = None if value == "none" else float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    return name, settings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=12)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--worlds", type=int, default=48)
    ap.add_argument("--keep", type=float, default=0.35)
    ap.add_argument("--budget", type=int, default=1200)
    ap.add_argument("--positions", choices=KINDS, default="play")
    ap.add_argument("--variant", type=parse_variant, action="append", default=[])
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    positions = collect(
        args.matches, args.seed, args.worlds, args.keep, args.budget, args.positions
    )
    if not positions:
        raise SystemExit(
            f"decision_oracle: no {args.positions} positions in {args.matches} matches; "
            "play more matches"
        )
    print(
        f"{len(positions)} {args.positions} positions from {args.matches} matches, "
        f"{args.worlds} worlds each "
        f"({time.perf_counter() - t0:.0f} s)"
    )
    figures = [
        judge_chooser("as played", positions, lambda pos: pos.expert),
        judge_split(positions),
        *(
            judge_chooser(name, positions, expert_chooser(args.budget, settings))
            for name, settings in args.variant
        ),
    ]
    for f in figures:
        print(f.line())
    print(json.dumps([f.__dict__ for f in figures]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
