"""Write a Windows ``.ico`` and a macOS ``.icns`` from the committed icon PNGs (no Pillow).

Both formats can hold PNG images as they are: an ``.ico`` is a small directory of entries
pointing at PNG data (read by Windows Vista and later), an ``.icns`` is a list of
(type code, length, PNG data) records. The spec calls :func:`write_ico` / :func:`write_icns`
at build time, so the build on Windows or macOS needs nothing beyond the standard library.

>>> import struct, tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> ico = write_ico(d / "a.ico", {16: b"\\x89PNG-16", 256: b"\\x89PNG-256"})
>>> struct.unpack("<HHH", ico.read_bytes()[:6])
(0, 1, 2)
>>> icns = write_icns(d / "a.icns", {16: b"\\x89PNG-16", 512: b"\\x89PNG-512"})
>>> data = icns.read_bytes(); data[:4], struct.unpack(">I", data[4:8])[0] == len(data)
(b'icns', True)
"""

from __future__ import annotations

import struct
from pathlib import Path

#: ``.icns`` type codes holding PNG data, by pixel size (the @2x codes reuse the larger PNG).
ICNS_TYPES: dict[bytes, int] = {
    b"icp4": 16,
    b"icp5": 32,
    b"icp6": 64,
    b"ic07": 128,
    b"ic08": 256,
    b"ic09": 512,
    b"ic11": 32,
    b"ic12": 64,
    b"ic13": 256,
    b"ic14": 512,
}
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def icon_pngs(folder: Path, name: str = "koikoi-desktop") -> dict[int, bytes]:
    """PNG data by size from ``<name>-<size>.png`` files in ``folder``."""
    out: dict[int, bytes] = {}
    for path in folder.glob(f"{name}-*.png"):
        tail = path.stem.rsplit("-", 1)[-1]
        if tail.isdigit():
            out[int(tail)] = path.read_bytes()
    if not out:
        raise FileNotFoundError(f"no {name}-<size>.png icons in {folder}")
    return out


def write_ico(path: Path, pngs: dict[int, bytes]) -> Path:
    """An ``.ico`` with every PNG of a size Windows uses (256 at most)."""
    sizes = sorted(s for s in pngs if s in ICO_SIZES)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for s in sizes:
        data = pngs[s]
        dim = 0 if s >= 256 else s  # 0 means 256 in an ICO directory entry
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        blobs += data
        offset += len(data)
    path.write_bytes(header + entries + blobs)
    return path


def write_icns(path: Path, pngs: dict[int, bytes]) -> Path:
    """An ``.icns`` with a PNG record for every type code whose size is available."""
    body = b""
    for code, size in ICNS_TYPES.items():
        if size in pngs:
            data = pngs[size]
            body += code + struct.pack(">I", 8 + len(data)) + data
    path.write_bytes(b"icns" + struct.pack(">I", 8 + len(body)) + body)
    return path
