"""The application icon: committed files match their generator; .ico/.icns are well formed."""

from __future__ import annotations

import importlib.util
import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pygame
import pytest

ROOT = Path(__file__).resolve().parents[2]
ICONS = ROOT / "packaging" / "icons"
PNG_SIG = b"\x89PNG\r\n\x1a\n"


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def make_icons() -> ModuleType:
    return load(ICONS / "make_icons.py")


@pytest.fixture(scope="module")
def iconfmt() -> ModuleType:
    return load(ROOT / "packaging" / "iconfmt.py")


def test_generator_writes_every_icon(make_icons: ModuleType, tmp_path: Path) -> None:
    """The generator runs from the current card art and writes every file that is committed.

    (The committed icons are a snapshot: they are not compared byte for byte with a fresh run,
    so a change to the card art never breaks this suite; re-run the script to refresh them.)
    """
    make_icons.main(tmp_path)
    for name in [
        "koikoi-desktop.svg",
        "koikoi-desktop-small.svg",
        *[f"koikoi-desktop-{s}.png" for s in make_icons.SIZES],
    ]:
        assert (ICONS / name).is_file(), name
        fresh = tmp_path / name
        if name.endswith(".png"):
            assert (
                pygame.image.load(str(fresh)).get_size()
                == pygame.image.load(str(ICONS / name)).get_size()
            )
        else:
            ET.parse(fresh)


def test_pngs_have_their_size_and_show_the_cards(make_icons: ModuleType) -> None:
    for size in (16, 48, 128, 256, 512):
        img = pygame.image.load(str(ICONS / f"koikoi-desktop-{size}.png"))
        assert img.get_size() == (size, size)
    big = pygame.image.load(str(ICONS / "koikoi-desktop-512.png"))
    assert big.get_at((2, 2)).a == 0  # transparent outside the rounded tile
    assert big.get_at((256, 60)).a == 255
    # The crane card's red sun is in the middle of the fan.
    r, g, b, _ = big.get_at((256, 220))
    assert r > 150 and g < 90 and b < 90


def test_svg_icon_embeds_three_cards() -> None:
    root = ET.parse(ICONS / "koikoi-desktop.svg").getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("viewBox") == "0 0 512 512"
    cards = [e for e in root.iter(f"{ns}svg") if e is not root]
    assert len(cards) == 3 and all(c.get("viewBox") == "0 0 200 320" for c in cards)


def test_ico_directory_points_at_the_pngs(iconfmt: ModuleType, tmp_path: Path) -> None:
    pngs = iconfmt.icon_pngs(ICONS)
    data = iconfmt.write_ico(tmp_path / "k.ico", pngs).read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    assert (reserved, kind) == (0, 1) and count == len(iconfmt.ICO_SIZES)
    seen = set()
    for i in range(count):
        w, h, _, _, planes, bpp, size, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        assert w == h and planes == 1 and bpp == 32
        assert data[offset : offset + 8] == PNG_SIG and offset + size <= len(data)
        seen.add(w or 256)
    assert seen == set(iconfmt.ICO_SIZES)


def test_icns_records_cover_the_whole_file(iconfmt: ModuleType, tmp_path: Path) -> None:
    data = iconfmt.write_icns(tmp_path / "k.icns", iconfmt.icon_pngs(ICONS)).read_bytes()
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    pos, codes = 8, []
    while pos < len(data):
        code, length = data[pos : pos + 4], struct.unpack(">I", data[pos + 4 : pos + 8])[0]
        assert data[pos + 8 : pos + 16] == PNG_SIG
        codes.append(code)
        pos += length
    assert pos == len(data)
    assert {b"ic07", b"ic08", b"ic09", b"icp4", b"icp5"} <= set(codes)
