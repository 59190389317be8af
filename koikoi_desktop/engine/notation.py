"""Text records of rounds and matches: the save, replay and bug-report format.

A record is plain text, one item per line::

    format koikoi-round/1
    rules {"based_on": "nintendo", ...every setting...}
    dealer 0
    deck 17 3 44 ...        (48 ids, top first; one line per deal, a redealt deal first)
    moves play 5>7; draw>3; koikoi; ...

A match record has ``format koikoi-match/1``, ``rules``, ``seed``, ``first-dealer``, then for
every deal a ``deal D`` line (its dealer), its ``deck`` lines and its ``moves`` line, and
``ended-early`` when the players ended it between rounds. Replaying a record reproduces every
card, score and balance exactly.

>>> from koikoi_desktop.engine.rules import PRESETS
>>> from koikoi_desktop.engine.round import new_round
>>> import random
>>> s = new_round(PRESETS["seed-003"], dealer=0, rng=random.Random(5))
>>> rng = random.Random(1)
>>> while s.outcome is None:
...     _ = s.apply(rng.choice(s.legal_actions()))
>>> t = replay_round(round_record(s))
>>> t.outcome == s.outcome and t.caps == s.caps
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from koikoi_desktop.engine.actions import Action
from koikoi_desktop.engine.match import Match
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.rules import Rules

ROUND_FORMAT = "koikoi-round/1"
MATCH_FORMAT = "koikoi-match/1"


def _rules_line(rules: Rules) -> str:
    return "rules " + json.dumps(rules.model_dump(), sort_keys=True, separators=(",", ":"))


def _deck_line(deck: tuple[int, ...]) -> str:
    return "deck " + " ".join(str(c) for c in deck)


def _moves_line(moves: list[Action]) -> str:
    return "moves " + "; ".join(str(a) for a in moves)


def round_record(state: RoundState) -> str:
    """The text record of a round (rules, dealer, deck orders, moves)."""
    lines = [f"format {ROUND_FORMAT}", _rules_line(state.rules), f"dealer {state.dealer}"]
    lines += [_deck_line(d) for d in state.deals]
    lines.append(_moves_line(state.moves))
    return "\n".join(lines) + "\n"


def match_record(match: Match) -> str:
    """The text record of a match (rules, seed, first dealer, every deal and its moves)."""
    lines = [
        f"format {MATCH_FORMAT}",
        _rules_line(match.rules),
        f"seed {'none' if match.seed is None else match.seed}",
        f"first-dealer {match.first_dealer}",
    ]
    for deal in match.deals:
        lines.append(f"deal {deal.dealer}")
        lines += [_deck_line(d) for d in deal.decks]
        lines.append(_moves_line(deal.moves))
    if match.ended_early:
        lines.append("ended-early")
    return "\n".join(lines) + "\n"


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says where."""


def _lines(text: str) -> Iterator[tuple[int, str, str]]:
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        yield n, key, rest.strip()


def _parse_rules(n: int, rest: str) -> Rules:
    try:
        return Rules.model_validate(json.loads(rest))
    except RecursionError:
        raise RecordError(f"line {n}: the rules are nested too deeply to read.") from None
    except ValueError as exc:
        raise RecordError(f"line {n}: the rules cannot be read: {exc}") from None


_INT = re.compile(r"-?[0-9]{1,30}", re.ASCII)


def _ascii_int(text: str) -> int:
    """``int(text)`` for plain ASCII decimal text only (``int`` also takes "３", "1_0", " 7")."""
    if _INT.fullmatch(text) is None:
        raise ValueError(f"not a number: {text[:20]!r}")
    return int(text)


def _parse_deck(n: int, rest: str) -> list[int]:
    try:
        deck = [_ascii_int(x) for x in rest.split()]
    except ValueError:
        raise RecordError(f"line {n}: a deck is 48 card numbers.") from None
    if sorted(deck) != list(range(1, 49)):
        raise RecordError(f"line {n}: a deck must list each card 1-48 exactly once.")
    return deck


def _parse_moves(n: int, rest: str) -> list[Action]:
    try:
        return [Action.from_text(m) for m in rest.split(";") if m.strip()]
    except ValueError as exc:
        raise RecordError(f"line {n}: {exc}") from None


def _parse_int(n: int, rest: str, what: str, allowed: tuple[int, ...] | None = None) -> int:
    try:
        v = _ascii_int(rest)
    except ValueError:
        raise RecordError(f"line {n}: {what} must be a number.") from None
    if allowed is not None and v not in allowed:
        raise RecordError(f"line {n}: {what} must be one of {allowed}.")
    return v


def _expect_format(text: str, fmt: str) -> Iterator[tuple[int, str, str]]:
    if not isinstance(text, str):
        raise RecordError("A record is text.")
    it = _lines(text)
    first = next(it, None)
    if first is None or first[1] != "format" or first[2] != fmt:
        raise RecordError(f"This is not a {fmt} record (it must start with 'format {fmt}').")
    return it


def replay_round(text: str) -> RoundState:
    """Rebuild a round from its record, replaying every move."""
    from koikoi_desktop.engine.round import RoundState as RS

    rules: Rules | None = None
    dealer: int | None = None
    decks: list[list[int]] = []
    moves: list[Action] = []
    for n, key, rest in _expect_format(text, ROUND_FORMAT):
        if key == "rules":
            rules = _parse_rules(n, rest)
        elif key == "dealer":
            dealer = _parse_int(n, rest, "the dealer", (0, 1))
        elif key == "deck":
            decks.append(_parse_deck(n, rest))
        elif key == "moves":
            moves = _parse_moves(n, rest)
        else:
            raise RecordError(f"line {n}: unknown item {key!r}.")
    if rules is None or dealer is None or not decks:
        raise RecordError("A round record needs rules, dealer and at least one deck.")
    queue = list(decks)

    def next_deck() -> list[int]:
        if not queue:
            raise RecordError("The record has fewer decks than the deal needs (a redeal?).")
        return queue.pop(0)

    state = RS._deal(rules, dealer, next_deck)
    for i, mv in enumerate(moves, 1):
        try:
            state.apply(mv)
        except ValueError as exc:
            raise RecordError(f"move {i} ({mv}) does not replay: {exc}") from None
    return state


def replay_match(text: str) -> Match:
    """Rebuild a match from its record, replaying every deal and move."""
    rules: Rules | None = None
    seed: int | None = None
    first: int | None = None
    deals: list[tuple[int, list[list[int]], list[Action]]] = []
    ended = False
    for n, key, rest in _expect_format(text, MATCH_FORMAT):
        if key == "rules":
            rules = _parse_rules(n, rest)
        elif key == "seed":
            seed = None if rest == "none" else _parse_int(n, rest, "the seed")
        elif key == "first-dealer":
            first = _parse_int(n, rest, "the first dealer", (0, 1))
        elif key == "deal":
            deals.append((_parse_int(n, rest, "the dealer", (0, 1)), [], []))
        elif key == "deck":
            if not deals:
                raise RecordError(f"line {n}: a deck line must follow a deal line.")
            deals[-1][1].append(_parse_deck(n, rest))
        elif key == "moves":
            if not deals:
                raise RecordError(f"line {n}: a moves line must follow a deal line.")
            deals[-1][2].extend(_parse_moves(n, rest))
        elif key == "ended-early":
            ended = True
        else:
            raise RecordError(f"line {n}: unknown item {key!r}.")
    if rules is None or first is None:
        raise RecordError("A match record needs rules and first-dealer.")
    decks = [d for deal in deals for d in deal[1]]
    match = Match(rules, first_dealer=first, seed=seed, decks=decks)
    for i, (dealer, _, moves) in enumerate(deals):
        if i >= len(match.deals) or match.deals[i].dealer != dealer:
            raise RecordError(f"deal {i + 1} does not replay: its dealer differs.")
        for mv in moves:
            if match.outcome is not None or len(match.deals) != i + 1:
                raise RecordError(f"deal {i + 1} has moves after its round ended.")
            try:
                match.apply(mv)
            except ValueError as exc:
                raise RecordError(f"deal {i + 1}, move {mv} does not replay: {exc}") from None
    if ended:
        try:
            match.end_now()
        except ValueError as exc:
            raise RecordError(f"the early end does not replay: {exc}") from None
    return match
