"""``--review ID|latest --json FILE``: a recorded match's review as JSON, for scripts and players.

Writes ``{"decisions": [{"seat", "round", "turn", "kind", "played", "best", "loss", "class", …}],
"summary": {…}}`` (see :meth:`koikoi_desktop.review.analysis.Review.export`) and returns 0. A
cached review is used when the match has one; a new one is computed on this thread (the
command line has no frame loop to keep alive) and cached. An unknown id, a match without a
replayable record (imported from version 0.1) or a file that cannot be written: one line on
stderr and status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from koikoi_desktop.engine import RecordError

from .analysis import review_record
from .runner import cached_review


def run(args: argparse.Namespace) -> int:
    """Run the command (the app's ``main`` calls it); returns the exit status."""
    from koikoi_desktop.storage import Storage

    data_dir = Path(args.data_dir).expanduser() if args.data_dir else None
    with Storage.open(data_dir) as store:
        for line in store.warnings:
            print(f"koikoi-desktop: {line}", file=sys.stderr)
        wanted = str(args.review)
        match_id = store.latest_match_id() if wanted == "latest" else wanted
        found = store.get_match(match_id) if match_id else None
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
                print(f"koikoi-desktop: the review could not be cached ({why})", file=sys.stderr)
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
