"""The move log and the capture piles tell a computer's move once and the same after Continue
(issue 43, found 6): a reason that only says the move again is not logged, a reason comes after
its move's line, Continue tells the reasons again and keeps the piles in the order they were
taken; the reasons in Russian, Ukrainian and Slovak need no agreement with a card's gender."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from koikoi_desktop import engine
from koikoi_desktop.ai.base import ReasonKey
from koikoi_desktop.scenes.table.text import SAYS_ONLY_THE_MOVE, LogLine

from .test_continue import close_app, continue_in_new_app, make_app, play_until
from .test_seams import apps, start  # noqa: F401  (the fixture)

MOVES = (engine.Played, engine.Discarded, engine.Drew, engine.GajiPaired)


def test_a_computer_move_is_told_once_with_its_reason_after_it_and_again_on_continue(
    tmp_path: Path,
    apps: list[Any],  # noqa: F811
) -> None:
    a = make_app(tmp_path / "data")
    apps.append(a)
    t = start(a, seed=11, practice=True)
    c = t.controller
    play_until(
        a,
        t,
        lambda: (
            sum(1 for ln in c.log if ln.kind == "reason") >= 3
            and c.my_turn()
            and c.state.phase == "play"
        ),
        limit=3000,
    )
    log = list(c.log)
    reasons = [i for i, ln in enumerate(log) if ln.kind == "reason"]
    for i in reasons:
        why = log[i].why
        assert why is not None and why.key not in SAYS_ONLY_THE_MOVE
        before = log[i - 1]  # the computer's own move line comes first, then why
        assert before.kind == "event" and getattr(before.event, "player", None) == log[i].seat
    caps = [list(p) for p in t.director.board.caps]
    close_app(a)
    apps.remove(a)

    _, t2 = continue_in_new_app(apps, tmp_path / "data")
    c2 = t2.controller
    assert c2.log[:-1] == log  # the reasons too, each after its move
    assert c2.log[-1] == LogLine("resumed")
    assert [list(p) for p in t2.director.board.caps] == caps  # the piles as they were taken


def test_no_reason_names_a_card_with_a_gendered_pronoun() -> None:
    """ "берёт «Кабан»: она нужна…": a card's name has its own gender, so the reasons about a
    card say "this card" (a noun of one gender) instead of a pronoun for the name."""
    root = Path(engine.__file__).parent.parent / "i18n"
    pronouns = {
        "ru": (" она ", " к ней ", ": её ", " оно ", " он "),
        "uk": (" вона ", " до неї ", ": її ", " воно ", " він "),
        "sk": (" ju ", " k nej ", ": vyzerá"),
    }
    for lang, bad in pronouns.items():
        cat = json.loads((root / f"{lang}.json").read_text(encoding="utf-8"))
        for key in ReasonKey:
            entry = cat[f"ai.reason.{key.value}"]
            texts = entry.values() if isinstance(entry, dict) else [entry]
            for text in texts:
                if "{card}" in text or "{drawn}" in text:
                    assert not any(b in text for b in bad), (lang, key, text)
