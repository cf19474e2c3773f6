"""Seams of tiled boards: placed round text and named regions (pure geometry), a column more
when the fewest pages cannot go round, the `print-seams` finding when nothing can, and the
built pages cut where the plan says."""

from __future__ import annotations

import json

import pytest
from pypdf import PdfReader

from pnpgen import presets
from pnpgen.build import Project, load, plan_game
from pnpgen.printcheck.boards import board_tiling, region_keeps
from pnpgen.sheets.seams import Keep, crossed, even_cuts, place_cuts
from pnpgen.sheets.tile import tile

from .clirun import pnpgen
from .minigame import make_game

LETTER = presets.papers()["letter"]


def test_cuts_stay_even_with_nothing_to_go_round():
    assert place_cuts(-9.0, 400.0, 205.9, 12, 2, []) == even_cuts(-9.0, 400.0, 205.9, 12, 2)


def test_a_cut_moves_off_a_span_when_the_paper_allows_and_stays_within_reach():
    lo, length, window, overlap = -9.175, 398.35, 205.9, 30     # three pages across: room to move
    even = even_cuts(lo, length, window, overlap, 3)
    span = (even[0] - 10, even[0] + 10, 1.0)
    cuts = place_cuts(lo, length, window, overlap, 3, [span])
    assert not (span[0] - 1 < cuts[0] < span[1] + 1)
    assert cuts[1] - cuts[0] <= window - overlap + 1e-9 and cuts[0] <= lo + window - overlap / 2 + 1e-9
    assert cuts[1] >= lo + length - window + overlap / 2 - 1e-9
    assert abs(cuts[0] - even[0]) < 12        # the nearest way round, not anywhere


def test_a_seam_goes_round_a_centre_mark_turning_the_pages_or_taking_a_page_more():
    # a wide title on the middle seam: the same four pages, turned, go round it
    plain = tile(LETTER, (380, 250), 3.175, 5, 12)
    title = Keep((plain.cuts_x[0] - 30, 20, plain.cuts_x[0] + 30, 30), "text 'TITLE'")
    turned = tile(LETTER, (380, 250), 3.175, 5, 12, [title])
    assert not crossed([title], turned.cuts_x, turned.cuts_y) and len(turned.tiles) == len(plain.tiles)
    assert turned.page != plain.page
    # the X at the very centre of a square board: no four pages go round it; six do
    square = tile(LETTER, (380, 380), 3.175, 5, 12)
    x_mark = Keep((177.5, 177.5, 202.5, 202.5), "region 'the X'", 3.0)
    round_x = tile(LETTER, (380, 380), 3.175, 5, 12, [x_mark])
    assert crossed([x_mark], square.cuts_x, square.cuts_y) and not crossed([x_mark], round_x.cuts_x, round_x.cuts_y)
    assert len(square.tiles) == 4 and len(round_x.tiles) == 6
    # a region the whole board spans cannot be gone round: the fewest pages, and said
    everywhere = Keep((0, 0, 380, 250), "region 'sea'", 3.0)
    stuck = tile(LETTER, (380, 250), 3.175, 5, 12, [everywhere])
    assert len(stuck.tiles) == len(plain.tiles) and crossed([everywhere], stuck.cuts_x, stuck.cuts_y)


GAME = "title: Mini\ncode: MIN\npaper: letter\n"
DECK = "name: Deck\ntemplate: face\ncards:\n  - {}\n"
FACE = "size: poker\nelements:\n  - rect: {w: 63.5, h: 88.9, fill: '#ffffff', bleed: true}\n"
MAP = """size: [380, 250]
code: false
elements:
  - rect: {w: 380, h: 250, fill: "#ffffff", bleed: true}
  - text: {x: 5, y: 100, w: 370, h: 12, text: "A LINE OF TEXT THAT RUNS RIGHT ACROSS THE WHOLE BOARD FROM ONE SIDE TO THE OTHER", size: 18, align: center, color: "#000000"}
  - text: {x: 100, y: 180, w: 60, h: 10, text: "Lantern Town", size: 12, color: "#000000"}
"""


def _board_game(tmp_path, keep: str = ""):
    folder = make_game(tmp_path, GAME, DECK, {"face": FACE, "map": MAP})
    (folder / "boards").mkdir()
    (folder / "boards" / "map.yaml").write_text(f"name: Map\nsize: [380, 250]\ntemplate: map\n{keep}")
    return folder


def test_a_seam_through_text_is_a_print_seams_finding_at_the_text_line(tmp_path):
    _board_game(tmp_path)
    ran = pnpgen("check", "--format", "json", cwd=tmp_path)
    assert "Traceback" not in ran.stderr
    found = [f for f in json.loads(ran.stdout)["print"] if f["rule"] == "print-seams"]
    assert len(found) == 1 and found[0]["line"] == 5 and found[0]["file"].endswith("templates/mini/map.yaml")
    assert "A LINE OF TEXT" in found[0]["message"]


def test_keep_whole_regions_are_gone_round_and_built_pages_are_cut_there(tmp_path):
    folder = _board_game(tmp_path, "keep_whole:\n  - {name: the bay, x: 150, y: 140, w: 90, h: 100}\n")
    ran = pnpgen("check", "--format", "json", cwd=tmp_path)
    seams = [f for f in json.loads(ran.stdout)["print"] if f["rule"] == "print-seams"]
    assert [f["line"] for f in seams] == [5]          # the long line only; the bay and the town are whole
    assert pnpgen("build", "mini", cwd=tmp_path).returncode == 0
    reader = PdfReader(str(tmp_path / "out" / "mini" / "map.pdf"))
    texts = " ".join(page.extract_text() for page in reader.pages[1:])
    assert "Lantern Town" in texts
    # the plan the build cut by keeps the bay whole
    game = load(Project(tmp_path), "mini")
    (board,) = plan_game(game).boards
    layout = board_tiling(game.game, board.source.board, region_keeps(board.source))
    assert all(not (150 < x < 240) for x in layout.cuts_x) and all(not (140 < y < 240) for y in layout.cuts_y)
    assert len(reader.pages) == 1 + len(layout.tiles)       # the assembly page, then a page a tile


@pytest.mark.parametrize("bad", ["{name: x, x: 0, y: 0, w: 0, h: 5}", "{name: '', x: 0, y: 0, w: 5, h: 5}",
                                 "{x: 0, y: 0, w: 5, h: 5}"])
def test_a_bad_region_is_bad_input_at_its_line(tmp_path, bad):
    _board_game(tmp_path, f"keep_whole:\n  - {bad}\n")
    ran = pnpgen("check", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "boards/map.yaml:5" in ran.stderr
