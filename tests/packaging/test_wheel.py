"""The wheel, as a player who runs ``pip install koikoi-desktop`` gets it.

Built from this checkout with ``pip wheel`` (no build isolation: hatchling comes with the
``test`` extra, so nothing is fetched), listed, then installed into a fresh virtual environment
and started from a neutral folder with an empty home, where its credits screen must name the
folder holding every licence file the metadata declares.

Decisions:

* The virtual environment is a plain one (no ``--system-site-packages``: inside a virtual
  environment that names the base interpreter's packages, not the test environment's, so the
  test passed only where something had once installed the dependencies into the system
  Python). It gets the game's dependencies from the test's own environment through a ``.pth``
  file naming that environment's site-packages, after its own; the wheel itself is installed
  with ``--no-index --no-deps`` and ``pip check`` then fails if a dependency the wheel declares
  is missing or at a version it refuses. The environment's own site-packages comes first on
  its path, so ``koikoi_desktop`` and its metadata are the wheel's, not the editable install
  of a checkout (asserted).
* The installed game runs with ``python -I`` (no PYTHONPATH, no current folder on the path),
  from a folder outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from tests.packaging.helpers import ROOT, packaging_script

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LICENSE_FILES: list[str] = PYPROJECT["project"]["license-files"]
VERSION = packaging_script("build").checkout_version()
DIST_INFO = f"koikoi_desktop-{VERSION}.dist-info"

PROBE = """
import json, sys
from types import SimpleNamespace
import pygame
import koikoi_desktop
from koikoi_desktop import scenes
from koikoi_desktop.assets import asset_root, card_path
from koikoi_desktop.i18n import ENGLISH
from koikoi_desktop.scenes.base import SceneStack
from koikoi_desktop.ai.equity import equity_table, provenance
from koikoi_desktop.ai.value import leaf_model
from koikoi_desktop.ratings import level_ratings

pygame.font.init()
app = SimpleNamespace(size=(1280, 800), ui_scale=1.0, stack=SceneStack(), words=ENGLISH)
scene = scenes.create("credits", app)
scene.enter()
scene.draw(pygame.Surface(app.size))
text = " ".join(" ".join([t, *ps]) for t, ps in scene.sections())
json.dump({"package": koikoi_desktop.__file__, "version": koikoi_desktop.__version__,
           "assets": str(asset_root()), "card": str(card_path(1)),
           "folder": str(scene.folder), "text": text,
           "equity": [equity_table("nintendo").matches, provenance()["commit"]],
           "leaf": leaf_model().meta["rounds"],
           "levels": {k: v.rating for k, v in level_ratings().items()}}, sys.stdout)
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--disable-pip-version-check",
            "-w",
            str(out),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (built,) = out.glob("koikoi_desktop-*.whl")
    return built


@pytest.fixture(scope="module")
def names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


def test_wheel_holds_the_package_its_data_and_nothing_else(names: list[str]) -> None:
    assert all(n.startswith(("koikoi_desktop/", f"{DIST_INFO}/")) for n in names), names
    package = ROOT / "koikoi_desktop"
    modules = {
        p.relative_to(ROOT).as_posix()
        for p in package.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert modules <= set(names)
    assert "koikoi_desktop/py.typed" in names
    # the learned files of the Expert (issue 44) and the measured level ratings: package data
    assert {
        "koikoi_desktop/ai/data/match_equity.json",
        "koikoi_desktop/ai/data/leaf_value.json",
        "koikoi_desktop/ai/level_ratings.json",
    } <= set(names)
    assert {f"koikoi_desktop/i18n/{c}.json" for c in ("en", "ja", "ru", "sk", "uk")} <= set(names)
    # The art, fonts and their licences, as the package's data folder.
    assets = ROOT / "assets"
    wanted = {
        f"koikoi_desktop/data/{p.relative_to(assets).as_posix()}"
        for p in assets.rglob("*")
        if p.is_file()
        and "source" not in p.relative_to(assets).parts
        and "__pycache__" not in p.parts
        and p.suffix not in (".py", ".pyc")
    }
    assert "koikoi_desktop/data/cards/01_JAN_CRANE.svg" in wanted
    assert "koikoi_desktop/data/fonts/OFL.txt" in wanted
    assert wanted == {n for n in names if n.startswith("koikoi_desktop/data/")}
    # No development scripts, and no folder that shadows the module koikoi_desktop/assets.py.
    assert not [n for n in names if n.startswith("koikoi_desktop/data/") and n.endswith(".py")]
    assert not [n for n in names if "subset_fonts" in n or "/source/" in n]
    assert not [n for n in names if n.startswith("koikoi_desktop/assets/")]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_metadata_licences_version_and_urls(wheel: Path, names: list[str]) -> None:
    with zipfile.ZipFile(wheel) as z:
        meta = Parser().parsestr(z.read(f"{DIST_INFO}/METADATA").decode("utf-8"))
        for rel in LICENSE_FILES:
            assert z.read(f"{DIST_INFO}/licenses/{rel}") == (ROOT / rel).read_bytes(), rel
    assert meta["Version"] == VERSION
    assert meta["License-Expression"] == "MIT AND CC-BY-SA-4.0 AND OFL-1.1"
    assert meta.get_all("License-File") == LICENSE_FILES
    assert {"LICENSE", "THIRD_PARTY_NOTICES.md", "assets/fonts/OFL.txt"} <= set(LICENSE_FILES)
    assert "License" not in meta  # the expression replaces the old free-text field
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # PEP 639
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues"} <= set(urls)


def test_installed_wheel_shows_every_notice_on_the_credits_screen(
    wheel: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = venv / ("Scripts/python.exe" if sys.platform.startswith("win") else "bin/python")
    venv_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (Path(venv_site) / "test_environment.pth").write_text(
        "".join(f"{folder}\n" for folder in ours), encoding="utf-8"
    )
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    proc = subprocess.run(
        [*pip, "install", "--no-index", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    check = subprocess.run([*pip, "check"], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr[-3000:]

    home = tmp_path / "home"
    home.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "KOIKOI_ASSETS_DIR", "KOIKOI_DATA_DIR")
    }
    env.update(
        HOME=str(home),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    probe = subprocess.run(
        [str(python), "-I", "-c", PROBE],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    seen = json.loads(probe.stdout)

    site = venv.resolve()
    assert Path(seen["package"]).resolve().is_relative_to(site), seen["package"]
    assert seen["version"] == VERSION
    assert Path(seen["assets"]).resolve() == Path(seen["package"]).resolve().parent / "data"
    assert Path(seen["card"]).is_file()
    # the Expert's learned files load from the installed package (issue 44)
    assert seen["equity"][0] > 0 and seen["equity"][1] and seen["leaf"] > 0
    # and the measured level ratings the new-game screen shows, as shipped in the checkout
    shipped = json.loads((ROOT / "koikoi_desktop/ai/level_ratings.json").read_text())
    assert seen["levels"] == {k: v["rating"] for k, v in shipped["levels"].items()}
    folder = Path(seen["folder"])
    assert folder.resolve().is_relative_to(site) and folder.name == "licenses", folder
    assert folder.parent.name == DIST_INFO
    for rel in LICENSE_FILES:  # every notice the metadata declares, as in the checkout
        assert (folder / rel).read_bytes() == (ROOT / rel).read_bytes(), rel
    # told in words (issue 16: a raw file-system path means nothing to a player)
    assert str(folder) not in seen["text"]
    assert "installed with the game's package" in seen["text"]
    assert "THIRD_PARTY_NOTICES.md" in seen["text"]
    for needle in ("MIT", "BY-SA 4.0", "Open Font License", "LGPL 2.1"):
        assert needle in seen["text"], needle

    # The installed game's own command line opens the same screen and draws it.
    shot = tmp_path / "credits.png"
    run = subprocess.run(
        [
            str(python),
            "-I",
            "-m",
            "koikoi_desktop",
            "--scene",
            "credits",
            "--frames",
            "2",
            "--screenshot",
            str(shot),
        ],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    import pygame

    surf = pygame.image.load(str(shot))
    assert surf.get_size() == (1280, 800)
    assert (
        len({surf.get_at((x, y))[:3] for x in range(0, 1280, 16) for y in range(0, 800, 16)}) > 50
    ), "blank"
