"""print-margin on boards: text on a tiled board, and on a board printed whole on a poster
page, that prints within the margin limit of the paper's edge is found at the template line
that draws it, with its distance read off the build's own board layout."""

from __future__ import annotations

import pytest

from pnpgen.build import Options, load, plan_game
from pnpgen.build.printing import printing
from pnpgen.build.project import Project

from .clirun import pnpgen
from .minigame import make_game
from .test_printcheck import DECK, GAME, check_json, face, line_of

BOARD = "name: Map\nsize: [380, 240]\ntemplate: map\n"
MAP = """size: [380, 240]
elements:
  - rect: {x: 0, y: 0, w: 380, h: 240, fill: "#ffffff", bleed: true}
  - text: {x: X, y: Y, w: 30, h: 8, text: "CORNER", size: 12, color: "#000000", wrap: false}
"""
MAP_FILE = "templates/mini/map.yaml"


def board_game(tmp_path, x: float, y: float, game: str = GAME):
    folder = make_game(tmp_path, game, DECK, {"face": face(), "map": MAP.replace("X", f"{x:g}").replace("Y", f"{y:g}")})
    (folder / "boards").mkdir(exist_ok=True)
    (folder / "boards" / "map.yaml").write_text(BOARD)
    return tmp_path


def board_margins(root) -> dict:
    """The print-margin findings of the board, by template line."""
    return {f["line"]: f for f in check_json(root)[1]["print"] if f["rule"] == "print-margin" and f["file"] == MAP_FILE}


def corner_room(root, options: Options | None = None) -> float:
    """How far the board's top-left corner prints from the paper's edge, on the page the
    build puts it on (its first tile's place: board mm, y down, to page mm, y up)."""
    plan = plan_game(load(Project(root), "mini"))
    layout = printing(plan, options).boards["map"]
    a, b, c, d, e, f = layout.tiles[0].place
    W, H = layout.page
    return min(e, H - f)


def test_text_at_a_tiled_boards_edge_within_a_wider_margin_is_found_at_its_line(tmp_path):
    root = board_game(tmp_path, 1, 1)
    room = corner_room(root)              # the tiles are centred over the board: its corner is this far in
    limit = round(room + 5)
    board_game(tmp_path, 1, 1, GAME + f"print: {{margin: {limit}}}\n")
    found = board_margins(root)
    assert set(found) == {line_of(root / MAP_FILE, "CORNER")}
    (corner,) = found.values()
    assert corner["value"] == pytest.approx(room + 1, abs=0.05) and corner["limit"] == limit
    assert f"text 'CORNER' prints {room + 1:.1f} mm from the paper's edge, inside the {limit} mm" in corner["message"]
    assert "board map side a" in corner["message"] and corner["severity"] == "warning"
    board_game(tmp_path, 6, 6, GAME + f"print: {{margin: {limit}}}\n")      # moved 5 mm further in: clear
    assert board_margins(root) == {}


def test_text_on_a_tiled_board_clear_of_the_printers_margin_is_not_found(tmp_path):
    root = board_game(tmp_path, 1, 1)
    assert board_margins(root) == {}


def test_text_at_a_poster_boards_edge_is_found_when_the_build_refuses_under_strict(tmp_path):
    root = board_game(tmp_path, 1, 1)
    room = corner_room(root, Options(poster="a3"))     # an A3 poster centres the 380 x 240 board
    limit = round(room + 5)
    board_game(tmp_path, 1, 1, GAME + f"print: {{margin: {limit}}}\n")
    out = tmp_path / "out"
    ran = pnpgen("build", "mini", "--poster", "a3", "--strict", "--out", str(out), cwd=root)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    line = line_of(root / MAP_FILE, "CORNER")
    (said,) = [s for s in ran.stderr.splitlines() if "print-margin" in s and s.startswith(MAP_FILE)]
    assert said.startswith(f"{MAP_FILE}:{line}: ")     # (the deck's cards are found too, at 25 mm)
    assert f"text 'CORNER' prints {room + 1:.1f} mm from the paper's edge, inside the {limit} mm" in said
    assert not (out / "mini" / "map.pdf").exists()
    board_game(tmp_path, 1, 1, GAME + f"print: {{margin: {int(room)}}}\n")     # the corner text is clear of it
    ran = pnpgen("build", "mini", "--poster", "a3", "--strict", "--out", str(out), cwd=root)
    assert not [s for s in ran.stderr.splitlines() if s.startswith(MAP_FILE) and "print-margin" in s], ran.stderr
    assert "print-margin" in ran.stderr                 # (the deck's cards still are, at 20 mm)
