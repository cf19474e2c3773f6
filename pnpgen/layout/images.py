"""Image files checked before anything draws them: PNG or JPEG, at most MAX_PIXELS, and
decoded whole once, so that a truncated or damaged file is an error naming it rather than
a traceback, or grey where the picture stops. A file checked before and unchanged since (a
preview redraws on every save) is not decoded again."""

from __future__ import annotations

import os
import struct
import warnings
from contextlib import contextmanager
from pathlib import Path

from PIL import Image, ImageFile, JpegImagePlugin, PngImagePlugin

from ..errors import LayoutError

MAX_BYTES = 50_000_000
MAX_PIXELS = 40_000_000
"""The largest image drawn, in pixels (e.g. 8000 x 5000): 300 DPI over 67 x 42 cm. Decoding
one takes up to 160 MB and about a second."""
Image.MAX_IMAGE_PIXELS = MAX_PIXELS        # Pillow's own guard: anything opened never decodes more
ImageFile.LOAD_TRUNCATED_IMAGES = False    # (Pillow's default, relied on: a short file is an error)
FORMATS = ("PNG", "JPEG")

DAMAGED = (OSError, SyntaxError, ValueError, EOFError, struct.error, IndexError, KeyError, TypeError,
           ZeroDivisionError, Image.DecompressionBombError)
"""What Pillow's decoders raise on a damaged file."""

_checked: dict[tuple, tuple[str, str, tuple[int, int]]] = {}   # (path, size, mtime) -> (format, mode, size)
_KEEP = 4096


def check(path: Path, src: str) -> tuple[str, str, tuple[int, int]]:
    """(format, mode, (w, h) px) of the image at `path` (written `src` in the game), decoded
    whole once; a LayoutError saying what is wrong with it otherwise."""
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
    with load(path, src) as im:
        return im.format, im.mode, im.size


def probe(path: Path, src: str) -> tuple[str, str, tuple[int, int]]:
    """(format, mode, (w, h) px) as the header gives them, nothing decoded: a LayoutError for
    a file that is no PNG or JPEG, or too large (`load` finds the rest)."""
    with _reading(path, src):
        with Image.open(path) as im:
            fmt, mode, size = im.format, im.mode, im.size
    if fmt not in FORMATS:
        raise LayoutError(f"image '{src}' is {fmt}; use PNG or JPEG")
    _refuse_if_huge(size, src)
    return fmt, mode, size


def load(path: Path, src: str, at_least: tuple[int, int] | None = None) -> Image.Image:
    """The image at `path` (written `src` in the game) decoded whole, every chunk's checksum
    checked; a LayoutError saying what is wrong with it otherwise. (The caller closes it.)
    `at_least`: the size it is wanted at, which a JPEG may be decoded at straight away (at
    1/2, 1/4 or 1/8 of its size, no smaller than that)."""
    with _reading(path, src):
        with Image.open(path) as im:
            fmt, size = im.format, im.size
            if fmt not in FORMATS:
                raise LayoutError(f"image '{src}' is {fmt}; use PNG or JPEG")
            _refuse_if_huge(size, src)
            im.verify()            # a PNG's chunks and their checksums, to the end of the file
        im = Image.open(path)
        try:
            if at_least is not None and im.format == "JPEG":
                im.draft(None, at_least)
            im.load()              # every pixel: a file cut short is an error, not grey
        except BaseException:
            im.close()
            raise
        return im


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
        raise LayoutError(f"cannot read image '{src}': the file is damaged or cut short ({exc}); "
                          "export it again as PNG or JPEG") from None


def _refuse_if_huge(size: tuple[int, int], src: str) -> None:
    w, h = size
    if w * h > MAX_PIXELS:
        raise LayoutError(f"image '{src}' is {w} x {h} px ({w * h / 1e6:.0f} megapixels); the limit is "
                          f"{MAX_PIXELS / 1e6:.0f} megapixels: scale it down (300 DPI at its printed size is plenty)")


def header_size(path: Path) -> tuple[int, int]:
    """An image's size as its header gives it, read without Pillow's guard against large images
    (which refuses them without saying how large)."""
    for plugin in (PngImagePlugin.PngImageFile, JpegImagePlugin.JpegImageFile):
        try:
            with plugin(path) as im:
                return im.size
        except DAMAGED:
            continue
    return (0, 0)
