"""`group`: elements drawn in a frame of their own, moved to (x, y), turned and/or mirrored:
the second panel of a fold-over standee (the first panel turned 180 degrees about the fold,
so both faces stand upright once folded), a piece of art used twice, a label on a slant.
A YAML anchor lets the same elements be drawn plainly and in a group. With `opacity:` the
group is translucent as a whole: its elements are put together first, so where they overlap
the one on top hides the one under it, and the result lets what lies under the group show
through (a faded badge made of several shapes, a watermark of art and text)."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

import math

from .. import ops
from . import Entries
from .base import Coord, Element, Opacity, number


class Group(Element):
    x: Coord = 0
    """Where the group's (0, 0) goes, mm from the trim's left."""
    y: Coord = 0
    """Where the group's (0, 0) goes, mm from the trim's top."""
    rotate: number(ge=-360, le=360) = 0
    """Turn the group counter-clockwise about its (0, 0), degrees."""
    mirror: bool = False
    """Flip the group left to right (before turning it)."""
    opacity: Opacity = 1
    """How opaque the group is as a whole, 0 to 1: its elements are drawn together first (the
    one on top hides what it overlaps, as at 1), then the group lets 1 - opacity of what lies
    under it show through; it multiplies its elements' own opacities. In PDF/X-1a output (no
    transparency) the face it is on is flattened (see `build --pdfx`)."""
    draw: Entries
    """The elements, placed in the group's own millimetres (y down)."""

    def expressions_with_names(self):
        out = super().expressions_with_names()
        for entry in self.draw:
            out += entry.element.expressions_with_names()
        return out

    def is_static(self) -> bool:
        return super().is_static() and all(entry.element.is_static() for entry in self.draw)

    def ops(self, ctx):
        a = math.radians(self.rotate)
        cos, sin = math.cos(a), math.sin(a)
        m = -1.0 if self.mirror else 1.0
        body = []
        for entry in self.draw:
            el = entry.element
            if el.when is None or ctx.condition(el.when):
                body += el.draw_ops(ctx)
        # (u, v) y down -> mirrored (m u, v) -> turned counter-clockwise as seen -> moved
        return [ops.Group((m * cos, -m * sin, sin, cos, self.x, self.y), tuple(body), None, self.opacity)]


ELEMENT = Group
