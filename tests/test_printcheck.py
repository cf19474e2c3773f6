"""Print checks (`pnpgen check`): each defect planted in a small game is found at its card
code and template line, in the text, JSON and GitHub formats; a clean game has none."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from pnpgen import ops
from pnpgen.build import load, plan_game
from pnpgen.printcheck.raster import contrast

from .clirun import pnpgen
from .minigame import make_game

GAME = "title: Mini\ncode: MIN\n"
DECK = """name: Deck
template: face
fields:
  title: {required: true}
cards:
  - {title: Alpha}
  - {title: Beta}
"""
WHITE = '  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#ffffff", bleed: true}\n'
TITLE = '  - text: {x: 8, y: 10, w: 47, h: 9, text: "{{ title }}", size: 12, color: "#000000"}\n'
CLEAN = "size: poker\nelements:\n" + WHITE + TITLE


def face(*elements: str, head: str = "size: poker\n") -> str:
    return head + "elements:\n" + WHITE + TITLE + "".join(elements)


def game(tmp_path, template: str, game_yaml: str = GAME, deck: str = DECK):
    make_game(tmp_path, game_yaml, deck, {"face": template})
    return tmp_path


def line_of(path, needle: str) -> int:
    (found,) = [i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line]
    return found


def check_json(root, *args) -> tuple[int, dict]:
    ran = pnpgen("check", "--format", "json", *args, cwd=root)
    assert "Traceback" not in ran.stderr, ran.stderr
    return ran.returncode, json.loads(ran.stdout)


def only(data: dict, rule: str) -> dict:
    found = [f for f in data["print"] if f["rule"] == rule]
    assert len(found) == 1, data["print"]
    return found[0]


TEMPLATE = "templates/mini/face.yaml"
DECK_FILE = "cards/mini/decks/deck.yaml"


def test_a_clean_game_has_no_print_findings(tmp_path):
    root = game(tmp_path, CLEAN)
    status, data = check_json(root)
    assert status == 0 and data["print"] == [] and data["warnings"] == 0
    text = pnpgen("check", cwd=root)
    assert text.returncode == 0 and text.stdout.strip() == "checked 1 game, 0 rules: 0 errors, 0 warnings"


def test_a_four_point_label_is_too_small_at_its_template_line_naming_the_cards(tmp_path):
    root = game(tmp_path, face('  - text: {x: 8, y: 30, w: 47, h: 5, text: "LABEL", size: 4}\n'))
    line = line_of(root / TEMPLATE, '"LABEL"')
    status, data = check_json(root)
    assert status == 0 and data["warnings"] == 1 and data["errors"] == 0     # a warning by default
    found = only(data, "print-size")
    assert (found["file"], found["line"], found["severity"]) == (TEMPLATE, line, "warning")
    assert found["cards"] == ["MIN-001", "MIN-002"] and found["value"] == 4 and found["limit"] == 6
    assert "elements[2]: text 'LABEL' is 4.0 pt, below the 6 pt" in found["message"]
    text = pnpgen("check", cwd=root)
    (shown,) = [s for s in text.stdout.splitlines() if "print-size" in s]
    assert shown.startswith(f"{TEMPLATE}:{line}: mini/deck: print-size (warning): elements[2]: text 'LABEL'")
    assert shown.endswith("on 2 faces: MIN-001, MIN-002")
    github = pnpgen("check", "--format", "github", cwd=root).stdout.splitlines()
    assert github[0].startswith(f"::warning file={TEMPLATE},line={line},title=mini/deck%3A print-size::")


def test_turned_text_is_measured_where_it_prints(tmp_path):
    """Text turned a quarter runs up its box: a tall box on the left edge puts its letters in
    the cut zone (not past the cut, as the unturned line would be), and so does a group turned
    there; 10 mm further in, neither is."""
    side = '  - text: {x: X, y: 20, w: 5, h: 40, text: "up the side", size: 8, rotate: 90}\n'
    root = game(tmp_path, face(side.replace("X", "0.5")))
    found = only(check_json(root)[1], "print-cut")
    assert found["line"] == line_of(root / TEMPLATE, "up the side")
    assert 0.3 < found["value"] < 1.5 and "'up the side' comes within" in found["message"]
    game(tmp_path, face(side.replace("X", "10")))
    assert check_json(root)[1]["print"] == []
    turned = ('  - group: {x: 1, y: 44, rotate: 90, draw: [\n'
              '      {text: {x: 0, y: 0, w: 30, h: 5, text: "turned", size: 10}}]}\n')
    game(tmp_path, face(turned))
    found = only(check_json(root)[1], "print-cut")
    assert found["line"] == line_of(root / TEMPLATE, "group:")
    assert 0.9 < found["value"] < 1.5 and "'turned' comes within 1." in found["message"]
    game(tmp_path, face(turned.replace("x: 1, y: 44", "x: 10, y: 44")))
    assert check_json(root)[1]["print"] == []


def test_grey_on_grey_text_has_too_little_contrast(tmp_path):
    grey = ('  - rect: {x: 5, y: 28, w: 53, h: 12, fill: "#888888"}\n'
            '  - text: {x: 8, y: 30, w: 47, h: 8, text: "Grey", size: 9, color: "#777777"}\n')
    root = game(tmp_path, face(grey))
    status, data = check_json(root)
    found = only(data, "print-contrast")
    assert found["line"] == line_of(root / TEMPLATE, '"Grey"') and found["cards"] == ["MIN-001", "MIN-002"]
    want = contrast((0x77,) * 3, (0x88,) * 3)
    assert found["value"] == pytest.approx(want, abs=0.01) and found["limit"] == 4.5
    assert "text 'Grey' in #777777 on #888888 has contrast 1.3:1, below the 4.5:1 text needs" in found["message"]
    assert status == 0 and pnpgen("check", "--strict", cwd=root).returncode == 1


def test_large_text_needs_less_contrast(tmp_path):
    """#777777 on white is 4.48:1: too little for 9 pt text, enough for 18 pt."""
    small = '  - text: {x: 8, y: 30, w: 47, h: 12, text: "Grey", size: 9, color: "#777777"}\n'
    root = game(tmp_path, face(small))
    assert only(check_json(root)[1], "print-contrast")["value"] == pytest.approx(4.48, abs=0.01)
    make_game(tmp_path, GAME, DECK, {"face": face(small.replace("size: 9", "size: 18"))})
    assert check_json(root)[1]["print"] == []


def test_text_on_an_image_of_like_lightness_is_read_against_the_image(tmp_path):
    root = game(tmp_path, face(
        '  - image: {src: grey.png, x: 5, y: 50, w: 53, h: 20}\n'
        '  - text: {x: 8, y: 30, w: 47, h: 8, text: "on paper", size: 9, color: "#595959"}\n'
        '  - text: {x: 8, y: 55, w: 47, h: 8, text: "on the image", size: 9, color: "#595959"}\n'))
    Image.new("RGB", (64, 32), (128, 128, 128)).save(root / "cards" / "mini" / "grey.png")
    status, data = check_json(root)
    found = only(data, "print-contrast")       # the same ink reads on white paper (7:1)
    assert found["line"] == line_of(root / TEMPLATE, '"on the image"')
    assert "'on the image' in #595959 on #808080" in found["message"]
    assert found["value"] == pytest.approx(contrast((0x59,) * 3, (128,) * 3), abs=0.02)


def test_text_in_the_cut_zone_and_past_the_trim(tmp_path):
    edge = ('  - text: {x: 8, y: 86.2, w: 47, h: 3, text: "at the edge", size: 6}\n'
            '  - text: {x: 60, y: 40, w: 10, h: 5, text: "beyond", size: 8}\n')
    root = game(tmp_path, face(edge))
    status, data = check_json(root)
    found = {f["line"]: f for f in data["print"] if f["rule"] == "print-cut"}
    near, past = found[line_of(root / TEMPLATE, "at the edge")], found[line_of(root / TEMPLATE, '"beyond"')]
    assert 0 < near["value"] < 1.5 and "'at the edge' comes within" in near["message"]
    assert past["value"] < 0 and "'beyond' runs" in past["message"] and "mm past the cut" in past["message"]
    assert near["cards"] == past["cards"] == ["MIN-001", "MIN-002"]
    game(tmp_path, face(edge), GAME + "print: {cut_zone: 0}\n")
    assert not [f for f in check_json(root)[1]["print"] if f["rule"] == "print-cut"]


def test_card_codes_have_their_own_floor_and_are_read_like_text(tmp_path):
    dark = ('  - rect: {x: 0, y: 80, w: 63.5, h: 8.9, fill: "#333333", bleed: true}\n')
    root = game(tmp_path, face(dark, head="size: poker\ncode: {size: 4}\n"))
    status, data = check_json(root)
    size, low = only(data, "print-size"), only(data, "print-contrast")
    assert size["line"] == low["line"] == line_of(root / TEMPLATE, "code:")
    assert size["message"].startswith("code: card code MIN-001 is 4.0 pt, below the 4.5 pt a card code needs")
    assert "#555555 on #333333" in low["message"] and low["cards"] == ["MIN-001", "MIN-002"]
    game(tmp_path, face(head="size: poker\ncode: {size: 4.5}\n"))
    assert check_json(root)[1]["print"] == []            # 4.5 pt grey on white: a readable code


def test_a_dim_wall_is_a_thin_line_of_too_little_contrast(tmp_path):
    walls = ('  - rect: {x: 5, y: 30, w: 53, h: 40, fill: "#4e8a80"}\n'
             '  - line: {points: [[10, 50], [50, 50]], stroke: "#2c4a26", stroke_width: 1.2}\n'
             '  - line: {points: [[10, 60], [50, 60]], stroke: "#000000", stroke_width: 1.2}\n')
    root = game(tmp_path, face(walls))
    found = only(check_json(root)[1], "print-lines")
    assert found["line"] == line_of(root / TEMPLATE, "#2c4a26")
    assert "a 1.2 mm line in #2c4a26 on #4e8a80 has contrast 2.5:1, below the 3:1" in found["message"]


def test_limits_come_from_game_yaml_and_severity_error_fails_the_check(tmp_path):
    label = '  - text: {x: 8, y: 30, w: 47, h: 5, text: "LABEL", size: 5}\n'
    root = game(tmp_path, face(label), GAME + "print: {min_size: 5}\n")
    assert check_json(root) == (0, check_json(root)[1]) and check_json(root)[1]["print"] == []
    game(tmp_path, face(label), GAME + "print: {min_size: 7, severity: error}\n")
    status, data = check_json(root)
    assert status == 1 and data["errors"] == 1 and only(data, "print-size")["limit"] == 7
    text = pnpgen("check", cwd=root)
    assert text.returncode == 1 and ": mini/deck: print-size: elements[2]" in text.stdout


def test_a_bad_limit_is_bad_input_at_its_line(tmp_path):
    root = game(tmp_path, CLEAN, GAME + "print:\n  contrast: 0.5\n")
    ran = pnpgen("check", cwd=root)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.startswith("cards/mini/game.yaml:4: ") and "contrast" in ran.stderr


def test_identical_labels_of_one_template_are_one_finding(tmp_path):
    dots = "".join(f'  - text: {{x: {8 + 6 * i}, y: 30, w: 5, h: 5, text: "o", size: 4}}\n' for i in range(5))
    root = game(tmp_path, face(dots))
    found = only(check_json(root)[1], "print-size")
    first = line_of(root / TEMPLATE, "x: 8, y: 30")
    assert found["lines"] == list(range(first, first + 5))
    assert found["message"].startswith("elements[2] and 4 more elements alike (lines ")


def test_a_common_back_and_its_findings_name_it(tmp_path):
    deck = DECK.replace("template: face\n", "template: face\nback: {template: back}\n")
    back = 'elements:\n  - text: {x: 5, y: 40, w: 50, h: 5, text: "BACK", size: 5}\n'
    make_game(tmp_path, GAME, deck, {"face": CLEAN, "back": back})
    found = only(check_json(tmp_path)[1], "print-size")
    assert found["file"] == "templates/mini/back.yaml" and found["cards"] == []
    assert found["faces"] == ["the common back of deck"]


def test_layout_by_element_draws_what_layout_draws(project, bundled_games):
    """Every face of every bundled game: the per-element view is the same operations as the
    layout the PDFs are drawn from, shared forms expanded."""
    def flat(body, forms):
        out = []
        for op in body:
            out += flat(forms[op.name].body, forms) if type(op) is ops.Form and op.name in forms else [op]
        return out

    faces = 0
    for name in bundled_games:
        plan = plan_game(load(project, name))
        for deck in plan.decks:
            for card in deck.cards[:40]:
                drawn = deck.layouter.layout(card, card.front)
                split = deck.layouter.layout_by_element(card, card.front)
                assert flat(drawn, deck.layouter.forms) == [op for _, body in split for op in body]
                assert all(isinstance(i, int) or i == "code" for i, _ in split)
                faces += 1
    assert faces > 200


def held_strictly(project, name):
    """A bundled game held to 12 pt text and 7:1 contrast: every kit then has findings of
    several checks to locate, whether or not it passes at the default limits."""
    game = load(project, name)
    limits = game.game.print.model_copy(update={"min_size": 12, "contrast": 7.0, "contrast_large": 7.0})
    game.game = game.game.model_copy(update={"print": limits})
    return game


def test_the_bundled_games_are_checked_quickly_and_alike_each_time(project, bundled_games, monkeypatch):
    import time

    from pnpgen.printcheck import check_faces, memo
    from pnpgen.printcheck.checks import ACROSS, CHECKS
    from pnpgen.printcheck.raster import Backgrounds

    memo.FOUND.clear()                  # (as in a new process)
    start = time.process_time()
    first = {name: [f.as_dict() for f in check_faces(plan_game(held_strictly(project, name)))]
             for name in bundled_games}
    spent = time.process_time() - start
    assert all(first.values()) and {"size", "contrast"} <= {f["check"] for found in first.values() for f in found}
    for found in first.values():
        for f in found:
            assert (project.root / f["file"]).is_file() and f["line"] >= 1, f
    assert spent < 30, f"{spent:.1f} s of CPU for the print checks of the bundled games"

    # again, every face is remembered (printcheck/memo.py): none is inspected or rendered, the same is found
    for name, check in CHECKS.items():
        if name not in ACROSS:
            monkeypatch.setattr(check, "inspect", lambda *a: pytest.fail("a remembered face was inspected"))
    monkeypatch.setattr(Backgrounds, "_render", lambda *a: pytest.fail("a remembered face was rendered"))
    again = {name: [f.as_dict() for f in check_faces(plan_game(held_strictly(project, name)))]
             for name in bundled_games}
    assert again == first
    memo.FOUND.clear()


def test_inline_icons_draw_in_their_own_colours_and_are_not_read_as_text(tmp_path):
    icons = GAME + ('icons:\n  dot:\n    size: [10, 10]\n'
                    '    elements: [{circle: {x: 5, y: 5, r: 4, fill: "#ffffff"}}]\n')
    dark = '  - rect: {x: 5, y: 28, w: 53, h: 12, fill: "#333333"}\n'
    icon = '  - text: {x: 8, y: 30, w: 47, h: 8, text: ":dot:", size: 9, color: "#333333"}\n'
    root = game(tmp_path, face(dark, icon), icons)
    assert check_json(root)[1]["print"] == []
    game(tmp_path, face(dark, icon.replace('":dot:"', '"A :dot:"')), icons)
    assert "text 'A :dot:' in #333333 on #333333" in only(check_json(root)[1], "print-contrast")["message"]


def test_build_strict_refuses_a_game_with_print_findings_and_builds_it_without(tmp_path):
    tiny = '  - text: {x: 8, y: 30, w: 47, h: 5, text: "fine print", size: 4, color: "#000000"}\n'
    root = game(tmp_path, face(tiny))
    strict = pnpgen("build", "--strict", "--out", "strict", cwd=root)
    assert strict.returncode == 2 and "Traceback" not in strict.stderr
    assert f"{TEMPLATE}:{line_of(root / TEMPLATE, 'fine print')}: " in strict.stderr
    assert "print-size" in strict.stderr and "not built under --strict: 1 print finding" in strict.stderr
    assert not (root / "strict" / "mini").exists() or not list((root / "strict" / "mini").glob("*.pdf"))
    plain = pnpgen("build", "--out", "plain", cwd=root)
    assert plain.returncode == 0 and (root / "plain" / "mini" / "deck.pdf").is_file()
    clean = game(tmp_path / "clean", CLEAN)
    assert pnpgen("build", "--strict", "--out", "out", cwd=clean).returncode == 0


def test_build_reports_as_asked_summary_quiet_verbose_and_github_annotations(tmp_path):
    cut_short = '  - text: {x: 8, y: 30, w: 10, h: 4, text: "far too long for this box", size: 9, min_size: 9}\n'
    root = game(tmp_path, face(cut_short))
    line = line_of(root / TEMPLATE, "far too long")
    plain = pnpgen("build", "--out", "out", cwd=root)
    assert plain.returncode == 0
    assert plain.stdout == f"mini: 1 PDF, 1 sheet of cards and tokens, 1 warning, in out/mini\n"
    assert plain.stderr.startswith(f"warning: {TEMPLATE}:{line}: ")
    quiet = pnpgen("build", "-q", "--out", "out", cwd=root)
    assert quiet.returncode == 0 and quiet.stdout == "" and "warning: " in quiet.stderr
    verbose = pnpgen("build", "-v", "--out", "out", cwd=root)
    assert f"  wrote out/mini/deck.pdf\n" in verbose.stdout
    assert "building mini" in verbose.stderr                  # progress lines, though not on a terminal
    github = pnpgen("build", "--format", "github", "--out", "out", cwd=root)
    (note,) = [n for n in github.stdout.splitlines() if n.startswith("::warning ")]
    assert f"file={TEMPLATE},line={line}," in note and "title=mini%3A build::" in note and "does not fit" in note
    assert "warning: " not in github.stderr


def test_text_on_an_inline_icon_is_read_against_the_icon(tmp_path):
    """A number set on a large inline icon (a line of icons only) is read against the icon,
    not the paper under it: white on the black disc passes, black on it is found."""
    icons = GAME + ('icons:\n  disc:\n    size: [10, 10]\n'
                    '    elements: [{circle: {x: 5, y: 5, r: 5, fill: "#000000"}}]\n')
    disc = '  - text: {x: 10, y: 30, w: 30, h: 30, text: ":disc:", size: 60, align: center, valign: middle}\n'
    number = '  - text: {x: 10, y: 30, w: 30, h: 30, text: "7", size: 20, color: "#ffffff", align: center, valign: middle}\n'
    root = game(tmp_path, face(disc, number), icons)
    assert check_json(root)[1]["print"] == []
    game(tmp_path, face(disc, number.replace("#ffffff", "#222222")), icons)
    found = only(check_json(root)[1], "print-contrast")
    assert found["line"] == line_of(root / TEMPLATE, '"7"')
    assert "text '7' in #222222 on #000000" in found["message"]


def test_letters_between_inline_icons_are_read_against_the_paper_not_the_icons(tmp_path):
    """'5 :disc: 3' in dark ink on white: the black disc between the digits is not under any
    letter, so it does not lower their contrast; the same digits on a dark band are found."""
    icons = GAME + ('icons:\n  disc:\n    size: [10, 10]\n'
                    '    elements: [{circle: {x: 5, y: 5, r: 5, fill: "#000000"}}]\n')
    line = '  - text: {x: 8, y: 30, w: 47, h: 10, text: "5 :disc: :disc: :disc: 3", size: 9, color: "#333333"}\n'
    root = game(tmp_path, face(line), icons)
    assert check_json(root)[1]["print"] == []
    band = '  - rect: {x: 5, y: 28, w: 53, h: 12, fill: "#444444"}\n'
    game(tmp_path, face(band, line), icons)
    found = only(check_json(root)[1], "print-contrast")
    assert "'5 :disc: :disc: :disc: 3' in #333333 on #444444" in found["message"]


def test_the_example_in_docs_printcheck_gives_the_output_shown_there(tmp_path):
    """docs/printcheck.md's small game, written out from the page, checked: the page shows
    exactly what `pnpgen check` prints for it."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "printcheck.md").read_text()
    files = re.findall(r"```yaml\n# ((?:cards|templates)/\S+)\n(.*?)```", page, re.S)
    assert len(files) == 3
    for path, text in files:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    (shown,) = re.findall(r"```text\n\$ pnpgen check\n(.*?)```", page, re.S)
    ran = pnpgen("check", cwd=tmp_path)
    assert ran.returncode == 0 and ran.stdout == shown
