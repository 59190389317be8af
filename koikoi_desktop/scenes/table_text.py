"""Words for the table: card and yaku names, event descriptions for the log and banners."""

from __future__ import annotations

import re
from typing import Any

from koikoi_desktop.ui import gfx

INSTANT_KINDS = ("teshi", "kuttsuki", "double_tenho")


def card_name(card_id: int) -> str:
    try:
        from koikoi_desktop import i18n

        name = i18n.card_name(card_id)
        if name and not name.startswith("card."):
            return str(name)
    except Exception:
        pass
    return f"#{card_id}"


def yaku_name(key: str) -> str:
    try:
        from koikoi_desktop import i18n

        name = i18n.yaku_name(key)
        if name and not name.startswith("yaku."):
            return str(name)
    except Exception:
        pass
    return key


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    return ", ".join(card_name(c) for c in cards)


def _catalog(key: str, **fmt: Any) -> str | None:
    """The catalog's text for ``key``, or None when no catalog has it."""
    text = gfx.tr(key, **fmt)
    return None if text == key else text


def _card_param(value: Any) -> str:
    if isinstance(value, int) and 1 <= value <= 48:
        return card_name(value)
    if isinstance(value, (tuple, list)):
        return ", ".join(_card_param(v) for v in value)
    return str(value)


def illegal_text(exc: Exception) -> str:
    """An engine IllegalAction in the player's language: ``engine.illegal.<key>`` with card
    names for its ``card`` / ``target`` / ``options`` ids. Without a key (or a catalog entry)
    the engine's English sentence, with "card 12" replaced by the card's name."""
    key = getattr(exc, "key", "") or ""
    params = getattr(exc, "params", {}) or {}
    if key:
        text = _catalog(f"engine.illegal.{key}", **{k: _card_param(v) for k, v in params.items()})
        if text is not None:
            return text
    return re.sub(r"\b[Cc]ard (\d{1,2})\b", lambda m: card_name(int(m.group(1))), str(exc))


def _reason_param(name: str, value: Any) -> Any:
    if name in ("card", "hand", "drawn"):
        return _card_param(value)
    if name in ("yaku", "instant") and isinstance(value, str):
        if value in INSTANT_KINDS:
            return gfx.tr(f"ui.instant.{value}")
        if value == "lights":
            return gfx.tr("kind.bright.plural")
        return yaku_name(value)
    if name == "month" and isinstance(value, int) and 1 <= value <= 12:
        return gfx.tr(f"month.{value}.plant")
    return value


def reason_text(why: str) -> str:
    """A computer opponent's reason (``ui.thinker.Why``) in the player's language; its English
    text when it carries no key or the catalogs lack ``ai.reason.<key>``."""
    key = getattr(why, "key", "") or ""
    if key:
        params = getattr(why, "params", {}) or {}
        text = _catalog(
            f"ai.reason.{key}", **{k: _reason_param(k, v) for k, v in params.items()}
        )
        if text is not None:
            return text
    return str(why)


def _word(kind: str, word: str, fallback: str) -> str:
    """A rulebook's call word ("Agari", "Shobu", "Koi") in the player's language: catalog key
    ``ui.word.<kind>.<word, lower case, letters only>``; a word the catalogs do not know (a
    custom rule) is shown as the rules spell it."""
    word = word or fallback
    slug = re.sub(r"[^a-z]", "", word.lower())
    return _catalog(f"ui.word.{kind}.{slug}") or word


def stop_word(rules: Any) -> str:
    return _word("stop", str(getattr(rules, "stop_word", "") or ""), "Stop")


def koi_word(rules: Any) -> str:
    return _word("koi", str(getattr(rules, "koi_word", "") or ""), "Koi-koi")


def factor_text(name: str, factor: int) -> str:
    return gfx.tr(f"ui.factor.{name}", f=factor)


def end_text(reason: str) -> str:
    return gfx.tr(f"ui.end.{reason}")


def amount_text(n: int, unit: str) -> str:
    """A number of coins or points with its noun in the form the number asks for ("1 coin",
    "21 монета", "5 bodov"); ``unit`` is the rules' unit, ``"coins"`` or ``"points"``."""
    return gfx.tr("ui.count.coins" if unit == "coins" else "ui.count.points", n=n)


def describe(ev: Any, names: tuple[str, str], rules: Any) -> str | None:
    """One line for the move log / banner, or None for events not worth a line.

    A sentence about the player is built from its second-person entry ("You play …"), one
    about the computer or a named player from the third-person one ("Akiko plays …"): see
    :func:`koikoi_desktop.i18n.t_person`."""
    k = ev.kind
    who = names[ev.player] if ev.player in (0, 1) else ""

    def say(key: str, **fmt: Any) -> str:
        return gfx.tr_person(key, who, **fmt)

    if k in ("play", "gaji"):
        if ev.cards:
            return say("ui.log.capture", card=card_name(ev.card), cards=cards_text(ev.cards))
        return say("ui.log.play", card=card_name(ev.card))
    if k == "discard":
        return say("ui.log.discard", card=card_name(ev.card))
    if k == "draw":
        if ev.cards:
            return say("ui.log.draw_capture", card=card_name(ev.card), cards=cards_text(ev.cards))
        return say("ui.log.draw", card=card_name(ev.card))
    if k == "draw_pending":
        return say("ui.log.draw_pending", card=card_name(ev.card))
    if k == "flip":
        return gfx.tr("ui.log.flip", card=card_name(ev.card))
    if k == "sweep":
        return say("ui.log.sweep", cards=cards_text(ev.cards))
    if k == "yaku":
        keys = [x for x in ev.info.split(",") if x]
        return gfx.tr(
            "ui.log.yaku", name=who, yaku=", ".join(yaku_name(x) for x in keys), base=ev.value
        )
    if k == "koikoi":
        return gfx.tr(
            "ui.log.koikoi", name=who, word=koi_word(rules), n=ev.value
        )
    if k == "stop":
        key = "ui.log.forced_stop" if ev.info == "forced" else "ui.log.stop"
        return say(key, word=stop_word(rules))
    if k == "instant_win":
        return say("ui.log.instant", kind=gfx.tr(f"ui.instant.{ev.info}"), value=ev.value)
    if k == "redeal":
        return gfx.tr("ui.log.redeal")
    if k == "exchange":
        return say("ui.log.exchange" if ev.value else "ui.log.keep_hands")
    if k == "keep":
        return say("ui.log.declined")
    if k == "round_over":
        if ev.player in (0, 1):
            return say("ui.log.round_won", final=ev.value)
        return gfx.tr("ui.log.round_no_winner", reason=end_text(ev.info))
    return None
