"""Text records of rounds and matches: the save, replay and bug-report format.

A record is plain text, one item per line::

    format koikoi-round/1
    rules {"based_on": "nintendo", ...every setting...}
    dealer 0
    deck 17 3 44 ...        (48 ids, top first; one line per deal, a redealt deal first)
    moves play 5>7; draw>3; koikoi; ...

A match record has ``format koikoi-match/2``, ``rules``, ``seed``, ``commitment`` (the seed's
public fingerprint, :func:`.chance.commitment`), ``first-dealer`` and ``first-draw`` (how the
first dealer was chosen and the cards drawn: ``first-draw draw 17 33, 4 21``), ``stacked N`` when
the first N decks were given rather than drawn from the seed (a deal played again), then for
every deal a ``deal D`` line (its dealer), its ``deck`` lines and its ``moves`` line, and
``ended-early`` when the players ended it between rounds. Every chance step is in the record, so
replaying it reproduces every card, score and balance exactly, and a match rebuilt from it plays
on as the uninterrupted match would (new deals come from the seed's named streams). Records of
``format koikoi-match/1`` (before chance steps) still replay; their later deals come from the
same streams.

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
from dataclasses import dataclass
from typing import Literal

from koikoi_desktop.engine.actions import Action, exact_actions
from koikoi_desktop.engine.chance import commitment, deck, first_dealer_stream
from koikoi_desktop.engine.match import FirstDealer, Match, choose_first_dealer, reveal_order
from koikoi_desktop.engine.round import RoundState
from koikoi_desktop.engine.rules import Rules

ROUND_FORMAT = "koikoi-round/1"
MATCH_FORMAT = "koikoi-match/2"
#: Match records written before chance became recorded steps (no commitment, no first draw).
MATCH_FORMAT_1 = "koikoi-match/1"


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


def _first_draw_line(first: FirstDealer) -> str:
    cards = ", ".join(" ".join(str(c) for c in step) for step in first.draws)
    return f"first-draw {first.method}" + (f" {cards}" if cards else "")


def match_record(match: Match) -> str:
    """The text record of a match (rules, seed, first dealer, every deal and its moves)."""
    lines = [
        f"format {MATCH_FORMAT}",
        _rules_line(match.rules),
        f"seed {'none' if match.seed is None else match.seed}",
    ]
    if match.commitment is not None:
        lines.append(f"commitment {match.commitment}")
    lines += [f"first-dealer {match.first_dealer}", _first_draw_line(match.first_draw)]
    if match.stacked:
        lines.append(f"stacked {match.stacked}")
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


#: Rules already read, by their line's text (a ledger's records repeat a few rule sets; an
#: import reads thousands): ``Rules`` is frozen, so one instance serves every record.
_RULES_READ: dict[str, Rules] = {}
_RULES_KEPT = 32


def _parse_rules(n: int, rest: str) -> Rules:
    known = _RULES_READ.get(rest)
    if known is not None:
        return known
    try:
        rules = Rules.model_validate(json.loads(rest))
    except RecursionError:
        raise RecordError(f"line {n}: the rules are nested too deeply to read.") from None
    except ValueError as exc:
        raise RecordError(f"line {n}: the rules cannot be read: {exc}") from None
    if len(_RULES_READ) < _RULES_KEPT:
        _RULES_READ[rest] = rules
    return rules


_INT = re.compile(r"-?[0-9]{1,30}", re.ASCII)
_ALL_CARDS = list(range(1, 49))


def _ascii_int(text: str) -> int:
    """``int(text)`` for plain ASCII decimal text only (``int`` also takes "３", "1_0", " 7")."""
    if _INT.fullmatch(text) is None:
        raise ValueError(f"not a number: {text[:20]!r}")
    return int(text)


#: A deck line as the game writes it: 48 numbers of one or two digits, one space apart.
_PLAIN_DECK = re.compile(r"[0-9]{1,2}(?: [0-9]{1,2}){47}", re.ASCII)


def _parse_deck(n: int, rest: str) -> list[int]:
    if _PLAIN_DECK.fullmatch(rest) is not None:  # read at once (the same numbers as below)
        deck = list(map(int, rest.split(" ")))
        if sorted(deck) != _ALL_CARDS:
            raise RecordError(f"line {n}: a deck must list each card 1-48 exactly once.")
        return deck
    try:
        deck = [_ascii_int(x) for x in rest.split()]
    except ValueError:
        raise RecordError(f"line {n}: a deck is 48 card numbers.") from None
    if sorted(deck) != _ALL_CARDS:
        raise RecordError(f"line {n}: a deck must list each card 1-48 exactly once.")
    return deck


def _parse_moves(n: int, rest: str) -> list[Action]:
    exact = exact_actions(rest.split("; "))  # the moves as the game writes them: read at once
    if exact is not None:
        return exact
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


#: The longest record the parsers read: a real 12-round match is about 3,000 characters; a
#: longer text is refused before it is read (a million moves took seconds to reject).
MAX_RECORD_TEXT = 1 << 20


def _expect_format(text: str, *formats: str) -> tuple[str, Iterator[tuple[int, str, str]]]:
    if not isinstance(text, str):
        raise TypeError(f"a record is text, not {type(text).__name__}")
    if len(text) > MAX_RECORD_TEXT:
        raise RecordError(f"This record is too long to be a {formats[0]} record.")
    it = _lines(text)
    first = next(it, None)
    if first is None or first[1] != "format" or first[2] not in formats:
        raise RecordError(
            f"This is not a {formats[0]} record (it must start with 'format {formats[0]}')."
        )
    return first[2], it


def replay_round(text: str) -> RoundState:
    """Rebuild a round from its record, replaying every move."""
    rules: Rules | None = None
    dealer: int | None = None
    decks: list[list[int]] = []
    moves: list[Action] = []
    for n, key, rest in _expect_format(text, ROUND_FORMAT)[1]:
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

    state = RoundState.deal(rules, dealer=dealer, next_deck=next_deck)
    for i, mv in enumerate(moves, 1):
        try:
            state.apply(mv)
        except ValueError as exc:
            raise RecordError(f"move {i} ({mv}) does not replay: {exc}") from None
    return state


_METHODS = ("draw", "birth_month", "age", "random", "given", "replay")
#: Cards a step of the first-dealer draw shows: a pair drawn, one card revealed, none otherwise.
_DRAW_CARDS = {"draw": 2, "birth_month": 1}
#: The first-dealer methods each rule of R-SETUP-2 can give (a tie falls back to random).
_RULE_METHODS = {
    "lowest_month_draw": ("draw",),
    "oldest_player": ("age", "random"),
    "birth_month_reveal": ("birth_month", "random"),
}
#: Methods that say the first dealer was set, not drawn (a constructed match, a deal played
#: again): the check cannot vouch for them.
_SET_UP = ("given", "replay")


def _parse_first_draw(n: int, rest: str, dealer: int | None) -> FirstDealer:
    method, _, cards = rest.partition(" ")
    if method not in _METHODS:
        raise RecordError(f"line {n}: unknown first-dealer method {method[:20]!r}.")
    if dealer is None:
        raise RecordError(f"line {n}: first-draw must follow first-dealer.")
    draws: list[tuple[int, ...]] = []
    for step in (x for x in cards.split(",") if x.strip()):
        try:
            ids = tuple(_ascii_int(c) for c in step.split())
        except ValueError:
            raise RecordError(f"line {n}: the first-dealer draw lists card numbers.") from None
        if any(not 1 <= c <= 48 for c in ids) or len(ids) != _DRAW_CARDS.get(method, 0):
            raise RecordError(
                f"line {n}: the first-dealer draw lists card numbers 1-48, "
                f"{_DRAW_CARDS.get(method, 0)} a step for {method!r}."
            )
        draws.append(ids)
        if len(draws) > 48:
            raise RecordError(f"line {n}: the first-dealer draw is too long.")
    return FirstDealer(dealer, method, tuple(draws))


@dataclass(frozen=True, slots=True)
class MatchText:
    """A match record read into values (:func:`parse_match_record`), before any replay.

    ``deals``: (dealer, decks, moves) of every deal in order; ``first``: the recorded
    first-dealer step (for a version-1 record, the dealer alone, method ``given``);
    ``commitment``: as recorded (None in a version-1 record); ``stacked``: how many of the
    first decks were given rather than drawn from the seed.
    """

    format: str
    rules: Rules
    seed: int | None
    commitment: str | None
    first: FirstDealer
    stacked: int
    deals: tuple[tuple[int, tuple[tuple[int, ...], ...], tuple[Action, ...]], ...]
    ended_early: bool


_HEX = re.compile(r"[0-9a-f]{12}", re.ASCII)


class _MatchReader:
    """The items of a match record read so far; one method a kind of line (``read_<key>``)."""

    #: Items only version 2 of the format has (a version-1 record with one is an unknown item).
    V2_ONLY = ("commitment", "first-draw", "stacked")

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.rules: Rules | None = None
        self.seed: int | None = None
        self.commit: str | None = None
        self.dealer: int | None = None
        self.first: FirstDealer | None = None
        self.stacked = 0
        self.deals: list[tuple[int, list[tuple[int, ...]], list[Action]]] = []
        self.ended = False

    def read(self, n: int, key: str, rest: str) -> None:
        """Read line ``n``: ``key`` and the ``rest`` of it."""
        method = getattr(self, "read_" + key.replace("-", "_"), None)
        if method is None or (key in self.V2_ONLY and self.fmt != MATCH_FORMAT):
            raise RecordError(f"line {n}: unknown item {key!r}.")
        method(n, rest)

    def read_rules(self, n: int, rest: str) -> None:
        self.rules = _parse_rules(n, rest)

    def read_seed(self, n: int, rest: str) -> None:
        self.seed = None if rest == "none" else _parse_int(n, rest, "the seed")

    def read_commitment(self, n: int, rest: str) -> None:
        if _HEX.fullmatch(rest) is None:
            raise RecordError(f"line {n}: a commitment is 12 hex digits.")
        self.commit = rest

    def read_first_dealer(self, n: int, rest: str) -> None:
        self.dealer = _parse_int(n, rest, "the first dealer", (0, 1))

    def read_first_draw(self, n: int, rest: str) -> None:
        self.first = _parse_first_draw(n, rest, self.dealer)

    def read_stacked(self, n: int, rest: str) -> None:
        self.stacked = _parse_int(n, rest, "the stacked decks")
        if self.stacked < 0:
            raise RecordError(f"line {n}: the stacked decks cannot be fewer than none.")

    def read_deal(self, n: int, rest: str) -> None:
        self.deals.append((_parse_int(n, rest, "the dealer", (0, 1)), [], []))

    def read_deck(self, n: int, rest: str) -> None:
        if not self.deals:
            raise RecordError(f"line {n}: a deck line must follow a deal line.")
        self.deals[-1][1].append(tuple(_parse_deck(n, rest)))

    def read_moves(self, n: int, rest: str) -> None:
        if not self.deals:
            raise RecordError(f"line {n}: a moves line must follow a deal line.")
        self.deals[-1][2].extend(_parse_moves(n, rest))

    def read_ended_early(self, n: int, rest: str) -> None:
        self.ended = True

    def result(self) -> MatchText:
        """The record read, once every line is: checked as a whole."""
        if self.rules is None or self.dealer is None:
            raise RecordError("A match record needs rules and first-dealer.")
        first = self.first
        if first is None:
            if self.fmt == MATCH_FORMAT:
                raise RecordError("A match record needs its first-dealer draw (first-draw).")
            first = FirstDealer(self.dealer, "given")
        elif first.dealer != self.dealer:
            raise RecordError("The first-dealer draw names another dealer.")
        if self.stacked > sum(len(d[1]) for d in self.deals):
            raise RecordError("The record says more decks were stacked than it holds.")
        return MatchText(
            self.fmt,
            self.rules,
            self.seed,
            self.commit,
            first,
            self.stacked,
            tuple((d, tuple(decks), tuple(moves)) for d, decks, moves in self.deals),
            self.ended,
        )


def parse_match_record(text: str) -> MatchText:
    """Read a match record (either format version) into a :class:`MatchText`; RecordError
    says what is wrong and where. Nothing is replayed."""
    fmt, lines = _expect_format(text, MATCH_FORMAT, MATCH_FORMAT_1)
    reader = _MatchReader(fmt)
    for n, key, rest in lines:
        reader.read(n, key, rest)
    return reader.result()


def replay_match(text: str, *, events: bool = True) -> Match:
    """Rebuild a match from its record, replaying every chance step, deal and move: the match
    plays on from there as the uninterrupted match would.

    ``events=False`` checks a record (every move checked and played by the same rules) without
    building the event records of its moves: the match's rounds, totals and outcome are the
    same, about a sixth cheaper, but its rounds' history does not tell them (see
    :meth:`.round.RoundState.apply`). For reading a record's outcome, never for playing on."""
    rec = parse_match_record(text)
    decks = [d for deal in rec.deals for d in deal[1]]
    try:
        match = Match(
            rec.rules,
            first_dealer=rec.first,
            seed=rec.seed,
            decks=decks[: rec.stacked],
            recorded=decks[rec.stacked :],
        )
    except ValueError as exc:
        raise RecordError(f"the first deal does not replay: {exc}") from None
    for i, (dealer, dealt, moves) in enumerate(rec.deals):
        if i >= len(match.deals) or match.deals[i].dealer != dealer:
            raise RecordError(f"deal {i + 1} does not replay: its dealer differs.")
        if tuple(match.deals[i].decks) != dealt:
            raise RecordError(f"deal {i + 1} does not replay: its decks differ (a redeal?).")
        for mv in moves:
            if match.outcome is not None or len(match.deals) != i + 1:
                raise RecordError(f"deal {i + 1} has moves after its round ended.")
            try:
                match.apply(mv, events=events)
            except ValueError as exc:
                raise RecordError(f"deal {i + 1}, move {mv} does not replay: {exc}") from None
    if rec.ended_early:
        try:
            match.end_now()
        except ValueError as exc:
            raise RecordError(f"the early end does not replay: {exc}") from None
    return match


# ---------------------------------------------------------------------------- verifying deals
Verdict = Literal[
    "fair", "set_up", "differs", "commitment", "no_commitment", "no_seed", "unfinished"
]


@dataclass(frozen=True, slots=True)
class DealCheck:
    """What :func:`verify_deals` found (facts; the UI and the command line word them).

    ``verdict``: ``fair`` (the commitment and every deck and the first-dealer draw follow from
    the revealed seed), ``set_up`` (every deck drawn from the seed follows it, but the first
    deal's decks or the first dealer were set rather than drawn — a deal played again — so the
    check cannot vouch for the whole match), ``differs`` (``deal`` names the first deal, 0 for
    the first-dealer draw, whose cards do not), ``commitment`` (the revealed seed and rules do
    not give the recorded commitment), ``no_commitment`` (a record from before deals could be
    checked), ``no_seed``, or ``unfinished`` (the match is still being played: its seed stays
    hidden).
    ``deals``: how many deals were checked; ``stacked``: decks that were given, not drawn (a deal
    played again), which the check names but cannot vouch for.
    """

    verdict: Verdict
    commitment: str | None = None
    deal: int | None = None
    deals: int = 0
    stacked: int = 0

    @property
    def ok(self) -> bool:
        """True when every deal was fixed before the first card was played."""
        return self.verdict == "fair"


def _first_draw_follows(first: FirstDealer, seed: int, rules: Rules) -> bool:
    """Whether the recorded first-dealer draw is what the seed's stream gives."""
    rng = first_dealer_stream(seed)
    if first.method == "draw":
        redo = choose_first_dealer(rules, rng)
        return redo.draws == first.draws and redo.dealer == first.dealer
    if first.method == "birth_month":
        order = reveal_order(rng)
        shown = [step[0] for step in first.draws]
        return len(shown) > 0 and order[: len(shown)] == shown and len(first.draws[-1]) == 1
    if first.method == "random":
        return rng.randrange(2) == first.dealer
    return True  # age: no chance was drawn (the players' ages decided)


def verify_deals(text: str, *, finished: bool = True) -> DealCheck:
    """Check a match record's chance against its revealed seed: the commitment, the
    first-dealer draw and every deck (RecordError when the record cannot be read).
    ``finished`` False: the match is still being played, and the check refuses to look.

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> m = Match(PRESETS["nintendo"], seed=5)
    >>> verify_deals(match_record(m)).verdict
    'fair'
    >>> verify_deals(match_record(m).replace("seed 5", "seed 6")).verdict
    'commitment'
    """
    return check_deals(parse_match_record(text), finished=finished)


def check_deals(rec: MatchText, *, finished: bool = True) -> DealCheck:
    """:func:`verify_deals` of a record already read (:func:`parse_match_record`)."""
    if not finished:
        return DealCheck("unfinished", rec.commitment)
    if rec.seed is None:
        return DealCheck("no_seed", rec.commitment)
    if rec.commitment is None:
        return DealCheck("no_commitment")

    def found(verdict: Verdict, deal: int | None = None) -> DealCheck:
        return DealCheck(verdict, rec.commitment, deal, len(rec.deals), rec.stacked)

    if commitment(rec.seed, rec.rules) != rec.commitment:
        return found("commitment")
    set_up = rec.stacked > 0 or rec.first.method in _SET_UP
    if rec.first.method not in _SET_UP and (
        rec.first.method not in _RULE_METHODS.get(rec.rules.first_dealer, ())
        or not _first_draw_follows(rec.first, rec.seed, rec.rules)
    ):
        return found("differs", 0)
    given = rec.stacked
    for number, (_, decks, _) in enumerate(rec.deals, 1):
        for k, dealt in enumerate(decks, 1):
            if given:
                given -= 1
                continue
            if dealt != deck(rec.seed, number, k):
                return found("differs", number)
    return found("set_up" if set_up else "fair")
