"""The learning screens: month and yaku reference, rules, guided round, settings (headless)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import i18n, scenes
from koikoi_desktop.engine import DECK, PRESETS, Rules, match_record
from koikoi_desktop.scenes import yaku_facts
from koikoi_desktop.scenes.base import Scene
from koikoi_desktop.scenes.month_reference import MonthReferenceScene
from koikoi_desktop.scenes.rules_screen import PAGES, AboutScene, RulesScene
from koikoi_desktop.scenes.settings_screen import SettingsScene, TextField
from koikoi_desktop.scenes.tutorial import SCRIPT, TutorialScene
from koikoi_desktop.scenes.yaku_reference import YakuReferenceScene
from koikoi_desktop.storage import Storage
from koikoi_desktop.ui import gfx
from koikoi_desktop.ui.widgets import Choice, Slider

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
    gfx.set_language("en")


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


def test_registry_points_at_the_learning_scenes() -> None:
    assert scenes.scene_class("month-reference") is MonthReferenceScene
    assert scenes.scene_class("yaku-reference") is YakuReferenceScene
    assert scenes.scene_class("rules") is RulesScene
    assert scenes.scene_class("about") is AboutScene
    assert scenes.scene_class("tutorial") is TutorialScene
    assert scenes.scene_class("settings") is SettingsScene


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
    seen: list[str] = []
    real = gfx.text

    def spy(text_: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        seen.append(text_)
        return real(text_, *args, **kwargs)

    monkeypatch.setattr(gfx, "text", spy)
    for lang in ("ja", "uk"):
        gfx.set_language(lang)
        script = SCRIPTS[lang]
        for page in PAGES:
            s = a.stack.push(scenes.create("rules", a, page=page))
            seen.clear()
            body = pygame.image.tobytes(draw(a).subsurface(s.body()), "RGB")
            shown = list(seen)
            assert gfx.tr(f"ui.rules.page.{page}") in shown, (lang, page)
            assert s.heading() in shown, (lang, page)
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
    s = a.stack.push(scenes.create("month-reference", a, card=33))
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
    s = a.stack.push(scenes.create("month-reference", a, rules=PRESETS["seed-000"]))
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
    s = a.stack.push(scenes.create("month-reference", a, month=3, card=9))
    assert s.rules is table.rules
    draw(a)
    key(a, pygame.K_ESCAPE)
    assert a.stack.top is table and log == ["pause", "resume"]


def test_month_reference_over_a_real_table_leaves_the_match_untouched(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    table = a.stack.push(scenes.create("table", a, seed=3, preset="seed-003"))
    for _ in range(20):
        a.stack.update(1 / 60)
        draw(a)
    before = match_record(table.match)
    below = a.stack.top  # the table, or the first dealer's prompt over it
    assert below is table or below.table is table
    s = a.stack.push(scenes.create("month-reference", a, month=2, card=5))  # as a right-click
    assert (s.month, s.card, s.rules.based_on) == (2, 5, "seed-003")
    for k in (pygame.K_DOWN, pygame.K_q, pygame.K_ESCAPE, pygame.K_y):
        key(a, k)
        draw(a)
    for _ in range(10):
        if a.stack.top is below:
            break
        key(a, pygame.K_ESCAPE)
    assert a.stack.top is below
    assert match_record(table.match) == before


def test_quiz_updates_and_saves_score_and_streak(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(scenes.create("quiz", a, seed=5))
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
    s = a.stack.push(scenes.create("quiz", a, seed=2))
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
    ref = a.stack.push(scenes.create("month-reference", a, month=1))
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
    s = a.stack.push(scenes.create("yaku-reference", a, rules=PRESETS["nintendo"]))
    draw(a)
    assert s.value_of("goko") == 10
    while s.rules.based_on != "seed-003":
        key(a, pygame.K_RIGHT)
        draw(a)
    assert s.value_of("goko") == 15 and s.value_of("hanami") == 3
    assert not yaku_facts.exists("akaao", s.rules)
    three = Rules.model_validate({**PRESETS["seed-000"].model_dump(), "viewing_value": 3})
    s2 = a.stack.push(scenes.create("yaku-reference", a, rules=three, yaku="hanami"))
    draw(a)
    assert s2.value_of("hanami") == 3 and s2.value_of("tsukimi") == 3
    assert [c for c, _ in s2.choices()][-1] == i18n.t(
        "preset.custom", preset=i18n.t("preset.seed-000.name")
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


def test_tutorial_lights_the_cards_the_engine_allows(make_app) -> None:  # type: ignore[no-untyped-def]
    """Every card the guide lights is a legal move's card or a field card a legal move of the
    chosen card takes (``RoundState.captures``), never a month guessed by the scene."""
    a = make_app()
    s = a.stack.push(scenes.create("tutorial", a))
    draw(a)
    chose = 0
    for _ in range(200):
        if s.step_name == "done":
            break
        want, target = s.expected_card()
        if not want:
            key(a, pygame.K_RETURN)
            draw(a)
            continue
        legal = s.state.legal_actions()
        assert s.lit() == {want} and any(x.card == want for x in legal)
        s.click_card(want)
        if s.chosen:
            takes = {c for x in legal if x.card == want for c in s.state.captures(x)}
            assert s.lit() == takes and target in takes and len(takes) == 2
            chose += 1
            s.click_card(target)
        draw(a)
    assert s.step_name == "done" and chose >= 1


def test_tutorial_plays_the_scripted_round_through_the_engine(make_app) -> None:  # type: ignore[no-untyped-def]
    a = make_app()
    s = a.stack.push(scenes.create("tutorial", a))
    draw(a)
    key(a, pygame.K_RETURN)  # intro -> the first move
    assert s.step_name == "p1"
    hand_before = set(s.state.hand(0))
    s.click_card(47)  # not the suggested card: explained, not played
    assert s.message and set(s.state.hand(0)) == hand_before
    s.click_card(9)
    assert 9 in s.state.captured(0) and s.step_name == "after_p1"
    while s.step_name != "p2":
        key(a, pygame.K_RETURN)
        draw(a)
    s.click_card(2)
    assert s.chosen == 2
    s.click_card(3)  # the plain pine: the guide asks for the crane
    assert 3 in s.state.field
    s.click_card(1)
    assert 1 in s.state.captured(0)
    while s.step_name != "done":
        key(a, pygame.K_RETURN)
        draw(a)
    out = s.state.outcome
    assert out is not None and out.winner == 0 and out.final == 5
    assert [y.key for y in out.yaku] == ["hanami"]
    assert len(SCRIPT) == s.step + 1


def test_tutorial_takes_a_drag_as_the_game_does(make_app) -> None:  # type: ignore[no-untyped-def]
    """The guide says "drag" (issue 16): pressing the ribbon and letting go over the crane takes
    the crane, with real mouse events."""
    a = make_app()
    s = a.stack.push(scenes.create("tutorial", a))
    draw(a)
    key(a, pygame.K_RETURN)
    s.click_card(9)
    while s.step_name != "p2":
        key(a, pygame.K_RETURN)
        draw(a)
    assert "drag" in gfx.tr("ui.tutorial.p2_choose").lower()
    assert "drag" in gfx.tr("ui.tutorial.p1").lower()
    draw(a)
    ribbon = dict((c, r) for r, c in s.hand_rects)[2]
    crane = dict((c, r) for r, c in s.field_rects)[1]

    def mouse(kind: int, pos: tuple[int, int], **kw: Any) -> None:
        a.dispatch(pygame.event.Event(kind, pos=pos, **kw))

    mouse(pygame.MOUSEMOTION, ribbon.center, rel=(0, 0), buttons=(0, 0, 0))
    mouse(pygame.MOUSEBUTTONDOWN, ribbon.center, button=1)
    assert s.chosen == 2
    mouse(pygame.MOUSEMOTION, crane.center, rel=(0, 0), buttons=(1, 0, 0))
    mouse(pygame.MOUSEBUTTONUP, crane.center, button=1)
    assert {1, 2} <= set(s.state.captured(0))


# ----------------------------------------------------------------------------- settings


def _widget(scene: SettingsScene, label_key: str) -> Any:
    text = gfx.tr(label_key)
    for _, w in scene.rows:
        if w is not None and callable(getattr(w, "label", None)) and w.label() == text:
            return w
    raise AssertionError(label_key)


def _bring_into_view(a: Any, scene: SettingsScene, widget: Any) -> None:
    scene.focus.index = scene.focus.widgets.index(widget)
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
    assert i18n.get_language() == "uk"
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
        if isinstance(w, Choice) and w.label().strip() == gfx.tr("rule.viewing_value")
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
    for _ in range(18):
        key(a, pygame.K_DOWN)
    w = s.focus.focused
    assert w is not None and s.viewport().contains(w.rect)
