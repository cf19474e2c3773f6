"""`image`: a PNG or JPEG from the game's folder, scaled into a box and clipped to it."""

from typing import Literal

from pydantic import Field

from .. import ops
from .base import Coord, Element, bleed_box


class Image(Element):
    src: str
    """Image file, relative to the game's folder (may be an expression, e.g.
    'art/{{ title }}.png'): a PNG or JPEG of at most 40 megapixels and 50 MB, inside the game
    folder once links are followed; one cut short or damaged is an error at this line. Art
    finer than the game's `images.max_ppi` where it is printed is resampled to `images.ppi`."""
    x: Coord = 0
    """Left edge of the box, mm from the trim's left."""
    y: Coord = 0
    """Top edge of the box, mm from the trim's top."""
    w: float = Field(gt=0, le=1000)
    """Box width, mm."""
    h: float = Field(gt=0, le=1000)
    """Box height, mm."""
    fit: Literal["cover", "contain", "stretch"] = "cover"
    """cover: fill the box, cropping the overflow; contain: fit wholly inside; stretch: distort to fill."""
    bleed: bool = False
    """Carry the image into the bleed on every side where the box touches the trim."""

    def ops(self, ctx):
        src = ctx.eval(self.src)
        _, (pw, ph) = ctx.image_size(src)
        x, y, w, h = bleed_box(self.x, self.y, self.w, self.h, ctx) if self.bleed else (
            self.x, self.y, self.w, self.h)
        if self.fit == "stretch":
            return [ops.Image(ctx.place_image(src, w, h), x, y, w, h, None)]
        scale = (max if self.fit == "cover" else min)(w / pw, h / ph)
        iw, ih = pw * scale, ph * scale
        ix, iy = x + (w - iw) / 2, y + (h - ih) / 2
        clip = (x, y, w, h) if self.fit == "cover" else None
        return [ops.Image(ctx.place_image(src, iw, ih), ix, iy, iw, ih, clip)]


ELEMENT = Image
