"""print-margin: text and card edges that print inside the border of the paper a home
printer leaves unprinted, read off the build's own sheets (a custom layout's slots, the
automatic grid), at the template line that draws them."""

from __future__ import annotations

import pytest

from pnpgen.build import load, plan_game
from pnpgen.build.printing import printing
from pnpgen.build.project import Project

from .minigame import make_game
from .test_printcheck import DECK, GAME, TEMPLATE, check_json, face, line_of

NEAR_LEFT = '  - text: {x: 2, y: 40, w: 47, h: 9, text: "near the left", size: 12, color: "#000000"}\n'
STOCK = "paper: letter\ncard_size: poker\nslots: [{x: X, y: 20}, {x: 100, y: 20}]\nbleed: 0\ncrop_marks: false\n"


def stock_game(tmp_path, x: float, game: str = GAME):
    make_game(tmp_path, game + "layout: stock.yaml\n", DECK, {"face": face(NEAR_LEFT)})
    (tmp_path / "cards" / "mini" / "stock.yaml").write_text(STOCK.replace("X", f"{x:g}"))
    return tmp_path


def margin_findings(root) -> dict:
    return {f["line"]: f for f in check_json(root)[1]["print"] if f["rule"] == "print-margin"}


def test_a_card_laid_into_the_printer_margin_is_found_with_the_text_on_it(tmp_path):
    """A custom layout's first slot 2 mm from the paper's left edge: the card's edge is 2 mm
    in, and the text 2 mm inside the card 4 mm in; the card in the second slot is clear."""
    root = stock_game(tmp_path, 2)
    found = margin_findings(root)
    edge, text = found[1], found[line_of(root / TEMPLATE, "near the left")]
    assert edge["file"] == text["file"] == TEMPLATE and edge["severity"] == "warning"
    assert edge["value"] == pytest.approx(2.0) and edge["limit"] == 5 and edge["cards"] == ["MIN-001"]
    assert "the card's edge prints 2.0 mm from the paper's edge, inside the 5 mm" in edge["message"]
    assert text["value"] == pytest.approx(4.0, abs=0.05) and text["cards"] == ["MIN-001"]
    assert "text 'near the left' prints 4.0 mm from the paper's edge" in text["message"]
    assert text["message"].endswith("on MIN-001 (cards/mini/decks/deck.yaml:6)")


def test_a_slot_clear_of_the_margin_has_no_finding_and_the_limit_is_the_printers(tmp_path):
    root = stock_game(tmp_path, 6)
    assert margin_findings(root) == {}          # card edge 6 mm in, the text 8 mm in
    stock_game(tmp_path, 6, GAME + "print: {margin: 7}\n")
    found = margin_findings(root)
    assert set(found) == {1} and found[1]["value"] == pytest.approx(6.0) and found[1]["limit"] == 7
    stock_game(tmp_path, 6, GAME + "printer_margin: 7\n")     # the limit follows printer_margin
    assert set(margin_findings(root)) == {1}
    stock_game(tmp_path, 2, GAME + "print: {margin: 0}\n")
    assert margin_findings(root) == {}


def test_the_automatic_grid_keeps_the_printer_margin_and_a_wider_limit_finds_it(tmp_path):
    """Two poker cards turned on Letter sit 12.7 mm from the top: clear of the 5 mm border,
    not of a 13 mm one."""
    make_game(tmp_path, GAME, DECK, {"face": face()})
    assert margin_findings(tmp_path) == {}
    make_game(tmp_path, GAME + "print: {margin: 13}\n", DECK, {"face": face()})
    (edge,) = margin_findings(tmp_path).values()
    assert edge["value"] == pytest.approx(12.7) and edge["cards"] == ["MIN-001", "MIN-002"]


def test_every_face_of_the_bundled_kits_prints_clear_of_the_margin(project, bundled_games):
    from pnpgen.printcheck import check_faces

    for name in bundled_games:
        plan = plan_game(load(project, name))
        kit = printing(plan)
        assert kit.decks or kit.boards
        assert [f for f in check_faces(plan, kit) if f.check == "margin"] == [], name


def test_a_faces_places_are_its_slots_on_the_sheets(tmp_path):
    root = stock_game(tmp_path, 2)
    plan = plan_game(load(Project(root), "mini"))
    kit = printing(plan)
    (sheet, cards), = kit.decks["deck"].runs
    assert kit.paper == "letter" and kit.page == (215.9, 279.4) and [c.code for c in cards] == ["MIN-001", "MIN-002"]
    assert [slot.trim[0] for slot in sheet.fronts] == [2, 100]
