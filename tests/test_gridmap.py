"""Square-grid maps (pnpgen.gridmap), the `grid:` rule check built on them, and the Swamped
map data and generator that use both."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from pnpgen.build import Project, load
from pnpgen.errors import InputError
from pnpgen.maps.gridmap import GridError, cell_name, open_edge, parse, reachable
from pnpgen.rules.ruleset import check_game

from .minigame import make_game

ROOT = Path(__file__).resolve().parent.parent

SMALL = [". K .",
         "T . ^",
         ". v ."]


# --- parsing -----------------------------------------------------------------------------------

def test_parse_reads_rows_top_first():
    grid = parse(SMALL)
    assert (grid.cols, grid.rows) == (3, 3)
    assert grid.symbol(1, 0) == "K" and grid.symbol(0, 1) == "T"
    assert grid.find("K") == [(1, 0)]
    assert grid.find(".") == [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)]
    assert grid.find("Z") == []


def test_cell_names():
    assert cell_name(0, 0) == "A1"
    assert cell_name(2, 2) == "C3"
    assert cell_name(5, 3) == "F4"


def test_a_wall_blocks_both_cells_whichever_side_names_it():
    for wall in ("B2:E", "C2:W"):
        grid = parse(SMALL, [wall])
        assert grid.blocked(1, 1, "E") and grid.blocked(2, 1, "W")
        assert not grid.blocked(1, 1, "W") and not grid.blocked(2, 1, "E")
        assert grid.wall_segments() == [((2, 1), (2, 2))]
    north = parse(SMALL, ["B2:N"])
    assert north.blocked(1, 0, "S") and north.blocked(1, 1, "N")
    assert north.wall_segments() == [((1, 1), (2, 1))]


def test_lower_case_walls_and_spaces_are_read():
    assert parse(SMALL, ["b2 : e"]).blocked(2, 1, "W")


def test_border_closes_its_side_except_at_openings():
    grid = parse([". ^ .", ". . .", "v . ."], border=["N", "S"], openings={"^": "N", "v": "S"})
    assert open_edge(grid, "N") == [1]
    assert open_edge(grid, "S") == [0]
    assert open_edge(grid, "W") == [0, 1, 2] and open_edge(grid, "E") == [0, 1, 2]
    assert grid.blocked(0, 0, "N") and not grid.blocked(1, 0, "N")
    segments = grid.wall_segments()
    assert ((0, 0), (1, 0)) in segments and ((1, 0), (2, 0)) not in segments
    assert ((0, 3), (1, 3)) not in segments and ((1, 3), (2, 3)) in segments
    assert len(segments) == 4


def test_a_wall_on_the_border_closes_that_segment():
    grid = parse(SMALL, ["A2:W", "C3:E"])
    assert open_edge(grid, "W") == [0, 2]
    assert open_edge(grid, "E") == [0, 1]
    assert grid.wall_segments() == [((0, 1), (0, 2)), ((3, 2), (3, 3))]


def test_size_and_symbols_are_enforced_when_given():
    parse(SMALL, size=(3, 3), symbols="KT", openings={"^": "E", "v": "S"})
    with pytest.raises(GridError, match="the map has 3 rows; it needs 4"):
        parse(SMALL, size=(3, 4))
    with pytest.raises(GridError, match="row 1 has 3 cells; every row needs 4"):
        parse(SMALL, size=(4, 3))


@pytest.mark.parametrize("cells, kwargs, message", [
    ("K . .", {}, "the map should be a list of row strings"),
    ([], {}, "the map has no rows"),
    ([". . .", ". .", ". . ."], {}, "row 2 has 2 cells; every row needs 3"),
    ([". . .", 5], {}, "row 2 is 5; write each row as one string"),
    ([". KK ."], {}, "row 1, cell 2 is 'KK': a cell is one symbol character"),
    ([". . .", ""], {}, "row 2 has 0 cells; every row needs 3"),
    ([""], {}, "row 1 is empty"),
    ([". Q ."], {"symbols": "KT"}, "cell B1 holds 'Q', which is not a map symbol; use one of: . K T"),
    ([". . .", ". ^ ."], {"openings": {"^": "N"}},
     "cell B2 holds '^', an opening through the N edge, but is not on that edge; put it in row 1"),
    ([". . ^"], {"openings": {"^": "W"}}, "put it in column A"),
    ([". . ."], {"openings": {"^^": "N"}}, "openings: '^^' should be one symbol character"),
    ([". . ."], {"openings": {"^": "Up"}}, "openings: '^': 'Up' is not a side; use N, E, S or W"),
    ([". . ."], {"border": ["Top"]}, "border: 'Top' is not a side"),
    ([". . ."], {"walls": "A1:E"}, "walls should be a list of '<cell>:<side>' strings"),
    ([". . ."], {"walls": ["A1E"]}, "wall 'A1E' should be written '<cell>:<side>', e.g. 'C3:E'"),
    ([". . ."], {"walls": [7]}, "wall 7 should be written '<cell>:<side>'"),
    ([". . ."], {"walls": ["11:E"]}, "wall '11:E': '11' is not a cell name"),
    ([". . ."], {"walls": ["D1:E"]}, "wall 'D1:E': there is no column D; the map has columns A-C"),
    ([". . ."], {"walls": ["A2:E"]}, "wall 'A2:E': there is no row 2; the map has rows 1-1"),
    ([". . ."], {"walls": ["A0:E"]}, "there is no row 0"),
    ([". . ."], {"walls": ["A1:X"]}, "wall 'A1:X': the side must be N, E, S or W"),
    ([". . ."], {"walls": ["A1:E", "A1:E"]}, "wall 'A1:E' repeats 'A1:E'; list each wall once"),
    ([". . ."], {"walls": ["A1:E", "B1:W"]}, "wall 'B1:W' repeats 'A1:E' (the same wall seen from the other side)"),
    ([". ^ ."], {"walls": ["B1:N"], "border": ["N"], "openings": {"^": "N"}}, "wall 'B1:N' closes an exit"),
])
def test_every_error_says_what_is_wrong(cells, kwargs, message):
    walls = kwargs.pop("walls", ())
    with pytest.raises(GridError) as info:
        parse(cells, walls, **kwargs)
    assert message in str(info.value)


def test_too_many_columns_for_letters():
    with pytest.raises(GridError, match="at most 26 columns"):
        parse([" ".join("." * 27)])


# --- reachability ------------------------------------------------------------------------------

def test_reachable_follows_orthogonal_steps_and_stops_at_walls():
    open_ = parse(SMALL)
    assert reachable(open_, [(0, 0)]) == {(c, r) for c in range(3) for r in range(3)}
    # a vertical wall down the whole B|C line cuts column C off
    cut = parse(SMALL, ["B1:E", "B2:E", "B3:E"])
    assert reachable(cut, [(0, 0)]) == {(c, r) for c in range(2) for r in range(3)}
    # a gap in the wall lets the token round it
    gap = parse(SMALL, ["B1:E", "B2:E"])
    assert (2, 0) in reachable(gap, [(0, 0)])
    # diagonal neighbours do not count: box B2 in on all four sides
    boxed = parse(SMALL, ["B2:N", "B2:E", "B2:S", "B2:W"])
    assert reachable(boxed, [(1, 1)]) == {(1, 1)}
    assert (1, 1) not in reachable(boxed, [(0, 0)])


def test_open_edge_reports_rows_and_columns():
    grid = parse(SMALL, ["A1:W", "C2:E", "B1:N", "A3:S"], border=[])
    assert open_edge(grid, "W") == [1, 2]
    assert open_edge(grid, "E") == [0, 2]
    assert open_edge(grid, "N") == [0, 2]
    assert open_edge(grid, "S") == [1, 2]
    with pytest.raises(GridError):
        open_edge(grid, "Q")


# --- the grid: rule check ----------------------------------------------------------------------

GAME = "title: Maps\ncode: MAP\n"
DECK = """name: Maps
template: face
fields:
  title: {required: true}
  map: {type: list}
  walls: {type: list, default: []}
cards:
  - {title: Good, map: [". K .", "C . T", ". . ."], walls: ["B1:S"]}
  - {title: No map}
"""
TEMPLATES = {"face": "elements:\n  - text: {w: 50, h: 10, text: '{{ title }}'}\n"}
RULE = """rules:
  - id: MAPS
    grid:
      field: map
      walls: walls
      size: [3, 3]
      symbols: KTC
      border: [N, S]
      features: {T: 1, "K+C": {min: 1, max: 2}}
      columns: {C: [A]}
      rows: {K: [1]}
      reachable: [".", K, T, C]
      open_rows: [2]
"""


def run(tmp_path, deck=DECK, rules=RULE):
    make_game(tmp_path, GAME, deck, TEMPLATES, rules, game_id="maps", deck_id="maps")
    return check_game(load(Project(tmp_path), "maps")).violations


def with_card(card):
    return DECK.replace("  - {title: No map}\n", f"  - {card}\n")


def test_a_good_map_and_a_card_without_one_pass(tmp_path):
    assert run(tmp_path) == []


@pytest.mark.parametrize("card, message", [
    ('{title: Bad, map: [". K .", "C . T"]}', "map: the map has 2 rows; it needs 3"),
    ('{title: Bad, map: [". K .", "C . T", ". . ."], walls: ["B1:Q"]}', "the side must be N, E, S or W"),
    ('{title: Bad, map: [". K .", "C . T", ". . T"]}', "map: 2 T spaces, expected exactly 1"),
    ('{title: Bad, map: ["K K .", "C . T", ". . ."]}', "3 K+C spaces, expected between 1 and 2"),
    ('{title: Bad, map: [". K .", ". C T", ". . ."]}', "C in B2 should be in column A"),
    ('{title: Bad, map: [". . .", "C . T", ". K ."]}', "K in B3 should be in row 1"),
    ('{title: Bad, map: [". K .", "C . T", ". . ."], walls: ["B1:W", "B1:E", "B1:S"]}',
     "cannot be reached from the west edge: B1 (K)"),
    ('{title: Bad, map: [". K .", "C . T", ". . ."], walls: ["C2:E"]}',
     "row 2 is closed on the E edge (C2:E); rows 2 must stay open"),
    ('{title: Bad, map: [". K .", "C . T", ". . ."], walls: ["A2:W"]}', "row 2 is closed on the W edge (A2:W)"),
])
def test_a_broken_map_is_a_finding_at_its_card(tmp_path, card, message):
    found = run(tmp_path, with_card(card))
    assert len(found) == 1, [str(v) for v in found]
    v = found[0]
    assert v.rule == "MAPS" and message in v.message and "(Bad)" in v.message
    assert v.path.endswith("maps.yaml") and len(v.cards) == 1
    assert v.line == (tmp_path / "cards/maps/decks/maps.yaml").read_text().splitlines().index(f"  - {card}") + 1


def test_unreachable_spaces_are_listed_together(tmp_path):
    # the whole west edge closed: nothing can be reached; each space is named once, in reading order
    card = '{title: Bad, map: ["K . .", "C . T", ". . ."], walls: ["A1:W", "A2:W", "A3:W"]}'
    rules = RULE.replace("      open_rows: [2]\n", "")
    found = run(tmp_path, with_card(card), rules)
    assert [v.message for v in found] == [
        "card MAP-002 (Bad): map: cannot be reached from the west edge: A1 (K), B1 (.), C1 (.), "
        "A2 (C), B2 (.), C2 (T), A3 (.), B3 (.), C3 (.)"]


@pytest.mark.parametrize("old, new, expect", [
    ("field: map", "field: mpa", "unknown field 'mpa' (did you mean 'map'?)"),
    ("walls: walls", "walls: wals", "unknown field 'wals'"),
    ('features: {T: 1, "K+C": {min: 1, max: 2}}', "features: {Q: 1}", "'Q' is not one of the map's symbols"),
    ('features: {T: 1, "K+C": {min: 1, max: 2}}', "features: {TT: 1}", "a map symbol is one character"),
    ("columns: {C: [A]}", "columns: {C: [D]}", "'D' is not a column letter"),
    ("rows: {K: [1]}", "rows: {K: [4]}", "row 4 is not a row of the map"),
    ("open_rows: [2]", "open_rows: [0]", "row 0 is not a row of the map"),
    ("border: [N, S]", "border: [Up]", "Input should be 'N', 'E', 'S' or 'W'"),
])
def test_a_wrong_grid_rule_is_an_input_error(tmp_path, old, new, expect):
    assert old in RULE
    with pytest.raises(InputError) as info:
        run(tmp_path, rules=RULE.replace(old, new))
    assert expect in info.value.problems[0].message


def test_count_bounds_take_the_rules_variants(tmp_path):
    rules = RULE.replace("features: {T: 1, ", "features: {T: {max: \"players - 2\"}, ").replace(
        "rules:\n  - id: MAPS\n", "rules:\n  - id: MAPS\n    variants: {players: [2, 3]}\n")
    found = run(tmp_path, rules=rules)
    assert [v.message for v in found] == [
        "card MAP-001 (Good): map: 1 T space, expected at most 0 (players = 2)"]


# --- the Swamped maps ----------------------------------------------------------------------------

SWAMPED = Path("cards/swamped/decks/deck.yaml")


def swamped(root):
    return check_game(load(Project(root), "swamped")).violations


def test_swamped_maps_pass(project):
    assert swamped(project.root) == []


def test_breaking_a_swamped_map_is_caught(scratch):
    path = scratch / SWAMPED
    text = path.read_text()
    start = text.index("map: [") + len("map: [")
    row = text[start:text.index(",", start)]          # the first card's first row, quoted
    path.write_text(text[:start] + row[:-3] + '"' + text[start + len(row):])   # drop its last cell
    found = [v for v in swamped(scratch) if v.severity == "error"]
    assert [v.rule for v in found] == ["SWD-24"]
    assert "row 1 has 5 cells; every row needs 6" in found[0].message
    assert found[0].path.endswith("deck.yaml")


def test_closing_the_channel_of_a_swamped_map_is_caught(scratch):
    path = scratch / SWAMPED
    text = path.read_text()
    start = text.index("walls: [") + len("walls: [")
    path.write_text(text[:start] + '"A3:W", ' + text[start:])
    found = [v for v in swamped(scratch) if v.severity == "error"]
    assert len(found) == 1 and found[0].rule == "SWD-24"
    assert "row 3 is closed on the W edge (A3:W)" in found[0].message


def _generator():
    spec = importlib.util.spec_from_file_location("swamped_maps", ROOT / "tools" / "swamped_maps.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("swamped_maps", module)   # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_generator_draws_maps_that_meet_the_rules(scratch):
    """Another seed gives other maps, and they too pass every Swamped rule, warnings included."""
    maps = _generator()
    files = maps.render_files(12345)
    assert files["deck.yaml"] != (ROOT / "cards/swamped/decks/deck.yaml").read_text()
    for name, text in files.items():
        (scratch / "cards/swamped/decks" / name).write_text(text)
    assert [str(v) for v in swamped(scratch)] == []


def test_wall_runs_counts_straight_chains():
    maps = _generator()
    grid = parse([". . .", ". . .", ". . ."], ["A1:E", "A2:E", "B2:S", "C3:E"])
    assert sorted(maps.wall_runs(grid)) == [1, 2]    # the east-edge segment is not an inner wall
    assert maps.wall_runs(parse([". . ."], ["A1:E", "B1:E"])) == [1, 1]   # parallel, not one run
    assert maps.wall_runs(parse([". . . ."], ["A1:E", "C1:E"])) == [1, 1]
    assert maps.wall_runs(parse([". .", ". .", ". .", ". ."], ["A1:E", "A2:E", "A4:E"])) == [2, 1]


def test_an_opening_symbol_with_no_icon_is_a_located_error_not_a_traceback(scratch):
    # found by tools/fuzz.py 55 1200: the map's parser allows an opening's symbol whether or not
    # the element gives it an icon; drawing one without an icon must say so where it is written
    from pnpgen.build import Options, build_loaded
    path = scratch / "templates" / "swamped" / "map.yaml"
    text = path.read_text()
    assert '"v": exit-down' in text
    path.write_text(text.replace('"v": exit-down', '"v ": exit-down'))
    with pytest.raises(InputError) as err:
        build_loaded(load(Project(scratch), "swamped"), Options(out=scratch / "out", rulebook=False))
    problem = err.value.problems[0]
    assert str(problem.path).endswith("map.yaml") and problem.line is not None
    assert "symbol 'v' (an opening) has no icon" in problem.message and "is 'v ' meant to be 'v'?" in problem.message
