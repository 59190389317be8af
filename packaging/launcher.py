"""Entry point of the packaged game (PyInstaller's script): start the app, exit with its status.

``multiprocessing.freeze_support()`` comes first: the table may run a heavy computer opponent in
a one-worker process pool, and on Windows and macOS (spawn start method) a frozen program must
let the child process run its task instead of starting a second copy of the game.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from koikoi_desktop.app import main

    sys.exit(main())
