"""The tracker tells the truth: its ticks are the engine's scoring of the captured cards under the
rules in play (issue 16: Moon + Phoenix + Rain Man ticked "Three Brights" under Nintendo rules,
where the Rain Man cannot make it, while the header said "Yaku: 0")."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_desktop import engine
from koikoi_desktop.engine.cards import mask_of
from koikoi_desktop.engine.rules import Rules
from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table import sidebar as table_sidebar
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.ui import tracker

MOON, PHOENIX, RAIN_MAN, CRANE, CURTAIN = 29, 45, 41, 1, 9
NINTENDO = engine.PRESETS["nintendo"]
RAIN_SANKO = Rules.model_validate({**NINTENDO.model_dump(), "sanko_allows_rain_man": True})


def table_with_pile(ui_app: Any, rules: Rules, pile: set[int]) -> TableScene:
    """A real table (human vs computer) whose viewer has captured ``pile``."""
    t = TableScene(ui_app, screens.Table(config=MatchConfig(rules, ("human", "beginner"), seed=3)))
    ui_app.stack.push(t)
    t.match.round.caps[t.controller.viewer] = mask_of(pile)
    return t


def drawn_rows(t: TableScene, monkeypatch: Any) -> dict[str, bool]:
    """Draw the table and return what the sidebar ticked for the viewer: yaku key -> ticked."""
    seen: list[tuple[int, str, bool]] = []
    real = table_sidebar._tracker_row

    def spy(
        words: Any, surface: Any, lay: Any, image: Any, row: Any, mine: set[int], *rest: Any
    ) -> int:
        seen.append((len(mine), row.key, row.done))
        return real(words, surface, lay, image, row, mine, *rest)

    monkeypatch.setattr(table_sidebar, "_tracker_row", spy)
    t.draw(pygame.display.get_surface())
    mine = len(t.match.round.captured(t.controller.viewer))
    return {key: done for n, key, done in seen if n == mine}


def test_rain_man_does_not_tick_three_brights_under_nintendo(ui_app: Any, monkeypatch: Any) -> None:
    t = table_with_pile(ui_app, NINTENDO, {MOON, PHOENIX, RAIN_MAN})
    ticks = drawn_rows(t, monkeypatch)
    assert t.match.round.base(t.controller.viewer) == 0  # the header's "Yaku: 0"
    assert ticks["sanko"] is False
    assert not any(ticks.values())


def test_rain_man_ticks_three_brights_where_the_rules_allow_it(
    ui_app: Any, monkeypatch: Any
) -> None:
    t = table_with_pile(ui_app, RAIN_SANKO, {MOON, PHOENIX, RAIN_MAN})
    ticks = drawn_rows(t, monkeypatch)
    assert t.match.round.base(t.controller.viewer) == RAIN_SANKO.value_sanko
    assert ticks["sanko"] is True


def test_three_plain_brights_tick_and_four_with_the_rain_man_name_their_yaku(
    ui_app: Any, monkeypatch: Any
) -> None:
    t = table_with_pile(ui_app, NINTENDO, {MOON, PHOENIX, CRANE})
    assert drawn_rows(t, monkeypatch)["sanko"] is True
    t.match.round.caps[t.controller.viewer] = mask_of({MOON, PHOENIX, CRANE, RAIN_MAN})
    ticks = drawn_rows(t, monkeypatch)
    assert ticks.get("ame_shiko") is True and "sanko" not in ticks


def test_the_header_and_the_ticks_agree_on_a_viewing_yaku(ui_app: Any, monkeypatch: Any) -> None:
    t = table_with_pile(ui_app, NINTENDO, {CURTAIN, 33})
    ticks = drawn_rows(t, monkeypatch)
    assert ticks["hanami"] is True and t.match.round.base(t.controller.viewer) > 0


PILES = st.sets(st.integers(min_value=1, max_value=48), max_size=24)


@settings(max_examples=300, deadline=None)
@given(pile=PILES, preset=st.sampled_from(sorted(engine.PRESETS)))
def test_every_tick_is_a_yaku_the_engine_scores(pile: set[int], preset: str) -> None:
    """Property: a ticked row's yaku — or one that absorbed it — is in the engine's score, and
    every light, viewing and set yaku the engine scores is ticked."""
    rules = engine.PRESETS[preset]
    score = engine.score_yaku(pile, rules)
    keys = set(score.keys())
    rows = tracker.rows(pile, set(), rules)
    for row in rows:
        if row.done:
            assert row.key in keys or keys & {"akaao", "akatan", "aotan", "inoshikacho"}, (
                row.key,
                keys,
            )
    shown = {r.key for r in rows if r.done}
    for key in keys - {"akaao", "trio"}:
        assert key in shown, (key, keys, shown)


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_nothing_is_ticked_for_an_empty_pile(preset: str) -> None:
    assert not any(r.done for r in tracker.rows(set(), set(), engine.PRESETS[preset]))


def test_the_brights_caption_counts_only_what_three_brights_takes() -> None:
    """Issue 34 item 7: the Rain Man alone is not "Three Brights 1/3", and Moon, Phoenix and
    the Rain Man (Yaku: 0) are 2/3, not 3/3 — unless the rules let the Rain Man count."""
    from koikoi_desktop.scenes.table.view import group_progress

    sanko = ENGLISH.yaku_name("sanko")
    assert "bright" not in group_progress(ENGLISH, {RAIN_MAN}, set(), NINTENDO)
    assert group_progress(ENGLISH, {MOON, PHOENIX, RAIN_MAN}, set(), NINTENDO)["bright"] == (
        f"{sanko} 2/3",
        False,
    )
    light = next(r for r in tracker.rows({MOON, PHOENIX, RAIN_MAN}, set(), NINTENDO))
    assert (light.key, light.held, light.need, light.done) == ("sanko", 2, 3, False)
    assert group_progress(ENGLISH, {RAIN_MAN}, set(), RAIN_SANKO)["bright"] == (
        f"{sanko} 1/3",
        False,
    )


SAKE_CUP = 33


def test_the_brights_caption_speaks_of_the_brights_pile_only() -> None:
    """Issue 43, found 7: the Brights pile holding only the Phoenix was captioned "Flower
    Viewing 1/2" (the sake cup sat in the Animals pile): a caption names a yaku the pile
    itself holds a card of."""
    from koikoi_desktop.scenes.table.view import group_near

    near = group_near({PHOENIX, SAKE_CUP}, set(), NINTENDO)
    assert near["bright"].key == "sanko"
    assert near["animal"].key in ("hanami", "tsukimi")  # the cup begins a viewing yaku there
    assert "bright" not in group_near({SAKE_CUP}, set(), NINTENDO)


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_the_plains_caption_and_the_tracker_count_the_sake_cup_alike(preset: str) -> None:
    """Issue 43, found 7: the tracker said "Plains 12/10" while the pile said "Plains 11" (the
    sake cup a plain for the scoring, not for the caption): both ask the engine's scoring."""
    rules = engine.PRESETS[preset]
    plains = [c.id for c in engine.DECK if c.kind == "plain"][:11]
    pile = {*plains, SAKE_CUP}
    rows = {r.key: r for r in tracker.rows(pile, set(), rules)}
    counts = tracker.group_counts(pile, set(), rules)
    score = engine.yaku.score_yaku(pile, rules)
    kasu = next(y for y in score.yaku if y.key == "kasu")
    assert rows["kasu"].held == counts["plain"] == len(set(kasu.cards) & pile)
    assert counts["plain"] == (12 if rules.sake_cup_is_plain else 11)
