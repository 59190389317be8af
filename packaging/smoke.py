"""Smoke test of a built archive: ``python packaging/smoke.py dist/koikoi-desktop-linux.tar.gz``.

What a player does first, on the system this runs on: unpack the archive, start the program with
an empty home folder, let it draw the title screen, quit. It passes when the program exits with
status 0, its last frame is the title screen (the same picture as the game drawn from this
checkout with the same flags: a missing screen module or asset would show a stub, placeholder
cards or no text) and it wrote its settings into the empty home's data folder. The release
workflow runs it on each system after ``packaging/build.py``; ``tests/packaging/test_bundle.py``
runs it on the Linux archive.

Decisions:

* "Empty home" is a fresh temporary folder as HOME (and USERPROFILE, APPDATA, LOCALAPPDATA),
  the working directory outside the checkout, SDL's dummy video and audio drivers, and a
  minimal PATH, so the program cannot lean on the source tree, a Python or anyone's settings.
* The settings are looked for where the game keeps them (platformdirs, ``appauthor=False``):
  ``~/.local/share/koikoi-desktop`` on Linux, ``~/Library/Application Support/koikoi-desktop``
  on macOS. Windows takes the user's folders from the system, not from the environment, so
  there the folder is the account's real ``%LOCALAPPDATA%\\koikoi-desktop``: it must not exist
  before the run (a fresh CI runner), and the test says so and stops when it does.
* The reference picture is drawn by ``python -m koikoi_desktop`` from this checkout with its
  data in a separate temporary folder. Pictures match when under 1% of the pixels differ by
  more than 24 in a channel (font hinting may differ by a shade between builds, a wrong screen
  differs in most of its pixels).
* macOS archives are unpacked with ``ditto`` (it restores the ``.app``'s links and permissions)
  and the program inside ``Contents/MacOS`` is run.

Options: ``--keep DIR`` works in DIR (created; left in place) instead of a temporary folder,
``--frames N`` (default 120).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "koikoi-desktop"
MAC_APP = "Koi-Koi Desktop.app"
SIZE = (1280, 800)
IS_WIN = sys.platform.startswith("win")
IS_MAC = sys.platform == "darwin"
#: Variables Windows programs need to start at all (the C runtime, the temp folder).
WINDOWS_KEEP = ("SYSTEMROOT", "WINDIR", "SYSTEMDRIVE", "TEMP", "TMP", "PATHEXT")


class SmokeError(Exception):
    """The archive failed the smoke test; the message says how."""


def empty_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a first start: nothing but an empty home and dummy SDL drivers."""
    env = {
        "HOME": str(home),
        "USERPROFILE": str(home),
        "APPDATA": str(home / "AppData" / "Roaming"),
        "LOCALAPPDATA": str(home / "AppData" / "Local"),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    if IS_WIN:
        env.update({k: os.environ[k] for k in WINDOWS_KEEP if k in os.environ})
        system_root = os.environ.get("SYSTEMROOT", r"C:\Windows")
        env["PATH"] = os.pathsep.join([str(Path(system_root) / "System32"), system_root])
    else:
        env["PATH"] = "/usr/bin:/bin"
    env.update(extra)
    return env


def unpack(archive: Path, into: Path) -> Path:
    """Unpack ``archive`` into ``into``; the program to run."""
    into.mkdir(parents=True, exist_ok=True)
    if archive.name.endswith(".tar.gz"):
        with tarfile.open(archive) as t:
            t.extractall(into, filter="tar")
    elif IS_MAC:
        subprocess.run(["ditto", "-x", "-k", str(archive), str(into)], check=True)
    else:
        with zipfile.ZipFile(archive) as z:
            z.extractall(into)
    if IS_MAC:
        program = into / MAC_APP / "Contents" / "MacOS" / NAME
    else:
        program = into / NAME / (NAME + (".exe" if IS_WIN else ""))
    if not program.is_file():
        raise SmokeError(f"{archive.name} holds no {program.relative_to(into)}")
    return program


def settings_file(home: Path) -> Path:
    """Where the game writes its settings for a player whose home folder is ``home``."""
    if IS_WIN:
        import platformdirs

        return (
            Path(platformdirs.user_data_dir(NAME, appauthor=False, roaming=False)) / "settings.json"
        )
    if IS_MAC:
        return home / "Library" / "Application Support" / NAME / "settings.json"
    return home / ".local" / "share" / NAME / "settings.json"


def screenshot_pixels(path: Path) -> tuple[tuple[int, int], bytes]:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    surf = pygame.image.load(str(path))
    return surf.get_size(), pygame.image.tobytes(surf, "RGB")


def differing_fraction(a: bytes, b: bytes, tolerance: int = 24) -> float:
    """The fraction of RGB pixels in which some channel differs by more than ``tolerance``."""
    diff = 0
    for i in range(0, len(a), 3):
        if (
            abs(a[i] - b[i]) > tolerance
            or abs(a[i + 1] - b[i + 1]) > tolerance
            or abs(a[i + 2] - b[i + 2]) > tolerance
        ):
            diff += 1
    return diff / (len(a) // 3)


def colours(pixels: bytes) -> int:
    """Distinct colours among a sample of the pixels (a blank frame has one or two)."""
    return len({pixels[i : i + 3] for i in range(0, len(pixels), 3 * 97)})


def run(cmd: list[str], env: dict[str, str], cwd: Path, what: str) -> None:
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=180)
    if proc.returncode != 0:
        raise SmokeError(
            f"{what} exited with status {proc.returncode}:\n"
            f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        )


def smoke(archive: Path, work: Path, frames: int = 120) -> str:
    """Run the smoke test in ``work``; a one-line summary, or :class:`SmokeError`."""
    home = work / "home"
    home.mkdir(parents=True)
    settings = settings_file(home)
    if settings.parent.exists():
        raise SmokeError(
            f"not an empty home: {settings.parent} exists (on Windows the game's "
            "folder comes from the system; run this on a fresh account)"
        )
    program = unpack(archive, work / "unpacked")
    shot = work / "shot.png"
    run(
        [str(program), "--frames", str(frames), "--screenshot", str(shot)],
        empty_env(home),
        work,
        f"{program.name} from {archive.name}",
    )
    if not shot.is_file():
        raise SmokeError("the program wrote no screenshot")
    size, pixels = screenshot_pixels(shot)
    if size != SIZE:
        raise SmokeError(f"the screenshot is {size[0]}x{size[1]}, not {SIZE[0]}x{SIZE[1]}")
    if colours(pixels) <= 200:
        raise SmokeError("the screenshot is (nearly) blank")

    ref_home = work / "ref-home"
    ref_home.mkdir()
    ref = work / "ref.png"
    run(
        [sys.executable, "-m", "koikoi_desktop", "--frames", str(frames), "--screenshot", str(ref)],
        empty_env(ref_home, PYTHONPATH=str(ROOT), KOIKOI_DATA_DIR=str(work / "ref-data")),
        work,
        "the game from source",
    )
    ref_size, ref_pixels = screenshot_pixels(ref)
    if ref_size != size:
        raise SmokeError(f"the source-drawn frame is {ref_size}, the program's {size}")
    diff = differing_fraction(pixels, ref_pixels)
    if diff >= 0.01:
        raise SmokeError(
            f"the program's frame differs from the source-drawn title screen in "
            f"{diff:.1%} of its pixels ({shot.name} vs {ref.name}; --keep DIR "
            "keeps them)"
        )

    if not settings.is_file():
        found = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
        raise SmokeError(f"no settings at {settings}; the home folder holds: {found}")
    try:
        data = json.loads(settings.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SmokeError(f"the settings at {settings} do not read as JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise SmokeError(f"the settings at {settings} are not a JSON object")
    return (
        f"{archive.name}: started from an empty home, drew the title screen "
        f"({diff:.2%} of pixels off the source-drawn one), wrote {settings.name}, quit"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("archive", type=Path)
    ap.add_argument("--keep", type=Path, default=None, metavar="DIR")
    ap.add_argument("--frames", type=int, default=120)
    args = ap.parse_args(argv)
    archive = args.archive.resolve()
    if args.keep is not None:
        work = args.keep.resolve()
        work.mkdir(parents=True, exist_ok=True)
    else:
        work = Path(tempfile.mkdtemp(prefix="koikoi-smoke-"))
    try:
        print(f"[smoke] {smoke(archive, work, args.frames)}", flush=True)
    except SmokeError as exc:
        print(f"[smoke] FAILED: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
