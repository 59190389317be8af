"""Words for the table: card and yaku names, event descriptions for the log and banners."""

from __future__ import annotations

import re
from typing import Any

from koikoi_desktop import engine
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


def illegal_text(exc: engine.IllegalAction) -> str:
    """An engine IllegalAction in the player's language: ``engine.illegal.<key>`` with card
    names for its ``card`` / ``target`` / ``options`` ids (every IllegalAction has a key)."""
    return gfx.tr(
        f"engine.illegal.{exc.key}", **{k: _card_param(v) for k, v in exc.params.items()}
    )


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


def describe(ev: engine.Event, names: tuple[str, str], rules: Any) -> str | None:
    """One line for the move log / banner, or None for events not worth a line."""
    e = engine
    if isinstance(ev, (e.Played, e.GajiPaired)):
        who = names[ev.player]
        if ev.captured:
            return gfx.tr(
                "ui.log.capture", name=who, card=card_name(ev.card), cards=cards_text(ev.captured)
            )
        return gfx.tr("ui.log.play", name=who, card=card_name(ev.card))
    if isinstance(ev, e.Discarded):
        return gfx.tr("ui.log.discard", name=names[ev.player], card=card_name(ev.card))
    if isinstance(ev, e.Drew):
        who = names[ev.player]
        if ev.captured:
            took = cards_text(ev.captured)
            return gfx.tr("ui.log.draw_capture", name=who, card=card_name(ev.card), cards=took)
        return gfx.tr("ui.log.draw", name=who, card=card_name(ev.card))
    if isinstance(ev, e.DrawPending):
        return gfx.tr("ui.log.draw_pending", name=names[ev.player], card=card_name(ev.card))
    if isinstance(ev, e.Flipped):
        return gfx.tr("ui.log.flip", card=card_name(ev.card))
    if isinstance(ev, e.Swept):
        return gfx.tr("ui.log.sweep", name=names[ev.player], cards=cards_text(ev.cards))
    if isinstance(ev, e.YakuMade):
        return gfx.tr(
            "ui.log.yaku",
            name=names[ev.player],
            yaku=", ".join(yaku_name(x) for x in ev.keys),
            base=ev.base,
        )
    if isinstance(ev, e.KoiKoiCalled):
        return gfx.tr("ui.log.koikoi", name=names[ev.player], word=koi_word(rules), n=ev.calls)
    if isinstance(ev, e.Stopped):
        key = "ui.log.forced_stop" if ev.forced else "ui.log.stop"
        return gfx.tr(key, name=names[ev.player], word=stop_word(rules))
    if isinstance(ev, e.InstantWon):
        kind = gfx.tr(f"ui.instant.{ev.instant}")
        return gfx.tr("ui.log.instant", name=names[ev.player], kind=kind, value=ev.value)
    if isinstance(ev, e.Redealt):
        return gfx.tr("ui.log.redeal")
    if isinstance(ev, e.ExchangeDecided):
        key = "ui.log.exchange" if ev.exchanged else "ui.log.keep_hands"
        return gfx.tr(key, name=names[ev.player])
    if isinstance(ev, e.InstantWinDeclined):
        return gfx.tr("ui.log.declined", name=names[ev.player])
    if isinstance(ev, e.RoundOver):
        if ev.winner is not None:
            return gfx.tr("ui.log.round_won", name=names[ev.winner], final=ev.final)
        return gfx.tr("ui.log.round_no_winner", reason=end_text(ev.reason))
    return None
