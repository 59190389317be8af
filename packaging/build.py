"""Build the packaged game for the system this runs on: ``python packaging/build.py``.

Produces, under ``dist/`` (or ``--distpath``):

* ``koikoi-desktop/`` — the one-folder bundle: the program ``koikoi-desktop``
  (``koikoi-desktop.exe`` on Windows) with ``_internal/`` (Python, pygame-ce, SDL, the assets,
  fonts and translations), ``LICENSE``, ``THIRD_PARTY_NOTICES.md`` and ``licenses/`` (with
  ``this-build.md``, what this build holds); on Linux also ``install.sh``, ``uninstall.sh``
  and ``share/`` (menu entry, icons, AppStream metadata);
* on macOS also ``Koi-Koi Desktop.app``;
* the archive to hand out: ``koikoi-desktop-linux.tar.gz``, ``koikoi-desktop-windows.zip`` or
  ``koikoi-desktop-macos.zip`` (the ``.app``), and beside it ``<archive>.sha256``, its SHA-256
  sum in ``sha256sum`` format (``sha256sum -c`` checks it; the release joins them into
  ``SHA256SUMS``).

Steps: check the build tools are installed (``pip install -e '.[build]'`` installs the game, its
dependencies and PyInstaller; this script installs nothing and says so in one line when something
is missing), run PyInstaller on ``packaging/koikoi-desktop.spec`` with its work files in a
temporary folder (nothing is written into the checkout except ``dist/``), add the licence files
and the Linux desktop integration, check the result, make the archive and its checksum and print
the sizes.

The version comes from the installed package's metadata, which hatchling wrote from
``koikoi_desktop/__init__.py``; a checkout whose ``__version__`` differs from it (bumped
since the install) stops the build instead of labelling it with the old version.

Archives are made reproducibly: members sorted, timestamps set to ``SOURCE_DATE_EPOCH`` (the
commit's time in the release workflow; a fixed date otherwise), no owner names, so two builds
whose files are identical give identical archives (checked on Linux by
``tests/packaging/test_reproducible.py``; the macOS zip is made by ``ditto`` from files whose
times are set to the same epoch, which is untested). PyInstaller runs with a fixed
``PYTHONHASHSEED`` and the same ``SOURCE_DATE_EPOCH``, so the bundle's files are the same too.

Options: ``--distpath DIR``, ``--workpath DIR`` (kept; default a temporary folder removed after
the build), ``--no-archive``, ``--clean`` (empty PyInstaller's cache first).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
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
DIST_NAME = "koikoi-desktop"
#: The archive each system's build hands out (the release workflow publishes these names).
ARCHIVES = {
    "linux": f"{NAME}-linux.tar.gz",
    "windows": f"{NAME}-windows.zip",
    "macos": f"{NAME}-macos.zip",
}
INSTALL_HINT = "pip install -e '.[build]'"
#: Archive timestamps when SOURCE_DATE_EPOCH is not set (1980-01-01, the earliest zip date).
DEFAULT_EPOCH = 315532800
#: Python packages the bundle carries whose licence files are copied into ``licenses/``.
LICENSED_PACKAGES = (
    "pygame-ce",
    "pydantic",
    "pydantic-core",
    "typing-inspection",
    "annotated-types",
    "platformdirs",
    "typing-extensions",
)
#: The file under ``licenses/`` that lists this build's versions and shared libraries.
BUILD_REPORT = "this-build.md"
IS_WIN = sys.platform.startswith("win")
IS_MAC = sys.platform == "darwin"


def say(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def checkout_version() -> str:
    """``__version__`` of this checkout's package (loaded from its file: the package installed
    in this Python may be another copy)."""
    spec = importlib.util.spec_from_file_location(
        "_koikoi_checkout", ROOT / "koikoi_desktop" / "__init__.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.__version__)


def check_tools() -> None:
    """The game (with its dependencies) and PyInstaller are installed, the metadata current.

    Nothing is installed here: a missing tool stops the build with one line naming the command
    that installs it."""
    try:
        installed = md.version(DIST_NAME)
    except md.PackageNotFoundError:
        raise SystemExit(
            f"build: {DIST_NAME} is not installed in this Python; run {INSTALL_HINT} first"
        ) from None
    missing = [name for name in _runtime_requirements() if not _installed(name)]
    if importlib.util.find_spec("PyInstaller") is None:
        missing.append("pyinstaller")
    if missing:
        raise SystemExit(f"build: missing {', '.join(missing)}; run {INSTALL_HINT} first")
    here = checkout_version()
    if installed != here:
        raise SystemExit(
            f"build: the installed {DIST_NAME} is {installed} but this checkout "
            f"is {here}; run {INSTALL_HINT} again"
        )


def _runtime_requirements() -> list[str]:
    """Distribution names the installed game depends on (its extras left out)."""
    reqs = md.requires(DIST_NAME) or []
    return [re.split(r"[<>=!~;\[ (]", r, maxsplit=1)[0] for r in reqs if "extra ==" not in r]


def _installed(dist: str) -> bool:
    try:
        md.distribution(dist)
    except md.PackageNotFoundError:
        return False
    return True


def version() -> str:
    """The game's version, from the installed package's metadata (see :func:`check_tools`)."""
    return md.version(DIST_NAME)


def exe_name() -> str:
    return NAME + (".exe" if IS_WIN else "")


def run_pyinstaller(dist: Path, work: Path, clean: bool) -> None:
    cmd = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--log-level",
        "ERROR",
        "--distpath",
        str(dist),
        "--workpath",
        str(work),
    ]
    if clean:
        cmd.append("--clean")
    cmd.append(str(SPEC))
    # A fixed hash seed makes PyInstaller write base_library.zip in the same order every time
    # (it walks a set of module names); SOURCE_DATE_EPOCH is the Windows program's link time.
    env = dict(os.environ, PYTHONHASHSEED="0", SOURCE_DATE_EPOCH=str(source_date_epoch()))
    say("running PyInstaller (" + " ".join(cmd[3:]) + ")")
    subprocess.run(cmd, check=True, cwd=ROOT, env=env)


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
    for cand in (
        Path(sys.base_prefix) / "LICENSE.txt",
        Path(os.__file__).resolve().parent / "LICENSE.txt",
    ):
        if cand.is_file():
            return cand
    return None


def build_report(bundle: Path) -> str:
    """What this build holds (``licenses/this-build.md``): versions and shared libraries."""
    lines = [
        "# This build",
        "",
        f"Koi-Koi Desktop {version()} for {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}.",
        "",
        "Python packages:",
        "",
    ]
    for dist_name in (
        "pygame-ce",
        "pydantic",
        "pydantic-core",
        "typing-inspection",
        "annotated-types",
        "platformdirs",
        "typing-extensions",
        "pyinstaller",
    ):
        with contextlib.suppress(md.PackageNotFoundError):
            lines.append(f"- {dist_name} {md.version(dist_name)}")
    libs = sorted(
        {
            p.name
            for p in (bundle / "_internal").rglob("*")
            if p.is_file()
            and re.search(r"\.(so(\.\d+)*|dylib|dll)$", p.name)
            and not re.search(r"\.cpython-|\.pyd$|\.abi3\.", p.name)
        }
    )
    lines += ["", "Shared libraries in the bundle:", ""] + [f"- {n}" for n in libs]
    return "\n".join(lines) + "\n"


def add_extras(bundle: Path) -> None:
    """Licences next to the program; on Linux, the desktop integration and install scripts."""
    shutil.copy2(ROOT / "LICENSE", bundle / "LICENSE")
    # One THIRD_PARTY_NOTICES.md: the source's, byte for byte, here and in _internal/ (the spec
    # puts it there for the macOS .app); what this build holds is a file of its own.
    shutil.copy2(ROOT / "THIRD_PARTY_NOTICES.md", bundle / "THIRD_PARTY_NOTICES.md")
    lic = bundle / "licenses"
    lic.mkdir(exist_ok=True)
    (lic / BUILD_REPORT).write_text(build_report(bundle), encoding="utf-8")
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
    for sub, src in (("applications", f"{APP_ID}.desktop"), ("metainfo", f"{APP_ID}.metainfo.xml")):
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
        raise SystemExit(
            "build check failed: other executables named koikoi* under "
            f"{dist}: {', '.join(map(str, strays))}"
        )
    return exe


def source_date_epoch() -> int:
    """The archive timestamp: ``SOURCE_DATE_EPOCH`` when set, else :data:`DEFAULT_EPOCH`."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return DEFAULT_EPOCH
    if not value.isdigit():
        raise SystemExit(f"build: SOURCE_DATE_EPOCH must be whole seconds, not {value!r}")
    return max(int(value), DEFAULT_EPOCH)


def _tree(top: Path) -> list[Path]:
    """``top`` and everything under it, sorted by path (the archive order)."""
    return [top, *sorted(top.rglob("*"), key=lambda p: p.relative_to(top).as_posix())]


def _tar_gz(out: Path, top: Path, epoch: int) -> None:
    def normalise(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.mtime = epoch
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        if not info.issym():
            info.mode = 0o755 if info.isdir() or info.mode & stat.S_IXUSR else 0o644
        return info

    with (
        out.open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=epoch, compresslevel=9) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for p in _tree(top):
            tar.add(
                p, arcname=p.relative_to(top.parent).as_posix(), recursive=False, filter=normalise
            )


def _zip(out: Path, top: Path, epoch: int) -> None:
    stamp = time.gmtime(epoch)[:6]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for p in _tree(top):
            name = p.relative_to(top.parent).as_posix()
            info = zipfile.ZipInfo(name + "/" if p.is_dir() else name, date_time=stamp)
            info.external_attr = (0o40755 if p.is_dir() else 0o100644) << 16
            info.compress_type = zipfile.ZIP_STORED if p.is_dir() else zipfile.ZIP_DEFLATED
            z.writestr(info, b"" if p.is_dir() else p.read_bytes())


def make_archive(dist: Path) -> Path:
    epoch = source_date_epoch()
    if IS_MAC:
        out = dist / ARCHIVES["macos"]
        out.unlink(missing_ok=True)
        # ditto keeps the .app's symlinks, permissions and extended attributes (zipfile cannot);
        # it stores the files' own times, so those are set to the epoch first.
        for p in _tree(dist / MAC_APP):
            os.utime(p, (epoch, epoch), follow_symlinks=False)
        subprocess.run(
            ["ditto", "-c", "-k", "--sequesterRsrc", "--keepParent", str(dist / MAC_APP), str(out)],
            check=True,
        )
        return out
    if IS_WIN:
        out = dist / ARCHIVES["windows"]
        _zip(out, dist / NAME, epoch)
        return out
    out = dist / ARCHIVES["linux"]
    _tar_gz(out, dist / NAME, epoch)
    return out


def write_checksum(archive: Path) -> Path:
    """``<archive>.sha256``: one ``sha256sum`` line (hash, two spaces, file name)."""
    digest = hashlib.sha256()
    with archive.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    out = archive.with_name(archive.name + ".sha256")
    out.write_bytes(f"{digest.hexdigest()}  {archive.name}\n".encode("ascii"))
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
    check_tools()
    dist = args.distpath.resolve()
    dist.mkdir(parents=True, exist_ok=True)
    for old in (dist / NAME, dist / MAC_APP):
        if old.exists():
            shutil.rmtree(old)
    for old in dist.glob(f"{NAME}-*.sha256"):
        old.unlink()
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
        sums = write_checksum(archive)
        say(f"archive: {archive} ({archive.stat().st_size / 1e6:.1f} MB), sum in {sums.name}")
    say(f"done in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
