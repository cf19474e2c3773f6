"""`slots`: values on the edges and corners of a rectangle (or the six edges of a hexagon),
each turned to be read from beyond its own edge or corner, so that turning the card
selects a value (a treasure count, a difficulty, the number in your corner).

Slots are named by compass point: n, ne, e, se, s, sw, w, nw on a rectangle; a flat-topped
hexagon has n, ne, se, s, sw, nw and a pointy-topped one ne, e, se, sw, w, nw; a circle
has as many slots as values, evenly spaced clockwise from the top (a spinner's sectors,
a dial's numbers). A list of
values fills the chosen slots clockwise from `start`; a mapping names each slot. What is
drawn at each slot is `draw:` (elements in a frame centred on the slot, its "up" pointing
into the card), with `value`, `slot` and `index` as names; by default the value as text.
Without a `shape:` the slots take the template's: on a hex tile (shape hex-flat or hex-pointy)
they sit on the tile's own hexagon, on anything else on the rectangle."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

import math
from functools import cached_property
from typing import Any, Literal

from pydantic import model_validator

from .. import expr, ops
from ..expr import names as expr_names
from ..errors import LayoutError
from . import Entries
from .base import Coord, Element, has_expr, number

RECT = {"n": 90, "ne": 45, "e": 0, "se": -45, "s": -90, "sw": -135, "w": 180, "nw": 135}
"""Slot -> direction from the centre, degrees counter-clockwise from east."""
HEX_FLAT = {"n": 90, "ne": 30, "se": -30, "s": -90, "sw": -150, "nw": 150}
HEX_POINTY = {"ne": 60, "e": 0, "se": -60, "sw": -120, "w": 180, "nw": 120}
DIRECTIONS = {"rect": RECT, "hex-flat": HEX_FLAT, "hex-pointy": HEX_POINTY, "circle": {}}
"""Each shape's slots (a circle's are numbered, and placed when the values are known)."""
CLOCKWISE = ["n", "ne", "e", "se", "s", "sw", "w", "nw"]
HEXAGONS = ("hex-flat", "hex-pointy")
"""Template shapes whose own outline a `slots` without a `shape:` sits on."""
LOCAL = ("value", "slot", "index")
"""The names a slot adds for its `draw:` elements."""


class Slots(Element):
    shape: Literal["rect", "hex-flat", "hex-pointy", "circle"] | None = None
    """The outline the slots sit on: a rectangle, a flat- or pointy-topped hexagon inscribed
    in the box, or a circle inscribed in it (one slot per value, clockwise from the top).
    Default: the template's own shape on a hex tile (hex-flat or hex-pointy: with the default
    box, the tile's own hexagon), rect on anything else."""
    x: Coord = 0
    """Left edge of the box, mm (default: the card's)."""
    y: Coord = 0
    """Top edge of the box, mm."""
    w: number(gt=0, le=1000) | None = None
    """Box width, mm (default: the card's width)."""
    h: number(gt=0, le=1000) | None = None
    """Box height, mm (default: the card's height)."""
    at: Literal["edges", "corners", "all"] | list[Literal["n", "ne", "e", "se", "s", "sw", "w", "nw"]] = "edges"
    """Which slots are used: edges, corners (rectangles only), all, or a list of slot names;
    a list of values fills them clockwise. A circle has one slot per value: leave it out."""
    start: str | None = None
    """The slot the first value goes to (e.g. n, or '{{ white }}'); default: the first of
    `at` clockwise from n."""
    values: str | list[Any] | dict[str, Any]
    """The values: a list (or an expression giving one, e.g. '{{ corners }}') placed clockwise
    from `start`, or a mapping slot -> value. An empty value leaves its slot blank."""
    inset: number(ge=0, le=500) = 7
    """Distance from the edge to the slot's centre, mm (at a corner, from both edges)."""
    facing: Literal["out", "in"] = "out"
    """out: each value is read by someone beyond its edge (its foot towards the edge);
    in: read from the card's centre (its top towards the edge)."""
    draw: Entries | None = None
    """What to draw at each slot, in a frame whose (0, 0) is the slot's centre and whose
    up points away from the value's reader; names `value`, `slot` and `index` are set.
    Default: the value as text, in `font`, `size` and `color`."""
    font: str = "sans-bold"
    """Font of the default text."""
    size: number(gt=0, le=300) = 14
    """Size of the default text, pt."""
    color: str = "black"
    """Colour of the default text."""

    @model_validator(mode="after")
    def _shape_slots(self):
        if self.shape == "circle":
            return self._circle_slots()
        # without a shape, checked as a rectangle's (whose slots include every hexagon's) here,
        # and again for the template's shape as it is drawn
        problem = self._problem(self.shape or "rect")
        if problem:
            raise ValueError(problem)
        return self

    def _problem(self, shape: str) -> str | None:
        """What is wrong with `at`, `start` and `values` for slots on `shape`, or None."""
        names = DIRECTIONS[shape]
        if self.at == "corners" and shape != "rect":
            return f"a hexagon's slots are its six edges: use at: edges{self._on(shape)}"
        if isinstance(self.at, list):
            unknown = [a for a in self.at if a not in names]
            if unknown:
                return f"{', '.join(unknown)}: not a slot of a {shape} (it has {', '.join(names)}){self._on(shape)}"
        order = self.order(shape)
        if self.start is not None and not has_expr(self.start) and self.start not in order:
            return f"start: '{self.start}' is not one of the slots used ({', '.join(order)}){self._on(shape)}"
        if isinstance(self.values, dict):
            unknown = [k for k in self.values if k not in names]
            if unknown:
                return f"values: {', '.join(unknown)}: not a slot (expected {', '.join(names)}){self._on(shape)}"
        return None

    def _on(self, shape: str) -> str:
        """How a slots without a shape came to be on `shape` (for its messages)."""
        if self.shape is None and shape != "rect":
            return f" (the slots take the template's shape, {shape}; write shape: rect for a rectangle's)"
        return ""

    def _circle_slots(self):
        """A circle has one slot per value, the first at the top: `at` may only be left out
        (or say all), `start` not given, and the values are a list, never a mapping."""
        if "at" in self.model_fields_set and self.at != "all":
            raise ValueError(f"at: {self.at}: a circle has one slot per value, clockwise from the top; "
                             "leave at: out (or write at: all)")
        if self.start is not None:
            raise ValueError("start: a circle's first value is always at the top; leave start: out "
                             "(put the values in the order to read them clockwise)")
        if isinstance(self.values, dict):
            raise ValueError("values: a circle's slots are numbered, not named: give the values as a list "
                             "(or an expression giving one), e.g. values: [1, 2, 3, 4]")
        return self

    # --- which slots, in which order --------------------------------------------------------
    def shape_on(self, ctx) -> str:
        """The outline the slots sit on when drawn in `ctx`: their own `shape`, else the
        template's when it is a hexagon, else rect."""
        if self.shape is not None:
            return self.shape
        return ctx.shape if ctx.shape in HEXAGONS else "rect"

    def order(self, shape: str) -> list[str]:
        """The slots used on `shape`, clockwise from n."""
        names = [n for n in CLOCKWISE if n in DIRECTIONS[shape]]
        if self.at == "edges":
            return [n for n in names if shape != "rect" or len(n) == 1]
        if self.at == "corners":
            return [n for n in names if len(n) == 2]
        if self.at == "all":
            return names
        return [n for n in names if n in self.at]

    # --- expressions: the slot's own names count as known -----------------------------------
    def expressions(self) -> list[str]:
        out = super().expressions()
        if isinstance(self.values, list):
            out += [v for v in self.values if has_expr(v)]
        elif isinstance(self.values, dict):
            out += [v for v in self.values.values() if has_expr(v)]
        return out

    def expressions_with_names(self):
        out = super().expressions_with_names()
        for entry in self._drawn:
            out += [(src, shown, LOCAL) for src, shown, _ in entry.element.expressions_with_names()]
        return out

    def is_static(self) -> bool:
        if not super().is_static():
            return False
        env = expr.environment()
        for entry in self._drawn:
            for src, _, _ in entry.element.expressions_with_names():
                if expr_names.used(env, src) - set(LOCAL):
                    return False
        return True

    @cached_property
    def _drawn(self) -> list:
        if self.draw is not None:
            return self.draw
        from . import one_element     # the default: the value as text, centred on the slot
        box = self.size * 25.4 / 72 * 2
        return [one_element({"text": {"x": -box, "y": -box / 2, "w": 2 * box, "h": box, "text": "{{ value }}",
                                      "font": self.font, "size": self.size, "color": self.color,
                                      "align": "center", "valign": "middle", "wrap": False}})]

    # --- drawing ----------------------------------------------------------------------------
    def ops(self, ctx):
        shape = self.shape_on(ctx)
        if shape != (self.shape or "rect"):
            problem = self._problem(shape)
            if problem:
                raise LayoutError(problem)
        order = self.order(shape)
        values = ctx.value(self.values) if isinstance(self.values, str) else self.values
        if shape == "circle":
            if not isinstance(values, (list, tuple)) or not values:
                raise LayoutError(f"values: a circle needs a list of values, got {values!r}")
            order = [str(i + 1) for i in range(len(values))]
            placed = list(zip(order, values))
        elif isinstance(values, dict):
            placed = [(name, values.get(name)) for name in order if name in values]
        elif isinstance(values, (list, tuple)):
            if len(values) > len(order):
                raise LayoutError(f"{len(values)} values for {len(order)} slots ({', '.join(order)})")
            start = ctx.eval(self.start) if self.start is not None else order[0]
            if start not in order:
                raise LayoutError(f"start: '{start}' is not one of the slots used ({', '.join(order)})")
            k = order.index(start)
            placed = [(order[(k + i) % len(order)], v) for i, v in enumerate(values)]
        else:
            raise LayoutError(f"values: expected a list or a mapping of slot -> value, got {values!r}")
        x0, y0 = self.x, self.y
        w = self.w if self.w is not None else ctx.width - x0
        h = self.h if self.h is not None else ctx.height - y0
        out = []
        for index, (name, value) in enumerate(placed):
            if value is None or value == "":
                continue
            if isinstance(value, str):
                value = ctx.eval(value)
            if shape == "circle":
                theta = 90 - 360 * index / len(placed)
                reach = min(w, h) / 2 - self.inset
                cx = x0 + w / 2 + reach * math.cos(math.radians(theta))
                cy = y0 + h / 2 - reach * math.sin(math.radians(theta))
            else:
                cx, cy = _centre(shape, name, x0, y0, w, h, self.inset)
                theta = DIRECTIONS[shape][name]
            turn = math.radians(theta + 90 if self.facing == "out" else theta - 90)
            cos, sin = math.cos(turn), math.sin(turn)
            sub = ctx.within({"value": value, "slot": name, "index": index})
            body = [op for entry in self._drawn for op in _drawn_ops(entry.element, sub)]
            out.append(ops.Group((cos, -sin, sin, cos, cx, cy), tuple(body)))
        return out


def _centre(shape: str, name: str, x0: float, y0: float, w: float, h: float, inset: float):
    """The centre of slot `name` on `shape` in the box (x0, y0, w, h), in card mm (y down)."""
    cx, cy = x0 + w / 2, y0 + h / 2
    theta = math.radians(DIRECTIONS[shape][name])
    if shape == "rect":
        dx, dy = round(math.cos(theta)), -round(math.sin(theta))
        return cx + dx * (w / 2 - inset), cy + dy * (h / 2 - inset)
    # the hexagon inscribed in the box (as game.outline draws a hex tile's): R from whichever
    # of width and height binds
    if shape == "hex-flat":
        radius = min(w / 2, h / math.sqrt(3))
    else:
        radius = min(w / math.sqrt(3), h / 2)
    reach = radius * math.sqrt(3) / 2 - inset
    return cx + reach * math.cos(theta), cy - reach * math.sin(theta)


def _drawn_ops(element, ctx):
    if element.when is not None and not ctx.condition(element.when):
        return []
    return element.draw_ops(ctx)


ELEMENT = Slots
