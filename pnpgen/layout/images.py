"""Image files checked before anything draws them: PNG or JPEG, at most MAX_PIXELS, and
decoded to the end once, so that a truncated or damaged file is an error naming it rather
than a traceback, or grey where the picture stops. A file checked before and unchanged since
(a preview redraws on every save) is not decoded again. What can be is read a band of rows
at a time (rows.py), never held whole."""

from __future__ import annotations

import os
import struct
import warnings
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from PIL import Image, ImageFile

from ..errors import LayoutError
from .rows import PngRows, Rows, WholeImage, bandable

MAX_BYTES = 50_000_000
MAX_PIXELS = 40_000_000
"""The largest image drawn, in pixels (e.g. 8000 x 5000): 300 DPI over 67 x 42 cm. Decoding
one takes up to 160 MB and about a second."""
Image.MAX_IMAGE_PIXELS = MAX_PIXELS        # Pillow's own guard: anything opened never decodes more
ImageFile.LOAD_TRUNCATED_IMAGES = False    # (Pillow's default, relied on: a short file is an error)
FORMATS = ("PNG", "JPEG")
CHECK_ROWS = 256
"""Rows a band when a file is only checked."""

DAMAGED = (OSError, SyntaxError, ValueError, EOFError, struct.error, IndexError, KeyError, TypeError,
           ZeroDivisionError, Image.DecompressionBombError, zlib.error)
"""What Pillow's decoders raise on a damaged file."""

_checked: dict[tuple, tuple[str, str, tuple[int, int]]] = {}   # (path, size, mtime) -> (format, mode, size)
_KEEP = 4096


def check(path: Path, src: str) -> tuple[str, str, tuple[int, int]]:
    """(format, mode, (w, h) px) of the image at `path` (written `src` in the game), decoded
    to the end once; a LayoutError saying what is wrong with it otherwise."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise LayoutError(f"cannot read image '{src}': {exc.strerror or exc}") from None
    stamp = (str(path), info.st_size, info.st_mtime_ns)
    found = _checked.get(stamp)
    if found is None:
        found = _decode(path, src)
        if len(_checked) >= _KEEP:
            _checked.clear()
        _checked[stamp] = found
    return found


def _decode(path: Path, src: str) -> tuple[str, str, tuple[int, int]]:
    found = probe(path, src)
    with load(path, src) as source:
        if isinstance(source, _Named):
            for _band in source.bands(CHECK_ROWS):
                pass
    return found


def probe(path: Path, src: str) -> tuple[str, str, tuple[int, int]]:
    """(format, mode, (w, h) px) as the header gives them, nothing decoded: a LayoutError for
    a file that is no PNG or JPEG, or too large (`load` finds the rest)."""
    with _reading(path, src):
        with Image.open(path) as im:
            return _header(im, src)


def _header(im: Image.Image, src: str) -> tuple[str, str, tuple[int, int]]:
    """(format, mode, (w, h) px) of an opened image; a LayoutError for one that is no PNG or
    JPEG, or too large."""
    if im.format not in FORMATS:
        raise LayoutError(f"image '{src}' is {im.format}; use PNG or JPEG")
    _refuse_if_huge(im.size, src)
    return im.format, im.mode, im.size


@contextmanager
def load(path: Path, src: str, at_least: tuple[int, int] | None = None,
         whole: Callable[[Image.Image], Image.Image] = lambda im: im) -> Iterator[Rows]:
    """The image at `path` (written `src` in the game) to be read a band of rows at a time,
    every chunk's checksum checked first; a LayoutError saying what is wrong with it otherwise,
    now or while its bands are read. A PNG of 8-bit channels is decoded band by band as it is
    read (rows.py); any other image is decoded whole now, into what `whole` makes of it (a
    mode conversion), a JPEG at `at_least`, the size it is wanted at, where it can be (at 1/2,
    1/4 or 1/8 of its size, no smaller than that)."""
    banded, mode, size = _verified(path, src)
    if banded:
        yield _Named(PngRows(path, mode, size), path, src)
        return
    with _reading(path, src):
        im = Image.open(path)
        try:
            if at_least is not None and im.format == "JPEG":
                im.draft(None, at_least)
            im.load()              # every pixel: a file cut short is an error, not grey
        except BaseException:
            im.close()
            raise
    made = whole(im)
    if made is not im:
        im.close()
    try:
        yield WholeImage(made)
    finally:
        made.close()


def _verified(path: Path, src: str) -> tuple[bool, str, tuple[int, int]]:
    """(whether it is read in bands, mode, size) of the image at `path`, a PNG's chunks and
    their checksums checked to the end of the file; a LayoutError if it is no PNG or JPEG or
    too large."""
    with _reading(path, src):
        with Image.open(path) as im:
            _, mode, size = _header(im, src)
            banded = bandable(im)
            im.verify()
    return banded, mode, size


class _Named:
    """Rows whose reading errors are LayoutErrors naming the file (`src` in the game)."""

    def __init__(self, rows: Rows, path: Path, src: str):
        self.rows, self.path, self.src = rows, path, src
        self.mode, self.size = rows.mode, rows.size

    def bands(self, rows: int) -> Iterator[Image.Image]:
        try:
            yield from self.rows.bands(rows)
        except DAMAGED as exc:
            raise _damaged(self.src, exc) from None


@contextmanager
def _reading(path: Path, src: str):
    """Pillow reading the image at `path` (`src` in the game): its size is checked by the
    caller, so the decompression-bomb warning is quiet; a bomb or a damaged file becomes a
    LayoutError that says so."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            yield
    except LayoutError:
        raise
    except Image.DecompressionBombError as exc:
        _refuse_if_huge(header_size(path), src)
        raise LayoutError(f"image '{src}' is too large ({exc})") from None
    except DAMAGED as exc:
        raise _damaged(src, exc) from None


def _damaged(src: str, exc: Exception) -> LayoutError:
    return LayoutError(f"cannot read image '{src}': the file is damaged or cut short ({exc}); "
                       "export it again as PNG or JPEG")


def _refuse_if_huge(size: tuple[int, int], src: str) -> None:
    w, h = size
    if w * h > MAX_PIXELS:
        raise LayoutError(f"image '{src}' is {w} x {h} px ({w * h / 1e6:.0f} megapixels); the limit is "
                          f"{MAX_PIXELS / 1e6:.0f} megapixels: scale it down (300 DPI at its printed size is plenty)")


def header_size(path: Path) -> tuple[int, int]:
    """An image's size as its header gives it, read without Pillow's guard against large images
    (which refuses them without saying how large)."""
    from PIL import JpegImagePlugin, PngImagePlugin   # (only now: a deck without art never reads a header)
    for plugin in (PngImagePlugin.PngImageFile, JpegImagePlugin.JpegImageFile):
        try:
            with plugin(path) as im:
                return im.size
        except DAMAGED:
            continue
    return (0, 0)
