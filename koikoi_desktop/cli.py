"""The command line: parsing and validating ``python -m koikoi_desktop`` arguments, and the
one-shot commands that run instead of the game (``--export-ledger``, ``--import-ledger``,
``--verify-deals``, ``--review``, ``--render-deck``): their output and their lines on stderr are
English (:data:`koikoi_desktop.i18n.ENGLISH`), whatever language the game speaks.

A bad value raises :class:`UsageError` with one line (``app.main`` prints it and exits 2); parsing
opens no window and touches no data folder. Validation that needs the file system (a
screenshot folder that exists, an import file that is a file) happens here too, so a run never
starts only to fail at its end.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from koikoi_desktop import __version__
from koikoi_desktop.ai import LEVELS
from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.storage.cause import Refused
from koikoi_desktop.words.storage import notice_text, refused_text

if TYPE_CHECKING:
    from koikoi_desktop.storage import Notice, Storage

MIN_SIZE = (1024, 640)
LANG_CODES = ("en", "uk", "ru", "sk", "ja")


class UsageError(Exception):
    """A bad command-line value (reported as one line, exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise UsageError(message)


def _nonneg_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def _pos_int(text: str) -> int:
    value = _nonneg_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800, got {text!r}")
    w, h = int(parts[0]), int(parts[1])
    if w < MIN_SIZE[0] or h < MIN_SIZE[1]:
        raise argparse.ArgumentTypeError(
            f"{w}x{h} is smaller than the minimum window size {MIN_SIZE[0]}x{MIN_SIZE[1]}"
        )
    if w > 10000 or h > 10000:
        raise argparse.ArgumentTypeError(f"{w}x{h} is larger than 10000x10000")
    return (w, h)


def _seats(text: str) -> tuple[str, str]:
    parts = [p.strip().lower() for p in text.split(",")]
    if len(parts) != 2 or not all(p in LEVELS for p in parts):
        raise argparse.ArgumentTypeError(
            f"expected two levels such as intermediate,expert (from {', '.join(LEVELS)}), "
            f"got {text!r}"
        )
    return (parts[0], parts[1])


def build_parser() -> argparse.ArgumentParser:
    from koikoi_desktop.scenes import CLI_SCENES

    p = _Parser(prog="koikoi-desktop", description="Koi-Koi Desktop: hanafuda for two.")
    p.add_argument("--version", action="version", version=f"koikoi-desktop {__version__}")
    p.add_argument(
        "--seed", type=_nonneg_int, help="random seed for the match (reproducible deals)"
    )
    p.add_argument(
        "--autoplay",
        action="store_true",
        help="computer vs computer through the real scenes, starting a match at once",
    )
    p.add_argument("--frames", type=_pos_int, help="quit after N frames (exit status 0)")
    p.add_argument(
        "--screenshot", metavar="FILE", help="write the last drawn frame to FILE on exit"
    )
    p.add_argument("--scene", metavar="NAME", help=f"start on a screen: {', '.join(CLI_SCENES)}")
    p.add_argument("--size", type=_size, metavar="WxH", help="window size (minimum 1024x640)")
    p.add_argument("--data-dir", metavar="DIR", help="where settings, ledger and autosave live")
    p.add_argument("--lang", metavar="CODE", help=f"language: {', '.join(LANG_CODES)}")
    p.add_argument("--render-deck", metavar="FILE", help="write a sheet of all 48 cards and exit")
    p.add_argument("--speed", choices=("off", "fast", "normal"), help="animation speed")
    p.add_argument("--preset", metavar="NAME", help="rule preset for --autoplay / --scene table")
    p.add_argument(
        "--continue",
        dest="resume",
        action="store_true",
        help="start straight into the saved match (the title, with one line, when there is none)",
    )
    p.add_argument(
        "--export-ledger", metavar="FILE", help="write the match ledger to FILE (JSON) and exit"
    )
    p.add_argument(
        "--import-ledger",
        metavar="FILE",
        help="merge a ledger export (JSON) into the match ledger by match id and exit",
    )
    p.add_argument(
        "--record",
        action="store_true",
        help="with --autoplay: record the matches in the ledger as computer matches",
    )
    p.add_argument(
        "--matches", type=_pos_int, metavar="N", help="with --autoplay: play N matches, then quit"
    )
    p.add_argument(
        "--realtime",
        action="store_true",
        help="with --autoplay: play at the clock's pace (60 fps), to watch and hear a match",
    )
    p.add_argument(
        "--seats",
        type=_seats,
        metavar="A,B",
        help=f"with --autoplay: the two computer levels ({', '.join(LEVELS)})",
    )
    p.add_argument(
        "--review",
        metavar="ID",
        help="review a recorded match (its id, or 'latest') into the --json file and exit",
    )
    p.add_argument("--json", metavar="FILE", help="with --review: where to write the review")
    p.add_argument(
        "--verify-deals",
        metavar="ID",
        help="check that every deal of a recorded match (its id, 'latest' or 'all') was fixed "
        "before its first card, from the seed revealed at its end, and exit",
    )
    return p


def _check_target(value: str | None, doing: str, *, writable: bool = False) -> None:
    """A file to be written: its folder exists and it is not a folder itself (and, when asked,
    the folder is writable); ``doing`` begins the message ("cannot write screenshot")."""
    if value is None:
        return
    target = Path(value).expanduser().resolve()
    if not target.parent.is_dir():
        raise UsageError(f"{doing}: folder {target.parent} does not exist")
    if target.is_dir():
        raise UsageError(f"{doing}: {target} is a folder")
    if writable and not os.access(target.parent, os.W_OK):
        raise UsageError(f"{doing}: folder {target.parent} is not writable")


def _check_choices(args: argparse.Namespace) -> None:
    """A screen and a language from their lists."""
    from koikoi_desktop.scenes import CLI_SCENES, NOT_FROM_THE_COMMAND_LINE

    if args.scene in NOT_FROM_THE_COMMAND_LINE:
        why = NOT_FROM_THE_COMMAND_LINE[args.scene]
        raise UsageError(f"--scene {args.scene} does not open from the command line: {why}")
    if args.scene is not None and args.scene not in CLI_SCENES:
        raise UsageError(f"unknown scene {args.scene!r} (choose from {', '.join(CLI_SCENES)})")
    if args.lang is not None and args.lang not in LANG_CODES:
        raise UsageError(f"unknown language {args.lang!r} (choose from {', '.join(LANG_CODES)})")


def _check_outputs(args: argparse.Namespace) -> None:
    """The screenshot and the deck sheet can be written."""
    _check_target(args.screenshot, "cannot write screenshot", writable=True)
    _check_target(args.render_deck, "cannot write deck sheet", writable=True)


def _check_ledger_files(args: argparse.Namespace) -> None:
    """The export can be written; the import is a file."""
    _check_target(args.export_ledger, "cannot export the ledger")
    if args.import_ledger is not None:
        source = Path(args.import_ledger).expanduser()
        if not source.is_file():
            raise UsageError(f"cannot import the ledger: {source} is not a file")


def _check_review(args: argparse.Namespace) -> None:
    """--review and --json together, a plausible id, a writable review file, no other
    one-shot command."""
    if args.review is None and args.json is None:
        return
    if args.review is None or args.json is None:
        raise UsageError("--review ID|latest and --json FILE go together")
    if not args.review.strip() or len(args.review) > 64:
        raise UsageError("--review takes a match id (as the ledger export shows) or 'latest'")
    _check_target(args.json, "cannot write the review")
    if args.export_ledger or args.import_ledger or args.autoplay:
        raise UsageError(
            "--review cannot be combined with --export-ledger, --import-ledger or --autoplay"
        )


def _check_verify(args: argparse.Namespace) -> None:
    """A plausible id for --verify-deals, and no other one-shot command."""
    if args.verify_deals is None:
        return
    if not args.verify_deals.strip() or len(args.verify_deals) > 64:
        raise UsageError("--verify-deals takes a match id, 'latest' or 'all'")
    if args.export_ledger or args.import_ledger or args.autoplay or args.review:
        raise UsageError(
            "--verify-deals cannot be combined with --export-ledger, --import-ledger, "
            "--autoplay or --review"
        )


def _check_combinations(args: argparse.Namespace) -> None:
    """Flags that exclude each other, and the ones that only go with --autoplay."""
    if args.export_ledger and args.import_ledger:
        raise UsageError("use --export-ledger or --import-ledger, not both")
    for flag, value in (
        ("--record", args.record),
        ("--matches", args.matches),
        ("--seats", args.seats),
        ("--realtime", args.realtime),
    ):
        if value and not args.autoplay:
            raise UsageError(f"{flag} goes with --autoplay")
    if args.resume and (args.autoplay or args.scene):
        raise UsageError("--continue cannot be combined with --autoplay or --scene")


def _check_data_dir(args: argparse.Namespace) -> None:
    if args.data_dir is not None:
        d = Path(args.data_dir).expanduser()
        if d.exists() and not d.is_dir():
            raise UsageError(f"--data-dir {d} exists and is not a folder")


def _check_preset(args: argparse.Namespace) -> None:
    if args.preset is not None:
        from koikoi_desktop.engine import PRESETS

        names = sorted(PRESETS)
        if args.preset not in names:
            raise UsageError(f"unknown preset {args.preset!r} (choose from {', '.join(names)})")


#: The checks of the parsed arguments, in the order their messages take precedence.
CHECKS: tuple[Callable[[argparse.Namespace], None], ...] = (
    _check_choices,
    _check_outputs,
    _check_ledger_files,
    _check_review,
    _check_verify,
    _check_combinations,
    _check_data_dir,
    _check_preset,
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Parse, then run each of :data:`CHECKS`; raises UsageError with a one-line message."""
    args = build_parser().parse_args(argv)
    for check in CHECKS:
        check(args)
    return args


# ------------------------------------------------------------------ one-shot commands
def tell_checking(notice: Notice) -> None:
    """The line on stderr while the whole ledger is checked, before anything else runs."""
    print(notice_text(ENGLISH, notice), file=sys.stderr, flush=True)


def open_storage_told(args: argparse.Namespace) -> Storage:
    """The data folder of a one-shot command, opened; what storage found is told on stderr,
    one English line each (a command's output is English, whatever the game's language)."""
    from koikoi_desktop.storage import Storage

    data_dir = Path(args.data_dir).expanduser() if args.data_dir else None
    store = Storage.open(data_dir, checking=tell_checking)
    for notice in store.warnings:
        print(f"koikoi-desktop: {notice_text(ENGLISH, notice)}", file=sys.stderr)
    return store


def error_text(exc: Exception) -> str:
    """A command's error in one English line: a refusing disk by its cause, anything else by
    its own words."""
    return refused_text(ENGLISH, exc) if isinstance(exc, Refused) else str(exc)


def _progress() -> Callable[[int], None] | None:
    """A line on a terminal that counts the matches read so far (rewritten in place, at most a
    few times a second; nothing when stderr is not a terminal, nor for a small file)."""
    if not sys.stderr.isatty():
        return None
    last = [0.0]

    def told(read: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.25:
            last[0] = now
            print(f"\rimporting: {read} matches read…", end="", file=sys.stderr, flush=True)

    return told


def export_line(written: int, unread: tuple[str, ...], path: Path) -> str:
    """The export's one line: what it wrote and, when some could not be, how many and which."""
    if not unread:
        return f"exported {written} matches to {path}"
    named = ", ".join(unread[:10]) + (", …" if len(unread) > 10 else "")
    return (
        f"exported {written} of {written + len(unread)} matches to {path}; {len(unread)} "
        f"{'is' if len(unread) == 1 else 'are'} damaged beyond repair and kept aside: {named}"
    )


def ledger_command(args: argparse.Namespace) -> int:
    """``--export-ledger FILE`` / ``--import-ledger FILE``: one line of result, exit 0; a bad
    file or a refusing disk: one line on stderr, exit 2, nothing changed."""
    with open_storage_told(args) as store:
        try:
            if args.export_ledger:
                done = store.export_all(args.export_ledger)
                print(export_line(done.written, done.unread, done.path))
            else:
                result = store.import_ledger_checked(args.import_ledger, progress=_progress())
                if sys.stderr.isatty():
                    print("\r\033[K", end="", file=sys.stderr, flush=True)  # the progress line
                print(
                    f"imported {result.added} matches ({result.same} already in the ledger, "
                    f"{result.aside} kept aside as conflicting, {len(result.skipped)} skipped)"
                )
                for match_id, why in result.skipped:
                    print(f"skipped match {match_id}: {why}")
        except (ValueError, OSError) as exc:  # a bad file, or the disk refuses: nothing changed
            print(f"koikoi-desktop: error: {error_text(exc)}", file=sys.stderr)
            return 2
    return 0


def verify_command(args: argparse.Namespace) -> int:
    """``--verify-deals ID|latest|all``: one line a match saying what the check of its deals
    found (:func:`koikoi_desktop.engine.verify_deals`); exit 0 when every checked match's deals
    were fixed before its first card, 1 when any was not (or could not be checked), 2 when there
    is no such match."""
    from koikoi_desktop.engine import RecordError
    from koikoi_desktop.words.deal import check_text, record_check

    wanted = str(args.verify_deals)
    with open_storage_told(args) as store:
        if wanted == "all":
            rows = store.db.iter_all(include_computer=True) if store.db is not None else ()
            found = [(rec.match_id, record) for rec, record in rows]
        else:
            match_id = store.ledger.latest_id() if wanted == "latest" else wanted
            got = store.ledger.get(match_id) if match_id else None
            found = [] if got is None else [(got[0].match_id, got[1])]
    if not found:
        what = "no match is recorded yet" if wanted in ("latest", "all") else f"no match {wanted!r}"
        print(f"koikoi-desktop: error: {what} in the coin ledger", file=sys.stderr)
        return 2
    failed = 0
    for match_id, record in found:
        if not record:
            print(f"match {match_id}: no move record (imported from version 0.1)")
            failed += 1
            continue
        try:
            check, text = record_check(record)
        except RecordError as exc:
            print(f"match {match_id}: the record cannot be read ({exc})")
            failed += 1
            continue
        failed += not check.ok
        print(f"match {match_id}: {check_text(ENGLISH, check, text.seed)}")
    if len(found) > 1:
        print(
            f"{len(found) - failed} of {len(found)} matches: every deal fixed before the first card"
        )
    return 1 if failed else 0


def review_command(args: argparse.Namespace) -> int:
    """``--review ID|latest --json FILE``: a recorded match's review as JSON, for scripts and
    players.

    Writes ``{"decisions": [{"seat", "round", "turn", "kind", "played", "best", "loss", "class",
    …}], "summary": {…}}`` (see :meth:`koikoi_desktop.review.analysis.Review.export`) and
    returns 0. A cached review is used when the match has one; a new one is computed on this
    thread (the command line has no frame loop to keep alive) and cached. An unknown id, a
    match without a replayable record (imported from version 0.1) or a file that cannot be
    written: one line on stderr and status 2.
    """
    from koikoi_desktop.engine import RecordError
    from koikoi_desktop.review.analysis import review_record
    from koikoi_desktop.review.runner import cached_review

    with open_storage_told(args) as store:
        wanted = str(args.review)
        match_id = store.ledger.latest_id() if wanted == "latest" else wanted
        found = store.ledger.get(match_id) if match_id else None
        if found is None:
            what = "no match is recorded yet" if wanted == "latest" else f"no match {wanted!r}"
            print(f"koikoi-desktop: error: {what} in the match ledger", file=sys.stderr)
            return 2
        _, record = found
        assert match_id is not None
        if not record:
            print(
                f"koikoi-desktop: error: match {match_id} has no move record to review "
                "(imported from an old version)",
                file=sys.stderr,
            )
            return 2
        review = cached_review(store, match_id)
        if review is None:
            try:
                review = review_record(record)
            except RecordError as exc:
                print(
                    f"koikoi-desktop: error: match {match_id} does not replay: {exc}",
                    file=sys.stderr,
                )
                return 2
            why = store.save_review(match_id, review.to_json())
            if why is not None:
                why_text = refused_text(ENGLISH, why)
                print(
                    f"koikoi-desktop: the review could not be cached ({why_text})", file=sys.stderr
                )
        doc = {"match_id": match_id, **review.export()}
        out = Path(args.json).expanduser()
        try:
            out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            print(
                f"koikoi-desktop: error: cannot write {out}: {exc.strerror or exc}", file=sys.stderr
            )
            return 2
    print(f"reviewed {len(review.judgements)} decisions of match {match_id} into {out}")
    return 0


def render_deck(args: argparse.Namespace) -> int:
    """``--render-deck FILE``: a sheet of all 48 cards, drawn without a visible window."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.display.init()
    pygame.display.set_mode((1, 1))
    from koikoi_desktop.deck_sheet import render_deck_sheet

    render_deck_sheet(Path(args.render_deck))
    pygame.display.quit()
    print(f"deck sheet written to {args.render_deck}")
    return 0
