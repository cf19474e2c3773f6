"""`polygon`: a closed shape from a list of points, or a regular polygon (hexagon, star
points...) from a centre, radius and number of sides."""

import math

from pydantic import model_validator

from .. import ops
from .base import Coord, Painted, Point, number


class Polygon(Painted):
    points: list[Point] | None = None
    """Corner points [[x, y], ...] in mm, at least three; a coordinate may be an expression."""
    x: Coord | None = None
    """Centre of a regular polygon, mm from the trim's left."""
    y: Coord | None = None
    """Centre of a regular polygon, mm from the trim's top."""
    r: number(gt=0, le=500) | None = None
    """Centre-to-corner radius of a regular polygon, mm."""
    sides: number(whole=True, ge=3, le=64) | None = None
    """Number of sides of a regular polygon (6 for a hexagon)."""
    angle: number(ge=-360, le=360) = 0
    """Rotation of a regular polygon, degrees clockwise (0 puts a corner at the right)."""

    @model_validator(mode="after")
    def _one_form(self):
        regular = None not in (self.x, self.y, self.r, self.sides)
        if self.points is None and not regular:
            raise ValueError("give either points: [[x, y], ...] or x, y, r and sides")
        if self.points is not None and len(self.points) < 3:
            raise ValueError("a polygon needs at least 3 points")
        return self

    def ops(self, ctx):
        if self.points is not None:
            pts = tuple(self.points)
        else:
            pts = tuple((self.x + self.r * math.cos(math.radians(self.angle + 360 * i / self.sides)),
                         self.y + self.r * math.sin(math.radians(self.angle + 360 * i / self.sides)))
                        for i in range(self.sides))
        return [ops.Path(pts, True, self.paint(ctx))]


ELEMENT = Polygon
