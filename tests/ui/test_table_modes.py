"""Hot seat (the curtain hides the hands between turns) and practice mode (undo, suggest)."""

from __future__ import annotations

from typing import Any

from koikoi_desktop import engine
from koikoi_desktop.i18n import ENGLISH, say
from koikoi_desktop.words.deal import seal_code

from .test_table import start_table


def test_hot_seat_curtain_between_turns(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 1, seats=("human", "human"))
    c = t.controller
    first = c.state.to_move
    assert c.viewer == first and not c.curtain
    mine = set(c.state.hand(first))
    assert mine <= set(t.director.sprites)  # the player's own hand is on the board
    c.apply(next(a for a in c.state.legal_actions() if a.kind == "play"))
    assert pump_fn(t, lambda: c.curtain or c.state.to_move == first or t.prompt is not None)
    if c.state.to_move != first and c.state.phase == "play":
        assert c.curtain and t.prompt is not None and t.prompt.opaque
        assert t.director.hide_hands == {0, 1}  # nobody's cards show behind the curtain
        t.prompt.widgets[-1].activate()  # Ready
        assert c.viewer == c.state.to_move and not c.curtain
        # two views: the board now shows the new player's hand, and never the other one
        assert set(c.state.hand(c.viewer)) <= set(t.director.sprites)
        assert not set(c.state.hand(first)) & set(t.director.sprites)


def test_practice_undo_restores_the_position(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 8, seats=("human", "beginner"), practice=True)
    c = t.controller
    hand = sorted(c.state.hand(0))
    before = engine.match_record(t.match)
    c.apply(next(a for a in c.state.legal_actions() if a.kind == "play"))
    pump_fn(t, lambda: c.my_turn() or t.prompt is not None or t.waiting_summary)
    if t.waiting_summary or t.match.round_number != 1:
        return  # the round ended at once: nothing to undo in it
    assert c.can_undo()
    t.undo()
    assert sorted(c.state.hand(0)) == hand
    assert engine.match_record(t.match) == before


def test_practice_suggest_names_a_move(ui_app: Any, pump_fn: Any) -> None:
    t = start_table(ui_app, pump_fn, 8, seats=("human", "beginner"), practice=True)
    t.controller.suggest()
    assert say(t.controller.suggestion, ENGLISH)


# ---------------------------------------------------------------- the first-dealer draw
def _first_table(app: Any, preset: str, seed: int = 12) -> Any:
    from koikoi_desktop import scenes
    from koikoi_desktop.scenes import screens
    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.scenes.table.scene import TableScene

    app.stack.push(scenes.create("title", app))
    t = TableScene(
        app, screens.Table(config=MatchConfig(engine.PRESETS[preset], ("human", "beginner"), seed))
    )
    app.stack.push(t)
    return t


def test_first_dealer_cards_turn_one_by_one_then_the_result(ui_app: Any) -> None:
    import pygame

    ui_app.prefs.set_speed("normal")
    t = _first_table(ui_app, "nintendo")
    p = t.prompt
    rv = p.reveal
    c = t.controller
    assert p.key == ("first",) and rv is not None and c.first.method == "draw"
    assert len(p.cards) == 2 * len(c.first.draws) and rv.captions[:2] == list(c.names(ENGLISH))
    assert rv.lines_shown() == 0 and rv.progress(0) == 0.0
    seen: list[tuple[float, float, int]] = []
    for _ in range(600):
        if rv.done:
            break
        ui_app.stack.update(1 / 60)  # the prompt is on top: it runs the table's clock
        seen.append((rv.progress(0), rv.progress(1), rv.lines_shown()))
        ui_app.stack.draw(ui_app.screen)
    assert rv.done and rv.lines_shown() == len(p.lines)
    # the first card is face up before the second starts, and no line before both are up
    assert any(a == 1.0 and b == 0.0 for a, b, _ in seen)
    assert all(n == 0 for a, b, n in seen if b < 1.0)
    assert p.lines[-3] == ENGLISH.t("ui.first.lowest_deals", name=c.names(ENGLISH)[c.first.dealer])
    assert p.lines[-2] == ENGLISH.t("ui.first.back")  # the cards go back before the deal
    seal = ENGLISH.t("ui.deals.sealed", code=seal_code(c.match.commitment))
    assert p.lines[-1] == seal and str(c.match.seed) not in seal
    assert not c.snapshot(ENGLISH).dealer_known  # the header does not name the dealer yet
    assert t.clock.now == rv.t  # one clock: the prompt's reveal runs on the table's time
    ev = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="")
    t.app.dispatch(ev)
    assert t.prompt is None and c.snapshot(ENGLISH).dealer_known  # Continue
    assert ui_app.stack.top is t


def test_a_click_shows_the_whole_draw_and_a_second_continues(ui_app: Any) -> None:
    import pygame

    ui_app.prefs.set_speed("normal")
    t = _first_table(ui_app, "seed-003")
    ui_app.stack.update(1 / 60)
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=t.prompt.rect.center)
    t.app.dispatch(click)
    assert t.prompt is not None and t.prompt.reveal.done
    t.app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    assert t.prompt is None


def test_speed_off_shows_the_draw_at_once(ui_app: Any) -> None:
    ui_app.prefs.set_speed("off")
    t = _first_table(ui_app, "nintendo")
    ui_app.stack.update(1 / 60)
    assert t.prompt.reveal.done


def test_seed_000_tie_says_the_sakura_sentence_and_ages_decide_otherwise(ui_app: Any) -> None:
    import datetime as dt

    t = _first_table(ui_app, "seed-000")
    assert t.controller.first.method == "random"  # no birth date: the human's age is unknown
    assert ENGLISH.t("ui.first.sakura") in t.prompt.lines
    ui_app.stack.pop_to("title")
    ui_app.prefs.apply(ui_app.settings.model_copy(update={"birth_date": dt.date(1950, 5, 1)}))
    t = _first_table(ui_app, "seed-000")
    c = t.controller
    assert c.first.method == "age" and c.first.dealer == 0  # older than every beginner persona
    seal = ENGLISH.t("ui.deals.sealed", code=seal_code(c.match.commitment))
    assert t.prompt.lines == [ENGLISH.t("ui.first.oldest", name=c.names(ENGLISH)[0]), seal]


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
    motion = ui_app.prefs.draft()
    motion.reduced_motion = True
    ui_app.prefs.apply(motion)
    ui_app.prefs.set_speed("normal")
    t = _first_table(ui_app, "nintendo")
    assert t.prompt.reveal.fade_only and t.queue.reduced
