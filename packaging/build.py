"""Build the packaged game for the system this runs on: ``python packaging/build.py``.

Produces, under ``dist/`` (or ``--distpath``):

* ``koikoi-desktop/`` — the one-folder bundle: the program ``koikoi-desktop``
  (``koikoi-desktop.exe`` on Windows) with ``_internal/`` (Python, pygame-ce, SDL, the assets,
  fonts and translations), ``LICENSE``, ``THIRD_PARTY_NOTICES.md`` and ``licenses/``; on Linux
  also ``install.sh``, ``uninstall.sh`` and ``share/`` (menu entry, icons, AppStream metadata);
* on macOS also ``Koi-Koi Desktop.app``;
* the archive to hand out: ``koikoi-desktop-linux.tar.gz``, ``koikoi-desktop-windows.zip`` or
  ``koikoi-desktop-macos.zip`` (the ``.app``).

Steps: install PyInstaller with pip when it is missing (and the game's own dependencies from
``pyproject.toml`` when they are missing — a clean checkout needs no other step), run PyInstaller
on ``packaging/koikoi-desktop.spec`` with its work files in a temporary folder (nothing is
written into the checkout except ``dist/``), add the licence files and the Linux desktop
integration, check the result, make the archive and print the sizes.

Options: ``--distpath DIR``, ``--workpath DIR`` (kept; default a temporary folder removed after
the build), ``--no-archive``, ``--clean`` (empty PyInstaller's cache first).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata as md
import importlib.util
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPEC = HERE / "koikoi-desktop.spec"
NAME = "koikoi-desktop"
APP_ID = "io.github.koikoi_desktop.KoiKoiDesktop"
MAC_APP = "Koi-Koi Desktop.app"
PYINSTALLER_REQ = "pyinstaller>=6.3,<7"
#: Python packages the bundle carries whose licence files are copied into ``licenses/``.
LICENSED_PACKAGES = ("pygame-ce", "pydantic", "pydantic-core", "typing-inspection",
                     "annotated-types", "platformdirs", "typing-extensions")
IS_WIN = sys.platform.startswith("win")
IS_MAC = sys.platform == "darwin"


def say(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def pip_install(*reqs: str) -> None:
    say("pip install " + " ".join(reqs))
    subprocess.run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
                    *reqs], check=True)


def ensure_tools() -> None:
    """PyInstaller and the game's runtime dependencies, from the package registry if missing."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"]
    missing = []
    for req in deps:
        dist = re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0]
        try:
            md.version(dist)
        except md.PackageNotFoundError:
            missing.append(req)
    if missing:
        pip_install(*missing)
    if importlib.util.find_spec("PyInstaller") is None:
        pip_install(PYINSTALLER_REQ)


def version() -> str:
    text = (ROOT / "koikoi_desktop" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.M)
    return m.group(1) if m else "0"


def exe_name() -> str:
    return NAME + (".exe" if IS_WIN else "")


def run_pyinstaller(dist: Path, work: Path, clean: bool) -> None:
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "ERROR",
           "--distpath", str(dist), "--workpath", str(work)]
    if clean:
        cmd.append("--clean")
    cmd.append(str(SPEC))
    say("running PyInstaller (" + " ".join(cmd[3:]) + ")")
    subprocess.run(cmd, check=True, cwd=ROOT)


def _licence_files(dist_name: str) -> list[Path]:
    try:
        files = md.files(dist_name) or []
    except md.PackageNotFoundError:
        return []
    out = []
    for f in files:
        low = f.name.lower()
        if any(k in low for k in ("licen", "copying", "notice")) and ".dist-info" in str(f):
            out.append(Path(str(f.locate())))
    return [p for p in out if p.is_file()]


def _python_licence() -> Path | None:
    for cand in (Path(sys.base_prefix) / "LICENSE.txt",
                 Path(os.__file__).resolve().parent / "LICENSE.txt"):
        if cand.is_file():
            return cand
    return None


def build_report(bundle: Path) -> str:
    """The "This build" section appended to the shipped THIRD_PARTY_NOTICES.md."""
    lines = ["", "## This build", "",
             f"Koi-Koi Desktop {version()} for {platform.system()} {platform.machine()}, "
             f"Python {platform.python_version()}.", "", "Python packages:", ""]
    for dist_name in ("pygame-ce", "pydantic", "pydantic-core", "typing-inspection",
                      "annotated-types", "platformdirs", "typing-extensions", "pyinstaller"):
        with contextlib.suppress(md.PackageNotFoundError):
            lines.append(f"- {dist_name} {md.version(dist_name)}")
    libs = sorted(
        {p.name for p in (bundle / "_internal").rglob("*")
         if p.is_file() and re.search(r"\.(so(\.\d+)*|dylib|dll)$", p.name)
         and not re.search(r"\.cpython-|\.pyd$|\.abi3\.", p.name)}
    )
    lines += ["", "Shared libraries in the bundle:", ""] + [f"- {n}" for n in libs]
    return "\n".join(lines) + "\n"


def add_extras(bundle: Path) -> None:
    """Licences next to the program; on Linux, the desktop integration and install scripts."""
    shutil.copy2(ROOT / "LICENSE", bundle / "LICENSE")
    notices = (ROOT / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    (bundle / "THIRD_PARTY_NOTICES.md").write_text(notices + build_report(bundle),
                                                   encoding="utf-8")
    lic = bundle / "licenses"
    lic.mkdir(exist_ok=True)
    for f in (HERE / "licenses").glob("*.txt"):
        shutil.copy2(f, lic / f.name)
    py = _python_licence()
    if py is not None:
        shutil.copy2(py, lic / "Python-LICENSE.txt")
    for dist_name in LICENSED_PACKAGES:
        for f in _licence_files(dist_name):
            shutil.copy2(f, lic / f"{dist_name}-{f.name}")
    shutil.copy2(ROOT / "assets" / "fonts" / "OFL.txt", lic / "fonts-OFL.txt")
    shutil.copy2(ROOT / "assets" / "README.md", lic / "card-art-CC-BY-SA-4.0.md")
    if IS_WIN or IS_MAC:
        return
    linux = HERE / "linux"
    for script in ("install.sh", "uninstall.sh"):
        shutil.copy2(linux / script, bundle / script)
        (bundle / script).chmod(0o755)
    share = bundle / "share"
    for sub, src in (("applications", f"{APP_ID}.desktop"),
                     ("metainfo", f"{APP_ID}.metainfo.xml")):
        (share / sub).mkdir(parents=True, exist_ok=True)
        shutil.copy2(linux / src, share / sub / src)
        (share / sub / src).chmod(0o644)
    icons = share / "icons" / "hicolor"
    for png in (HERE / "icons").glob(f"{NAME}-*.png"):
        size = png.stem.rsplit("-", 1)[-1]
        if size.isdigit():
            (icons / f"{size}x{size}" / "apps").mkdir(parents=True, exist_ok=True)
            shutil.copy2(png, icons / f"{size}x{size}" / "apps" / f"{NAME}.png")
    (icons / "scalable" / "apps").mkdir(parents=True, exist_ok=True)
    shutil.copy2(HERE / "icons" / f"{NAME}.svg", icons / "scalable" / "apps" / f"{NAME}.svg")
    for f in (icons).rglob("*"):
        if f.is_file():
            f.chmod(0o644)


def check(dist: Path) -> Path:
    """The bundle's program exists and is the only executable named ``koikoi*`` under ``dist``
    (a macOS build's ``.app`` holds its own copy, by necessity)."""
    exe = dist / NAME / exe_name()
    if not exe.is_file():
        raise SystemExit(f"build failed: {exe} is missing")
    strays = []
    for p in dist.rglob("koikoi*"):
        if p == exe or not p.is_file() or (IS_MAC and MAC_APP in p.parts):
            continue
        is_exe = p.suffix.lower() == ".exe" if IS_WIN else bool(p.stat().st_mode & stat.S_IXUSR)
        if is_exe:
            strays.append(p)
    if strays:
        raise SystemExit("build check failed: other executables named koikoi* under "
                         f"{dist}: {', '.join(map(str, strays))}")
    return exe


def make_archive(dist: Path) -> Path:
    if IS_MAC:
        out = dist / f"{NAME}-macos.zip"
        out.unlink(missing_ok=True)
        # ditto keeps the .app's symlinks, permissions and extended attributes.
        subprocess.run(["ditto", "-c", "-k", "--sequesterRsrc", "--keepParent",
                        str(dist / MAC_APP), str(out)], check=True)
        return out
    if IS_WIN:
        out = dist / f"{NAME}-windows.zip"
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for p in sorted((dist / NAME).rglob("*")):
                z.write(p, p.relative_to(dist).as_posix())
        return out
    out = dist / f"{NAME}-linux.tar.gz"
    with tarfile.open(out, "w:gz", compresslevel=9) as t:
        t.add(dist / NAME, arcname=NAME)
    return out


def tree_size(path: Path) -> int:
    """Bytes of the regular files under ``path`` (symlinks not followed, not counted twice)."""
    total = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            total += p.stat().st_size
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--distpath", type=Path, default=ROOT / "dist")
    ap.add_argument("--workpath", type=Path, default=None)
    ap.add_argument("--no-archive", action="store_true")
    ap.add_argument("--clean", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    ensure_tools()
    dist = args.distpath.resolve()
    dist.mkdir(parents=True, exist_ok=True)
    for old in (dist / NAME, dist / MAC_APP):
        if old.exists():
            shutil.rmtree(old)
    tmp = None
    if args.workpath is None:
        tmp = tempfile.mkdtemp(prefix="koikoi-build-")
        work = Path(tmp)
    else:
        work = args.workpath.resolve()
    try:
        run_pyinstaller(dist, work, args.clean)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    bundle = dist / NAME
    add_extras(bundle)
    exe = check(dist)
    say(f"bundle: {bundle} ({tree_size(bundle) / 1e6:.1f} MB), program {exe.name}")
    if not args.no_archive:
        archive = make_archive(dist)
        say(f"archive: {archive} ({archive.stat().st_size / 1e6:.1f} MB)")
    say(f"done in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
