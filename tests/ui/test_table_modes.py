"""Hot seat (the curtain hides the hands between turns) and practice mode (undo, suggest)."""

from __future__ import annotations

from typing import Any

from koikoi_desktop import engine
from koikoi_desktop.scenes.table_view import dealer_known
from koikoi_desktop.ui import gfx

from .test_table import start_table


def test_hot_seat_curtain_between_turns(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 5, seats=("human", "human"))
    first = t.state.to_move
    assert t.viewer == first and not t.curtain
    t.apply(next(a for a in t.state.legal_actions() if a.kind == "play"))
    assert pump_fn(t, lambda: t.curtain or t.state.to_move == first or t.prompt is not None)
    if t.state.to_move != first and t.state.phase == "play":
        assert t.curtain and t.prompt is not None and t.prompt.opaque
        assert t.director.hide_hands == {0, 1}  # nobody's cards show behind the curtain
        t.prompt.widgets[-1].activate()  # Ready
        assert t.viewer == t.state.to_move and not t.curtain


def test_practice_undo_restores_the_position(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 8, seats=("human", "beginner"), practice=True)
    hand = sorted(t.state.hand(0))
    before = engine.match_record(t.match)
    t.apply(next(a for a in t.state.legal_actions() if a.kind == "play"))
    pump_fn(t, lambda: t.my_turn() or t.prompt is not None or t.waiting_summary)
    if t.waiting_summary or t.match.round_number != 1:
        return  # the round ended at once: nothing to undo in it
    assert t.can_undo()
    t.undo()
    assert sorted(t.state.hand(0)) == hand
    assert engine.match_record(t.match) == before


def test_practice_suggest_names_a_move(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 8, seats=("human", "beginner"), practice=True)
    t.suggest()
    assert t.suggestion


# ---------------------------------------------------------------- the first-dealer draw
def _first_table(app: Any, preset: str, seed: int = 12) -> Any:
    from koikoi_desktop import scenes
    from koikoi_desktop.scenes.table import MatchConfig, TableScene

    app.stack.push(scenes.create("title", app))
    t = TableScene(app, config=MatchConfig(engine.PRESETS[preset], ("human", "beginner"), seed))
    app.stack.push(t)
    return t


def test_first_dealer_cards_turn_one_by_one_then_the_result(ui_app: Any) -> None:
    import pygame

    ui_app.anim_speed = "normal"
    t = _first_table(ui_app, "nintendo")
    p = t.prompt
    rv = p.reveal
    assert p.key == ("first",) and rv is not None and t.first.method == "draw"
    assert len(p.cards) == 2 * len(t.first.draws) and rv.captions[:2] == list(t.names)
    assert rv.lines_shown() == 0 and rv.progress(0) == 0.0
    seen: list[tuple[float, float, int]] = []
    for _ in range(600):
        if rv.done:
            break
        t.update(1 / 60)
        seen.append((rv.progress(0), rv.progress(1), rv.lines_shown()))
        t.draw(ui_app.screen)
    assert rv.done and rv.lines_shown() == len(p.lines)
    # the first card is face up before the second starts, and no line before both are up
    assert any(a == 1.0 and b == 0.0 for a, b, _ in seen)
    assert all(n == 0 for a, b, n in seen if b < 1.0)
    assert p.lines[-1] == gfx.tr("ui.first.lowest_deals", name=t.names[t.first.dealer])
    assert not dealer_known(t)  # the header does not name the dealer while the draw is up
    ev = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="")
    t.app.dispatch(ev)
    assert t.prompt is None and dealer_known(t)  # Continue


def test_a_click_shows_the_whole_draw_and_a_second_continues(ui_app: Any) -> None:
    import pygame

    ui_app.anim_speed = "normal"
    t = _first_table(ui_app, "seed-003")
    t.update(1 / 60)
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=t.prompt.rect.center)
    t.app.dispatch(click)
    assert t.prompt is not None and t.prompt.reveal.done
    t.app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    assert t.prompt is None


def test_speed_off_shows_the_draw_at_once(ui_app: Any) -> None:
    ui_app.anim_speed = "off"
    t = _first_table(ui_app, "nintendo")
    t.update(1 / 60)
    assert t.prompt.reveal.done


def test_seed_000_tie_says_the_sakura_sentence_and_ages_decide_otherwise(ui_app: Any) -> None:
    import datetime as dt

    t = _first_table(ui_app, "seed-000")
    assert t.first.method == "random"  # no birth date: the human's age is unknown
    assert gfx.tr("ui.first.sakura") in t.prompt.lines
    ui_app.stack.pop()
    ui_app.save_setting("birth_date", dt.date(1950, 5, 1))
    t = _first_table(ui_app, "seed-000")
    assert t.first.method == "age" and t.first.dealer == 0  # older than every beginner persona
    assert t.prompt.lines == [gfx.tr("ui.first.oldest", name=t.names[0])]


def test_reduced_motion_fades_in_place_without_moving(ui_app: Any) -> None:
    from koikoi_desktop.ui.animation import AnimationQueue, Sprite, Step, Tween

    sp = Sprite(5, (0.0, 0.0, 10.0, 16.0), face_up=False)
    q = AnimationQueue("normal", reduced=True)
    end = (300.0, 200.0, 10.0, 16.0)
    q.push(Step(lambda: [Tween(sp, sp.box, end, 0.0, 0.4, True)]))
    q.update(0.05)
    assert sp.box == end and sp.face_up and 0 < sp.alpha < 255  # in place, fading in
    q.update(0.5)
    assert sp.alpha == 255 and not q.busy
    # the first-dealer cards do not turn either: they fade over the back
    ui_app.reduced_motion = True
    ui_app.anim_speed = "normal"
    t = _first_table(ui_app, "nintendo")
    assert t.prompt.reveal.fade_only and t.queue.reduced
