"""Rules and messages that fit a game that is not Swarm: the `hexmap` check with the game's own
start and impassable terrains and each constraint on or off; a circle's `slots` given as
the user writes them; a file name that is off by case or a slip gets a did-you-mean."""

from __future__ import annotations

import pytest
from PIL import Image

from pnpgen.build import Options, Project, build_game, load
from pnpgen.errors import InputError
from pnpgen.rules.ruleset import check_game

from .clirun import pnpgen
from .minigame import make_game

GAME = "title: Isles\ncode: ISL\n"
DECK = "name: D\ntemplate: face\nfields:\n  title: {}\ncards:\n  - {title: A}\n"
FACE = "code: false\nelements:\n  - rect: {w: 10, h: 10, fill: red}\n"
HEXES = """size: [140, 100]
code: false
elements:
  - hexgrid:
      cells: "{{ hexes }}"
      across: 20
      terrain: {L: {fill: gold}, D: {fill: navy}, G: {fill: green}, C: {fill: grey}}
"""
TERRAINS = "{L: Landing, D: Deep water, G: Grass, C: Cliff}"
MEADOWS = "max_cluster: {G: 99}"   # grass everywhere: no patch limit for it


def isles(tmp_path, rows, rule, game=GAME):
    """A game whose board holds `rows` and whose rules.yaml has the one hexmap `rule`."""
    rules = f"rules:\n  - id: MAP\n    text: The map is fit for play.\n    hexmap: {rule}\n"
    folder = make_game(tmp_path, game, DECK, {"face": FACE, "hexes": HEXES}, rules=rules)
    (folder / "boards").mkdir(exist_ok=True)
    quoted = ", ".join(f'"{r}"' for r in rows)
    (folder / "boards" / "isle.yaml").write_text(f"name: Isle\nsize: [140, 100]\ntemplate: hexes\n"
                                                  f"fields:\n  hexes: [{quoted}]\n")
    return folder


def findings(tmp_path) -> list[str]:
    return [v.message for v in check_game(load(Project(tmp_path), "mini")).violations]


# five columns, four rows (flat tops): the Landings where this designer wants them, not in corners
PLACED = ["G L G G G",
          "G G G G G",
          "G G G G G",
          "G G G L G"]


def test_a_game_names_its_own_start_and_impassable_terrains(tmp_path):
    rows = ["L G D G G",
            "G G D G G",
            "G G D G G",
            "G G D G L"]
    isles(tmp_path, rows, f"{{terrains: {TERRAINS}, den: L, water: D, players: 3}}")
    found = findings(tmp_path)
    assert ("board isle: the map has 2 Landings (0101 0504) for 3 players; every player starts on a Landing, "
            "so add 1 more (code L)") in found
    assert any(f.startswith("board isle: deep water cuts the land in two: ") and "without crossing deep water; "
               "change a Deep water hex (D) between them to land" in f for f in found), found
    assert "board isle: 4 Deep water (D) hexes touch (0301 0302 0303 0304); at most 3 may: change one to " \
           "another terrain" in found
    assert not any("Den" in f or "Water" in f for f in found), found


@pytest.mark.parametrize("starts, expected", [
    ("spread", ["board isle: the start Landings 0201 and 0404 are 4 steps apart, but the board allows 5: "
                "make 0101 0504 Landings (code L), one start per player"]),
    ("placed", []),
    ("off", [])])
def test_the_starts_are_spread_or_where_the_designer_put_them(tmp_path, starts, expected):
    isles(tmp_path, PLACED, f"{{terrains: {TERRAINS}, den: L, water: D, players: 2, starts: {starts}, {MEADOWS}}}")
    assert findings(tmp_path) == expected


def test_placed_starts_still_need_one_for_each_player_and_off_does_not(tmp_path):
    isles(tmp_path, PLACED, f"{{terrains: {TERRAINS}, den: L, water: D, players: 3, starts: placed, {MEADOWS}}}")
    assert findings(tmp_path) == ["board isle: the map has 2 Landings (0201 0404) for 3 players; every player "
                                  "starts on a Landing, so add 1 more (code L)"]
    isles(tmp_path, PLACED, f"{{terrains: {TERRAINS}, den: L, water: D, players: 3, starts: off, {MEADOWS}}}")
    assert findings(tmp_path) == []


@pytest.mark.parametrize("connected", [True, False])
def test_impassable_terrain_may_be_several_codes_and_the_land_check_turns_off(tmp_path, connected):
    rows = ["L G D G G",
            "G G C G G",
            "G G D G G",
            "G G C G L"]           # deep water and cliffs together wall off the left
    isles(tmp_path, rows, f"{{terrains: {TERRAINS}, den: L, water: [D, C], players: 2, connected: {connected}, "
                          f"{MEADOWS}}}")
    cut = ("board isle: deep water or cliff cuts the land in two: 0401 0501 0402 0502 0403 0503 0404 0504 cannot "
           "be reached from 0101 without crossing deep water or cliff; change a Deep water or Cliff hex (D C) "
           "between them to land")
    assert findings(tmp_path) == ([cut] if connected else [])


@pytest.mark.parametrize("clusters", [True, False])
def test_the_patch_check_turns_off(tmp_path, clusters):
    rows = ["L D D G G", "G G G G G", "G G G G G", "G G G G L"]
    isles(tmp_path, rows, f"{{terrains: {TERRAINS}, den: L, water: D, players: 2, max_cluster: {{D: 1, G: 99}}, "
                          f"clusters: {clusters}}}")
    patch = "board isle: 2 Deep water (D) hexes touch (0201 0301); at most 1 may: change one to another terrain"
    assert findings(tmp_path) == ([patch] if clusters else [])


def test_swarm_defaults_still_speak_of_dens_and_water(tmp_path):
    rows = ["6 1 5 1 1",
            "1 1 5 1 1",
            "1 1 5 1 6"]
    isles(tmp_path, rows, "{players: 2}")
    found = findings(tmp_path)
    assert any(f.startswith("board isle: water cuts the land in two") and "change a Water hex (5)" in f
               for f in found), found


@pytest.mark.parametrize("rule, needle", [
    (f"{{terrains: {TERRAINS}, den: X, water: D}}", "X: the start or impassable code is not one of terrains"),
    ("{den: '5', water: '5'}", "den '5' is also impassable"),
    ("{starts: corners}", "starts"),
])
def test_a_hexmap_config_that_cannot_work_is_located(tmp_path, rule, needle):
    isles(tmp_path, PLACED, rule)
    ran = pnpgen("check", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "cards/mini/rules.yaml:" in ran.stderr and needle in ran.stderr, ran.stderr


# --- a circle's slots ---------------------------------------------------------------------------

SPINNER = """size: poker
code: false
elements:
  - slots: {shape: circle, SLOTS}
"""


def spinner(tmp_path, slots: str):
    make_game(tmp_path, GAME, DECK.replace("template: face", "template: spin"),
              {"spin": SPINNER.replace("SLOTS", slots)})
    return build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))


@pytest.mark.parametrize("slots", ["values: [1, 2, 3, 4, 5, 6]", "at: all, values: [1, 2, 3, 4, 5, 6]"])
def test_a_circle_takes_a_literal_list_of_values(tmp_path, slots):
    (result,) = spinner(tmp_path, slots)
    from .pdfread import page_texts
    assert all(str(n) in page_texts(result.path)[0] for n in range(1, 7))


@pytest.mark.parametrize("slots, needle", [
    ("at: edges, values: [1, 2]", "at: edges: a circle has one slot per value, clockwise from the top; "
                                  "leave at: out (or write at: all)"),
    ("start: n, values: [1, 2]", "start: a circle's first value is always at the top; leave start: out"),
    ("values: {n: 1}", "values: a circle's slots are numbered, not named: give the values as a list"),
])
def test_a_circle_says_what_works(tmp_path, slots, needle):
    with pytest.raises(InputError) as caught:
        spinner(tmp_path, slots)
    message = str(caught.value)
    assert "spin.yaml:4:" in message and needle in message, message
    assert "no at:" not in message


# --- a file name off by case or a slip ----------------------------------------------------------

@pytest.mark.parametrize("written, meant", [
    ("art/Back.jpg", "art/back.jpg"), ("Art/back.jpg", "art/back.jpg"), ("art/bakc.jpg", "art/back.jpg"),
    ("art/back.jpeg", "art/back.jpg")])
def test_a_missing_image_names_the_file_it_nearly_is(tmp_path, written, meant):
    face = f"code: false\nelements:\n  - image: {{src: {written}, w: 10, h: 10}}\n"
    folder = make_game(tmp_path, GAME, DECK, {"face": face})
    (folder / "art").mkdir()
    Image.new("RGB", (4, 4), "red").save(folder / "art" / "back.jpg")
    Image.new("RGB", (4, 4), "red").save(folder / "art" / "front.jpg")
    ran = pnpgen("build", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert f"templates/mini/face.yaml:3: elements[0]: image '{written}' not found in mini/ " \
           f"(did you mean '{meant}'?)" in ran.stderr, ran.stderr


def test_a_missing_file_with_nothing_like_it_gets_no_guess(tmp_path):
    face = "code: false\nelements:\n  - image: {src: art/zebra.png, w: 10, h: 10}\n"
    folder = make_game(tmp_path, GAME, DECK, {"face": face})
    (folder / "art").mkdir()
    Image.new("RGB", (4, 4), "red").save(folder / "art" / "back.jpg")
    ran = pnpgen("build", cwd=tmp_path)
    assert ran.returncode == 2 and "image 'art/zebra.png' not found in mini/\n" in ran.stderr, ran.stderr


def test_a_deck_file_listed_with_the_wrong_case_is_named(tmp_path):
    make_game(tmp_path, GAME + "decks: [decks/Deck.yaml]\n", DECK, {"face": FACE})
    ran = pnpgen("build", cwd=tmp_path)
    assert ran.returncode == 2
    assert "cards/mini/game.yaml:3: deck file 'decks/Deck.yaml' not found (did you mean 'decks/deck.yaml'?)" \
        in ran.stderr, ran.stderr
