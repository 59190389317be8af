"""The koi-koi question opens as soon as the cards are at rest, and the line under the step bar
speaks of the step on show (issue 43, found 2: the prompt waited for the next input event,
about 10 s, while the line said "Your turn: drag a card from your hand…" under "3. Stop or
koi-koi?")."""

from __future__ import annotations

from typing import Any

import pygame

from koikoi_desktop.scenes.table.view import draw_status
from koikoi_desktop.ui import gfx

from .conftest import FPS, _settle_thinkers
from .test_table import start_table


def test_the_question_opens_with_the_cards_at_rest_and_the_hint_matches_the_step(
    ui_app: Any, pump_fn: Any, monkeypatch: Any
) -> None:
    t = start_table(ui_app, pump_fn, 11)
    c = t.controller

    def mine() -> bool:
        return c.state.phase == "decide" and c.is_human(c.state.to_move)

    for _ in range(2000):  # the person plays the first legal move until they make a yaku
        if mine():
            break
        top = ui_app.stack.top
        if top is not t and top.name == "round-summary":
            top.on_back()
        elif c.my_turn():
            c.apply(c.state.legal_actions()[0])
            t.run_cues()
        elif t.prompt is not None:
            t.prompt.widgets[-1].activate()  # the computer's question: keep playing / close
        pump_fn(t, lambda: c.my_turn() or t.prompt is not None or mine(), 5)
    assert mine()
    seen: list[str] = []
    real = gfx.blit_text

    def spy(surface: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> Any:
        seen.append(text)
        return real(surface, text, size, pos, **kw)

    for _ in range(30 * FPS):  # the move that made the yaku is shown, then the question
        if t.prompt is not None:
            break
        if not t.queue.busy and t.director.announce is None:
            # at rest with the question not asked yet: the app must not sleep on input
            assert t.still_for() == 0.0
            seen.clear()
            with monkeypatch.context() as m:
                m.setattr(gfx, "blit_text", spy)
                draw_status(ui_app.screen, t.frame())
            assert ui_app.words.t("ui.table.hint_play") not in seen
        _settle_thinkers(ui_app)
        ui_app.stack.update(1 / FPS)
    assert t.prompt is not None and t.prompt.key[-1] == "decide"
