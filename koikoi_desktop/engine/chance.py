"""Chance as recorded steps: where a match's shuffles come from, and how anyone checks them.

Every chance outcome of a match is a step of its history (open_spiel's chance nodes): the
first-dealer draw, each deal's deck and each redeal's deck (R-DEAL-3). A match record lists them,
so replaying a record needs no generator state. Where new chance is drawn it comes from a
stream named by the match seed, the step and its index — never from "how many shuffles happened
so far" — so no two steps share a stream, and a match rebuilt from its record at any cut plays
on exactly as the uninterrupted match would.

* :func:`stream` — the generator of one named step (the first-dealer draw's);
* :func:`deck` — deal ``n``'s ``k``-th deck (``k`` = 1 for the deal, 2 and on for its redeals);
* :func:`first_dealer_stream` — the first-dealer draw's own stream (its cards go back: the deal
  shuffles all 48 from another stream);
* :func:`commitment` — a short public fingerprint of the seed and the rules, shown when the match
  starts, while the seed stays hidden; when the match ends the seed is revealed and
  :func:`koikoi_desktop.engine.notation.verify_deals` recomputes the commitment and every deck.

A commitment binds the deals to the seed fixed before the first card: it proves the deals were
not changed during the match (nobody, the program included, chose a deck after seeing a move).
It cannot prove the seed itself was drawn fairly, and anyone who reads the saved match in the
data folder can read the seed while the match is played.

>>> d1 = deck(42, 1, 1)
>>> sorted(d1) == list(range(1, 49)), d1 == deck(42, 1, 1), d1 == deck(42, 2, 1)
(True, True, False)
>>> from koikoi_desktop.engine.rules import PRESETS
>>> c = commitment(42, PRESETS["nintendo"])
>>> len(c), c == commitment(43, PRESETS["nintendo"]), c == commitment(42, PRESETS["seed-000"])
(12, False, False)
"""

from __future__ import annotations

import hashlib
import json
import random
import struct

from koikoi_desktop.engine.rules import Rules

#: The version of the stream naming below; a change of it is a change of every future deck, so
#: it is part of every stream's name (and of the record's format line).
STREAMS = "koikoi-chance/1"
#: How many hex digits of the SHA-256 a commitment shows (48 bits: short enough to read aloud,
#: long enough that no second seed of the same rules is found by chance).
COMMITMENT_DIGITS = 12
#: New seeds are drawn below this (the table's opponents add their seat to it and need a
#: signed 64-bit value); 2**62 seeds are far too many to find one from its commitment.
SEED_BOUND = 1 << 62


def stream(seed: int, step: str, *index: int) -> random.Random:
    """The random stream of one chance step: ``seed``, the step's name and its index.

    >>> stream(7, "deal", 1, 1).random() == stream(7, "deal", 1, 1).random()
    True
    >>> stream(7, "deal", 1, 1).random() == stream(7, "deal", 1, 2).random()
    False
    """
    digest = hashlib.sha256(_name(seed, step, *index)).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _name(seed: int, step: str, *index: int) -> bytes:
    """The name of a chance step: ``koikoi-chance/1|<seed>|<step>|<i>.<j>`` in ASCII."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("A chance stream needs an integer seed.")
    return f"{STREAMS}|{seed}|{step}|{'.'.join(str(i) for i in index)}".encode("ascii")


def deck(seed: int, deal: int, draw: int) -> tuple[int, ...]:
    """The deck order (48 ids, top first) of deal ``deal`` (1-based, counting every round of
    the match) and its ``draw``-th shuffle (1: the deal; 2, 3 …: its redeals).

    Written so any program can recompute it: SHAKE-256 of the step's name
    (``koikoi-chance/1|<seed>|deal|<deal>.<draw>``, ASCII) read as big-endian 16-bit numbers
    drives a Fisher-Yates shuffle of 1..48 from the last position down, each swap index drawn
    without bias by rejection (a number at or above the largest multiple of ``i + 1`` below
    65536 is skipped). It costs what one ``random.shuffle`` does.
    """
    if deal < 1 or draw < 1:
        raise ValueError("Deals and their shuffles are counted from 1.")
    name = _name(seed, "deal", deal, draw)
    size = 128
    values = struct.unpack(f">{size}H", hashlib.shake_256(name).digest(2 * size))
    order = list(range(1, 49))
    k = 0
    for i in range(47, 0, -1):
        n = i + 1
        limit = 65536 - 65536 % n
        while True:
            if k == size:  # far beyond what 47 swaps need (each skips with p < 1/1300)
                size *= 2
                values = struct.unpack(f">{size}H", hashlib.shake_256(name).digest(2 * size))
            v = values[k]
            k += 1
            if v < limit:
                break
        j = v % n
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def first_dealer_stream(seed: int) -> random.Random:
    """The stream the first-dealer draw (R-SETUP-2) comes from."""
    return stream(seed, "first-dealer", 1)


def rules_text(rules: Rules) -> str:
    """The rules as the record writes them: canonical JSON (sorted keys, no spaces)."""
    return json.dumps(rules.model_dump(), sort_keys=True, separators=(",", ":"))


def commitment(seed: int, rules: Rules) -> str:
    """The first 12 hex digits of SHA-256 over the stream version, the seed and the rules."""
    text = f"{STREAMS}\n{seed}\n{rules_text(rules)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:COMMITMENT_DIGITS]
