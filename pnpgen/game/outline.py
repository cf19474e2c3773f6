"""The outline of a component that is neither a rectangle nor a disc: a hexagon (flat or
pointy top) or another polygon, as corner points in the template's millimetres (origin at
the trim box's top-left, y down, as elements are placed). The sheets clip, bleed and cut
along these points."""

from __future__ import annotations

import math

POLYGONAL = ("hex-flat", "hex-pointy", "polygon")
"""Template shapes drawn, bled and cut along a polygon."""


def regular(cx: float, cy: float, radius: float, sides: int, first: float) -> tuple:
    """The corners of a regular polygon round (cx, cy), the first at `first` degrees
    counter-clockwise from east (y down: a positive angle points up)."""
    out = []
    for i in range(sides):
        a = math.radians(first + 360 * i / sides)
        out.append((round(cx + radius * math.cos(a), 9), round(cy - radius * math.sin(a), 9)))
    return tuple(out)


def outline(shape: str, size: tuple[float, float], points=None, sides: int | None = None) -> tuple:
    """The corner points of a polygonal shape in a `size` box, or () for rect and round.
    A hexagon is the largest regular one centred in the box (as `slots` places its edges);
    `sides` gives the largest regular polygon in the box's inscribed circle, a corner at the top."""
    w, h = size
    if shape == "hex-flat":
        return regular(w / 2, h / 2, min(w / 2, h / math.sqrt(3)), 6, 0)
    if shape == "hex-pointy":
        return regular(w / 2, h / 2, min(w / math.sqrt(3), h / 2), 6, 90)
    if shape == "polygon":
        if points:
            return tuple((float(x), float(y)) for x, y in points)
        return regular(w / 2, h / 2, min(w, h) / 2, sides, 90)
    return ()


def problem(points, size: tuple[float, float]) -> str | None:
    """What is wrong with a polygon's `points` in a `size` box, or None."""
    from shapely.geometry import Polygon   # here: importing shapely costs a build that has no polygons 0.1 s
    w, h = size
    outside = [p for p in points if not (-1e-6 <= p[0] <= w + 1e-6 and -1e-6 <= p[1] <= h + 1e-6)]
    if outside:
        x, y = outside[0]
        return f"point [{x:g}, {y:g}] is outside the {w:g} x {h:g} mm size; keep every point inside it"
    poly = Polygon(points)
    if not poly.is_valid or poly.area < 1:
        return ("the points do not make one simple outline (its edges cross or it has no area); "
                "list the corners in order round the edge")
    return None
