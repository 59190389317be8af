"""A recorded match's record is the source of truth: what is derived from it, and whether it
stands for the match at all.

No pygame, no database here: pure functions over the engine's record text. The ledger keeps, per
match, its record (the engine's replayable text) and facts the record does not hold (when it was
played, who sat where, practice or not, how it ended). Everything else stored about the match (its
summary JSON, its rounds, the counters and the rating built from them) is derived, and is
rebuilt from the record when it is damaged (:func:`rebuilt`). A match is lost to the lists only
when its record itself does not replay (:func:`replay_problem`).
"""

from __future__ import annotations

import hashlib

from pydantic import ValidationError

from koikoi_desktop import engine

from .models import MatchRecord, RoundEntry, SummaryRow


def replay(text: str) -> engine.Match | str:
    """The match the record replays to, or why it does not (the engine's words, shortened).
    Every move is checked and played; only its rounds, totals and outcome are read, so the
    moves' event records are not built (``events=False``: a sixth of an import's CPU)."""
    try:
        return engine.replay_match(text, events=False)
    except ValueError as exc:  # RecordError and IllegalAction are ValueErrors
        return f"its record does not replay ({str(exc)[:80]})"


def replay_problem(rec: MatchRecord, text: str | None) -> str | None:
    """Why a match's record does not stand for the match (None when it replays to the same
    rounds, round winners, totals and match winner); a match without a record has nothing
    that vouches for it."""
    return problem(claims(rec, text))


#: What a match's export claims, as :func:`problem` checks it (plain values: sent to a worker
#: process): its record text, each round's (winner, final), the totals, the ending, the winner.
Claims = tuple[str | None, list[tuple[int | None, int]], tuple[int, int], str, int | None]


def claims(rec: MatchRecord, text: str | None) -> Claims:
    return (
        text,
        [(e.winner, e.final) for e in rec.rounds],
        rec.final_balances,
        rec.ending,
        rec.winner,
    )


def problem(claimed: Claims) -> str | None:
    """:func:`replay_problem` of a match's :func:`claims`."""
    text, rounds, balances, ending, winner = claimed
    if text is None:
        return "it has no record to replay"
    match = replay(text)
    if isinstance(match, str):
        return match
    played = [(e.winner, e.final) for e in match.ledger]
    if played != rounds or tuple(match.balances) != tuple(balances):
        return "its record replays to other rounds or totals"
    if ending == "completed" and (match.outcome is None or match.outcome.winner != winner):
        return "its record replays to another result"
    return None


#: What a worker finds of a match: why its record does not stand for it (None when it does,
#: :func:`problem`) and its content identity (:func:`identity`).
Verdict = tuple[str | None, str | None]


def verdicts(batch: list[Claims]) -> list[Verdict]:
    """:func:`problem` and :func:`identity` of each (a worker process's task: both read the
    record text, so the game's process, which parses, writes and rates, does neither)."""
    return [(problem(claimed), identity(claimed[0])) for claimed in batch]


#: The lines of a record that make a match the match it is: its chance (seed, commitment, the
#: first dealer) and every deal's moves. Rules and decks follow from the seed.
_IDENTITY = ("seed", "commitment", "first-dealer", "deal", "moves")


def identity(text: str | None) -> str | None:
    """A match's identity by content, whatever id it was given: a digest of the seed, the
    commitment and the moves of its record (spacing and comments aside). None without a
    record."""
    if text is None:
        return None
    digest = hashlib.sha256()
    for raw in text.splitlines():
        key, _, rest = raw.strip().partition(" ")
        if key in _IDENTITY:
            digest.update(f"{key} {' '.join(rest.split())}\n".encode())
    return digest.hexdigest()


def rebuilt(text: str | None, summary: SummaryRow) -> MatchRecord | None:
    """The match's full record (the summary JSON the ledger keeps) made again from its record
    text and the facts its ``matches`` row keeps (date, seats, names, practice, ending); None
    when the record does not replay or the two disagree on the totals."""
    if text is None:
        return None
    match = replay(text)
    if isinstance(match, str):
        return None
    me = summary.player_seat
    if (match.balances[me], match.balances[1 - me]) != (
        summary.player_total,
        summary.opponent_total,
    ) or len(match.ledger) != summary.rounds:
        return None
    rounds = [entry.as_dict() for entry in match.ledger]
    for r in rounds:
        r.pop("instant", None)
    finished = match.outcome is not None and summary.ending == "completed"
    winner = match.outcome.winner if finished and match.outcome is not None else summary.winner
    try:
        return _record(match, summary, rounds, winner)
    except ValidationError:  # the replay holds what a record cannot (cannot happen: a guard)
        return None


def _record(
    match: engine.Match, summary: SummaryRow, rounds: list[dict[str, object]], winner: int | None
) -> MatchRecord:
    rules = match.rules
    me = summary.player_seat
    return MatchRecord(
        match_id=summary.match_id,
        date=summary.date,
        preset=rules.based_on,
        options=rules.changes_from_preset() if engine.is_custom(rules) else {},
        unit=rules.unit,
        opponent_name=summary.opponent_name,
        opponent_level=summary.opponent_level,
        practice=bool(summary.practice),
        computer=bool(summary.computer),
        help_level=summary.help_level,
        player_seat=me,
        rounds=[RoundEntry.model_validate(r) for r in rounds],
        final_balances=(match.balances[0], match.balances[1]),
        winner=None if winner is None else (0 if winner == 0 else 1),
        ending=summary.ending,
    )
