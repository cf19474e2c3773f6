"""`trails`: a point-to-point trail board drawn from data: places (a hub, red safety
intersections, towns, junction spaces) and the trails between them, each with its count of
plain spaces, written as docs/maps.md describes. Trails are drawn as lines with their
spaces strung along them; a town as a ring of numbered red circles with its name beside; the
hub large, with its name. The rules-check reads the same data with the same parser."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

from .. import fonts, ops
from ..errors import LayoutError
from .base import Coord, Element, number
from .text import PT, Text

class Trails(Element):
    places: str | dict
    """The places, id -> {x, y, kind, name}: usually '{{ places }}' (see docs/maps.md)."""
    trails: str | list
    """The trails, [{from, to, spaces, via}, ...]: usually '{{ trails }}'."""
    x: Coord = 0
    """Where the data's (0, 0) goes, mm from the left (the data is in mm, y down)."""
    y: Coord = 0
    """Where the data's (0, 0) goes, mm from the top."""
    space: number(gt=0, le=100) = 18
    """Diameter of a plain space, mm."""
    safety: number(gt=0, le=100) = 20
    """Diameter of a red safety intersection, mm."""
    circle: number(gt=0, le=100) = 24
    """Diameter of each circle of a town's ring, mm."""
    hub: number(gt=0, le=300) = 50
    """Diameter of the hub, mm."""
    ring_gap: number(ge=0, le=50) = 5
    """Gap between neighbouring circles of a town's ring, mm."""
    bend: number(ge=0, le=100) = 10
    """Radius of the rounded bends of a trail's line at its via points, mm (0: sharp)."""
    line: str = "#5b3a1e"
    """Colour of the trail lines."""
    line_width: number(gt=0, le=20) = 2.5
    """Width of the trail lines, mm."""
    edge: str | None = None
    """Colour of a wider line drawn under each trail line, as its border (none: no border)."""
    edge_width: number(ge=0, le=10) = 1.2
    """How much wider than the line its border is, mm."""
    fill: str = "#fbf6e6"
    """Fill of the plain spaces."""
    stroke: str = "#2a2118"
    """Outline of every space, circle and the hub."""
    stroke_width: number(ge=0, le=5) = 0.6
    """Outline width, mm."""
    red: str = "#c62f26"
    """Fill of the safety intersections and the towns' circles."""
    ring: str | None = None
    """Colour of the loop joining a town's circles (default: `line`)."""
    hub_fill: str = "#d8c07a"
    """Fill of the hub."""
    font: str = "serif-bold"
    """Font of the names and numbers."""
    name_size: number(gt=0, le=72) = 9
    """Size of the town and safety names, pt."""
    name_color: str = "#2a2118"
    """Colour of the names."""
    plate: str | None = "#fbf6e6"
    """Fill of the plate behind each town's name (none: no plate)."""
    plate_stroke: str | None = None
    """Outline of the name plates (default: `red`)."""
    hub_size: number(gt=0, le=72) = 12
    """Size of the hub's name, pt."""
    hub_color: str = "#2a2118"
    """Colour of the hub's name."""
    numbers: bool = True
    """Number each town's circles 1, 2, 3..., circle 1 facing the trail."""
    number_size: number(gt=0, le=72) = 10
    """Size of the circle numbers, pt."""
    number_color: str = "#fbf6e6"
    """Colour of the circle numbers."""

    def ops(self, ctx):
        from ..maps import trailmap    # (only a trail board reads one)
        places, trails = ctx.value(self.places), ctx.value(self.trails)
        try:
            tm = trailmap.parse(places, trails)
        except trailmap.TrailError as exc:
            raise LayoutError(f"trails: {exc}") from None
        sizes = trailmap.Sizes(self.space, self.safety, self.circle, self.hub, self.ring_gap)
        geo = trailmap.geometry(tm, sizes, self.bend)
        ox, oy = self.x, self.y

        def at(p):
            return (p[0] + ox, p[1] + oy)

        return self._trail_ops(ctx, geo, at) + self._space_ops(ctx, tm, geo, at) + self._name_ops(ctx, tm, geo)

    def _trail_ops(self, ctx, geo, at) -> list:
        """The trails and the rings round the towns, over their edge (when there is one)."""
        ox, oy = self.x, self.y
        out: list = []
        edge = ctx.color(self.edge)
        line = ops.Paint(None, ctx.color(self.line), self.line_width)
        ring = ops.Paint(None, ctx.color(self.ring or self.line), self.line_width)
        if edge is not None and self.edge_width > 0:
            border = ops.Paint(None, edge, self.line_width + self.edge_width)
            out += [ops.Path(tuple(map(at, pts)), False, border) for pts in geo.lines]
            for town, (cx, cy, r) in geo.rings.items():
                out.append(ops.Ellipse(cx + ox, cy + oy, r, r, border))
        out += [ops.Path(tuple(map(at, pts)), False, line) for pts in geo.lines]
        for town, (cx, cy, r) in geo.rings.items():
            if r > 0:
                out.append(ops.Ellipse(cx + ox, cy + oy, r, r, ring))
        return out

    def _space_ops(self, ctx, tm, geo, at) -> list:
        """The spaces: plain ones, safeties, the towns' numbered circles and the hubs."""
        out: list = []
        stroke = ctx.color(self.stroke)
        plain = ops.Paint(ctx.color(self.fill), stroke, self.stroke_width)
        red = ops.Paint(ctx.color(self.red), stroke, self.stroke_width)
        hub = ops.Paint(ctx.color(self.hub_fill), stroke, self.stroke_width * 1.5)
        for node in tm.plain_spaces():
            x, y = at(geo.centre[node.id])
            r = geo.size[node.id] / 2
            out.append(ops.Ellipse(x, y, r, r, plain))
        for p in tm.of_kind("safety"):
            x, y = at(geo.centre[p.id])
            out.append(ops.Ellipse(x, y, self.safety / 2, self.safety / 2, red))
        for p in tm.of_kind("town"):
            for k in range(1, p.circles + 1):
                x, y = at(geo.centre[tm.circle(p.id, k)])
                out.append(ops.Ellipse(x, y, self.circle / 2, self.circle / 2, red))
                if self.numbers:
                    out.append(self._text(ctx, str(k), x - self.circle / 2, y - self.circle / 2, self.circle,
                                          self.circle, self.number_size, self.number_color))
        for p in tm.of_kind("hub"):
            x, y = at(geo.centre[p.id])
            out.append(ops.Ellipse(x, y, self.hub / 2, self.hub / 2, hub))
            w = self.hub * 0.82
            out.append(self._text(ctx, p.name, x - w / 2, y - w / 2, w, w, self.hub_size, self.hub_color))
        return out

    def _name_ops(self, ctx, tm, geo) -> list:
        """The names of the towns (on their plates) and of the safeties."""
        ox, oy = self.x, self.y
        out: list = []
        plate = ctx.color(self.plate)
        edge_paint = ops.Paint(plate, ctx.color(self.plate_stroke or self.red), self.stroke_width)
        for p in tm.places.values():
            if p.kind == "hub" or not p.name:
                continue
            w, h = self._name_box(ctx, p.name)
            bx, by, w, h = geo.label_box(p, w, h)
            bx, by = bx + ox, by + oy
            if plate is not None and p.kind == "town":
                out.append(ops.Rect(bx, by, w, h, min(2.0, h / 3), edge_paint))
            out.append(self._text(ctx, p.name, bx, by, w, h, self.name_size, self.name_color))
        return out

    def _name_box(self, ctx, name):
        """The plate around a name at name_size: the text's width and height plus a margin."""
        key = ctx.font(self.font)
        width = fonts.width(name, key) * self.name_size * PT
        asc, desc = fonts.ascent_descent(key)
        height = (asc - desc) * self.name_size * PT
        return width + 2.4 + 0.6, height + 1.6

    def _text(self, ctx, content, x, y, w, h, size, color):
        """One line of text centred in a box (shrunk to fit if need be)."""
        el = Text(text=content, x=x, y=y, w=w, h=h, font=self.font, size=size, color=color,
                  align="center", valign="middle", wrap=True, leading=1.0)
        notes: list = []
        op = el._layout(content, ctx, notes)
        for message in notes:
            ctx.warn(message, strict=True)
        return op


ELEMENT = Trails
