"""Scenario tests for RULES.md §7: yaku definitions, values per preset, combination rules.

Each test names the rule id it checks; the expected numbers are worked out by hand from §7.
"""

from __future__ import annotations

import itertools

import pytest
from pydantic import ValidationError

from koikoi_desktop.engine import DECK, PRESETS, Rules, score_yaku
from tests.engine.helpers import PRESET_NAMES, variant

PLAIN10 = [3, 4, 7, 8, 11, 12, 15, 16, 19, 20]
FIVE_ANIMALS = [5, 13, 17, 30, 42]
FIVE_RED = [14, 18, 26, 43, 2]

#: (cards, {preset: base}) from the §7.2 value table.
VALUE_CASES = [
    ([1, 9, 29, 41, 45], {"seed-000": 10, "seed-003": 15, "seed-001": 10, "nintendo": 10}),
    ([1, 9, 29, 45], {"seed-000": 8, "seed-003": 10, "seed-001": 8, "nintendo": 8}),
    ([1, 9, 29, 41], {"seed-000": 7, "seed-003": 8, "seed-001": 7, "nintendo": 7}),
    ([1, 9, 29], {"seed-000": 5, "seed-003": 6, "seed-001": 5, "nintendo": 5}),
    ([9, 33], {"seed-000": 5, "seed-003": 3, "seed-001": 5, "nintendo": 5}),
    ([29, 33], {"seed-000": 5, "seed-003": 3, "seed-001": 5, "nintendo": 5}),
    ([21, 25, 37], {"seed-000": 5, "seed-003": 5, "seed-001": 5, "nintendo": 5}),
    ([2, 6, 10], {"seed-000": 5, "seed-003": 6, "seed-001": 5, "nintendo": 5}),
    ([22, 34, 38], {"seed-000": 5, "seed-003": 6, "seed-001": 5, "nintendo": 5}),
    (FIVE_ANIMALS, {p: 1 for p in PRESET_NAMES}),
    ([*FIVE_ANIMALS, 33], {p: 2 for p in PRESET_NAMES}),  # 003 worked check: 6 animals = 2
    (FIVE_RED, {p: 1 for p in PRESET_NAMES}),
    ([*FIVE_RED, 6, 22], {p: 3 for p in PRESET_NAMES}),  # 003 worked check: 7 tanzaku = 3
    (PLAIN10, {p: 1 for p in PRESET_NAMES}),
    ([*PLAIN10, 23], {p: 2 for p in PRESET_NAMES}),  # 003 worked check: 11 kasu = 2
    # the sake cup as the tenth plain card (not in seed-003, A-18)
    ([*PLAIN10[:9], 33], {"seed-000": 1, "seed-003": 0, "seed-001": 1, "nintendo": 1}),
    # three brights with the rain man are nothing (R-YAKU-3)
    ([1, 9, 41], {p: 0 for p in PRESET_NAMES}),
    ([], {p: 0 for p in PRESET_NAMES}),
    ([*PLAIN10[:9], 1, 2, 5], {p: 0 for p in PRESET_NAMES}),
]


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(("cards", "bases"), VALUE_CASES)
def test_r_yaku_values_per_preset(name, cards, bases) -> None:
    """R-YAKU §7.1 / §7.2: each yaku's condition and value per preset (incl. 003's worked
    checks 11 kasu = 2, 7 tanzaku = 3, 6 animals = 2)."""
    s = score_yaku(cards, PRESETS[name])
    assert s.base == bases[name]
    assert s.base == sum(y.points for y in s.yaku)
    assert (s.base == 0) == (len(s.yaku) == 0)


def test_r_yaku_accepts_cards_and_ids() -> None:
    """R-YAKU: score_yaku takes ids or Card objects alike."""
    r = PRESETS["seed-000"]
    assert score_yaku([DECK[0], DECK[8], DECK[28]], r).base == score_yaku([1, 9, 29], r).base == 5
    assert [y.key for y in score_yaku(iter([21, 25, 37]), r).yaku] == ["inoshikacho"]


@pytest.mark.parametrize(
    ("name", "cards", "base", "keys"),
    [
        # nintendo worked checks (R-YAKU-7)
        ("nintendo", [21, 25, 37, 5, 13], 7, ["inoshikacho"]),
        ("nintendo", [2, 6, 10, 14, 18], 7, ["akatan"]),
        ("nintendo", [2, 6, 10, 22, 34, 38], 10, ["akaao"]),
        ("nintendo", [2, 6, 10, 14, 18, 22, 26, 34, 38, 43], 14, ["akaao"]),
        # the same piles where cards are shared (R-YAKU-1)
        ("seed-000", [21, 25, 37, 5, 13], 6, ["inoshikacho", "tane"]),
        ("seed-001", [21, 25, 37, 5, 13], 6, ["inoshikacho", "tane"]),
        ("seed-000", [2, 6, 10, 14, 18], 6, ["akatan", "tanzaku"]),
        ("seed-000", [2, 6, 10, 22, 34, 38], 12, ["akatan", "aotan", "tanzaku"]),
        ("seed-000", [2, 6, 10, 14, 18, 22, 26, 34, 38, 43], 16, ["akatan", "aotan", "tanzaku"]),
        # one yaku per card (R-YAKU-4)
        ("seed-003", [21, 25, 37, 5, 13], 5, ["inoshikacho"]),
        ("seed-003", [2, 6, 10, 14, 18], 6, ["akatan"]),
        ("seed-003", [2, 6, 10, 22, 34, 38], 12, ["akatan", "aotan"]),
        ("seed-003", [2, 6, 10, 14, 18, 22, 26, 34, 38, 43], 12, ["akatan", "aotan"]),
    ],
)
def test_r_yaku_worked_checks(name, cards, base, keys) -> None:
    """R-YAKU §7.2 worked checks for nintendo (R-YAKU-7) and the seeds (R-YAKU-1, R-YAKU-4)."""
    s = score_yaku(cards, PRESETS[name])
    assert s.base == base
    assert [y.key for y in s.yaku] == keys


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_yaku_light_yaku_exclusive(name) -> None:
    """R-YAKU §7.1: at most one light yaku scores, the highest-valued one."""
    r = PRESETS[name]
    for n in range(3, 6):
        for combo in itertools.combinations([1, 9, 29, 41, 45], n):
            keys = [y.key for y in score_yaku(combo, r).yaku]
            lights = [k for k in keys if k in ("goko", "shiko", "ame_shiko", "sanko")]
            assert len(lights) <= 1
            if n == 5:
                assert lights == ["goko"]


@pytest.mark.parametrize("name", ["seed-000", "seed-001", "nintendo"])
def test_r_yaku_1_shared_cards(name) -> None:
    """R-YAKU-1: the sake cup counts for Tane, Hanami/Tsukimi and Kasu at once; Hanami and
    Tsukimi combine; viewing yaku combine with a light yaku."""
    r = PRESETS[name]
    pile = [9, 33, 5, 13, 17, 30, *PLAIN10[:9]]  # 5 animals with the cup, 9 plain + the cup
    s = score_yaku(pile, r)
    assert [y.key for y in s.yaku] == ["hanami", "tane", "kasu"]
    assert s.base == 5 + 1 + 1
    both = score_yaku([1, 9, 29, 33], r)
    assert [y.key for y in both.yaku] == ["sanko", "hanami", "tsukimi"]
    assert both.base == 15


def test_r_yaku_1_seed000_tane_with_inoshikacho() -> None:
    """R-YAKU-1: seed-000 Tane combines with Ino-Shika-Chō (the 3 animals count in Tane too),
    Tanzaku with Akatan and Aotan, Akatan with Aotan."""
    r = PRESETS["seed-000"]
    assert score_yaku([21, 25, 37, 5, 13, 17, 30], r).base == 5 + 3
    assert score_yaku([2, 6, 10, 22, 34, 38, 14], r).base == 5 + 5 + 3


@pytest.mark.parametrize(
    ("changes", "cards", "base", "keys"),
    [
        ({"viewing_yaku": False}, [9, 33], 0, []),
        ({"viewing_yaku": False}, [1, 9, 29, 33], 5, ["sanko"]),
        ({"viewing_voided_by_rain_man": True}, [9, 33, 41], 0, []),
        ({"viewing_voided_by_rain_man": True}, [9, 33], 5, ["hanami"]),
        ({}, [9, 33, 41], 5, ["hanami"]),
        # 3 each, whether one or both are held
        ({"viewing_value": 3}, [9, 33], 3, ["hanami"]),
        ({"viewing_value": 3}, [29, 33], 3, ["tsukimi"]),
        ({"viewing_value": 3}, [9, 29, 33], 6, ["hanami", "tsukimi"]),
        # the better group scores; a tie shows the light yaku
        ({"viewing_excluded_by_light_yaku": True}, [1, 9, 29, 33], 10, ["hanami", "tsukimi"]),
        ({"viewing_excluded_by_light_yaku": True}, [1, 9, 29, 45, 33], 10, ["hanami", "tsukimi"]),
        ({"viewing_excluded_by_light_yaku": True}, [1, 9, 45, 33], 5, ["sanko"]),
        ({"viewing_excluded_by_light_yaku": True}, [1, 9, 29, 41, 45, 33], 10, ["goko"]),
        ({"viewing_excluded_by_light_yaku": True, "viewing_value": 3}, [1, 9, 29, 33], 6,
         ["hanami", "tsukimi"]),
        ({"viewing_excluded_by_light_yaku": True, "viewing_value": 3}, [1, 9, 29, 45, 33], 8,
         ["shiko"]),
    ],
)  # fmt: skip
def test_r_yaku_2_viewing_options_seed000(changes, cards, base, keys) -> None:
    """R-YAKU-2 (A-6, A-7): the viewing-yaku toggles of seed-000."""
    r = variant(PRESETS["seed-000"], **changes)
    s = score_yaku(cards, r)
    assert (s.base, [y.key for y in s.yaku]) == (base, keys)


def test_r_yaku_2_defaults() -> None:
    """R-YAKU-2: seed-000 defaults: viewing yaku on, the three restrictions off; nintendo:
    never voided by the rain man (A-36)."""
    r = PRESETS["seed-000"]
    assert r.viewing_yaku and not r.viewing_voided_by_rain_man
    assert r.viewing_value == 5 and not r.viewing_excluded_by_light_yaku
    assert score_yaku([9, 33, 41], PRESETS["nintendo"]).base == 5


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_yaku_3_sanko_and_rain_man(name) -> None:
    """R-YAKU-3 / A-17: three brights with the rain man are not Sankō; when the setting is on,
    any 3 brights make Sankō."""
    r = PRESETS[name]
    assert r.sanko_allows_rain_man is False
    for trio in itertools.combinations([1, 9, 29, 45], 2):
        assert score_yaku([*trio, 41], r).base == 0
    on = variant(r, sanko_allows_rain_man=True)
    s = score_yaku([1, 45, 41], on)
    assert [y.key for y in s.yaku] == ["sanko"] and s.base == r.value_sanko
    assert score_yaku([1, 9, 29, 41], on).base == r.value_ame_shiko


@pytest.mark.parametrize(
    ("changes", "cards", "base", "keys"),
    [
        ({}, [21, 25, 37, 5, 13, 17, 30, 42], 6, ["inoshikacho", "tane"]),
        ({}, [2, 6, 10, 14, 18, 26, 43, 22], 7, ["akatan", "tanzaku"]),
        ({}, [9, 29, 33], 3, ["hanami"]),  # one cup: never both; tie -> hanami first
        ({}, [1, 9, 29, 45, 33], 10, ["shiko"]),
        # viewing + light only on disjoint brights: sanko(1,29,45)+hanami(9,33) = 6+5 > shiko 10
        ({"viewing_value": 5}, [1, 9, 29, 45, 33], 11, ["sanko", "hanami"]),
        ({}, [1, 9, 29, 41, 45, 33], 15, ["goko"]),
        # the cup is not plain in seed-003
        ({}, [33, *PLAIN10[:9]], 0, []),
        # custom: cup plain -> it goes where it pays more (R-YAKU-4.2)
        ({"sake_cup_is_plain": True}, [33, 5, 13, 17, *PLAIN10[:9]], 1, ["kasu"]),
        ({"sake_cup_is_plain": True}, [33, 5, 13, 17, 30, *PLAIN10[:5]], 1, ["tane"]),
        # a tie (tane 2 vs tane 1 + kasu 1): the lexicographically smallest name list
        ({"sake_cup_is_plain": True}, [33, 5, 13, 17, 30, 42, *PLAIN10[:9]], 2, ["tane"]),
        ({"sake_cup_is_plain": True}, [33, 5, 13, 17, 30, 42, *PLAIN10], 3, ["tane", "kasu"]),
    ],
)
def test_r_yaku_4_one_yaku_per_card(changes, cards, base, keys) -> None:
    """R-YAKU-4 / A-3: seed-003 scores the best assignment in which no card feeds two yaku;
    the display picks the priority-smallest among optimal assignments."""
    r = variant(PRESETS["seed-003"], **changes) if changes else PRESETS["seed-003"]
    s = score_yaku(cards, r)
    assert (s.base, [y.key for y in s.yaku]) == (base, keys)


def test_r_yaku_4_brute_force_oracle() -> None:
    """R-YAKU-4: agrees with an independent brute force over every subset of a rich pile's
    special cards (light instances, viewing, Ino-Shika-Chō, Akatan, Aotan)."""
    r = PRESETS["seed-003"]
    light_vals = {"goko": 15, "shiko": 10, "ame_shiko": 8, "sanko": 6}

    def oracle(p: set[int]) -> int:
        nonrain = sorted(p & {1, 9, 29, 45})
        lights: list[tuple[int, frozenset[int]]] = [(0, frozenset())]
        if len(nonrain) == 4 and 41 in p:
            lights.append((light_vals["goko"], frozenset(p & {1, 9, 29, 41, 45})))
        if len(nonrain) == 4:
            lights.append((light_vals["shiko"], frozenset(nonrain)))
        for t in itertools.combinations(nonrain, 3):
            lights.append((light_vals["sanko"], frozenset(t)))
            if 41 in p:
                lights.append((light_vals["ame_shiko"], frozenset((*t, 41))))
        fixed = [(v, frozenset(c)) for v, c in (
            (3, {9, 33}), (3, {29, 33}), (5, {21, 25, 37}), (6, {2, 6, 10}), (6, {22, 34, 38})
        ) if c <= p]  # fmt: skip
        best = 0
        for lv, lc in lights:
            for n in range(len(fixed) + 1):
                for chosen in itertools.combinations(fixed, n):
                    used = set(lc)
                    ok = True
                    for _, c in chosen:
                        if used & c:
                            ok = False
                        used |= c
                    if not ok:
                        continue
                    free = p - used
                    a = len(free & {5, 13, 17, 21, 25, 30, 33, 37, 42})
                    rb = len(free & {2, 6, 10, 14, 18, 22, 26, 34, 38, 43})
                    k = len(free - {1, 9, 29, 41, 45} - {5, 13, 17, 21, 25, 30, 33, 37, 42}
                            - {2, 6, 10, 14, 18, 22, 26, 34, 38, 43})  # fmt: skip
                    total = lv + sum(v for v, _ in chosen)
                    total += (a - 4 if a >= 5 else 0) + (rb - 4 if rb >= 5 else 0)
                    total += k - 9 if k >= 10 else 0
                    best = max(best, total)
        return best

    import random

    rng = random.Random(2024)
    special = [1, 9, 29, 41, 45, 33, 21, 25, 37, 2, 6, 10, 22, 34, 38]
    others = [c for c in range(1, 49) if c not in special]
    for _ in range(300):
        p = set(rng.sample(special, rng.randint(3, 15)))
        p |= set(rng.sample(others, rng.randint(0, 20)))
        assert score_yaku(p, r).base == oracle(p), sorted(p)


def test_r_yaku_5_seed003_without_one_yaku_per_card() -> None:
    """R-YAKU-5: seed-003 with one_yaku_per_card off behaves like R-YAKU-1."""
    r = variant(PRESETS["seed-003"], one_yaku_per_card=False)
    assert score_yaku([21, 25, 37, 5, 13], r).base == 5 + 1
    assert score_yaku([9, 29, 33], r).base == 3 + 3
    assert [y.key for y in score_yaku([2, 6, 10, 22, 34, 38], r).yaku] == [
        "akatan", "aotan", "tanzaku"]  # fmt: skip


@pytest.mark.parametrize(
    ("base_preset", "cards", "base"),
    [
        ("seed-003", [2, 6, 10, 22, 34, 38], 6 + 6 + 3),
        # it does not consume cards: the 5 other ribbons still make Tanzaku
        ("seed-003", [2, 6, 10, 22, 34, 38, 14, 18, 26, 43], 6 + 6 + 3),
        ("seed-003", [2, 6, 10, 22, 34], 6),
        ("nintendo", [2, 6, 10, 22, 34, 38], 10 + 3),  # R-YAKU-7.3: still adds 3
    ],
)
def test_r_yaku_6_trio_bonus(base_preset, cards, base) -> None:
    """R-YAKU-6: the Trio variant adds 3 (key "trio") for all 3 poetry and all 3 blue ribbons,
    without consuming cards; off by default."""
    assert PRESETS["seed-003"].trio_bonus is None
    r = variant(PRESETS[base_preset], trio_bonus=3)
    s = score_yaku(cards, r)
    assert s.base == base
    trio = [y for y in s.yaku if y.key == "trio"]
    assert (len(trio) == 1 and trio[0].points == 3) == ({2, 6, 10, 22, 34, 38} <= set(cards))
    assert "trio" not in [y.key for y in score_yaku(cards, PRESETS[base_preset]).yaku]


def test_r_yaku_6_trio_does_not_consume_cards_seed003() -> None:
    """R-YAKU-6: with 5 ribbons beyond the trios the Tanzaku is 1 + trio 3 + 12."""
    r = variant(PRESETS["seed-003"], trio_bonus=3)
    # 10 ribbons: akatan 6 + aotan 6 (disjoint), 4 red left: no tanzaku; trio +3
    s = score_yaku([2, 6, 10, 22, 34, 38, 14, 18, 26, 43], r)
    assert s.base == 15 and "trio" in [y.key for y in s.yaku]


@pytest.mark.parametrize(
    ("cards", "base", "keys"),
    [
        ([21, 25, 37], 5, ["inoshikacho"]),
        ([21, 25, 37, 33], 6, ["inoshikacho"]),  # the cup is an "other animal"
        ([21, 25, 37, 5, 13, 17, 30, 42, 33], 11, ["inoshikacho"]),  # never with tane
        ([5, 13, 17, 30, 42, 21, 25], 3, ["tane"]),
        ([5, 13, 17, 30, 42, 21, 25, 37], 10, ["inoshikacho"]),  # completing ISC raises A+2
        ([14, 18, 26, 43, 2, 6], 2, ["tanzaku"]),
        ([14, 18, 26, 43, 2, 6, 10], 9, ["akatan"]),
        ([22, 34, 38, 14], 6, ["aotan"]),
        ([2, 6, 10, 14, 18, 22, 34], 9, ["akatan"]),
        ([2, 6, 10, 14, 18, 22, 34, 38], 12, ["akaao"]),  # R+1 -> R+4
        ([9, 29, 33, 1], 15, ["sanko", "hanami", "tsukimi"]),
        ([33, *PLAIN10[:9]], 1, ["kasu"]),  # the cup is plain too
        ([1, 9, 29, 33, 21, 25, 37, 2, 6, 10, 22, 34, 38, *PLAIN10[:9]], 5 + 10 + 6 + 10 + 1,
         ["sanko", "hanami", "tsukimi", "inoshikacho", "akaao", "kasu"]),
    ],
)  # fmt: skip
def test_r_yaku_7_absorbed_extras(cards, base, keys) -> None:
    """R-YAKU-7 / A-31: nintendo Ino-Shika-Chō / Akatan / Aotan / Akatan-Aotan absorb the
    other cards of their kind (+1 each) and suppress Tane / Tanzaku; report order."""
    s = score_yaku(cards, PRESETS["nintendo"])
    assert (s.base, [y.key for y in s.yaku]) == (base, keys)


def test_r_yaku_7_never_together_and_monotone() -> None:
    """R-YAKU-7 consequences: Ino-Shika-Chō never with Tane, Akatan/Aotan/Akatan-Aotan never
    with Tanzaku, Akatan never with Aotan; base never decreases when a card is added."""
    import random

    r = PRESETS["nintendo"]
    rng = random.Random(7)
    for _ in range(400):
        p = rng.sample(range(1, 49), rng.randint(0, 30))
        keys = {y.key for y in score_yaku(p, r).yaku}
        assert not {"inoshikacho", "tane"} <= keys
        assert not ({"akatan", "aotan", "akaao"} & keys and "tanzaku" in keys)
        assert not {"akatan", "aotan"} <= keys
        base = score_yaku(p, r).base
        for c in rng.sample([c for c in range(1, 49) if c not in p], 3):
            assert score_yaku([*p, c], r).base >= base


@pytest.mark.parametrize("name", ["seed-000", "seed-003", "seed-001"])
def test_r_yaku_7_seed_presets_have_no_akaao(name) -> None:
    """R-YAKU-7: with the setting off (the seeds), akaao does not exist."""
    assert PRESETS[name].set_yaku_absorb_extras is False
    assert "akaao" not in {y.key for y in score_yaku([2, 6, 10, 22, 34, 38], PRESETS[name]).yaku}


def test_r_yaku_7_a38_rejects_both_settings() -> None:
    """R-YAKU-7.5 / A-38: the settings model rejects absorb extras + one yaku per card."""
    for name in PRESET_NAMES:
        with pytest.raises(ValidationError) as info:
            Rules.model_validate(
                {**PRESETS[name].model_dump(), "set_yaku_absorb_extras": True,
                 "one_yaku_per_card": True}
            )  # fmt: skip
        msg = str(info.value)
        assert "one_yaku_per_card" in msg and "set_yaku_absorb_extras" in msg
        assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r_yaku_report_order(name) -> None:
    """R-YAKU-7.4 / R-YAKU-4.3: yaku are reported in the fixed priority order."""
    order = ["goko", "shiko", "ame_shiko", "sanko", "hanami", "tsukimi", "inoshikacho",
             "akaao", "akatan", "aotan", "tane", "tanzaku", "kasu", "trio"]  # fmt: skip
    import random

    r = variant(PRESETS[name], trio_bonus=3)
    rng = random.Random(3)
    for _ in range(200):
        keys = [y.key for y in score_yaku(rng.sample(range(1, 49), 30), r).yaku]
        assert keys == sorted(keys, key=order.index)


@pytest.mark.parametrize("name", ["seed-000", "seed-001", "seed-003"])
def test_r_yaku_monotone_without_rain_voiding(name) -> None:
    """R-YAKU-4 consequence and A-7: base never decreases when a card is added (without
    viewing_voided_by_rain_man), also with the light/viewing exclusion on."""
    import random

    rng = random.Random(11)
    for r in (PRESETS[name], variant(PRESETS[name], viewing_excluded_by_light_yaku=True)):
        for _ in range(150):
            p = rng.sample(range(1, 49), rng.randint(0, 25))
            base = score_yaku(p, r).base
            for c in rng.sample([c for c in range(1, 49) if c not in p], 3):
                assert score_yaku([*p, c], r).base >= base, (sorted(p), c)


def _shared_oracle(p: set[int], r: Rules) -> tuple[int, set[str]]:
    """R-YAKU-1 / R-YAKU-2 / R-YAKU-3 / R-YAKU-6 / R-YAKU-7 written out from §7 directly."""
    ys: dict[str, int] = {}
    nb = len(p & {1, 9, 29, 45})
    rain = 41 in p
    lights = []
    if nb == 4 and rain:
        lights.append(("goko", r.value_goko))
    if nb == 4 and not rain:
        lights.append(("shiko", r.value_shiko))
    if nb == 3 and rain:
        lights.append(("ame_shiko", r.value_ame_shiko))
    if nb == 3 and not rain:
        lights.append(("sanko", r.value_sanko))
    if r.sanko_allows_rain_man and len(p & {1, 9, 29, 41, 45}) == 3 and rain:
        lights.append(("sanko", r.value_sanko))
    light = max(lights, key=lambda x: x[1]) if lights else None
    viewing = {}
    if r.viewing_yaku and 33 in p and not (r.viewing_voided_by_rain_man and rain):
        if 9 in p:
            viewing["hanami"] = r.viewing_value
        if 29 in p:
            viewing["tsukimi"] = r.viewing_value
    if light and viewing and r.viewing_excluded_by_light_yaku:
        if light[1] >= sum(viewing.values()):
            viewing = {}
        else:
            light = None
    if light:
        ys[light[0]] = light[1]
    ys.update(viewing)
    a = len(p & {5, 13, 17, 21, 25, 30, 33, 37, 42})
    rb = len(p & {2, 6, 10, 14, 18, 22, 26, 34, 38, 43})
    isc = {21, 25, 37} <= p
    aka = {2, 6, 10} <= p
    ao = {22, 34, 38} <= p
    if r.set_yaku_absorb_extras:
        if isc:
            ys["inoshikacho"] = r.value_inoshikacho + a - 3
        elif a >= 5:
            ys["tane"] = r.value_tane + a - 5
        if aka and ao:
            ys["akaao"] = r.value_akaao + rb - 6
        elif aka:
            ys["akatan"] = r.value_akatan + rb - 3
        elif ao:
            ys["aotan"] = r.value_aotan + rb - 3
        elif rb >= 5:
            ys["tanzaku"] = r.value_tanzaku + rb - 5
    else:
        if isc:
            ys["inoshikacho"] = r.value_inoshikacho
        if aka:
            ys["akatan"] = r.value_akatan
        if ao:
            ys["aotan"] = r.value_aotan
        if a >= 5:
            ys["tane"] = r.value_tane + a - 5
        if rb >= 5:
            ys["tanzaku"] = r.value_tanzaku + rb - 5
    plain = {c for c in p if c in PLAIN_ALL} | ({33} & p if r.sake_cup_is_plain else set())
    if len(plain) >= 10:
        ys["kasu"] = r.value_kasu + len(plain) - 10
    if r.trio_bonus is not None and {2, 6, 10, 22, 34, 38} <= p:
        ys["trio"] = r.trio_bonus
    return sum(ys.values()), set(ys)


PLAIN_ALL = {3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23, 24, 27, 28, 31, 32, 35, 36, 39, 40, 44,
             46, 47, 48}  # fmt: skip


def test_r_yaku_1_r_yaku_2_r_yaku_7_shared_oracle() -> None:
    """R-YAKU-1 / R-YAKU-2 / R-YAKU-3 / R-YAKU-5 / R-YAKU-6 / R-YAKU-7: shared-card scoring
    agrees with §7 written out directly, over random piles and random option combinations."""
    import random

    rng = random.Random(5)
    toggles = {
        "viewing_yaku": [True, False], "viewing_voided_by_rain_man": [False, True],
        "viewing_value": [3, 5], "viewing_excluded_by_light_yaku": [False, True],
        "sake_cup_is_plain": [True, False], "sanko_allows_rain_man": [False, True],
        "set_yaku_absorb_extras": [False, True], "trio_bonus": [None, 3],
    }  # fmt: skip
    for _ in range(300):
        base = PRESETS[rng.choice(PRESET_NAMES)]
        changes = {k: rng.choice(v) for k, v in toggles.items() if rng.random() < 0.5}
        r = variant(base, one_yaku_per_card=False, **changes)
        for _ in range(10):
            p = set(rng.sample(range(1, 49), rng.randint(0, 30)))
            s = score_yaku(p, r)
            assert (s.base, {y.key for y in s.yaku}) == _shared_oracle(p, r), (sorted(p), changes)
