"""`slots` on a hex tile take the tile's own hexagon when they name no `shape:`: each value
sits `inset` inside the middle of one of the six edges of the tile's outline (flat or pointy,
at the tile's size), read back as text positions from the drawn face; an explicit `shape:`
still wins, and a slot a hexagon lacks is a located error."""

from __future__ import annotations

import math

import pypdfium2 as pdfium
import pytest

from pnpgen.build import Project, load
from pnpgen.export.faces import deck_faces, write_pages
from pnpgen.game.outline import outline

from .clirun import pnpgen
from .minigame import make_game

PT = 25.4 / 72
ACROSS = 50.0                                     # across the flats, mm
CORNERS = round(2 * ACROSS / math.sqrt(3), 3)     # corner to corner
SIZES = {"hex-pointy": (ACROSS, CORNERS), "hex-flat": (CORNERS, ACROSS)}
VALUES = "QRSTUV"                                 # one letter a slot, none of them in the tile's other text
GAME = "title: Slots\ncode: SL\n"
DECK = """name: Tiles
template: tile
pack: true
cards:
  - {count: 1}
"""


def tile(shape: str, slots: str = "", values: str = VALUES) -> str:
    w, h = SIZES[shape]
    return (f"size: [{w}, {h}]\nshape: {shape}\ncode: false\nelements:\n"
            f"  - rect: {{w: {w}, h: {h}, fill: '#dddddd', bleed: true}}\n"
            f"  - slots: {{values: {list(values)}, inset: 6, size: 12{slots}}}\n")


def letter_centres(tmp_path, template: str, values: str = VALUES):
    """Where each value is drawn on the tile's face (mm from its top-left, y down), and its size."""
    make_game(tmp_path, GAME, DECK, {"tile": template}, game_id="sl", deck_id="tiles")
    (deck,) = deck_faces(load(Project(tmp_path), "sl"))
    (face,) = deck.fronts
    pdf = tmp_path / "face.pdf"
    write_pages(pdf, [face], deck, 0.0, "tiles")
    page = pdfium.PdfDocument(str(pdf))[0]
    text = page.get_textpage()
    found = text.get_text_range()
    centres = {}
    for letter in values:
        assert found.count(letter) == 1, found
        left, bottom, right, top = text.get_charbox(found.index(letter))
        centres[letter] = ((left + right) / 2 * PT, face.size[1] - (bottom + top) / 2 * PT)
    return centres, face.size


@pytest.mark.parametrize("shape", ["hex-pointy", "hex-flat"])
def test_slots_without_a_shape_sit_on_the_six_edges_of_the_tiles_hexagon(tmp_path, shape):
    centres, size = letter_centres(tmp_path, tile(shape))
    corners = outline(shape, size)
    middles = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(corners, corners[1:] + corners[:1])]
    centre = (size[0] / 2, size[1] / 2)
    apothem = ACROSS / 2
    used = set()
    for letter, at in centres.items():
        edge = min(range(6), key=lambda i: math.dist(middles[i], at))
        used.add(edge)
        # on the line from the tile's centre to that edge's middle, 6 mm inside it (glyph boxes: 0.6 mm)
        assert math.dist(at, centre) == pytest.approx(apothem - 6, abs=0.6), (letter, at)
        assert math.dist(at, middles[edge]) == pytest.approx(6, abs=0.6), (letter, at)
    assert used == set(range(6))
    # clockwise from the first slot: n on a flat hex (its top edge), ne on a pointy one
    first = centres[VALUES[0]]
    assert first[1] < centre[1] and (first[0] == pytest.approx(centre[0], abs=0.6)) == (shape == "hex-flat")
    order = [(math.atan2(centres[v][0] - centre[0], centre[1] - centres[v][1]) + 0.1) % (2 * math.pi) for v in VALUES]
    assert order == sorted(order)        # angles from the top, clockwise on the page


def test_an_explicit_shape_still_wins(tmp_path):
    """shape: rect on a hex tile puts the slots on the box's four edges, as written."""
    centres, (w, h) = letter_centres(tmp_path, tile("hex-pointy", ", shape: rect", "QRST"), "QRST")
    expected = {"Q": (w / 2, 6), "R": (w - 6, h / 2), "S": (w / 2, h - 6), "T": (6, h / 2)}
    for letter, at in expected.items():
        assert centres[letter] == pytest.approx(at, abs=0.6), letter


def test_a_slot_the_tiles_hexagon_lacks_is_a_located_error(tmp_path):
    make_game(tmp_path, GAME, DECK, {"tile": tile("hex-pointy", ", at: [n, s]")}, game_id="sl", deck_id="tiles")
    ran = pnpgen("build", "sl", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "tile.yaml:6: elements[1]: n, s: not a slot of a hex-pointy" in ran.stderr, ran.stderr
    assert "write shape: rect" in ran.stderr
