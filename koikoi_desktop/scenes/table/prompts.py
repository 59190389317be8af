"""Questions over the table: each prompt is an overlay scene pushed on the scene stack.

Every decision the rules can ask, with the numbers to decide by. The koi-koi decision shows
the yaku just made (with their cards), "Stop now: N" with its breakdown, what the opponent would
score by stopping after a koi-koi, and the cards left in both hands. Also: the first dealer (the
draw, age or birth month, with the rulebook's sakura sentence for a tie), an instant win to
declare, the hand exchange (both hands stay hidden until it is decided), the hot-seat curtain,
"quit the match?" and "concede the match?". (A Gaji play needs no prompt: its targets are lit
like any card's.)

Computer seats never get a prompt; with no human at the table a prompt continues by itself.

Decisions:

* A prompt is a scene (``opaque = False``: the table is drawn below it, dimmed; the hot-seat
  curtain is opaque). Only the top scene is updated, so a prompt advances the table's one
  :class:`~koikoi_desktop.ui.animation.AnimationClock`: the cards below finish moving, and the
  first dealer's staged reveal runs on that same clock.
* A prompt's buttons close it first, then tell the table (which tells the controller), so the
  table is on top again when the answer's cues (animations, the next prompt) are carried out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import pygame

from koikoi_desktop import engine
from koikoi_desktop.i18n import Words
from koikoi_desktop.scenes.base import Scene
from koikoi_desktop.scenes.common import felt
from koikoi_desktop.scenes.table.controller import Question
from koikoi_desktop.scenes.table.text import koi_word, stop_word
from koikoi_desktop.scenes.table.view import card_image
from koikoi_desktop.ui import gfx, theme
from koikoi_desktop.ui.animation import AnimationClock
from koikoi_desktop.ui.helps import shows
from koikoi_desktop.ui.input import Intent, IntentKind
from koikoi_desktop.ui.widgets import Button, FocusGroup
from koikoi_desktop.words.deal import seal_code
from koikoi_desktop.words.names import factor_text, instant_name

if TYPE_CHECKING:
    from koikoi_desktop.engine import FirstDealer
    from koikoi_desktop.scenes.base import AppServices
    from koikoi_desktop.scenes.table.controller import TableController
    from koikoi_desktop.ui.animation import AnimationQueue
    from koikoi_desktop.ui.layout import TableLayout


class TableHost(Protocol):
    """What a prompt needs of the table it is asked over (``scenes.table.scene.TableScene``): the
    app, the match's controller, the table's layout and clocks, and where answers go. A
    protocol, so the prompts and the table scene do not import each other."""

    app: AppServices
    controller: TableController
    lay: TableLayout
    clock: AnimationClock
    queue: AnimationQueue
    autoplay: bool

    def clock_still_for(self) -> float: ...

    def first_dealer_seen(self) -> None: ...

    def answer(self, action: engine.Action) -> None: ...

    def decline(self, key: tuple[int, int, str]) -> None: ...

    def curtain_lifted(self, seat: int) -> None: ...

    def concede(self) -> None: ...


#: A prompt button: label, what it does, primary.
ButtonSpec = tuple[str, Callable[[], None], bool]
#: Seconds before a prompt continues by itself at a table with no human.
AUTO_NO_HUMAN = 1.2
AUTO_FIRST_DEALER = 1.5


@dataclass
class Reveal:
    """A staged reveal on a prompt (the first-dealer draw): the cards are turned over one by
    one, then the lines appear. ``card_at`` / ``line_at`` are start times in seconds on the
    table's clock after ``start``; a card turns over ``turn`` seconds. With ``fade_only``
    (reduced motion) a card does not turn: its face fades in over the back, in place. A click or
    a key finishes it at once."""

    card_at: list[float]
    line_at: list[float]
    turn: float
    fade_only: bool = False
    captions: list[str] = field(default_factory=list)
    clock: AnimationClock = field(default_factory=AnimationClock)
    start: float = 0.0
    ahead: float = 0.0

    @property
    def t(self) -> float:
        """Seconds since the reveal began (plus what a click skipped)."""
        return self.clock.now - self.start + self.ahead

    @property
    def end(self) -> float:
        ends = [t + self.turn for t in self.card_at] + list(self.line_at)
        return max(ends, default=0.0)

    @property
    def done(self) -> bool:
        return self.t >= self.end

    def finish(self) -> None:
        self.ahead += max(0.0, self.end - self.t)

    def progress(self, i: int) -> float:
        """0 (face down) .. 1 (face up) for card ``i``."""
        if i >= len(self.card_at):
            return 1.0
        if self.turn <= 0:
            return 1.0 if self.t >= self.card_at[i] else 0.0
        return max(0.0, min(1.0, (self.t - self.card_at[i]) / self.turn))

    def lines_shown(self) -> int:
        return sum(1 for t in self.line_at if self.t >= t)


class PromptScene(Scene):
    """A panel over the table: a title, lines, optional cards, buttons (see the module
    docstring). ``key`` names the question (``("first",)``, ``("quit",)``, ``("curtain", seat)``
    or the controller's ``(round, moves, phase)``)."""

    name = "table-prompt"
    opaque = False

    def __init__(
        self,
        table: TableHost,
        *,
        key: tuple[object, ...],
        title: str,
        lines: list[str],
        buttons: list[ButtonSpec],
        cards: Sequence[int] = (),
        opaque: bool = False,
        auto: float | None = None,
        reveal: Reveal | None = None,
    ) -> None:
        super().__init__(table.app)
        self.table = table
        self.key = key
        self.title = title
        self.lines = lines
        self.buttons = buttons
        self.cards = list(cards)
        self.opaque = opaque
        if auto is None and not table.controller.humans:
            auto = AUTO_NO_HUMAN
        self.auto = auto
        self.reveal = reveal
        if reveal is not None:
            reveal.clock = table.clock
            reveal.start = table.clock.now
        self.rect = pygame.Rect(0, 0, 10, 10)
        self.widgets: list[Button] = []
        self.focus = FocusGroup()

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        self.layout()

    def resize(self, size: tuple[int, int]) -> None:
        self.layout()

    def close(self) -> None:
        """Take this prompt off the stack (it is on top when one of its buttons runs)."""
        if self.app.stack.top is self:
            self.app.stack.pop()

    def then(self, fn: Callable[[], None]) -> Callable[[], None]:
        """A button's callback: close the prompt, then ``fn``."""

        def run() -> None:
            self.close()
            fn()

        return run

    # ------------------------------------------------------------------ layout
    def card_row(self) -> tuple[tuple[int, int], float]:
        """Card size and step of the row of cards (wider apart when they carry names)."""
        lay = self.table.lay
        captions = self.reveal.captions if self.reveal is not None else []
        ch = int(lay.card[1] * (0.95 if captions else 0.8))
        cw = round(ch * 0.625)
        n = len(self.cards)
        cap_fs = theme.font_px(15, lay.scale)
        want = cw + 6
        if captions:
            want = max(
                cw + round(18 * lay.scale), *(gfx.measure(c, cap_fs)[0] + 14 for c in captions)
            )
        step = min(want, (self.rect.w - 40 - cw) / max(1, n - 1)) if n > 1 else 0
        return (cw, ch), step

    def layout(self) -> None:
        lay = self.table.lay
        s = lay.scale
        w = min(int(640 * s), lay.main.w - 40)
        self.rect = pygame.Rect(0, 0, w, 10)
        fs = theme.font_px(19, s)
        line_h = int(fs * 1.45)
        wrapped = sum(max(1, len(gfx.wrap(t, fs, w - 40))) for t in self.lines)
        ch = self.card_row()[0][1] if self.cards else 0
        if self.reveal is not None and self.reveal.captions:
            ch += int(fs * 1.3) + int(18 * s)  # a name under each card, and some air
        h = int(70 * s) + wrapped * line_h + (ch + int(16 * s) if ch else 0) + int(70 * s)
        rect = pygame.Rect(0, 0, w, h)
        if self.opaque:  # the whole window is covered (hot seat): the panel sits in its middle
            window = pygame.Rect((0, 0), self.app.size)
            rect.center = window.center
            rect.clamp_ip(window)
        else:
            rect.center = lay.field_band.center
            rect.clamp_ip(lay.main)
        self.rect = rect
        n = len(self.buttons)
        bw = min(int(260 * s), (w - 40 - 12 * (n - 1)) // max(1, n))
        bh = int(46 * s)
        total = n * bw + (n - 1) * 12
        x = rect.centerx - total // 2
        self.widgets = []
        for label, cb, primary in self.buttons:
            r = pygame.Rect(x, rect.bottom - bh - int(16 * s), bw, bh)
            self.widgets.append(Button(label, cb, r, primary=primary))
            x += bw + 12
        self.focus = FocusGroup(self.widgets)
        self.focus.keyboard_used = True
        # the focus starts on the primary (safe) choice: Stop at the koi-koi decision, so an
        # Enter pressed out of habit never calls koi-koi
        self.focus.index = next((i for i, b in enumerate(self.widgets) if b.primary), 0)

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self.table.clock.advance(dt)
        if self.reveal is not None and not self.reveal.done:
            return
        if self.auto is None:
            return
        self.auto -= dt
        if self.auto <= 0 and self.widgets:
            self.widgets[-1].activate()

    def still_for(self) -> float:
        """Still once the reveal is over and the table below is (they share its clock); a
        prompt that continues by itself wakes the loop when its time is up."""
        rv = self.reveal
        if rv is not None and not rv.done:
            return 0.0
        still = self.table.clock_still_for()
        return still if self.auto is None else min(still, max(0.0, self.auto))

    def handle(self, intent: Intent) -> None:
        rv = self.reveal
        if rv is not None and not rv.done:
            if intent.kind in (
                IntentKind.PRESS,
                IntentKind.CONFIRM,
                IntentKind.ALT_PRESS,
                IntentKind.BACK,
            ):
                rv.finish()  # a click or a key shows it all (and does not also continue)
            return
        if intent.kind in (IntentKind.LEFT, IntentKind.RIGHT):
            self.focus.move(1 if intent.kind == IntentKind.RIGHT else -1)
            return
        if (
            intent.kind == IntentKind.BACK
            and not self.opaque
            and self.key[0] in ("quit", "concede")
        ):
            self.close()  # Esc is the first button's "keep playing"
            return
        self.focus.handle(intent)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        s = self.table.lay.scale
        if self.opaque:
            surface.blit(felt(surface.get_size()), (0, 0))
        else:
            gfx.dim(surface, 110)
        gfx.draw_panel(surface, self.rect, alpha=245)
        fs = theme.font_px(19, s)
        y = self.rect.y + round(16 * s)
        gfx.blit_text(
            surface,
            self.title,
            theme.font_px(25, s),
            (self.rect.centerx, y),
            anchor="midtop",
            bold=True,
            color=theme.OCHRE,
            max_width=self.rect.w - 30,
        )
        y += round(46 * s)
        rv = self.reveal
        shown = rv.lines_shown() if rv is not None else len(self.lines)
        if rv is not None and self.cards:  # a staged reveal: the cards first, then the lines
            y = self.draw_cards(surface, y + round(6 * s)) + round(12 * s)
        for i, line in enumerate(self.lines):
            for sub in gfx.wrap(line, fs, self.rect.w - 40):
                if i < shown:
                    gfx.blit_text(
                        surface, sub, fs, (self.rect.x + 20, y), max_width=self.rect.w - 40
                    )
                y += int(fs * 1.45)
        if rv is None and self.cards:
            self.draw_cards(surface, y + round(8 * s))
        if rv is None or rv.done:
            self.focus.draw(surface, self.app.words, font=theme.font_px(19, s))

    def draw_cards(self, surface: pygame.Surface, y: int) -> int:
        """The row of cards (revealed one by one when staged); returns the y below it."""
        (cw, ch), step = self.card_row()
        rv = self.reveal
        captions = rv.captions if rv is not None else []
        n = len(self.cards)
        x = self.rect.centerx - (step * (n - 1) + cw) / 2
        cap_fs = theme.font_px(15, self.table.lay.scale)
        bottom = y + ch
        for i, c in enumerate(self.cards):
            at = pygame.Rect(round(x), y, cw, ch)
            self.draw_turning(surface, c, at, rv.progress(i) if rv else 1.0)
            if i < len(captions):
                r = gfx.blit_text(
                    surface,
                    captions[i],
                    cap_fs,
                    (at.centerx, at.bottom + 4),
                    anchor="midtop",
                    color=theme.MUTED,
                    max_width=max(cw, int(step) - 8) if n > 1 else self.rect.w - 40,
                )
                bottom = max(bottom, r.bottom)
            x += step
        return bottom

    def draw_turning(self, surface: pygame.Surface, card: int, rect: pygame.Rect, t: float) -> None:
        """A card being revealed: ``t`` 0 = face down, 1 = face up. It turns over (narrows to
        its edge, then widens showing its face) or, with reduced motion, stays still while its
        face fades in over the back."""
        lay = self.table.lay
        size = rect.size
        if t >= 1.0:
            surface.blit(card_image(self.app, lay, card, size), rect)
            return
        back = card_image(self.app, lay, 0, size)
        if self.reveal is not None and self.reveal.fade_only:
            surface.blit(back, rect)
            if t > 0:
                face = card_image(self.app, lay, card, size).copy()
                face.set_alpha(round(255 * t))
                surface.blit(face, rect)
            return
        width = abs(math.cos(math.pi * t))
        img = back if t < 0.5 else card_image(self.app, lay, card, size)
        w = max(1, round(size[0] * width))
        if w != size[0]:
            img = pygame.transform.smoothscale(img, (w, size[1]))
        surface.blit(img, img.get_rect(center=rect.center))


# ------------------------------------------------------------------------------ the prompts
def first_dealer_prompt(words: Words, table: TableHost, fd: FirstDealer) -> PromptScene:
    """Who deals first, as the preset says, staged: the drawn cards are turned over one by one
    under each player's name (lowest month deals; a same-month pair is drawn again), the
    birth-month reveal card by card, or the age rule; for seed-000's tie (ages equal or
    unknown) the rulebook's sakura sentence. Timing follows the animation speed ("off": all at
    once) and reduced motion (cards fade in place instead of turning)."""
    names = table.controller.names(words)
    name = names[fd.dealer]
    lines: list[str] = []
    cards: list[int] = []
    captions: list[str] = []
    card_at: list[float] = []
    line_at: list[float] = []
    f = table.queue.factor
    reduced = table.queue.reduced
    turn = (0.16 if reduced else 0.36) * f
    gap, pause = 0.55 * f, 0.35 * f
    t = 0.3 * f
    if fd.method == "draw":
        for i, (a, b) in enumerate(fd.draws):
            for c, who in ((a, 0), (b, 1)):
                cards.append(c)
                captions.append(names[who])
                card_at.append(t)
                t += gap
            t += pause - gap + turn
            lines.append(
                words.t(
                    "ui.first.draw",
                    a=names[0],
                    ca=words.card_name(a),
                    ma=engine.month_of(a),
                    b=names[1],
                    cb=words.card_name(b),
                    mb=engine.month_of(b),
                )
            )
            line_at.append(t)
            if i < len(fd.draws) - 1:
                lines.append(words.t("ui.first.same_month"))
                line_at.append(t)
            t += pause
        lines.append(words.t("ui.first.lowest_deals", name=name))
        line_at.append(t)
        lines.append(words.t("ui.first.back"))  # the deal shuffles all 48 (engine.chance)
        line_at.append(t)
    elif fd.method == "birth_month":
        for (c,) in fd.draws[-6:]:
            cards.append(c)
            captions.append(words.t("ui.first.month_n", m=engine.month_of(c)))
            card_at.append(t)
            t += gap
        t += turn + pause - gap
        c = fd.draws[-1][0]
        lines.append(
            words.t(
                "ui.first.birth_month", card=words.card_name(c), m=engine.month_of(c), name=name
            )
        )
        line_at.append(t)
    elif fd.method == "age":
        lines.append(words.t("ui.first.oldest", name=name))
        line_at.append(t)
    else:
        if table.controller.rules.first_dealer == "oldest_player":
            lines.append(words.t("ui.first.sakura"))
        else:
            lines.append(words.t("ui.first.random"))
        line_at.append(t)
        t += 2.5 * pause  # time to read the sentence before the name
        lines.append(words.t_person("ui.first.random_pick", name))
        line_at.append(t)
    m = table.controller.match
    if m is not None and m.commitment is not None:  # every deal is fixed now: its seal
        lines.append(words.t("ui.deals.sealed", code=seal_code(m.commitment)))
        line_at.append(t + pause)
    prompt = PromptScene(
        table,
        key=("first",),
        title=words.t("ui.first.title"),
        lines=lines,
        buttons=[],
        cards=cards,
        auto=AUTO_FIRST_DEALER if table.autoplay else None,
        reveal=Reveal(card_at, line_at, turn, fade_only=reduced, captions=captions),
    )
    prompt.buttons = [(words.t("ui.common.continue"), prompt.then(table.first_dealer_seen), True)]
    return prompt


def question_prompt(
    words: Words, table: TableHost, question: Question, seat: int, key: tuple[int, int, str]
) -> PromptScene:
    """The prompt for one of the controller's questions, in ``words``."""
    if question == "decide":
        return decide_prompt(words, table, seat, key)
    if question == "declare":
        return declare_prompt(words, table, seat, key)
    return exchange_prompt(words, table, seat, key)


def _answer(table: TableHost, prompt: PromptScene, text: str) -> Callable[[], None]:
    action = engine.Action.from_text(text)
    return prompt.then(lambda: table.answer(action))


def koikoi_stakes(rules: engine.Rules, calls: tuple[int, int], seat: int) -> str:
    """What a koi-koi call by ``seat`` (with the round's ``calls`` so far) risks under
    ``rules``, as the key of its sentence: ``forced`` when the call uses up the round's koi-koi
    limit (the opponent's first yaku then ends the round at once, R-KOI-7), ``may`` when he may
    still answer with a call of his own; ``_double`` when the call doubles his win (the engine's
    ``opponent_koi`` factor, R-MULT-3).

    >>> from koikoi_desktop.engine import PRESETS
    >>> koikoi_stakes(PRESETS["nintendo"], (0, 0), 0), koikoi_stakes(PRESETS["seed-003"], (1, 0), 1)
    ('forced_double', 'may')
    """
    limit = rules.koikoi_limit
    forced = limit is not None and calls[0] + calls[1] + 1 >= limit
    named = dict(
        engine.factors(1, rules, winner_calls=calls[1 - seat], loser_calls=calls[seat] + 1)
    )
    return ("forced" if forced else "may") + ("_double" if "opponent_koi" in named else "")


def decide_prompt(words: Words, table: TableHost, p: int, key: tuple[int, int, str]) -> PromptScene:
    """Stop or koi-koi, in that order (as the rules page shows them; Stop is focused, so Enter
    takes the sure points), each said in one sentence true to the rules in force, with the
    numbers that matter at help level full (from the deciding seat's view)."""
    c = table.controller
    rules = c.rules
    view = c.view(p)
    odds = view.koikoi_odds()
    made = odds.yaku
    lines = [
        words.t("ui.decide.yaku_line", yaku=words.yaku_name(y.key), points=y.points) for y in made
    ]
    now = odds.payout
    other = c.names(words)[view.opponent]
    koi = engine.Action.from_text("koikoi")
    lines.append(words.t("ui.decide.does_stop", word=stop_word(words, rules), n=now))
    if koi in view.legal:
        does = f"ui.decide.does_koi.{koikoi_stakes(rules, view.calls, p)}"
        lines.append(words.t(does, word=koi_word(words, rules), name=other))
    else:
        lines.append(words.t("ui.decide.no_koikoi"))
    if shows(c.config.help_level, "panel"):  # help level: the panel's numbers
        breakdown = " × ".join(
            [str(odds.base), *(f"{f} ({factor_text(words, n, f)})" for n, f in odds.factors)]
        )
        lines.append(words.t("ui.decide.stop_now", n=now, breakdown=f"{breakdown} = {now}"))
        if odds.opponent_base > 0:
            lines.append(words.t("ui.decide.opponent_would", name=other, n=odds.opponent_payout))
        else:
            lines.append(words.t("ui.decide.opponent_none", name=other))
        lines.append(words.t("ui.decide.cards_left", a=odds.hand, name=other, b=odds.opponent_hand))
    cards: list[int] = []
    for y in made:
        cards.extend(x for x in y.cards if x not in cards)
    prompt = PromptScene(
        table,
        key=key,
        title=words.t("ui.decide.title", name=c.names(words)[p]),
        lines=lines,
        buttons=[],
        cards=cards[:12],
    )
    prompt.buttons.append(
        (
            words.t("ui.decide.stop_button", word=stop_word(words, rules), n=odds.payout),
            _answer(table, prompt, "stop"),
            True,
        )
    )
    if koi in view.legal:
        prompt.buttons.append(
            (koi_word(words, rules) + "!", _answer(table, prompt, "koikoi"), False)
        )
    return prompt


def declare_prompt(
    words: Words, table: TableHost, p: int, key: tuple[int, int, str]
) -> PromptScene:
    """An instant win in the hand: declare it, or keep playing."""
    c = table.controller
    view = c.view(p)
    iw = engine.instant_win(view.hand, c.rules)
    kind, value = iw if iw else ("", 0)
    prompt = PromptScene(
        table,
        key=key,
        title=words.t("ui.declare.title"),
        lines=[words.t("ui.declare.text", kind=instant_name(words, kind), value=value)],
        buttons=[],
        cards=sorted(view.hand),
    )

    def keep() -> None:
        if view.phase == "declare":
            table.answer(engine.Action.from_text("keep"))
        else:
            table.decline(key)

    prompt.buttons = [
        (words.t("ui.declare.keep"), prompt.then(keep), False),
        (words.t("ui.declare.declare", value=value), _answer(table, prompt, "declare"), True),
    ]
    return prompt


def exchange_prompt(
    words: Words, table: TableHost, p: int, key: tuple[int, int, str]
) -> PromptScene:
    """The hand exchange (both hands stay hidden until it is decided)."""
    prompt = PromptScene(
        table,
        key=key,
        title=words.t("ui.exchange.title", name=table.controller.names(words)[p]),
        lines=[words.t("ui.exchange.text")],
        buttons=[],
    )
    prompt.buttons = [
        (words.t("ui.exchange.keep"), _answer(table, prompt, "keep"), False),
        (words.t("ui.exchange.swap"), _answer(table, prompt, "exchange"), True),
    ]
    return prompt


def curtain_prompt(words: Words, table: TableHost, p: int) -> PromptScene:
    """Hot seat: the screen is covered until ``p``'s player is ready."""
    name = table.controller.names(words)[p]
    prompt = PromptScene(
        table,
        key=("curtain", p),
        title=words.t("ui.curtain.title", name=name),
        lines=[words.t("ui.curtain.text", name=name)],
        buttons=[],
        opaque=True,
    )
    prompt.buttons = [
        (words.t("ui.curtain.ready"), prompt.then(lambda: table.curtain_lifted(p)), True)
    ]
    return prompt


def quit_prompt(words: Words, table: TableHost) -> PromptScene:
    """Window closed mid-match: stay, or save and quit (the match can be continued)."""
    prompt = PromptScene(
        table,
        key=("quit",),
        title=words.t("ui.quit.title"),
        lines=[words.t("ui.quit.text")],
        buttons=[],
    )

    def quit_now() -> None:
        table.controller.save()
        table.app.request_quit(match_saved=True)

    prompt.buttons = [
        (words.t("ui.quit.stay"), prompt.close, False),
        (words.t("ui.quit.save_quit"), prompt.then(quit_now), True),
    ]
    return prompt


def concede_prompt(words: Words, table: TableHost) -> PromptScene:
    """Concede (the pause menu) asks once: keep playing (first, focused: Enter or Esc) or
    concede; only the second ends the match and records it as lost. It never answers itself,
    not even at a table with no human."""
    prompt = PromptScene(
        table,
        key=("concede",),
        title=words.t("ui.concede.title"),
        lines=[words.t("ui.concede.text")],
        buttons=[],
    )
    prompt.auto = None
    prompt.buttons = [
        (words.t("ui.quit.stay"), prompt.close, True),
        (words.t("ui.pause.concede"), prompt.then(table.concede), False),
    ]
    return prompt
