"""Square-grid maps written in YAML: parsing, validation and the questions a map rule asks
(which spaces a token can reach, which edge segments are open).

A map is written as rows of one-character cells, top row first, and a list of walls:

    cells: [". K . . T .",
            ". C . . . ."]
    walls: ["C1:E", "B2:S"]

A wall is `<cell>:<side>`: column letter (A = leftmost), row number (1 = top row) and one of
N, E, S, W. `C3:E` and `D3:W` name the same wall. The outer edge can be closed side by side
(`border`); a cell holding an opening symbol (`openings`, e.g. `^` -> N) leaves its border
segment on that side open, which is how an exit off the map is drawn.

Coordinates are 0-based (col, row) with row 0 at the top. Pure Python, so that the rules-check
and the map generator share it without pulling in the renderer."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

SIDES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
"""Each side and the step (dcol, drow) that crosses it."""
EMPTY = "."
MAX_COLS = 26  # one letter per column


class GridError(ValueError):
    """A map that cannot be read; the message says what is wrong and how to fix it."""


def cell_name(col: int, row: int) -> str:
    """The name designers write, e.g. (2, 2) -> "C3", so messages point at the spot."""
    return f"{chr(ord('A') + col)}{row + 1}"


@dataclass(frozen=True)
class GridMap:
    """A parsed map. `closed` holds every blocked edge (wall or closed border segment) once,
    normalised (see `_edge`), so that both sides of a wall agree."""

    cols: int
    rows: int
    cells: tuple[tuple[str, ...], ...]      # [row][col]
    closed: frozenset = frozenset()         # {(col, row, side)}, normalised

    def symbol(self, col: int, row: int) -> str:
        """The symbol in a space ("." when empty)."""
        return self.cells[row][col]

    def blocked(self, col: int, row: int, side: str) -> bool:
        """Whether a token in (col, row) is stopped on that side: a wall or a closed border."""
        return _edge(col, row, side) in self.closed

    def find(self, symbol: str) -> list[tuple[int, int]]:
        """Every (col, row) holding `symbol`, in reading order (row by row)."""
        return [(c, r) for r, line in enumerate(self.cells) for c, s in enumerate(line) if s == symbol]

    def wall_segments(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """Every blocked edge as a unit grid line ((x0, y0), (x1, y1)) in cell units, y down,
        sorted: what a template draws, with no need to know the wall notation."""
        return sorted(_segment(*edge) for edge in self.closed)


def _edge(col: int, row: int, side: str) -> tuple[int, int, str]:
    """One name per edge: a W side is the E side of the cell to its left and an N side the S
    side of the cell above, except on the outer border, where there is no such cell."""
    if side == "W" and col > 0:
        return (col - 1, row, "E")
    if side == "N" and row > 0:
        return (col, row - 1, "S")
    return (col, row, side)


def _segment(col, row, side):
    x0, y0 = col + (side == "E"), row + (side == "S")
    return ((x0, y0), (x0, y0 + 1)) if side in "EW" else ((x0, y0), (x0 + 1, y0))


def parse(cells, walls=(), border=(), openings=None, size=None, symbols=None) -> GridMap:
    """Read a map, or raise GridError naming the first problem. `size` = (cols, rows) is
    enforced when given; `symbols` lists the allowed symbol characters (the empty `.` and the
    opening symbols are always allowed)."""
    openings = dict(openings or {})
    _check_sides(border, "border")
    _check_openings(openings)
    grid = _rows(cells, size)
    if symbols is not None:
        _check_symbols(grid, set(symbols) | {EMPTY} | set(openings))
    closed = _border(grid, border, openings)
    exits = {_edge(c, r, side) for symbol, side in openings.items() for c, r in _find(grid, symbol)}
    closed |= _walls(walls, len(grid[0]), len(grid), exits)
    return GridMap(len(grid[0]), len(grid), grid, frozenset(closed))


def _rows(cells, size) -> tuple[tuple[str, ...], ...]:
    """The cells as a rectangle of one-character symbols."""
    if isinstance(cells, str) or not isinstance(cells, (list, tuple)):
        raise GridError("the map should be a list of row strings, top row first, e.g. [\". K . .\", ...]")
    if not cells:
        raise GridError("the map has no rows")
    want_cols, want_rows = size if size else (None, None)
    if want_rows is not None and len(cells) != want_rows:
        raise GridError(f"the map has {len(cells)} rows; it needs {want_rows}")
    out = []
    for r, line in enumerate(cells, 1):
        if not isinstance(line, str):
            raise GridError(f"row {r} is {line!r}; write each row as one string of cells separated by spaces")
        row = tuple(line.split())
        for c, cell in enumerate(row):
            if len(cell) != 1:
                raise GridError(f"row {r}, cell {c + 1} is {cell!r}: a cell is one symbol character "
                                f"('.' when empty); separate cells with spaces")
        want = want_cols if want_cols is not None else len(out[0]) if out else None
        if want is not None and len(row) != want:
            raise GridError(f"row {r} has {len(row)} cells; every row needs {want}")
        if not row:
            raise GridError(f"row {r} is empty; write its cells, '.' for an empty space")
        if len(row) > MAX_COLS:
            raise GridError(f"row {r} has {len(row)} cells; a map has at most {MAX_COLS} columns (A-Z)")
        out.append(row)
    return tuple(out)


def _find(grid, symbol):
    return [(c, r) for r, line in enumerate(grid) for c, s in enumerate(line) if s == symbol]


def _check_sides(sides, what):
    for side in sides:
        if side not in SIDES:
            raise GridError(f"{what}: {side!r} is not a side; use N, E, S or W")


def _check_openings(openings):
    for symbol, side in openings.items():
        if not isinstance(symbol, str) or len(symbol) != 1 or symbol == EMPTY:
            raise GridError(f"openings: {symbol!r} should be one symbol character (not '.')")
        _check_sides([side], f"openings: {symbol!r}")


def _check_symbols(grid, allowed):
    for r, line in enumerate(grid):
        for c, s in enumerate(line):
            if s not in allowed:
                raise GridError(f"cell {cell_name(c, r)} holds {s!r}, which is not a map symbol; "
                                f"use one of: {' '.join(sorted(allowed))}")


def _border(grid, border, openings) -> set:
    """The closed border segments: every segment of a closed side, except where a cell on
    that side holds an opening symbol for it. An opening symbol off its side is an error,
    since the exit arrow would point into the map."""
    cols, rows = len(grid[0]), len(grid)
    on_side = {"N": lambda c, r: r == 0, "S": lambda c, r: r == rows - 1,
               "W": lambda c, r: c == 0, "E": lambda c, r: c == cols - 1}
    open_ = set()
    for symbol, side in openings.items():
        for c, r in _find(grid, symbol):
            if not on_side[side](c, r):
                where = {"N": "row 1", "S": f"row {rows}", "W": "column A",
                         "E": f"column {chr(ord('A') + cols - 1)}"}[side]
                raise GridError(f"cell {cell_name(c, r)} holds {symbol!r}, an opening through the {side} edge, "
                                f"but is not on that edge; put it in {where}")
            open_.add((c, r, side))
    closed = set()
    for side in dict.fromkeys(border):
        for r in range(rows):
            for c in range(cols):
                if on_side[side](c, r) and (c, r, side) not in open_:
                    closed.add(_edge(c, r, side))
    return closed


_WALL = re.compile(r"([A-Za-z])(\d+)")


def _walls(walls, cols, rows, exits) -> set:
    """The walls, normalised; a wall given twice (even from both sides) is an error, as it is
    usually a typo for another wall, and so is a wall across an exit."""
    if isinstance(walls, str) or not isinstance(walls, (list, tuple)):
        raise GridError("walls should be a list of '<cell>:<side>' strings, e.g. [\"C3:E\"]")
    seen = {}
    for text in walls:
        edge = _wall(text, cols, rows)
        if edge in seen:
            same = "" if seen[edge] == text else " (the same wall seen from the other side)"
            raise GridError(f"wall {text!r} repeats {seen[edge]!r}{same}; list each wall once")
        if edge in exits:
            raise GridError(f"wall {text!r} closes an exit; remove the wall or the exit symbol")
        seen[edge] = text
    return set(seen)


def _wall(text, cols, rows) -> tuple[int, int, str]:
    if not isinstance(text, str) or text.count(":") != 1:
        raise GridError(f"wall {text!r} should be written '<cell>:<side>', e.g. 'C3:E'")
    name, side = (part.strip() for part in text.split(":"))
    match = _WALL.fullmatch(name)
    if not match:
        raise GridError(f"wall {text!r}: {name!r} is not a cell name; write a column letter and a "
                        f"row number, e.g. 'C3'")
    col, row = ord(match[1].upper()) - ord("A"), int(match[2]) - 1
    if col >= cols:
        raise GridError(f"wall {text!r}: there is no column {match[1].upper()}; the map has columns "
                        f"A-{chr(ord('A') + cols - 1)}")
    if not 0 <= row < rows:
        raise GridError(f"wall {text!r}: there is no row {row + 1}; the map has rows 1-{rows}")
    if side.upper() not in SIDES:
        raise GridError(f"wall {text!r}: the side must be N, E, S or W")
    return _edge(col, row, side.upper())


def reachable(grid: GridMap, starts) -> set[tuple[int, int]]:
    """Every space a token can get to from `starts` by orthogonal steps that cross no wall:
    the question behind "can the boat get to every treasure and exit"."""
    seen = {tuple(s) for s in starts}
    todo = deque(seen)
    while todo:
        col, row = todo.popleft()
        for side, (dc, dr) in SIDES.items():
            nxt = (col + dc, row + dr)
            if (0 <= nxt[0] < grid.cols and 0 <= nxt[1] < grid.rows and nxt not in seen
                    and not grid.blocked(col, row, side)):
                seen.add(nxt)
                todo.append(nxt)
    return seen


def open_edge(grid: GridMap, side: str) -> list[int]:
    """The rows (side W or E) or columns (N or S) whose border segment on that side is open:
    where a neighbouring map card joins, or where a token can leave the map."""
    _check_sides([side], "side")
    if side in "WE":
        col = 0 if side == "W" else grid.cols - 1
        return [r for r in range(grid.rows) if not grid.blocked(col, r, side)]
    row = 0 if side == "N" else grid.rows - 1
    return [c for c in range(grid.cols) if not grid.blocked(c, row, side)]
