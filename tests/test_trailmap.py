"""Trail boards (the Swamp Fox board): the pure parser and graph of pnpgen/maps/trailmap.py, the
bundled board's graph and layout, the `trails` rules-check on broken boards, and the
`trails` element's drawing."""

from __future__ import annotations

import copy
import math
from collections import Counter
from pathlib import Path

import pytest

from pnpgen import ops
from pnpgen.maps import trailmap
from pnpgen.build import Project, load
from pnpgen.errors import InputError
from pnpgen.rules.ruleset import check_game
from pnpgen.maps.trailmap import TrailError, parse

BOARD = Path("cards/swamp-fox/boards/board.yaml")
RULES = Path("cards/swamp-fox/rules.yaml")
TOWNS = ["Kingstree", "Georgetown", "Black Mingo", "Nelson's Ferry", "Fort Watson", "Fort Motte", "Camden",
         "Halfway Swamp", "Tearcoat Swamp", "Eutaw Springs", "Parker's Ferry", "Charleston"]

PLACES = {
    "home": {"x": 100, "y": 100, "kind": "hub", "name": "Home"},
    "x": {"x": 100, "y": 40, "kind": "safety"},
    "a": {"x": 40, "y": 20, "kind": "town", "name": "Alpha"},
    "b": {"x": 160, "y": 20, "kind": "town", "name": "Beta"},
}
TRAILS = [
    {"from": "home", "to": "x", "spaces": 2},
    {"from": "x", "to": "a", "spaces": 1},
    {"from": "x", "to": "b", "spaces": 3, "via": [[140, 40]]},
]


def tiny():
    return parse(PLACES, TRAILS)


# --- the parser and the graph -------------------------------------------------------------

def test_every_space_is_a_node_and_a_town_is_its_ring():
    tm = tiny()
    assert [n.id for n in tm.plain_spaces()] == ["1.1", "1.2", "2.1", "3.1", "3.2", "3.3"]
    assert len(tm.nodes) == 1 + 1 + 6 + 2 * 3      # hub, safety, plain spaces, two rings of 3
    assert (tm.degree("x"), tm.degree("home"), tm.degree("a")) == (3, 1, 1)
    # the trail runs home - 1.1 - 1.2 - x; its end joins circle 1 of the town
    assert set(tm.neighbours("1.1")) == {"home", "1.2"}
    assert set(tm.neighbours("2.1")) == {"x", "a#1"}
    # the ring: trail end -> 1 -> 2 -> 3 -> back to 1
    assert set(tm.neighbours("a#1")) == {"2.1", "a#2", "a#3"}
    assert set(tm.neighbours("a#2")) == {"a#1", "a#3"}
    assert set(tm.neighbours("a#3")) == {"a#2", "a#1"}
    assert tm.nodes["a#2"].label == "circle 2 of Alpha"


def test_reachability_dead_ends_and_walks():
    tm = tiny()
    assert tm.reachable("home") == set(tm.nodes)
    assert [p.id for p in tm.dead_ends()] == ["home", "a", "b"]
    # a walk never steps straight back
    assert tm.walks("2.1", 2) == {"1.2", "3.1", "a#2", "a#3"}
    assert tm.walks("1.2", 2) == {"home", "2.1", "3.1"}
    # a move ends on the hub: it may stop there but not pass through
    assert tm.walks("1.2", 3, stop={"home"}) == {"a#1", "3.2"}
    # round a town's ring and on: a walk can always go on in a loop
    assert "a#1" in tm.walks("a#1", 3)


def test_a_town_takes_a_circle_count_and_a_label():
    places = copy.deepcopy(PLACES)
    places["a"].update(circles=5, label="sw")
    tm = parse(places, TRAILS)
    assert tm.places["a"].circles == 5 and tm.places["a"].label == "sw"
    assert set(tm.neighbours("a#5")) == {"a#4", "a#1"}


def _broken(edit):
    places, trails = copy.deepcopy(PLACES), copy.deepcopy(TRAILS)
    edit(places, trails)
    return places, trails


@pytest.mark.parametrize("edit,message,where", [
    (lambda p, t: t[1].update(to="alpha"), "trail 2: to: unknown place 'alpha'", ("trails", 1, "to")),
    (lambda p, t: t[0].update(to="hme"), "unknown place 'hme' (did you mean 'home'?)", ("trails", 0, "to")),
    (lambda p, t: t[0].update(to="home"), "trail 1 (home -> home) leads from a place to itself", ("trails", 0)),
    (lambda p, t: t[2].update(spaces=-1), "trail 3 (x -> b): spaces is -1; it should be 0 to 200",
     ("trails", 2, "spaces")),
    (lambda p, t: t[2].update(spaces="3"), "spaces is '3'; give the number of plain spaces", ("trails", 2, "spaces")),
    (lambda p, t: t[2].pop("spaces"), "spaces is None", ("trails", 2, "spaces")),
    (lambda p, t: t[2].update(via=[[1]]), "via point 1 is [1]; write it [x, y]", ("trails", 2, "via", 0)),
    (lambda p, t: t[2].update(sapces=3), "trail 3: unknown key 'sapces'", ("trails", 2)),
    (lambda p, t: t.append({"from": "home", "to": "a", "spaces": 4}), "town 'a' ends 2 trails (2, 4)",
     ("places", "a")),
    (lambda p, t: p["x"].update(kind="junction"), "place 'x': kind 'junction' is not one of hub, safety, town, space",
     ("places", "x", "kind")),
    (lambda p, t: p["x"].pop("y"), "place 'x' has no y:", ("places", "x")),
    (lambda p, t: p["x"].update(x="left"), "place 'x': x is 'left'; it should be a number", ("places", "x", "x")),
    (lambda p, t: p["x"].update(circles=3), "place 'x': circles: is for towns (this is a safety)",
     ("places", "x", "circles")),
    (lambda p, t: p["a"].update(circles=0), "town 'a': circles is 0; give a whole number from 1 to 8",
     ("places", "a", "circles")),
    (lambda p, t: p["a"].pop("name"), "town 'a' has no name:", ("places", "a")),
    (lambda p, t: p["a"].update(label="up"), "place 'a': label 'up' is not a compass point", ("places", "a", "label")),
])
def test_every_error_says_what_is_wrong_and_where(edit, message, where):
    with pytest.raises(TrailError) as exc:
        parse(*_broken(edit))
    assert message in str(exc.value)
    assert exc.value.where == where


@pytest.mark.parametrize("places,trails,message", [
    ([], [], "places should be a mapping"),
    ({}, [], "places is empty"),
    (PLACES, {"from": "home"}, "trails should be a list"),
])
def test_the_shape_of_the_data_is_checked(places, trails, message):
    with pytest.raises(TrailError, match=message):
        parse(places, trails)


def test_spaces_are_spread_evenly_between_the_end_places():
    """Equal gaps between neighbouring circles, the larger end places included."""
    tm = parse({"h": {"x": 0, "y": 0, "kind": "hub", "name": "H"}, "s": {"x": 200, "y": 0, "kind": "safety"}},
               [{"from": "h", "to": "s", "spaces": 5}])
    g = trailmap.geometry(tm)
    chain = ["h"] + [f"1.{k}" for k in range(1, 6)] + ["s"]
    gaps = [math.dist(g.centre[a], g.centre[b]) - (g.size[a] + g.size[b]) / 2 for a, b in zip(chain, chain[1:])]
    assert max(gaps) - min(gaps) < 1e-9
    assert all(y == 0 for _, y in (g.centre[n] for n in chain))


# --- the bundled board --------------------------------------------------------------------

@pytest.fixture(scope="module")
def board(project):
    game = load(project, "swamp-fox")
    (src,) = game.boards
    fields = src.board.fields
    return src, parse(fields["places"], fields["trails"])


def test_the_bundled_board_is_the_reconstructed_graph(board):
    _, tm = board
    assert len(tm.plain_spaces()) == 144
    (hub,) = tm.of_kind("hub")
    assert hub.name == "Snow's Island" and tm.degree(hub.id) == 4
    safeties = tm.of_kind("safety")
    assert len(safeties) == 4 and all(tm.degree(p.id) >= 3 for p in safeties)
    towns = tm.of_kind("town")
    assert sorted(p.name for p in towns) == sorted(TOWNS)
    assert all(p.circles == 3 for p in towns)
    assert tm.reachable(hub.id) == set(tm.nodes)
    assert {p.kind for p in tm.dead_ends()} == {"town"}
    # trunks of 6 from the hub; 4 connecting trails of 6 between junction spaces
    assert sorted(t.spaces for t in tm.trails_at(hub.id)) == [6, 6, 6, 6]
    joins = [t for t in tm.trails if tm.places[t.start].kind == tm.places[t.end].kind == "space"]
    assert [t.spaces for t in joins] == [6, 6, 6, 6]


def test_each_intersection_branches_into_trails_of_7_8_and_9_spaces(board):
    """Along the branches alone (connecting trails left out), each town lies 7, 8 or 9 plain
    spaces beyond its red intersection, and each intersection has one of each."""
    _, tm = board
    branch = [t for t in tm.trails if tm.places[t.start].kind != "hub"
              and not tm.places[t.start].kind == tm.places[t.end].kind == "space"]
    lengths = {}
    for s in tm.of_kind("safety"):
        todo = [(s.id, 0)]
        seen = {s.id}
        while todo:
            place, count = todo.pop()
            for t in branch:
                if place in (t.start, t.end):
                    other = t.end if t.start == place else t.start
                    if other in seen:
                        continue
                    seen.add(other)
                    n = count + t.spaces + (tm.places[other].kind == "space")
                    if tm.places[other].kind == "town":
                        lengths.setdefault(s.id, []).append(n)
                    else:
                        todo.append((other, n))
    assert {s: sorted(v) for s, v in lengths.items()} == {s.id: [7, 8, 9] for s in tm.of_kind("safety")}


def test_the_bundled_board_lays_out_clear(board):
    """Spaces that are not neighbours always stand further apart than neighbours do (so a
    player can tell which spaces a trail joins), no circles touch, no trail crosses another,
    and everything lies inside the board's frame."""
    src, tm = board
    g = trailmap.geometry(tm)
    assert g.crossings() == []
    assert g.overlaps(2.0) == []

    def gap(a, b):
        return math.dist(g.centre[a], g.centre[b]) - (g.size[a] + g.size[b]) / 2

    linked = [gap(a, b) for a in tm.nodes for b in tm.neighbours(a) if a < b]
    apart = [gap(a, b) for a, b in g.overlaps(20.0) if b not in tm.neighbours(a)]
    assert 2.0 < min(linked) and max(linked) < 6 and min(apart) > max(linked) + 1
    w, h = src.board.size
    for n, (x, y) in g.centre.items():
        r = g.size[n] / 2
        assert 8 <= x - r and x + r <= w - 8 and 8 <= y - r and y + r <= h - 8, n


# --- the rules-check ----------------------------------------------------------------------

def violations(root):
    return check_game(load(Project(root), "swamp-fox")).violations


def by_rule(vs):
    out = {}
    for v in vs:
        out.setdefault(v.rule, []).append(v)
    return out


def edit(root, rel, old, new):
    path = root / rel
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(root, rel, needle):
    return next(i for i, line in enumerate((root / rel).read_text().splitlines(), 1) if needle in line)


def test_the_bundled_game_meets_its_rules(project):
    assert violations(project.root) == []


def test_a_town_with_two_circles_is_caught_at_its_line(scratch):
    edit(scratch, BOARD, "name: Camden,", "name: Camden, circles: 2,")
    found = by_rule(violations(scratch))
    assert list(found) == ["SF-03"]
    (v,) = found["SF-03"]
    assert "town 'camden' (Camden) has 2 circles, expected exactly 3" in v.message
    assert v.path.endswith("board.yaml") and v.line == line_of(scratch, BOARD, "camden:")


def test_cutting_a_trunk_is_caught(scratch):
    path = scratch / BOARD
    lines = path.read_text().splitlines(keepends=True)
    trunk = next(i for i, line in enumerate(lines) if "{from: snows-island, to: rn," in line)
    path.write_text("".join(lines[:trunk] + lines[trunk + 1:]))
    found = by_rule(violations(scratch))
    assert "3 trails meet at hub 'snows-island' (Snow's Island), expected exactly 4" in found["SF-05"][0].message
    assert "138 plain spaces, expected exactly 144" in found["SF-R1"][0].message
    assert found["SF-R1"][0].severity == "warning"
    assert "SF-08" not in found        # the connecting trails still reach its quarter


def test_a_dead_end_and_an_island_are_caught(scratch):
    edit(scratch, BOARD, "  trails:\n", "    lost: {x: 230, y: 300, kind: safety}\n    isle: {x: 20, y: 20, kind: space}\n"
         "    far: {x: 60, y: 20, kind: town, name: Farville}\n  trails:\n    - {from: re, to: lost, spaces: 1}\n"
         "    - {from: isle, to: far, spaces: 0}\n")
    found = by_rule(violations(scratch))
    assert "5 safety intersections, expected exactly 4" in found["SF-06"][0].message
    assert any("1 trail meets at safety 'lost'" in v.message for v in found["SF-06"])
    dead = [v.message for v in found["SF-07"]]
    assert any("safety 'lost' is a dead end (only trail 1 reaches it)" in m for m in dead)
    assert any("space 'isle' is a dead end" in m for m in dead)
    assert [v.message.split(": ", 1)[1] for v in found["SF-08"]] == [
        "town 'far' (Farville) cannot be reached from the hub"]
    assert any("'far' (Farville) is not named by the list" in v.message for v in found["SF-04"])
    assert found["SF-08"][0].line == line_of(scratch, BOARD, "far: {")


def test_a_renamed_town_no_longer_matches_its_soldier(scratch):
    edit(scratch, BOARD, "name: Camden,", "name: Camdon,")
    found = by_rule(violations(scratch))
    messages = [v.message for v in found["SF-04"]]
    assert any("'Camden' is on the list but is not a town of the board (did you mean 'Camdon'?)" in m
               for m in messages)
    assert any("town 'camden' (Camdon) is not named by the list" in m for m in messages)


def test_a_broken_board_is_a_finding_at_its_line(scratch):
    edit(scratch, BOARD, "{from: rn, to: georgetown,", "{from: rn, to: georgetwn,")
    found = violations(scratch)
    assert found and all("to: unknown place 'georgetwn' (did you mean 'georgetown'?)" in v.message for v in found
                         if v.rule.startswith("SF-0"))
    assert found[0].line == line_of(scratch, BOARD, "to: georgetwn")


def test_the_towns_can_be_named_by_a_deck(scratch):
    soldiers = "\n".join(f"  - {{name: \"{t}\"}}" for t in TOWNS[:-1]) + "\n  - {name: Charlestown}\n"
    (scratch / "cards/swamp-fox/decks/roster.yaml").write_text(
        "name: Roster\ntemplate: summary\nfields:\n  name: {required: true}\ncards:\n" + soldiers)
    edit(scratch, Path("cards/swamp-fox/game.yaml"), "decks/tokens.yaml]", "decks/tokens.yaml, decks/roster.yaml]")
    text = (scratch / RULES).read_text()
    start = text.index("      towns: [")
    end = text.index("]", start) + 1
    (scratch / RULES).write_text(text[:start] + "      towns: roster.name" + text[end:])
    found = by_rule(violations(scratch))
    messages = sorted(v.message for v in found["SF-04"])
    assert any("(Charlestown): name = 'Charlestown' is not a town of board board (did you mean 'Charleston'?)"
               in m for m in messages)
    assert any("town 'charleston' (Charleston) is not named by a card of roster.name" in m for m in messages)
    card = next(v for v in found["SF-04"] if "Charlestown" in v.message)
    assert card.path.endswith("roster.yaml") and card.cards


@pytest.mark.parametrize("spec,message", [
    ("{board: nope, circles: 3}", "unknown board 'nope'"),
    ("{places: spots, circles: 3}", "board 'board' has no field 'spots'"),
    ("{towns: soldiers}", "towns: 'soldiers' should be deck.field"),
    ("{towns: roster.name}", "unknown deck 'roster'"),
    ("{degree: {plain: 2}}", "degree"),
])
def test_a_wrong_trails_rule_is_an_input_error(scratch, spec, message):
    edit(scratch, RULES, "trails: {circles: 3}", f"trails: {spec}")
    with pytest.raises(InputError, match=message):
        violations(scratch)


# --- the element --------------------------------------------------------------------------

def _board_ops(root):
    from pnpgen.layout.boards import board_card
    from pnpgen.layout.layouter import Layouter
    game = load(Project(root), "swamp-fox")
    (src,) = game.boards
    card = board_card(src)
    layouter = Layouter(game, src)
    body = [inner for op in layouter.layout(card, card.front)
            for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]
    return layouter, body


def test_the_board_draws_one_circle_per_space(project):
    layouter, body = _board_ops(project.root)
    filled = Counter(op.rx for op in body if isinstance(op, ops.Ellipse) and op.rx == op.ry
                     and op.paint.fill is not None)
    assert filled[9] == 144          # the plain spaces (junctions included), 18 mm
    assert filled[10] == 4           # the red intersections, 20 mm
    assert filled[12] == 36          # 12 towns x 3 circles, 24 mm
    assert filled[25] == 1           # Snow's Island, 50 mm
    lines = [op for op in body if isinstance(op, ops.Path) and not op.closed]
    assert len(lines) == 2 * 28      # each trail, over its paper border
    words = Counter(run.text for op in body if isinstance(op, ops.Text) for _, _, runs in op.lines for run in runs)
    assert all(words[name] == 1 for name in TOWNS) and words["Snow's Island"] == 1
    assert words["1"] == words["2"] == words["3"] == 12
    assert layouter.warnings == []


def test_a_broken_board_stops_the_build_at_the_template(scratch):
    edit(scratch, BOARD, "{from: rn, to: georgetown,", "{from: rn, to: rn,")
    with pytest.raises(InputError) as exc:
        _board_ops(scratch)
    text = str(exc.value)
    assert "templates/swamp-fox/board.yaml" in text
    assert "trails: trail 4 (rn -> rn) leads from a place to itself" in text
