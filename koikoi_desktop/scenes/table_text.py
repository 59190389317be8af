"""Words for the table: card and yaku names, event descriptions for the log and banners."""

from __future__ import annotations

from typing import Any

from koikoi_desktop.ui import gfx


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


def factor_text(name: str, factor: int) -> str:
    return gfx.tr(f"ui.factor.{name}", f=factor)


def end_text(reason: str) -> str:
    return gfx.tr(f"ui.end.{reason}")


def describe(ev: Any, names: tuple[str, str], rules: Any) -> str | None:
    """One line for the move log / banner, or None for events not worth a line."""
    k = ev.kind
    who = names[ev.player] if ev.player in (0, 1) else ""
    if k in ("play", "gaji"):
        if ev.cards:
            return gfx.tr(
                "ui.log.capture", name=who, card=card_name(ev.card), cards=cards_text(ev.cards)
            )
        return gfx.tr("ui.log.play", name=who, card=card_name(ev.card))
    if k == "discard":
        return gfx.tr("ui.log.discard", name=who, card=card_name(ev.card))
    if k == "draw":
        if ev.cards:
            return gfx.tr(
                "ui.log.draw_capture", name=who, card=card_name(ev.card), cards=cards_text(ev.cards)
            )
        return gfx.tr("ui.log.draw", name=who, card=card_name(ev.card))
    if k == "draw_pending":
        return gfx.tr("ui.log.draw_pending", name=who, card=card_name(ev.card))
    if k == "flip":
        return gfx.tr("ui.log.flip", card=card_name(ev.card))
    if k == "sweep":
        return gfx.tr("ui.log.sweep", name=who, cards=cards_text(ev.cards))
    if k == "yaku":
        keys = [x for x in ev.info.split(",") if x]
        return gfx.tr(
            "ui.log.yaku", name=who, yaku=", ".join(yaku_name(x) for x in keys), base=ev.value
        )
    if k == "koikoi":
        return gfx.tr(
            "ui.log.koikoi", name=who, word=getattr(rules, "koi_word", "Koi-koi"), n=ev.value
        )
    if k == "stop":
        key = "ui.log.forced_stop" if ev.info == "forced" else "ui.log.stop"
        return gfx.tr(key, name=who, word=getattr(rules, "stop_word", "Stop"))
    if k == "instant_win":
        return gfx.tr(
            "ui.log.instant", name=who, kind=gfx.tr(f"ui.instant.{ev.info}"), value=ev.value
        )
    if k == "redeal":
        return gfx.tr("ui.log.redeal")
    if k == "exchange":
        return gfx.tr("ui.log.exchange" if ev.value else "ui.log.keep_hands", name=who)
    if k == "keep":
        return gfx.tr("ui.log.declined", name=who)
    if k == "round_over":
        if ev.player in (0, 1):
            return gfx.tr("ui.log.round_won", name=who, final=ev.value)
        return gfx.tr("ui.log.round_no_winner", reason=end_text(ev.info))
    return None
