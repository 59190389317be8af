"""The table across its seams (issue 34, items 1 and 2): the move log, the names and the buttons
are kept as facts and worded when drawn, so Continue rebuilds the same log and field from the
match record, and a language change (through the settings, as a player makes it) rewords every
line on the table at once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from koikoi_desktop import engine, scenes
from koikoi_desktop.i18n import ENGLISH, Key, Words, say
from koikoi_desktop.scenes import screens
from koikoi_desktop.scenes.match_config import MatchConfig
from koikoi_desktop.scenes.table.scene import TableScene
from koikoi_desktop.scenes.table.text import LogLine, log_text
from koikoi_desktop.ui import gfx
from koikoi_desktop.ui.widgets import Choice

from .conftest import pump
from .test_continue import close_app, continue_in_new_app, make_app, play_until


@pytest.fixture
def apps() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for a in made:
        if a.stack.top is not None:
            close_app(a)


def click(a: Any, pos: tuple[int, int]) -> None:
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        a.dispatch(pygame.event.Event(kind, button=1, pos=pos))


def key(a: Any, k: int) -> None:
    a.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def start(a: Any, seed: int, *, practice: bool = False) -> TableScene:
    a.stack.push(scenes.create("title", a))
    rules = engine.PRESETS["nintendo"]
    t = TableScene(
        a, screens.Table(config=MatchConfig(rules, ("human", "beginner"), seed, practice))
    )
    a.stack.push(t)
    assert t.prompt is not None and t.prompt.key == ("first",)
    t.prompt.widgets[-1].activate()
    assert pump(t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")
    return t


def idle_turn(a: Any, t: TableScene) -> None:
    """Play on to the player's next turn in the play phase, every animation shown."""
    play_until(a, t, lambda: t.controller.my_turn() and t.controller.state.phase == "play")


def words(t: TableScene) -> list[str]:
    """The move log as its app words it now."""
    c, w = t.controller, t.app.words
    return [log_text(w, line, c.names(w), c.rules) for line in c.log]


# ---------------------------------------------------------------------------- item 1: Continue


def test_continue_rebuilds_the_log_and_the_field_order_and_plays_on(tmp_path: Path, apps) -> None:
    data = tmp_path / "data"
    a = make_app(data)
    apps.append(a)
    t = start(a, seed=11)
    # into the second round, a few moves in: captures have left gaps in the field
    play_until(
        a,
        t,
        lambda: (
            len(t.match.ledger) >= 1
            and len(t.match.round.moves) >= 6
            and t.controller.my_turn()
            and t.controller.state.phase == "play"
        ),
        limit=3000,
    )
    log = list(t.controller.log)
    field = list(t.director.board.field)
    assert None in field or field != sorted(c for c in field if c is not None)  # not dealt order
    said = words(t)
    assert LogLine("round", n=2) in log and all(said)
    close_app(a)
    apps.remove(a)

    b, t2 = continue_in_new_app(apps, data)
    c2 = t2.controller
    assert c2.log[:-1] == log  # the same story, as facts
    assert c2.log[-1] == LogLine("resumed")
    assert words(t2)[:-1] == said  # and the same words
    assert t2.director.board.field == field  # the field in the same places
    assert pump(t2, lambda: c2.my_turn())
    # play on into the next round: new lines follow the rebuilt ones
    number = t2.match.round_number
    play_until(
        b,
        t2,
        lambda: t2.match.round_number > number and c2.my_turn() and c2.state.phase == "play",
        limit=3000,
    )
    assert c2.log[: len(log) + 1] == [*log, LogLine("resumed")]
    assert LogLine("round", n=number + 1) in c2.log[len(log) + 1 :]
    assert all(words(t2))
    # the live log and a log rebuilt from the record now tell the same moves
    rebuilt = c2.replayed_log(t2.match)
    live = [ln for ln in c2.log if ln.kind != "resumed"]
    assert live == rebuilt


# ---------------------------------------------------------------------------- item 2: language


LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
#: The keys a label names stay as printed on the keyboard ("Меню (Esc)", "Порада (H)"), and
#: a maker's name is not translated ("Nintendo (стандарт)").
KEY_HINT = re.compile(r"\((Esc|[A-Z])\)|Nintendo")


def latin(texts: list[str]) -> list[str]:
    """The lines that still have a word in Latin letters (besides key names)."""
    return [s for s in texts if LATIN_WORD.search(KEY_HINT.sub("", s))]


def drawn_text(a: Any, monkeypatch: Any) -> list[str]:
    """Every line of text the frame draws."""
    lines: list[str] = []
    real = gfx.blit_text

    def spy(surface: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> pygame.Rect:
        lines.append(text)
        return real(surface, text, size, pos, **kw)

    monkeypatch.setattr(gfx, "blit_text", spy)
    t = a.stack.top
    t.view = type(t.view)(a)  # a fresh view: every layer drawn, none kept from before
    a.stack.draw(a.screen)
    monkeypatch.setattr(gfx, "blit_text", real)
    return lines


def switch_language(a: Any, t: TableScene, code: str) -> None:
    """Menu → Settings → Language, as a player does it, and back to the table."""
    switch_setting(a, t, "set_language", code)


def switch_setting(a: Any, t: TableScene, handler: str, value: str) -> None:
    """Menu → Settings → the choice whose handler is ``handler`` set to ``value``, as a player
    does it, and back to the table."""
    click(a, t.buttons[0].rect.center)  # Menu
    pause = a.stack.top
    assert pause.name == "pause"
    a.stack.draw(a.screen)
    settings_button = next(b for b in pause.buttons if b.label == Key("ui.title.settings"))
    click(a, settings_button.rect.center)
    settings = a.stack.top
    assert settings.name == "settings"
    a.stack.draw(a.screen)
    choice = next(
        w
        for _, w in settings.rows
        if isinstance(w, Choice) and getattr(w.on_change, "__name__", "") == handler
    )
    for _ in range(len(choice.options)):
        if choice.value == value:
            break
        click(a, (choice.rect.right - 5, choice.rect.centery))
        a.stack.draw(a.screen)
    assert choice.value == value
    key(a, pygame.K_ESCAPE)  # the settings close
    key(a, pygame.K_ESCAPE)  # the pause menu closes
    assert a.stack.top is t


def test_a_language_change_mid_match_rewords_the_whole_table(tmp_path: Path, apps, monkeypatch):
    a = make_app(tmp_path / "data")
    apps.append(a)
    t = start(a, seed=3, practice=True)
    for _ in range(3):
        t.controller.apply(t.controller.state.legal_actions()[0])
        idle_turn(a, t)
    t.controller.suggest()
    english = drawn_text(a, monkeypatch)
    assert "You" in " ".join(english) and say(t.buttons[0].label, a.words) in english

    switch_language(a, t, "uk")
    assert a.words == Words("uk")  # the app holds the new value; nothing else was switched
    c = t.controller
    assert c.names(a.words) == ("Ви", "Комп’ютер (Початківець)")
    labels = [say(b.label, a.words) for b in t.buttons]  # with their keys where there is room
    assert [label.split(" (")[0] for label in labels] == ["Меню", "Скасувати хід", "Порада"]
    shown = drawn_text(a, monkeypatch)
    logged = words(t)
    assert len(logged) > 6 and all(logged)
    english_left = latin(shown + logged)
    assert not english_left, english_left
    assert any(s.startswith("Ви ") for s in logged)  # the player's lines, in the second person
    suggestion = say(c.suggestion, a.words)
    assert suggestion and not latin([suggestion]) and suggestion in shown
    for label in labels:
        assert label in shown
    # new lines are Ukrainian too, and none mixes the languages ("You грає …")
    c.apply(c.state.legal_actions()[0])
    idle_turn(a, t)
    assert not latin(words(t))


def log_drawn(a: Any, t: TableScene, monkeypatch: Any) -> list[str]:
    """The lines the table's view (as it is, with what it keeps) draws in the move log."""
    drawn: list[tuple[str, pygame.Rect]] = []
    real = gfx.blit_text

    def spy(surface: pygame.Surface, text: str, size: int, pos: Any, **kw: Any) -> pygame.Rect:
        rect = real(surface, text, size, pos, **kw)
        drawn.append((text, rect))
        return rect

    monkeypatch.setattr(gfx, "blit_text", spy)
    a.stack.draw(a.screen)
    monkeypatch.setattr(gfx, "blit_text", real)
    area = t.view.log_area(t.frame())  # as drawn
    return [text for text, rect in drawn if area.collidepoint(rect.topleft)]


def test_a_language_change_rewords_the_log_the_view_has_kept(tmp_path: Path, apps, monkeypatch):
    """The view keeps the move log's lines between frames: after a language or a name-style
    change (the seats' names stay the same in the second) the same view draws the log as a
    fresh view does, every line in the new words, none kept from the old."""
    a = make_app(tmp_path / "data")
    apps.append(a)
    t = start(a, seed=3)
    for _ in range(3):
        t.controller.apply(t.controller.state.legal_actions()[0])
        idle_turn(a, t)
    view = t.view
    english = log_drawn(a, t, monkeypatch)  # the log worded in English and kept
    switch_language(a, t, "uk")
    names = t.controller.names(a.words)
    ukrainian = log_drawn(a, t, monkeypatch)
    assert t.view is view and ukrainian[0] == a.words.t("ui.table.log"), ukrainian
    assert len(ukrainian) > 4 and not latin(ukrainian), ukrainian
    assert ukrainian[-1] in words(t)[-1]  # the newest entry's last line
    switch_setting(a, t, "set_name_style", "japanese")
    assert t.controller.names(a.words) == names  # only the words differ: the cards' names
    japanese = log_drawn(a, t, monkeypatch)
    assert t.view is view and japanese != ukrainian
    t.view = type(view)(a)  # a fresh view draws the same lines
    assert log_drawn(a, t, monkeypatch) == japanese and english != ukrainian


def test_a_match_started_in_ukrainian_continues_in_english(tmp_path: Path, apps) -> None:
    data = tmp_path / "data"
    a = make_app(data, "uk")
    apps.append(a)
    t = start(a, seed=5)
    t.controller.apply(t.controller.state.legal_actions()[0])
    idle_turn(a, t)
    assert t.controller.names(a.words) == ("Ви", "Комп’ютер (Початківець)")
    assert any(re.search("[А-яІіЇїЄє]", line) for line in words(t))
    close_app(a)
    apps.remove(a)

    b, t2 = continue_in_new_app(apps, data, "en")  # as --lang en does
    assert b.words == ENGLISH
    assert t2.controller.names(b.words) == ("You", "Computer (Beginner)")
    assert all(not re.search("[А-яІіЇїЄє]", line) for line in words(t2))


def test_a_typed_name_stays_as_typed_across_languages(tmp_path: Path, apps) -> None:
    data = tmp_path / "data"
    a = make_app(data)
    apps.append(a)
    a.stack.push(scenes.create("title", a))
    cfg = MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), 9, names=("Оксана", ""))
    t = TableScene(a, screens.Table(config=cfg))
    a.stack.push(t)
    t.prompt.widgets[-1].activate()
    idle_turn(a, t)
    t.controller.apply(t.controller.state.legal_actions()[0])
    idle_turn(a, t)
    assert t.controller.names(a.words) == ("Оксана", "Computer (Beginner)")
    close_app(a)
    apps.remove(a)
    b, t2 = continue_in_new_app(apps, data, "ja")
    assert t2.controller.names(b.words)[0] == "Оксана"
    assert t2.controller.names(b.words)[1] == Words("ja").t(
        "ui.table.computer", level=Words("ja").t("ui.level.beginner")
    )


def test_a_save_from_before_keeps_no_old_words(tmp_path: Path) -> None:
    """A saved match written when names were stored as words: its default names are known
    as defaults in any language at the storage boundary and rendered anew; a typed one stays."""
    from koikoi_desktop.storage.models import SavedMeta
    from koikoi_desktop.words.names import SeatNames

    seats = ("human", "intermediate")
    meta = SavedMeta.model_validate(
        {"match_id": "m1", "seats": seats, "names": ["Ви", "Комп’ютер (Досвідчений)"]}
    )
    assert meta.names == ("", "")
    old = SeatNames.from_saved(seats, meta.names)
    assert old.now(ENGLISH) == ("You", "Computer (Intermediate)")
    typed = SavedMeta.model_validate({"match_id": "m1", "seats": seats, "names": ["Rin", ""]})
    assert SeatNames.from_saved(seats, typed.names).now(ENGLISH) == (
        "Rin",
        "Computer (Intermediate)",
    )


def test_undo_works_after_continue(tmp_path: Path, apps) -> None:
    """Practice: a continued match knows its moves again, so Undo takes back the player's
    last move (it was enabled but did nothing: the moves were not rebuilt)."""
    data = tmp_path / "data"
    a = make_app(data)
    apps.append(a)
    t = start(a, seed=3, practice=True)
    c = t.controller
    for _ in range(2):
        c.apply(c.state.legal_actions()[0])
        idle_turn(a, t)
    moves = list(c.actions)
    close_app(a)
    apps.remove(a)

    _, t2 = continue_in_new_app(apps, data)
    c2 = t2.controller
    assert c2.actions == moves
    assert pump(t2, lambda: c2.my_turn())
    before = len(t2.match.round.moves)
    click(t2.app, t2.undo_button.rect.center)
    assert len(t2.match.round.moves) < before
    assert c2.log[-1] == LogLine("undone")


def test_the_ledger_names_a_default_opponent_in_todays_language() -> None:
    """A match recorded while the game spoke Ukrainian (its default opponent name stored as
    words, as older versions did): the name reads in the language of today; a typed name stays
    as typed."""
    from koikoi_desktop.storage.models import SummaryRow
    from koikoi_desktop.words.names import opponent_text

    def row(name: str, level: str) -> SummaryRow:
        return SummaryRow.model_validate(
            {
                "match_id": "m",
                "date": "2025-01-01T00:00:00+00:00",
                "preset": "nintendo",
                "custom": 0,
                "unit": "points",
                "opponent_name": name,
                "opponent_level": level,
                "practice": 0,
                "computer": 0,
                "player_seat": 0,
                "winner": 0,
                "result": "win",
                "player_total": 1,
                "opponent_total": 0,
                "rounds": 1,
                "ending": "completed",
                "help_level": None,
            }
        )

    en, uk = Words("en"), Words("uk")
    old = row("Комп’ютер (Досвідчений)", "intermediate")
    assert old.opponent_name == ""
    assert opponent_text(en, old.opponent_name, old.opponent_level) == "Computer (Intermediate)"
    hot = row("Гравець 2", "hotseat")
    assert opponent_text(en, hot.opponent_name, "hotseat") == "Player 2 (two players)"
    typed = row("Оксана", "beginner").opponent_name
    assert opponent_text(en, typed, "beginner") == "Оксана (Beginner)"
    expert = row("Computer (Expert)", "expert")
    assert opponent_text(uk, expert.opponent_name, "expert") == "Комп’ютер (Експерт)"


def test_the_field_laid_out_live_is_the_field_laid_out_from_the_record(ui_app, monkeypatch) -> None:
    """Over three whole rounds between two computers, each time the board comes to rest the field
    the animation laid out card by card is exactly ``field_slots`` of the round's events (so a
    table rebuilt from the record shows it the same)."""
    from koikoi_desktop.ui import board as board_mod

    seen: list[tuple[list[int | None], list[int | None]]] = []
    real = board_mod.Board.sync

    def sync(self: Any, view: Any) -> None:
        if self.field_cards():  # a board the animation filled (not a fresh one)
            live = [c if c in view.field else None for c in self.field]
            while live and live[-1] is None and len(live) > 16:
                live.pop()
            seen.append((live, board_mod.field_slots(view.history)))
        real(self, view)

    monkeypatch.setattr(board_mod.Board, "sync", sync)
    a = ui_app
    a.stack.push(scenes.create("title", a))
    rules = engine.PRESETS["nintendo"]
    t = TableScene(a, screens.Table(config=MatchConfig(rules, ("beginner", "intermediate"), 21)))
    a.stack.push(t)
    for _ in range(20):  # three rounds or more; each round summary closed as a player would
        if len(t.match.ledger) >= 3:
            break
        pump(t, lambda: a.stack.top.name == "round-summary", 60)
        if a.stack.top.name == "round-summary":
            a.stack.top.on_back()
    assert len(t.match.ledger) >= 3
    assert len(seen) > 20
    assert all(live == built for live, built in seen), next(
        (live, built) for live, built in seen if live != built
    )


def test_an_announcement_on_show_follows_a_language_change(ui_app) -> None:
    """A yaku's announcement (and a round's banner) are worded from the event when drawn:
    back from the settings, the one still on show reads in the new language."""
    a = ui_app
    a.stack.push(scenes.create("title", a))
    t = TableScene(
        a, screens.Table(config=MatchConfig(engine.PRESETS["nintendo"], ("human", "beginner"), 2))
    )
    a.stack.push(t)
    t.prompt.widgets[-1].activate()
    assert pump(t, lambda: t.controller.my_turn())
    d = t.director
    d.queue.speed, d.queue.reduced = "normal", False
    d.play([engine.YakuMade(player=0, base=5, keys=("sanko",))])
    for _ in range(10):
        d.update(1 / 60)
    assert d.announce is not None and d.announce.text(a.words).startswith("You")
    a.prefs.speak("uk")  # as the settings screen does
    frame = t.frame()  # what the next frame draws
    assert frame.announce is not None
    assert frame.announce.text(frame.snap.words).startswith("Ви")
    assert "Три шляхетні" in frame.announce.text(frame.snap.words)
    d.say(Key("ui.common.round_n", n=2), hold=5)
    for _ in range(200):
        d.update(1 / 60)
        if d.banner:
            break
    assert t.frame().banner == "Раунд 2"
    a.prefs.speak("en")
    assert t.frame().banner == "Round 2"
