"""The learning screens: month and yaku reference, rules, guided round, settings (headless)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import scenes
from koikoi_desktop.ai import InlineExecutor
from koikoi_desktop.engine import DECK, PRESETS, Action, Rules, match_record
from koikoi_desktop.i18n import ENGLISH, Words, say
from koikoi_desktop.scenes import rules_screen, screens, yaku_facts
from koikoi_desktop.scenes.base import Scene
from koikoi_desktop.scenes.month_reference import MonthReferenceScene
from koikoi_desktop.scenes.rules_screen import PAGES, HanafudaHistoryScene, RulesScene
from koikoi_desktop.scenes.settings_screen import SettingsScene, TextField
from koikoi_desktop.scenes.table.prompts import PromptScene
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.scenes.tutorial import (
    FIELD,
    PLAYER_HAND,
    SCRIPT,
    Lesson,
    LessonGuide,
    ScriptedOpponent,
)
from koikoi_desktop.scenes.yaku_reference import YakuReferenceScene
from koikoi_desktop.storage import Storage
from koikoi_desktop.ui import gfx
from koikoi_desktop.ui.widgets import Choice, Slider
from tests.ui.drawn import text_spy, texts_drawn

SIZES = [(1024, 640), (1280, 800), (1920, 1080)]
LEARNING = ["month-reference", "quiz", "yaku-reference", "rules", "tutorial", "settings", "about"]


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    def make(size: tuple[int, int] = (1280, 800)) -> Any:
        args = appmod.parse_args(
            ["--size", f"{size[0]}x{size[1]}", "--data-dir", str(tmp_path / "data")]
        )
        a = appmod.App(args)
        a.open_storage()
        a.open_window()
        a.open_sprites()
        a.stack.push(scenes.create("title", a))
        return a

    yield make


def click(app: Any, pos: tuple[int, int], button: int = 1) -> None:
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def key(app: Any, k: int, text: str = "") -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text))


def wheel(app: Any, dy: int) -> None:
    app.dispatch(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False))


def draw(app: Any) -> pygame.Surface:
    surf = pygame.display.get_surface()
    app.stack.draw(surf)
    return surf


# ----------------------------------------------------------------------------- every scene


def test_registry_points_at_the_learning_scenes(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app((1280, 800))
    built = {
        "month-reference": MonthReferenceScene,
        "yaku-reference": YakuReferenceScene,
        "rules": RulesScene,
        "about": HanafudaHistoryScene,
        "settings": SettingsScene,
    }
    for name, cls in built.items():
        scene = scenes.create(name, a)
        assert type(scene) is cls and scene.name == name
    # the guided round is the table itself, holding a lesson as its guide
    lesson = scenes.create("tutorial", a)
    assert type(lesson) is TableScene and lesson.name == "tutorial"
    assert isinstance(lesson.guide, LessonGuide)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", LEARNING)
def test_scene_enters_handles_events_and_draws(make_app, name: str, size) -> None:  # type: ignore[no-untyped-def]
    a = make_app(size)
    scene = a.stack.push(scenes.create(name, a))
    before = draw(a).copy()
    w, h = size
    for pos in [(w // 2, h // 2), (w // 4, h // 3), (w - 40, h - 40), (200, 150), (w // 3, 92)]:
        click(a, pos)
        draw(a)
        if a.stack.top is not scene:  # a click opened another screen or went back
            a.stack.pop_to(scene.name) or a.stack.push(scene)
    for k in (pygame.K_DOWN, pygame.K_RIGHT, pygame.K_UP, pygame.K_LEFT, pygame.K_TAB):
        key(a, k)
        draw(a)
    wheel(a, -2)
    wheel(a, 1)
    after = draw(a)
    # a click may land on the settings' fullscreen toggle, which really switches (dummy driver)
    assert after.get_size() == (a.size if getattr(a, "fullscreen", False) else size)
    # something was drawn over the felt: the screen is not one flat colour
    assert len({before.get_at((x, y))[:3] for x in range(0, w, 37) for y in range(0, h, 29)}) > 20


SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "uk": re.compile(r"[\u0400-\u04ff]")}
KEY_LIKE = re.compile(r"[a-z_]+(\.[a-z0-9_\-]+)+")


def test_all_rules_pages_draw_in_japanese_and_ukrainian(make_app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Every page draws its tab, heading and text in the language, with every glyph in the
    shipped fonts and no raw catalog key; a page longer than the window scrolls."""
    from koikoi_desktop import text as text_mod

    a = make_app((1280, 800))
    with text_spy(monkeypatch) as seen:
        for lang in ("ja", "uk"):
            a.prefs.speak(lang)
            words = a.words
            script = SCRIPTS[lang]
            for page in PAGES:
                s = a.stack.push(a.router.build(screens.Rules(page=page)))
                seen.clear()
                body = pygame.image.tobytes(draw(a).subsurface(s.body()), "RGB")
                shown = list(seen)
                assert words.t(f"ui.rules.page.{page}") in shown, (lang, page)
                assert s.heading(words) in shown, (lang, page)
                assert not [t for t in shown if KEY_LIKE.fullmatch(t)], (lang, page)
                assert not [t for t in shown if text_mod.missing_glyphs(t)], (lang, page)
                written = sum(len(script.findall(t)) for t in shown)
                assert written >= 60, (lang, page, written)  # the page's text, not just its tabs
                limit = max(0, s.content_h - s.body().h)
                wheel(a, -3)
                scrolled = pygame.image.tobytes(draw(a).subsurface(s.body()), "RGB")
                assert s.scroll == min(limit, 3 * s.px(50)), (lang, page)
                assert (scrolled != body) == bool(s.scroll), (lang, page)  # it moved, if it could
                a.stack.pop()


# ----------------------------------------------------------------------------- month reference


def test_month_reference_opens_at_a_card_and_navigates(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(a.router.build(screens.MonthReference(card=33)))
    assert (s.month, s.card) == (9, 33)
    draw(a)
    key(a, pygame.K_DOWN)
    assert s.month == 10
    key(a, pygame.K_RIGHT)
    assert s.card == 37
    wheel(a, 1)
    assert s.month == 9
    draw(a)
    lst = s.list_rect()
    row_h = min(s.px(56), (lst.h - s.px(8)) // 12)
    click(a, (lst.centerx, lst.y + 4 + 2 * row_h + row_h // 2))  # the third row: March
    assert s.month == 3
    key(a, pygame.K_f)
    assert (s.view, s.kind_filter, len(s.filtered())) == ("grid", "bright", 5)
    key(a, pygame.K_k)
    assert s.kind_filter is None and s.yaku_filter == "goko"
    key(a, pygame.K_a)
    assert s.view == "month" and s.yaku_filter is None


def test_month_reference_filters_by_category_and_yaku(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(a.router.build(screens.MonthReference(rules=PRESETS["seed-000"])))
    s.set_kind("animal")
    assert s.view == "grid" and len(s.filtered()) == 9
    draw(a)
    s.set_yaku("inoshikacho")
    assert s.filtered() == [21, 25, 37]
    draw(a)
    s.rules = PRESETS["nintendo"]  # Nintendo's Ino-Shika-Chō takes in every other animal (+1)
    assert s.filtered() == sorted(c.id for c in DECK if c.kind == "animal")
    s.set_kind(None)
    assert s.view == "month"


def test_month_reference_is_pushed_over_the_table_and_uses_its_rules(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    log: list[str] = []

    class FakeTable(Scene):
        name = "table"
        rules = Rules.model_validate({**PRESETS["seed-000"].model_dump(), "viewing_value": 3})

        def pause(self) -> None:
            log.append("pause")

        def resume(self) -> None:
            log.append("resume")

    table = a.stack.push(FakeTable(a))
    s = a.stack.push(a.router.build(screens.MonthReference(month=3, card=9)))
    assert s.rules is table.rules
    draw(a)
    key(a, pygame.K_ESCAPE)
    assert a.stack.top is table and log == ["pause", "resume"]


def test_month_reference_over_a_real_table_leaves_the_match_untouched(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    table = a.stack.push(a.router.build(screens.Table(seed=3, preset="seed-003")))
    for _ in range(20):
        a.stack.update(1 / 60)
        draw(a)
    before = match_record(table.match)
    table_sizes = set(a.sprites.sizes())
    below = a.stack.top  # the table, or the first dealer's prompt over it
    assert below is table or below.table is table
    s = a.stack.push(a.router.build(screens.MonthReference(month=2, card=5)))  # as a right-click
    assert (s.month, s.card, s.rules.based_on) == (2, 5, "seed-003")
    for k in (pygame.K_DOWN, pygame.K_q, pygame.K_ESCAPE, pygame.K_y):
        key(a, k)
        draw(a)
    # one sprite cache, the app's: the reference's sizes join the table's and evict none of them
    assert set(a.sprites.sizes()) > table_sizes
    for _ in range(10):
        if a.stack.top is below:
            break
        key(a, pygame.K_ESCAPE)
    assert a.stack.top is below
    assert match_record(table.match) == before


def test_quiz_updates_and_saves_score_and_streak(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(a.router.build(screens.Quiz(seed=5)))
    draw(a)
    card = DECK[s.quiz_card - 1]
    s.answer_month(card.month)
    s.answer_kind(card.kind)
    draw(a)
    assert (a.storage.settings.quiz_score, a.storage.settings.quiz_streak) == (1, 1)
    key(a, pygame.K_RETURN)  # "Next card" has the focus
    assert s.quiz_stage == "month" and s.quiz_card != card.id
    wrong = DECK[s.quiz_card - 1]
    s.answer_month(wrong.month % 12 + 1)
    s.answer_kind(wrong.kind)
    saved = Storage.open(tmp_path / "data").settings
    assert (saved.quiz_score, saved.quiz_streak, saved.quiz_best_streak) == (1, 0, 1)


def test_quiz_answers_by_clicking_buttons(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(a.router.build(screens.Quiz(seed=2)))
    draw(a)
    card = DECK[s.quiz_card - 1]
    click(a, s.qfocus.widgets[card.month - 1].rect.center)
    assert s.quiz_stage == "kind" and s.quiz_answer["month"] == card.month
    draw(a)
    kinds = ["bright", "animal", "ribbon", "plain"]
    click(a, s.qfocus.widgets[kinds.index(card.kind)].rect.center)
    assert s.quiz_stage == "result" and s.quiz_answer["right"]
    draw(a)


def test_quiz_opens_over_the_month_reference_and_leaves_at_its_card(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    ref = a.stack.push(a.router.build(screens.MonthReference(month=1)))
    draw(a)
    key(a, pygame.K_q)
    quiz = a.stack.top
    assert quiz.name == "quiz" and a.stack.names()[-2] == "month-reference"
    asked = quiz.quiz_card
    draw(a)
    key(a, pygame.K_ESCAPE)
    assert a.stack.top is ref and ref.card == asked and ref.month == DECK[asked - 1].month


# ----------------------------------------------------------------------------- yaku reference


def test_yaku_reference_values_follow_the_preset(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(a.router.build(screens.YakuReference(rules=PRESETS["nintendo"])))
    draw(a)
    assert s.value_of("goko") == 10
    while s.rules.based_on != "seed-003":
        key(a, pygame.K_RIGHT)
        draw(a)
    assert s.value_of("goko") == 15 and s.value_of("hanami") == 3
    assert not yaku_facts.exists("akaao", s.rules)
    three = Rules.model_validate({**PRESETS["seed-000"].model_dump(), "viewing_value": 3})
    s2 = a.stack.push(a.router.build(screens.YakuReference(rules=three, yaku="hanami")))
    draw(a)
    assert s2.value_of("hanami") == 3 and s2.value_of("tsukimi") == 3
    assert [c for c, _ in s2.choices()][-1] == ENGLISH.t(
        "preset.custom", preset=ENGLISH.t("preset.seed-000.name")
    )


def test_yaku_reference_list_selection_by_keys_and_click(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(scenes.create("yaku-reference", a))
    draw(a)
    key(a, pygame.K_DOWN)
    assert s.selected == "shiko"
    lst = s.list_rect()
    keys = yaku_facts.all_keys()
    row_h = min(s.px(44), (lst.h - 8) // len(keys))
    click(a, (lst.centerx, lst.y + 4 + keys.index("kasu") * row_h + row_h // 2))
    assert s.selected == "kasu"
    draw(a)


def test_yaku_facts_follow_the_rule_flags() -> None:
    nin, s000, s003, s001 = (PRESETS[n] for n in ("nintendo", "seed-000", "seed-003", "seed-001"))
    assert yaku_facts.relation("inoshikacho", "tane", s000) == "shared"
    assert yaku_facts.relation("inoshikacho", "tane", s003) == "disjoint"
    assert yaku_facts.relation("inoshikacho", "tane", nin) == "never"
    assert yaku_facts.relation("hanami", "tsukimi", nin) == "shared"
    assert yaku_facts.relation("hanami", "tsukimi", s003) == "never"
    assert yaku_facts.relation("goko", "sanko", s000) == "never"
    assert yaku_facts.relation("kasu", "tane", s003) == "shared"  # the cup is no plain card there
    assert yaku_facts.relation("tane", "akaao", nin) == "shared"
    assert yaku_facts.relation("hanami", "sanko", s003) == "never"  # Shikō would outscore both
    assert yaku_facts.extra_step("inoshikacho", nin)[0] == 1
    assert yaku_facts.extra_step("inoshikacho", s000)[0] == 0
    assert 33 in yaku_facts.feeders("kasu", nin) and 33 not in yaku_facts.feeders("kasu", s003)
    assert yaku_facts.feeds(41, nin) == ["goko", "ame_shiko"]
    assert next(k for k, _ in yaku_facts.multipliers(s001)) == "ui.yakuref.mult.none"
    assert ("ui.yakuref.mult.koi_calls", {"x1": 2, "x2": 4, "x3": 8}) in yaku_facts.multipliers(
        s000
    )
    rows = {r[0]: r for r in yaku_facts.preset_differences("seed-003")}
    assert rows["value_goko"][1] == 15 and rows["value_goko"][3] is True
    assert "value_tane" not in rows  # the same in every preset


def test_the_presets_page_says_each_rulebooks_call_words_in_the_players_language() -> None:
    """The call words are the UI's (``names.stop_word``), so the presets page says them in the
    player's language; Koi-koi and Koi-Koi are one word, not a difference between rulebooks."""
    words = Words("uk")
    rows = {r[0]: r for r in rules_screen.difference_rows(words, "seed-000")}
    stop = rows[words.t("rule.stop_word")]
    others = {"nintendo": "Стоп", "seed-001": "Стоп", "seed-003": "Шьобу"}
    assert stop[1:] == ("Агарі", others, True)
    assert not rows[words.t("rule.koi_word")][3]  # seed-003's «Кой» differs; seed-000's does not


# ----------------------------------------------------------------------------- rules, tutorial


def test_rules_pages_switch_with_keys_and_preset_chips(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(scenes.create("rules", a))
    assert s.page == "turn"
    key(a, pygame.K_RIGHT)
    assert s.page == "matching"
    s.set_page("presets")
    draw(a)
    s.set_preset("seed-001")
    draw(a)
    assert a.stack.push(scenes.create("about", a)).page == "history"


# The guided round is the real table (a ``TableScene`` holding a ``LessonGuide``): these drive
# it with real pygame events through the app, at animation speed "off", the computer inline.


@pytest.fixture
def lesson_app(ui_app: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The app with the guided round open over the title; any write to the ledger or the saved
    match fails the test."""
    store = ui_app.storage

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the guided round wrote to storage")

    monkeypatch.setattr(store, "write_autosave", refuse)
    monkeypatch.setattr(store, "record_match", refuse)
    ui_app.stack.push(scenes.create("title", ui_app))
    ui_app.stack.push(scenes.create("tutorial", ui_app))
    return ui_app


def frames(app: Any, n: int = 240) -> None:
    for _ in range(n):
        app.stack.update(1 / 60)


def centre(s: TableScene, card: int) -> tuple[int, int]:
    x, y, w, h = s.director.sprites[card].box
    return round(x + w / 2), round(y + h / 2)


def mouse_drag(app: Any, start: tuple[int, int], end: tuple[int, int], steps: int = 8) -> None:
    """A real drag: press, motion events with the button held, release."""
    ev = pygame.event.Event
    app.dispatch(ev(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(ev(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for i in range(1, steps + 1):
        pos = (
            start[0] + (end[0] - start[0]) * i // steps,
            start[1] + (end[1] - start[1]) * i // steps,
        )
        app.dispatch(ev(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
    app.dispatch(ev(pygame.MOUSEBUTTONUP, pos=end, button=1))


def legal_targets(s: TableScene, card: int) -> tuple[set[int], bool]:
    """What the engine allows ``card`` now: the field cards its legal moves take, and whether
    it may be laid on the open field."""
    st = s.controller.state
    takes: set[int] = set()
    lay = False
    for a in st.legal_actions():
        if a.card != card:
            continue
        took = st.captures(a)
        takes.update(took)
        lay = lay or not took
    return takes, lay


def check_lit_equals_legal(app: Any, s: TableScene) -> int:
    """Pick up every card the player may move (a click: press and release in place) and check
    the lit cards are exactly the engine's; put it back (Esc). Returns the cards checked."""
    c = s.controller
    cards = c.pickable()
    for card in cards:
        click(app, centre(s, card))
        assert c.lifted is not None and c.lifted.card == card
        snap = c.snapshot(ENGLISH)
        takes, lay = legal_targets(s, card)
        assert set(snap.lit) == takes, (card, snap.lit, takes)
        assert snap.open_field == lay
        key(app, pygame.K_ESCAPE)
        assert c.lifted is None and app.stack.top is s
    return len(cards)


def expected_target(s: TableScene) -> int:
    want = s.guide.lesson.expected
    assert want is not None
    return want.target or s.controller.state.captures(want)[0]


def test_tutorial_is_the_real_table_with_a_stacked_deal(lesson_app) -> None:  # type: ignore[no-untyped-def]
    s = lesson_app.stack.top
    assert type(s) is TableScene and isinstance(s.guide, LessonGuide)
    c = s.controller
    assert c.config.recorded is False and c.config.seats[0] == "human"
    assert isinstance(c.opponents[1], ScriptedOpponent)
    assert sorted(c.state.hand(0)) == sorted(PLAYER_HAND)
    assert set(c.state.field) == set(FIELD)
    assert (
        "drag" in ENGLISH.t("ui.tutorial.p1").lower()
        and "drag" in ENGLISH.t("ui.tutorial.p2_choose").lower()
    )
    assert "click" not in ENGLISH.t("ui.tutorial.p1").lower()
    assert "Enter" in ENGLISH.t("ui.tutorial.keys")


def test_tutorial_header_names_the_lesson_not_a_round_of_a_match(lesson_app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    seen: list[str] = []
    real = gfx.blit_text

    def spy(surface: pygame.Surface, text: str, *args: Any, **kw: Any) -> pygame.Rect:
        seen.append(text)
        return real(surface, text, *args, **kw)

    monkeypatch.setattr(gfx, "blit_text", spy)
    draw(lesson_app)
    assert ENGLISH.t("ui.tutorial.title") in seen
    assert not any(t.startswith(ENGLISH.t("ui.common.round_n_of", n=1, total=12)) for t in seen)


def test_tutorial_played_with_mouse_drags_reaches_the_yaku_and_stop(lesson_app) -> None:  # type: ignore[no-untyped-def]
    """The whole guided round with real mouse events: Continue clicked, the moves dragged (the
    last one click-click), the opponent's scripted moves played by the table, Hanami made, Stop
    clicked on the real koi-koi prompt, the round summary, the end of the lesson; the lit cards
    equal the engine's legal moves at every play step; the table waits while the guide explains;
    nothing reaches the ledger or the saved match."""
    a = lesson_app
    s = a.stack.top
    c = s.controller
    seen: list[str] = []
    checked = 0
    for _ in range(40):
        frames(a)
        step = s.guide.lesson.step
        seen.append(step.key)
        if step.kind == "done":
            break
        if step.kind == "read":  # the table waits while the guide explains
            moves = len(c.state.moves)
            frames(a, 120)
            assert len(c.state.moves) == moves and not c.my_turn()
            hand = sorted(c.state.hand(0))
            mouse_drag(a, centre(s, hand[0]), centre(s, sorted(c.state.field)[0]))
            assert (
                say(c.message, ENGLISH) == ENGLISH.t("ui.tutorial.not_yet")
                and len(c.state.moves) == moves
            )
            click(a, s.guide.buttons[0].rect.center)
        elif step.kind == "play":
            assert c.my_turn() and s.guide.pointed(s) == s.guide.lesson.expected.card
            checked += check_lit_equals_legal(a, s)
            want = s.guide.lesson.expected
            target = expected_target(s)
            if step.key == "p3":  # click-click: the card, then its target
                click(a, centre(s, want.card))
                assert c.lifted is not None and target in c.lifted.targets
                click(a, centre(s, target))
            else:
                mouse_drag(a, centre(s, want.card), centre(s, target))
            assert want in c.state.moves
        elif step.kind == "decide":
            prompt = a.stack.top
            assert isinstance(prompt, PromptScene) and prompt.table is s
            stop = prompt.widgets[0]
            assert ENGLISH.t("ui.tutorial.stop_hint", stop="Stop") in prompt.lines
            click(a, stop.rect.center)
            frames(a)
            summary = a.stack.top
            assert summary is not None and summary.name == "round-summary"
            key(a, pygame.K_RETURN)
    assert s.guide.lesson.step.kind == "done" and a.stack.top is s
    assert {"intro", "p1", "o1", "p2", "o2", "p3", "decide"} <= set(seen)
    assert (1, 1, "play 5") in c.actions and (1, 1, "play 21") in c.actions  # the script's
    assert checked >= 3 * 6
    m = c.played()
    entry = m.ledger[0]
    assert entry.winner == 0 and entry.final == 5 and [k for k, _ in entry.yaku] == ["hanami"]
    assert s.guide.points == 5 and "5" in s.guide.text(s)
    assert a.storage.ledger.count() == 0 and a.storage.read_autosave() is None
    click(a, s.guide.buttons[0].rect.center)  # Start a real match
    assert a.stack.names() == ["title", "new-game"]


def test_tutorial_refuses_a_wrong_card_with_a_reason_and_changes_nothing(lesson_app) -> None:  # type: ignore[no-untyped-def]
    a = lesson_app
    s = a.stack.top
    c = s.controller
    frames(a)
    key(a, pygame.K_RETURN)  # Continue
    frames(a)
    assert s.guide.lesson.step.key == "p1"

    def state() -> tuple[object, ...]:
        st = c.state
        return (sorted(st.hand(0)), sorted(st.field), list(st.moves), s.guide.lesson.index)

    before = state()
    # the iris ribbon may legally be laid on the field, but this lesson asks for the curtain
    takes, lay = legal_targets(s, 18)
    assert lay and not takes
    mouse_drag(a, centre(s, 18), centre(s, 3))
    frames(a, 30)
    assert say(c.message, ENGLISH) == ENGLISH.t("ui.tutorial.wrong_card") and state() == before
    # on to the two-way choice; the plain pine is legal, the guide asks for the crane
    mouse_drag(a, centre(s, 9), centre(s, 11))
    for _ in range(10):
        frames(a)
        if s.guide.lesson.step.key == "p2":
            break
        if s.guide.lesson.step.kind == "read":
            key(a, pygame.K_RETURN)
    assert s.guide.lesson.step.key == "p2"
    before = state()
    assert legal_targets(s, 2)[0] == {1, 3}
    mouse_drag(a, centre(s, 2), centre(s, 3))
    frames(a, 30)
    assert say(c.message, ENGLISH) == ENGLISH.t("ui.tutorial.wrong_target") and state() == before
    assert c.lifted is None and s.guide.lesson.step.key == "p2"


def test_tutorial_by_keyboard_alone(lesson_app) -> None:  # type: ignore[no-untyped-def]
    """Enter continues; left/right pick the card, Enter lifts it (its targets lit as the engine
    allows), left/right pick the target, Enter plays; the koi-koi prompt starts on Stop; koi-koi
    (left, Enter) is refused with the reason and asked again; Enter stops; Enter closes the
    summary."""
    a = lesson_app
    s = a.stack.top
    c = s.controller
    refused = False
    for _ in range(60):
        frames(a)
        step = s.guide.lesson.step
        if step.kind == "done":
            break
        if step.kind == "read":
            key(a, pygame.K_RETURN)
        elif step.kind == "play":
            want = s.guide.lesson.expected
            for _ in range(10):
                if c.snapshot(ENGLISH).focus == want.card:
                    break
                key(a, pygame.K_RIGHT)
            assert c.snapshot(ENGLISH).focus == want.card
            key(a, pygame.K_RETURN)
            assert set(c.snapshot(ENGLISH).lit) == legal_targets(s, want.card)[0]
            target = expected_target(s)
            for _ in range(4):
                if c.snapshot(ENGLISH).cursor == target:
                    break
                key(a, pygame.K_RIGHT)
            key(a, pygame.K_RETURN)
        elif step.kind == "decide":
            prompt = a.stack.top
            assert isinstance(prompt, PromptScene)
            if not refused:  # koi-koi: refused with the reason, and asked again
                key(a, pygame.K_RIGHT)
                assert prompt.focus.focused is prompt.widgets[-1]
                key(a, pygame.K_RETURN)
                frames(a, 5)
                again = a.stack.top
                assert isinstance(again, PromptScene) and again is not prompt
                assert say(c.message, ENGLISH) == ENGLISH.t("ui.tutorial.koikoi_later", stop="Stop")
                assert (
                    say(c.message, ENGLISH) in again.lines and s.guide.lesson.step.kind == "decide"
                )
                refused = True
                continue
            assert prompt.focus.focused is prompt.widgets[0]  # Stop, as the guide advises
            key(a, pygame.K_RETURN)
            frames(a)
            key(a, pygame.K_RETURN)  # the round summary
    assert refused and s.guide.lesson.step.kind == "done"
    assert c.played().ledger[0].final == 5
    key(a, pygame.K_ESCAPE)  # Esc leaves the lesson
    assert a.stack.names() == ["title"]


def test_tutorial_reached_from_the_title_guides_refuses_a_wrong_card_and_finishes(  # type: ignore[no-untyped-def]
    ui_app, monkeypatch
) -> None:
    """The way a player reaches the lesson: the title's Rules, then the rules screen's "Guided
    first round" (real clicks through the app's scene stack). The table that opens guides (its
    panel drawn with the step's words, Continue in it), refuses a wrong card with the lesson's
    line drawn in the panel and nothing moved, plays on to Hanami and Stop, and finishes: the
    summary closed, the last step says the points won, and the side button leaves the lesson,
    back to the rules screen. Nothing reaches the ledger or the saved match."""
    a = ui_app

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the guided round wrote to storage")

    monkeypatch.setattr(a.storage, "write_autosave", refuse)
    monkeypatch.setattr(a.storage, "record_match", refuse)

    def drawn() -> str:
        """The lines drawn by one frame, joined (a wrapped sentence reads whole again)."""
        return " ".join(texts_drawn(lambda: draw(a), monkeypatch))

    def said(key: str, **params: object) -> str:
        return " ".join(ENGLISH.t(key, **params).split())

    def label(b: Any) -> str:
        return say(b.label, ENGLISH)

    title = a.stack.push(scenes.create("title", a))
    draw(a)
    click(a, next(b for b in title.buttons if label(b) == ENGLISH.t("ui.title.rules")).rect.center)
    rules = a.stack.top
    assert isinstance(rules, RulesScene)
    draw(a)
    guided = next(b for b in rules.buttons if label(b) == ENGLISH.t("ui.rules.tutorial"))
    click(a, guided.rect.center)
    s = a.stack.top
    assert a.stack.names() == ["title", "rules", "tutorial"]
    assert type(s) is TableScene and isinstance(s.guide, LessonGuide)
    c = s.controller
    frames(a)
    text = drawn()
    assert ENGLISH.t("ui.tutorial.title") in text and said("ui.tutorial.intro") in text
    assert ENGLISH.t("ui.common.continue") in text and not c.my_turn()  # the table waits
    refused = False
    for _ in range(40):
        frames(a)
        step = s.guide.lesson.step
        if step.kind == "done":
            break
        if step.kind == "read":
            click(a, s.guide.buttons[0].rect.center)  # Continue
        elif step.kind == "play":
            want = s.guide.lesson.expected
            if not refused:  # the iris ribbon may go to the field, but the lesson wants another
                assert want.card != 18 and legal_targets(s, 18)[1]
                before = (sorted(c.state.hand(0)), sorted(c.state.field), list(c.state.moves))
                mouse_drag(a, centre(s, 18), centre(s, sorted(c.state.field)[0]))
                frames(a, 30)
                after = (sorted(c.state.hand(0)), sorted(c.state.field), list(c.state.moves))
                assert after == before and s.guide.lesson.step is step
                assert say(c.message, ENGLISH) == ENGLISH.t("ui.tutorial.wrong_card")
                assert said("ui.tutorial.wrong_card") in drawn()  # in the guide's panel
                refused = True
            mouse_drag(a, centre(s, want.card), centre(s, expected_target(s)))
            assert want in c.state.moves
        elif step.kind == "decide":
            prompt = a.stack.top
            assert isinstance(prompt, PromptScene) and prompt.table is s
            click(a, prompt.widgets[0].rect.center)  # Stop
            frames(a)
            assert a.stack.top is not None and a.stack.top.name == "round-summary"
            key(a, pygame.K_RETURN)
    assert refused and s.guide.lesson.step.kind == "done" and a.stack.top is s
    text = drawn()
    assert said("ui.tutorial.done", n=5) in text and ENGLISH.t("ui.tutorial.new_game") in text
    assert c.played().ledger[0].final == 5 and len(c.played().ledger) == 1
    frames(a)
    assert len(c.played().ledger) == 1  # no next round is dealt
    assert label(s.buttons[0]) == ENGLISH.t("ui.tutorial.leave")
    click(a, s.buttons[0].rect.center)  # Leave the lesson
    assert a.stack.names() == ["title", "rules"]
    assert a.storage.ledger.count() == 0 and a.storage.read_autosave() is None


@pytest.mark.parametrize("lang", ["en", "ja", "uk", "ru", "sk"])
def test_tutorial_guide_fits_at_1024x640(tmp_path: Path, lang: str) -> None:
    """At the smallest window, in each of the five languages, every step's guide text
    (with a refusal's reason where one is shown) fits its panel above its button, and the panel
    sits inside the sidebar."""
    args = appmod.parse_args(
        ["--size", "1024x640", "--data-dir", str(tmp_path), "--speed", "off", "--lang", lang]
    )
    a = appmod.App(args)
    a.ai_executor = InlineExecutor()
    a.open_storage()
    a.open_window()
    a.open_sprites()
    assert a.words.language == lang
    try:
        a.stack.push(scenes.create("title", a))
        s = a.stack.push(scenes.create("tutorial", a))
        assert isinstance(s, TableScene) and isinstance(s.guide, LessonGuide)
        c = s.controller
        assert s.lay.sidebar.contains(s.guide.rect)
        for _ in range(40):
            frames(a)
            step = s.guide.lesson.step
            assert s.guide.text_size(s)[1], (lang, step.key)
            for b in s.guide.buttons:
                assert s.guide.rect.contains(b.rect)
            if step.kind == "read":
                s.guide.proceed(s)
            elif step.kind == "play":
                c.say(s.guide.lesson.veto(Action.from_text("play 47")))  # the longest refusal
                assert s.guide.text_size(s)[1], (lang, step.key, "refused")
                c.message = ""
                assert c.apply(s.guide.lesson.expected)
            elif step.kind == "decide":
                prompt = a.stack.top
                assert isinstance(prompt, PromptScene)
                prompt.widgets[0].activate()  # Stop
                frames(a)
                a.stack.pop()  # the round summary
            else:
                break
        assert s.guide.lesson.step.kind == "done" and s.guide.text_size(s)[1]
    finally:
        pygame.display.quit()


def test_lesson_and_scripted_opponent_without_a_window() -> None:
    """The script's logic on its own: the veto, and the opponent's moves."""
    lesson = Lesson()
    assert lesson.veto(Action.from_text("play 9")) == ""  # a read step: the engine decides
    lesson.advance(0)
    assert lesson.expected == Action.from_text("play 9")
    assert lesson.veto(Action.from_text("play 9")) == ""
    assert say(lesson.veto(Action.from_text("play 47")), ENGLISH) == ENGLISH.t(
        "ui.tutorial.wrong_card"
    )
    assert not lesson.follow(0, my_turn_idle=True) and lesson.follow(1, my_turn_idle=False)
    assert lesson.step.kind == "read"
    bot = ScriptedOpponent()
    assert bot.moves == [Action.from_text(x.action) for x in SCRIPT if x.kind == "watch"]


# ----------------------------------------------------------------------------- settings


def _widget(scene: SettingsScene, label_key: str) -> Any:
    text = ENGLISH.t(label_key)
    for _, w in scene.rows:
        if w is not None and callable(getattr(w, "label", None)) and say(w.label, ENGLISH) == text:
            return w
    raise AssertionError(label_key)


def _bring_into_view(a: Any, scene: SettingsScene, widget: Any) -> None:
    scene.frame.focus.index = scene.frame.focus.widgets.index(widget)
    scene.keep_focus_visible()
    draw(a)
    assert scene.viewport().contains(widget.rect)


def test_settings_changes_apply_and_persist(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(scenes.create("settings", a))
    draw(a)
    lang = _widget(s, "ui.settings.language")
    assert isinstance(lang, Choice)
    lang.set_value("en")
    lang.step(1)  # English -> Ukrainian
    assert a.words == Words("uk")  # the app's words: every screen draws in them
    vol = _widget(s, "ui.settings.sound_volume")
    assert isinstance(vol, Slider)
    vol.key(type("I", (), {"kind": "left"})())  # type: ignore[arg-type]
    scale = _widget(s, "ui.settings.ui_scale")
    scale.set_value(1.0)
    scale.step(1)
    assert a.ui_scale == 1.125
    draw(a)
    name = _widget(s, "ui.settings.player_name")
    assert isinstance(name, TextField)
    _bring_into_view(a, s, name)
    click(a, name.rect.center)
    assert name.editing
    for ch in "Kenji":
        key(a, pygame.K_a, ch)
    key(a, pygame.K_BACKSPACE)
    key(a, pygame.K_RETURN)
    birth = _widget(s, "ui.settings.birth_date")
    _bring_into_view(a, s, birth)
    click(a, birth.rect.center)
    for ch in "1990-02-3":  # incomplete: not saved yet
        key(a, pygame.K_0, ch)
    assert a.storage.settings.birth_date is None
    key(a, pygame.K_0, "0")
    preset = _widget(s, "ui.settings.default_preset")
    preset.set_value("nintendo")
    preset.step(1)  # -> seed-000, whose options appear
    assert a.stack.top is s
    opt = next(
        w
        for _, w in s.rows
        if isinstance(w, Choice)
        and say(w.label, ENGLISH).strip() == ENGLISH.t("rule.viewing_value")
    )
    opt.step(1)  # 5 -> 3
    draw(a)
    saved = Storage.open(tmp_path / "data").settings
    assert saved.language == "uk"
    assert saved.sound_volume == 75
    assert saved.ui_scale == 1.125
    assert saved.player_name == "Kenj"
    assert saved.birth_date is None  # 1990-02-30 is not a date: shown in red, not saved
    assert saved.default_preset == "seed-000"
    assert saved.default_options == {"viewing_value": 3}


def test_settings_birth_date_valid_is_saved(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(scenes.create("settings", a))
    draw(a)
    birth = _widget(s, "ui.settings.birth_date")
    birth.editing = True
    for ch in "1990-02-28":
        birth.key(type("I", (), {"kind": "key", "text": ch, "key": 0})())  # type: ignore[arg-type]
    assert str(Storage.open(tmp_path / "data").settings.birth_date) == "1990-02-28"
    s.reset_quiz()
    assert a.storage.settings.quiz_score == 0


def test_settings_scrolls_with_wheel_and_keyboard_at_small_size(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app((1024, 640))
    s = a.stack.push(scenes.create("settings", a))
    draw(a)
    assert s.content_h > s.viewport().h
    a.dispatch(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=s.viewport().center, rel=(0, 0), buttons=(0, 0, 0)
        )
    )
    wheel(a, -3)
    assert s.scroll > 0
    wheel(a, 10)
    assert s.scroll == 0
    rows = [w for _, w in s.rows if w is not None]
    for _ in range(len(rows) - 1):  # from the first row down to the last, far below the fold
        key(a, pygame.K_DOWN)
    w = s.frame.focus.focused
    assert w is rows[-1] and s.viewport().contains(w.rect)


def test_settings_say_so_when_the_display_refuses_full_screen(make_app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The player turns full screen on; the display refuses: the line under the settings says
    so in the player's language (it used to go to a list nothing shows), and the game stays
    in its window."""

    class Refusing:
        def set_fullscreen(self, desktop: bool) -> None:
            raise pygame.error("not supported by this video driver")

    a = make_app((1024, 640))
    a._window = Refusing()
    a.prefs.speak("uk")
    s = a.stack.push(scenes.create("settings", a))
    draw(a)
    row = _widget(s, "ui.settings.fullscreen")
    _bring_into_view(a, s, row)
    key(a, pygame.K_RIGHT)
    assert not a.fullscreen and a.settings.fullscreen is True  # asked for, kept for next time
    assert say(s.message, a.words) == Words("uk").t("ui.settings.fullscreen_refused")
    seen = texts_drawn(lambda: draw(a), monkeypatch)
    assert any("повноекранний" in t for t in seen)
