"""`grid`: a square grid of spaces drawn from the card's data (a map: rows of symbols and a
list of walls, written as docs/maps.md describes), with walls on the grid lines and an
icon for each symbol. The rules-check reads the same data with the same parser."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

from typing import Literal

from .. import ops
from ..errors import LayoutError
from .base import Coord, Dash, Element, Opacity, faded, number

Side = Literal["N", "E", "S", "W"]
ICON = "icon:"  # the form name of an icon (pnpgen.layout.ICON)


class Grid(Element):
    cells: str | list[str]
    """The rows, top first, one symbol per space separated by spaces, e.g.
    ['. K . . T .', ...]; usually an expression such as '{{ map }}'."""
    walls: str | list[str] | None = None
    """Walls as '<cell>:<side>' (e.g. 'C3:E'); usually '{{ walls }}'."""
    x: Coord = 0
    """Left edge of the grid, mm (its centre with anchor: center)."""
    y: Coord = 0
    """Top edge of the grid, mm (its centre with anchor: center)."""
    anchor: Literal["top-left", "center"] = "top-left"
    """What x and y place: the grid's top-left corner, or its centre (for maps whose size
    varies from card to card)."""
    cell: number(gt=0, le=200)
    """Side of one space, mm."""
    size: tuple[int, int] | None = None
    """[columns, rows] the map must have (any size when omitted)."""
    border: list[Side] = []
    """Outer sides closed by a wall unless a space there opens them (see openings)."""
    openings: dict[str, Side] = {}
    """Symbol -> side: a border space holding the symbol leaves that side open (an exit)."""
    symbols: dict[str, str] = {}
    """Symbol -> the game icon drawn in its spaces; '.' is an empty space."""
    symbol_size: number(gt=0, le=1) = 0.72
    """Icon height as a share of a space."""
    fill: str | None = None
    """Colour of the spaces (none: the card shows through)."""
    line: str | None = "#00000055"
    """Colour of the grid lines between spaces (none: no lines); the default is black at a
    third of its strength, so the lines show on any fill without drowning the icons."""
    line_width: number(ge=0, le=5) = 0.2
    """Width of the grid lines, mm."""
    dash: Dash | None = None
    """Dash pattern of the grid lines, mm."""
    wall: str = "black"
    """Colour of walls and closed borders."""
    wall_width: number(gt=0, le=10) = 1.2
    """Width of walls, mm."""
    opacity: Opacity = 1
    """How opaque the whole grid is (spaces, lines, icons and walls), 0 to 1; it multiplies a
    '#rrggbbaa' colour's own transparency."""

    def ops(self, ctx):
        from ..maps import gridmap     # (only a card that draws a map reads one)
        cells = ctx.value(self.cells)
        walls = ctx.value(self.walls) if self.walls is not None else []
        try:
            grid = gridmap.parse(cells, walls or (), self.border, self.openings, self.size,
                                 set(self.symbols) | {"."})
        except gridmap.GridError as exc:
            raise LayoutError(f"map: {exc}") from None
        s = self.cell
        W, H = grid.cols * s, grid.rows * s
        x0, y0 = (self.x, self.y) if self.anchor == "top-left" else (self.x - W / 2, self.y - H / 2)
        out = []
        fill = faded(ctx.color(self.fill), self.opacity)
        if fill is not None:
            out.append(ops.Rect(x0, y0, W, H, 0, ops.Paint(fill)))
        line = faded(ctx.color(self.line), self.opacity)
        if line is not None and self.line_width > 0:
            paint = ops.Paint(None, line, self.line_width, tuple(self.dash or ()))
            for c in range(1, grid.cols):
                out.append(ops.Path(((x0 + c * s, y0), (x0 + c * s, y0 + H)), False, paint))
            for r in range(1, grid.rows):
                out.append(ops.Path(((x0, y0 + r * s), (x0 + W, y0 + r * s)), False, paint))
        icon = self.symbol_size * s
        for r, row in enumerate(grid.cells):
            for c, symbol in enumerate(row):
                if symbol == ".":
                    continue
                name = self.symbols.get(symbol)
                if name is None:     # (the map's parser allows an opening's symbol without one)
                    raise LayoutError(f"map: symbol '{symbol}' (an opening) has no icon; give it one under "
                                      f"symbols:{_hint(symbol, self.symbols)}")
                aspect = ctx.icons.get(name)
                if aspect is None:
                    raise LayoutError(f"symbols: '{symbol}' draws icon '{name}', which the game does not define")
                w = icon * aspect
                ix, iy = x0 + c * s + (s - w) / 2, y0 + r * s + (s - icon) / 2
                out.append(_icon(name, ix, iy, w, icon, ctx, self.opacity))
        wall = ops.Paint(None, faded(ctx.color(self.wall), self.opacity), self.wall_width)
        for (ax, ay), (bx, by) in grid.wall_segments():
            out.append(ops.Path(((x0 + ax * s, y0 + ay * s), (x0 + bx * s, y0 + by * s)), False, wall))
        return out


def _hint(symbol: str, symbols: dict) -> str:
    """Did the designer mistype the symbol's key? (e.g. 'v"' for 'v')"""
    near = [k for k in symbols if symbol in k and k != symbol]
    return f" (is '{near[0]}' meant to be '{symbol}'?)" if near else ""


def _icon(name, x, y, w, h, ctx, opacity=1.0):
    """An icon's form scaled into the box (x, y, w, h), card mm."""
    form_h = ctx.res.icon_height(name)
    k = h / form_h
    return ops.Group((k, 0, 0, k, x, y + h), (ops.Form(ICON + name, opacity),))


ELEMENT = Grid
