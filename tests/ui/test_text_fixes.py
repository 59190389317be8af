"""Issue 16's text bugs outside the table, each through the screen a player sees it on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import engine, i18n, scenes
from koikoi_desktop.scenes import table_sidebar, table_text
from koikoi_desktop.scenes.table import MatchConfig, TableScene
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.widgets import Choice

LANGS = list(i18n.LANGUAGES)


@pytest.fixture(autouse=True)
def restore() -> Iterator[None]:
    yield
    gfx.set_language("en")
    i18n.set_name_style("translated")


def make(tmp_path: Path, *argv: str) -> Any:
    args = appmod.parse_args(["--data-dir", str(tmp_path / "data"), *argv])
    a = appmod.App(args)
    appmod.sdl_defaults(args)
    a.open_storage()
    a._set_language()
    a.open_window()
    a.open_sprites()
    a.stack.push(scenes.create("title", a))
    return a


@pytest.mark.parametrize("lang", LANGS)
def test_practice_switch_label_is_never_cut(tmp_path: Path, lang: str) -> None:
    a = make(tmp_path, "--size", "1024x640", "--lang", lang)
    s = a.stack.push(scenes.create("new-game", a))
    a.stack.draw(a.screen)
    practice = next(w for w in s.left if w.label() == gfx.tr("ui.newgame.practice"))
    assert isinstance(practice, Choice)
    fs = theme.font_px(17, s.scale)  # the size NewGameScene.draw gives its widgets
    val = f"‹ {practice.options[practice.index][1]()} ›"
    _, label_room = practice.split(practice.label(), val, fs, 10)
    assert gfx.measure(practice.label(), fs)[0] <= label_room, (lang, practice.label())
    help_text = gfx.tr("ui.newgame.practice_help")
    assert help_text != "ui.newgame.practice_help" and "U" in help_text and "H" in help_text


def test_settings_show_the_language_the_game_speaks(tmp_path: Path) -> None:
    a = make(tmp_path, "--lang", "ja")
    assert a.setting("language") == "en"  # saved: English; running: Japanese (--lang)
    s = a.stack.push(scenes.create("settings", a))
    lang_row = next(
        w
        for _, w in s.rows
        if callable(getattr(w, "label", None)) and w.label() == gfx.tr("ui.settings.language")
    )
    assert lang_row.value == "ja"
    a.stack.draw(a.screen)


def test_one_name_per_yaku_on_every_screen(tmp_path: Path) -> None:
    """The sidebar, the log, the references and the ledger all ask ``i18n`` with the player's
    name style; the sidebar wraps a long name instead of showing another one."""
    a = make(tmp_path, "--size", "1024x640")
    t = TableScene(a, config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), 2))
    for style, want in (
        ("translated", "Boar, Deer and Butterflies"),
        ("romaji", "Ino-Shika-Chō"),
        ("japanese", "猪鹿蝶"),
    ):
        i18n.set_name_style(style)
        assert table_text.yaku_name("inoshikacho") == want
        fs, chip_w, _, pad = table_sidebar._metrics(t.lay)
        width = t.lay.sidebar.w - 2 * pad
        label_w = table_sidebar._label_width([], fs, width, chip_w)
        lines = table_sidebar._label("inoshikacho", fs, label_w - fs // 2 - 14)
        assert "".join(lines).replace(" ", "") == want.replace(" ", "")
    # the settings screen changes it for every screen at once
    s = a.stack.push(scenes.create("settings", a))
    s.set_name_style("romaji")
    assert i18n.get_name_style() == "romaji" and a.setting("name_display") == "romaji"
    assert table_text.yaku_name("kasu") == i18n.yaku_name("kasu", "romaji")


@pytest.mark.parametrize("lang", ["en", "sk", "uk", "ru"])
def test_the_plain_cards_have_one_name(lang: str) -> None:
    """ "Plains" (the yaku) vs "Plain cards" (the pile caption) in English (issue 16)."""
    gfx.set_language(lang)
    assert gfx.tr("kind.plain.plural") == i18n.yaku_name("kasu", "translated")
    assert gfx.tr("kind.animal.plural") == i18n.yaku_name("tane", "translated")


@pytest.mark.parametrize("lang", ["uk", "en", "ja"])
def test_sidebar_headings_show_whole_names_at_the_smallest_size(
    tmp_path: Path, lang: str, monkeypatch: Any
) -> None:
    """ "Computer (Intermedi…" / "Комп'ют…" in the sidebar at 1024x640 (issue 16)."""
    a = make(tmp_path, "--size", "1024x640", "--lang", lang)
    t = TableScene(a, config=MatchConfig(engine.PRESETS["nintendo"], ("human", "expert"), 2))
    a.stack.push(t)
    drawn: list[tuple[str, int | None, int]] = []
    real = gfx.blit_text

    def spy(surface: Any, text: str, size: int, pos: Any, **kw: Any) -> Any:
        drawn.append((text, kw.get("max_width"), size))
        return real(surface, text, size, pos, **kw)

    monkeypatch.setattr(gfx, "blit_text", spy)
    table_sidebar.draw_tracker(pygame.Surface(a.size), t.controller.snapshot(), t.lay, t.view.image)
    for name in t.controller.names:
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
