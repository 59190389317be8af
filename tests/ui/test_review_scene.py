"""The review screen through the real app (dummy video driver): reached from the ledger, the
match result and the round summary; stepped with keys; its analysis off the frame loop, cached;
"play this deal again"; and the help levels on the table, the new-game screen and the ledger."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import app as app_mod
from koikoi_desktop import scenes
from koikoi_desktop.ai import make_opponent
from koikoi_desktop.engine import PRESETS, match_record, new_match
from koikoi_desktop.i18n import ENGLISH, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.pause import PauseScene
from koikoi_desktop.scenes.review import scene as review_mod
from koikoi_desktop.scenes.review.scene import ReviewScene
from koikoi_desktop.storage import MatchRecord, Storage
from koikoi_desktop.ui import gfx, helps
from tests.ui.drawn import texts_drawn


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_mod, "WORLDS", 4)


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        while a.stack.top is not None:
            a.stack.pop()
        a.close_storage()
    pygame.display.quit()


def make_app(apps: list[Any], data: Path, *extra: str) -> Any:
    args = app_mod.parse_args(["--data-dir", str(data), "--speed", "off", *extra])
    a = app_mod.App(args)
    app_mod.sdl_defaults(args)
    a.open_storage()
    a.open_window()
    a.open_sprites()
    apps.append(a)
    return a


def played_match(seed: int = 4, rounds: int = 2) -> Any:
    m = new_match(PRESETS["nintendo"], first_dealer=seed % 2, seed=seed, rounds=rounds)
    bots = [make_opponent("beginner", seed=seed), make_opponent("intermediate", seed=seed + 1)]
    while m.outcome is None:
        p = m.round.to_move
        m.apply(bots[p].choose(m.round.view(p), m.context(p)))
    return m


def record(data: Path, m: Any, *, help_level: str | None = "highlights") -> MatchRecord:
    rec = MatchRecord.from_match(
        m, preset="nintendo", opponent_name="Computer (Intermediate)", opponent_level="intermediate"
    )
    rec = rec.model_copy(update={"help_level": help_level})
    with Storage.open(data) as store:
        assert store.record_match(rec, record_text=match_record(m))
    return rec


def key(scene: Any, k: int) -> None:
    scene.app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def pump(scene: Any, until: Callable[[], bool], timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end and not until():
        scene.app.stack.update(1 / 60)
        time.sleep(0.005)
    return until()


def drawn(scene: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return texts_drawn(lambda: scene.draw(pygame.display.get_surface()), monkeypatch)


# --------------------------------------------------------------------------- from the ledger
def test_review_opens_from_the_ledger_steps_with_keys_and_is_cached(
    apps: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    m = played_match()
    rec = record(data, m)
    a = make_app(apps, data)
    a.stack.push(scenes.create("title", a))
    ledger = scenes.create("ledger", a)
    a.stack.push(ledger)
    key(ledger, pygame.K_r)
    rv = a.stack.top
    assert isinstance(rv, ReviewScene) and rv.match_id == rec.match_id
    assert rv.seats == ("human", "intermediate") and rv.runner is not None
    t = rv.timeline
    assert t is not None and len(t.deals) == len(m.ledger)
    # the record read back from the ledger replays to the match's own end
    assert t.match.balances == m.balances and t.match.outcome == m.outcome
    assert t.deals[-1].final.caps == m.round.caps
    # usable while the analysis runs: stepping, drawing
    key(rv, pygame.K_RIGHT)
    key(rv, pygame.K_RIGHT)
    assert rv.index == 2
    key(rv, pygame.K_LEFT)
    assert rv.index == 1
    key(rv, pygame.K_END)
    assert rv.index == len(t.positions) - 1
    assert any(pos == rv.index for _, _, pos in rv.list_rows())  # the move list follows
    key(rv, pygame.K_HOME)
    assert rv.index == 0
    assert any(pos == rv.index for _, _, pos in rv.list_rows())
    key(rv, pygame.K_DOWN)
    assert t.positions[rv.index].deal == 1 and t.positions[rv.index].move == 0
    assert any(pos == rv.index for _, _, pos in rv.list_rows())
    key(rv, pygame.K_UP)
    assert rv.index == 0
    words = drawn(rv, monkeypatch)
    assert any(w.startswith(ENGLISH.t("ui.review.analysing", n=0, total=0)[:9]) for w in words)
    # the analysis finishes off the frame loop and is saved with the match
    assert pump(rv, lambda: rv.runner is None)
    assert len(rv.judged) == len(rv.decisions) > 10
    assert a.storage.ledger.review(rec.match_id) is not None
    # the next visit reads it back without analysing
    a.stack.pop()
    key(ledger, pygame.K_r)
    again = a.stack.top
    assert isinstance(again, ReviewScene) and again.runner is None
    assert again.judged == rv.judged
    # Page Down goes to a flagged decision, S shows the summary, Esc closes it, then leaves
    flagged = [p for p, j in again.judged.items() if j.cls != "good"]
    if flagged:
        key(again, pygame.K_PAGEDOWN)
        p = t.positions[again.index]
        assert again.judged[(p.deal, p.move)].cls != "good"
    key(again, pygame.K_s)
    assert again.show_summary
    words = drawn(again, monkeypatch)
    assert ENGLISH.t("ui.review.summary_title") in words
    key(again, pygame.K_ESCAPE)
    assert not again.show_summary and a.stack.top is again
    key(again, pygame.K_ESCAPE)
    assert a.stack.top is ledger


def test_clicking_a_move_in_the_list_goes_there(apps: list[Any], tmp_path: Path) -> None:
    data = tmp_path / "data"
    m = played_match(seed=6, rounds=1)
    rec = record(data, m)
    a = make_app(apps, data)
    found = a.storage.ledger.get(rec.match_id)
    rv = a.router.build(screens.Review(record=found[1], match_id=rec.match_id, inline=True))
    a.stack.push(rv)
    rows = [(r, pos) for _, r, pos in rv.list_rows() if pos is not None]
    rect, pos = rows[3]
    rv.app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
    assert rv.index == pos
    slider = rv.geo["slider"]
    end = (slider.right - 1, slider.centery)
    rv.app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=end, button=1))
    assert rv.index == len(rv.timeline.positions) - 1
    assert pump(rv, lambda: rv.runner is None)


def test_a_match_without_a_move_record_says_so(apps: list[Any], tmp_path: Path) -> None:
    data = tmp_path / "data"
    m = played_match(rounds=1)
    rec = MatchRecord.from_match(m, preset="nintendo", opponent_level="beginner")
    with Storage.open(data) as store:
        assert store.record_match(rec, record_text=None)
    a = make_app(apps, data)
    ledger = scenes.create("ledger", a)
    a.stack.push(ledger)
    key(ledger, pygame.K_r)
    assert a.stack.top is ledger and say(ledger.message, ENGLISH) == ENGLISH.t(
        "ui.ledger.no_record"
    )


# --------------------------------------------------------------------------- from the game
def test_review_opens_from_the_match_result(apps: list[Any], tmp_path: Path) -> None:
    a = make_app(
        apps, tmp_path / "data", "--scene", "match-result", "--seed", "5", "--preset", "seed-003"
    )
    a.first_scene()
    result = a.stack.top
    assert result.name == "match-result"
    key(result, pygame.K_r)
    rv = a.stack.top
    assert isinstance(rv, ReviewScene)
    assert rv.timeline is not None and rv.timeline.match.balances == result.match.balances
    assert rv.match_id is not None and rv.can_play_again()
    key(rv, pygame.K_RIGHT)
    assert rv.index == 1
    rv.draw(a.screen)
    key(rv, pygame.K_ESCAPE)
    assert a.stack.top is result


def test_review_this_round_from_the_round_summary(apps: list[Any], tmp_path: Path) -> None:
    a = make_app(apps, tmp_path / "data", "--scene", "round-summary", "--seed", "5")
    a.first_scene()
    summary = a.stack.top
    assert summary.name == "round-summary"
    key(summary, pygame.K_r)
    rv = a.stack.top
    assert isinstance(rv, ReviewScene)
    t = rv.timeline
    assert t is not None and [d.round for d in t.deals] == [1]  # the next deal stays hidden
    assert t.positions[rv.index].deal == 0 and not rv.can_play_again()
    assert pump(rv, lambda: rv.runner is None)
    assert rv.judged and {j.round for j in rv.judged.values()} == {1}
    key(rv, pygame.K_p)  # not from a match in progress
    assert a.stack.top is rv
    key(rv, pygame.K_ESCAPE)
    assert a.stack.top is summary


def test_play_this_deal_again_deals_the_same_cards_in_practice(
    apps: list[Any], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    m = played_match(seed=10, rounds=3)  # round 2 has moves (no instant win)
    rec = record(data, m)
    a = make_app(apps, data)
    rv = a.router.build(
        screens.Review(
            record=match_record(m),
            match_id=rec.match_id,
            seats=("human", "intermediate"),
            inline=True,
        )
    )
    a.stack.push(rv)
    key(rv, pygame.K_DOWN)  # round 2
    deal = m.deals[1]
    key(rv, pygame.K_p)
    table = a.stack.top  # no first-dealer draw: the deal's own dealer deals at once
    assert table.name == "table" and a.stack.names() == ["title", "table"]
    cfg = table.controller.config
    assert cfg.practice and cfg.seats == ("human", "intermediate")
    assert table.match.dealer == deal.dealer
    assert table.match.round.deals == [tuple(d) for d in deal.decks]
    # the deal is stacked, the rest comes from a fresh seed: the next deals are not the
    # original match's, and the record says which deal was given
    assert table.match.seed != m.seed and table.match.stacked == len(deal.decks)
    assert f"stacked {len(deal.decks)}" in match_record(table.match)
    assert table.controller.opponents[1].level == "intermediate"


# --------------------------------------------------------------------------- help levels
def test_help_level_travels_from_new_game_to_table_recorder_and_ledger(
    apps: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    a = make_app(apps, data)
    # Settings: the help level row, stepped as Enter does, is saved at once
    settings = scenes.create("settings", a)
    a.stack.push(settings)
    row = next(
        w
        for _, w in settings.rows
        if w is not None and say(w.label, ENGLISH) == ENGLISH.t("ui.settings.help_level")
    )
    assert row.value == "full"
    row.activate()
    assert a.settings.help_level == "highlights"
    a.stack.pop()
    # the new-game screen starts from the saved level; two clicks on its right half: none
    ng = scenes.create("new-game", a)
    a.stack.push(ng)
    choice = next(
        w for w in ng.left if say(w.label, ENGLISH) == ENGLISH.t("ui.settings.help_level")
    )
    assert choice.value == "highlights"
    right = (choice.rect.right - 5, choice.rect.centery)
    a.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=right, button=1))
    a.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=right, button=1))
    assert choice.value == "none" and ng.help_level == "none"
    start = ng.start_btn.rect.center
    a.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    a.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=start, button=1))
    table = a.stack.find("table")  # under the first dealer's prompt
    assert table is not None and table.controller.config.help_level == "none"
    assert a.settings.help_level == "none"  # saved as the next game's default
    recorder = table.controller.recorder
    assert recorder.meta(table.match)["help_level"] == "none"
    assert recorder.record_of(table.match).help_level == "none"
    # the ledger row shows the level a match was played with
    m = played_match(rounds=1)
    record(data, m, help_level="highlights")
    ledger = scenes.create("ledger", a)
    a.stack.push(ledger)
    words = drawn(ledger, monkeypatch)
    label = ENGLISH.t("ui.ledger.help", level=ENGLISH.t("ui.settings.help_level.highlights"))
    assert label in words
    assert set(helps.SHOWS) == set(helps.HELP_LEVELS)  # every level says what it shows


@pytest.mark.parametrize("level", ["full", "highlights", "none"])
def test_help_levels_on_the_table(
    apps: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    from koikoi_desktop.scenes.match_config import MatchConfig

    a = make_app(apps, tmp_path / "data")
    cfg = MatchConfig(PRESETS["nintendo"], ("human", "intermediate"), seed=4, help_level=level)
    table = a.router.build(screens.Table(config=cfg))
    a.stack.push(table)
    c = table.controller
    for _ in range(20):  # the first dealer, a computer's first move…
        assert pump(table, lambda: c.my_turn() or a.stack.top is not table, 20)
        if a.stack.top is table:
            break
        a.stack.top.widgets[-1].activate()  # the prompt over the table: its main button
    assert c.my_turn() and a.stack.top is table
    table.view = type(table.view)(a)  # a fresh drawing cache: the whole table is drawn
    words = drawn(table, monkeypatch)
    hint = ENGLISH.t("ui.table.hint_play")
    tracker = f"{ENGLISH.t('term.yaku')}: 0"
    assert (hint in words) == (level == "full")
    assert (tracker in words) == (level == "full")
    card = next(x for x in c.pickable() if c.choice_for(x).targets)
    c.lifted = c.choice_for(card)  # lifted by a click (no drag)
    lit: list[Any] = []
    from koikoi_desktop.scenes.table import view as table_view
    from koikoi_desktop.ui import theme

    def spy(surface: Any, rect: Any, color: Any = theme.OCHRE, width: int = 3) -> None:
        if color == theme.TARGET:
            lit.append(rect)

    monkeypatch.setattr(table_view, "draw_focus", spy)
    table.draw(pygame.display.get_surface())
    assert len(lit) == (len(c.choice_for(card).targets) if level != "none" else 0)


def test_scene_flag_opens_the_review_of_a_seeded_match(apps: list[Any], tmp_path: Path) -> None:
    a = make_app(
        apps, tmp_path / "data", "--scene", "review", "--seed", "2", "--preset", "seed-003"
    )
    a.first_scene()
    rv = a.stack.top
    assert isinstance(rv, ReviewScene) and a.stack.names()[-2:] == ["match-result", "review"]
    assert rv.timeline is not None and rv.timeline.match.outcome is not None
    a.stack.draw(a.screen)


@pytest.mark.parametrize("level", ["full", "highlights", "none"])
def test_help_level_sets_the_koikoi_panel_numbers(
    apps: list[Any], tmp_path: Path, level: str
) -> None:
    """Full help puts what stopping pays and what the opponent would win on the koi-koi panel;
    light and none show the yaku only."""
    import random

    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.scenes.table.prompts import decide_prompt

    a = make_app(apps, tmp_path / "data")
    cfg = MatchConfig(PRESETS["nintendo"], ("human", "human"), seed=3, help_level=level)
    table = a.router.build(screens.Table(config=cfg))
    a.stack.push(table)
    c = table.controller
    rng = random.Random(1)
    for _ in range(40):  # into a koi-koi decision (the engine's moves, on the table's match)
        m = c.played()
        m.apply(rng.choice(m.round.legal_actions()))
        if m.round.phase == "decide":
            break
    st = c.played().round
    assert st.phase == "decide" and st.to_move is not None
    prompt = decide_prompt(a.words, table, st.to_move, (1, len(st.moves), "decide"))
    stop_line = ENGLISH.t("ui.decide.stop_now", n=0, breakdown="")[:6]
    numbers = [ln for ln in prompt.lines if ln.startswith(stop_line)]
    assert len(numbers) == (1 if level == "full" else 0)
    yaku = st.view(st.to_move).koikoi_odds().yaku
    # the yaku, what Stop and Koi-koi do (at every level), and the numbers at full help
    assert len(prompt.lines) == len(yaku) + 2 + (3 if level == "full" else 0)


def test_a_record_that_does_not_replay_is_said_on_the_screen(
    apps: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = make_app(apps, tmp_path / "data")
    rv = a.router.build(screens.Review(record="koikoi-match/1\nnot a record\n", inline=True))
    a.stack.push(rv)
    assert rv.timeline is None and rv.runner is None
    assert rv.error.startswith(ENGLISH.t("ui.review.unreadable", why="")[:12])
    assert rv.error in drawn(rv, monkeypatch)
    key(rv, pygame.K_RIGHT)  # nothing to step: no error
    key(rv, pygame.K_ESCAPE)
    assert a.stack.top is not rv


def test_a_koikoi_decision_shows_the_yaku_there_was_to_stop_with(
    apps: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from koikoi_desktop.review.analysis import decision_points
    from koikoi_desktop.review.timeline import Timeline

    m = played_match(seed=4, rounds=2)
    text = match_record(m)
    t = Timeline.from_record(text)
    point = next(p for p in decision_points(t) if p.kind == "koikoi")
    a = make_app(apps, tmp_path / "data")
    rv = a.router.build(screens.Review(record=text, inline=True))
    a.stack.push(rv)
    rv.go(t.index_of(point.deal, point.move))
    made = rv.made_text(rv.state())
    yaku = point.view.koikoi_odds().yaku
    assert yaku and all(ENGLISH.yaku_name(y.key) in made for y in yaku)
    assert made in drawn(rv, monkeypatch)
    rv.go(0)
    assert rv.made_text(rv.state()) == ""


#: Every reason key a review can give (``review.analysis.best_reason`` and the Intermediate's
#: ``describe_play`` it reuses), with parameters of each kind.
REVIEW_REASONS = (
    "stop_sure",
    "stop_sure_loss",
    "koikoi_ev",
    "declare",
    "search",
    "search_draw",
    "exchange_keep",
    "review_keep",
    "blocks",
    "blocks_koikoi",
    "completes",
    "draw_takes",
    "gaji",
    "improves",
    "takes",
    "takes_toward",
)


@pytest.mark.parametrize("lang", ["ja", "uk", "ru", "sk"])
def test_every_review_reason_is_translated(apps: list[Any], tmp_path: Path, lang: str) -> None:
    """A biggest mistake's one-line reason in each language: its own sentence, never the English
    one the catalog lookup falls back to, with every placeholder filled."""
    from koikoi_desktop.ai.base import Reason, ReasonKey
    from koikoi_desktop.review.analysis import Judgement

    a = make_app(apps, tmp_path / "data")
    rv = a.router.build(screens.Review(record="", inline=True))
    params = {
        "card": 3,
        "drawn": 4,
        "hand": 1,
        "yaku": "tane",
        "points": 6,
        "ev": 2.5,
        "loss": 2.9,
        "n": 160,
        "month": 3,
        "instant": "teshi",
    }

    def why(key: str) -> str:
        j = Judgement(
            0,
            0,
            1,
            1,
            0,
            "play",
            "play 1",
            "play 3",
            0.0,
            "good",
            {},
            reason=Reason(ReasonKey(key), params),
        )
        return rv.why_text(j)

    english = {key: why(key) for key in REVIEW_REASONS}
    a.prefs.speak(lang)
    for key in REVIEW_REASONS:
        text = why(key)
        assert text != english[key] and "{" not in text and "ai.reason" not in text, key


@pytest.mark.parametrize("lang", ["en", "ja", "uk"])
def test_the_dealers_name_by_his_hand_clears_the_cards_in_a_small_window(
    apps: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    # At 1024x640 the review's hand starts close to the left edge: "Computer 1 · Dealer" once
    # ran on under the first card (white on the card's paper, so it read "Computer 1 · Deal").
    data = tmp_path / "data"
    record(data, played_match())
    a = make_app(apps, data, "--size", "1024x640", "--lang", lang)
    a.stack.push(scenes.create("title", a))
    ledger = scenes.create("ledger", a)
    a.stack.push(ledger)
    key(ledger, pygame.K_r)
    rv = a.stack.top
    assert isinstance(rv, ReviewScene) and rv.timeline is not None
    deals = {p.deal for p in rv.timeline.positions}
    assert a.words.language == lang
    checked = 0
    real = gfx.blit_text
    drawn_at: dict[str, pygame.Rect] = {}

    def spy(surface: Any, text_: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        r = real(surface, text_, *args, **kwargs)
        drawn_at[text_] = r
        return r

    for viewer in (0, 1):
        if rv.viewer != viewer:
            key(rv, pygame.K_f)  # swap seats
        for deal in deals:
            rv.index = next(i for i, p in enumerate(rv.timeline.positions) if p.deal == deal)
            st = rv.state()
            if st.dealer != rv.viewer:
                continue
            rv.board_cache.clear()
            drawn_at.clear()
            monkeypatch.setattr(gfx, "blit_text", spy)
            rv.draw(pygame.display.get_surface())
            monkeypatch.setattr(gfx, "blit_text", real)
            first_card = rv.lay.hand_slots(len(st.hand(rv.viewer)))[0]
            name, word = rv.seat_name(rv.viewer), a.words.t("term.dealer")
            tags = [r for t, r in drawn_at.items() if t in (name, word, f"{name} · {word}")]
            assert tags, drawn_at.keys()
            assert all(r.right <= first_card.x for r in tags), (tags, first_card)
            assert any(word in t for t in drawn_at)  # "Dealer" is said, not cut off
            checked += 1
    assert checked >= 2


# --------------------------------------------------------------------------- deals you can check
def test_the_seal_shows_while_playing_and_the_seed_only_after_the_end(
    apps: list[Any], tmp_path: Path
) -> None:
    """Issue 33: the pause menu and the first-dealer prompt show the deal seal, never the seed;
    the ledger and the review of the finished match reveal the seed and say every deal was
    fixed before the first card; a review of a round mid-match shows only the seal."""
    from koikoi_desktop.scenes.match_config import MatchConfig
    from koikoi_desktop.words.deal import seal_code

    data = tmp_path / "data"
    a = make_app(apps, data)
    table = a.router.build(
        screens.Table(
            config=MatchConfig(PRESETS["nintendo"], ("human", "beginner"), seed=987_654_321_987),
        )
    )
    a.stack.push(table)
    prompt = a.stack.top
    m = table.match
    code = seal_code(m.commitment)
    assert any(code in line for line in prompt.lines)
    assert not any(str(m.seed) in line for line in prompt.lines)
    pause = PauseScene(a, table=table)
    assert code in say(pause.subheading, a.words) and str(m.seed) not in say(
        pause.subheading, a.words
    )
    # mid-match: the review of a settled round shows the seal only
    live = a.router.build(screens.Review(record=match_record(m), settled_only=True, inline=True))
    a.stack.push(live)
    assert live.deals is not None and live.deals.verdict == "unfinished"
    assert not any(str(m.seed) in line for line in live.chance_lines())
    a.stack.pop()

    done = new_match(PRESETS["nintendo"], seed=12, rounds=2)  # the first dealer drawn
    bots = [make_opponent("beginner", seed=1), make_opponent("beginner", seed=2)]
    while done.outcome is None:
        p = done.round.to_move
        done.apply(bots[p].choose(done.round.view(p), done.context(p)))
    rec = record(data, done)
    rv = a.router.build(
        screens.Review(record=match_record(done), match_id=rec.match_id, inline=True)
    )
    a.stack.push(rv)
    lines = rv.chance_lines()
    assert any(f"seed {done.seed}" in ln and seal_code(done.commitment) in ln for ln in lines)
    assert any("The earlier month deals first" in ln for ln in lines)  # the first draw
    rv.show_summary = True
    a.stack.draw(pygame.display.get_surface())  # the summary draws them

    ledger = scenes.create("ledger", a)
    a.stack.push(ledger)
    ledger.open_match(0)
    match = a.stack.top
    assert match.name == "ledger-match"
    header = [text for text, *_ in match.header_lines(match.rows.records[0])]
    assert any("Every deal was fixed before the first card was played" in t for t in header)
