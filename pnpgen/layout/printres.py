"""Raster art at print resolution. An image finer than `max_ppi` at the size it is printed
(e.g. a 3000 x 4200 px PNG on a 69 x 95 mm card, about 1,100 ppi) is resampled to `ppi`
(300) there, once, and kept encoded as the PDF stores it (a `PrintImage`), so that drawing
it never decodes the file again. Finer art only makes the PDF bigger and slower: no printer
resolves more than about 300 ppi of continuous tone.

Photo or line art, by a measurable rule: after resampling, an image with more than
PHOTO_COLOURS distinct colours is a photo, stored as a JPEG of quality JPEG_QUALITY (no
chroma subsampling) when that is smaller than the lossless (Flate) stream; anything else
(flat colours, drawings, text) is always stored lossless. Transparency is kept as a soft
mask; an alpha channel that is opaque everywhere is dropped."""

from __future__ import annotations

import io
import math
import zlib
from dataclasses import dataclass

from PIL import Image

MM_PER_INCH = 25.4
PHOTO_COLOURS = 4096
JPEG_QUALITY = 92


@dataclass(frozen=True)
class ImageSettings:
    """When art is resampled (game.yaml `images`, or the build's --image-ppi / --keep-images)."""

    max_ppi: float = 450
    ppi: float = 300
    keep: bool = False

    def text(self) -> str:
        """The settings as a key part (a change rebuilds every page that draws art)."""
        return "keep" if self.keep else f"{self.max_ppi:g}>{self.ppi:g}"


def target_size(px: tuple[int, int], mm: tuple[float, float], settings: ImageSettings) -> tuple[int, int] | None:
    """The pixel size an image of `px` printed over `mm` (w, h) is resampled to, or None when it
    is kept as it is (no finer than max_ppi, or keep)."""
    (pw, ph), (w, h) = px, mm
    if settings.keep or w <= 0 or h <= 0:
        return None
    if max(pw * MM_PER_INCH / w, ph * MM_PER_INCH / h) <= settings.max_ppi:
        return None
    tw = min(pw, max(1, math.ceil(w / MM_PER_INCH * settings.ppi)))
    th = min(ph, max(1, math.ceil(h / MM_PER_INCH * settings.ppi)))
    return None if (tw, th) == (pw, ph) else (tw, th)


@dataclass(frozen=True)
class PrintImage:
    """An image as the PDF stores it: its colour stream (Flate or DCT) and, when it has
    transparency, a soft mask (8-bit grey, Flate)."""

    key: str
    width: int
    height: int
    colour_space: str        # DeviceGray or DeviceRGB
    codec: str               # FlateDecode or DCTDecode
    data: bytes
    mask: bytes | None = None

    def dump(self) -> bytes:
        """The bytes `load` reads back."""
        head = f"{self.key}\n{self.width} {self.height} {self.colour_space} {self.codec} {len(self.data)}\n"
        return head.encode() + self.data + (self.mask or b"")

    @staticmethod
    def load(blob: bytes) -> "PrintImage | None":
        """A PrintImage from `dump`'s bytes, or None when they are not whole."""
        try:
            key, head, rest = blob.split(b"\n", 2)
            w, h, space, codec, n = head.decode().split()
            width, height, length = int(w), int(h), int(n)
        except ValueError:
            return None
        if len(rest) < length or codec not in ("FlateDecode", "DCTDecode"):
            return None
        mask = rest[length:] or None
        return PrintImage(key.decode(), width, height, space, codec, rest[:length], mask)


def resample(im: Image.Image, size: tuple[int, int], key: str) -> PrintImage:
    """`im` (in a mode reportlab draws: L, LA, RGB or RGBA) resampled to `size`, encoded."""
    small = im.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    alpha = None
    if small.mode in ("LA", "RGBA"):
        alpha = small.getchannel("A")
        small = small.convert("L" if small.mode == "LA" else "RGB")
        if alpha.getextrema() == (255, 255):
            alpha = None
    raw = small.tobytes()
    data, codec = zlib.compress(raw), "FlateDecode"
    if is_photo(small):
        jpeg = io.BytesIO()
        small.save(jpeg, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=False)
        if jpeg.tell() < len(data):
            data, codec = jpeg.getvalue(), "DCTDecode"
    mask = zlib.compress(alpha.tobytes()) if alpha is not None else None
    space = "DeviceGray" if small.mode == "L" else "DeviceRGB"
    return PrintImage(key, size[0], size[1], space, codec, data, mask)


def is_photo(im: Image.Image) -> bool:
    """More than PHOTO_COLOURS distinct colours (see the module docstring)."""
    return im.getcolors(PHOTO_COLOURS) is None
