"""`grid`: a card field holding a square-grid map (rows of one-character symbols, plus a wall
list) must read as a valid map and meet the game's map rules: how many of each feature,
where a feature may go, which spaces must be reachable from the west edge, which rows must
stay open at both side edges so that any two map cards join. Cards whose map field is empty
are skipped, so `where:` (or simply the field) picks the cards. The notation is in
pnpgen/maps/gridmap.py."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...maps import gridmap
from ...sources.validation import Schema
from ...errors import did_you_mean
from .base import Finding, Range, RuleCard, outside

ORDER = 110
"""Where `grid` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """A field holding a square-grid map that must parse and meet map rules (features, reachability)."""
"""What the rule's `grid:` key holds, as the reference says it."""

Side = Literal["N", "E", "S", "W"]


class Spec(Schema):
    """A map held in a card field, and the rules it must meet."""

    field: str
    """The field holding the map's rows (a list of strings, top row first)."""
    walls: str | None = None
    """The field holding the map's walls, e.g. ["C3:E", "B2:S"]."""
    size: list[int] | None = Field(None, min_length=2, max_length=2)
    """The map's size as [cols, rows]; any other size is reported."""
    symbols: str | list[str] | None = None
    """The symbol characters a space may hold ('.' for empty is always allowed)."""
    border: list[Side] = []
    """The sides of the outer edge that are closed unless an opening says otherwise."""
    openings: dict[str, Side] = {}
    """Symbol -> side: a border space holding the symbol is open on that side (an exit)."""
    features: dict[str, int | Range] = {}
    """Per map: symbol (or several joined by +, e.g. K+R) -> exact count or {min:, max:}."""
    columns: dict[str, list[str]] = {}
    """Symbol (or several joined by +) -> the column letters where it may stand."""
    rows: dict[str, list[int]] = {}
    """Symbol (or several joined by +) -> the rows (1 = top) where it may stand."""
    reachable: list[str] = []
    """Symbols whose every space must be reachable from the open spaces of the west edge."""
    open_rows: list[int] = []
    """Rows (1 = top) that must be open on both the west and the east edge."""
    reaches: str | None = None
    """A symbol (e.g. X) that every space must be able to reach, moving orthogonally, through
    no wall and no space in `avoid`."""
    avoid: list[str] = []
    """Symbols that a path to `reaches` may not cross (pits)."""
    board: str | None = None
    """Check the map in this board file's fields (boards/<name>.yaml) instead of the cards'."""


def _symbols(key: str) -> list[str]:
    return key.split("+")




def validate(ctx, spec):
    if spec.board is not None:
        fields = ctx.board(spec.board).board.fields
        for name in filter(None, (spec.field, spec.walls)):
            if name not in fields:
                raise ctx.problem(f"board '{spec.board}' has no field '{name}'{did_you_mean(name, fields)}", "grid")
    else:
        ctx.need_field(spec.field)
        if spec.walls:
            ctx.need_field(spec.walls)
    allowed = None if spec.symbols is None else set(spec.symbols) | {gridmap.EMPTY} | set(spec.openings)
    keys = [*spec.features, *spec.columns, *spec.rows, *spec.reachable]
    for key in keys:
        for symbol in _symbols(key):
            if len(symbol) != 1:
                raise ctx.problem(f"{key!r}: a map symbol is one character (join several with +)")
            if allowed is not None and symbol not in allowed:
                raise ctx.problem(f"{symbol!r} is not one of the map's symbols ({' '.join(sorted(allowed))})")
    cols, rows = spec.size or (gridmap.MAX_COLS, None)
    for key, letters in spec.columns.items():
        for letter in letters:
            if not (len(letter) == 1 and "A" <= letter <= chr(ord("A") + cols - 1)):
                raise ctx.problem(f"columns: {key}: {letter!r} is not a column letter of the map")
    for row in [r for rs in spec.rows.values() for r in rs] + spec.open_rows:
        if row < 1 or (rows is not None and row > rows):
            raise ctx.problem(f"row {row} is not a row of the map (rows run from 1 at the top)")


def evaluate(ctx, spec, group):
    if spec.board is not None:   # the board's map, reported at its fields in the board file
        board = ctx.board(spec.board)
        group = [RuleCard(board.id, board.id, 1, board.board.fields, ctx.game.rel(board.path),
                          board.doc.line(("fields", spec.field)))]
    for card in group:
        cells = card.get(spec.field)
        if cells in (None, "", []):
            continue
        walls = (card.get(spec.walls) if spec.walls else None) or []
        where = f"card {card.code} ({card.title}): {spec.field}"
        try:
            grid = gridmap.parse(cells, walls, spec.border, spec.openings, spec.size, spec.symbols)
        except gridmap.GridError as exc:
            yield Finding(f"{where}: {exc}", card, [card.code])
            continue
        for problem in _problems(ctx, spec, grid):
            yield Finding(f"{where}: {problem}", card, [card.code])


def _problems(ctx, spec, grid):
    """What is wrong with one parsed map, in words."""
    yield from _counts(ctx, spec, grid)
    yield from _places(spec, grid)
    yield from _unreachable(spec, grid)
    yield from _closed_rows(spec, grid)
    yield from _cut_off(spec, grid)


def _cut_off(spec, grid):
    """Spaces from which no path reaches the `reaches` symbol without crossing a wall or an
    `avoid` space (a Minion that could never get to the X)."""
    if spec.reaches is None:
        return
    goals = grid.find(spec.reaches)
    if not goals:
        yield f"no {spec.reaches} on the map"
        return
    blocked = {pos for s in spec.avoid for pos in grid.find(s)}
    seen, todo = set(goals), list(goals)
    steps = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    while todo:
        c, r = todo.pop()
        for side, (dc, dr) in steps.items():
            n = (c + dc, r + dr)
            if 0 <= n[0] < grid.cols and 0 <= n[1] < grid.rows and n not in seen and n not in blocked \
                    and not grid.blocked(c, r, side):
                seen.add(n)
                todo.append(n)
    lost = sorted(((c, r) for r in range(grid.rows) for c in range(grid.cols)
                   if (c, r) not in seen and (c, r) not in blocked), key=lambda p: (p[1], p[0]))
    if lost:
        yield (f"cannot reach {spec.reaches} without crossing a wall or {'/'.join(spec.avoid) or 'nothing'}: "
               + ", ".join(gridmap.cell_name(c, r) for c, r in lost))


def _counts(ctx, spec, grid):
    for key, want in spec.features.items():
        have = sum(len(grid.find(s)) for s in _symbols(key))
        expected = outside(ctx, have, want)
        if expected:
            yield f"{have} {key} space{'s' if have != 1 else ''}, {expected}"


def _places(spec, grid):
    for key, letters in spec.columns.items():
        for col, row in _spaces(grid, key):
            name = gridmap.cell_name(col, row)
            if name[0] not in letters:
                yield f"{grid.symbol(col, row)} in {name} should be in column {'/'.join(letters)}"
    for key, allowed in spec.rows.items():
        for col, row in _spaces(grid, key):
            if row + 1 not in allowed:
                yield (f"{grid.symbol(col, row)} in {gridmap.cell_name(col, row)} should be in row "
                       f"{'/'.join(map(str, allowed))}")


def _spaces(grid, key):
    return sorted((pos for s in _symbols(key) for pos in grid.find(s)), key=lambda p: (p[1], p[0]))


def _unreachable(spec, grid):
    """Spaces that matter but cannot be reached from the map's left edge, where the boat
    comes in from the previous card."""
    if not spec.reachable:
        return
    starts = [(0, r) for r in gridmap.open_edge(grid, "W")]
    seen = gridmap.reachable(grid, starts)
    lost = [pos for key in spec.reachable for pos in _spaces(grid, key) if pos not in seen]
    if lost:
        lost.sort(key=lambda p: (p[1], p[0]))
        shown = ", ".join(f"{gridmap.cell_name(c, r)} ({grid.symbol(c, r)})" for c, r in lost)
        yield f"cannot be reached from the west edge: {shown}"


def _closed_rows(spec, grid):
    for row in spec.open_rows:
        for col, side in ((0, "W"), (grid.cols - 1, "E")):
            if row <= grid.rows and grid.blocked(col, row - 1, side):
                yield (f"row {row} is closed on the {side} edge ({gridmap.cell_name(col, row - 1)}:{side}); "
                       f"rows {', '.join(map(str, spec.open_rows))} must stay open on both side edges "
                       f"so that map cards join")
