"""Hex-grid boards: reading a fixed map, drawing a random one from a seed, the geometry a
renderer needs, and the checks that make a map playable (Swarm, docs/seed-components.md §4).

A map is written in YAML as one string per row, top row first, one terrain code per hex,
separated by spaces:

    map: ["1 2 5 0 6",
          "3 4 7 8 9"]

A hex that is not on the board is written `-`: it is no one's neighbour, holds no terrain,
is not drawn and is never counted. Two board outlines (`shape`) come with the generator:

- `rect`: every hex of the cols x rows grid;
- `hexagon`: a big hexagon of hexes in that same offset grid: every hex within R steps of the
  centre hex (column (cols - 1) // 2, row (rows - 1) // 2), R = (min(cols, rows) - 1) // 2,
  so a 9 x 9 grid holds a hexagon of 61 hexes (R = 4); the other hexes are `-`.

A map read from rows with `-` in them is a hexagon when its hexes are exactly those, and
otherwise a board of any outline (see `start_hexes` for where its players start).

Two layouts, as in Red Blob Games' "Hexagonal Grids" (docs/print-reference.md §4):

- `flat`: flat-topped hexes in straight columns, every odd column shoved down half a hex
  ("odd-q"; mkhexgrid's vertical grain);
- `pointy`: pointy-topped hexes in straight rows, every odd row shoved right half a hex
  ("odd-r").

Hexes are named by offset coordinates (col, row), 0-based, row 0 at the top; printed labels
are wargame style, "0304" = column 03, row 04, counted from 1. Distances are counted in hex
steps through cube coordinates. Geometry is in millimetres with y pointing DOWN and the
board's bounding box starting at (0, 0); `across` is a hex's flat-to-flat width.

How a random board is drawn (`generate`), in the order it happens:

1. The players' start hexes are the board's corners, as far apart as the board allows:
   on a rectangle 2 players take the two opposite corners that lie farthest apart, a 3rd
   player the corner farthest from both, a 4th the last corner; on a hexagon the players take
   its six corner hexes (R steps from the centre along the six DIRECTIONS), 2 players two
   opposite corners, 3 every other corner, 4 two opposite pairs. Any further player takes the
   hex farthest from everyone placed so far. Every start hex is a Den.
2. Every other hex on the board, in reading order, gets a terrain drawn at random with the given weights.
   A draw that breaks one of the rules below is thrown away and drawn again from the
   terrains left, so the mix follows the weights except where a rule forbids a terrain:
   - no Water next to a start Den: a player must be able to leave home;
   - no Water that would cut the land in two: every hex that is not Water can be reached
     from every other without crossing Water;
   - no cluster (hexes of one terrain touching each other) bigger than its limit: 3 for
     Water, Mud (7) and Sand (0), 5 for any other terrain, unless `max_cluster` says
     otherwise.
3. When no terrain at all fits a hex, the whole board is drawn again (a bounded number of
   times); when none of the tries works, the rules cannot be met with these weights and
   limits, and generate says so.

The same arguments give the same board on every machine and every Python version: every
draw comes from `random.Random(seed).random()`, the one call whose sequence Python promises
to keep, and codes are always taken in sorted order, never in set or dict order. Pure
Python, so the rules check, the tools and the renderer share it."""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate, combinations

TERRAIN = {"1": "Dirt", "2": "Grass", "3": "Mound", "4": "Rocks", "5": "Water",
           "6": "Den", "7": "Mud", "8": "Slope", "9": "Roots", "0": "Sand"}
"""Swarm's ten terrains by code (1-9 and 0, a d10 roll): the codes a map may use unless a
caller names its own."""
UNIFORM = {code: 1.0 for code in sorted(TERRAIN)}
"""Every Swarm terrain equally likely: the seed's 'randomly distribute' (rule SW-11)."""
TOPS = ("flat", "pointy")
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Axial (dq, dr) steps to the six neighbours, clockwise on the page (y down): from the top
edge for flat-topped hexes (N, NE, SE, S, SW, NW), from the upper-left edge for pointy ones
(NW, NE, E, SE, SW, W). Neighbour i lies across the edge from corner i to corner i + 1."""
SHAPES = ("rect", "hexagon")
ABSENT = "-"
"""How a hex that is not on the board is written in a map's rows."""
MAX_SIZE = 99  # two digits each for column and row in a label
SMALL_CLUSTERS = ("7", "0")  # Mud and Sand: like Water, at most 3 together by default
CLUSTER_LIMIT = 3
OTHER_CLUSTER_LIMIT = 5
TRIES = 50  # whole-board redraws before generate gives up
SHOWN = 8   # hexes named in one message before "and n more"


class HexError(ValueError):
    """A map or a request that cannot be used; the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class HexMap:
    """A board in a grid of `cols` x `rows` hexes. `cells[row][col]` is the terrain code of each
    hex, ABSENT ("-") for a hex that is not on the board."""

    cols: int
    rows: int
    top: str
    cells: tuple[tuple[str, ...], ...]

    def __post_init__(self):
        _check_top(self.top)
        if len(self.cells) != self.rows or any(len(line) != self.cols for line in self.cells):
            raise HexError(f"cells should be {self.rows} rows of {self.cols} codes")

    def terrain(self, col: int, row: int) -> str:
        """The terrain code of a hex, e.g. "5"."""
        if not self.on_board(col, row):
            where = (f"not on the board (it is written {ABSENT!r})" if self.in_grid(col, row) else
                     f"off the board: columns 0-{self.cols - 1}, rows 0-{self.rows - 1}")
            raise HexError(f"hex ({col}, {row}) is {where}")
        return self.cells[row][col]

    def in_grid(self, col: int, row: int) -> bool:
        """Whether (col, row) lies in the cols x rows grid, on the board or not."""
        return 0 <= col < self.cols and 0 <= row < self.rows

    def on_board(self, col: int, row: int) -> bool:
        """Whether (col, row) is a hex of the board: in the grid and not ABSENT."""
        return self.in_grid(col, row) and self.cells[row][col] != ABSENT

    def hexes(self) -> list[tuple[int, int]]:
        """Every hex on the board, in reading order (row by row)."""
        return list(self._on_board)

    @cached_property
    def _on_board(self) -> tuple[tuple[int, int], ...]:
        return tuple((c, r) for r, line in enumerate(self.cells) for c, x in enumerate(line) if x != ABSENT)

    @cached_property
    def _near(self) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
        """Each hex's neighbours on the board, worked out once: the map checks ask for them
        a hundred thousand times on a large board."""
        rings = _grid_rings(self.top, self.cols, self.rows)
        if len(self._on_board) == self.cols * self.rows:
            return rings
        return {h: tuple(n for n in rings[h] if self.cells[n[1]][n[0]] != ABSENT) for h in self._on_board}

    @cached_property
    def shape(self) -> str | None:
        """"rect" when every hex of the grid is on the board, "hexagon" when exactly the hexes
        of board_hexes(..., "hexagon") are, otherwise None (a board of its own outline)."""
        hexes = self.hexes()
        if len(hexes) == self.cols * self.rows:
            return "rect"
        return "hexagon" if hexes == board_hexes(self.cols, self.rows, self.top, "hexagon") else None

    def find(self, code: str) -> list[tuple[int, int]]:
        """Every (col, row) on the board holding `code`, in reading order (row by row)."""
        return list(self._by_code.get(code, ()))

    @cached_property
    def _by_code(self) -> dict[str, tuple[tuple[int, int], ...]]:
        found: dict[str, list[tuple[int, int]]] = {}
        for col, row in self._on_board:
            found.setdefault(self.cells[row][col], []).append((col, row))
        return {code: tuple(hexes) for code, hexes in found.items()}

    def neighbours(self, col: int, row: int) -> list[tuple[int, int]]:
        """The hexes that share an edge with (col, row) and are on the board, clockwise in the
        order of DIRECTIONS: 6 inside, fewer on the edges and in the corners."""
        near = self._near.get((col, row))
        return list(near) if near is not None else [h for h in _ring(self.top, col, row) if self.on_board(*h)]

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Hex steps from a to b, whatever lies between (the largest cube-coordinate difference)."""
        return _distance(self.top, a, b)

    def centre(self, col: int, row: int, across: float) -> tuple[float, float]:
        """The centre of a hex in mm (y down) for hexes `across` mm flat to flat, placed so that
        the whole board's bounding box starts at (0, 0)."""
        return _centre(self.top, col, row, across)

    def corners(self, col: int, row: int, across: float) -> list[tuple[float, float]]:
        """The six corners of a hex in mm, clockwise on the page starting from the corner that
        lies farthest towards the top left: the left end of the top edge (flat), the upper-left
        corner (pointy). Corners i and i + 1 end the edge shared with neighbour i of DIRECTIONS,
        which is what a renderer drawing each shared edge once needs."""
        x, y = self.centre(col, row, across)
        flat, size = _dims(across)
        f, s = flat / 2, size / 2
        if self.top == "flat":
            offsets = ((-s, -f), (s, -f), (size, 0.0), (s, f), (-s, f), (-size, 0.0))
        else:
            offsets = ((-f, -s), (0.0, -size), (f, -s), (f, s), (0.0, size), (-f, s))
        return [(x + dx, y + dy) for dx, dy in offsets]

    def extent(self, across: float) -> tuple[float, float]:
        """The grid's bounding box (w, h) in mm, hexes on the board or not (so a hexagon board
        keeps the places of a rectangle's hexes). The shoved half hex counts only when there is
        a second column (flat) or row (pointy) to shove."""
        flat, size = _dims(across)
        if self.top == "flat":
            return size * (1.5 * self.cols + 0.5), flat * self.rows + (flat / 2 if self.cols > 1 else 0.0)
        return flat * self.cols + (flat / 2 if self.rows > 1 else 0.0), size * (1.5 * self.rows + 0.5)

    def label(self, col: int, row: int) -> str:
        """The printed name of a hex, wargame style: "0304" = column 3, row 4, counted from 1."""
        return f"{col + 1:02d}{row + 1:02d}"

    def rows_text(self) -> list[str]:
        """The map in its YAML notation, one string per row: what `parse` reads back."""
        return [" ".join(line) for line in self.cells]


# --- coordinates --------------------------------------------------------------------------------

def _check_top(top):
    if top not in TOPS:
        raise HexError(f"top is {top!r}; use 'flat' (straight columns) or 'pointy' (straight rows)")


def _axial(top, col, row) -> tuple[int, int]:
    """Offset (col, row) to axial (q, r): odd-q for flat tops, odd-r for pointy ones."""
    if top == "flat":
        return col, row - (col - (col & 1)) // 2
    return col - (row - (row & 1)) // 2, row


def _offset(top, q, r) -> tuple[int, int]:
    if top == "flat":
        return q, r + (q - (q & 1)) // 2
    return q + (r - (r & 1)) // 2, r


def _distance(top, a, b) -> int:
    (q1, r1), (q2, r2) = _axial(top, *a), _axial(top, *b)
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def _check_shape(shape):
    if shape not in SHAPES:
        raise HexError(f"shape is {shape!r}; use 'rect' (every hex of the grid) or 'hexagon' "
                       f"(a big hexagon of hexes)")


def _centre_hex(cols, rows) -> tuple[tuple[int, int], int]:
    """The centre hex of a hexagon board in a cols x rows grid, and its radius R."""
    return ((cols - 1) // 2, (rows - 1) // 2), (min(cols, rows) - 1) // 2


def board_hexes(cols: int, rows: int, top: str, shape: str = "rect") -> list[tuple[int, int]]:
    """The hexes on a board of this outline, in reading order (row by row): the whole grid for
    "rect", every hex within R steps of the centre hex for "hexagon" (see the module docstring)."""
    _check_top(top)
    _check_shape(shape)
    return list(_outline(cols, rows, top, shape))


@lru_cache(maxsize=16)
def _outline(cols, rows, top, shape) -> tuple[tuple[int, int], ...]:
    everywhere = [(c, r) for r in range(rows) for c in range(cols)]
    if shape == "rect":
        return tuple(everywhere)
    centre, radius = _centre_hex(cols, rows)
    return tuple(h for h in everywhere if _distance(top, centre, h) <= radius)


def _hexagon_corners(cols, rows, top) -> list[tuple[int, int]]:
    """The six corner hexes of a hexagon board, in DIRECTIONS order (fewer when R is 0)."""
    centre, radius = _centre_hex(cols, rows)
    q, r = _axial(top, *centre)
    return list(dict.fromkeys(_offset(top, q + radius * dq, r + radius * dr) for dq, dr in DIRECTIONS))


def _centre(top, col, row, across) -> tuple[float, float]:
    flat, size = _dims(across)
    if top == "flat":
        return size * (1 + 1.5 * col), flat * (row + 0.5 + 0.5 * (col & 1))
    return flat * (col + 0.5 + 0.5 * (row & 1)), size * (1 + 1.5 * row)


def _ring(top, col, row) -> list[tuple[int, int]]:
    """The six neighbour positions in DIRECTIONS order, on the board or not."""
    q, r = _axial(top, col, row)
    return [_offset(top, q + dq, r + dr) for dq, dr in DIRECTIONS]


@lru_cache(maxsize=16)
def _grid_rings(top, cols, rows) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """Each hex's neighbours in a whole cols x rows grid, in DIRECTIONS order (shared: read only)."""
    return {(c, r): tuple((x, y) for x, y in _ring(top, c, r) if 0 <= x < cols and 0 <= y < rows)
            for r in range(rows) for c in range(cols)}


def _dims(across) -> tuple[float, float]:
    """(flat-to-flat width, side length) for a hex `across` mm wide across the flats."""
    if not isinstance(across, (int, float)) or isinstance(across, bool) or not across > 0:
        raise HexError(f"across is {across!r}; give the hexes' flat-to-flat width in mm, e.g. 32")
    return float(across), across / math.sqrt(3)


# --- reading a map -------------------------------------------------------------------------------

def parse(rows: list[str], top: str = "flat", codes: set[str] | None = None) -> HexMap:
    """Read a map written as row strings, or raise HexError naming the first problem. `codes`
    are the terrain codes allowed (default: Swarm's 1-9 and 0)."""
    _check_top(top)
    allowed = set(TERRAIN) if codes is None else {str(c) for c in codes}
    if isinstance(rows, str) or not isinstance(rows, (list, tuple)):
        raise HexError('the map should be a list of row strings, top row first, e.g. ["1 2 5", "6 0 3"]')
    if not rows:
        raise HexError("the map has no rows")
    if len(rows) > MAX_SIZE:
        raise HexError(f"the map has {len(rows)} rows; a board has at most {MAX_SIZE}")
    cells = []
    for r, line in enumerate(rows, 1):
        if not isinstance(line, str):
            raise HexError(f"row {r} is {line!r}; write each row as one quoted string of codes "
                           f'separated by spaces, e.g. "1 2 5"')
        hexes = tuple(line.split())
        if not hexes:
            raise HexError(f"row {r} is empty; write one terrain code per hex, separated by spaces")
        if cells and len(hexes) != len(cells[0]):
            raise HexError(f"row {r} has {len(hexes)} hexes; every row needs {len(cells[0])}, "
                           f"as many as row 1")
        if len(hexes) > MAX_SIZE:
            raise HexError(f"row {r} has {len(hexes)} hexes; a board has at most {MAX_SIZE} columns")
        for c, code in enumerate(hexes):
            if code not in allowed and code != ABSENT:
                raise HexError(f"hex {c + 1:02d}{r:02d} (row {r}, hex {c + 1}) holds {code!r}, which is "
                               f"not a terrain code; use one of: {' '.join(sorted(allowed))} "
                               f"(or {ABSENT} for a hex not on the board)")
        cells.append(hexes)
    if all(code == ABSENT for line in cells for code in line):
        raise HexError(f"every hex is {ABSENT}; a board needs at least one hex with a terrain code")
    return HexMap(len(cells[0]), len(cells), top, tuple(cells))


# --- start positions ----------------------------------------------------------------------------

def start_hexes(cols: int, rows: int, top: str, players: int, shape: str = "rect") -> list[tuple[int, int]]:
    """Where the players start on an empty board, player 1 first. The seed: "opposite corners
    (or as far apart as possible)".

    On a rectangle: the two opposite corners farthest apart (top-left and bottom-right on a
    tie), then the corner farthest from those (top row first on a tie), then the last corner.
    Two corners are always the two hexes farthest apart, and on a square-ish board (10 x 10
    included) the corners are also the best spread for 3 and 4 players. On a board much longer
    one way than the other, 3 or 4 players could sit further apart off the corners (flat 12 x 10,
    3 players: 11 steps instead of 9); the seed puts players in corners, so these hexes are
    what `problems` means by "as far apart as the board allows".

    On a hexagon: the corner hexes whose closest two lie farthest apart, then those farthest
    apart in all (in steps, then on the page); the first such set in reading order on a tie.
    That is two opposite corners for 2 players, every other corner for 3 (all 2R steps apart),
    two opposite pairs for 4. Player 1 takes the first of them in reading order, each next
    player the one farthest from those before (so player 2 faces player 1).

    Beyond the corners, the hex farthest from everyone placed so far."""
    _check_top(top)
    _check_size(cols, rows)
    hexes = board_hexes(cols, rows, top, shape)
    _check_players(players, len(hexes))
    return _start_hexes(cols, rows, top, players, shape, hexes)


def _start_hexes(cols, rows, top, players, shape, hexes):
    """start_hexes for a board of `shape` ("rect", "hexagon", or None for a board of its own
    outline, whose players start on the two hexes farthest apart, then each on the hex
    farthest from everyone placed so far) holding `hexes` (in reading order)."""
    d = lambda a, b: _distance(top, a, b)  # noqa: E731
    if shape == "rect":
        tl, tr, bl, br = (0, 0), (cols - 1, 0), (0, rows - 1), (cols - 1, rows - 1)
        pair = max([(tl, br), (tr, bl)], key=lambda p: d(*p))  # max keeps the first on a tie
        chosen = list(dict.fromkeys(pair))[:players]
        corners = [h for h in dict.fromkeys((tr, bl, tl, br)) if h not in chosen]
    elif shape == "hexagon":
        corners = sorted(_hexagon_corners(cols, rows, top), key=lambda h: (h[1], h[0]))
        page = {h: _centre(top, *h, 1.0) for h in corners}

        def spread(group):
            pairs = list(combinations(group, 2))
            return (min((d(a, b) for a, b in pairs), default=0), sum(d(a, b) for a, b in pairs),
                    round(sum(math.dist(page[a], page[b]) for a, b in pairs), 6))
        group = list(max(combinations(corners, min(players, len(corners))), key=spread))
        chosen = [group.pop(0)]
        while group:  # each next player the farthest from those before: player 2 faces player 1
            best = max(group, key=lambda h: (min(d(h, s) for s in chosen),
                                             round(sum(math.dist(page[h], page[s]) for s in chosen), 6)))
            chosen.append(best)
            group.remove(best)
        corners = []
    else:
        chosen = list(dict.fromkeys(_farthest_pair(top, hexes)))[:players]
        corners = []
    while len(chosen) < players:
        pool = corners or [h for h in hexes if h not in chosen]
        best = max(pool, key=lambda h: min(d(h, s) for s in chosen))
        chosen.append(best)
        if best in corners:
            corners.remove(best)
    return chosen


def _farthest_pair(top, hexes):
    """Two of `hexes` (in reading order) farthest apart: the lowest and highest along the cube
    axis on which they spread furthest, since a distance is the largest axis difference."""
    cube = [(h, _axial(top, *h)) for h in hexes]
    best = None
    for axis in (lambda q, r: q, lambda q, r: r, lambda q, r: -q - r):
        low = min(cube, key=lambda t: axis(*t[1]))
        high = max(cube, key=lambda t: axis(*t[1]))
        span = axis(*high[1]) - axis(*low[1])
        if best is None or span > best[0]:
            best = (span, low[0], high[0])
    return best[1], best[2]


def _map_starts(hexmap, players):
    """start_hexes for a map as it is, whatever its outline."""
    hexes = hexmap.hexes()
    _check_players(players, len(hexes))
    return _start_hexes(hexmap.cols, hexmap.rows, hexmap.top, players, hexmap.shape, hexes)


def start_dens(hexmap: HexMap, players: int, den: str = "6") -> list[tuple[int, int]]:
    """The Dens the players start on, player 1 first: each player's start hex (start_hexes)
    when it is a Den, otherwise the nearest Den no one else has (top row first on a tie), so a
    hand-drawn map with a Den beside the corner still has starts, and `problems` can say how
    much closer together they are. Shorter than `players` when the map has too few Dens."""
    ideal = _map_starts(hexmap, players)
    dens = hexmap.find(den)
    starts = [h if hexmap.terrain(*h) == den else None for h in ideal]
    free = [h for h in dens if h not in starts]
    for i, want in enumerate(ideal):
        if starts[i] is None and free:
            nearest = min(free, key=lambda h: (hexmap.distance(want, h), h[1], h[0]))
            starts[i] = nearest
            free.remove(nearest)
    return [h for h in starts if h is not None]


def _closest_pair(hexmap, hexes):
    """(distance, a, b) of the two hexes closest together, the first such pair in list order."""
    return min(((hexmap.distance(a, b), a, b) for a, b in combinations(hexes, 2)), key=lambda t: t[0])


# --- what makes a map unplayable ----------------------------------------------------------------

STARTS = ("spread", "placed", "off")
"""How `problems` judges the start hexes: as far apart as the board allows (Swarm's corners),
wherever the map puts them (only enough of them), or not at all."""


@dataclass(frozen=True)
class Terrains:
    """What a board's terrains are called and which of them matter to the map rules: the start
    terrain (`den`), the impassable ones (`water`) and each code's name in messages. Without
    `names`, Swarm's: Den (6), Water (5) and the other eight of TERRAIN; with them, the game's
    own table (and Swarm's small limits for Mud and Sand no longer apply)."""

    den: str = "6"
    water: tuple[str, ...] = ("5",)
    names: tuple[tuple[str, str], ...] | None = None

    @classmethod
    def of(cls, den: str = "6", water="5", names: dict | None = None) -> "Terrains":
        waters = (water,) if isinstance(water, str) else tuple(water)
        return cls(den, waters, None if names is None else tuple(sorted(names.items())))

    def name(self, code: str) -> str:
        table = TERRAIN if self.names is None else dict(self.names)
        return table.get(code, "")

    def labelled(self, code: str) -> str:
        """A code as messages write it: "Water (5)", or 'x' for a code without a name."""
        name = self.name(code)
        return f"{name} ({code})" if name else repr(code)

    def start(self, count: int | None = None) -> str:
        """The start terrain's name ("Den"), plural when `count` is not 1."""
        word = self.name(self.den) or "Den"
        return word if count == 1 else word + "s"

    @property
    def blocked(self) -> str:
        """The impassable terrains' names, e.g. "Water" or "Deep water or Cliff"."""
        return " or ".join(self.name(w) or "Water" for w in self.water)

    @property
    def small(self) -> set[str]:
        """The codes kept to CLUSTER_LIMIT by default."""
        return set(self.water) | (set(SMALL_CLUSTERS) if self.names is None else set())


def problems(hexmap: HexMap, players: int, den: str = "6", water="5",
             max_cluster: dict[str, int] | None = None, *, names: dict[str, str] | None = None,
             starts: str = "spread", connected: bool = True, clusters: bool = True) -> list[str]:
    """Everything that keeps a map from being played, one message per problem, naming the
    hexes by label (empty when the map is fine): too few start hexes (`den`, a Den) for the
    players; with `starts` "spread", start hexes closer together than the board allows;
    with `connected`, impassable terrain (`water`: a code or a list) cutting the land in two;
    with `clusters`, a cluster of one terrain bigger than its limit (see the module
    docstring). `names` (code -> name) is the game's own terrain table, used in messages."""
    _check_players(players, len(hexmap.hexes()))
    kinds = Terrains.of(den, water, names)
    out = _start_problems(hexmap, players, kinds, starts)
    if connected:
        out += _cut_land(hexmap, kinds)
    if clusters:
        limits = _limits(max_cluster, kinds)
        for code in sorted({hexmap.terrain(*h) for h in hexmap.hexes()}):
            limit = limits(code)
            for part in _parts(hexmap, hexmap.find(code)):
                if len(part) > limit:
                    out.append(f"{len(part)} {kinds.labelled(code)} hexes touch ({_names(hexmap, part)}); "
                               f"at most {limit} may: change one to another terrain")
    return out


def _start_problems(hexmap, players, kinds: Terrains, starts: str) -> list[str]:
    """Too few start hexes; or (`starts` "spread") start hexes closer than the board allows."""
    if starts == "off":
        return []
    den, dens = kinds.den, hexmap.find(kinds.den)
    if len(dens) < players:
        have = f"{len(dens)} {kinds.start(len(dens))}" + (f" ({_names(hexmap, dens)})" if dens else "")
        return [f"the map has {have} for {players} players; every player starts on a {kinds.start(1)}, "
                f"so add {players - len(dens)} more (code {den})"]
    if starts == "spread" and players > 1:
        ideal = _map_starts(hexmap, players)
        want = _closest_pair(hexmap, ideal)[0]
        got, a, b = _closest_pair(hexmap, start_dens(hexmap, players, den))
        if got < want:
            return [f"the start {kinds.start()} {hexmap.label(*a)} and {hexmap.label(*b)} are {got} steps "
                    f"apart, but the board allows {want}: make {_names(hexmap, ideal)} {kinds.start()} "
                    f"(code {den}), one start per player"]
    return []


def _cut_land(hexmap, kinds: Terrains) -> list[str]:
    """A message for each piece of land that impassable terrain cuts off from the largest."""
    land = [h for h in hexmap.hexes() if hexmap.terrain(*h) not in kinds.water]
    parts = _parts(hexmap, land)
    main = max(parts, key=len) if parts else None  # the first of the largest, in reading order
    blocked = kinds.blocked
    return [f"{blocked.lower()} cuts the land in two: {_names(hexmap, part)} cannot be reached from "
            f"{hexmap.label(*main[0])} without crossing {blocked.lower()}; change a {blocked} hex "
            f"({' '.join(kinds.water)}) between them to land"
            for part in parts if part is not main]


def _parts(hexmap, hexes) -> list[list[tuple[int, int]]]:
    """The connected groups among `hexes`, each in reading order, groups ordered by their first hex."""
    todo, out = set(hexes), []
    for start in hexes:
        if start not in todo:
            continue
        todo.discard(start)
        part, queue = [start], deque([start])
        while queue:
            for n in hexmap.neighbours(*queue.popleft()):
                if n in todo:
                    todo.discard(n)
                    part.append(n)
                    queue.append(n)
        out.append(sorted(part, key=lambda h: (h[1], h[0])))
    return out


def _names(hexmap, hexes) -> str:
    labels = [hexmap.label(*h) for h in hexes]
    more = len(labels) - SHOWN
    return " ".join(labels[:SHOWN]) + (f" and {more} more" if more > 0 else "")


def _terrain_name(code):
    return f"{TERRAIN[code]} ({code})" if code in TERRAIN else repr(code)


def _limits(max_cluster, kinds: "Terrains"):
    """code -> the largest cluster allowed: the caller's limit, else 3 for impassable terrain
    (and Swarm's Mud and Sand: they block, stop or hurt, so big patches make dead zones), else 5."""
    given = dict(max_cluster or {})
    for code, limit in given.items():
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise HexError(f"max_cluster[{code!r}] is {limit!r}; give a whole number of hexes, 1 or more")
    small = kinds.small
    return lambda code: given.get(code, CLUSTER_LIMIT if code in small else OTHER_CLUSTER_LIMIT)


def _check_size(cols, rows):
    for name, n in (("cols", cols), ("rows", rows)):
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_SIZE:
            raise HexError(f"{name} is {n!r}; a board has 1-{MAX_SIZE} columns and rows")


def _check_players(players, hexes):
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= hexes:
        raise HexError(f"players is {players!r}; give a whole number from 1 to {hexes} (one start hex each)")


# --- drawing a random map -----------------------------------------------------------------------

def generate(cols: int, rows: int, top: str, weights: dict[str, float], seed: int, players: int = 4,
             den: str = "6", water: str = "5", max_cluster: dict[str, int] | None = None,
             shape: str = "rect") -> HexMap:
    """A random board of this outline (`shape`: "rect" or "hexagon") meeting the rules of the
    module docstring, the same for the same arguments everywhere; hexes off a hexagon are
    ABSENT. Raises HexError when the arguments are unusable or the rules cannot be met."""
    _check_top(top)
    _check_size(cols, rows)
    hexes = board_hexes(cols, rows, top, shape)
    _check_players(players, len(hexes))
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise HexError(f"seed is {seed!r}; give a whole number, 0 or more (Python's generator would "
                       f"draw the same board for -n as for n), and print it on the board")
    if not isinstance(den, str) or not isinstance(water, str) or den == water or ABSENT in (den, water):
        raise HexError(f"den {den!r} and water {water!r} should be two different terrain codes")
    codes = _weights(weights)
    limits = _limits(max_cluster, Terrains.of(den, water))
    board = _board(cols, rows, top, shape)
    starts = [board.index(*h) for h in start_hexes(cols, rows, top, players, shape)]
    rng = random.Random(seed)
    stuck = None
    for _ in range(TRIES):
        cells, stuck = _draw(board, rng, codes, starts, den, water, limits)
        if cells is not None:
            hexmap = HexMap(cols, rows, top, tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows)))
            found = problems(hexmap, players, den, water, max_cluster)
            if not found:
                return hexmap
            stuck = found[0]  # cannot happen while _draw keeps the rules; never return a bad map
    raise HexError(f"could not draw a {cols} x {rows} board that meets the map rules in {TRIES} tries "
                   f"({stuck}); give more weight to other terrains or raise max_cluster")


def _weights(weights) -> list[tuple[str, float]]:
    """The (code, weight) pairs worth drawing, in sorted code order so that the draw does not
    depend on how the dict was built."""
    if not isinstance(weights, dict) or not weights:
        raise HexError('weights should map terrain codes to how often each is drawn, e.g. {"1": 1, "5": 0.5}')
    out = []
    for code in sorted(weights, key=str):
        w = weights[code]
        if (not isinstance(code, str) or not code or code != code.strip() or len(code.split()) != 1
                or code == ABSENT):
            raise HexError(f"weights: {code!r} is not a terrain code; codes are strings without "
                           f'spaces, e.g. "5" ({ABSENT!r} marks a hex not on the board)')
        if not isinstance(w, (int, float)) or isinstance(w, bool) or not (0 <= w < math.inf):
            raise HexError(f"weights[{code!r}] is {w!r}; give a number, 0 or more")
        if w > 0:
            out.append((code, float(w)))
    if not out:
        raise HexError("weights are all 0; give at least one terrain a weight above 0")
    return out


@lru_cache(maxsize=16)
def _board(cols, rows, top, shape) -> "_Board":
    """The _Board of an outline, shared by every draw of it (it is never changed)."""
    return _Board(cols, rows, top, board_hexes(cols, rows, top, shape))


class _Board:
    """The grid as flat indices (row * cols + col) with each hex's neighbour ring, worked out
    once, since the draw asks for neighbours thousands of times. `hexes` are the hexes on the
    board (default: the whole grid); the others are never drawn and never anyone's neighbour."""

    def __init__(self, cols, rows, top, hexes=None):
        self.cols, self.size = cols, cols * rows
        self.present = [True] * self.size if hexes is None else [False] * self.size
        for h in hexes or ():
            self.present[self.index(*h)] = True
        self.ring = []      # per hex: six neighbour indices in DIRECTIONS order, None off the board
        for i in range(self.size):
            col, row = i % cols, i // cols
            self.ring.append([self.index(c, r) if 0 <= c < cols and 0 <= r < rows
                              and self.present[self.index(c, r)] else None
                              for c, r in _ring(top, col, row)])
        self.near = [[n for n in ring if n is not None] for ring in self.ring]

    def index(self, col, row):
        return row * self.cols + col


def _draw(board, rng, codes, starts, den, water, limits):
    """One try at the whole board: (cells, None), or (None, why) when some hex has no terrain
    left that fits. Hexes not drawn yet count as land, so that the land stays in one piece
    whatever they turn out to be."""
    cells = [None if on else ABSENT for on in board.present]
    for i in starts:
        cells[i] = den
    home = {n for i in starts for n in board.near[i]}
    for i in range(board.size):
        if cells[i] is not None:
            continue
        options = [(c, w) for c, w in codes if not (c == water and i in home)]
        why = [f"{_terrain_name(water)} may not touch a start Den"] if len(options) < len(codes) else []
        while options:
            code = _pick(rng, options)
            if _too_big(board, cells, i, code, limits(code)):
                why.append(f"{_terrain_name(code)} would make a cluster of more than {limits(code)}")
            elif code == water and _cuts_land(board, cells, i, water):
                why.append(f"{_terrain_name(code)} would cut the land in two")
            else:
                cells[i] = code
                break
            options = [(c, w) for c, w in options if c != code]
        else:
            col, row = i % board.cols, i // board.cols
            return None, f"no terrain fits hex {col + 1:02d}{row + 1:02d}: {'; '.join(why)}"
    return cells, None


def _pick(rng, options) -> str:
    """One code drawn with the given weights from a single rng.random() (random.choices could
    change between Python versions; random() may not)."""
    cumulative = list(accumulate(w for _, w in options))
    i = bisect_right(cumulative, rng.random() * cumulative[-1])
    return options[min(i, len(options) - 1)][0]


def _too_big(board, cells, i, code, limit) -> bool:
    """Whether putting `code` in hex i joins a cluster of that terrain bigger than `limit`. Every
    cluster already drawn is within its limit, so the search stops after limit + 1 hexes."""
    seen, stack = {i}, [i]
    while stack:
        for n in board.near[stack.pop()]:
            if n not in seen and cells[n] == code:
                seen.add(n)
                if len(seen) > limit:
                    return True
                stack.append(n)
    return False


def _cuts_land(board, cells, i, water) -> bool:
    """Whether Water in hex i would split the land (hexes not Water, or not drawn yet). It does
    not when the land around i is one unbroken arc of its ring; otherwise search whether the
    arcs still meet by another way round."""
    ring = [n is not None and cells[n] != water for n in board.ring[i]]
    arcs = sum(1 for k in range(6) if ring[k] and not ring[k - 1])
    if arcs <= 1:
        return False
    targets = {n for n, land in zip(board.ring[i], ring) if land}
    first = next(iter(sorted(targets)))
    seen, queue = {i, first}, deque([first])
    targets.discard(first)
    while queue and targets:
        for n in board.near[queue.popleft()]:
            if n not in seen and cells[n] != water:
                seen.add(n)
                targets.discard(n)
                queue.append(n)
    return bool(targets)
