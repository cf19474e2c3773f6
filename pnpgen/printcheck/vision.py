"""Colours as players who see them differently see them: simulated protanopia, deuteranopia
and tritanopia (colorspacious's model of full colour-vision deficiency) and a greyscale print,
each placed in CAM02-UCS, where the distance between two colours is how different they look;
and which parts of a face are large enough to tell two faces apart at arm's length."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from colorspacious import cspace_convert

from .. import ops
from .faces import PT, TextLine, ThinLine, apply, compose

MIN_CUE = 4.0
"""Smallest shape, letter or symbol (mm across, a letter by its font size) that a player sees
at arm's length and can tell two faces apart by: a 2 mm dot or glyph is not."""

VIEWS = ("normal", "protanopia", "deuteranopia", "tritanopia", "greyscale")
"""The ways of seeing a colour cue must survive."""
SEEN = {"normal": "even to normal colour vision", "protanopia": "with protanopia",
        "deuteranopia": "with deuteranopia", "tritanopia": "with tritanopia", "greyscale": "printed in greyscale"}
"""Each view in words: 'look alike with deuteranopia'."""
_DEFICIENCY = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}


@lru_cache(maxsize=8192)
def seen(color: tuple, view: str) -> tuple:
    """Where an (r, g, b) colour, channels 0..1, lands in CAM02-UCS as `view` sees it
    ('normal' for normal colour vision)."""
    rgb = np.array(color, dtype=float)
    if view == "greyscale":
        lightness = cspace_convert(rgb, "sRGB1", "CIELab")[0]
        rgb = cspace_convert(np.array([lightness, 0.0, 0.0]), "CIELab", "sRGB1")
    elif view != "normal":
        rgb = cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": _DEFICIENCY[view], "severity": 100}, "sRGB1")
    return tuple(float(v) for v in cspace_convert(np.clip(rgb, 0, 1), "sRGB1", "CAM02-UCS"))


def distance(a: tuple, b: tuple, view: str = "normal") -> float:
    """How different two colours (r, g, b in 0..1) look in `view`: CAM02-UCS distance, about 1
    just noticeable, 100 from black to white."""
    return math.dist(seen(a, view), seen(b, view))


def seen_apart(part, min_size: float) -> bool:
    """Whether a part of a face (a drawing operation, a TextLine or a ThinLine) is large
    enough to tell two faces apart at arm's length: a shape or line at least MIN_CUE across,
    a single letter or symbol whose font size is at least MIN_CUE mm, words at `min_size` pt
    or more. A drawing whose size is not known here (a shared form) counts."""
    if isinstance(part, TextLine):
        letters = len(part.text.replace(" ", ""))
        return part.size * PT >= MIN_CUE if letters <= 1 else part.size >= min_size
    if isinstance(part, ThinLine):
        return _across(part.points) >= MIN_CUE
    extent = _extent(part, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return extent is None or max(extent) >= MIN_CUE


def _across(points) -> float:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return max(max(xs) - min(xs), max(ys) - min(ys)) if points else 0.0


def _extent(op, matrix) -> tuple[float, float] | None:
    """The width and height of the box an operation covers on the card (mm), or None when it
    is not known (a shared form)."""
    corners = _corners(op, matrix)
    if corners is None:
        return None
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return (max(xs) - min(xs), max(ys) - min(ys)) if corners else (0.0, 0.0)


def _corners(op, matrix) -> list | None:
    """Points on the card (mm) whose box holds what an operation draws; None when that is not
    known (a shared form, drawn by name)."""
    kind = type(op)
    if kind is ops.Group:
        inner = compose(matrix, op.transform)
        found = [_corners(child, inner) for child in op.body]
        return None if any(c is None for c in found) else [p for c in found for p in c]
    if kind is ops.Rect or kind is ops.Image or kind is ops.Svg:
        points = _box(op.x, op.y, op.x + op.w, op.y + op.h)
    elif kind is ops.Ellipse:
        points = _box(op.cx - op.rx, op.cy - op.ry, op.cx + op.rx, op.cy + op.ry)
    elif kind is ops.Path:
        points = list(op.points)
    elif kind is ops.Text:        # inline icons only (the letters are TextLines); a turn aside
        points = [p for lx, baseline, runs in op.lines for run in runs if run.icon
                  for p in _box(lx + run.x, baseline - 0.83 * run.h, lx + run.x + run.w, baseline + 0.17 * run.h)]
    else:
        return None
    return [apply(matrix, x, y) for x, y in points]


def _box(x0: float, y0: float, x1: float, y1: float) -> list:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
