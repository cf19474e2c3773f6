"""Positioned draw operations: what layout produces and render consumes.

All geometry is in millimetres in card coordinates: origin at the trim box's top-left
corner, x to the right, y downwards (as a designer measures a card). Colours are
reportlab Color objects (their `alpha` says how opaque they are) or None for "no paint".
Only render.py knows about points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Paint:
    """How a shape is painted: fill, stroke, stroke width (mm) and dash."""

    fill: Any = None
    stroke: Any = None
    width: float = 0.3  # stroke width, mm
    dash: tuple = ()


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle, its corners rounded by r."""

    x: float
    y: float
    w: float
    h: float
    r: float
    paint: Paint


@dataclass(frozen=True, slots=True)
class Ellipse:
    """An ellipse by its centre and radii."""

    cx: float
    cy: float
    rx: float
    ry: float
    paint: Paint


@dataclass(frozen=True, slots=True)
class Path:
    """A polyline or polygon through points."""

    points: tuple  # ((x, y), ...)
    closed: bool
    paint: Paint


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of one text line: a string in one font, or an inline icon."""

    x: float          # offset from the line's start, mm
    text: str         # the string, or the icon's name when icon is True
    font: str
    icon: bool = False
    w: float = 0.0    # icon width, mm
    h: float = 0.0    # icon height, mm


@dataclass(frozen=True, slots=True)
class Text:
    """Text set in lines of runs, at a size in points."""

    lines: tuple      # ((x, baseline_y, (Run, ...)), ...), in the unrotated box
    size: float       # font size, pt
    color: Any
    rotate: float     # degrees counter-clockwise about (cx, cy)
    cx: float
    cy: float


@dataclass(frozen=True, slots=True)
class Image:
    """An image file (or an image converted in memory) in a box, maybe clipped."""

    src: str          # absolute path
    x: float          # where the whole image goes (may exceed the clip)
    y: float
    w: float
    h: float
    clip: tuple | None  # (x, y, w, h) or None
    opacity: float = 1.0  # 0..1: how much of what lies under it is hidden


@dataclass(frozen=True, slots=True)
class Svg:
    """An SVG file drawn as vector paths in a box, maybe clipped and recoloured."""

    src: str          # absolute path
    x: float          # where the whole drawing goes (may exceed the clip)
    y: float
    w: float
    h: float
    clip: tuple | None  # (x, y, w, h) or None
    color: Any = None   # every fill and stroke in this colour (see layout/svg.py), or as drawn
    opacity: float = 1.0  # 0..1: how much of what lies under it is hidden


@dataclass(frozen=True, slots=True)
class Form:
    """Draw a shared, already-drawn group of operations (a reportlab form XObject)."""

    name: str
    opacity: float = 1.0  # 0..1, for what the form draws in opaque colours (an icon on a faded grid)


@dataclass(frozen=True, slots=True)
class FormDef:
    """A group of operations drawn once and placed many times (a reportlab form XObject)."""

    size: tuple       # (w, h) of its frame, mm
    body: tuple       # the operations, in the frame's mm (y down)
    bleed: bool       # a card face: its box takes in the bleed round the frame (icons do not)


@dataclass(frozen=True, slots=True)
class Group:
    """Operations drawn in a frame of their own: `transform` maps the frame's mm (y down)
    into the card's mm (y down). Slots use it to turn a value to face its edge. Below an
    `opacity` of 1 the body is translucent as a whole (drawn opaque among itself first)."""

    transform: tuple  # (a, b, c, d, e, f): x' = a*x + c*y + e, y' = b*x + d*y + f
    body: tuple
    clip: tuple | None = None   # (x, y, w, h) in the group's frame: draw only inside it
    opacity: float = 1.0        # 0..1, of the group as a whole
