"""The new-game screen refuses a combination of rules in the player's language (issue 36, h5):
the rules model's refusal is kept as facts (which setting, which bound or conflict) and worded
when drawn, so the line follows a language change and never shows pydantic's English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as appmod
from koikoi_desktop import engine, i18n, scenes
from koikoi_desktop.engine.rules import RulesRefusal, refusal_of
from koikoi_desktop.i18n import Words
from koikoi_desktop.ui import gfx
from koikoi_desktop.ui.widgets import Choice
from koikoi_desktop.words.names import refusal_text, rule_label

#: Words of pydantic's and the engine's English messages that must never reach the screen.
ENGLISH = ("Value error", "cannot both be on", "Input should", "greater than", "RULES.md")


def new_game(tmp_path: Path, lang: str) -> tuple[Any, Any]:
    args = appmod.parse_args(["--data-dir", str(tmp_path / "data"), "--lang", lang])
    a = appmod.App(args)
    appmod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    a.stack.push(scenes.create("title", a))
    return a, a.stack.push(scenes.create("new-game", a))


def drawn_text(a: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every string the screen draws in one frame, joined without spaces (a wrapped line then
    reads as one: compare with :func:`flat`)."""
    seen: list[str] = []
    real = gfx.blit_text

    def spy(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        seen.append(text)
        return real(surface, text, *args, **kw)

    monkeypatch.setattr(gfx, "blit_text", spy)
    try:
        a.stack.draw(a.screen)
    finally:
        monkeypatch.setattr(gfx, "blit_text", real)
    return flat("".join(seen))


def flat(text: str) -> str:
    return text.replace(" ", "")


def click(a: Any, pos: tuple[int, int]) -> None:
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        a.dispatch(pygame.event.Event(kind, button=1, pos=pos))


def test_a_refused_combination_is_told_in_ukrainian_then_in_japanese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nintendo counts set yaku with their extra cards; switching "each card counts for one
    yaku only" on (a click, as a player makes it) is refused (RULES.md A-38): the rules stay,
    and the line under the screen names both settings in Ukrainian — then, after a language
    change, in Japanese — never in English."""
    a, s = new_game(tmp_path, "uk")
    try:
        before = s.rules
        assert before.set_yaku_absorb_extras and not before.one_yaku_per_card
        i = next(i for i, n in enumerate(engine.rules.SETTINGS) if n == "one_yaku_per_card")
        widget = s.rule_widgets[i]
        assert isinstance(widget, Choice)
        s.scroll = i
        s.place_rules()
        assert widget.visible
        click(a, (widget.rect.right - 5, widget.rect.centery))
        assert s.rules == before  # refused: nothing changed
        assert s.refusal == RulesRefusal(
            "exclusive", "one_yaku_per_card", other="set_yaku_absorb_extras"
        )
        shown = drawn_text(a, monkeypatch)
        uk_line = refusal_text(a.words, s.refusal)
        assert flat(uk_line) in shown and uk_line.startswith("Не можна")
        assert rule_label(a.words, "one_yaku_per_card") in uk_line
        assert rule_label(a.words, "set_yaku_absorb_extras") in uk_line
        assert not any(flat(word) in shown for word in ENGLISH), shown
        a.prefs.speak("ja")  # the facts are worded again when drawn
        words = a.words
        shown = drawn_text(a, monkeypatch)
        assert flat(uk_line) not in shown
        assert flat(refusal_text(words, s.refusal)) in shown and "変更できません" in shown
        assert flat(rule_label(words, "one_yaku_per_card")) in shown
        assert not any(flat(word) in shown for word in ENGLISH), shown
        # a change the rules accept clears the line
        s.set_preset("seed-000")
        assert s.refusal is None and "変更できません" not in drawn_text(a, monkeypatch)
    finally:
        a.close_storage()
        pygame.display.quit()


def test_a_bound_is_told_with_its_setting_and_number_in_slovak(tmp_path: Path) -> None:
    """A number out of its range (as a hand-made choice or a future option list could offer)
    is refused with the setting's name and the bound, in Slovak."""
    a, s = new_game(tmp_path, "sk")
    try:
        before = s.rules
        s.set_rule("koikoi_limit", 5000)
        assert s.rules == before
        assert s.refusal == RulesRefusal("at_most", "koikoi_limit", 5000, 1000)
        line = refusal_text(a.words, s.refusal)
        rule = rule_label(a.words, "koikoi_limit")
        assert line == a.words.t("ui.newgame.refused.at_most", rule=rule, n=1000)
        assert line.startswith("Nedá sa") and "1000" in line
    finally:
        a.close_storage()
        pygame.display.quit()


@pytest.mark.parametrize(
    "change, facts",
    [
        ({"rounds": 0}, RulesRefusal("at_least", "rounds", 0, 1)),
        ({"koikoi_limit": 1001}, RulesRefusal("at_most", "koikoi_limit", 1001, 1000)),
        ({"unit": "euro"}, RulesRefusal("not_allowed", "unit", "euro")),
        (
            {"settlement": "transfer_capped", "starting_balance": 0},
            RulesRefusal("capped_needs_balance", "settlement", other="starting_balance"),
        ),
        (
            {"value_hanami": 3, "value_tsukimi": 4},
            RulesRefusal("viewing_values_differ", "value_hanami", other="value_tsukimi"),
        ),
    ],
)
def test_every_refusal_of_the_rules_model_is_a_fact_worded_in_five_languages(
    change: dict[str, object], facts: RulesRefusal
) -> None:
    base = engine.PRESETS["nintendo"].model_dump()
    with pytest.raises(ValueError) as caught:
        engine.Rules.model_validate({**base, **change})
    assert refusal_of(caught.value) == facts
    lines = set()
    for code in i18n.LANGUAGES:
        words = Words(code)
        line = refusal_text(words, facts)
        assert "{" not in line and "ui.newgame" not in line, (code, line)
        assert rule_label(words, facts.setting) in line
        if facts.bound is not None:
            assert str(facts.bound) in line
        lines.add(line)
    assert len(lines) == len(i18n.LANGUAGES)
