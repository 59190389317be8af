"""Native libraries' lines on the terminal: held back where the game says the same in its own.

On a machine without a sound card, libasound writes eight lines ("ALSA lib confmisc.c:855:
(parse_card) cannot find card '0'" …) to the process's stderr while SDL looks for a device;
without a desktop session, libwayland writes "error: XDG_RUNTIME_DIR is invalid or not set in
the environment." while SDL looks for a display. The game says each of these once, in one line
of its own ("playing without sound (…)", "no display to open the window on (…)").

Decision: redirecting file descriptor 2 is the only way to reach a C library's
``fprintf(stderr, …)``. It is done only around the calls that probe (opening the mixer,
starting the video driver), and every other line written meanwhile is passed on afterwards, so
nothing of the game's own is hidden. Where there is no descriptor 2 (a windowed Windows build)
nothing is redirected.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator

__all__ = ["NATIVE_CHATTER", "native_chatter_filtered"]

#: How the held-back lines begin.
NATIVE_CHATTER = ("ALSA lib ", "error: XDG_RUNTIME_DIR ")


@contextlib.contextmanager
def native_chatter_filtered() -> Iterator[None]:
    """Hold back the lines beginning with :data:`NATIVE_CHATTER` that native code writes to
    file descriptor 2 while the block runs; pass every other line on when it ends."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, AttributeError, ValueError):  # no stderr to filter
        yield
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            kept = [
                line
                for line in held.read().splitlines(keepends=True)
                if not line.decode("utf-8", "replace").startswith(NATIVE_CHATTER)
            ]
            if kept:
                os.write(2, b"".join(kept))
