"""Issue 16's text bugs outside the table, each through the screen a player sees it on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import engine, i18n, scenes
from koikoi_desktop.i18n import Words, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table import sidebar as table_sidebar
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.widgets import Choice

LANGS = list(i18n.LANGUAGES)


def make(tmp_path: Path, *argv: str) -> Any:
    args = appmod.parse_args(["--data-dir", str(tmp_path / "data"), *argv])
    a = appmod.App(args)
    appmod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.stack.push(scenes.create("title", a))
    return a


@pytest.mark.parametrize("lang", LANGS)
def test_practice_switch_label_is_never_cut(tmp_path: Path, lang: str) -> None:
    a = make(tmp_path, "--size", "1024x640", "--lang", lang)
    s = a.stack.push(scenes.create("new-game", a))
    a.stack.draw(a.screen)
    practice = next(w for w in s.left if say(w.label, a.words) == a.words.t("ui.newgame.practice"))
    assert isinstance(practice, Choice)
    fs = theme.font_px(17, s.scale)  # the size NewGameScene.draw gives its widgets
    val = f"‹ {say(practice.options[practice.index][1], a.words)} ›"
    _, label_room = practice.split(say(practice.label, a.words), val, fs, 10)
    assert gfx.measure(say(practice.label, a.words), fs)[0] <= label_room, (
        lang,
        say(practice.label, a.words),
    )
    help_text = a.words.t("ui.newgame.practice_help")
    assert help_text != "ui.newgame.practice_help" and "U" in help_text and "H" in help_text


def test_settings_show_the_language_the_game_speaks(tmp_path: Path) -> None:
    a = make(tmp_path, "--lang", "ja")
    assert a.settings.language == "en"  # saved: English; running: Japanese (--lang)
    s = a.stack.push(scenes.create("settings", a))
    lang_row = next(
        w
        for _, w in s.rows
        if callable(getattr(w, "label", None))
        and say(w.label, a.words) == a.words.t("ui.settings.language")
    )
    assert lang_row.value == "ja"
    a.stack.draw(a.screen)


def test_one_name_per_yaku_on_every_screen(tmp_path: Path) -> None:
    """The sidebar, the log, the references and the ledger all ask ``i18n`` with the player's
    name style; the sidebar wraps a long name instead of showing another one."""
    a = make(tmp_path, "--size", "1024x640")
    t = TableScene(
        a, screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), 2))
    )
    for style, want in (
        ("translated", "Boar, Deer and Butterflies"),
        ("romaji", "Ino-Shika-Chō"),
        ("japanese", "猪鹿蝶"),
    ):
        a.prefs.apply(a.settings.model_copy(update={"name_display": style}))
        words = a.words
        assert words.yaku_name("inoshikacho") == want
        fs, chip_w, _, pad = table_sidebar._metrics(t.lay)
        width = t.lay.sidebar.w - 2 * pad
        label_w = table_sidebar._label_width(words, [], fs, width, chip_w)
        lines = table_sidebar._label(words, "inoshikacho", fs, label_w - fs // 2 - 14)
        assert "".join(lines).replace(" ", "") == want.replace(" ", "")
    # the settings screen changes it for every screen at once
    s = a.stack.push(scenes.create("settings", a))
    s.set_name_style("translated")
    s.set_name_style("romaji")
    assert a.words.name_style == "romaji" and a.settings.name_display == "romaji"
    assert a.words.yaku_name("kasu") == a.words.yaku_name("kasu", "romaji")


@pytest.mark.parametrize("lang", ["en", "sk", "uk", "ru"])
def test_the_plain_cards_have_one_name(lang: str) -> None:
    """ "Plains" (the yaku) vs "Plain cards" (the pile caption) in English (issue 16)."""
    words = Words(lang)
    assert words.t("kind.plain.plural") == words.yaku_name("kasu", "translated")
    assert words.t("kind.animal.plural") == words.yaku_name("tane", "translated")


@pytest.mark.parametrize("lang", ["uk", "en", "ja"])
def test_sidebar_headings_show_whole_names_at_the_smallest_size(
    tmp_path: Path, lang: str, monkeypatch: Any
) -> None:
    """ "Computer (Intermedi…" / "Комп'ют…" in the sidebar at 1024x640 (issue 16)."""
    a = make(tmp_path, "--size", "1024x640", "--lang", lang)
    t = TableScene(
        a, screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], ("human", "expert"), 2))
    )
    a.stack.push(t)
    drawn: list[tuple[str, int | None, int]] = []
    real = gfx.blit_text

    def spy(surface: Any, text: str, size: int, pos: Any, **kw: Any) -> Any:
        drawn.append((text, kw.get("max_width"), size))
        return real(surface, text, size, pos, **kw)

    monkeypatch.setattr(gfx, "blit_text", spy)
    table_sidebar.draw_tracker(
        pygame.Surface(a.size), t.controller.snapshot(a.words), t.lay, t.view.image
    )
    for name in t.controller.names(a.words):
        hits = [(mw, size) for text, mw, size in drawn if text == name]
        assert hits, name
        for mw, size in hits:
            assert mw is None or gfx.measure(name, size, bold=True)[0] <= mw, (lang, name)


def test_credits_tell_where_the_notices_are_in_words() -> None:
    from koikoi_desktop.scenes.about import CreditsScene, notices_folder

    from ..packaging.test_about import make_app

    scene = CreditsScene(make_app())
    text = " ".join(" ".join([t, *ps]) for t, ps in scene.sections())
    folder = notices_folder()
    assert folder is not None and str(folder) not in text
    assert "THIRD_PARTY_NOTICES.md" in text


def test_new_game_left_side_follows_the_full_list(tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 34 item 8: Rounds set to 3 in the full list shows on the left ("3 rounds"), and
    the description says what changed from the preset instead of the preset's own text; the
    Nintendo preset's one match length shows no arrows; a length chosen on the left keeps the
    other changes made in the list."""
    from koikoi_desktop.words.names import rule_label

    a = make(tmp_path, "--size", "1024x640")
    s = a.stack.push(scenes.create("new-game", a))
    assert s.preset == "nintendo" and [v for v, _ in s.length.options] == [12]
    drawn: list[str] = []
    real = gfx.blit_text

    def spy(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        drawn.append(text)
        return real(surface, text, *args, **kw)

    monkeypatch.setattr(gfx, "blit_text", spy)
    a.stack.draw(a.screen)
    assert a.words.t("ui.newgame.rounds", n=12) in drawn  # one choice: no arrows
    assert f"‹ {a.words.t('ui.newgame.rounds', n=12)} ›" not in drawn
    assert a.words.t("preset.nintendo.desc") in " ".join(drawn)
    rounds = next(
        w for w in s.rule_widgets if say(w.label, a.words) == rule_label(a.words, "rounds")
    )
    while rounds.value != 3:
        rounds.step(1)
    assert s.rules.rounds == 3 and s.length.value == 3
    drawn.clear()
    a.stack.draw(a.screen)
    assert f"‹ {a.words.t('ui.newgame.rounds', n=3)} ›" in drawn
    text = " ".join(drawn)
    assert a.words.t("preset.nintendo.desc") not in text
    assert "Custom rules: Nintendo (standard) with these changes" in s.description()
    assert "Rounds: 3 (instead of 12)" in s.description()
    assert s.description().split(" — ")[0] in text
    # back to 12 on the left: another change made in the list stays
    final_tie = next(
        w for w in s.rule_widgets if say(w.label, a.words) == rule_label(a.words, "final_tie")
    )
    final_tie.step(1)
    tie = s.rules.final_tie
    assert tie != engine.PRESETS["nintendo"].final_tie
    s.length.step(-1)
    assert s.rules.rounds == 12 and s.rules.final_tie == tie
    assert "Rounds" not in s.description() and rule_label(a.words, "final_tie") in s.description()


@pytest.mark.parametrize("lang", LANGS)
def test_a_stop_reason_says_plainly_what_a_koikoi_would_bring(lang: str) -> None:
    """Issue 34 item 7: "a koi-koi would be worth about -2.9" said plainly: what it would lose
    (or win) on average, never a signed number."""
    from koikoi_desktop.ai.base import stop_sure
    from koikoi_desktop.words.reasons import reason_text

    words = Words(lang)
    loss = reason_text(words, stop_sure(5, -2.9))
    win = reason_text(words, stop_sure(5, 3.0))
    for text in (loss, win):
        assert "-2.9" not in text and "+" not in text and "{" not in text, text
    assert "2.9" in loss and "3.0" in win and loss != win
    if lang == "en":
        assert loss == "stops: 5 points now; a koi-koi would lose about 2.9 on average"


def test_the_ledger_is_not_called_a_coin_ledger(tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 34 item 7: Nintendo matches count points, so the ledger's title (and every message
    about it) names matches, not coins."""
    import json

    en = json.loads((Path(i18n.__file__).parent / "en.json").read_text(encoding="utf-8"))
    flat = [v for v in en.values() if isinstance(v, str)]
    flat += [x for v in en.values() if isinstance(v, dict) for x in v.values()]
    assert not [v for v in flat if "coin ledger" in v.lower()]
    a = make(tmp_path)
    drawn: list[str] = []
    real = gfx.blit_text

    def spy(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        drawn.append(text)
        return real(surface, text, *args, **kw)

    monkeypatch.setattr(gfx, "blit_text", spy)
    a.stack.push(scenes.create("ledger", a))
    a.stack.draw(a.screen)
    assert "Match ledger" in drawn


def test_how_to_play_draws_the_geese_from_the_pile_as_its_caption_says(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Issue 34 item 7: the turn picture's caption says the geese are drawn; they lie on the
    pile beside the field row, not in the hand row."""
    from koikoi_desktop.scenes import rules_screen

    a = make(tmp_path)
    seen: list[tuple[int, pygame.Rect]] = []
    real = rules_screen.draw_card

    def spy(surface: Any, app: Any, cid: int, rect: pygame.Rect, **kw: Any) -> None:
        seen.append((cid, pygame.Rect(rect)))
        real(surface, app, cid, rect, **kw)

    monkeypatch.setattr(rules_screen, "draw_card", spy)
    a.stack.push(a.router.build(screens.Rules(page="turn")))
    a.stack.draw(a.screen)
    at = {cid: r for cid, r in seen}
    hand_row = {cid for cid, r in seen if r.y == at[5].y}
    field_row = {cid for cid, r in seen if r.y == at[31].y}
    assert 30 not in hand_row and {7, 22, 31, 30} <= field_row
    assert at[30].x > max(at[c].right for c in (7, 22, 31))  # on the pile, right of the field
    assert "geese" in a.words.t("ui.rules.pic.turn_caption").lower()
