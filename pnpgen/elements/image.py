"""`image`: a PNG or JPEG from the game's folder, scaled into a box and clipped to it."""

from typing import Literal

from .. import ops
from .base import Coord, Element, Opacity, bleed_box, number


class Image(Element):
    src: str
    """Image file, relative to the game's folder (may be an expression, e.g.
    'art/{{ title }}.png'): a PNG or JPEG of at most 40 megapixels and 50 MB, inside the game
    folder once links are followed; one cut short or damaged is an error at this line."""
    x: Coord = 0
    """Left edge of the box, mm from the trim's left."""
    y: Coord = 0
    """Top edge of the box, mm from the trim's top."""
    w: number(gt=0, le=1000)
    """Box width, mm."""
    h: number(gt=0, le=1000)
    """Box height, mm."""
    fit: Literal["cover", "contain", "stretch"] = "cover"
    """cover: fill the box, cropping the overflow; contain: fit wholly inside; stretch: distort to fill."""
    bleed: bool = False
    """Carry the image into the bleed on every side where the box touches the trim."""
    opacity: Opacity = 1
    """How opaque the image is, 0 to 1 (0.3 for a faint watermark); an image's own
    transparent pixels stay transparent."""

    def ops(self, ctx):
        path, (pw, ph) = ctx.image(ctx.eval(self.src))
        x, y, w, h = bleed_box(self.x, self.y, self.w, self.h, ctx) if self.bleed else (
            self.x, self.y, self.w, self.h)
        if self.fit == "stretch":
            return [ops.Image(path, x, y, w, h, None, self.opacity)]
        scale = (max if self.fit == "cover" else min)(w / pw, h / ph)
        iw, ih = pw * scale, ph * scale
        ix, iy = x + (w - iw) / 2, y + (h - ih) / 2
        clip = (x, y, w, h) if self.fit == "cover" else None
        return [ops.Image(path, ix, iy, iw, ih, clip, self.opacity)]


ELEMENT = Image
