"""print-colorblind counts only a cue a player sees at arm's length: two token sets told apart
by red against green and a 2 mm symbol are found (the symbol is too small to tell them
apart); a 6 mm letter, or words at a readable size, tell them apart."""

from __future__ import annotations

from .minigame import make_game
from .test_printcheck import GAME, TEMPLATE, check_json, line_of

TOKENS = """name: Tokens
template: face
pack: true
fields:
  team: {required: true}
  mark: {required: true}
cards:
  - {team: "#cc3333", mark: "A"}
  - {team: "#339933", mark: "B"}
"""


def token(symbol: float, letter_pt: float, word_pt: float = 4) -> str:
    """A 16 mm token in its team's colour with a symbol `symbol` mm across (a triangle for A,
    a square for B), its mark as a letter `letter_pt` high, and a word under it."""
    half = symbol / 2
    return f"""size: [16, 16]
shape: round
code: false
elements:
  - rect: {{w: 16, h: 16, fill: "{{{{ team }}}}", bleed: true}}
  - circle: {{x: 8, y: 8, r: 5, fill: "#ffffff"}}
  - polygon: {{x: 8, y: 5, r: {half}, sides: 3, angle: -90, fill: "#000000", when: "mark == 'A'"}}
  - rect: {{x: {8 - half}, y: {5 - half}, w: {symbol}, h: {symbol}, fill: "#000000", when: "mark == 'B'"}}
  - text: {{x: 4, y: 6, w: 8, h: 6, text: "{{{{ mark }}}}", size: {letter_pt}, align: center, valign: middle,
           color: "#000000", wrap: false}}
  - text: {{x: 3, y: 12, w: 10, h: 3, text: "{{{{ 'Ant' if mark == 'A' else 'Bee' }}}}", size: {word_pt},
           align: center, valign: middle, color: "#000000", wrap: false}}
"""


def colorblind(root) -> list:
    """The print-colorblind findings of the game at `root` (the tiny word is a print-size one)."""
    status, data = check_json(root)
    assert status == 0
    return [f for f in data["print"] if f["rule"] == "print-colorblind"]


def tokens(tmp_path, template: str):
    make_game(tmp_path, GAME, TOKENS, {"face": template})
    return tmp_path


def test_red_green_sets_told_apart_only_by_a_2mm_symbol_are_found(tmp_path):
    root = tokens(tmp_path, token(symbol=2, letter_pt=5))
    (found,) = colorblind(root)
    assert found["cards"] == ["MIN-001", "MIN-002"]
    assert (found["file"], found["line"]) == (TEMPLATE, line_of(root / TEMPLATE, "rect: {w: 16"))
    assert "differ only by colour (#cc3333 and #339933 here), which look alike with deuteranopia" in found["message"]
    assert "at least 4 mm across" in found["message"]


def test_a_6mm_letter_tells_the_sets_apart(tmp_path):
    root = tokens(tmp_path, token(symbol=2, letter_pt=17))      # 17 pt: 6 mm
    assert colorblind(root) == []


def test_a_4mm_symbol_tells_the_sets_apart_and_a_3mm_one_does_not(tmp_path):
    root = tokens(tmp_path, token(symbol=4.5, letter_pt=5))
    assert colorblind(root) == []
    tokens(tmp_path, token(symbol=3, letter_pt=5))
    assert [f["cards"] for f in colorblind(root)] == [["MIN-001", "MIN-002"]]


def test_words_count_from_the_games_readable_size(tmp_path):
    root = tokens(tmp_path, token(symbol=2, letter_pt=5, word_pt=7))
    assert colorblind(root) == []                   # 'Ant' and 'Bee' at 7 pt: read
    make_game(tmp_path, GAME + "print: {min_size: 8}\n", TOKENS, {"face": token(symbol=2, letter_pt=5, word_pt=7)})
    assert len(colorblind(root)) == 1               # below the game's 8 pt: not a cue
