"""`print-lines`: thin lines a player must see (walls, trails, rules: open stroked paths up
to 2 mm wide) that do not stand out from what is drawn under them."""

import math

from ..findings import Hit
from ..raster import hex_of, opacity_note, to255

ORDER = 30
DOC = ("thin lines (open stroked paths up to 2 mm wide: walls, trails, rules) whose contrast "
       "ratio with what is under them is below `contrast_large`")
PIXELS = True

STEP = 0.4
"""Distance between samples along a line, mm."""
MOST = 400
"""Most samples along one line."""
SHARE = 0.5
"""A line is seen where most of its length stands out: its ends may run into a shape of its
own colour (a spoke into its hub, a wall into the border)."""


def inspect(face, limits, under):
    need = limits.contrast_large
    if need <= 1:
        return
    for line in face.lines:
        ink = to255(line.color)
        ratio, background = under.contrast(face, ink, line.points, lambda: samples(line.points), SHARE,
                                           line.alpha)
        if ratio < need - 0.005:
            yield Hit("lines", line.where, face, ratio,
                      f"a {line.width:.2g} mm line in {hex_of(ink)}{opacity_note(line.alpha)} on {hex_of(background)} has "
                      f"contrast {ratio:.1f}:1",
                      f"below the {need:g}:1 a line needs to be seen; darken one or lighten the other "
                      f"(print: {{contrast_large: ...}} in game.yaml sets the limit)", need,
                      f"{line.width:.2g} mm {hex_of(ink)}")


def samples(points) -> list[tuple[float, float]]:
    """Points along a polyline, about STEP apart (at most MOST)."""
    segments = list(zip(points, points[1:]))
    total = sum(math.dist(a, b) for a, b in segments)
    step = max(STEP, total / MOST)
    out = []
    for (ax, ay), (bx, by) in segments:
        n = max(1, math.ceil(math.dist((ax, ay), (bx, by)) / step))
        out += [(ax + (bx - ax) * (i + 0.5) / n, ay + (by - ay) * (i + 0.5) / n) for i in range(n)]
    return out
