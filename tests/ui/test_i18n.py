"""The five catalogs are complete, consistent, and every string renders with the shipped fonts."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pygame
import pytest

from koikoi_desktop import i18n, text

CATALOG_DIR = Path(i18n.__file__).resolve().parent
CODES = list(i18n.LANGUAGES)


def load(code: str) -> dict[str, str | dict[str, str]]:
    return json.loads((CATALOG_DIR / f"{code}.json").read_text(encoding="utf-8"))


def texts(value: str | dict[str, str]) -> list[str]:
    """The strings of an entry: itself, or each plural form (not the "count" selector)."""
    if isinstance(value, str):
        return [value]
    return [v for k, v in value.items() if k != "count"]


def placeholders(value: str | dict[str, str]) -> list[str]:
    """The placeholders of an entry; every plural form must use the same ones."""
    found = [
        sorted({name for _, name, _, _ in string.Formatter().parse(s) if name is not None})
        for s in texts(value)
    ]
    assert all(f == found[0] for f in found), f"plural forms differ in placeholders: {value}"
    return found[0]


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()
    yield
    text.clear_caches()


def test_the_five_languages_have_catalog_files():
    assert CODES == ["en", "uk", "ru", "sk", "ja"]
    assert sorted(p.stem for p in CATALOG_DIR.glob("*.json")) == sorted(CODES)


@pytest.mark.parametrize("code", CODES)
def test_catalog_is_flat_object_of_nonempty_strings_or_plural_forms(code):
    data = load(code)
    assert data, code
    bad = [
        k
        for k, v in data.items()
        if not (isinstance(v, str) or (isinstance(v, dict) and "other" in v))
        or not all(isinstance(t, str) and t.strip() for t in texts(v))
    ]
    assert not bad, f"{code}: empty values or malformed plural forms: {bad[:10]}"
    assert i18n.catalog(code)  # and the module reads it


@pytest.mark.parametrize("code", CODES[1:])
def test_same_keys_as_english(code):
    en, other = set(load("en")), set(load(code))
    assert not en - other, f"{code}.json lacks {sorted(en - other)}"
    assert not other - en, f"{code}.json has keys missing from en.json: {sorted(other - en)}"


@pytest.mark.parametrize("code", CODES[1:])
def test_format_placeholders_match_english(code):
    en, other = load("en"), load(code)
    wrong = {
        k: (placeholders(en[k]), placeholders(other[k]))
        for k in en
        if k in other and placeholders(en[k]) != placeholders(other[k])
    }
    assert not wrong, f"{code}: placeholders differ from en: {wrong}"


def test_no_duplicate_keys_in_files():
    for code in CODES:
        pairs = json.loads(
            (CATALOG_DIR / f"{code}.json").read_text(encoding="utf-8"),
            object_pairs_hook=lambda kv: kv,
        )
        keys = [k for k, _ in pairs]
        dupes = {k for k in keys if keys.count(k) > 1}
        assert not dupes, f"{code}: duplicate keys {dupes}"


def test_base_vocabulary_is_present():
    en = load("en")
    required = [f"card.{i}.{f}" for i in range(1, 49) for f in ("name", "romaji")]
    required += [
        f"month.{m}.{f}"
        for m in range(1, 13)
        for f in ("name", "plant", "plant_ja", "plant_romaji", "season", "symbolism")
    ]
    required += [f"yaku.{y}.{f}" for y in i18n.YAKU_KEYS for f in ("name", "romaji", "desc")]
    required += [f"kind.{k}" for k in ("bright", "animal", "ribbon", "plain")]
    required += [f"kind.ribbon.{r}" for r in ("poetry", "blue", "red")]
    required += [
        f"preset.{p}.{f}"
        for p in ("nintendo", "seed-000", "seed-001", "seed-003")
        for f in ("name", "desc")
    ]
    required += [
        f"instant.{w}.{f}" for w in ("teshi", "kuttsuki", "double_tenho") for f in ("name", "desc")
    ]
    required += [
        "ui.call.stop",
        "ui.call.koikoi",
        "rules.turn",
        "rules.matching",
        "rules.koikoi",
        "rules.scoring",
        "about.history.1",
        "about.history.4",
    ]
    required += [
        f"ui.settings.{s}.{c}"
        for s, cs in (
            ("animation_speed", ("off", "fast", "normal")),
            ("help_level", ("full", "highlights", "none")),
            ("name_display", ("translated", "japanese", "romaji")),
        )
        for c in cs
    ]
    required += [f"language.{c}" for c in CODES]
    missing = [k for k in required if k not in en]
    assert not missing, missing


def test_language_independent_values_agree():
    """Kanji and Latin romaji of the plants are the same facts in every catalog."""
    en = load("en")
    for code in CODES[1:]:
        other = load(code)
        for m in range(1, 13):
            for f in ("plant_ja", "plant_romaji"):
                key = f"month.{m}.{f}"
                assert other[key] == en[key], (code, key)


def test_rulebook_terms_are_used():
    """Players meet the words their rulebooks print (RULES.md §0.1)."""
    assert load("uk")["ui.call.stop"] == "Агарі!"
    assert load("uk")["ui.call.koikoi"] == "Кой-кой!"
    assert load("uk")["term.dealer"] == "Сенсей"
    assert "Shobu" in load("sk")["ui.call.stop"] and "Koi" in load("sk")["ui.call.koikoi"]
    assert load("sk")["term.dealer"] == "Oya" and "Ba" in load("sk")["ui.tutorial.intro"]
    assert load("ja")["yaku.inoshikacho.name"] == "猪鹿蝶"
    assert load("ja")["ui.call.koikoi"] == "こいこい"


def test_translations_are_not_english_copies():
    """A catalog that merely copies English would pass the key test; catch that."""
    en = load("en")
    for code in CODES[1:]:
        other = load(code)
        prose = [k for k in en if k.endswith(("desc", "symbolism")) or k.startswith("rules.")]
        same = [k for k in prose if other[k] == en[k] and isinstance(en[k], str)]
        assert not same, f"{code}: untranslated {same[:5]}"


def test_t_formats_and_falls_back():
    sk = i18n.Words("sk")
    assert sk.language == "sk"
    assert sk.t("ui.common.round_n", n=4) == "Kolo 4"
    assert sk.t("no.such.key") == "no.such.key"
    assert sk.t("ui.common.round_n") == "Kolo {n}"  # unformatted when no arguments
    assert sk.t("ui.common.round_n", wrong=1) == "Kolo {n}"  # a bad call does not crash


def test_words_refuse_an_unknown_language_or_name_style():
    with pytest.raises(ValueError, match="unknown language"):
        i18n.Words("de")
    with pytest.raises(ValueError, match="unknown name style"):
        i18n.Words("en", "klingon")  # type: ignore[arg-type]


def test_match_language():
    assert i18n.match_language("uk_UA.UTF-8") == "uk"
    assert i18n.match_language("RU") == "ru"
    assert i18n.match_language("fr_FR") is None
    assert i18n.match_language(None) is None


def test_name_styles():
    uk = i18n.Words("uk")
    assert uk.card_name(29) == "Повний місяць"
    assert uk.card_name(29, "japanese") == "芒に月"
    assert uk.card_name(29, "romaji") == "Сусукі ні цукі"
    assert uk.yaku_name("akatan", "romaji") == "Акатан"
    assert uk.yaku_name("akatan", "japanese") == "赤短"
    assert i18n.Words("uk", "romaji").yaku_name("akatan") == "Акатан"  # the style's default
    ja = i18n.Words("ja")
    assert ja.card_name(29, "translated") == ja.card_name(29, "japanese")
    assert ja.card_name(29, "romaji") == "Susuki ni tsuki"
    en = i18n.Words("en")
    assert en.month_plant(8, "japanese") == "芒"
    assert en.month_plant(8, "romaji") == "susuki"
    assert en.yaku_name("goko") == "Five Brights"
    with pytest.raises(ValueError):
        en.card_name(49)
    with pytest.raises(ValueError):
        en.yaku_name("nothing")
    with pytest.raises(ValueError):
        en.card_name(1, "klingon")


@pytest.mark.parametrize("code", CODES)
def test_every_string_renders_without_missing_glyphs(code):
    """Each character is checked in the font text.py picks for it (pygame.freetype metrics)."""
    missing: dict[str, list[str]] = {}
    for key, value in load(code).items():
        lost = [c for t in texts(value) for c in text.missing_glyphs(t)]
        if lost:
            missing[key] = lost
    assert not missing, (
        f"{code}: characters no shipped font has (add them, then run "
        f"assets/fonts/subset_fonts.py): {missing}"
    )


def test_missing_glyph_check_can_fail():
    """The glyph check is real: characters outside both fonts are reported."""
    assert text.missing_glyphs("ok \U0001f3b4 ࠀ") == ["\U0001f3b4", "ࠀ"]
    assert text.missing_glyphs("Їжак і ґудзик є 猪鹿蝶 Žeriav") == []


def test_scripts_go_to_the_right_font():
    assert text.slot_for("ї") == text.LATIN
    assert text.slot_for("ť") == text.LATIN
    assert text.slot_for("鶴") == text.JAPANESE
    assert text.slot_for("こ") == text.JAPANESE
    assert [slot for slot, _ in text.runs("Сосна 松 pine")] == [
        text.LATIN,
        text.JAPANESE,
        text.LATIN,
    ]


def test_render_measure_and_wrap():
    surf = text.render("Кой-кой! こいこい", 24, (250, 240, 220))
    w, h = text.measure("Кой-кой! こいこい", 24)
    assert surf.get_size() == (w, h)
    assert surf.get_flags() & pygame.SRCALPHA
    assert surf.get_bounding_rect().width > w * 0.8  # ink across the whole line
    assert text.measure("Koi", 24, bold=True)[0] > text.measure("Koi", 24)[0]
    assert text.render("x", 20, (0, 0, 0)) is text.render("x", 20, (0, 0, 0))  # cached
    for sample in (
        i18n.t_in("en", "rules.matching"),
        i18n.t_in("ja", "rules.matching"),
        i18n.t_in("uk", "about.history.2"),
    ):
        lines = text.wrap(sample, 18, 300)
        assert len(lines) > 2
        assert all(text.measure(line, 18)[0] <= 300 for line in lines)
        assert "".join(lines).replace(" ", "") == sample.replace(" ", "")
    assert text.wrap("a\nb", 18, 300) == ["a", "b"]
    # Japanese line breaking keeps 。 and 、 off the start of a line.
    for line in text.wrap(i18n.t_in("ja", "about.history.2"), 18, 200):
        assert line[:1] not in "。、）」"


FAMILIES = (
    "ui|card|month|yaku|kind|role|preset|instant|term|rules|about|language|factor|end|match_end"
)
KEY_CALL = re.compile(
    r"""\b(?:tr|t|t_person|Key|t_in\([^,()]+,)\s*\(?\s*["']((?:"""
    + FAMILIES
    + r""")\.[\w.\-]+)["']"""
)


def test_every_key_used_in_code_is_in_the_catalogs():
    """A literal key passed to ``t``/``tr`` anywhere in the package must exist (all text lives
    in the catalogs, not in code)."""
    package = Path(i18n.__file__).resolve().parent.parent
    en = load("en")
    missing: dict[str, str] = {}
    found = 0
    for path in package.rglob("*.py"):
        for key in KEY_CALL.findall(path.read_text(encoding="utf-8")):
            found += 1
            if key not in en and not key.endswith("."):
                missing[key] = path.name
    assert found > 50  # the scan sees the screens' calls
    assert not missing, f"keys used in code but absent from en.json: {missing}"
