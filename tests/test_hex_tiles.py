"""Hex and polygon tiles: templates of shape hex-flat, hex-pointy and polygon, packed (hexes
nested in offset rows), bled and cut along their outlines, backs registered behind them.
Pure imposition first, then the built PDF read back, then the exports."""

from __future__ import annotations

import json
import math

import pytest
from pypdf import PdfReader
from shapely.geometry import Polygon

from pnpgen import presets
from pnpgen.game.outline import outline
from pnpgen.sheets.impose import PACK_GAP, apply, pack
from pnpgen.sheets.polypack import pack_polygons

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import MM, page_geometry

LETTER = presets.papers()["letter"]
A4 = presets.papers()["a4"]
BLEED, MARGIN = 3.175, 5.0
W = 60.0                                  # a pointy hex 60 mm across its flats
H = round(2 * W / math.sqrt(3), 3)        # and 69.282 mm from corner to corner
R = W / math.sqrt(3)                      # its side and circumradius


def hexes(n, shape="hex-pointy", size=(W, H), page=LETTER, cut="gutter"):
    o = outline(shape, size)
    return pack_polygons(page, [size] * n, [shape] * n, [o] * n, BLEED, MARGIN, cut)


def flat(points) -> list[float]:
    return [v for p in points for v in p]


def same(a, b, tol=0.01) -> bool:
    """Two segments with the same ends, either way round (within `tol` mm)."""
    return (math.dist(a[0], b[0]) < tol and math.dist(a[1], b[1]) < tol) or (
        math.dist(a[0], b[1]) < tol and math.dist(a[1], b[0]) < tol)


def placed(slot, shape="hex-pointy", size=(W, H)):
    """A slot's hexagon on the page (mm, y up)."""
    return [apply(slot.transform, x, size[1] - y) for x, y in outline(shape, size)]


# --- pure imposition ----------------------------------------------------------------------------

@pytest.mark.parametrize("shape,size", [("hex-pointy", (W, H)), ("hex-flat", (H, W))])
@pytest.mark.parametrize("page", [LETTER, A4])
def test_nineteen_hexes_take_fewer_sheets_than_square_packing(shape, size, page):
    """A Catan-sized set of 19 hex tiles: nested rows beat packing their bounding boxes."""
    square = pack(page, [size] * 19, ["rect"] * 19, BLEED, MARGIN)
    for cut in ("gutter", "shared", "auto"):
        nested = hexes(19, shape, size, page, cut)
        assert sum(s.per_sheet for s in nested) == 19
        assert len(nested) < len(square), (cut, [s.per_sheet for s in nested], [s.per_sheet for s in square])


def test_pointy_hexes_nest_in_rows_offset_by_half_a_hex():
    (sheet, _) = hexes(19, cut="shared")
    rows = {}
    for slot in sheet.fronts:
        rows.setdefault(round(slot.trim[1], 6), []).append(slot.trim[0])
    ys = sorted(rows, reverse=True)
    assert len(ys) == 4 and [len(rows[y]) for y in ys] == [3, 2, 3, 2]
    for y0, y1 in zip(ys, ys[1:]):
        assert y0 - y1 == pytest.approx(0.75 * H, abs=1e-3)                # rows 3/4 of a hex apart
        assert min(rows[y1]) - min(rows[y0]) == pytest.approx(W / 2 if len(rows[y1]) == 2 else -W / 2)
    for xs in rows.values():
        assert [b - a for a, b in zip(sorted(xs), sorted(xs)[1:])] == pytest.approx([W] * (len(xs) - 1))


def test_flat_hexes_nest_in_columns_offset_by_half_a_hex():
    sheet = hexes(19, "hex-flat", (H, W), cut="shared")[0]
    cols = {}
    for slot in sheet.fronts:
        cols.setdefault(round(slot.trim[0], 6), []).append(slot.trim[1])
    xs = sorted(cols)
    for x0, x1 in zip(xs, xs[1:]):
        assert x1 - x0 == pytest.approx(0.75 * H, abs=1e-3)
        assert abs(max(cols[x1]) - max(cols[x0])) == pytest.approx(W / 2)


@pytest.mark.parametrize("cut", ["gutter", "shared"])
def test_hexes_never_overlap_and_stay_on_the_printable_page(cut):
    for sheet in hexes(19, cut=cut):
        polys = [Polygon(placed(s)) for s in sheet.fronts]
        for i, a in enumerate(polys):
            for b in polys[i + 1:]:
                assert a.intersection(b).area < 1e-6
                if cut == "gutter":      # each keeps its bleed, with a gap between the bleeds
                    assert a.distance(b) >= 2 * BLEED + PACK_GAP - 1e-6
        touching = sum(a.distance(b) < 1e-6 for i, a in enumerate(polys) for b in polys[i + 1:])
        assert (touching > 0) == (cut == "shared")
        for slot in sheet.fronts:
            for x, y in slot.path:       # everything printed stays inside the printer's margins
                assert MARGIN - 1e-6 <= x <= LETTER[0] - MARGIN + 1e-6
                assert MARGIN - 1e-6 <= y <= LETTER[1] - MARGIN + 1e-6


def test_the_bleed_follows_the_outline():
    """Gutter: the clip is the hexagon grown by the bleed all round (corners mitred, kept in
    the art's bleed box). Shared: an inner hex with six neighbours gets no bleed at all, and
    an outer one bleeds only over its outer edges."""
    (sheet, _) = hexes(19)
    for slot in sheet.fronts:
        hexagon, clip = Polygon(placed(slot)), Polygon(slot.path)
        assert clip.contains(hexagon.buffer(BLEED * 0.999))
        assert hexagon.buffer(BLEED * 1.001, join_style="mitre").contains(clip)
    (full, _) = hexes(19, cut="shared")
    polys = [Polygon(placed(s)) for s in full.fronts]
    for slot, hexagon in zip(full.fronts, polys):
        neighbours = sum(hexagon.distance(p) < 1e-6 for p in polys) - 1
        extra = Polygon(slot.path).area - hexagon.area
        assert Polygon(slot.path).contains(hexagon.buffer(-1e-3))
        if neighbours == 6:
            assert extra == pytest.approx(0, abs=1e-3)
        else:   # each outer edge (side R) carries at least a strip of bleed
            assert extra >= (6 - neighbours) * R * BLEED * 0.9


def test_shared_cuts_draw_each_edge_once():
    (sheet, _) = hexes(19, cut="shared")
    ((kind, segments),) = sheet.cuts_for(sheet.per_sheet)
    assert kind == "lines"
    assert not any(same(a, b) for i, a in enumerate(segments) for b in segments[i + 1:])   # none twice
    edges = [(p[i], p[(i + 1) % 6]) for s in sheet.fronts for p in [placed(s)] for i in range(6)]
    assert all(any(same(e, s) for s in segments) for e in edges)                            # none missing
    polys = [Polygon(placed(s)) for s in sheet.fronts]
    shared = sum(a.distance(b) < 1e-4 for i, a in enumerate(polys) for b in polys[i + 1:])   # neighbours
    assert len(segments) == 6 * len(polys) - shared and shared > 10


def test_auto_shares_cuts_only_when_that_saves_a_sheet():
    # 19 tiles: two sheets either way, so every tile keeps its bleed
    assert [s.cut for s in hexes(19, cut="auto")] == ["gutter", "gutter"]
    small = (30, round(2 * 30 / math.sqrt(3), 3))
    gutter, shared = hexes(100, size=small, cut="gutter"), hexes(100, size=small, cut="shared")
    assert len(shared) < len(gutter)
    assert [s.cut for s in hexes(100, size=small, cut="auto")] == ["shared"] * len(shared)


def test_backs_are_the_fronts_turned_over_about_the_sheet():
    for cut in ("gutter", "shared"):
        for sheet in hexes(19, cut=cut):
            fronts, backs = sheet.slots_for(sheet.per_sheet)
            for f, b in zip(fronts, backs):
                fx, fy = apply(f.transform, W / 2, H / 2)
                bx, by = apply(b.transform, W / 2, H / 2)
                assert (bx, by) == pytest.approx((LETTER[0] - fx, fy))
                assert flat(sorted(b.path)) == pytest.approx(flat(sorted((LETTER[0] - x, y) for x, y in f.path)))
            _, moved = sheet.slots_for(sheet.per_sheet, (0.5, -0.25))   # a back offset moves the clip too
            assert moved[0].path[0] == pytest.approx((backs[0].path[0][0] + 0.5, backs[0].path[0][1] - 0.25))


def test_polygons_of_other_shapes_share_a_sheet_with_discs():
    size = (40, 40)
    pentagon = outline("polygon", size, sides=5)
    arrow = outline("polygon", size, points=[[0, 10], [25, 10], [25, 0], [40, 20], [25, 40], [25, 30], [0, 30]])
    (sheet,) = pack_polygons(LETTER, [size] * 3, ["polygon", "round", "polygon"], [pentagon, (), arrow],
                             BLEED, MARGIN)
    kinds = [c[0] for c in sheet.cuts_for(3)]
    assert kinds == ["path", "round", "path"]
    assert len(sheet.cuts[0][1]) == 5 and len(sheet.cuts[2][1]) == 7
    assert sheet.fronts[1].path == ()
    ring = Polygon(sheet.cuts[0][1])     # a regular pentagon: equal sides, a corner at the top
    sides = [math.dist(a, b) for a, b in zip(ring.exterior.coords, ring.exterior.coords[1:])]
    assert max(sides) - min(sides) < 1e-6
    top = max(sheet.cuts[0][1], key=lambda p: p[1])
    assert top[0] == pytest.approx(sheet.fronts[0].trim[0] + 20)
    # the concave arrow: bled along its outline, notch included
    assert Polygon(sheet.fronts[2].path).contains(Polygon(sheet.cuts[2][1]).buffer(BLEED * 0.999))


# --- the built PDF ------------------------------------------------------------------------------

GAME = "title: Hex\ncode: HX\npaper: letter\n"
DECK = """name: Tiles
template: tile
pack: true
back: {template: tile-back}
fields: {terrain: {}, color: {}, edges: {type: list}}
cards:
  - {terrain: Forest, color: "#2e7d32", edges: [1, 2, 3, 4, 5, 6], count: 4}
  - {terrain: Hills, color: "#b5542a", edges: [6, 5, 4, 3, 2, 1], count: 3}
  - {terrain: Pasture, color: "#8bc34a", edges: [1, 1, 2, 2, 3, 3], count: 4}
  - {terrain: Fields, color: "#f0c000", edges: [2, 4, 6, 2, 4, 6], count: 4}
  - {terrain: Mountains, color: "#777777", edges: [3, 3, 3, 3, 3, 3], count: 3}
  - {terrain: Desert, color: "#e8d8a0", edges: [0, 0, 0, 0, 0, 0], count: 1}
"""
TILE = f"""size: [{W}, {H}]
shape: hex-pointy
code: {{y: 55}}
elements:
  - rect: {{w: {W}, h: {H}, fill: "{{{{ color }}}}", bleed: true}}
  - text: {{x: 10, y: 28, w: 40, h: 12, text: "{{{{ terrain }}}}", size: 12, align: center, valign: middle}}
  - slots: {{shape: hex-pointy, values: "{{{{ edges }}}}", inset: 5, size: 10}}
"""
BACK = f"""size: [{W}, {H}]
shape: hex-pointy
code: false
elements:
  - rect: {{w: {W}, h: {H}, fill: "#1565c0", bleed: true}}
"""


@pytest.fixture
def hex_game(tmp_path):
    make_game(tmp_path, GAME, DECK, {"tile": TILE, "tile-back": BACK}, game_id="hex", deck_id="tiles")
    return tmp_path


def build(root, *args):
    ran = pnpgen("build", "hex", "--no-cache", *args, cwd=root)
    assert ran.returncode == 0, ran.stderr
    return root / "out" / "hex" / "tiles.pdf"


def test_cut_lines_in_the_pdf_are_the_hexagons(hex_game):
    path = build(hex_game)
    reader = PdfReader(path)
    assert len(reader.pages) == 4        # 19 tiles: two sheets, fronts and backs (square packing: three)
    expected = hexes(19)
    for sheet, index in zip(expected, (0, 2)):
        drawn = [corners for corners, width in page_geometry(reader, index).polygons if width == pytest.approx(0.3)]
        assert len(drawn) == sheet.per_sheet
        for corners, slot in zip(drawn, sheet.fronts):
            corners = [(x / MM, y / MM) for x, y in corners]
            assert len(corners) == 6
            assert flat(corners) == pytest.approx(flat(placed(slot)), abs=0.01)
            centre = (sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6)
            # a regular hexagon: every corner R from the centre, every side R long, a corner on top
            assert [math.dist(centre, c) for c in corners] == pytest.approx([R] * 6, abs=0.01)
            assert [math.dist(a, b) for a, b in zip(corners, corners[1:] + corners[:1])] == pytest.approx([R] * 6,
                                                                                                       abs=0.01)
            assert max(corners, key=lambda p: p[1])[0] == pytest.approx(centre[0], abs=0.01)
        assert not [line for line in page_geometry(reader, index).lines if line[2] == pytest.approx(0.25)]


def test_backs_land_behind_their_fronts(hex_game):
    reader = PdfReader(build(hex_game))
    page_w = float(reader.pages[0].mediabox.width)
    for front_page in (0, 2):
        fronts = page_geometry(reader, front_page).placements
        backs = page_geometry(reader, front_page + 1).placements
        assert len(fronts) == len(backs) > 0

        def centre(p):
            return apply(p.matrix, W / 2 * MM, H / 2 * MM)
        for f, b in zip(fronts, backs):
            (fx, fy), (bx, by) = centre(f), centre(b)
            assert (bx, by) == pytest.approx((page_w - fx, fy), abs=0.01)
            mirrored = sorted((page_w - x, y) for x, y in f.path)
            assert len(f.path) >= 6 and flat(sorted(b.path)) == pytest.approx(flat(mirrored), abs=0.01)


def test_the_art_bleeds_past_the_cut_and_stops_at_the_bleed(hex_game):
    import pypdfium2 as pdfium
    path = build(hex_game)
    dpi = 150
    image = pdfium.PdfDocument(str(path))[0].render(scale=dpi / 72).to_pil().convert("RGB")

    def px(x, y):
        return image.getpixel((round(x / 25.4 * dpi), round((LETTER[1] - y) / 25.4 * dpi)))
    forest = (0x2E, 0x7D, 0x32)
    for slot in hexes(19)[0].fronts[:4]:      # the four forests
        corners = placed(slot)
        cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
        for a, b in zip(corners, corners[1:] + corners[:1]):
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            ux, uy = (mx - cx) / math.dist((mx, my), (cx, cy)), (my - cy) / math.dist((mx, my), (cx, cy))
            for d in (-1.0, 1.6):             # inside the cut, and in the bleed beyond it
                assert px(mx + ux * d, my + uy * d) == pytest.approx(forest, abs=12)
            assert px(mx + ux * (BLEED + 0.7), my + uy * (BLEED + 0.7)) == (255, 255, 255)   # the gap
    for slot in hexes(19)[0].fronts[:3]:      # the first row: nothing above it
        x, y, w, h = slot.trim
        assert px(x + 2, y + h - 2) == (255, 255, 255)   # the box's corner beyond the hexagon stays paper


def test_shared_cuts_in_the_pdf_are_drawn_once(hex_game):
    (hex_game / "cards" / "hex" / "game.yaml").write_text(GAME + "cut: shared\n")
    reader = PdfReader(build(hex_game))
    sheet = hexes(19, cut="shared")[0]
    drawn = [((a[0] / MM, a[1] / MM), (b[0] / MM, b[1] / MM))
             for a, b, width in page_geometry(reader, 0).lines if width == pytest.approx(0.3)]
    assert not any(same(a, b) for i, a in enumerate(drawn) for b in drawn[i + 1:])
    assert len(drawn) == len(sheet.cuts[0][1])
    assert all(any(same(d, s) for d in drawn) for s in sheet.cuts[0][1])
    placements = page_geometry(reader, 0).placements
    inner = [p for p, s in zip(placements, sheet.fronts) if Polygon(s.path).area == pytest.approx(
        Polygon(placed(s)).area, abs=1e-3)]
    assert inner, "a hex with six neighbours has no bleed: its clip is its outline"


def test_a_build_is_byte_identical_twice(hex_game):
    first = build(hex_game).read_bytes()
    assert build(hex_game).read_bytes() == first


def test_hex_edge_values_read_outward_from_the_tile_edges(hex_game):
    """The slots on a hex tile sit `inset` inside each edge of the tile's own outline, each
    value's foot towards its edge: read by the player beyond that edge."""
    from pnpgen import ops
    from pnpgen.build import Project, load
    from pnpgen.game.expand import assign_numbers, expand
    from pnpgen.layout.layouter import Layouter
    game = load(Project(hex_game), "hex")
    deck = game.decks[0]
    card = expand(game, deck, assign_numbers(game))[0]
    body = Layouter(game, deck).layout(card, card.front)
    groups = [op for op in body if isinstance(op, ops.Group)]
    assert len(groups) == 6
    corners = game.templates["tile"].template.outline()
    centre = (W / 2, H / 2)
    for g in groups:
        a, b, c, d, e, f = g.transform
        edge = min(zip(corners, corners[1:] + corners[:1]),
                   key=lambda ab: math.dist(((ab[0][0] + ab[1][0]) / 2, (ab[0][1] + ab[1][1]) / 2), (e, f)))
        mid = ((edge[0][0] + edge[1][0]) / 2, (edge[0][1] + edge[1][1]) / 2)
        assert math.dist(mid, (e, f)) == pytest.approx(5, abs=1e-6)   # inset 5 mm from the edge's middle
        up = (c * -1, d * -1)          # the text's up (y down frame): into the tile, towards its centre
        towards = ((centre[0] - e) / math.dist(centre, (e, f)), (centre[1] - f) / math.dist(centre, (e, f)))
        assert up == pytest.approx(towards, abs=1e-6)


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("template,deck,message", [
    (TILE.replace("shape: hex-pointy\n", "shape: hex\n"), DECK, "tile.yaml:2: shape: Input should be"),
    (TILE.replace("shape: hex-pointy\n", "shape: polygon\npoints: [[0, 0], [70, 0], [0, 30]]\n"), DECK,
     "point [70, 0] is outside the 60 x 69.282 mm size"),
    (TILE.replace("shape: hex-pointy\n", "shape: polygon\n"), DECK, "needs either points: [[x, y], ...] or sides: N"),
    (TILE.replace(f"size: [{W}, {H}]\n", ""), DECK, "shape: hex-pointy needs size: [w, h]"),
    (TILE, DECK.replace("pack: true\n", ""), "decks/tiles.yaml:1: template 'tile' is shape: hex-pointy"),
])
def test_bad_shapes_are_refused_at_their_line(tmp_path, template, deck, message):
    make_game(tmp_path, GAME, deck, {"tile": template, "tile-back": BACK}, game_id="hex", deck_id="tiles")
    ran = pnpgen("build", "hex", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert message in ran.stderr, ran.stderr
    assert not (tmp_path / "out" / "hex" / "tiles.pdf").exists()


# --- exports ------------------------------------------------------------------------------------

def test_png_export_is_transparent_outside_the_hexagon(hex_game):
    from PIL import Image
    ran = pnpgen("export", "png", "hex", "--dpi", "100", cwd=hex_game)
    assert ran.returncode == 0, ran.stderr
    folder = hex_game / "out" / "hex" / "png" / "tiles"
    for name in ("HX-001-front.png", "HX-001-back.png"):
        image = Image.open(folder / name)
        assert image.mode == "RGBA"
        w, h = image.size
        assert image.getpixel((2, 2))[3] == 0 and image.getpixel((w - 3, h - 3))[3] == 0   # the box's corners
        assert image.getpixel((w // 2, h // 2))[3] == 255 and image.getpixel((w // 2, 3))[3] == 255   # top corner
    ran = pnpgen("export", "tts", "hex", cwd=hex_game)
    assert ran.returncode == 0, ran.stderr
    (bag,) = json.loads((hex_game / "out" / "hex" / "tts" / "tiles.json").read_text())["ObjectStates"]
    tiles = bag["ContainedObjects"]
    assert len(tiles) == 19 and all(o["CustomImage"]["CustomTile"]["Type"] == 1 for o in tiles)  # TTS's hex tile


def test_the_print_check_measures_the_cut_zone_along_the_hexagon(hex_game):
    """A card code at its default place, 2.3 mm above the bottom of the box, is inside the box
    but next to the pointy hex's bottom corner: the print check measures to the outline."""
    ran = pnpgen("check", "hex", cwd=hex_game)
    assert "print-cut" not in ran.stdout + ran.stderr
    tile = hex_game / "templates" / "hex" / "tile.yaml"
    tile.write_text(TILE.replace("code: {y: 55}\n", ""))
    ran = pnpgen("check", "hex", cwd=hex_game)
    assert "tile.yaml:1: hex/tiles: print-cut (warning): code: card code HX-001 comes within 0.3 mm of the cut" in (
        ran.stdout + ran.stderr)


@pytest.mark.parametrize("page", [LETTER, A4])
def test_small_hexes_with_gutters_never_take_more_sheets_than_their_boxes(page):
    """Round 30 mm hexes the gutters cost more than nesting gains: 29 nested against 30 boxes a
    Letter sheet. Gutter packing falls back to the boxes when they need fewer sheets."""
    small = (30, round(2 * 30 / math.sqrt(3), 3))
    for n in (30, 60, 90, 120):
        boxes = pack(page, [small] * n, ["rect"] * n, BLEED, MARGIN)
        nested = hexes(n, size=small, page=page, cut="gutter")
        assert len(nested) <= len(boxes) and sum(s.per_sheet for s in nested) == n
        for sheet in nested:       # whichever way, every tile is still cut along its hexagon
            assert all(kind == "path" and len(points) == 6 for kind, points in sheet.cuts)
