"""`circle`: a circle (or an ellipse with `ry`) around a centre point."""

from .. import ops
from .base import Coord, Painted, number


class Circle(Painted):
    x: Coord
    """Centre, mm from the trim's left."""
    y: Coord
    """Centre, mm from the trim's top."""
    r: number(gt=0, le=500)
    """Radius, mm."""
    ry: number(gt=0, le=500) | None = None
    """Vertical radius for an ellipse (defaults to r)."""

    def ops(self, ctx):
        return [ops.Ellipse(self.x, self.y, self.r, self.ry or self.r, self.paint(ctx))]


ELEMENT = Circle
