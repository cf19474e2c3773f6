"""`print-cut`: text within the cut zone (the strip inside the trim where a cut that lands a
little off goes through), or past the trim, where the cut takes it away."""

import math

from ..findings import Hit
from .size import name

ORDER = 40
DOC = ("text that comes within `cut_zone` mm of the trim (of a round token's circle, a hex tile's "
       "or polygon's outline), or runs "
       "past it into the bleed")
PIXELS = False


def inspect(face, limits, under):
    zone = limits.cut_zone
    if zone <= 0:
        return
    for text in face.texts:
        room = min(inside(face, x, y) for x, y in text.corners())
        if room < zone - 0.005:
            what = f"runs {-room:.1f} mm past the cut" if room < 0 else f"comes within {room:.1f} mm of the cut"
            yield Hit("cut", text.where, face, room, f"{name(text)} {what}",
                      f"where a cut a little off goes through it; keep text {zone:g} mm inside the trim "
                      f"(print: {{cut_zone: ...}} in game.yaml)", zone)


def inside(face, x: float, y: float) -> float:
    """How far a card point is inside the trim, mm (negative: outside)."""
    w, h = face.size
    if face.outline:   # a hexagon or polygon: the distance to its outline
        from shapely.geometry import Point, Polygon   # only faces with an outline import shapely
        outline, point = Polygon(face.outline), Point(x, y)
        return outline.exterior.distance(point) * (1 if outline.contains(point) else -1)
    if face.shape == "round":
        return min(w, h) / 2 - math.dist((x, y), (w / 2, h / 2))
    return min(x, y, w - x, h - y)
