"""Raster art at print resolution. An image finer than `max_ppi` at the size it is printed
(e.g. a 3000 x 4200 px PNG on a 69 x 95 mm card, about 1,100 ppi) is resampled to `ppi`
(300) there, once, and kept encoded as the PDF stores it (a `PrintImage`), so that drawing
it never decodes the file again. Finer art only makes the PDF bigger and slower: no printer
resolves more than about 300 ppi of continuous tone.

Photo or line art, by a measurable rule: after resampling, an image with more than
PHOTO_COLOURS distinct colours is a photo, stored as a JPEG of quality JPEG_QUALITY (no
chroma subsampling) when that is smaller than the lossless (Flate) stream; anything else
(flat colours, drawings, text) is always stored lossless. Transparency is kept as a soft
mask; an alpha channel that is opaque everywhere is dropped. (Whether a photo's JPEG is
smaller is judged from a sample of its rows when it is less than half their Flate size, so
the whole image is compressed both ways only when the two are close.)"""

from __future__ import annotations

import io
import math
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from .rows import Rows

MM_PER_INCH = 25.4
PHOTO_COLOURS = 4096
JPEG_QUALITY = 92
REDUCING_GAP = 1.5
BAND_ROWS = 64
HEAD_BYTES = 4096
"""Enough of an entry file to hold its head (the key, a path in the game folder, and sizes)."""
"""Rows of the reduced picture made from each band of the original."""
PREMULTIPLIED = {"LA": "La", "RGBA": "RGBa"}


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

    def picture(self) -> Image.Image:
        """The image decoded back into a picture (L, LA, RGB or RGBA): for a PDF/X file, whose
        press colours are made from pixels."""
        size, mode = (self.width, self.height), ("L" if self.colour_space == "DeviceGray" else "RGB")
        if self.codec == "DCTDecode":
            with Image.open(io.BytesIO(self.data)) as jpeg:
                im = jpeg.convert(mode)
        else:
            im = Image.frombytes(mode, size, zlib.decompress(self.data))
        if self.mask is not None:
            im.putalpha(Image.frombytes("L", size, zlib.decompress(self.mask)))
        return im


@dataclass(frozen=True)
class StoredImage:
    """A PrintImage kept in a file (an image-store entry, in `dump`'s form): what a PDF needs
    to know of it, and where its streams are, not the streams themselves."""

    key: str
    width: int
    height: int
    colour_space: str
    codec: str
    path: Path
    data_at: int
    data_length: int
    mask_length: int

    @staticmethod
    def read(path: Path) -> "StoredImage | None":
        """The entry at `path` as it describes itself, or None when it is not whole."""
        try:
            with open(path, "rb") as f:
                head = f.read(HEAD_BYTES)
                size = os.fstat(f.fileno()).st_size
            key, line, _ = head.split(b"\n", 2)
            w, h, space, codec, n = line.decode().split()
            at, length = len(key) + len(line) + 2, int(n)
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if size < at + length or codec not in ("FlateDecode", "DCTDecode"):
            return None
        return StoredImage(key.decode(), int(w), int(h), space, codec, path, at, length, size - at - length)

    def loaded(self) -> PrintImage:
        """The image with its streams read (OSError if the file went)."""
        with open(self.path, "rb") as f:
            f.seek(self.data_at)
            data, mask = f.read(self.data_length), f.read(self.mask_length)
        return PrintImage(self.key, self.width, self.height, self.colour_space, self.codec, data, mask or None)

    def mask_bytes(self) -> bytes:
        """The soft mask's stream (read from the file)."""
        with open(self.path, "rb") as f:
            f.seek(self.data_at + self.data_length)
            return f.read(self.mask_length)

    def picture(self) -> Image.Image:
        """See PrintImage.picture."""
        return self.loaded().picture()


def resample(source: Rows, size: tuple[int, int], key: str) -> PrintImage:
    """The image `source` (in a mode reportlab draws: L, LA, RGB or RGBA) resampled to
    `size`, encoded."""
    small, alpha = _smaller(source, size)
    raw = small.tobytes()
    if is_photo(small):
        out = io.BytesIO()
        small.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=0)
        jpeg = out.getvalue()
        if len(jpeg) * 2 < _flate_estimate(raw, small.width * len(small.getbands())):
            data, codec = jpeg, "DCTDecode"
        else:
            flate = zlib.compress(raw)
            data, codec = (jpeg, "DCTDecode") if len(jpeg) < len(flate) else (flate, "FlateDecode")
    else:
        data, codec = zlib.compress(raw), "FlateDecode"
    mask = zlib.compress(alpha.tobytes()) if alpha is not None else None
    space = "DeviceGray" if small.mode == "L" else "DeviceRGB"
    return PrintImage(key, size[0], size[1], space, codec, data, mask)


def _smaller(source: Rows, size: tuple[int, int]) -> tuple[Image.Image, Image.Image | None]:
    """`source` at `size` without its alpha channel, and that channel (None when it is opaque
    everywhere). Averaged down a band of rows at a time by a whole factor on each axis first
    (the last step, Lanczos, still shrinks by at least REDUCING_GAP; Pillow's `reducing_gap`,
    done so that the whole picture is never held); transparency premultiplied throughout, so
    no colour bleeds from clear pixels."""
    (w, h), mode = source.size, source.mode
    fx = max(1, int(w / size[0] / REDUCING_GAP))
    fy = max(1, int(h / size[1] / REDUCING_GAP))
    work = PREMULTIPLIED.get(mode, mode)
    reduced = Image.new(work, (-(-w // fx), -(-h // fy)))
    opaque, top = True, 0
    for band in source.bands(fy * BAND_ROWS):
        if work != mode:
            opaque = opaque and band.getchannel("A").getextrema() == (255, 255)
            band = band.convert(work)
        reduced.paste(band.reduce((fx, fy)) if fx > 1 or fy > 1 else band, (0, top // fy))
        top += band.height
    small = reduced.resize(size, Image.Resampling.LANCZOS, box=(0, 0, w / fx, h / fy))
    if work == mode:
        return small, None
    small = small.convert(mode)
    flat = "L" if mode == "LA" else "RGB"
    return small.convert(flat), (None if opaque else small.getchannel("A"))


def _flate_estimate(raw: bytes, row: int) -> int:
    """The size the Flate stream of `raw` (rows of `row` bytes) would have, from every eighth
    band of 16 rows (a photo whose JPEG is less than half that needs no exact figure)."""
    band = 16 * row
    sample = b"".join(raw[i:i + band] for i in range(0, len(raw), 8 * band))
    return len(zlib.compress(sample)) * len(raw) // max(1, len(sample))


def is_photo(im: Image.Image) -> bool:
    """More than PHOTO_COLOURS distinct colours (see the module docstring)."""
    return im.getcolors(PHOTO_COLOURS) is None
