"""`circle`: a circle (or an ellipse with `ry`) around a centre point."""

from pydantic import Field

from .. import ops
from .base import Coord, Painted


class Circle(Painted):
    x: Coord
    """Centre, mm from the trim's left."""
    y: Coord
    """Centre, mm from the trim's top."""
    r: float = Field(gt=0, le=500)
    """Radius, mm."""
    ry: float | None = Field(None, gt=0, le=500)
    """Vertical radius for an ellipse (defaults to r)."""

    def ops(self, ctx):
        return [ops.Ellipse(self.x, self.y, self.r, self.ry or self.r, self.paint(ctx))]


ELEMENT = Circle
