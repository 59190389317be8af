"""The ledger's three screens, one module each, opened through their records in
:mod:`koikoi_desktop.scenes.screens` like every other screen:

* :mod:`.listing` (``screens.Ledger``): the recorded matches, the export, storage's warnings;
* :mod:`.match` (``screens.LedgerMatch``): one match to its rounds, opened from a row;
* :mod:`.statistics` (``screens.LedgerStats``): lifetime statistics, opened from the chip.

What they share (the rows read from storage, the words of a recorded match, the chips, body,
footer and scrollbar) is in :mod:`.common`; the screens import it and never each other
(``tests/test_ledger_layers.py``).
"""
