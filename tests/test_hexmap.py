"""Hex-grid boards (pnpgen.hexmap): coordinates and geometry against the Red Blob Games
conventions, reading maps, the map rules, and the seeded Swarm board generator."""

from __future__ import annotations

import math
from collections import Counter, deque
from itertools import combinations

import pytest

from pnpgen.maps.hexmap import TERRAIN, UNIFORM, HexError, HexMap, board_hexes, generate, parse, problems, start_dens, start_hexes

TOPS = ("flat", "pointy")


def blank(cols, rows, top="flat", code="1") -> HexMap:
    return HexMap(cols, rows, top, tuple((code,) * cols for _ in range(rows)))


def every_hex(m):
    return [(c, r) for r in range(m.rows) for c in range(m.cols)]


def bfs_steps(m, start, allowed=None):
    """{hex: steps} from start, walking neighbour to neighbour over `allowed` (default: all)."""
    steps, queue = {start: 0}, deque([start])
    while queue:
        h = queue.popleft()
        for n in m.neighbours(*h):
            if n not in steps and (allowed is None or n in allowed):
                steps[n] = steps[h] + 1
                queue.append(n)
    return steps


def clusters(m, code):
    hexes = set(m.find(code))
    out = []
    while hexes:
        part = set(bfs_steps(m, min(hexes), hexes))
        out.append(part)
        hexes -= part
    return out


def close(p, q, tol=1e-9):
    return math.isclose(p[0], q[0], abs_tol=tol) and math.isclose(p[1], q[1], abs_tol=tol)


# --- neighbours and distance ---------------------------------------------------------------------

def test_neighbours_odd_q_match_red_blob_offsets_clockwise_from_north():
    m = blank(6, 6, "flat")
    # even column: not shoved; odd column: shoved down half a hex
    assert m.neighbours(2, 2) == [(2, 1), (3, 1), (3, 2), (2, 3), (1, 2), (1, 1)]
    assert m.neighbours(3, 2) == [(3, 1), (4, 2), (4, 3), (3, 3), (2, 3), (2, 2)]


def test_neighbours_odd_r_match_red_blob_offsets():
    m = blank(6, 6, "pointy")
    # even row: not shoved; odd row: shoved right half a hex. Clockwise from the upper-left edge.
    assert m.neighbours(2, 2) == [(1, 1), (2, 1), (3, 2), (2, 3), (1, 3), (1, 2)]
    assert m.neighbours(2, 3) == [(2, 2), (3, 2), (3, 3), (3, 4), (2, 4), (1, 3)]


@pytest.mark.parametrize("top, counts", [
    ("flat", {(0, 0): 2, (3, 0): 3, (0, 3): 3, (3, 3): 2,      # corners (column 3 is shoved down)
              (1, 0): 5, (2, 0): 3, (0, 1): 4, (3, 1): 4, (1, 3): 3, (2, 3): 5,  # edges
              (1, 1): 6, (2, 2): 6}),                           # inside
    ("pointy", {(0, 0): 2, (3, 0): 3, (0, 3): 3, (3, 3): 2,
                (0, 1): 5, (0, 2): 3, (1, 0): 4, (3, 1): 3, (1, 3): 4, (3, 2): 5,
                (1, 1): 6, (2, 2): 6}),
])
def test_neighbour_counts_in_corners_on_edges_and_inside(top, counts):
    m = blank(4, 4, top)
    assert {h: len(m.neighbours(*h)) for h in counts} == counts


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("cols, rows", [(1, 1), (1, 5), (5, 1), (4, 4), (7, 6)])
def test_neighbours_are_mutual_on_the_board_and_exactly_the_hexes_one_step_away(top, cols, rows):
    m = blank(cols, rows, top)
    for h in every_hex(m):
        near = m.neighbours(*h)
        assert len(near) == len(set(near)) <= 6
        assert all(m.on_board(*n) and h in m.neighbours(*n) for n in near)
        assert sorted(near) == sorted(x for x in every_hex(m) if m.distance(h, x) == 1)


@pytest.mark.parametrize("top", TOPS)
def test_distance_is_symmetric_and_counts_the_steps_of_a_shortest_walk(top):
    m = blank(7, 6, top)
    for a in every_hex(m):
        steps = bfs_steps(m, a)
        for b in every_hex(m):
            assert m.distance(a, b) == m.distance(b, a) == steps[b]


def test_known_distances():
    assert blank(10, 10, "flat").distance((0, 0), (9, 9)) == 14   # odd-q: this diagonal is long
    assert blank(10, 10, "flat").distance((9, 0), (0, 9)) == 13
    assert blank(10, 10, "pointy").distance((0, 0), (9, 0)) == 9


# --- geometry ------------------------------------------------------------------------------------

ACROSS = 32.0
SIZE = ACROSS / math.sqrt(3)          # centre to corner = side length


def test_flat_centres_step_three_quarters_of_a_width_across_and_one_flat_down():
    m = blank(4, 3, "flat")
    corner_to_corner = 2 * SIZE
    x0, y0 = m.centre(0, 0, ACROSS)
    x1, y1 = m.centre(1, 0, ACROSS)
    assert math.isclose(x1 - x0, 0.75 * corner_to_corner)
    assert math.isclose(y1 - y0, ACROSS / 2)                 # odd column shoved down half a hex
    assert math.isclose(m.centre(0, 1, ACROSS)[1] - y0, ACROSS)
    assert math.isclose(m.centre(2, 0, ACROSS)[1], y0)       # even columns line up again
    assert close((x0, y0), (SIZE, ACROSS / 2))               # the top-left hex touches (0, 0)


def test_pointy_centres_step_one_flat_across_and_three_quarters_down():
    m = blank(4, 3, "pointy")
    x0, y0 = m.centre(0, 0, ACROSS)
    assert math.isclose(m.centre(1, 0, ACROSS)[0] - x0, ACROSS)
    x1, y1 = m.centre(0, 1, ACROSS)
    assert math.isclose(y1 - y0, 0.75 * 2 * SIZE)
    assert math.isclose(x1 - x0, ACROSS / 2)                 # odd row shoved right half a hex
    assert close((x0, y0), (ACROSS / 2, SIZE))


@pytest.mark.parametrize("top", TOPS)
def test_centres_are_across_apart_exactly_for_neighbours(top):
    m = blank(5, 4, top)
    for a, b in combinations(every_hex(m), 2):
        gap = math.dist(m.centre(*a, ACROSS), m.centre(*b, ACROSS))
        if m.distance(a, b) == 1:
            assert math.isclose(gap, ACROSS)
        else:
            assert gap > 1.5 * ACROSS


@pytest.mark.parametrize("top", TOPS)
def test_corners_are_a_regular_hexagon_clockwise_from_the_top_left(top):
    m = blank(3, 3, top)
    pts = m.corners(1, 1, ACROSS)
    x, y = m.centre(1, 1, ACROSS)
    assert len(pts) == 6
    assert all(math.isclose(math.dist(p, (x, y)), SIZE) for p in pts)
    assert all(math.isclose(math.dist(pts[i], pts[i - 1]), SIZE) for i in range(6))
    assert pts[0] == min(pts, key=lambda p: p[0] + p[1])
    # shoelace with y down: positive area = clockwise on the page
    area = sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(6)) / 2
    assert math.isclose(area, 3 * math.sqrt(3) / 2 * SIZE ** 2)
    if top == "flat":
        assert close(pts[0], (x - SIZE / 2, y - ACROSS / 2)) and close(pts[1], (x + SIZE / 2, y - ACROSS / 2))
    else:
        assert close(pts[0], (x - ACROSS / 2, y - SIZE / 2)) and close(pts[1], (x, y - SIZE))


@pytest.mark.parametrize("top", TOPS)
def test_neighbour_i_shares_the_edge_from_corner_i_to_corner_i_plus_1(top):
    m = blank(5, 5, top)
    for h in [(2, 2), (1, 2), (2, 1)]:
        mine = m.corners(*h, ACROSS)
        for i, n in enumerate(m.neighbours(*h)):     # an inner hex: all six, in DIRECTIONS order
            theirs = m.corners(*n, ACROSS)
            shared = [k for k, p in enumerate(mine) if any(close(p, q, 1e-6) for q in theirs)]
            assert shared == sorted([i, (i + 1) % 6])


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("cols, rows", [(1, 1), (1, 4), (4, 1), (2, 2), (10, 10), (7, 5)])
def test_extent_is_the_bounding_box_of_every_corner_from_0_0(top, cols, rows):
    m = blank(cols, rows, top)
    pts = [p for h in every_hex(m) for p in m.corners(*h, ACROSS)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    assert math.isclose(min(xs), 0, abs_tol=1e-9) and math.isclose(min(ys), 0, abs_tol=1e-9)
    w, h = m.extent(ACROSS)
    assert math.isclose(w, max(xs)) and math.isclose(h, max(ys))


def test_extent_formula_for_the_swarm_board():
    # docs/print-reference.md §4: flat w = size(1.5C + 0.5), h = F·R + F/2; pointy the other way round
    w, h = blank(10, 10, "flat").extent(ACROSS)
    assert math.isclose(w, SIZE * 15.5) and math.isclose(h, ACROSS * 10.5)
    w, h = blank(10, 8, "pointy").extent(ACROSS)
    assert math.isclose(w, ACROSS * 10.5) and math.isclose(h, SIZE * 12.5)


@pytest.mark.parametrize("across", [0, -3, "32", None])
def test_geometry_needs_a_positive_width(across):
    with pytest.raises(HexError, match="flat-to-flat width"):
        blank(2, 2).centre(0, 0, across)


def test_labels_are_column_then_row_from_1():
    m = blank(12, 12)
    assert m.label(0, 0) == "0101"
    assert m.label(9, 11) == "1012"
    assert m.label(2, 0) == "0301"


def test_terrain_off_the_board_is_an_error_not_a_wrap():
    m = parse(["1 2", "3 4"])
    assert m.terrain(1, 0) == "2" and m.terrain(0, 1) == "3"
    with pytest.raises(HexError, match="off the board"):
        m.terrain(-1, 0)


# --- reading maps --------------------------------------------------------------------------------

def test_parse_reads_rows_top_first_and_round_trips():
    rows = ["1 2 5 0 6", "3 4 7 8 9"]
    m = parse(rows, "pointy")
    assert (m.cols, m.rows, m.top) == (5, 2, "pointy")
    assert m.terrain(2, 0) == "5" and m.terrain(4, 1) == "9"
    assert m.find("6") == [(4, 0)]
    assert m.rows_text() == rows
    assert parse(["1  2 5", " 6 0 3 "]).rows_text() == ["1 2 5", "6 0 3"]


@pytest.mark.parametrize("rows, top, codes, message", [
    (["1 2 3", "4 5"], "flat", None, "row 2 has 2 hexes; every row needs 3"),
    (["1 2 3", "4 X 6"], "flat", None, r"hex 0202 .* holds 'X', which is not a terrain code; use one of: 0 1 2"),
    (["1 2", "3 4"], "flat", {"1", "2", "3"}, "hex 0202 .* holds '4'"),
    (["1 2", ""], "flat", None, "row 2 is empty"),
    (["1 2", 5], "flat", None, "row 2 is 5; write each row as one quoted string"),
    ([], "flat", None, "no rows"),
    ("1 2 3", "flat", None, "list of row strings"),
    (["1 2"], "round", None, "top is 'round'; use 'flat'"),
])
def test_parse_errors_say_what_and_where(rows, top, codes, message):
    with pytest.raises(HexError, match=message):
        parse(rows, top, codes)


def test_parse_takes_a_games_own_codes():
    assert parse(["a b", "c a"], codes={"a", "b", "c"}).find("a") == [(0, 0), (1, 1)]


# --- start positions and map problems ------------------------------------------------------------

def test_start_hexes_are_opposite_corners_then_the_other_corners():
    assert start_hexes(10, 10, "flat", 2) == [(0, 0), (9, 9)]
    assert start_hexes(10, 10, "flat", 3) == [(0, 0), (9, 9), (9, 0)]
    assert start_hexes(10, 10, "flat", 4) == [(0, 0), (9, 9), (9, 0), (0, 9)]
    assert start_hexes(9, 8, "pointy", 4) == [(0, 0), (8, 7), (8, 0), (0, 7)]


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("cols, rows", [(10, 10), (8, 9), (9, 6), (3, 7), (1, 5)])
def test_two_starts_are_as_far_apart_as_any_two_hexes(top, cols, rows):
    m = blank(cols, rows, top)
    a, b = start_hexes(cols, rows, top, 2)
    assert m.distance(a, b) == max(m.distance(p, q) for p, q in combinations(every_hex(m), 2))


def test_more_players_than_corners_spread_out_over_the_board():
    starts = start_hexes(10, 10, "flat", 6)
    assert len(set(starts)) == 6 and starts[:4] == start_hexes(10, 10, "flat", 4)
    m = blank(10, 10)
    assert min(m.distance(a, b) for a, b in combinations(starts, 2)) >= 4
    assert start_hexes(3, 1, "flat", 3) == [(0, 0), (2, 0), (1, 0)]


def test_start_dens_fall_back_to_the_nearest_den():
    rows = ["6 1 1 1 1",
            "1 1 1 1 1",
            "1 1 1 6 1",
            "1 1 1 1 6"]
    m = parse(rows)
    assert start_dens(m, 2) == [(0, 0), (4, 3)]
    assert start_dens(m, 3) == [(0, 0), (4, 3), (3, 2)]   # the top-right corner is not a Den
    assert start_dens(m, 4) == [(0, 0), (4, 3), (3, 2)]   # only three Dens
    rows = ["6 1 1 1 1",
            "1 6 1 1 6",
            "1 1 1 1 1",
            "1 1 1 1 6"]
    # the top-right corner's player takes 0502, one step away, not 0202 that comes first in reading
    assert start_dens(parse(rows), 4) == [(0, 0), (4, 3), (4, 1), (1, 1)]


def test_a_good_map_has_no_problems():
    rows = ["6 1 2 3 6",
            "1 5 2 3 1",
            "4 1 7 0 9",
            "6 8 2 4 6"]
    assert problems(parse(rows), 4) == []


def test_problems_too_few_dens():
    m = parse(["6 1 2", "1 2 3", "3 4 6"])
    assert problems(m, 2) == []
    [msg] = problems(m, 4)
    assert "2 Dens (0101 0303) for 4 players" in msg and "add 2 more (code 6)" in msg


def test_problems_start_dens_closer_than_the_board_allows():
    rows = ["6 2 3 4 1",
            "1 8 9 2 3",
            "2 4 1 3 9",
            "3 1 2 6 4"]
    assert problems(parse(rows), 2) == []      # 0404 is as far from 0101 as the corner 0504
    rows = ["6 2 3 4 1",
            "1 8 9 2 6",
            "2 4 1 3 9",
            "3 1 2 8 4"]
    assert problems(parse(rows), 2) == ["the start Dens 0101 and 0502 are 4 steps apart, but the board "
                                        "allows 5: make 0101 0504 Dens (code 6), one start per player"]


def test_problems_water_cutting_the_land():
    rows = ["6 1 5 2 3",
            "2 3 5 4 1",
            "4 5 9 8 6"]
    assert problems(parse(rows), 2) == []      # odd-q: 0202 touches 0303 below the water
    rows = ["6 1 5 2 3",
            "2 5 5 4 1",
            "4 5 9 8 6"]
    assert problems(parse(rows), 2, max_cluster={"5": 4}) == [
        "water cuts the land in two: 0101 0201 0102 0103 cannot be reached from 0401 without crossing "
        "water; change a Water hex (5) between them to land"]


def test_problems_clusters_bigger_than_allowed():
    rows = ["6 7 7 1 1",
            "2 7 7 1 1",
            "3 4 1 1 6"]
    assert problems(parse(rows), 2) == [
        "6 Dirt (1) hexes touch (0401 0501 0402 0502 0303 0403); at most 5 may: change one to another terrain",
        "4 Mud (7) hexes touch (0201 0301 0202 0302); at most 3 may: change one to another terrain"]
    assert problems(parse(rows), 2, max_cluster={"7": 4, "1": 6}) == []
    big = parse(["6 1 1 1 1", "1 1 1 1 1", "1 1 1 1 6"])
    assert "13 Dirt (1) hexes touch (0201 0301 0401 0501 0102 0202 0302 0402 and 5 more)" in problems(big, 2)[0]
    with pytest.raises(HexError, match="whole number of hexes"):
        problems(parse(rows), 2, max_cluster={"7": 0})


# --- the generator -------------------------------------------------------------------------------

SKEWED = {"1": 4, "2": 2, "3": 2, "4": 2, "5": 1, "6": 1, "7": 1, "8": 2, "9": 2, "0": 1}
LIMITS = {"5": 3, "7": 3, "0": 3}


def test_same_seed_same_board_different_seed_different_board():
    a = generate(10, 10, "flat", UNIFORM, seed=7)
    assert generate(10, 10, "flat", dict(reversed(list(UNIFORM.items()))), seed=7).rows_text() == a.rows_text()
    boards = {tuple(generate(10, 10, "flat", UNIFORM, seed=s).rows_text()) for s in range(50)}
    assert len(boards) == 50


def test_a_seed_draws_the_same_board_as_when_it_was_printed():
    # SW-15: a seed printed on a board must redraw it. If this fails, every printed seed now
    # names another board: change the generator only on purpose, and update these rows.
    assert generate(8, 6, "flat", UNIFORM, seed=15, players=2).rows_text() == [
        "6 9 0 7 1 9 0 8", "7 8 9 2 3 7 2 2", "2 8 8 7 2 9 5 2",
        "4 4 0 5 3 5 9 6", "4 8 9 4 9 0 1 1", "9 6 7 2 4 8 0 6"]
    assert generate(6, 5, "pointy", UNIFORM, seed=15, players=3).rows_text() == [
        "6 9 0 7 1 6", "9 0 8 6 8 9", "2 3 7 2 2 2", "8 8 7 2 9 4", "2 4 4 0 6 6"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("top, weights", [("flat", UNIFORM), ("pointy", SKEWED)])
def test_generated_boards_keep_every_map_rule(players, top, weights):
    for seed in range(200):
        m = generate(10, 10, top, weights, seed=seed, players=players)
        assert problems(m, players) == [], seed
        starts = start_hexes(10, 10, top, players)
        assert all(m.terrain(*h) == "6" for h in starts), seed
        assert start_dens(m, players) == starts
        assert all(m.terrain(*n) != "5" for h in starts for n in m.neighbours(*h)), seed
        land = {h for h in every_hex(m) if m.terrain(*h) != "5"}
        assert set(bfs_steps(m, min(land), land)) == land, seed
        for code in TERRAIN:
            limit = LIMITS.get(code, 5)
            assert all(len(part) <= limit for part in clusters(m, code)), (seed, code)


@pytest.mark.parametrize("top", TOPS)
def test_water_is_refused_exactly_where_it_would_cut_the_land(top):
    # every pattern of water on a 4 x 3 board, against a plain search: water in h cuts the land
    # when h's land neighbours no longer all reach each other (hexes not drawn count as land)
    from pnpgen.maps.hexmap import _Board, _cuts_land
    m, board = blank(4, 3, top), _Board(4, 3, top)
    hexes = every_hex(m)
    cuts = 0
    for pattern in range(1 << len(hexes)):
        water = {h for k, h in enumerate(hexes) if pattern >> k & 1}
        cells = ["5" if h in water else None for h in hexes]
        for h in hexes:
            if h in water:
                continue
            land = set(hexes) - water - {h}
            near = [n for n in m.neighbours(*h) if n in land]
            expected = bool(near) and not set(near) <= set(bfs_steps(m, near[0], land))
            assert _cuts_land(board, cells, board.index(*h), "5") == expected, (sorted(water), h)
            cuts += expected
    assert cuts > 1000        # the search met plenty of cuts, not only open boards


def test_heavy_water_still_leaves_one_piece_of_land():
    weights = dict(UNIFORM, **{"5": 4.0})      # about 30 % Water asked for
    water = 0
    for seed in range(60):
        m = generate(10, 10, "flat", weights, seed=seed)
        land = {h for h in every_hex(m) if m.terrain(*h) != "5"}
        assert set(bfs_steps(m, min(land), land)) == land, seed
        assert problems(m, 4) == [], seed
        water += len(m.find("5"))
    assert water / 60 >= 18                    # the water is there (~1 hex in 5), only placed with care


@pytest.mark.parametrize("weights", [UNIFORM, SKEWED])
def test_the_terrain_mix_follows_the_weights(weights):
    counts = Counter()
    starts = set(start_hexes(10, 10, "flat", 4))
    for seed in range(200):
        m = generate(10, 10, "flat", weights, seed=seed)
        counts.update(m.terrain(*h) for h in every_hex(m) if h not in starts)
    total, weight = sum(counts.values()), sum(weights.values())
    for code, w in weights.items():
        # the rules nudge the mix (Water least often, as it may not cut the land or touch a
        # start Den): within 15 % of each terrain's share
        assert counts[code] / total == pytest.approx(w / weight, rel=0.15), code


def test_generator_respects_custom_cluster_limits_and_codes():
    weights = {"a": 3, "b": 2, "c": 2, "w": 1}
    for seed in range(30):
        m = generate(12, 9, "pointy", weights, seed=seed, players=2, den="d", water="w",
                     max_cluster={"a": 2, "w": 1})
        assert problems(m, 2, den="d", water="w", max_cluster={"a": 2, "w": 1}) == []
        assert all(len(part) <= 2 for part in clusters(m, "a"))
        assert all(len(part) == 1 for part in clusters(m, "w"))
        assert set(x for line in m.cells for x in line) <= {"a", "b", "c", "w", "d"}


def test_generator_handles_more_players_and_tiny_boards():
    m = generate(12, 12, "flat", UNIFORM, seed=3, players=6)
    assert problems(m, 6) == [] and len(m.find("6")) >= 6
    assert generate(1, 1, "flat", UNIFORM, seed=0, players=1).rows_text() == ["6"]


@pytest.mark.parametrize("weights, message", [
    ({"1": 1}, r"no terrain fits hex \d{4}: Dirt \(1\) would make a cluster of more than 5"),
    ({"5": 1}, r"Water \(5\) may not touch a start Den"),
    ({"1": 0}, "all 0"),
    ({}, "weights should map"),
    ({"1": -1}, r"weights\['1'\] is -1"),
    ({"1 2": 1}, "not a terrain code"),
])
def test_impossible_or_bad_weights_say_why(weights, message):
    with pytest.raises(HexError, match=message):
        generate(10, 10, "flat", weights, seed=1)


@pytest.mark.parametrize("kwargs, message", [
    ({"cols": 0}, "cols is 0"),
    ({"rows": 100}, "rows is 100"),
    ({"top": "hex"}, "top is 'hex'"),
    ({"players": 0}, "players is 0"),
    ({"seed": -4}, "seed is -4"),
    ({"seed": "x"}, "seed is 'x'"),
    ({"den": "5"}, "two different terrain codes"),
])
def test_bad_generator_arguments(kwargs, message):
    args = dict(cols=10, rows=10, top="flat", weights=UNIFORM, seed=1) | kwargs
    with pytest.raises(HexError, match=message):
        generate(**args)


# --- hexes not on the board and hexagon boards ---------------------------------------------------

def test_parse_reads_dash_as_a_hex_not_on_the_board():
    rows = ["- - 1 2 -", "6 1 2 3 6"]
    m = parse(rows)
    assert (m.cols, m.rows) == (5, 2)
    assert m.rows_text() == rows
    assert m.hexes() == [(2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]
    assert not m.on_board(0, 0) and m.on_board(2, 0) and m.in_grid(0, 0)
    assert m.find("-") == [] and m.find("6") == [(0, 1), (4, 1)]
    with pytest.raises(HexError, match="not on the board"):
        m.terrain(4, 0)
    assert parse(["- 1", "a -"], codes={"a", "1"}).hexes() == [(1, 0), (0, 1)]
    with pytest.raises(HexError, match="every hex is -"):
        parse(["- -", "- -"])


@pytest.mark.parametrize("top", TOPS)
def test_neighbours_skip_hexes_not_on_the_board(top):
    full = blank(5, 5, top)
    rows = [" ".join("-" if (c + r) % 3 == 0 else "1" for c in range(5)) for r in range(5)]
    m = parse(rows, top)
    for h in m.hexes():
        near = m.neighbours(*h)
        assert near == [n for n in full.neighbours(*h) if m.on_board(*n)]
        assert all(m.terrain(*n) == "1" for n in near)
    # (1, 1) loses the absent hexes around it
    assert len(m.neighbours(1, 1)) < len(full.neighbours(1, 1))


def test_absent_hexes_are_not_counted_or_connected_in_problems():
    # the Dens stand on both sides of a gap of absent hexes, like water but not water: the land
    # is in two pieces, and no '-' is ever named
    rows = ["6 1 - 2 3",
            "2 1 - 4 1",
            "4 3 - 8 6"]
    [msg] = problems(parse(rows), 2)
    assert "0401 0501 0402 0502 0403 0503 cannot be reached from 0101" in msg
    rows = ["6 1 - 2 3",
            "2 1 2 4 1",
            "4 3 - 8 6"]
    assert problems(parse(rows), 2) == []
    with pytest.raises(HexError, match="players is 5"):
        problems(parse(["6 - 6", "- 6 -", "6 - -"]), 5)


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("cols, rows", [(9, 9), (10, 10), (9, 12), (13, 8), (3, 3), (2, 2)])
def test_a_hexagon_board_is_every_hex_within_r_of_the_centre(top, cols, rows):
    radius = (min(cols, rows) - 1) // 2
    centre = ((cols - 1) // 2, (rows - 1) // 2)
    hexes = board_hexes(cols, rows, top, "hexagon")
    assert len(hexes) == 3 * radius * (radius + 1) + 1          # a full hexagon: nothing clipped
    grid = blank(cols, rows, top)
    assert hexes == [h for h in every_hex(grid) if grid.distance(centre, h) <= radius]


@pytest.mark.parametrize("top", TOPS)
def test_a_9_by_9_hexagon_board_has_61_hexes(top):
    m = generate(9, 9, top, UNIFORM, seed=1, players=2, shape="hexagon")
    assert len(m.hexes()) == 61 and m.shape == "hexagon"
    assert sum(x != "-" for line in m.rows_text() for x in line.split()) == 61
    assert parse(m.rows_text(), top).hexes() == m.hexes()
    assert all(m.distance((4, 4), h) <= 4 for h in m.hexes())
    assert all(m.distance((4, 4), (c, r)) > 4 for c, r in every_hex(m) if m.cells[r][c] == "-")


def hexagon_corners(cols, rows, top):
    m = blank(cols, rows, top)
    centre, radius = ((cols - 1) // 2, (rows - 1) // 2), (min(cols, rows) - 1) // 2
    ring = [h for h in every_hex(m) if m.distance(centre, h) == radius]
    # a corner of the hexagon has only 3 neighbours on it (the rim's other hexes have 4)
    inside = set(board_hexes(cols, rows, top, "hexagon"))
    return {h for h in ring if sum(n in inside for n in m.neighbours(*h)) == 3}


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("cols, rows", [(9, 9), (10, 10), (11, 8)])
def test_hexagon_start_hexes_are_its_corners_as_far_apart_as_possible(top, cols, rows):
    corners = hexagon_corners(cols, rows, top)
    radius = (min(cols, rows) - 1) // 2
    assert len(corners) == 6
    m = blank(cols, rows, top)
    for players in (2, 3, 4):
        starts = start_hexes(cols, rows, top, players, "hexagon")
        assert len(set(starts)) == players and set(starts) <= corners
        closest = min(m.distance(a, b) for a, b in combinations(starts, 2))
        best = max(min(m.distance(a, b) for a, b in combinations(group, 2))
                   for group in combinations(sorted(corners), players))
        assert closest == best
    two = start_hexes(cols, rows, top, 2, "hexagon")
    assert m.distance(*two) == 2 * radius
    centre = ((cols - 1) // 2, (rows - 1) // 2)
    cx, cy = m.centre(*centre, ACROSS)
    (ax, ay), (bx, by) = (m.centre(*h, ACROSS) for h in two)
    assert close(((ax + bx) / 2, (ay + by) / 2), (cx, cy))    # opposite: the centre lies between
    four = start_hexes(cols, rows, top, 4, "hexagon")
    assert four[:2] == two and m.distance(*four[2:]) == 2 * radius   # two opposite pairs
    assert set(start_hexes(cols, rows, top, 6, "hexagon")) == corners


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("top, weights", [("flat", UNIFORM), ("pointy", SKEWED)])
def test_generated_hexagon_boards_keep_every_map_rule(players, top, weights):
    inside = set(board_hexes(9, 9, top, "hexagon"))
    corners = hexagon_corners(9, 9, top)
    for seed in range(100):
        m = generate(9, 9, top, weights, seed=seed, players=players, shape="hexagon")
        assert set(m.hexes()) == inside, seed
        assert all(m.cells[r][c] == "-" for c, r in every_hex(m) if (c, r) not in inside), seed
        assert problems(m, players) == [], seed
        starts = start_hexes(9, 9, top, players, "hexagon")
        assert set(starts) <= corners
        assert all(m.terrain(*h) == "6" for h in starts), seed
        assert start_dens(m, players) == starts
        assert all(m.terrain(*n) != "5" for h in starts for n in m.neighbours(*h)), seed
        land = {h for h in m.hexes() if m.terrain(*h) != "5"}
        assert set(bfs_steps(m, min(land), land)) == land, seed
        for code in TERRAIN:
            limit = LIMITS.get(code, 5)
            assert all(len(part) <= limit for part in clusters(m, code)), (seed, code)


def test_hexagon_boards_are_reproducible_by_seed():
    a = generate(9, 9, "flat", UNIFORM, seed=11, players=3, shape="hexagon")
    b = generate(9, 9, "flat", dict(reversed(list(UNIFORM.items()))), seed=11, players=3, shape="hexagon")
    assert a == b
    boards = {tuple(generate(9, 9, "pointy", UNIFORM, seed=s, shape="hexagon").rows_text()) for s in range(30)}
    assert len(boards) == 30
    # the default outline is still the rectangle, drawn exactly as before
    assert generate(8, 6, "flat", UNIFORM, seed=15, players=2, shape="rect") == \
        generate(8, 6, "flat", UNIFORM, seed=15, players=2)


@pytest.mark.parametrize("kwargs, message", [
    ({"shape": "circle"}, "shape is 'circle'"),
    ({"cols": 3, "rows": 3, "players": 8}, "players is 8; give a whole number from 1 to 7"),
    ({"weights": {"-": 1, "1": 1}}, "not a terrain code"),
])
def test_bad_hexagon_arguments(kwargs, message):
    args = dict(cols=9, rows=9, top="flat", weights=UNIFORM, seed=1, shape="hexagon") | kwargs
    with pytest.raises(HexError, match=message):
        generate(**args)
