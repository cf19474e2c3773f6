"""`line`: an open polyline through two or more points."""

from pydantic import Field

from .. import ops
from .base import Dash, Element, Opacity, Point, faded, number


class Line(Element):
    points: list[Point] = Field(min_length=2)
    """Points [[x, y], ...] in mm, at least two; a coordinate may be an expression."""
    stroke: str = "black"
    """Line colour."""
    stroke_width: number(ge=0, le=20) = 0.3
    """Line width, mm."""
    dash: Dash | None = None
    """Dash pattern in mm, e.g. [1, 0.5]."""
    opacity: Opacity = 1
    """How opaque the line is, 0 to 1; it multiplies a '#rrggbbaa' colour's own transparency."""

    def ops(self, ctx):
        paint = ops.Paint(None, faded(ctx.color(self.stroke), self.opacity), self.stroke_width, tuple(self.dash or ()))
        return [ops.Path(tuple(self.points), False, paint)]


ELEMENT = Line
