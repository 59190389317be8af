"""Prompts on the table: every decision the rules can ask, with the numbers to decide by.

The koi-koi decision shows the yaku just made (with their cards), "Stop now: N" with its
breakdown (engine ``factors`` / ``payout``), what the opponent would score by stopping after a
koi-koi, and the cards left in both hands. Also: the first dealer (the draw, age or birth month,
with the rulebook's sakura sentence for a tie), an instant win to declare, the hand exchange
(both hands stay hidden until it is decided), the hot-seat curtain, and "quit the match?".
Computer seats never get a prompt; with no human at the table a prompt continues by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from koikoi_desktop import engine
from koikoi_desktop.scenes.table_text import (
    card_name,
    factor_text,
    koi_word,
    stop_word,
    yaku_name,
)
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.input import Intent
from koikoi_desktop.ui.widgets import Button, FocusGroup


@dataclass
class Prompt:
    key: Any
    title: str
    lines: list[str]
    buttons: list[tuple[str, Callable[[], None], bool]]
    cards: list[int] = field(default_factory=list)
    opaque: bool = False
    auto: float | None = None
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    widgets: list[Button] = field(default_factory=list)
    focus: FocusGroup = field(default_factory=FocusGroup)


class PromptsMixin:
    """Mixed into TableScene (which provides match, state, names, app, apply, ...)."""

    prompt: Prompt | None
    prompt_key: Any
    app: Any
    match: Any
    names: tuple[str, str]
    rules: Any
    viewer: int
    curtain: bool
    humans: list[int]
    first: Any
    lay: Any
    director: Any
    autoplay: bool
    opponents: dict[int, Any]
    declined: Any = None

    def init_prompts(self) -> None:
        self.prompt = None
        self.prompt_key = None
        self.declined = None

    # ------------------------------------------------------------------ plumbing
    def open_prompt(self, prompt: Prompt) -> None:
        if not self.humans and prompt.auto is None:
            prompt.auto = 1.2
        self.prompt = prompt
        self.prompt_key = prompt.key
        self.layout_prompt()

    def close_prompt(self) -> None:
        self.prompt = None

    def layout_prompt(self) -> None:
        p = self.prompt
        if p is None:
            return
        lay = self.lay
        s = lay.scale
        w = min(int(640 * s), lay.main.w - 40)
        fs = theme.font_px(19, s)
        line_h = int(fs * 1.45)
        wrapped = sum(max(1, len(gfx.wrap(t, fs, w - 40))) for t in p.lines)
        ch = int(lay.card[1] * 0.8) if p.cards else 0
        h = int(70 * s) + wrapped * line_h + (ch + int(16 * s) if ch else 0) + int(70 * s)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = lay.field_band.center if not p.opaque else lay.main.center
        rect.clamp_ip(lay.main)
        p.rect = rect
        bw = min(int(260 * s), (w - 40 - 12 * (len(p.buttons) - 1)) // max(1, len(p.buttons)))
        bh = int(46 * s)
        total = len(p.buttons) * bw + (len(p.buttons) - 1) * 12
        x = rect.centerx - total // 2
        p.widgets = []
        for label, cb, primary in p.buttons:
            p.widgets.append(
                Button(
                    label,
                    cb,
                    pygame.Rect(x, rect.bottom - bh - int(16 * s), bw, bh),
                    primary=primary,
                )
            )
            x += bw + 12
        p.focus = FocusGroup(p.widgets)
        p.focus.keyboard_used = True

    def prompt_handle(self, it: Intent) -> None:
        p = self.prompt
        if p is None:
            return
        if it.kind in ("left", "right"):
            p.focus.move(1 if it.kind == "right" else -1)
            return
        if it.kind == "back" and not p.opaque and p.key and p.key[0] in ("quit",):
            self.close_prompt()
            return
        p.focus.handle(it)

    def update_prompt(self, dt: float) -> None:
        p = self.prompt
        if p is None or p.auto is None:
            return
        p.auto -= dt
        if p.auto <= 0 and p.widgets:
            p.widgets[-1].activate() if p.key[0] != "decide" else p.widgets[0].activate()

    # ------------------------------------------------------------------ prompts
    def show_first_dealer(self) -> None:
        fd = self.first
        name = self.names[fd.dealer]
        lines: list[str] = []
        cards: list[int] = []
        if fd.method == "draw":
            for i, (a, b) in enumerate(fd.draws):
                lines.append(
                    gfx.tr(
                        "ui.first.draw",
                        a=self.names[0],
                        ca=card_name(a),
                        ma=engine.month_of(a),
                        b=self.names[1],
                        cb=card_name(b),
                        mb=engine.month_of(b),
                    )
                )
                if i < len(fd.draws) - 1:
                    lines.append(gfx.tr("ui.first.same_month"))
            cards = list(fd.draws[-1])
            lines.append(gfx.tr("ui.first.lowest_deals", name=name))
        elif fd.method == "birth_month":
            c = fd.draws[-1][0]
            cards = [c]
            lines.append(
                gfx.tr("ui.first.birth_month", card=card_name(c), m=engine.month_of(c), name=name)
            )
        elif fd.method == "age":
            lines.append(gfx.tr("ui.first.oldest", name=name))
        else:
            if self.rules.first_dealer == "oldest_player":
                lines.append(gfx.tr("ui.first.sakura"))
            else:
                lines.append(gfx.tr("ui.first.random"))
            lines.append(gfx.tr("ui.first.random_pick", name=name))

        def go() -> None:
            self.close_prompt()
            self.start_round()  # type: ignore[attr-defined]

        self.open_prompt(
            Prompt(
                ("first",),
                gfx.tr("ui.first.title"),
                lines,
                [(gfx.tr("ui.common.continue"), go, True)],
                cards,
                auto=1.5 if self.autoplay else None,
            )
        )

    def show_curtain(self, p: int) -> None:
        self.curtain = True
        self.director.hide_hands = {0, 1}

        def ready() -> None:
            self.viewer = p
            self.curtain = False
            self.director.hide_hands = set()
            self.close_prompt()
            self.director.snap()

        self.open_prompt(
            Prompt(
                ("curtain", p),
                gfx.tr("ui.curtain.title", name=self.names[p]),
                [gfx.tr("ui.curtain.text", name=self.names[p])],
                [(gfx.tr("ui.curtain.ready"), ready, True)],
                opaque=True,
            )
        )

    def prompt_for_phase(self) -> None:
        st = self.match.round
        p = st.to_move
        key = (self.match.round_number, len(st.moves), st.phase)
        if self.prompt_key == key or self.declined == key:
            return
        legal = st.legal_actions()
        if st.phase == "decide":
            self.decide_prompt(p, key, legal)
        elif st.phase in ("declare", "play") and engine.Action.from_text("declare") in legal:
            self.declare_prompt(p, key, legal)
        elif st.phase == "exchange":
            self.exchange_prompt(p, key)

    def _act(self, action: Any) -> Callable[[], None]:
        def run() -> None:
            self.close_prompt()
            self.apply(action)  # type: ignore[attr-defined]

        return run

    def decide_prompt(self, p: int, key: Any, legal: list[Any]) -> None:
        st = self.match.round
        rules = self.rules
        opp = 1 - p
        base = st.base(p)
        fs = engine.factors(
            base,
            rules,
            winner_calls=st.calls[p],
            loser_calls=st.calls[opp],
            field_brights=st.field_brights,
        )
        now = engine.payout(
            base,
            rules,
            winner_calls=st.calls[p],
            loser_calls=st.calls[opp],
            field_brights=st.field_brights,
        )
        lines = [
            gfx.tr("ui.decide.yaku_line", yaku=yaku_name(y.key), points=y.points)
            for y in st.yaku(p)
        ]
        breakdown = " × ".join([str(base), *(f"{f} ({factor_text(n, f)})" for n, f in fs)])
        lines.append(gfx.tr("ui.decide.stop_now", n=now, breakdown=f"{breakdown} = {now}"))
        ob = st.base(opp)
        if ob > 0:
            theirs = engine.payout(
                ob,
                rules,
                winner_calls=st.calls[opp],
                loser_calls=st.calls[p] + 1,
                field_brights=st.field_brights,
            )
            lines.append(gfx.tr("ui.decide.opponent_would", name=self.names[opp], n=theirs))
        else:
            lines.append(gfx.tr("ui.decide.opponent_none", name=self.names[opp]))
        lines.append(
            gfx.tr(
                "ui.decide.cards_left", a=len(st.hand(p)), name=self.names[opp], b=len(st.hand(opp))
            )
        )
        cards: list[int] = []
        for y in st.yaku(p):
            cards.extend(c for c in y.cards if c not in cards)
        buttons: list[tuple[str, Callable[[], None], bool]] = []
        koi = engine.Action.from_text("koikoi")
        if koi in legal:
            buttons.append((koi_word(rules) + "!", self._act(koi), False))
        else:
            lines.append(gfx.tr("ui.decide.no_koikoi"))
        buttons.append(
            (
                gfx.tr("ui.decide.stop_button", word=stop_word(rules), n=now),
                self._act(engine.Action.from_text("stop")),
                True,
            )
        )
        self.open_prompt(
            Prompt(key, gfx.tr("ui.decide.title", name=self.names[p]), lines, buttons, cards[:12])
        )

    def declare_prompt(self, p: int, key: Any, legal: list[Any]) -> None:
        st = self.match.round
        iw = engine.instant_win(st.hand(p), self.rules)
        kind, value = iw if iw else ("", 0)

        def keep() -> None:
            self.close_prompt()
            if st.phase == "declare":
                self.apply(engine.Action.from_text("keep"))  # type: ignore[attr-defined]
            else:
                self.declined = key

        self.open_prompt(
            Prompt(
                key,
                gfx.tr("ui.declare.title"),
                [gfx.tr("ui.declare.text", kind=gfx.tr(f"ui.instant.{kind}"), value=value)],
                [
                    (gfx.tr("ui.declare.keep"), keep, False),
                    (
                        gfx.tr("ui.declare.declare", value=value),
                        self._act(engine.Action.from_text("declare")),
                        True,
                    ),
                ],
                sorted(st.hand(p)),
            )
        )

    def exchange_prompt(self, p: int, key: Any) -> None:
        self.director.hide_hands = {0, 1}
        self.open_prompt(
            Prompt(
                key,
                gfx.tr("ui.exchange.title", name=self.names[p]),
                [gfx.tr("ui.exchange.text")],
                [
                    (gfx.tr("ui.exchange.keep"), self._act(engine.Action.from_text("keep")), False),
                    (
                        gfx.tr("ui.exchange.swap"),
                        self._act(engine.Action.from_text("exchange")),
                        True,
                    ),
                ],
            )
        )

    def ask_quit(self) -> bool:
        """Window closed mid-match: ask first (the autosave is kept). True when a prompt opened."""
        if self.match is None or self.match.outcome is not None or not self.humans:
            return False
        if self.prompt is not None and self.prompt.key[0] == "quit":
            return False

        def quit_now() -> None:
            self.write_autosave()  # type: ignore[attr-defined]
            self.app.quit()

        self.open_prompt(
            Prompt(
                ("quit",),
                gfx.tr("ui.quit.title"),
                [gfx.tr("ui.quit.text")],
                [
                    (gfx.tr("ui.quit.stay"), self.close_prompt, False),
                    (gfx.tr("ui.quit.save_quit"), quit_now, True),
                ],
            )
        )
        return True
