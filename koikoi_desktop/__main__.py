"""``python -m koikoi_desktop`` starts the game.

``multiprocessing.freeze_support()`` runs first (as in ``packaging/launcher.py``, the frozen
build's entry): the Expert thinks in a worker process, and a frozen program started with the
spawn method must run that worker's task instead of a second copy of the game.
"""

import multiprocessing

from koikoi_desktop.app import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    raise SystemExit(main())
