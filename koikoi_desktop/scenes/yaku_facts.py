"""What the learning screens say about yaku, derived from the engine — never a hand-written table.

Everything here asks :func:`koikoi_desktop.engine.score_yaku` (and ``engine.yaku.factors``) about
small *probe piles* under a given :class:`~koikoi_desktop.engine.Rules`, so the month reference,
the yaku reference and the rules screen can never drift from the scoring the game really uses:

* ``value(key, rules)``: the points the yaku scores on its smallest card set;
* ``feeders(key, rules)``: every card that can be part of the yaku (a card feeds a yaku when some
  probe pile holding it scores that yaku with the card among the yaku's ``cards``);
* ``extra_step(key, rules)``: how many points each card beyond the smallest set adds (Nintendo's
  Ino-Shika-Chō +1 per other animal, Tane +1 per animal beyond five …);
* ``relation(a, b, rules)``: whether two yaku score together with shared cards, only on disjoint
  cards (``one_yaku_per_card``), or never (the light yaku, an absorbing set yaku, one sake cup);
* ``multipliers(rules)``: the factors of RULES.md §10 that can apply, probed through ``factors``;
* ``preset_differences(name)``: the settings where one preset differs from the others (§13).

Decisions: the *minimal card sets* below are a choice of which cards to picture and probe, not a
value table: values and relations always come out of ``score_yaku``. A yaku "exists" under a rule
set when one of its minimal sets scores it (so Akatan-Aotan exists only with
``set_yaku_absorb_extras``, the viewing yaku only with ``viewing_yaku``, Trio only with a
``trio_bonus``). No pygame here; results are cached per (frozen, hashable) rule set.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Literal

from koikoi_desktop.engine import DECK, PRESETS, Rules, score_yaku
from koikoi_desktop.engine.cards import (
    BLUE,
    BRIGHTS,
    CURTAIN,
    INOSHIKACHO,
    MOON,
    NONRAIN_BRIGHTS,
    POETRY,
    RAIN_MAN,
    SAKE_CUP,
    ids_of,
)
from koikoi_desktop.engine.facts import LIGHT_YAKU
from koikoi_desktop.engine.yaku import KASU_NEED, ORDER, TANE_NEED, TANZAKU_NEED, factors

Relation = Literal["shared", "disjoint", "never"]

_NONRAIN = ids_of(NONRAIN_BRIGHTS)
_TRIOS = [frozenset(c) for c in combinations(_NONRAIN, 3)]

#: Alternative smallest card sets of each yaku (what to picture and probe; see module docstring).
MIN_SETS: dict[str, tuple[frozenset[int], ...]] = {
    "goko": (frozenset(ids_of(BRIGHTS)),),
    "shiko": (frozenset(_NONRAIN),),
    "ame_shiko": tuple(t | {RAIN_MAN} for t in _TRIOS),
    "sanko": (*_TRIOS, *(frozenset(p) | {RAIN_MAN} for p in combinations(_NONRAIN, 2))),
    "hanami": (frozenset({CURTAIN, SAKE_CUP}),),
    "tsukimi": (frozenset({MOON, SAKE_CUP}),),
    "inoshikacho": (frozenset(ids_of(INOSHIKACHO)),),
    "akaao": (frozenset(ids_of(POETRY | BLUE)),),
    "akatan": (frozenset(ids_of(POETRY)),),
    "aotan": (frozenset(ids_of(BLUE)),),
    "tane": (
        frozenset({5, 13, 17, 30, 42}),
        frozenset({21, 25, 37, 5, 13}),
        frozenset({33, 5, 13, 17, 30}),
    ),
    "tanzaku": (
        frozenset({14, 18, 26, 43, 2}),
        frozenset({14, 18, 26, 43, 22}),
        frozenset({2, 6, 10, 14, 18}),
    ),
    "kasu": (
        frozenset({3, 4, 7, 8, 11, 12, 15, 16, 19, 20}),
        frozenset({23, 24, 27, 28, 31, 32, 35, 36, 39, 33}),
    ),
    "trio": (frozenset(ids_of(POETRY | BLUE)),),
}
#: How many cards the yaku needs when it is "any N of these" (the counting yaku and Sankō).
NEEDS_ANY: dict[str, int] = {
    "tane": TANE_NEED,
    "tanzaku": TANZAKU_NEED,
    "kasu": KASU_NEED,
    "sanko": 3,
}
LIGHTS = LIGHT_YAKU


def _scored(pile: frozenset[int] | set[int], rules: Rules) -> tuple[str, ...]:
    """The keys of the yaku ``pile`` scores under ``rules``."""
    return tuple(y.key for y in score_yaku(pile, rules).yaku)


def _points(pile: frozenset[int] | set[int], key: str, rules: Rules) -> tuple[int, frozenset[int]]:
    """(points, cards) of yaku ``key`` in ``pile`` (0, empty when it does not score)."""
    for y in score_yaku(pile, rules).yaku:
        if y.key == key:
            return y.points, frozenset(y.cards)
    return 0, frozenset()


@lru_cache(maxsize=64)
def _working_set(key: str, rules: Rules) -> frozenset[int] | None:
    """The first minimal set that scores ``key`` alone (None: the yaku does not exist here)."""
    for s in MIN_SETS[key]:
        if _points(s, key, rules)[0] > 0 or key in _scored(s, rules):
            return s
    return None


def all_keys() -> tuple[str, ...]:
    """Every yaku key, in the engine's report order."""
    return tuple(k for k in ORDER if k in MIN_SETS)


def exists(key: str, rules: Rules) -> bool:
    return _working_set(key, rules) is not None


def existing(rules: Rules) -> tuple[str, ...]:
    """The yaku that exist under ``rules``, in report order."""
    return tuple(k for k in all_keys() if exists(k, rules))


def minimal_set(key: str, rules: Rules) -> frozenset[int]:
    """The smallest card set pictured for the yaku (its first alternative if it does not exist)."""
    return _working_set(key, rules) or MIN_SETS[key][0]


def value(key: str, rules: Rules) -> int:
    """The yaku's points on its smallest set under ``rules`` (0 when it does not exist)."""
    s = _working_set(key, rules)
    return 0 if s is None else _points(s, key, rules)[0]


@lru_cache(maxsize=64)
def feeders(key: str, rules: Rules) -> frozenset[int]:
    """Every card that can count toward ``key`` under ``rules`` (probed with score_yaku)."""
    out: set[int] = set()
    alts = [s for s in MIN_SETS[key] if key in _scored(s, rules)]
    for s in alts:
        out |= _points(s, key, rules)[1]
        for c in range(1, 49):
            if c in s:
                continue
            probes = [s | {c}, *((s - {x}) | {c} for x in s)]
            for p in probes:
                if c in _points(p, key, rules)[1]:
                    out.add(c)
                    break
    return frozenset(out)


@lru_cache(maxsize=64)
def extra_step(key: str, rules: Rules) -> tuple[int, frozenset[int]]:
    """(points added per further card, the cards that add them) beyond the smallest set."""
    s = _working_set(key, rules)
    if s is None:
        return 0, frozenset()
    base = _points(s, key, rules)[0]
    steps: dict[int, set[int]] = {}
    for c in feeders(key, rules) - s:
        gain = _points(s | {c}, key, rules)[0] - base
        if gain > 0:
            steps.setdefault(gain, set()).add(c)
    if not steps:
        return 0, frozenset()
    gain = max(steps, key=lambda g: len(steps[g]))
    return gain, frozenset(steps[gain])


@lru_cache(maxsize=16)
def _loose(rules: Rules) -> Rules:
    """``rules`` with cards shared between yaku and nothing absorbed (the bare conditions)."""
    return rules.model_copy(update={"one_yaku_per_card": False, "set_yaku_absorb_extras": False})


@lru_cache(maxsize=512)
def relation(a: str, b: str, rules: Rules) -> Relation:
    """How yaku ``a`` and ``b`` combine under ``rules``: with shared cards, disjoint, or never.

    Only card sets that meet their yaku's condition under ``rules`` are probed (under
    ``seed-003`` the sake cup is no plain card, so Kasu never shares it with Tane); the
    condition is read with cards shared and nothing absorbed, so that "five animals including
    the boar, deer and butterflies" still counts as a Tane set to test against Ino-Shika-Chō.
    """
    loose = _loose(rules)

    def valid(key: str) -> list[frozenset[int]]:
        return [s for s in MIN_SETS[key] if key in _scored(s, rules) or key in _scored(s, loose)]

    alts_a, alts_b = valid(a), valid(b)
    disjoint_ok = False
    for sa in alts_a:
        for sb in alts_b:
            got = _scored(sa | sb, rules)
            if a in got and b in got:
                if sa & sb:
                    return "shared"
                disjoint_ok = True
    overlap_possible = any(sa & sb for sa in alts_a for sb in alts_b)
    if disjoint_ok:
        return "disjoint" if overlap_possible else "shared"
    return "never"


def combines_with(key: str, rules: Rules) -> tuple[list[str], list[str], list[str]]:
    """(shared, disjoint-only, never) lists of the other existing yaku, in report order."""
    shared: list[str] = []
    disjoint: list[str] = []
    never: list[str] = []
    for other in existing(rules):
        if other == key:
            continue
        groups = {"shared": shared, "disjoint": disjoint, "never": never}
        groups[relation(key, other, rules)].append(other)
    return shared, disjoint, never


def feeds(card_id: int, rules: Rules) -> list[str]:
    """The yaku card ``card_id`` can count toward under ``rules``, in report order."""
    return [k for k in existing(rules) if card_id in feeders(k, rules)]


@lru_cache(maxsize=64)
def core(key: str, rules: Rules) -> frozenset[int]:
    """The feeders that make the yaku, as opposed to extras that only add points to it.

    For the counting yaku (any N of a kind) every feeder is core; for a set yaku the core cards
    are those of its smallest sets (Akatan: the three poetry ribbons; the other ribbons that
    Nintendo's rules let it absorb are extras).
    """
    f = feeders(key, rules)
    if key in NEEDS_ANY and key != "sanko":
        return f
    union: set[int] = set()
    for s in MIN_SETS[key]:
        if key in _scored(s, rules):
            union |= s
    return f & frozenset(union)


def feeds_split(card_id: int, rules: Rules) -> tuple[list[str], list[str]]:
    """(yaku the card helps make, yaku it only adds points to) under ``rules``."""
    made: list[str] = []
    extra: list[str] = []
    for k in feeds(card_id, rules):
        (made if card_id in core(k, rules) else extra).append(k)
    return made, extra


def notes(key: str, rules: Rules) -> list[tuple[str, dict[str, object]]]:
    """Rule-flag notes for one yaku as (catalog key, format args), read from the Rules fields."""
    out: list[tuple[str, dict[str, object]]] = []
    if key in LIGHTS:
        out.append(("ui.yakuref.note.one_light", {}))
        if key == "sanko" and not rules.sanko_allows_rain_man:
            out.append(("ui.yakuref.note.sanko_no_rain", {}))
    if key in ("hanami", "tsukimi"):
        if rules.viewing_voided_by_rain_man:
            out.append(("ui.yakuref.note.voided_by_rain", {}))
        if rules.viewing_excluded_by_light_yaku:
            out.append(("ui.yakuref.note.excluded_by_light", {}))
    if key == "kasu" and rules.sake_cup_is_plain:
        out.append(("ui.yakuref.note.sake_plain", {}))
    if key in ("inoshikacho", "akatan", "aotan", "akaao") and rules.set_yaku_absorb_extras:
        out.append(("ui.yakuref.note.absorbs", {}))
    if rules.one_yaku_per_card:
        out.append(("ui.yakuref.note.one_per_card", {}))
    if key == "trio":
        out.append(("ui.yakuref.note.trio_bonus", {}))
    return out


def multipliers(rules: Rules) -> list[tuple[str, dict[str, object]]]:
    """The multipliers of RULES.md §10 under ``rules`` as (catalog key, format args).

    Probed through ``engine.yaku.factors`` with sample calls, so a custom rule set reads right.
    """
    out: list[tuple[str, dict[str, object]]] = []

    def f(base: int, w: int, lo: int, fb: int = 0) -> dict[str, int]:
        return dict(factors(base, rules, winner_calls=w, loser_calls=lo, field_brights=fb))

    seven = f(7, 0, 0).get("seven_plus")
    if seven and "seven_plus" not in f(6, 0, 0):
        out.append(("ui.yakuref.mult.seven_plus", {"x": seven}))
    own = [f(1, k, 0).get("koi_calls", 1) for k in (1, 2, 3)]
    if any(x > 1 for x in own):
        both = f(1, 1, 1).get("koi_calls", 1) > own[0]
        out.append(
            (
                "ui.yakuref.mult.koi_calls_total" if both else "ui.yakuref.mult.koi_calls",
                {"x1": own[0], "x2": own[1], "x3": own[2]},
            )
        )
    opp = f(1, 0, 1).get("opponent_koi")
    if opp:
        out.append(("ui.yakuref.mult.opponent_koi", {"x": opp}))
    field = [f(1, 0, 0, n).get("bright_field", 1) for n in (1, 2)]
    if field[0] > 1:
        out.append(("ui.yakuref.mult.bright_field", {"x1": field[0], "x2": field[1]}))
    if not out:
        out.append(("ui.yakuref.mult.none", {}))
    if rules.koikoi_limit is None:
        out.append(("ui.yakuref.mult.koi_unlimited", {}))
    else:
        out.append(("ui.yakuref.mult.koi_limit", {"n": rules.koikoi_limit}))
    return out


#: Rules fields not worth a row when comparing presets (the preset's own name).
_SKIP_FIELDS = ("based_on",)


def preset_differences(name: str) -> list[tuple[str, object, dict[str, object], bool]]:
    """Rows (field, this preset's value, {other preset: value}, unique) where ``name`` differs.

    A row is listed when at least one other preset has another value; ``unique`` is True when no
    other preset shares this preset's value. Field order is the Rules model's; unique rows first.
    """
    me = PRESETS[name].model_dump()
    others = {n: r.model_dump() for n, r in PRESETS.items() if n != name}
    rows: list[tuple[str, object, dict[str, object], bool]] = []
    for field in Rules.model_fields:
        if field in _SKIP_FIELDS:
            continue
        theirs = {n: d[field] for n, d in others.items()}
        if all(v == me[field] for v in theirs.values()):
            continue
        unique = all(v != me[field] for v in theirs.values())
        rows.append((field, me[field], theirs, unique))
    rows.sort(key=lambda r: not r[3])
    return rows


def card_kind_detail(card_id: int) -> str:
    """The category key with the ribbon subtype: ``kind.ribbon.poetry`` / ``.blue`` / ``.red``."""
    c = DECK[card_id - 1]
    if c.kind == "ribbon":
        if "poetry" in c.flags:
            return "kind.ribbon.poetry"
        if "blue" in c.flags:
            return "kind.ribbon.blue"
        return "kind.ribbon.red"
    return f"kind.{c.kind}"


def card_roles(card_id: int, rules: Rules) -> list[str]:
    """Catalog keys of the card's special roles under ``rules`` (sake cup, rain man, Gaji …)."""
    flags = DECK[card_id - 1].flags
    out: list[str] = []
    if "sake" in flags and rules.sake_cup_is_plain:
        out.append("role.sake_plain")
    if ("hanami" in flags or "tsukimi" in flags) and rules.viewing_yaku:
        out.append("role.viewing")
    if "rain" in flags:
        out.append("role.rain_man")
    if "gaji" in flags:
        out.append("role.gaji")
    return out
