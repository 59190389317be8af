"""Hostile inputs to the whole game, run as the player runs it (``python -m koikoi_desktop``).

Every case checks what the player sees: either the game starts (exit status 0 after a scripted
``--frames 30 --screenshot``) or it stops with one readable line on stderr (status 2 for a bad
command line, 1 for a crash, with the report's path) - never a Python traceback, never a lost
ledger. ``tests/storage`` already proves the storage layer file by file (``Storage.open`` on damaged
settings, ledgers and autosaves); here the same kinds of damage go through the real app, plus the
command line, the data folder, the asset files and the crash handler.

Decisions:

* The ledger is "never lost" when, after the run, the exact original bytes still exist somewhere in
  the data folder (unchanged, or kept aside under another name) *and* every match that was
  readable before is still in the ledger when the data folder is opened again.
* A read-only data folder needs the kernel to refuse writes: ``chmod`` does that for a normal user;
  as root (CI containers) the folder is bind-mounted read-only in a private mount namespace
  (``unshare -m``); where neither works the test is skipped.
* A ``--data-dir`` naming an existing file may either start the game (with a warning) or stop with
  one line and status 2; the app currently chooses the latter, and both are accepted here.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for k in (
        "DISPLAY",
        "WAYLAND_DISPLAY",
        "KOIKOI_DATA_DIR",
        "KOIKOI_TEST_CRASH",
        "KOIKOI_ASSETS_DIR",
    ):
        env.pop(k, None)
    env.update(
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        PYTHONPATH=str(ROOT),
        **extra,
    )
    return env


def run(
    args: Sequence[str | bytes],
    *,
    env: dict[str, str] | None = None,
    prefix: Sequence[str] = (),
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run the game; assert that whatever happened, no traceback reached the player."""
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "koikoi_desktop", *args],
        capture_output=True,
        text=True,
        errors="replace",
        cwd=ROOT,
        env=env or _env(),
        timeout=timeout,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Fatal Python error" not in proc.stderr, proc.stderr
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}: {proc.stderr[-2000:]}"
    return proc


def start(
    data: Path, *extra: str, env: dict[str, str] | None = None, prefix: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """A scripted start: 30 frames and a screenshot; it must succeed."""
    base = data
    while not base.parent.is_dir():
        base = base.parent
    shot = base.parent / f"{base.name}-shot.png"
    proc = run(
        ["--frames", "30", "--screenshot", str(shot), "--data-dir", str(data), *extra],
        env=env,
        prefix=prefix,
    )
    assert proc.returncode == 0, proc.stderr
    assert shot.stat().st_size > 1000
    return proc


# ------------------------------------------------------------------------- command line
BAD_FLAGS: list[list[str | bytes]] = [
    ["--seed", "-1"],
    ["--seed", "1e5"],
    ["--seed", "0x10"],
    ["--seed", ""],
    ["--seed", "9" * 5000],
    ["--frames", "0"],
    ["--frames", "-5"],
    ["--frames", "many"],
    ["--frames", "1.5"],
    ["--size", "0x0"],
    ["--size", "800x600"],
    ["--size", "99999x99999"],
    ["--size", "1024x640x2"],
    ["--size", "x"],
    ["--size", "-1024x-640"],
    ["--size", "1024×640"],
    ["--lang", "xx"],
    ["--lang", ""],
    ["--lang", "../../etc/passwd"],
    ["--scene", "nowhere"],
    ["--scene", "pause"],
    ["--scene", "title\nsettings"],
    ["--speed", "warp"],
    ["--preset", "nope"],
    ["--preset", ""],
    ["--screenshot", "/no/such/folder/x.png"],
    ["--screenshot", "/"],
    ["--render-deck", "/no/such/folder/deck.png"],
    ["--render-deck", "/tmp"],
    ["--seed"],
    ["--data-dir"],
    ["--bogus"],
    ["stray"],
    ["--frames", "3", "--frames"],
    [b"--lang", b"\xff\xfe"],
    [b"--scene", b"caf\xc3"],
    ["--lang", "x" * 100_000],
    ["--record"],
    ["--matches", "3"],
    ["--seats", "expert,expert"],
    ["--autoplay", "--matches", "0"],
    ["--autoplay", "--seats", "expert"],
    ["--autoplay", "--seats", "expert,god"],
    ["--continue", "--autoplay"],
    ["--export-ledger", "/no/such/folder/x.json"],
    ["--export-ledger", "/tmp"],
    ["--import-ledger", "/no/such/file.json"],
    ["--import-ledger", "/tmp"],
    ["--export-ledger", "a.json", "--import-ledger", "b.json"],
    ["--review", "latest"],
    ["--json", "r.json"],
    ["--review", "latest", "--json", "/tmp"],
    ["--review", "latest", "--json", "/no/such/folder/r.json"],
    ["--review", "", "--json", "r.json"],
]


def test_bad_flags_one_line_exit_2(tmp_path: Path) -> None:
    """Every bad value: status 2, one line starting ``koikoi-desktop: error:``, nothing written.
    (The cases run side by side: each is a separate process.)"""
    procs = []
    for i, argv in enumerate(BAD_FLAGS):
        data = tmp_path / f"d{i}"
        full = argv if "--data-dir" in argv else [*argv, "--data-dir", str(data)]
        procs.append(
            (
                argv,
                data,
                subprocess.Popen(
                    [sys.executable, "-m", "koikoi_desktop", *full],
                    cwd=ROOT,
                    env=_env(),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                ),
            )
        )
    problems = []
    for argv, data, p in procs:
        _, err_b = p.communicate(timeout=120)
        err = err_b.decode("utf-8", "replace")
        lines = err.splitlines()
        ok = (
            p.returncode == 2
            and len(lines) == 1
            and "Traceback" not in err
            and lines[0].startswith("koikoi-desktop: error: ")
            and not data.exists()
        )
        if not ok:
            problems.append(f"{argv!r:.80}: status {p.returncode}, stderr {err[:300]!r}")
    assert not problems, "\n".join(problems)


def _ledger_of(data: Path) -> list[str]:
    import sqlite3

    conn = sqlite3.connect(data / "koikoi.sqlite3")
    try:
        return sorted(r[0] for r in conn.execute("SELECT match_id FROM matches"))
    finally:
        conn.close()


def test_ledger_command_line_export_import_and_bad_files(tmp_path: Path) -> None:
    """--autoplay --record --matches --seats, then --export-ledger, --import-ledger into another
    folder (twice: merged by id), and bad import files: one line, status 2, nothing changed."""
    a, b = tmp_path / "a", tmp_path / "b"
    proc = run(
        [
            "--autoplay",
            "--record",
            "--matches",
            "2",
            "--seats",
            "beginner,beginner",
            "--speed",
            "off",
            "--seed",
            "3",
            "--data-dir",
            str(a),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    ids = _ledger_of(a)
    assert len(ids) == 2
    tampered = tmp_path / "tampered"
    shutil.copytree(a, tampered)  # the deals are checked on a copy: one of its records is changed
    _check_the_deals(tampered, ids)
    out = tmp_path / "ledger.json"
    proc = run(["--export-ledger", str(out), "--data-dir", str(a)])
    assert proc.returncode == 0 and "2 matches" in proc.stdout
    import json

    doc = json.loads(out.read_text("utf-8"))
    assert sorted(m["match_id"] for m in doc["matches"]) == ids
    wanted = {"date", "preset", "players", "rounds", "record"}
    assert all(wanted <= m.keys() for m in doc["matches"])
    for _ in range(2):
        proc = run(["--import-ledger", str(out), "--data-dir", str(b)])
        assert proc.returncode == 0, proc.stderr
    assert _ledger_of(b) == ids
    before = (b / "koikoi.sqlite3").read_bytes()
    for bad in (b"garbage", b'{"matches": [{"match_id": 5}]}', b"[" * 100_000, b'{"matches": 3}'):
        f = tmp_path / "bad.json"
        f.write_bytes(bad)
        proc = run(["--import-ledger", str(f), "--data-dir", str(b)])
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
        assert proc.stderr.startswith("koikoi-desktop: error: ")
    assert _ledger_of(b) == ids and (b / "koikoi.sqlite3").read_bytes() == before


def _check_the_deals(data: Path, ids: list[str]) -> None:
    """Issue 33: --verify-deals passes for every recorded match, and fails with its one line
    after a deck line of one of them is changed in the database."""
    proc = run(["--verify-deals", "all", "--data-dir", str(data)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("Every deal was fixed before the first card was played") == 2
    assert "2 of 2 matches" in proc.stdout
    import sqlite3

    conn = sqlite3.connect(data / "koikoi.sqlite3")
    try:
        with conn:
            (record,) = conn.execute(
                "SELECT record FROM match_data WHERE match_id = ?", (ids[0],)
            ).fetchone()
            lines = record.splitlines()
            at = [i for i, ln in enumerate(lines) if ln.startswith("deck ")][1]
            cards = lines[at].split()[1:]
            lines[at] = "deck " + " ".join([*cards[1:], cards[0]])  # round 2's deck cut once
            conn.execute(
                "UPDATE match_data SET record = ? WHERE match_id = ?", ("\n".join(lines), ids[0])
            )
    finally:
        conn.close()
    proc = run(["--verify-deals", ids[0], "--data-dir", str(data)])
    assert proc.returncode == 1 and proc.stdout.splitlines() == [
        f"match {ids[0]}: Deal 2 is not the one the seed gives: this record was changed."
    ], proc.stdout
    assert run(["--verify-deals", ids[1], "--data-dir", str(data)]).returncode == 0
    proc = run(["--verify-deals", "no-such-match", "--data-dir", str(data)])
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1


def test_continue_flag_with_and_without_a_saved_match(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc = start(data, "--continue")  # nothing saved: the title (it draws), not an error
    assert proc.returncode == 0
    import random

    from koikoi_desktop import engine
    from koikoi_desktop.storage import Storage

    m = engine.new_match(engine.PRESETS["nintendo"], first_dealer=0, seed=2)
    rng = random.Random(0)
    for _ in range(5):
        m.apply(rng.choice(m.round.legal_actions()))
    with Storage.open(data) as store:
        assert store.write_autosave(
            "m-cont",
            engine.match_record(m),
            {"seats": ["human", "beginner"], "names": ["You", "Ren"]},
        )
    proc = start(data, "--continue", "--frames", "60")
    assert proc.returncode == 0
    with Storage.open(data) as store:  # resumed and still in progress (saved again, same id)
        saved = store.read_autosave()
        assert saved is not None and saved.meta["match_id"] == "m-cont"


def test_help_is_not_an_error() -> None:
    proc = run(["--help"])
    assert proc.returncode == 0
    assert "--data-dir" in proc.stdout


# ------------------------------------------------------------------------- data folder
def test_data_dir_that_is_a_file(tmp_path: Path) -> None:
    f = tmp_path / "not-a-folder"
    f.write_bytes(b"precious")
    proc = run(["--frames", "5", "--data-dir", str(f)])
    assert proc.returncode in (0, 2)
    if proc.returncode == 2:
        assert len(proc.stderr.splitlines()) == 1 and str(f) in proc.stderr
    assert f.read_bytes() == b"precious"


def test_data_dir_under_a_file_starts_and_keeps_going(tmp_path: Path) -> None:
    """A folder that cannot be created (a file is in the way): the game runs from memory."""
    (tmp_path / "blocker").write_bytes(b"x")
    start(tmp_path / "blocker" / "data")
    assert (tmp_path / "blocker").read_bytes() == b"x"


def test_missing_data_dir_is_created(tmp_path: Path) -> None:
    data = tmp_path / "a" / "b" / "c"
    start(data)
    assert (data / "settings.json").is_file()


def _readonly_prefix(folder: Path) -> list[str]:
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return []
    if shutil.which("unshare") is None:
        pytest.skip("root without unshare: cannot make a read-only folder")
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"'
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, str(folder), "true"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip("cannot bind-mount read-only here")
    return ["unshare", "-m", "sh", "-c", script, str(folder)]


def test_read_only_data_dir_starts_and_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "ro"
    ledger = make_ledger(data, 3)
    before = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
    prefix = _readonly_prefix(data)
    try:
        start(data, prefix=prefix)
        start(data, "--scene", "ledger", prefix=prefix)
        # a crash with a read-only data folder still writes its report (to the temp folder)
        proc = run(
            ["--frames", "50", "--data-dir", str(data)],
            prefix=prefix,
            env=_env(KOIKOI_TEST_CRASH="1"),
        )
        assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1
        report = Path(proc.stderr.strip().rsplit(" ", 1)[-1])
        assert report.is_file() and "KOIKOI_TEST_CRASH" in report.read_text()
        report.unlink()
    finally:
        data.chmod(0o755)
    after = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
    assert {k: v for k, v in after.items() if k in before} == before
    assert ledger <= match_ids(data)


# ------------------------------------------------------------------------- damaged files
def make_ledger(data: Path, n: int) -> set[str]:
    """A real ledger of ``n`` matches written through Storage; returns their ids."""
    from koikoi_desktop.storage import MatchRecord, RoundEntry, Storage

    ids = set()
    with Storage.open(data) as store:
        for i in range(n):
            rounds = [
                RoundEntry(
                    round=r + 1,
                    dealer=r % 2,
                    end="stop",
                    winner=r % 2,
                    yaku=[{"key": "tane", "points": 1 + r}],
                    base=1 + r,
                    final=1 + r,
                    paid=1 + r,
                    balances=(r, i),
                )
                for r in range(3)
            ]
            rec = MatchRecord(
                match_id=f"hostile{i:03d}",
                preset="nintendo",
                date=datetime(2025, 3, 1 + i, tzinfo=UTC),
                opponent_name="Ayame ✿",
                rounds=rounds,
                final_balances=(2, i),
                winner=0,
            )
            store.record_match(rec)
            ids.add(rec.match_id)
    return ids


def match_ids(data: Path) -> set[str]:
    from koikoi_desktop.storage import Storage

    with Storage.open(data) as store:
        return {m.match_id for m in store.ledger.page(0, 100_000)}


def kept(data: Path, original: bytes) -> bool:
    """The exact original bytes are still somewhere in the data folder."""
    return any(
        p.is_file() and p.stat().st_size == len(original) and p.read_bytes() == original
        for p in data.rglob("*")
    )


def _deep(n: int) -> bytes:
    return b'{"a":' * n + b"1" + b"}" * n


def _junk(n: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(n)


def _reencode(raw: bytes, codec: str) -> bytes:
    return raw.decode("utf-8").encode(codec, errors="replace")


# name -> (settings bytes or None, function: good ledger bytes -> damaged ledger bytes)
DAMAGE = {
    "deep-nesting": (_deep(100_000), lambda g: g + _deep(100_000) + b"\n" + b"[" * 100_000),
    "huge-numbers": (
        b'{"schema_version": 1, "ui_scale": 1'
        + b"0" * 100_000
        + b', "sound_volume": 1e999, "quiz_score": -1e308}',
        lambda g: (
            g.replace(b'"paid":', b'"paid":' + b"9" * 50_000 + b',"x":', 1)
            + b'{"final_balances": [1e999, -1e999], "winner": 99999999999999999999}\n'
        ),
    ),
    "utf16": (
        '{"language": "ja", "player_name": "花子"}'.encode("utf-16"),
        lambda g: _reencode(g, "utf-16"),
    ),
    "shift-jis-latin1": (
        '{"player_name": "Kota 花子"}'.encode("shift_jis"),
        lambda g: _reencode(g, "latin-1"),
    ),
    "megabytes-of-junk": (
        _junk(3_000_000, 1),
        lambda g: _junk(2_000_000, 2) + g + _junk(2_000_000, 3),
    ),
    "nul-bytes": (
        b'{"language":\0"uk"}' + b"\0" * 5000,
        lambda g: g.replace(b"\n", b"\0\n", 1) + b"\0" * 100_000,
    ),
    "empty": (b"", lambda g: b""),
    "truncated": (b'{"language": "s', lambda g: g[: len(g) * 2 // 3]),
}


def _old_ledger_bytes(data: Path) -> bytes:
    """The version-0.1 ``ledger.jsonl`` of the matches in ``data``'s database."""
    from koikoi_desktop.storage import Storage

    with Storage.open(data) as store:
        return b"".join(r.model_dump_json().encode() + b"\n" for r in store.ledger.page(0, 100_000))


@pytest.mark.parametrize("case", list(DAMAGE))
def test_damaged_settings_old_ledger_and_autosave(case: str, tmp_path: Path) -> None:
    """Damaged settings, a damaged version-0.1 ledger and autosave to import: the game
    starts on the ledger screen, keeps every damaged byte, and loses no recorded match."""
    data = tmp_path / "data"
    good = make_ledger(data, 4)
    settings_raw, damage = DAMAGE[case]
    damaged = damage(_old_ledger_bytes(data))
    (data / "ledger.jsonl").write_bytes(damaged)
    if settings_raw is not None:
        (data / "settings.json").write_bytes(settings_raw)
    (data / "autosave.json").write_bytes(damaged[:50_000] or b"\0")
    start(data, "--scene", "ledger")  # the ledger screen reads the matches and shows warnings
    if damaged:
        assert kept(data, damaged), "the damaged old ledger's bytes are gone"
    if settings_raw:
        assert kept(data, settings_raw), "the damaged settings' bytes are gone"
    assert good <= match_ids(data)


@pytest.mark.parametrize("case", [c for c in DAMAGE if c not in ("utf16", "shift-jis-latin1")])
def test_damaged_database(case: str, tmp_path: Path) -> None:
    """The database itself damaged the same ways: set aside byte for byte, the game starts
    and records again."""
    data = tmp_path / "data"
    make_ledger(data, 4)
    db = data / "koikoi.sqlite3"
    damaged = DAMAGE[case][1](db.read_bytes())
    db.write_bytes(damaged)
    start(data, "--scene", "ledger")
    if damaged:
        assert kept(data, damaged), "the damaged database's bytes are gone"
    more = make_ledger(data, 1)
    assert more <= match_ids(data)


def test_settings_and_ledger_that_are_folders(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for name in ("settings.json", "koikoi.sqlite3", "ledger.jsonl", "autosave.json"):
        (data / name).mkdir(parents=True)
    start(data)


def test_old_ledger_only_in_the_backup_survives_a_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    good = make_ledger(data, 2)
    old = _old_ledger_bytes(data)
    (data / "koikoi.sqlite3").unlink()
    (data / "ledger.backup.jsonl").write_bytes(old)
    start(data)
    assert good <= match_ids(data)


# ------------------------------------------------------------------------- assets
def _assets_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "assets"
    shutil.copytree(ROOT / "assets", dst, ignore=shutil.ignore_patterns("source", "*.py"))
    return dst


def test_damaged_assets_fall_back_without_a_traceback(tmp_path: Path) -> None:
    from koikoi_desktop import text

    assets = _assets_copy(tmp_path)
    cards = sorted((assets / "cards").glob("*.svg"))
    cards[0].write_bytes(_junk(4000, 5))  # junk instead of an SVG
    cards[4].write_bytes(cards[4].read_bytes()[:300])  # truncated
    cards[8].write_bytes(b"<svg" + b"\0" * 100)
    (assets / "cards" / "back.svg").unlink()
    fonts = assets / "fonts"
    regular = fonts / "NotoSans-Regular.ttf"
    regular.write_bytes(regular.read_bytes()[:5000])  # SDL_ttf would segfault on this
    (fonts / "NotoSans-Bold.ttf").write_bytes(_junk(20_000, 6))
    (fonts / "NotoSansJP-Regular.otf").unlink()
    for badge in list((assets / "ui").rglob("*.svg"))[:3]:
        badge.write_bytes(b"not an svg")
    assert not text.font_file_ok(regular)
    env = _env(KOIKOI_ASSETS_DIR=str(assets))
    for scene, lang in (
        ("title", "en"),
        ("table", "ja"),
        ("month-reference", "uk"),
        ("yaku-reference", "ja"),
    ):
        start(tmp_path / "data", "--scene", scene, "--lang", lang, env=env)


def test_no_assets_at_all(tmp_path: Path) -> None:
    env = _env(KOIKOI_ASSETS_DIR=str(tmp_path / "nothing-here"))
    start(tmp_path / "data", "--scene", "table", env=env)


def test_shipped_fonts_pass_the_damage_check() -> None:
    """The check that keeps a damaged font from crashing SDL_ttf must accept the real ones."""
    from koikoi_desktop import text

    files = sorted((ROOT / "assets" / "fonts").glob("*.[ot]tf"))
    assert files
    for f in files:
        assert text.font_file_ok(f), f


# ------------------------------------------------------------------------- crash handler
def test_crash_report_has_traceback_and_match_record(tmp_path: Path) -> None:
    from koikoi_desktop import engine

    data = tmp_path / "data"
    proc = run(
        ["--autoplay", "--speed", "off", "--seed", "4", "--data-dir", str(data)],
        env=_env(KOIKOI_TEST_CRASH="table:400"),
    )
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    reports = list((data / "crash").glob("crash-*.txt"))
    assert len(reports) == 1
    assert str(reports[0]) in lines[0]
    text = reports[0].read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text
    assert "RuntimeError: KOIKOI_TEST_CRASH=table:400" in text
    _, sep, record = text.partition("match record")
    assert sep, "no match record in the crash report"
    record = record.split("\n", 1)[1]
    assert "moves play" in record
    match = engine.replay_match(record)  # the record replays: the match can be studied
    assert match.rounds_played >= 0


def test_crash_on_the_title_has_no_match_record(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc = run(["--frames", "20", "--data-dir", str(data)], env=_env(KOIKOI_TEST_CRASH="1"))
    assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1
    (report,) = (data / "crash").glob("crash-*.txt")
    text = report.read_text(encoding="utf-8")
    assert "KOIKOI_TEST_CRASH=1" in text and "match record" not in text
