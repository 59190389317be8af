"""Words for a match's deal seal and its check, in the ``Words`` given (no pygame).

The facts come from the engine: a match's ``commitment`` (:mod:`koikoi_desktop.engine.chance`)
and :func:`koikoi_desktop.engine.verify_deals`'s :class:`~koikoi_desktop.engine.DealCheck`. The
pause menu, the first-dealer prompt, the ledger, the review and ``--verify-deals`` all word them
here, so each says the same thing.

>>> seal_code("87c560221878")
'87c5 6022 1878'
"""

from __future__ import annotations

from koikoi_desktop.engine import (
    DealCheck,
    FirstDealer,
    MatchText,
    month_of,
    parse_match_record,
)
from koikoi_desktop.engine.notation import check_deals
from koikoi_desktop.i18n import Words


def seal_code(commitment: str) -> str:
    """A commitment in groups of four hex digits (easier to read and compare aloud)."""
    return " ".join(commitment[i : i + 4] for i in range(0, len(commitment), 4))


def check_text(words: Words, check: DealCheck, seed: int | None) -> str:
    """One sentence saying what :func:`verify_deals` found."""
    code = seal_code(check.commitment or "")
    if check.verdict in ("fair", "set_up"):
        key = "ui.deals.fair" if check.verdict == "fair" else "ui.deals.fair_stacked"
        return words.t(key, code=code, seed=seed)
    if check.verdict == "differs":
        if check.deal == 0:
            return words.t("ui.deals.first_differs")
        return words.t("ui.deals.differs", deal=check.deal)
    if check.verdict == "unfinished":
        return words.t("ui.deals.unfinished", code=code)
    return words.t(f"ui.deals.{check.verdict}", code=code)


def record_check(record: str, *, finished: bool = True) -> tuple[DealCheck, MatchText]:
    """Check a match record's deals (RecordError when it cannot be read)."""
    text = parse_match_record(record)
    return check_deals(text, finished=finished), text


def first_draw_text(words: Words, first: FirstDealer, names: tuple[str, str]) -> str:
    """How the first dealer was chosen, in a sentence or two ("" when no chance was drawn: a
    deal played again, or a record from before the draw was recorded)."""
    who = names[first.dealer]
    if first.method == "draw" and first.draws:
        a, b = first.draws[-1]
        drawn = words.t(
            "ui.first.draw",
            a=names[0],
            ca=words.card_name(a),
            ma=month_of(a),
            b=names[1],
            cb=words.card_name(b),
            mb=month_of(b),
        )
        return f"{drawn} {words.t('ui.first.lowest_deals', name=who)}"
    if first.method == "birth_month" and first.draws:
        c = first.draws[-1][0]
        return words.t("ui.first.birth_month", card=words.card_name(c), m=month_of(c), name=who)
    if first.method == "age":
        return words.t("ui.first.oldest", name=who)
    if first.method == "random":
        return words.t_person("ui.first.random_pick", who)
    return ""
