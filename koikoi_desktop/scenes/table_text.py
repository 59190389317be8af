"""Words for the table: event descriptions for the log and banners, illegal-move and computer
reasons, the call words (card and yaku names come from :mod:`koikoi_desktop.names`)."""

from __future__ import annotations

import re
from typing import Any

from koikoi_desktop import engine, i18n
from koikoi_desktop.names import card_name, cards_text, end_text, factor_text, yaku_name

__all__ = [
    "card_name",
    "cards_text",
    "describe",
    "end_text",
    "factor_text",
    "illegal_text",
    "koi_word",
    "reason_text",
    "stop_word",
    "yaku_name",
]

INSTANT_KINDS = ("teshi", "kuttsuki", "double_tenho")


def _catalog(key: str, **fmt: Any) -> str | None:
    """The catalog's text for ``key``, or None when no catalog has it."""
    text = i18n.t(key, **fmt)
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
    return i18n.t(
        f"engine.illegal.{exc.key}", **{k: _card_param(v) for k, v in exc.params.items()}
    )


def _reason_param(name: str, value: Any) -> Any:
    if name in ("card", "hand", "drawn"):
        return _card_param(value)
    if name in ("yaku", "instant") and isinstance(value, str):
        if value in INSTANT_KINDS:
            return i18n.t(f"ui.instant.{value}")
        if value == "lights":
            return i18n.t("kind.bright.plural")
        return yaku_name(value)
    if name == "month" and isinstance(value, int) and 1 <= value <= 12:
        return i18n.t(f"month.{value}.plant")
    return value


def reason_text(why: str) -> str:
    """A computer opponent's reason (``ai.worker.Why``) in the player's language; its English
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


def describe(ev: engine.Event, names: tuple[str, str], rules: Any) -> str | None:
    """One line for the move log / banner, or None for events not worth a line."""
    e = engine
    if isinstance(ev, (e.Played, e.GajiPaired)):
        who = names[ev.player]
        if ev.captured:
            return i18n.t(
                "ui.log.capture", name=who, card=card_name(ev.card), cards=cards_text(ev.captured)
            )
        return i18n.t("ui.log.play", name=who, card=card_name(ev.card))
    if isinstance(ev, e.Discarded):
        return i18n.t("ui.log.discard", name=names[ev.player], card=card_name(ev.card))
    if isinstance(ev, e.Drew):
        who = names[ev.player]
        if ev.captured:
            took = cards_text(ev.captured)
            return i18n.t("ui.log.draw_capture", name=who, card=card_name(ev.card), cards=took)
        return i18n.t("ui.log.draw", name=who, card=card_name(ev.card))
    if isinstance(ev, e.DrawPending):
        return i18n.t("ui.log.draw_pending", name=names[ev.player], card=card_name(ev.card))
    if isinstance(ev, e.Flipped):
        return i18n.t("ui.log.flip", card=card_name(ev.card))
    if isinstance(ev, e.Swept):
        return i18n.t("ui.log.sweep", name=names[ev.player], cards=cards_text(ev.cards))
    if isinstance(ev, e.YakuMade):
        return i18n.t(
            "ui.log.yaku",
            name=names[ev.player],
            yaku=", ".join(yaku_name(x) for x in ev.keys),
            base=ev.base,
        )
    if isinstance(ev, e.KoiKoiCalled):
        return i18n.t("ui.log.koikoi", name=names[ev.player], word=koi_word(rules), n=ev.calls)
    if isinstance(ev, e.Stopped):
        key = "ui.log.forced_stop" if ev.forced else "ui.log.stop"
        return i18n.t(key, name=names[ev.player], word=stop_word(rules))
    if isinstance(ev, e.InstantWon):
        kind = i18n.t(f"ui.instant.{ev.instant}")
        return i18n.t("ui.log.instant", name=names[ev.player], kind=kind, value=ev.value)
    if isinstance(ev, e.Redealt):
        return i18n.t("ui.log.redeal")
    if isinstance(ev, e.ExchangeDecided):
        key = "ui.log.exchange" if ev.exchanged else "ui.log.keep_hands"
        return i18n.t(key, name=names[ev.player])
    if isinstance(ev, e.InstantWinDeclined):
        return i18n.t("ui.log.declined", name=names[ev.player])
    if isinstance(ev, e.RoundOver):
        if ev.winner is not None:
            return i18n.t("ui.log.round_won", name=names[ev.winner], final=ev.final)
        return i18n.t("ui.log.round_no_winner", reason=end_text(ev.reason))
    return None
