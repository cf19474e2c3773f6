"""Pack hexagons and other polygons onto sheets: pure geometry in page millimetres (origin at
the page's bottom-left, y up), no drawing.

Hexes of one outline nest: each row is shifted against the one above by the hexagon's own
lattice (half a hex for a regular one), so no paper is lost between them. Two ways to cut
(the game's `cut:`):

- gutter: every hex keeps its full bleed and its own cut line, `PACK_GAP` between the bleeds
  (small hexes go on their bounding boxes instead when that takes fewer sheets);
- shared: hexes touch edge to edge; each shared edge is one cut, drawn once, and the art of
  the two hexes meets on it (no bleed there); outer edges get the full bleed;
- auto: shared only when it prints the deck on fewer sheets, else gutter.

Any other mix of polygons, discs and boxes is shelf-packed by `impose.pack` (bounding boxes,
full bleed each), the polygons then clipped, bled and cut along their outlines. A polygon's
slot carries its clip path (outline plus bleed) and its back slot that path turned over for
the duplex flip, as the card is."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError
from .impose import PACK_GAP, SLUG_ROOM, Affine, LooseSheet, Slot, Slug, back_slot, flip_transform, pack

Point = tuple[float, float]


@dataclass(frozen=True)
class PolygonSheet(LooseSheet):
    """One sheet of packed polygons (and whatever shares the deck with them): slots, their
    backs, and the cut lines of the front page (no crop marks: a polygon's cuts do not run
    straight across the sheet; its cut line is printed). `cuts` items: ("path", points) a closed outline,
    ("lines", segments) shared cuts drawn once, or (shape, trim) a box or a disc."""

    page: tuple[float, float]
    bleed: float
    flip: str
    fronts: tuple
    backs: tuple
    cuts: tuple
    slug: Slug
    flip_t: Affine
    cut: str = "gutter"    # "shared": nested hexes touch and share their cuts

    def cuts_for(self, used: int) -> tuple:
        return self.cuts


def pack_polygons(page, sizes, shapes, outlines, bleed, margin, cut="auto", flip="long") -> list[PolygonSheet]:
    """Pack components of `sizes` (mm) whose `outlines` (template mm, y down; () for a box or a
    disc of `shapes`) are given, in deck order. Hexes that all share one outline nest in offset
    rows (with gutters, on their bounding boxes instead when that takes fewer sheets); anything
    else is shelf-packed."""
    up = [_card_frame(o, s) for o, s in zip(outlines, sizes)]
    first = up[0]
    if not (first and all(o == first for o in up) and _lattice(first) is not None):
        return _shelf(page, sizes, shapes, up, bleed, margin, flip)
    shared = _honeycomb(page, sizes[0], first, len(sizes), bleed, margin, "shared", flip) if cut != "gutter" else None
    if cut == "shared":
        return shared
    gutter = _honeycomb(page, sizes[0], first, len(sizes), bleed, margin, "gutter", flip)
    boxes = _shelf(page, sizes, shapes, up, bleed, margin, flip)
    if len(boxes) < len(gutter):     # small tiles: the gutters round nested hexes can cost more than boxes
        gutter = boxes
    return shared if shared is not None and len(shared) < len(gutter) else gutter


def _card_frame(outline, size) -> tuple:
    """Template points (y down from the top) -> card mm (y up from the bottom)."""
    return tuple((x, size[1] - y) for x, y in outline)


ROWS = ((1, 0), (0, 1))
"""The frame hexes are nested in when a step of their lattice runs along x: as they are."""
COLUMNS = ((0, -1), (-1, 0))
"""The frame for a lattice with a step along y (flat-topped hexes): (x, y) -> (-y, -x), its
own inverse, so columns are nested as rows, filled left to right and each from the top."""


def _lattice(hexagon) -> tuple | None:
    """The frame (ROWS or COLUMNS) in which a hexagon nests row by row, or None when it is no
    centrally symmetric hexagon with a lattice step along x or y."""
    if len(hexagon) != 6:
        return None
    centre = [(hexagon[i][0] + hexagon[i + 3][0], hexagon[i][1] + hexagon[i + 3][1]) for i in range(3)]
    if any(abs(c[0] - centre[0][0]) > 1e-6 or abs(c[1] - centre[0][1]) > 1e-6 for c in centre):
        return None
    steps = _steps(hexagon)
    if any(abs(ty) < 1e-6 for _, ty in steps):
        return ROWS
    if any(abs(tx) < 1e-6 for tx, _ in steps):
        return COLUMNS
    return None


def _steps(hexagon) -> list[Point]:
    """The translations that carry a centrally symmetric hexagon onto its neighbour across
    each of three edges: p[i+1] - p[i+3]."""
    return [(hexagon[(i + 1) % 6][0] - hexagon[(i + 3) % 6][0], hexagon[(i + 1) % 6][1] - hexagon[(i + 3) % 6][1])
            for i in range(3)]


def _reflect(m, x, y) -> Point:
    """(x, y) in the frame `m` (ROWS or COLUMNS), and back again."""
    (a, c), (b, d) = m
    return (a * x + c * y, b * x + d * y)


def offset_convex(points, d: float) -> tuple:
    """A convex polygon grown by `d` mm on every edge, corners mitred (edges stay parallel)."""
    n = len(points)
    area = sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n))
    pts = list(points) if area > 0 else list(reversed(points))
    lines = []
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = (y1 - y0) / length, -(x1 - x0) / length      # outward for counter-clockwise corners
        lines.append(((x0 + nx * d, y0 + ny * d), (x1 - x0, y1 - y0)))
    out = []
    for i in range(n):
        (px, py), (ux, uy) = lines[i - 1]
        (qx, qy), (vx, vy) = lines[i]
        t = ((qx - px) * vy - (qy - py) * vx) / (ux * vy - uy * vx)
        out.append((px + t * ux, py + t * uy))
    return tuple(out)


def _positions(page, footprint, margin, pad) -> list[Point]:
    """Where the card origins go on one sheet: footprint hexagons (card mm) nested row by row
    inside the page less its margins, the slug's room and `pad`, the block centred."""
    W, H = page
    m = _lattice(footprint)
    region = [_reflect(m, x, y) for x, y in ((margin + pad, margin + pad),
                                              (W - margin - pad, H - margin - SLUG_ROOM - 1.0 - pad))]
    x0, x1 = sorted(p[0] for p in region)
    y0, y1 = sorted(p[1] for p in region)
    shape = [_reflect(m, x, y) for x, y in footprint]
    steps = [_reflect(m, x, y) for x, y in _steps(footprint)]
    a = next(abs(tx) for tx, ty in steps if abs(ty) < 1e-6)
    vx, vy = next((tx, ty) if ty < 0 else (-tx, -ty) for tx, ty in steps if abs(ty) >= 1e-6)
    fx0, fx1 = min(p[0] for p in shape), max(p[0] for p in shape)
    fy0, fy1 = min(p[1] for p in shape), max(p[1] for p in shape)
    out, r = [], 0
    while y1 - fy1 + r * vy + fy0 >= y0 - 1e-9:
        ox = x0 - fx0 + (r * vx) % a
        while ox + fx1 <= x1 + 1e-9:
            out.append((ox, y1 - fy1 + r * vy))
            ox += a
        r += 1
    if not out:
        return []
    dx = (x0 + x1 - min(p[0] for p in out) - fx0 - max(p[0] for p in out) - fx1) / 2
    dy = (y0 + y1 - min(p[1] for p in out) - fy0 - max(p[1] for p in out) - fy1) / 2
    return [tuple(round(v, 9) for v in _reflect(m, px + dx, py + dy)) for px, py in out]


def _honeycomb(page, size, outline, count, bleed, margin, mode, flip) -> list[PolygonSheet]:
    """`count` copies of one hexagon nested on as many sheets as they need."""
    W, H = page
    gutter = mode != "shared"
    footprint = offset_convex(outline, bleed + PACK_GAP / 2) if gutter else outline
    spots = _positions(page, footprint, margin, 0.0 if gutter else bleed)
    if not spots:
        raise InputError.at("(settings)", None, f"a {size[0]:g} x {size[1]:g} mm hexagon does not fit on a "
                            f"{W:g} x {H:g} mm page with its bleed; choose larger paper or smaller tiles")
    flip_t = flip_transform(page, flip)
    sheets = []
    for start in range(0, count, len(spots)):
        placed = [tuple((x + tx, y + ty) for x, y in outline) for tx, ty in spots[:count - start]]
        fronts = []
        reach = math.hypot(*size) + 2 * bleed     # farther apart than this, two hexes cannot touch
        for k, (tx, ty) in enumerate(spots[:count - start]):
            others = [] if gutter else [p for j, (p, (ux, uy)) in enumerate(zip(placed, spots))
                                        if j != k and math.hypot(ux - tx, uy - ty) < reach]
            fronts.append(_polygon_slot((tx, ty, size[0], size[1]), placed[k], bleed, others))
        cuts = (tuple(("path", p) for p in placed) if gutter else (("lines", shared_edges(placed)),))
        sheets.append(PolygonSheet(page, bleed, flip, tuple(fronts),
                                   tuple(back_slot(s, size[0], flip_t) for s in fronts), cuts,
                                   _slug(page, margin), flip_t, "gutter" if gutter else "shared"))
    return sheets


def _polygon_slot(trim, outline, bleed, neighbours=()) -> Slot:
    """A polygon's slot: its box, and its clip path (`bled_outline`)."""
    x, y, w, h = trim
    path = bled_outline(outline, bleed, (x - bleed, y - bleed, x + w + bleed, y + h + bleed), neighbours)
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    clip = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    return Slot(tuple(trim), clip, (1, 0, 0, 1, x, y), path)


def bled_outline(outline, bleed, bounds, neighbours=()) -> tuple:
    """The outline grown by the bleed (corners mitred), kept inside `bounds` (x0, y0, x1, y1:
    the box and bleed that the art fills), less the outlines of `neighbours` it reaches."""
    import shapely    # here, as in shared_edges: only a deck of polygons pays for importing it
    from shapely.geometry import Polygon, box
    area = Polygon(outline).buffer(bleed, join_style="mitre").intersection(box(*bounds))
    for other in (Polygon(p) for p in neighbours):
        if other.distance(area) < 1e-6:
            area = area.difference(other)
    area = shapely.set_precision(area, 1e-6)    # no slivers where neighbours' edges meet
    if area.geom_type != "Polygon":
        area = max(area.geoms, key=lambda g: g.area)
    return tuple((round(px, 6), round(py, 6)) for px, py in area.exterior.coords[:-1])


def shared_edges(outlines) -> tuple:
    """Every edge of the outlines once: an edge two touching polygons share is one cut, drawn
    with the first of them (its middle lies on that polygon's outline)."""
    from shapely.geometry import Point, Polygon
    out, earlier = [], []
    for pts in outlines:
        for i, a in enumerate(pts):
            b = pts[(i + 1) % len(pts)]
            middle = Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            if not any(x0 - 1e-6 <= middle.x <= x1 + 1e-6 and y0 - 1e-6 <= middle.y <= y1 + 1e-6
                       and p.distance(middle) < 1e-6 for p, (x0, y0, x1, y1) in earlier):
                out.append((a, b))
        polygon = Polygon(pts)
        earlier.append((polygon, polygon.bounds))
    return tuple(out)


def _slug(page, margin) -> Slug:
    W, H = page
    return Slug(W / 2, H - margin - 2.0, 0, W - 2 * margin, SLUG_ROOM)


def _shelf(page, sizes, shapes, outlines, bleed, margin, flip) -> list[PolygonSheet]:
    """A mix of shapes: each on its bounding box by `impose.pack`, each polygon then clipped
    and cut along its outline."""
    out, n = [], 0
    for sheet in pack(page, sizes, shapes, bleed, margin, flip):
        fronts, cuts = [], []
        for slot, shape in zip(sheet.fronts, sheet.shapes):
            outline = outlines[n]
            n += 1
            if not outline:
                fronts.append(slot)
                cuts.append((shape, slot.trim))
                continue
            x, y = slot.trim[0], slot.trim[1]
            placed = tuple((px + x, py + y) for px, py in outline)
            fronts.append(_polygon_slot(slot.trim, placed, bleed))
            cuts.append(("path", placed))
        backs = tuple(back_slot(s, s.trim[2], sheet.flip_t) for s in fronts)
        out.append(PolygonSheet(sheet.page, bleed, flip, tuple(fronts), backs, tuple(cuts), sheet.slug,
                                sheet.flip_t))
    return out
