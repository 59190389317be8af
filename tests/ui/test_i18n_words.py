"""The language is a value (:class:`koikoi_desktop.i18n.Words`), never a module's state: two
``Words`` in two languages, used in turn or from two threads at once, each say everything in
their own language, and the i18n module keeps nothing that changes."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest

from koikoi_desktop import i18n
from koikoi_desktop.i18n import ENGLISH, Key, Words, say

I18N_DIR = Path(i18n.__file__).resolve().parent


def test_the_i18n_module_has_no_global_statement_and_no_setter():
    for path in I18N_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        globals_ = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Global)]
        assert not globals_, f"{path.name}: a global statement at lines {globals_}"
    for gone in ("set_language", "get_language", "set_name_style", "get_name_style", "t"):
        assert not hasattr(i18n, gone), f"i18n.{gone} is module-level language state"


def test_no_module_level_variable_is_reassigned_anywhere_in_i18n():
    """Module-level names are bound once (constants, functions, classes): nothing rebinds one
    later, so there is no "current" language to switch."""
    for path in I18N_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound: dict[str, int] = {}
        for node in tree.body:
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets = [node.target]
            for t in targets:
                for name in ast.walk(t):
                    if isinstance(name, ast.Name):
                        bound[name.id] = bound.get(name.id, 0) + 1
        twice = {k: n for k, n in bound.items() if n > 1}
        assert not twice, f"{path.name}: rebound at module level: {twice}"


def _sentence(words: Words) -> tuple[str, ...]:
    return (
        words.t("ui.common.back"),
        words.t("ui.newgame.rounds", n=3),
        words.t_person("ui.result.winner", words.t("ui.common.you")),
        words.card_name(29),
        words.yaku_name("akatan"),
        words.month_plant(8),
    )


def test_two_words_used_in_turn_never_disturb_each_other():
    uk, ja = Words("uk", "romaji"), Words("ja")
    want_uk, want_ja = _sentence(uk), _sentence(ja)
    assert want_uk != want_ja
    assert want_uk[0] == "Назад" and want_uk[4] == "Акатан"
    for _ in range(50):
        assert _sentence(ja) == want_ja
        assert _sentence(uk) == want_uk
    assert _sentence(ENGLISH)[0] == "Back"  # and English is untouched by either


def test_two_threads_in_two_languages_never_disturb_each_other():
    uk, sk = Words("uk"), Words("sk", "japanese")
    want = {uk: _sentence(uk), sk: _sentence(sk)}
    start = threading.Barrier(2)
    wrong: list[tuple[str, tuple[str, ...]]] = []

    def speak(words: Words) -> None:
        start.wait()
        for _ in range(2000):
            got = _sentence(words)
            if got != want[words]:
                wrong.append((words.language, got))

    threads = [threading.Thread(target=speak, args=(w,)) for w in (uk, sk)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not wrong, wrong[:3]


def test_words_are_frozen_and_hashable_so_caches_can_key_on_them():
    a, b = Words("uk"), Words("uk")
    assert a == b and hash(a) == hash(b) and a != Words("uk", "romaji")
    with pytest.raises(AttributeError):
        a.language = "en"  # type: ignore[misc]


def test_a_label_is_worded_in_the_words_it_is_given():
    label = Key("ui.table.dealer", name="Akiko")
    assert say(label, Words("en")) == "Dealer: Akiko"
    assert say(label, Words("uk")) != say(label, Words("en"))
    assert say("Oksana", Words("ja")) == "Oksana"  # a name a person typed stays as typed
    nested = Key("ui.learn.label", label=Key("ui.reference.feeds"))
    assert say(nested, Words("sk")) == Words("sk").t(
        "ui.learn.label", label=Words("sk").t("ui.reference.feeds")
    )


def test_the_app_holds_the_words_and_a_settings_change_makes_new_ones(tmp_path: Path) -> None:
    """The app's words come from the settings (``--lang`` first) and change only through
    the settings service (``app.prefs``): a new value, never an edit of the old one (a screen
    that kept the old value still speaks its language until it reads the app's again)."""
    from pydantic import ValidationError

    from koikoi_desktop import app as app_mod

    a = app_mod.App(app_mod.parse_args(["--data-dir", str(tmp_path / "d"), "--lang", "ja"]))
    a.open_storage()
    assert a.words == Words("ja") and a.settings.language == "en"  # --lang, not the saved one
    before = a.words
    a.prefs.apply(a.settings.model_copy(update={"name_display": "romaji"}))
    assert a.words == Words("ja", "romaji")  # the name style changes; the run's language stays
    a.prefs.speak("uk")
    assert a.words == Words("uk", "romaji") and a.settings.language == "uk"
    assert before == Words("ja")  # the old value is untouched
    with pytest.raises(ValidationError):
        a.prefs.speak("de")
    assert a.words == Words("uk", "romaji")  # a refused change changes nothing
    a.prefs.apply(a.settings.model_copy(update={"sound_volume": 10}))
    assert a.words == Words("uk", "romaji")
    a.close_storage()
