"""Scoring: captured cards + rules → yaku with points (RULES.md §7), and the multipliers (§10).

>>> from koikoi_desktop.engine.rules import PRESETS
>>> s = score_yaku([21, 25, 37, 5, 13], PRESETS["nintendo"])
>>> s.base, [(y.key, y.points) for y in s.yaku]
(7, [('inoshikacho', 7)])
>>> score_yaku([21, 25, 37, 5, 13], PRESETS["seed-000"]).base
6
>>> payout(7, PRESETS["seed-000"], winner_calls=2, loser_calls=1, field_brights=0)
112
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from koikoi_desktop.engine.cards import (
    ANIMALS,
    BLUE,
    BRIGHTS,
    CURTAIN,
    INOSHIKACHO,
    MONTH_MASK,
    MOON,
    NONRAIN_BRIGHTS,
    PLAIN,
    POETRY,
    RAIN_MAN,
    RIBBONS,
    SAKE_CUP,
    Card,
    ids_of,
    mask_of,
)
from koikoi_desktop.engine.rules import YAKU_KEYS, PerRules, Rules

_RAIN = 1 << RAIN_MAN
_SAKE = 1 << SAKE_CUP
_CURTAIN = 1 << CURTAIN
_MOON = 1 << MOON
_HANAMI = _CURTAIN | _SAKE
_TSUKIMI = _MOON | _SAKE
_TRIO = POETRY | BLUE

#: Report order of RULES.md R-YAKU-7.4 (the trio bonus last).
ORDER: tuple[str, ...] = (*YAKU_KEYS, "trio")
_RANK = {k: i for i, k in enumerate(ORDER)}
#: The bright yaku ("lights"), largest first.
LIGHT_YAKU: tuple[str, ...] = ("goko", "shiko", "ame_shiko", "sanko")


@dataclass(frozen=True, slots=True)
class Yaku:
    """One scored yaku: its ``key`` (RULES.md §7), ``points`` and the ``cards`` behind it."""

    key: str
    points: int
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Score:
    """The yaku a capture pile holds under a rule set, and their total ``base``."""

    base: int
    yaku: tuple[Yaku, ...]

    def keys(self) -> tuple[str, ...]:
        """The keys of the scored yaku, in report order."""
        return tuple(y.key for y in self.yaku)


#: How many cards of each counting yaku make it (RULES.md §7: Tane 5 animals, Tanzaku 5 ribbons,
#: Kasu 10 plain cards); the scorer and :func:`goals` both read them from here.
TANE_NEED = 5
TANZAKU_NEED = 5
KASU_NEED = 10


@dataclass(frozen=True, slots=True)
class Goal:
    """What one yaku asks for under a rule set, for the players who chase it (the tracker, the
    computer opponents): ``need`` of the ``cards`` (``requires`` among them) make yaku ``key``,
    worth ``value`` when made.

    ``counting`` marks a yaku made by any ``need`` of a large family (Tane, Tanzaku, Kasu) as
    opposed to a named set; ``covers`` lists the yaku whose cards this one takes when both could
    be made under these rules (Akaao for Akatan and Aotan when set yaku absorb their extras;
    Akatan for Tanzaku when a card feeds one yaku only), so its cards count for those.
    Scoring itself stays :func:`score_yaku`'s: a goal says what to collect, never what a pile
    scores.
    """

    key: str
    cards: tuple[int, ...]
    need: int
    value: int
    counting: bool = False
    covers: tuple[str, ...] = ()
    #: Cards that must be among the ``need`` (the Rain Man of Ame-Shikō).
    requires: tuple[int, ...] = ()


def goals(rules: Rules) -> tuple[Goal, ...]:
    """The yaku a player can collect under ``rules``, report order, without those the rules
    switch off (viewing yaku off, or a value of 0).

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> [(g.key, g.need) for g in goals(PRESETS["nintendo"])][:4]
    [('goko', 5), ('shiko', 4), ('ame_shiko', 4), ('sanko', 3)]
    >>> next(g for g in goals(PRESETS["nintendo"]) if g.key == "kasu").cards[:3]
    (3, 4, 7)
    """
    absorb = rules.set_yaku_absorb_extras  # Rules refuses it with one_yaku_per_card
    # A set yaku takes the cards of the counting yaku it is part of, either by absorbing them
    # (set_yaku_absorb_extras) or because a card may feed one yaku only (one_yaku_per_card).
    takes = absorb or rules.one_yaku_per_card
    plain = PLAIN | (_SAKE if rules.sake_cup_is_plain else 0)
    out = [
        Goal("goko", ids_of(BRIGHTS), 5, rules.value_goko),
        Goal("shiko", ids_of(NONRAIN_BRIGHTS), 4, rules.value_shiko),
        Goal("ame_shiko", ids_of(BRIGHTS), 4, rules.value_ame_shiko, requires=(RAIN_MAN,)),
        Goal(
            "sanko",
            ids_of(BRIGHTS if rules.sanko_allows_rain_man else NONRAIN_BRIGHTS),
            3,
            rules.value_sanko,
        ),
    ]
    if rules.viewing_yaku:
        out.append(Goal("hanami", ids_of(_HANAMI), 2, rules.viewing_value))
        out.append(Goal("tsukimi", ids_of(_TSUKIMI), 2, rules.viewing_value))
    out += [
        Goal(
            "inoshikacho",
            ids_of(INOSHIKACHO),
            3,
            rules.value_inoshikacho,
            covers=("tane",) if takes else (),
        ),
        Goal("akatan", ids_of(POETRY), 3, rules.value_akatan, covers=("tanzaku",) if takes else ()),
        Goal("aotan", ids_of(BLUE), 3, rules.value_aotan, covers=("tanzaku",) if takes else ()),
    ]
    if absorb:
        out.append(
            Goal(
                "akaao",
                ids_of(_TRIO),
                6,
                rules.value_akaao,
                covers=("akatan", "aotan", "tanzaku"),
            )
        )
    out += [
        Goal("tane", ids_of(ANIMALS), TANE_NEED, rules.value_tane, counting=True),
        Goal("tanzaku", ids_of(RIBBONS), TANZAKU_NEED, rules.value_tanzaku, counting=True),
        Goal("kasu", ids_of(plain), KASU_NEED, rules.value_kasu, counting=True),
    ]
    return tuple(g for g in out if g.value > 0)


def _as_mask(cards: Iterable[int | Card] | int) -> int:
    if isinstance(cards, int):
        return cards
    m = 0
    for c in cards:
        cid = c.id if isinstance(c, Card) else int(c)
        if not 1 <= cid <= 48:
            raise ValueError(f"There is no card {cid}: card ids run from 1 to 48.")
        m |= 1 << cid
    return m


def _light(p: int, rules: Rules) -> tuple[str, int, int] | None:
    """The best light yaku (key, value, card mask) held in pile mask ``p`` (R-YAKU §7.1, -3)."""
    nb = (p & NONRAIN_BRIGHTS).bit_count()
    rain = bool(p & _RAIN)
    held = p & BRIGHTS
    options: list[tuple[str, int, int]] = []
    if nb == 4 and rain:
        options.append(("goko", rules.value_goko, held))
    if nb == 4 and not rain:
        options.append(("shiko", rules.value_shiko, held))
    if nb == 3 and rain:
        options.append(("ame_shiko", rules.value_ame_shiko, held))
    if nb == 3 and not rain:
        options.append(("sanko", rules.value_sanko, held))
    if rules.sanko_allows_rain_man and held.bit_count() == 3 and rain:
        options.append(("sanko", rules.value_sanko, held))
    if not options:
        return None
    return max(options, key=lambda o: (o[1], -_RANK[o[0]]))


def _score_shared(p: int, rules: Rules) -> list[Yaku]:
    """R-YAKU-1 / R-YAKU-7: every yaku whose condition holds (cards may be shared)."""
    out: list[Yaku] = []
    light = _light(p, rules)
    viewing: list[Yaku] = []
    if rules.viewing_yaku and p & _SAKE and not (rules.viewing_voided_by_rain_man and p & _RAIN):
        v = rules.viewing_value
        if p & _CURTAIN:
            viewing.append(Yaku("hanami", v, ids_of(_HANAMI)))
        if p & _MOON:
            viewing.append(Yaku("tsukimi", v, ids_of(_TSUKIMI)))
    if light is not None and viewing and rules.viewing_excluded_by_light_yaku:
        if light[1] >= sum(y.points for y in viewing):
            viewing = []
        else:
            light = None
    if light is not None:
        out.append(Yaku(light[0], light[1], ids_of(light[2])))
    out.extend(viewing)

    animals = p & ANIMALS
    ribbons = p & RIBBONS
    a = animals.bit_count()
    r = ribbons.bit_count()
    isc = (p & INOSHIKACHO) == INOSHIKACHO
    aka = (p & POETRY) == POETRY
    ao = (p & BLUE) == BLUE
    if rules.set_yaku_absorb_extras:
        if isc:
            out.append(Yaku("inoshikacho", rules.value_inoshikacho + a - 3, ids_of(animals)))
        elif a >= TANE_NEED:
            out.append(Yaku("tane", rules.value_tane + a - TANE_NEED, ids_of(animals)))
        if aka and ao:
            out.append(Yaku("akaao", rules.value_akaao + r - 6, ids_of(ribbons)))
        elif aka:
            out.append(Yaku("akatan", rules.value_akatan + r - 3, ids_of(ribbons)))
        elif ao:
            out.append(Yaku("aotan", rules.value_aotan + r - 3, ids_of(ribbons)))
        elif r >= TANZAKU_NEED:
            out.append(Yaku("tanzaku", rules.value_tanzaku + r - TANZAKU_NEED, ids_of(ribbons)))
    else:
        if isc:
            out.append(Yaku("inoshikacho", rules.value_inoshikacho, ids_of(INOSHIKACHO)))
        if aka:
            out.append(Yaku("akatan", rules.value_akatan, ids_of(POETRY)))
        if ao:
            out.append(Yaku("aotan", rules.value_aotan, ids_of(BLUE)))
        if a >= TANE_NEED:
            out.append(Yaku("tane", rules.value_tane + a - TANE_NEED, ids_of(animals)))
        if r >= TANZAKU_NEED:
            out.append(Yaku("tanzaku", rules.value_tanzaku + r - TANZAKU_NEED, ids_of(ribbons)))
    plain = p & PLAIN
    if rules.sake_cup_is_plain:
        plain |= p & _SAKE
    k = plain.bit_count()
    if k >= KASU_NEED:
        out.append(Yaku("kasu", rules.value_kasu + k - KASU_NEED, ids_of(plain)))
    return out


def _light_instances(p: int, rules: Rules) -> list[tuple[str, int, int]]:
    """R-YAKU-4.1: every light yaku over a specific subset of the held brights."""
    nonrain = ids_of(p & NONRAIN_BRIGHTS)
    rain = bool(p & _RAIN)
    out: list[tuple[str, int, int]] = []
    if len(nonrain) == 4 and rain:
        out.append(("goko", rules.value_goko, p & BRIGHTS))
    if len(nonrain) == 4:
        out.append(("shiko", rules.value_shiko, p & NONRAIN_BRIGHTS))
    for trio in combinations(nonrain, 3):
        m = mask_of(trio)
        if rain:
            out.append(("ame_shiko", rules.value_ame_shiko, m | _RAIN))
        out.append(("sanko", rules.value_sanko, m))
    if rules.sanko_allows_rain_man and rain:
        for pair in combinations(nonrain, 2):
            out.append(("sanko", rules.value_sanko, mask_of(pair) | _RAIN))
    return out


def _score_disjoint(p: int, rules: Rules) -> list[Yaku]:
    """R-YAKU-4: the best assignment in which no card feeds two yaku."""
    lights = _light_instances(p, rules)
    fixed: list[tuple[str, int, int]] = []
    if rules.viewing_yaku and not (rules.viewing_voided_by_rain_man and p & _RAIN):
        if p & _HANAMI == _HANAMI:
            fixed.append(("hanami", rules.viewing_value, _HANAMI))
        if p & _TSUKIMI == _TSUKIMI:
            fixed.append(("tsukimi", rules.viewing_value, _TSUKIMI))
    if p & INOSHIKACHO == INOSHIKACHO:
        fixed.append(("inoshikacho", rules.value_inoshikacho, INOSHIKACHO))
    if p & POETRY == POETRY:
        fixed.append(("akatan", rules.value_akatan, POETRY))
    if p & BLUE == BLUE:
        fixed.append(("aotan", rules.value_aotan, BLUE))

    best: tuple[int, tuple[int, ...], list[tuple[str, int, int]]] | None = None
    light_choices: list[tuple[str, int, int] | None] = [None, *lights]
    n = len(fixed)
    for light in light_choices:
        for bits in range(1 << n):
            chosen: list[tuple[str, int, int]] = [] if light is None else [light]
            used = 0 if light is None else light[2]
            ok = True
            for i in range(n):
                if bits >> i & 1:
                    f = fixed[i]
                    if used & f[2]:
                        ok = False
                        break
                    used |= f[2]
                    chosen.append(f)
            if not ok:
                continue
            is_viewing = any(c[0] in ("hanami", "tsukimi") for c in chosen)
            if light is not None and is_viewing and rules.viewing_excluded_by_light_yaku:
                continue
            free = p & ~used
            chosen.extend(_counting_disjoint(free, rules))
            total = sum(c[1] for c in chosen)
            ranks = tuple(sorted(_RANK[c[0]] for c in chosen))
            if best is None or total > best[0] or (total == best[0] and ranks < best[1]):
                best = (total, ranks, chosen)
    assert best is not None
    return [Yaku(k, v, ids_of(m)) for k, v, m in best[2]]


def _counting_disjoint(free: int, rules: Rules) -> list[tuple[str, int, int]]:
    """Tane / Tanzaku / Kasu over the unassigned cards; the sake cup goes where it pays more."""
    ribbons = free & RIBBONS
    out: list[tuple[str, int, int]] = []
    if ribbons.bit_count() >= TANZAKU_NEED:
        out.append(("tanzaku", rules.value_tanzaku + ribbons.bit_count() - TANZAKU_NEED, ribbons))

    def animal_plain(animals: int, plain: int) -> list[tuple[str, int, int]]:
        res = []
        if animals.bit_count() >= TANE_NEED:
            res.append(("tane", rules.value_tane + animals.bit_count() - TANE_NEED, animals))
        if plain.bit_count() >= KASU_NEED:
            res.append(("kasu", rules.value_kasu + plain.bit_count() - KASU_NEED, plain))
        return res

    animals = free & ANIMALS
    plain = free & PLAIN
    if rules.sake_cup_is_plain and free & _SAKE:
        as_animal = animal_plain(animals, plain)
        as_plain = animal_plain(animals & ~_SAKE, plain | _SAKE)
        if sum(x[1] for x in as_plain) > sum(x[1] for x in as_animal):
            return out + as_plain
        return out + as_animal
    return out + animal_plain(animals, plain)


def _compute(p: int, rules: Rules) -> Score:
    ys = _score_disjoint(p, rules) if rules.one_yaku_per_card else _score_shared(p, rules)
    if rules.trio_bonus is not None and p & _TRIO == _TRIO:
        ys.append(Yaku("trio", rules.trio_bonus, ids_of(_TRIO)))
    ys.sort(key=lambda y: _RANK[y.key])
    return Score(sum(y.points for y in ys), tuple(ys))


def _base_shared(p: int, rules: Rules) -> int:
    """The total of ``_score_shared`` without building Yaku records (the search hot path).

    Used when neither ``one_yaku_per_card`` nor ``viewing_excluded_by_light_yaku`` is on; a
    property test checks it against the full scorer.
    """
    total = 0
    nb = (p & NONRAIN_BRIGHTS).bit_count()
    if nb >= 3 or (rules.sanko_allows_rain_man and nb == 2):
        light = _light(p, rules)
        if light is not None:
            total = light[1]
    if p & _SAKE and rules.viewing_yaku and not (rules.viewing_voided_by_rain_man and p & _RAIN):
        if p & _CURTAIN:
            total += rules.viewing_value
        if p & _MOON:
            total += rules.viewing_value
    a = (p & ANIMALS).bit_count()
    r = (p & RIBBONS).bit_count()
    isc = (p & INOSHIKACHO) == INOSHIKACHO
    aka = (p & POETRY) == POETRY
    ao = (p & BLUE) == BLUE
    if rules.set_yaku_absorb_extras:
        if isc:
            total += rules.value_inoshikacho + a - 3
        elif a >= TANE_NEED:
            total += rules.value_tane + a - TANE_NEED
        if aka and ao:
            total += rules.value_akaao + r - 6
        elif aka:
            total += rules.value_akatan + r - 3
        elif ao:
            total += rules.value_aotan + r - 3
        elif r >= TANZAKU_NEED:
            total += rules.value_tanzaku + r - TANZAKU_NEED
    else:
        if isc:
            total += rules.value_inoshikacho
        if aka:
            total += rules.value_akatan
        if ao:
            total += rules.value_aotan
        if a >= TANE_NEED:
            total += rules.value_tane + a - TANE_NEED
        if r >= TANZAKU_NEED:
            total += rules.value_tanzaku + r - TANZAKU_NEED
    k = (p & PLAIN).bit_count()
    if rules.sake_cup_is_plain and p & _SAKE:
        k += 1
    if k >= KASU_NEED:
        total += rules.value_kasu + k - KASU_NEED
    if rules.trio_bonus is not None and p & _TRIO == _TRIO:
        total += rules.trio_bonus
    return total


def _base_disjoint(p: int, rules: Rules) -> int | None:
    """R-YAKU-4's total when no fixed-card yaku can be formed (the common case): then only the
    counting yaku remain. None when the full assignment search is needed."""
    if (p & NONRAIN_BRIGHTS).bit_count() >= 3 or (
        rules.sanko_allows_rain_man and p & _RAIN and (p & NONRAIN_BRIGHTS).bit_count() >= 2
    ):
        return None
    if (
        p & _HANAMI == _HANAMI
        or p & _TSUKIMI == _TSUKIMI
        or p & INOSHIKACHO == INOSHIKACHO
        or p & POETRY == POETRY
        or p & BLUE == BLUE
    ):
        return None
    total = sum(c[1] for c in _counting_disjoint(p, rules))
    if rules.trio_bonus is not None and p & _TRIO == _TRIO:
        total += rules.trio_bonus
    return total


#: Memo sizes of :class:`Scorer` before it starts afresh. Decision (issue 9 soak): an Expert
#: decision adds up to ~23k bases and ~1k scores and repeats across decisions are rare, so these
#: caps keep the search's speed (Expert playouts per decision unchanged within noise), while in
#: the game's process (an Intermediate adds ~2.3k bases and ~110 scores a match) the memos stop
#: growing early in a session: the former 400k / 100k kept memory climbing for 100+ matches.
BASE_CACHE_MAX = 25_000
SCORE_CACHE_MAX = 5_000


class Scorer:
    """A memoising scorer for one rule set (capture piles repeat a lot in play and search)."""

    __slots__ = ("_bases", "_cache", "_fast", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._cache: dict[int, Score] = {}
        self._bases: dict[int, int] = {}
        self._fast = not (rules.one_yaku_per_card or rules.viewing_excluded_by_light_yaku)

    def score(self, p: int) -> Score:
        """The Score of pile mask ``p``."""
        s = self._cache.get(p)
        if s is None:
            if len(self._cache) > SCORE_CACHE_MAX:
                self._cache.clear()
            s = self._cache[p] = _compute(p, self.rules)
        return s

    def base(self, p: int) -> int:
        """The yaku total of pile mask ``p``."""
        b = self._bases.get(p)
        if b is None:
            if len(self._bases) > BASE_CACHE_MAX:
                self._bases.clear()
            if self._fast:
                b = _base_shared(p, self.rules)
            else:
                quick = _base_disjoint(p, self.rules) if self.rules.one_yaku_per_card else None
                b = self.score(p).base if quick is None else quick
            self._bases[p] = b
        return b


_SCORERS: PerRules[Scorer] = PerRules(Scorer, limit=64)


def scorer_for(rules: Rules) -> Scorer:
    """The shared memoising Scorer of a rule set (one per equal rule set, :class:`PerRules`)."""
    return _SCORERS.get(rules)


def score_yaku(cards: Iterable[int | Card] | int, rules: Rules) -> Score:
    """Score a capture pile (ids, Cards or a mask) under ``rules`` (RULES.md §7).

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> score_yaku([2, 6, 10, 22, 34, 38], PRESETS["nintendo"]).keys()
    ('akaao',)
    >>> score_yaku([9, 29, 33], PRESETS["seed-003"]).base   # one sake cup: one viewing yaku
    3
    """
    return scorer_for(rules).score(_as_mask(cards))


def factors(
    base: int,
    rules: Rules,
    *,
    winner_calls: int,
    loser_calls: int,
    field_brights: int = 0,
) -> list[tuple[str, int]]:
    """The multipliers of RULES.md §10 that apply, as (name, factor) pairs, in table order."""
    out: list[tuple[str, int]] = []
    if rules.seven_plus_double and base >= 7:
        out.append(("seven_plus", 2))
    if rules.koi_multiplier == "double_per_call" and winner_calls:
        out.append(("koi_calls", 2**winner_calls))
    elif rules.koi_multiplier == "linear_total_calls" and winner_calls + loser_calls:
        out.append(("koi_calls", 1 + winner_calls + loser_calls))
    if rules.opponent_koi_double and loser_calls >= 1:
        out.append(("opponent_koi", 2))
    if rules.bright_field_multiplier and field_brights:
        out.append(("bright_field", 1 + field_brights))
    return out


def payout(
    base: int,
    rules: Rules,
    *,
    winner_calls: int,
    loser_calls: int,
    field_brights: int = 0,
) -> int:
    """The final score ``base × M`` of a round won with ``base`` (RULES.md §10, R-MULT).

    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> payout(7, PRESETS["nintendo"], winner_calls=0, loser_calls=1)
    28
    >>> payout(5, PRESETS["seed-003"], winner_calls=2, loser_calls=1)
    20
    """
    total = base
    for _, f in factors(
        base,
        rules,
        winner_calls=winner_calls,
        loser_calls=loser_calls,
        field_brights=field_brights,
    ):
        total *= f
    return total


@dataclass(frozen=True, slots=True)
class KoikoiOdds:
    """What ``seat``'s stop-or-koi-koi decision puts at stake (RULES.md §8, §10), for the
    koi-koi panel and the computer players alike.

    ``yaku`` and ``base``: what the seat's stop scores (its pile, plus its Gaji sweep where it
    owns one); ``factors``: the multipliers stopping now
    applies, as (name, factor); ``payout``: what stopping now scores (the stop value).
    ``opponent_base``: the opponent's yaku total now (with his Gaji sweep); ``opponent_payout``:
    what he would score by stopping with it after this seat calls koi-koi (0 while he has no
    yaku). ``hand`` and ``opponent_hand``: cards left in hand; ``koikoi_allowed``: whether a
    call is possible (cards in hand and the rule set's call limit not reached, R-KOI-7).
    """

    seat: int
    yaku: tuple[Yaku, ...]
    base: int
    factors: tuple[tuple[str, int], ...]
    payout: int
    opponent_base: int
    opponent_payout: int
    hand: int
    opponent_hand: int
    koikoi_allowed: bool


def gaji_sweep(field: int, owner: int | None, month: int) -> tuple[int, int]:
    """The field cards each seat's Gaji sweep (R-TURN-1b, R-END-4) would add to its capture
    pile if the round ended now: the Gaji owner's month on the field, nothing for the other."""
    out = [0, 0]
    if owner is not None:
        out[owner] = field & MONTH_MASK[month]
    return out[0], out[1]


def koikoi_odds(
    rules: Rules,
    *,
    seat: int,
    caps: tuple[int, int],
    calls: tuple[int, int],
    field_brights: int,
    hand_sizes: tuple[int, int],
    sweep: tuple[int, int] = (0, 0),
) -> KoikoiOdds:
    """The :class:`KoikoiOdds` of ``seat`` from the public facts of a round (capture pile
    masks, calls per seat, brights dealt to the field, hand sizes, and the field cards each
    seat's Gaji sweep adds to its pile when the round ends, :func:`gaji_sweep`: a stop is scored
    after the sweep, R-END-4). ``RoundState.koikoi_odds`` and ``PlayerView.koikoi_odds`` call
    this.

    >>> from koikoi_desktop.engine.cards import mask_of
    >>> from koikoi_desktop.engine.rules import PRESETS
    >>> caps = (mask_of([21, 25, 37]), mask_of([1, 9, 29]))
    >>> o = koikoi_odds(PRESETS["nintendo"], seat=0, caps=caps, calls=(0, 1), field_brights=0,
    ...                 hand_sizes=(3, 4))
    >>> o.base, o.factors, o.payout, o.opponent_base, o.opponent_payout, o.koikoi_allowed
    (5, (('opponent_koi', 2),), 10, 5, 10, False)
    """
    if seat not in (0, 1):
        raise ValueError("Players are 0 and 1.")
    opp = 1 - seat
    scorer = scorer_for(rules)
    sc = scorer.score(caps[seat] | sweep[seat])
    fs = tuple(
        factors(
            sc.base,
            rules,
            winner_calls=calls[seat],
            loser_calls=calls[opp],
            field_brights=field_brights,
        )
    )
    pay = sc.base
    for _, f in fs:
        pay *= f
    ob = scorer.base(caps[opp] | sweep[opp])
    theirs = (
        payout(
            ob,
            rules,
            winner_calls=calls[opp],
            loser_calls=calls[seat] + 1,
            field_brights=field_brights,
        )
        if ob > 0
        else 0
    )
    limit = rules.koikoi_limit
    allowed = hand_sizes[seat] > 0 and (limit is None or calls[0] + calls[1] < limit)
    return KoikoiOdds(
        seat=seat,
        yaku=sc.yaku,
        base=sc.base,
        factors=fs,
        payout=pay,
        opponent_base=ob,
        opponent_payout=theirs,
        hand=hand_sizes[seat],
        opponent_hand=hand_sizes[opp],
        koikoi_allowed=allowed,
    )
