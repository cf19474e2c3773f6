"""print-colorblind: cards of one deck that differ only by colour are found when two of them
look alike under a simulated colour-vision deficiency or in greyscale, at the template line
of the element that colours them; a letter or other drawn difference, or colours far apart in
every view, is enough."""

from __future__ import annotations

from pnpgen.printcheck.vision import VIEWS, distance

from .minigame import make_game
from .test_printcheck import GAME, TEMPLATE, check_json, line_of, only

PIECES = """name: Pieces
template: face
fields:
  team: {required: true}
  letter: {default: F}
cards:
  - {team: "#cc3333"}
  - {team: "#339933"}
"""
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#ffffff", bleed: true}
  - circle: {x: 31.75, y: 44.45, r: 20, fill: "{{ team }}"}
  - text: {x: 8, y: 10, w: 47, h: 9, text: "SWAMP FOX {{ letter }}", size: 12, color: "#000000"}
"""


def rgb(hex_color: str) -> tuple:
    return tuple(int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5))


def pieces(tmp_path, deck: str = PIECES, game: str = GAME):
    make_game(tmp_path, game, deck, {"face": FACE})
    return tmp_path


def test_red_and_green_look_alike_to_a_deuteranope_not_to_normal_vision():
    red, green = rgb("#cc3333"), rgb("#339933")
    assert distance(red, green) > 50
    assert distance(red, green, "deuteranopia") < 5 < 20 < distance(red, green, "protanopia")
    assert distance(rgb("#000000"), rgb("#ffffff"), "greyscale") > 99
    assert all(distance(red, red, view) == 0 for view in VIEWS)


def test_two_pieces_that_differ_only_red_green_are_found_at_the_fill(tmp_path):
    root = pieces(tmp_path)
    status, data = check_json(root)
    found = only(data, "print-colorblind")
    assert status == 0 and found["severity"] == "warning"
    assert (found["file"], found["line"]) == (TEMPLATE, line_of(root / TEMPLATE, "circle:"))
    assert found["cards"] == ["MIN-001", "MIN-002"] and found["limit"] == 12
    assert 3 < found["value"] < 5                    # the deuteranope's view, the closest
    assert ("MIN-001 and MIN-002 differ only by colour (#cc3333 and #339933 here), which look alike "
            "with deuteranopia") in found["message"]
    assert found["message"].startswith("elements[1]: ")


def test_a_letter_that_differs_is_a_cue_besides_colour(tmp_path):
    root = pieces(tmp_path, PIECES.replace('{team: "#339933"}', '{team: "#339933", letter: G}'))
    assert check_json(root)[1]["print"] == []


def test_colours_far_apart_in_every_view_need_no_other_cue(tmp_path):
    root = pieces(tmp_path, PIECES.replace("#cc3333", "#1a4d99").replace("#339933", "#ffb84d"))
    assert check_json(root)[1]["print"] == []


def test_red_and_blue_of_one_lightness_are_found_in_greyscale(tmp_path):
    root = pieces(tmp_path, PIECES.replace("#339933", "#3355cc"))
    found = only(check_json(root)[1], "print-colorblind")
    assert "which look alike printed in greyscale" in found["message"]


def test_a_third_piece_joins_the_finding_once_and_the_limit_comes_from_game_yaml(tmp_path):
    three = PIECES + '  - {team: "#3355cc"}\n'
    root = pieces(tmp_path, three)
    found = only(check_json(root)[1], "print-colorblind")
    assert found["cards"] == ["MIN-001", "MIN-002", "MIN-003"]
    pieces(tmp_path, three, GAME + "print: {color_distance: 0}\n")
    assert check_json(root)[1]["print"] == []
    pieces(tmp_path, three, GAME + "print: {color_distance: 3}\n")
    assert check_json(root)[1]["print"] == []


def test_two_greens_that_even_normal_vision_barely_tells_apart(tmp_path):
    root = pieces(tmp_path, PIECES.replace("#cc3333", "#33aa33"))
    found = only(check_json(root)[1], "print-colorblind")
    assert "which look alike even to normal colour vision" in found["message"] and found["value"] < 12
