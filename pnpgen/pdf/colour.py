"""Colour for a printing press: the sRGB colours and images of the templates converted to the
press's CMYK through an ICC profile (Pillow's ImageCms, which is littleCMS), for PDF/X files.

Colours are converted once each (relative colorimetric, with black point compensation) and
kept. An exact grey, text and crop marks included, is printed with black ink alone, as dark
as the grey asks: a four-ink black would blur small type wherever the plates are a hair out
of register. Images are converted whole; the see-through pixels of an image with
transparency are keyed out (a colour-key mask: PDF/X-1a forbids soft masks but allows this)
with a CMYK value the profile never makes, 400 % ink where its limit is 300 % (an image with
soft edges is flattened with its face instead: flatten.py). The profile
shipped is GRACoL 2006 coated (CGATS TR 006): see pnpgen/icc/LICENSE-GRACoL-TR006.txt."""

from __future__ import annotations

import bisect
import io
from functools import lru_cache
from pathlib import Path

from PIL import Image
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader

from ..layout.resources import CONVERTED, PRINTED

PROFILE = Path(__file__).resolve().parent.parent / "icc" / "GRACoL-TR006-coated.icc"
"""The press profile pnpgen ships: GRACoL 2006 coated paper, sheetfed offset (CGATS TR 006)."""
CONDITION = "CGATS TR 006"
"""The printing condition the profile describes, as the ICC's registry names it."""
REGISTRY = "http://www.color.org"
KEY = (255, 255, 255, 255)
"""The CMYK value of a keyed-out pixel: 400 % ink, which the profile (300 % at most) never makes."""
KEY_MASK = [v for v in KEY for _ in range(2)]
"""The colour-key mask for an image with keyed-out pixels: each component's range, KEY only."""
HALF = 128
"""A pixel at least this opaque is printed; a more transparent one is keyed out."""
FLATTEN_PPI = 600
"""The resolution a see-through face is flattened at (flatten.py): fine enough for small type."""


class PressColours:
    """sRGB to the press's CMYK, for one build or export: the canvas's colour hook (call it
    with any reportlab colour) and the images, each converted once."""

    def __init__(self, profile: Path = PROFILE, flatten_ppi: float = FLATTEN_PPI):
        from PIL import ImageCms    # (here and below, not at the top: only PDF/X builds convert colours)
        self.flatten_ppi = flatten_ppi      # see-through faces are flattened at this resolution
        self.icc = profile.read_bytes()
        press = ImageCms.ImageCmsProfile(io.BytesIO(self.icc))
        self.description = ImageCms.getProfileDescription(press).strip()
        srgb, lab = ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB")
        intent, bpc = ImageCms.Intent.RELATIVE_COLORIMETRIC, ImageCms.Flags.BLACKPOINTCOMPENSATION
        self._to_press = ImageCms.buildTransform(srgb, press, "RGB", "CMYK", renderingIntent=intent, flags=bpc)
        self._grey_lightness = ImageCms.buildTransform(srgb, lab, "RGB", "LAB", renderingIntent=intent)
        black_ink = Image.frombytes("CMYK", (256, 1), bytes(v for k in range(256) for v in (0, 0, 0, k)))
        lab_ramp = ImageCms.applyTransform(black_ink, ImageCms.buildTransform(press, lab, "CMYK", "LAB",
                                                                             renderingIntent=intent))
        self._black_lightness = [lab_ramp.getpixel((k, 0))[0] for k in range(256)]   # falls as k grows
        self._colours: dict[tuple[int, int, int], CMYKColor] = {}
        self._images: dict[str, tuple[ImageReader, list | None]] = {}

    # --- colours ----------------------------------------------------------------------------
    def __call__(self, colour) -> CMYKColor:
        """Any colour reportlab takes (a Color, a CMYKColor, an (r, g, b) or (c, m, y, k)
        tuple of 0-1 values, a name) as the press's CMYK; CMYK is kept as given."""
        if isinstance(colour, str):
            colour = toColor(colour)
        if isinstance(colour, CMYKColor):
            return colour
        if isinstance(colour, (tuple, list)):
            if len(colour) == 4:
                return CMYKColor(*colour)
            colour = Color(*colour)
        return self.cmyk(tuple(round(v * 255) for v in (colour.red, colour.green, colour.blue)))

    def cmyk(self, rgb: tuple[int, int, int]) -> CMYKColor:
        """The press's CMYK (0-1) for an 8-bit sRGB colour, converted once."""
        known = self._colours.get(rgb)
        if known is None:
            if rgb[0] == rgb[1] == rgb[2]:
                inks = (0, 0, 0, self._black_for(rgb[0]))
            else:
                from PIL import ImageCms
                pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), self._to_press).getpixel((0, 0))
                inks = tuple(round(v / 255, 4) for v in pixel)
            known = self._colours[rgb] = CMYKColor(*inks)
        return known

    def _black_for(self, grey: int) -> float:
        """The black ink (0-1) alone that prints as light as the sRGB grey `grey` (0-255)."""
        from PIL import ImageCms
        swatch = Image.new("RGB", (1, 1), (grey,) * 3)
        target = ImageCms.applyTransform(swatch, self._grey_lightness).getpixel((0, 0))[0]
        darker = [-v for v in self._black_lightness]          # rises with k, for bisect
        k = bisect.bisect_left(darker, -target)
        if k == 0:
            return 0.0
        if k >= len(darker):
            return 1.0
        light, dark = self._black_lightness[k - 1], self._black_lightness[k]
        step = (light - target) / (light - dark) if light != dark else 0.0
        return round((k - 1 + step) / 255, 4)

    # --- images -----------------------------------------------------------------------------
    def image(self, key: str, images) -> tuple[ImageReader, list | None]:
        """The image an op names by `key` (a file path, or a key into the `images` converted in
        memory), as the press's CMYK (grey stays grey), and its colour-key mask or None."""
        known = self._images.get(key)
        if known is None and key.startswith(PRINTED):      # art resampled for print
            known = self._images[key] = self.convert_image(images.get(key).picture())
        if known is None:
            path = Path(images.root) / key[len(CONVERTED):] if key.startswith(CONVERTED) else Path(key)
            with Image.open(path) as im:
                known = self._images[key] = self.convert_image(im)
        return known

    def convert_image(self, im: Image.Image) -> tuple[ImageReader, list | None]:
        """A picture as the press's CMYK (a grey one as grey), its see-through pixels keyed out."""
        from PIL import ImageCms
        im = _eight_bit(im)
        if im.mode == "L":
            return ImageReader(im.copy()), None
        see_through = "A" in im.getbands() or "transparency" in im.info
        rgba = im.convert("RGBA") if see_through else None
        cmyk = ImageCms.applyTransform((rgba or im).convert("RGB"), self._to_press)
        if rgba is None or rgba.getchannel("A").getextrema()[0] >= HALF:
            return ImageReader(cmyk), None
        holes = rgba.getchannel("A").point(lambda a: 255 if a < HALF else 0)
        cmyk.paste(KEY, mask=holes)
        return ImageReader(cmyk), list(KEY_MASK)


@lru_cache(maxsize=1)
def shared(flatten_ppi: float = FLATTEN_PPI) -> PressColours:
    """The process's PressColours for the shipped profile: each colour and image converted once
    for every PDF of a build."""
    return PressColours(flatten_ppi=flatten_ppi)


def _eight_bit(im: Image.Image) -> Image.Image:
    """16- and 32-bit grey scaled to 8 bits (a plain conversion would clip it to white)."""
    if not (im.mode.startswith("I") or im.mode == "F"):
        return im
    wide = im.convert("F")
    top = wide.getextrema()[1]
    scale = 255 / 65535 if top > 255 else (255.0 if im.mode == "F" and top <= 1.0 else 1.0)
    return wide.point(lambda v: v * scale).convert("L")
