"""`image`: a PNG, JPEG or SVG from the game's folder, scaled into a box and clipped to it;
an SVG is drawn as vector paths, maybe recoloured."""

from typing import Literal

from .. import ops
from ..errors import LayoutError
from .base import Coord, Element, Opacity, bleed_box, number


class Image(Element):
    src: str
    """Image file, relative to the game's folder (may be an expression, e.g.
    'art/{{ title }}.png'): a PNG or JPEG of at most 40 megapixels and 50 MB, or an SVG of at
    most 5 MB (printed as vector paths), inside the game folder once links are followed; one
    cut short or damaged is an error at this line. Raster art finer than the game's
    `images.max_ppi` where it is printed is resampled to `images.ppi`."""
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
    color: str | None = None
    """SVG only: recolour a single-colour icon. A background square covering the whole viewBox
    (game-icons.net's black square) is dropped and every other fill and stroke is painted in
    this colour ('#rrggbb', a name, one of the game's colors, or an expression)."""
    bleed: bool = False
    """Carry the image into the bleed on every side where the box touches the trim."""
    opacity: Opacity = 1
    """How opaque the image is, 0 to 1 (0.3 for a faint watermark); an image's own
    transparent pixels stay transparent."""

    def ops(self, ctx):
        src = ctx.eval(self.src)
        path, (pw, ph) = ctx.image_size(src)
        x, y, w, h = bleed_box(self.x, self.y, self.w, self.h, ctx) if self.bleed else (
            self.x, self.y, self.w, self.h)
        clip = None
        if self.fit != "stretch":
            scale = (max if self.fit == "cover" else min)(w / pw, h / ph)
            iw, ih = pw * scale, ph * scale
            clip = (x, y, w, h) if self.fit == "cover" else None
            x, y, w, h = x + (w - iw) / 2, y + (h - ih) / 2, iw, ih
        if not ctx.is_svg(path):
            if self.color is not None:
                raise LayoutError(f"color: recolours an SVG; '{src}' is a PNG or JPEG")
            return [ops.Image(ctx.place_image(src, w, h), x, y, w, h, clip, self.opacity)]
        ctx.image(src)
        for warning in ctx.svg_warnings(path):
            ctx.warn(warning)
        return [ops.Svg(path, x, y, w, h, clip, ctx.color(self.color), self.opacity)]


ELEMENT = Image
