"""Swarm, read back from its PDFs: the kit passes every print check; the six counter sets and
their attribute markers differ by a large black symbol, not by colour alone; the board's
side B is a blank map with a d10 terrain table and no software command on either side."""

from __future__ import annotations

import json
from itertools import combinations

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from pnpgen import presets
from pnpgen.build import Project, load
from pnpgen.printcheck.raster import contrast
from pnpgen.rules.ruleset import check_game
from pnpgen.sheets.impose import pack

from .clirun import pnpgen
from .pdfread import page_texts

DPI = 300
PX = DPI / 25.4          # pixels per mm
SYMBOLS = ["triangle", "square", "circle", "diamond", "star", "sparkle"]


def _result(built, deck):
    return next(r for r in built["swarm"] if r.id == deck)


def test_the_kit_passes_every_print_check(project):
    """`pnpgen check swarm` finds nothing to report at the default limits: no small type, no
    low contrast, no faint lines, no text near the cut, and no rule broken."""
    ran = pnpgen("check", "swarm", "--format", "json", "--strict", cwd=project.root)
    data = json.loads(ran.stdout)
    assert ran.returncode == 0, ran.stdout
    assert data["print"] == [] and data["errors"] == 0 and data["warnings"] == 0


def _faces(built, project, deck_id, size, first_of_set):
    """{set index: grey image (L) of the front of the first component of each set}, cut at its
    trim from the page it prints on. `first_of_set` lists each set's first card index."""
    result = _result(built, deck_id)
    game = load(project, "swarm")
    deck = next(d for d in game.decks if d.id == deck_id)
    flat = [(20, 20) if card.template == "place-tile" else size for card in deck.cards for _ in range(card.count)]
    g = game.game
    page = presets.papers()[g.paper]
    sheets = pack(page, flat, ["round"] * len(flat), g.bleed, g.printer_margin)
    pdf = pdfium.PdfDocument(str(result.path))
    out, seen = {}, 0
    for s, sheet in enumerate(sheets):
        image = None
        for k, slot in enumerate(sheet.fronts):
            if seen + k in first_of_set:
                image = image or pdf[2 * s].render(scale=DPI / 72).to_pil().convert("RGB")
                x, y, w, h = slot.trim
                box = (round(x * PX), round((page[1] - y - h) * PX), round((x + w) * PX), round((page[1] - y) * PX))
                out[first_of_set.index(seen + k)] = image.crop(box)
        seen += len(sheet.fronts)
    assert len(out) == len(first_of_set)
    return out


def _symbol(face, box_mm, disc_mm):
    """The dark pixels (a set of (x, y)) inside `box_mm` (x0, y0, x1, y1, mm from the face's
    top left) and within the white centre `disc_mm` (cx, cy, r) of a face, read in grey so that
    colour plays no part, and their mean colour (r, g, b)."""
    x0, y0, x1, y1 = (round(v * PX) for v in box_mm)
    cx, cy, r = (v * PX for v in disc_mm)
    grey = face.convert("L")
    dark = {(x, y) for x in range(x0, x1) for y in range(y0, y1)
            if (x - cx) ** 2 + (y - cy) ** 2 < r * r and grey.getpixel((x, y)) < 110}
    mean = tuple(round(sum(face.getpixel(p)[c] for p in dark) / max(1, len(dark))) for c in range(3))
    return dark, mean


def _assert_told_apart(faces, box_mm, disc_mm, min_height_mm):
    """Each set's symbol is black on white (at least 7:1), at least `min_height_mm` tall, and
    its shape differs from every other set's (they overlap by less than 85 %)."""
    shapes = {}
    for index, face in faces.items():
        dark, mean = _symbol(face, box_mm, disc_mm)
        ys = [y for _, y in dark]
        assert dark and (max(ys) - min(ys) + 1) / PX >= min_height_mm, (SYMBOLS[index], len(dark))
        assert contrast(mean, (255, 255, 255)) >= 7, (SYMBOLS[index], mean)
        shapes[index] = dark
    for a, b in combinations(shapes, 2):
        overlap = len(shapes[a] & shapes[b]) / len(shapes[a] | shapes[b])
        assert overlap < 0.85, (SYMBOLS[a], SYMBOLS[b], overlap)


def test_the_six_counter_sets_differ_by_a_large_black_symbol(built, project):
    """The first single-insect counter of each of the six sets, seen in grey: a symbol at least
    4 mm tall in the top half of the white centre, black, and a different shape for each set."""
    faces = _faces(built, project, "counters", (16, 16), [50 * p for p in range(6)])
    _assert_told_apart(faces, (3.5, 1.5, 12.5, 7.6), (8, 8, 6.0), 4.0)


def test_the_attribute_markers_carry_their_players_symbol(built, project):
    """The first attribute marker of each player: the set's symbol, at least 3 mm tall and
    black, above the attribute's name; the name is printed at 6 pt or more."""
    faces = _faces(built, project, "markers", (12, 12), [7 * p for p in range(6)])
    _assert_told_apart(faces, (2.5, 1.2, 9.5, 6.2), (6, 6, 4.4), 3.0)
    page = pdfium.PdfDocument(str(_result(built, "markers").path))[0].get_textpage()
    text = page.get_text_range()
    sizes = {text[i]: pdfium_c.FPDFText_GetFontSize(page, i) for i in range(len(text)) if text[i].isalpha()}
    assert set("INIATKDEFMOVREPSTKINT") <= set(sizes) and min(sizes.values()) >= 6


def _board_ops(project, side):
    from pnpgen import ops
    from pnpgen.layout.boards import board_card
    from pnpgen.layout.layouter import Layouter
    game = load(project, "swarm")
    (board,) = game.boards
    card = board_card(board)
    layouter = Layouter(game, board)
    face = card.front if side == "a" else card.back
    body = [inner for op in layouter.layout(card, face)
            for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]
    return game, body


def test_side_b_is_a_blank_map_with_only_the_start_dens(project):
    """Side B: the same 100 hexes, 96 of them white with a ring to write in and the four
    ringed corner Dens in the Den colour, each marked 6; nothing else of the map printed."""
    from pnpgen import ops
    game, body = _board_ops(project, "b")
    paths = [op for op in body if isinstance(op, ops.Path) and op.closed]
    hexes = [op for op in paths if op.paint.fill is not None and len(op.points) == 6]
    fills = sorted(hexes, key=lambda op: op.paint.fill.hexval())
    den = game.game.colors["den"].lower()
    colours = [op.paint.fill.hexval()[2:].lower() for op in fills]
    # the d10 table's ten terrain hexes stand in the panel, right of the map (x > 300 mm)
    on_map = [c for op, c in zip(fills, colours) if max(x for x, _ in op.points) < 300]
    assert sorted(on_map) == sorted(["ffffff"] * 96 + [den[1:]] * 4)
    rings = [op for op in paths if op.paint.fill is None and op.paint.stroke is not None and len(op.points) == 6]
    assert len(rings) == 4
    digits = [op.lines[0][2][0].text for op in body if isinstance(op, ops.Text) and op.lines[0][0] < 300
              and op.lines[0][2][0].text.isdigit() and len(op.lines[0][2][0].text) == 1]
    assert digits == ["6"] * 4


def test_side_b_prints_a_d10_table_and_no_board_names_a_command(built):
    """The board PDF has both sides; side B's panel gives a roll for each of the ten terrains,
    and no page of either side tells the player to run software."""
    texts = page_texts(_result(built, "board").path)
    side_b = "\n".join(t for t in texts if "side B" in t)
    assert "ROLL A d10: THE TERRAIN" in side_b and "ROLL THE MAP" in side_b
    for name in ["Dirt", "Grass", "Mound", "Rocks", "Water", "Den", "Mud", "Slope", "Roots", "Sand"]:
        assert name in side_b, name
    assert not any("pnpgen" in t or "--seed" in t for t in texts)


def test_a_blank_side_with_a_den_out_of_its_corner_is_caught(scratch):
    """SW-09-blank reads side B's rows: a start Den moved one hex in from its corner is
    reported at the board file, as the generated side's Dens would be."""
    path = scratch / "cards" / "swarm" / "boards" / "board.yaml"
    text = path.read_text()
    assert 'blank: ["6 . . . . . . . . 6",' in text
    path.write_text(text.replace('blank: ["6 . . . . . . . . 6",', 'blank: [". 6 . . . . . . . 6",'))
    found = [v for v in check_game(load(Project(scratch), "swarm")).violations if v.rule == "SW-09-blank"]
    assert found and found[0].path.endswith("board.yaml")
    assert "start Dens" in found[0].message
