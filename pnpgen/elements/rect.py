"""`rect`: a filled and/or stroked rectangle, optionally with rounded corners."""

from .. import ops
from .base import Coord, Painted, bleed_box, number


class Rect(Painted):
    x: Coord = 0
    """Left edge, mm from the trim's left."""
    y: Coord = 0
    """Top edge, mm from the trim's top."""
    w: number(gt=0, le=1000)
    """Width, mm."""
    h: number(gt=0, le=1000)
    """Height, mm."""
    r: number(ge=0, le=500) = 0
    """Corner radius, mm (0 for square corners)."""
    bleed: bool = False
    """Carry the rectangle into the bleed on every side where it touches the trim."""

    def ops(self, ctx):
        x, y, w, h = bleed_box(self.x, self.y, self.w, self.h, ctx) if self.bleed else (
            self.x, self.y, self.w, self.h)
        return [ops.Rect(x, y, w, h, self.r, self.paint(ctx))]


ELEMENT = Rect
