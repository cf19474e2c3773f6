"""No silent near miss: full-bleed art drawn for another size (70 x 120 mm on a 69.85 x
120.65 mm tarot card) that stops just short of a trim edge, or runs just past the bleed, is
a warning at the template's line from build and check, and an error under --strict; art that
reaches the bleed exactly, or keeps a border on purpose, is not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from .clirun import pnpgen
from .minigame import make_game

DECK = """name: Roles
template: face
fields: {title: {}}
cards:
  - {title: Seer}
  - {title: Wolf}
"""
TAROT = "title: Mini\ncode: MIN\ncard_size: tarot\n"
POKER = "title: Mini\ncode: MIN\n"
WARNING = "warning: templates/mini/face.yaml:3: elements[0]: "


def _run(root, game, face, *args, command="build"):
    make_game(root, game, DECK, {"face": face})
    out = ("--out", root / "out") if command in ("build", "export") else ()
    proc = pnpgen("--root", root, command, *args, "mini", *out, cwd=root)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _first_face(elements: str) -> str:
    """A face of art alone (no code, no text to be read against it): element 0 is on line 3."""
    return "code: false\nelements:\n" + "".join(f"  - {e}\n" for e in elements.split("\n"))


TAROT_ART = "rect: {x: 0, y: 0, w: 70, h: 120, fill: \"#334455\", bleed: true}"


def test_tarot_art_drawn_70_by_120_warns_at_its_line_and_leaves_paper_showing(tmp_path):
    proc = _run(tmp_path, TAROT, _first_face(TAROT_ART))
    assert proc.returncode == 0, proc.stderr
    assert WARNING + "full-bleed art stops 0.65 mm short of the bottom trim edge, so a strip of paper " \
        "shows there once it is cut; make it reach the trim of the 69.85 x 120.65 mm face" in proc.stderr
    assert proc.stderr.count("full-bleed") == 1           # once for the template, not once per card
    assert "1 warning" in proc.stdout
    # and it is real: the cut card's bottom 0.65 mm is paper, the rest of the edge is art
    exported = _run(tmp_path, TAROT, _first_face(TAROT_ART), "png", "--dpi", "200",
                    "--no-bleed", command="export")
    assert exported.returncode == 0, exported.stderr
    with Image.open(tmp_path / "out" / "mini" / "png" / "deck" / "MIN-001-front.png") as im:
        rgb = im.convert("RGB")
        w, h = rgb.size
        assert rgb.getpixel((w // 2, h - 2)) == (255, 255, 255)
        assert rgb.getpixel((w // 2, h - 8)) == (0x33, 0x44, 0x55)     # 1 mm up: 7.9 px at 200 DPI
        assert rgb.getpixel((w - 2, h // 2)) == (0x33, 0x44, 0x55)      # 0.15 mm wider: the right edge is art


def test_strict_build_refuses_the_near_miss_and_writes_nothing(tmp_path):
    proc = _run(tmp_path, TAROT, _first_face(TAROT_ART), "--strict")
    assert proc.returncode == 2
    assert "templates/mini/face.yaml:3: mini/deck: print-bleed (warning): elements[0]: full-bleed art stops 0.65 mm " \
        "short of the bottom trim edge" in proc.stderr
    assert not (tmp_path / "out" / "mini" / "deck.pdf").exists()


def test_check_reports_it_as_a_print_finding_and_strict_fails(tmp_path):
    face = _first_face(TAROT_ART)
    proc = _run(tmp_path, TAROT, face, command="check")
    assert proc.returncode == 0
    assert "templates/mini/face.yaml:3: mini/deck: print-bleed (warning): elements[0]: full-bleed art stops " \
        "0.65 mm short of the bottom trim edge" in proc.stdout
    assert "on 2 faces: MIN-001, MIN-002" in proc.stdout
    assert _run(tmp_path, TAROT, face, "--strict", command="check").returncode == 1
    report = json.loads(_run(tmp_path, TAROT, face, "--format", "json", command="check").stdout)
    found, = [f for f in report["print"] if f["check"] == "bleed"]
    assert (found["file"], found["line"], found["value"], found["limit"]) == ("templates/mini/face.yaml", 3, 0.65, 2)


@pytest.mark.parametrize("art,says", [
    # 1 mm past the 3.175 mm bleed on the left and right of a poker card
    ("rect: {x: -4.175, y: -3.175, w: 71.85, h: 95.25, fill: \"#334455\"}",
     ["runs 1.00 mm past the bleed at the left edge", "runs 1.00 mm past the bleed at the right edge"]),
    # an image 1.5 mm short of the top; its box is what it covers
    ("image: {src: art.png, x: -3.175, y: 1.5, w: 69.85, h: 90.575, fit: stretch}",
     ["stops 1.50 mm short of the top trim edge"]),
    # sized by an expression that is a little off
    ("rect: {w: \"{{ card.width - 1 }}\", h: \"{{ card.height }}\", fill: \"#334455\", bleed: true}",
     ["stops 1.00 mm short of the right trim edge"]),
])
def test_an_overshoot_or_a_short_edge_warns_naming_each_edge(tmp_path, art, says):
    make_game(tmp_path, POKER, DECK, {"face": _first_face(art)})
    Image.new("RGB", (60, 80), (40, 90, 40)).save(tmp_path / "cards" / "mini" / "art.png")
    proc = pnpgen("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for said in says:
        assert WARNING + "full-bleed art " + said in proc.stderr
    assert proc.stderr.count("full-bleed") == len(says)


@pytest.mark.parametrize("art", [
    "rect: {x: -3.175, y: -3.175, w: 69.85, h: 95.25, fill: \"#334455\"}",            # exactly to the bleed
    "rect: {w: 63.5, h: 88.9, fill: \"#334455\", bleed: true}",                      # the trim, carried out
    "rect: {w: \"{{ card.width }}\", h: \"{{ card.height }}\", fill: \"#334455\", bleed: true}",
    "rect: {w: 63.5, h: 88.9, fill: \"#334455\"}",                                   # to the trim, no bleed
    "rect: {x: 2, y: 2, w: 59.5, h: 84.9, fill: \"#334455\"}",                       # a 2 mm border on purpose
    "rect: {x: -10, y: -10, w: 83.5, h: 108.9, fill: \"#334455\"}",                  # art made larger on purpose
    "rect: {x: 0.5, y: 0.5, w: 62.5, h: 87.9, stroke: black}",                       # an outline, not a fill
    "rect: {x: 1, y: 0.5, w: 30, h: 87.9, fill: \"#334455\"}",                       # covers half the card
    "rect: {w: 63.5, h: 88.9, fill: \"#334455\", bleed: true}\n"                     # a narrow border over art
    "rect: {x: 1, y: 1, w: 61.5, h: 86.9, r: 2, fill: \"#f6f1e4\"}",
])
def test_art_that_reaches_the_bleed_or_keeps_clear_on_purpose_is_quiet(tmp_path, art):
    proc = _run(tmp_path, POKER, _first_face(art), "--strict")
    assert proc.returncode == 0, proc.stderr
    assert "full-bleed" not in proc.stderr


def test_a_narrow_border_without_art_under_it_warns(tmp_path):
    proc = _run(tmp_path, POKER, _first_face("rect: {x: 1, y: 1, w: 61.5, h: 86.9, fill: \"#f6f1e4\"}"))
    for edge in ("left", "top", "right", "bottom"):
        assert WARNING + f"full-bleed art stops 1.00 mm short of the {edge} trim edge" in proc.stderr


def test_tokens_and_boards_are_checked_too(tmp_path):
    deck = "name: Tokens\npack: true\ntemplate: disc\nfields: {title: {}}\ncards:\n  - {title: A, count: 3}\n"
    disc = "size: [20, 20]\nshape: round\nelements:\n  - rect: {w: 19, h: 20, fill: \"#334455\", bleed: true}\n"
    make_game(tmp_path, POKER, deck, {"disc": disc})
    (tmp_path / "cards" / "mini" / "boards").mkdir()
    (tmp_path / "cards" / "mini" / "boards" / "mat.yaml").write_text("name: Mat\nsize: [300, 200]\ntemplate: mat\n")
    (tmp_path / "templates" / "mini" / "mat.yaml").write_text(
        "elements:\n  - rect: {x: -4.675, y: -3.175, w: 307.5, h: 206.35, fill: \"#334455\"}\n")
    proc = pnpgen("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "warning: templates/mini/disc.yaml:4: elements[0]: full-bleed art stops 1.00 mm short of the right " \
        "trim edge, so a strip of paper shows there once it is cut; make it reach the trim of the 20 x 20 mm " \
        "face" in proc.stderr
    assert "warning: templates/mini/mat.yaml:2: elements[0]: full-bleed art runs 1.50 mm past the bleed at the " \
        "left edge" in proc.stderr
    strict = pnpgen("--root", tmp_path, "build", "mini", "--strict", "--out", tmp_path / "strict", cwd=tmp_path)
    assert strict.returncode == 2 and "print-bleed" in strict.stderr


STRICTLY_CHECKED = {"swarm": "test_swarm.py", "swamped": "test_swamped.py", "swamp-fox": "test_swamp_fox.py",
                    "swamp-monsters": "test_swamp_monsters.py", "bad-maps": "test_bad_maps.py"}
"""Each bundled game's own test file runs `pnpgen check GAME --strict` and wants it to pass,
which a bleed finding would not (above): their check is not run a second time here."""


def test_the_bundled_games_have_no_near_miss(built, bundled_games):
    assert not [w for results in built.values() for r in results for w in r.warnings if "full-bleed" in w.message]
    assert sorted(STRICTLY_CHECKED) == sorted(bundled_games)      # a new game: give it a strict check too
    for game, test_file in STRICTLY_CHECKED.items():
        text = (Path(__file__).parent / test_file).read_text(encoding="utf-8")
        assert re.search(rf'"check", "{game}",[^\n]*"--strict"', text), (game, test_file)
