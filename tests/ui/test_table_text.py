"""The table's words in every language: illegal-move reasons, the computer's reasons and the
stop / koi-koi calls come from the catalogs, with card and yaku names filled in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from koikoi_desktop import engine, i18n
from koikoi_desktop.ai import Reason, ReasonKey, decide, make_opponent
from koikoi_desktop.i18n import ENGLISH, Words, say
from koikoi_desktop.scenes.table import text as table_text
from koikoi_desktop.ui import gfx
from koikoi_desktop.words.reasons import reason_text

from .test_table import center, drag, find_seed

LANGS = ("en", "uk", "ru", "sk", "ja")
ENGINE_KEYS = [
    "round_over",
    "exchange_first",
    "declare_first",
    "koikoi_needs_cards",
    "koikoi_limit",
    "choose_stop_or_koikoi",
    "choose_draw_target",
    "nothing_to_decide",
    "cannot_declare",
    "exchange_only_at_deal",
    "play_first",
    "not_in_hand",
    "must_capture",
    "no_match_play",
    "choose_target",
    "play_not_possible",
    "not_on_field",
    "not_same_month",
    "single_match",
    "not_a_move",
    "no_such_card",
    "discard_takes_nothing",
    "match_over",
    "cannot_end_now",
]
ENGINE_SRC = Path(engine.__file__).parent


def _engine_keys() -> set[str]:
    """The reason keys the engine raises IllegalAction with: every ``IllegalReason`` member the
    engine's source names (read with ``ast``), so a key added there must reach the catalogs."""
    import ast

    names = set()
    for path in ENGINE_SRC.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("Why", "IllegalReason")
                and node.attr.isupper()
            ):
                names.add(node.attr)
    return {engine.IllegalReason[n].value for n in names}


def test_every_engine_reason_key_is_in_the_catalogs() -> None:
    used = _engine_keys()
    assert len(used) >= 20 and used <= set(ENGINE_KEYS)
    for code in LANGS:
        cat = i18n.catalog(code)
        for key in ENGINE_KEYS:
            text = cat[f"engine.illegal.{key}"]
            out = text.format(card="A", target="B", options="C, D", number=49)
            assert "{" not in out and out.strip()


def test_illegal_drop_says_why_in_ukrainian_with_card_names(ui_app: Any, pump_fn: Any) -> None:
    t, card, other = find_seed(ui_app, pump_fn, "wrong")
    ui_app.prefs.speak("uk")
    words = ui_app.words
    drag(t, card, center(t, other))
    want = words.t(
        "engine.illegal.not_same_month", card=words.card_name(card), target=words.card_name(other)
    )
    assert say(t.controller.message, words) == want and "«" in want


def test_illegal_text_comes_from_the_key_not_the_english_sentence() -> None:
    why = engine.IllegalReason.NOT_IN_HAND
    exc = engine.IllegalAction("Card 29 is not in your hand.", why, card=29)
    assert table_text.illegal_text(ENGLISH, exc) == f"{ENGLISH.card_name(29)} is not in your hand."
    with pytest.raises(TypeError):
        engine.IllegalAction("A reason without a key.")  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        engine.IllegalAction("x", "no_such_reason")  # type: ignore[arg-type]
    with pytest.raises(engine.IllegalAction) as info:
        engine.Action.from_text("play 49")
    assert info.value.key == "no_such_card" and info.value.params == {"number": 49}
    keyed = engine.IllegalAction("x", engine.IllegalReason.CHOOSE_TARGET, card=3, options=(1, 2))
    words = Words("ja")
    text = table_text.illegal_text(words, keyed)
    assert words.card_name(3) in text and words.card_name(1) in text and words.card_name(2) in text


def test_computer_reason_rendered_in_the_current_language() -> None:
    st = engine.new_round(engine.PRESETS["nintendo"], dealer=0, rng=__import__("random").Random(3))
    view = st.view(st.to_move)
    opp = make_opponent("intermediate", seed=1)
    _, why = decide(opp, view, None)  # a lone round: no match around it
    assert why == Reason(ReasonKey.TAKES, {"card": 12, "hand": 10})
    for code in LANGS:
        words = Words(code)
        text = reason_text(words, why)
        names = {"card": words.card_name(12), "hand": words.card_name(10)}
        assert text == words.t("ai.reason.takes", **names)
        assert names["card"] in text and names["hand"] in text and "{" not in text


@pytest.mark.parametrize(
    "preset, lang, stop, koi",
    [
        ("seed-000", "en", "Agari", "Koi-koi"),
        ("seed-000", "uk", "Агарі", "Кой-кой"),
        ("seed-003", "ja", "勝負", "こい"),
        ("nintendo", "ru", "Стоп", "Кой-Кой"),
        ("seed-001", "en", "Stop", "Koi-koi"),
    ],
)
def test_stop_and_koi_words_follow_the_language(
    preset: str, lang: str, stop: str, koi: str
) -> None:
    words = Words(lang)
    rules = engine.PRESETS[preset]
    assert table_text.stop_word(words, rules) == stop
    assert table_text.koi_word(words, rules) == koi
    custom = rules.model_copy(update={"koikoi_limit": 3})  # custom: the rulebook's words stay
    assert (table_text.stop_word(words, custom), table_text.koi_word(words, custom)) == (stop, koi)


def test_the_call_words_are_the_uis_and_old_records_that_carry_them_still_read() -> None:
    """The engine keeps ids (the preset a rule set is based on), not words for people; a record
    written when the rules carried ``stop_word`` / ``koi_word`` still replays."""
    assert not {"stop_word", "koi_word"} & set(engine.Rules.model_fields)
    old = {**engine.PRESETS["seed-000"].model_dump(), "stop_word": "Agari", "koi_word": "Koi-koi"}
    assert engine.Rules.model_validate(old) == engine.PRESETS["seed-000"]


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800), (1920, 1080)])
@pytest.mark.parametrize("lang", LANGS)
def test_tracker_names_fit_without_an_ellipsis(ui_app: Any, size: Any, lang: str) -> None:
    """Each yaku row shows its whole name — the same name as every other screen, in at most two
    lines — never a cut one nor another name (issue 16: "Ino-Shika-Chō" in the sidebar and
    "Boar, Deer and Butterflies" elsewhere)."""
    from koikoi_desktop.scenes import screens
    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.scenes.table import sidebar as table_sidebar
    from koikoi_desktop.scenes.table.scene import TableScene
    from koikoi_desktop.ui import tracker

    ui_app.prefs.speak(lang)
    words = ui_app.words
    ui_app.on_resize(size)
    t = TableScene(
        ui_app,
        screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), 1)),
    )
    fs, chip_w, _, pad = table_sidebar._metrics(t.lay)
    width = t.lay.sidebar.w - 2 * pad
    rows = tracker.rows(set(), set(), t.controller.rules)
    label_w = table_sidebar._label_width(words, rows, fs, width, chip_w)
    assert width - label_w >= 5 * (chip_w + table_sidebar.CHIP_GAP)  # five bright chips fit
    m = fs // 2
    for row in rows:
        lines = table_sidebar._label(words, row.key, fs, label_w - m - 14)
        assert 1 <= len(lines) <= 2
        for line in lines:
            assert gfx.measure(line, fs)[0] <= label_w - m - 14, (lang, size, line)
        assert " ".join(lines) == words.yaku_name(row.key).replace("\n", " ")
