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
class Reveal:
    """A staged reveal on a prompt (the first-dealer draw): the cards are turned over one by
    one, then the lines appear. ``card_at`` / ``line_at`` are start times in seconds; a card
    turns over ``turn`` seconds. With ``fade_only`` (reduced motion) a card does not turn: its
    face fades in over the back, in place. A click or a key finishes it at once."""

    card_at: list[float]
    line_at: list[float]
    turn: float
    fade_only: bool = False
    captions: list[str] = field(default_factory=list)
    clock: float = 0.0

    @property
    def end(self) -> float:
        ends = [t + self.turn for t in self.card_at] + list(self.line_at)
        return max(ends, default=0.0)

    @property
    def done(self) -> bool:
        return self.clock >= self.end

    def finish(self) -> None:
        self.clock = max(self.clock, self.end)

    def progress(self, i: int) -> float:
        """0 (face down) .. 1 (face up) for card ``i``."""
        if i >= len(self.card_at):
            return 1.0
        if self.turn <= 0:
            return 1.0 if self.clock >= self.card_at[i] else 0.0
        return max(0.0, min(1.0, (self.clock - self.card_at[i]) / self.turn))

    def lines_shown(self) -> int:
        return sum(1 for t in self.line_at if self.clock >= t)


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
    reveal: Reveal | None = None


Pair = tuple[int | None, int | None]


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
        ch = 0
        if p.cards:
            from koikoi_desktop.scenes.table_view import prompt_card_row

            ch = prompt_card_row(self, p)[0][1]  # type: ignore[arg-type]
        if p.reveal is not None and p.reveal.captions:
            ch += int(fs * 1.3) + int(18 * s)  # a name under each card, and some air
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
        if p.reveal is not None and not p.reveal.done:
            if it.kind in ("press", "confirm", "alt_press", "back"):
                p.reveal.finish()  # a click or a key shows it all (and does not also continue)
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
        if p is None:
            return
        if p.reveal is not None and not p.reveal.done:
            p.reveal.clock += dt
            return
        if p.auto is None:
            return
        p.auto -= dt
        if p.auto <= 0 and p.widgets:
            p.widgets[-1].activate() if p.key[0] != "decide" else p.widgets[0].activate()

    # ------------------------------------------------------------------ prompts
    def show_first_dealer(self) -> None:
        """Who deals first, as the preset says, staged: the drawn cards are turned over one by
        one under each player's name (lowest month deals; a same-month pair is drawn again),
        the birth-month reveal card by card, or the age rule; for seed-000's tie (ages equal or
        unknown) the rulebook's sakura sentence. Timing follows the animation speed ("off":
        all at once) and reduced motion (cards fade in place instead of turning)."""
        fd = self.first
        name = self.names[fd.dealer]
        lines: list[str] = []
        cards: list[int] = []
        captions: list[str] = []
        card_at: list[float] = []
        line_at: list[float] = []
        f = self.queue.factor  # type: ignore[attr-defined]
        reduced = bool(getattr(self.queue, "reduced", False))  # type: ignore[attr-defined]
        turn = (0.16 if reduced else 0.36) * f
        gap, pause = 0.55 * f, 0.35 * f
        t = 0.3 * f
        if fd.method == "draw":
            for i, (a, b) in enumerate(fd.draws):
                for c, who in ((a, 0), (b, 1)):
                    cards.append(c)
                    captions.append(self.names[who])
                    card_at.append(t)
                    t += gap
                t += pause - gap + turn
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
                line_at.append(t)
                if i < len(fd.draws) - 1:
                    lines.append(gfx.tr("ui.first.same_month"))
                    line_at.append(t)
                t += pause
            lines.append(gfx.tr("ui.first.lowest_deals", name=name))
            line_at.append(t)
        elif fd.method == "birth_month":
            for (c,) in fd.draws[-6:]:
                cards.append(c)
                captions.append(gfx.tr("ui.first.month_n", m=engine.month_of(c)))
                card_at.append(t)
                t += gap
            t += turn + pause - gap
            c = fd.draws[-1][0]
            lines.append(
                gfx.tr("ui.first.birth_month", card=card_name(c), m=engine.month_of(c), name=name)
            )
            line_at.append(t)
        elif fd.method == "age":
            lines.append(gfx.tr("ui.first.oldest", name=name))
            line_at.append(t)
        else:
            if self.rules.first_dealer == "oldest_player":
                lines.append(gfx.tr("ui.first.sakura"))
            else:
                lines.append(gfx.tr("ui.first.random"))
            line_at.append(t)
            t += 2.5 * pause  # time to read the sentence before the name
            lines.append(gfx.tr("ui.first.random_pick", name=name))
            line_at.append(t)

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
                reveal=Reveal(card_at, line_at, turn, fade_only=reduced, captions=captions),
            )
        )

    def first_dealer_ages(self) -> tuple[Pair, Pair]:
        """Ages and birth months for the seed-000 / seed-001 dealer rules: a human's from the
        birth date in the settings (None when not given), a computer's from its persona."""
        import datetime as _dt

        bd = self.app.setting("birth_date", None)
        ages: list[int | None] = [None, None]
        months: list[int | None] = [None, None]
        for p in (0, 1):
            opp = self.opponents.get(p)
            if opp is not None:
                ages[p] = int(opp.persona.age)
                months[p] = int(opp.persona.birth_month)
            elif bd is not None and p in self.humans and len(self.humans) == 1:
                today = _dt.date.today()
                ages[p] = today.year - bd.year - ((today.month, today.day) < (bd.month, bd.day))
                months[p] = bd.month
        return (ages[0], ages[1]), (months[0], months[1])

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
