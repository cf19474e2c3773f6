"""Images read a band of rows at a time, so that resampling, checking or embedding a large
picture never holds all of its pixels: a 3000 x 4200 px RGBA PNG is 50 MB decoded, a band of
128 of its rows 1.5 MB.

A PNG of 8-bit grey or colour, with or without alpha, and not interlaced (what paint
programs export) is decoded a band at a time (`PngRows`): its compressed rows are inflated
as far as the band needs, and Pillow's own PNG decoder undoes the row filters, the band's
rows led by the last row of the band before (stored unfiltered: the filters of a band's
first row refer to the row above it). Any other image is decoded whole and cut into bands
(`WholeImage`)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Iterator, Protocol

from PIL import Image

BANDED = ("L", "LA", "RGB", "RGBA")
"""The modes a PNG is read in bands in (8 bits a channel, as the file stores them)."""
_READ = 1 << 16
_INFLATE = 1 << 22
"""The most a block of compressed data is inflated to at once (bounded, yet seldom reached:
what is left of a block is taken up again for the next band)."""


class Rows(Protocol):
    """An image to be read a band of rows at a time, top to bottom."""

    mode: str
    size: tuple[int, int]

    def bands(self, rows: int) -> Iterator[Image.Image]:
        """The image `rows` rows at a time (the last band may have fewer)."""


class WholeImage:
    """An image already decoded, cut into bands."""

    def __init__(self, im: Image.Image):
        self.im, self.mode, self.size = im, im.mode, im.size

    def bands(self, rows: int) -> Iterator[Image.Image]:
        w, h = self.size
        for top in range(0, h, rows):
            yield self.im.crop((0, top, w, min(h, top + rows)))


def bandable(im: Image.Image) -> bool:
    """Whether a PNG opened by Pillow (nothing decoded yet) can be read by `PngRows`."""
    tiles = getattr(im, "tile", None) or []
    return (im.format == "PNG" and im.mode in BANDED and len(tiles) == 1 and tiles[0][0] == "zip"
            and tiles[0][3] in (im.mode, (im.mode,)) and not im.info.get("interlace")
            and getattr(im, "n_frames", 1) == 1 and not im.info.get("default_image"))


class PngRows:
    """A PNG (one `bandable` says can be) read a band at a time; errors in its data are
    raised as Pillow's and zlib's are (ValueError, zlib.error), for the caller to name."""

    def __init__(self, path: Path, mode: str, size: tuple[int, int]):
        self.path, self.mode, self.size = path, mode, size

    def bands(self, rows: int) -> Iterator[Image.Image]:
        w, h = self.size
        row_bytes = 1 + w * len(self.mode)      # a filter byte, then the row
        inflate, pending, above = zlib.decompressobj(), b"", None
        with open(self.path, "rb") as f:
            compressed = idat_blocks(f)
            for top in range(0, h, rows):
                n = min(rows, h - top)
                data, pending = _inflated(inflate, compressed, pending, n * row_bytes)
                band = self._decoded(data, above, n)
                above = band.crop((0, n - 1, w, n)).tobytes("raw", self.mode)
                yield band

    def _decoded(self, filtered: bytes, above: bytes | None, n: int) -> Image.Image:
        """`n` filtered rows unfiltered by Pillow, after the row `above` them (unfiltered)."""
        w = self.size[0]
        lead = b"" if above is None else b"\0" + above
        stored = zlib.compress(lead + filtered, 0)
        band = Image.frombytes(self.mode, (w, n + (above is not None)), stored, "zip", self.mode)
        return band if above is None else band.crop((0, 1, w, n + 1))


def _inflated(inflate, compressed: Iterator[bytes], pending: bytes, wanted: int) -> tuple[bytes, bytes]:
    """`wanted` bytes of the inflated stream and what is left over (a ValueError if it ends first)."""
    parts, have = [pending], len(pending)
    while have < wanted:
        more = inflate.unconsumed_tail or next(compressed, b"")
        if not more:
            break
        part = inflate.decompress(more, max(wanted - have, _INFLATE))
        parts.append(part)
        have += len(part)
    data = b"".join(parts)
    if len(data) < wanted:
        raise ValueError("the image data ends early")
    return (data, b"") if len(data) == wanted else (data[:wanted], data[wanted:])


def idat_blocks(f) -> Iterator[bytes]:
    """The compressed image data of the PNG open as `f`, a block at a time (its chunks'
    checksums were verified before)."""
    f.seek(8)
    while True:
        head = f.read(8)
        if len(head) < 8:
            return
        length, kind = struct.unpack(">I4s", head)
        if kind == b"IDAT":
            left = length
            while left:
                block = f.read(min(left, _READ))
                if not block:
                    return
                left -= len(block)
                yield block
            f.seek(4, 1)
        elif kind == b"IEND":
            return
        else:
            f.seek(length + 4, 1)
