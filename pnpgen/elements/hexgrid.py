"""`hexgrid`: a board of hexes from rows of terrain codes in the board's data (a fixed map,
or one drawn from a seed; notation in docs/maps.md): each hex filled with its
terrain's colour and marked with its icon and number, so terrain is told apart by symbol
as well as colour; shared edges are drawn once; start hexes ringed in player colours."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

from typing import Literal

from .. import ops
from ..errors import LayoutError
from ..sources.validation import Schema
from .base import Coord, Element, Opacity, faded, number

ICON = "icon:"  # the form name of an icon (pnpgen.layout.ICON)
PT = 25.4 / 72


class Terrain(Schema):
    """How one terrain code is drawn."""

    fill: str
    """Fill colour of its hexes."""
    icon: str | None = None
    """A game icon drawn on each of its hexes."""
    name: str = ""
    """Its name, printed small under the icon (when `names` is on)."""


class HexGrid(Element):
    cells: str | list[str]
    """The rows of terrain codes, top first, separated by spaces (e.g. '1 2 5 0'), '-' for a hex
    not on the board; usually '{{ hexes }}'."""
    top: Literal["flat", "pointy"] = "flat"
    """flat: straight columns, odd columns shoved down; pointy: straight rows, odd rows shoved right."""
    across: number(gt=2, le=200)
    """Width of a hex across its flats, mm."""
    x: Coord = 0
    """Left edge of the grid's bounding box, mm."""
    y: Coord = 0
    """Top edge of the grid's bounding box, mm."""
    terrain: dict[str, Terrain]
    """Terrain code -> its fill, icon and name."""
    icon_size: number(gt=0, le=1) = 0.42
    """Icon height as a share of `across`."""
    numbers: bool = True
    """Print each hex's terrain code."""
    names: bool = False
    """Print each hex's terrain name."""
    labels: bool = True
    """Print each hex's coordinate (column and row, e.g. 0305) small at its top."""
    line: str = "black"
    """Colour of the hex edges."""
    line_width: number(gt=0, le=5) = 0.3
    """Width of the hex edges, mm."""
    starts: list[str] = []
    """Player colours: ring the start hexes (as far apart as the board allows) in them, in order."""
    den: str = "6"
    """Terrain code of the start hexes (Dens): each ring goes on the Den nearest its player's start."""
    opacity: Opacity = 1
    """How opaque the whole board of hexes is (fills, icons, text, edges, rings), 0 to 1; it
    multiplies a '#rrggbbaa' colour's own transparency."""

    def ops(self, ctx):
        from ..maps import hexmap  # the board geometry lives with the generator
        cells = ctx.value(self.cells)
        try:
            grid = hexmap.parse(cells, self.top, set(self.terrain))
        except hexmap.HexError as exc:
            raise LayoutError(f"hexes: {exc}") from None
        ink, fade = faded(ctx.color(self.line), self.opacity), self.opacity
        font = ctx.font("sans-bold")
        small = ctx.font("sans")
        out, edges = [], {}
        for col, row in grid.hexes():  # hexes written '-' are not on the board: nothing drawn
            code = grid.terrain(col, row)
            look = self.terrain[code]
            corners = [(self.x + cx, self.y + cy) for cx, cy in grid.corners(col, row, self.across)]
            out.append(ops.Path(tuple(corners), True, ops.Paint(faded(ctx.color(look.fill), fade))))
            for a, b in zip(corners, corners[1:] + corners[:1]):
                key = tuple(sorted((_key(a), _key(b))))
                edges.setdefault(key, (a, b))
            cx, cy = grid.centre(col, row, self.across)
            cx, cy = self.x + cx, self.y + cy
            if look.icon:
                if look.icon not in ctx.icons:
                    raise LayoutError(f"terrain.{code}.icon: the game has no icon '{look.icon}'")
                h = self.icon_size * self.across
                w = h * ctx.icons[look.icon]
                k = h / ctx.res.icon_height(look.icon)
                out.append(ops.Group((k, 0, 0, k, cx - w / 2, cy - h * 0.62 + h), (ops.Form(ICON + look.icon, fade),)))
            if self.numbers:
                out.append(_text(code, cx, cy + self.across * 0.40, self.across * 0.19, font, ink))
            if self.names and look.name:
                out.append(_text(look.name, cx, cy + self.across * 0.21, self.across * 0.085, small, ink))
            if self.labels:
                out.append(_text(grid.label(col, row), cx, cy - self.across * 0.31, self.across * 0.085, small, ink))
        paint = ops.Paint(None, ink, self.line_width)
        out += [ops.Path((a, b), False, paint) for _, (a, b) in sorted(edges.items())]
        if self.starts:
            dens = hexmap.start_dens(grid, len(self.starts), self.den)
            for colour, (col, row) in zip(self.starts, dens):
                cx, cy = grid.centre(col, row, self.across)
                ring = tuple((self.x + cx + 0.86 * (px - cx), self.y + cy + 0.86 * (py - cy))
                             for px, py in grid.corners(col, row, self.across))
                out.append(ops.Path(ring, True, ops.Paint(None, faded(ctx.color(colour), fade), self.across * 0.07)))
        return out


def _key(point):
    return (round(point[0], 4), round(point[1], 4))


def _text(text, cx, baseline, size_mm, key, color):
    """One line of text centred on cx, its font size given in mm."""
    from .. import fonts
    size = size_mm / PT
    w = fonts.width(text, key) * size * PT
    return ops.Text(((cx - w / 2, baseline, (ops.Run(0.0, text, key, False, w),)),), size, color, 0.0, 0.0, 0.0)


ELEMENT = HexGrid
