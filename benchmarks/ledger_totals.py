"""What the lifetime statistics' counters cost: recording a match (the counters are added to in
its transaction), recording many matches in one transaction (the counting without the disk's
flush), and rebuilding the counters from every row (after an upgrade, a repair or a mend).

    python benchmarks/ledger_totals.py [--dir DIR] [--sizes 1000,10000] [--samples 100]
        [--batch 1000]

The ledger is filled with the same real 12-round matches as ``storage_io.py`` (its ``_templates``
and ``_rows``). Recording a single match is one transaction with ``synchronous=FULL``, so that
figure depends on the disk; the batch figure is the time per match inside one transaction of
``--batch`` matches, which is mostly the CPU the inserts and the counting take. The rebuild is
:meth:`LedgerDB.recount` of the counters, as the game runs it after an upgrade, a repair or a
mend. Target (issue 36): recording a match stays within a few milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from storage_io import Rows, _rows, _templates

from koikoi_desktop.storage import Storage


def _fill(d: Path, templates: Rows, size: int) -> None:
    """A fresh data folder ``d`` with ``size`` recorded matches, 5,000 a transaction."""
    with Storage.open(d) as store:
        assert store.db is not None
        for done in range(0, size, 5000):
            step = min(5000, size - done)
            store.db.import_records(_rows(templates, done, step), source="benchmark")


def _ms(samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(len(s) * 0.95))]
    return f"median {statistics.median(s) * 1e3:6.2f} ms, p95 {p95 * 1e3:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--batch", type=int, default=1000, help="matches in the one transaction")
    args = parser.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="koikoi-totals-"))
    templates = _templates()
    for size in (int(x) for x in args.sizes.split(",")):
        d = base / f"totals{size}"
        _fill(d, templates, size)
        print(f"{size:,} matches:")
        with Storage.open(d) as store:
            db = store.db
            assert db is not None
            one = []
            for rec, text in _rows(templates, 10_000_000, args.samples):
                t = time.perf_counter()
                assert store.record_match(rec, record_text=text)
                one.append(time.perf_counter() - t)
            print(f"  record a match: {_ms(one)}")
            batch = list(_rows(templates, 20_000_000, args.batch))
            t = time.perf_counter()
            db.import_records(batch, source="benchmark")
            per = (time.perf_counter() - t) / len(batch)
            print(f"  {len(batch):,} matches in one transaction: {per * 1e3:.2f} ms a match")
            rebuild = []
            for _ in range(3):
                t = time.perf_counter()
                db.recount({"totals"})
                rebuild.append(time.perf_counter() - t)
            print(f"  rebuild the counters from every row: {_ms(rebuild)}")


if __name__ == "__main__":
    main()
