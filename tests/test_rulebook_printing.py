"""The rulebook's "Printing and building this kit" section, and `pnpgen list`, say what the
build does: the files it wrote, the sheets each prints on (as many as its PDF has), one- or
double-sided and the flip edge, and how to put tiled boards together."""

from __future__ import annotations

import json

from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import page_texts
from .test_rulebook import BACK, DECK, FACE, GAME

HEADING = "Printing and building this kit"
RULES = "# Play\n\nDraw a card.\n"


def section_of(path) -> str:
    """The text of the rulebook's printing section, from its heading: the last part of the
    rulebook, on pages of its own."""
    pages = [" ".join(text.split()) for text in page_texts(path)]
    (start,) = [i for i, text in enumerate(pages) if "Every file is laid out for" in text]
    assert HEADING in pages[start] and HEADING not in pages[start - 1].split("Contents")[-1]
    text = " ".join(" ".join(pages[start:]).split())
    return text[text.index(HEADING):]


def sheets_of(result) -> int:
    """Sheets a built deck prints on, read off its PDF: its pages, or half of them when each
    sheet has a back page."""
    pages = len(PdfReader(result.path).pages)
    return pages // 2 if pages == 2 * result.sheets else pages


def test_every_bundled_rulebook_tells_the_sheets_its_files_print_on(built, project):
    for game, results in built.items():
        rulebook = [r for r in results if r.id == "rulebook"]
        if not (project.cards / game / "rulebook.md").is_file():
            continue
        text = section_of(rulebook[0].path)
        parts = [r for r in results if r.id != "rulebook"]
        boards = {p.stem for p in (project.cards / game / "boards").glob("*.yaml")}
        cards = sum(sheets_of(r) for r in parts if r.id not in boards and r.sheets)   # (a deck all on shared sheets: none of its own)
        assert f"For one copy of the game you need {cards} sheet{'s' if cards != 1 else ''} of card stock" in text, game
        for r in parts:
            assert f" {r.path.name} " in f" {text} ", (game, r.path.name)
        if boards:
            paper = sum(len(PdfReader(r.path).pages) for r in parts if r.id in boards)
            assert f"and {paper} sheets of paper for the boards" in text, game
            assert "Putting the boards together" in text
        assert "Print at actual size (100 %)" in text and "US Letter" in text


def test_list_shows_the_same_sheets_as_the_build_wrote(built, project, tmp_path):
    results = {r.id: r for r in built["swarm"]}
    listed = json.loads(pnpgen("list", "swarm", "--json", cwd=project.root).stdout)[0]
    for part in listed["decks"] + listed["boards"]:
        r = results[part["id"]]
        pages = len(PdfReader(r.path).pages)
        assert part["sheets"] == (pages if part in listed["boards"] else sheets_of(r)), part["id"]
    assert listed["printing"]["paper"] == "letter" and listed["printing"]["flip"] == "long"
    assert listed["printing"]["card_sheets"] == sum(d["sheets"] for d in listed["decks"])
    text = pnpgen("list", "swarm", cwd=project.root).stdout
    common = listed["decks"][0]
    assert f"  {common['id']}: " in text and f"; {common['sheets']} sheets, double-sided, long-edge flip, card stock" in text
    assert f"print on letter at 100 %: {listed['printing']['card_sheets']} sheets of card stock" in text


def build_mini(tmp_path, game: str = GAME, deck: str = DECK):
    folder = make_game(tmp_path, game, deck, {"face": FACE, "back": BACK})
    (folder / "rulebook.md").write_text(RULES)
    return {r.id: r for r in build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))}


def test_a_double_sided_deck_names_its_flip_edge_and_a_one_sided_one_says_so(tmp_path):
    built = build_mini(tmp_path)
    pages = page_texts(built["rulebook"].path)
    assert "Draw a card" not in pages[-1] and "Draw a card" in pages[-2]     # a page of its own
    text = section_of(built["rulebook"].path)
    assert "| " not in text and "deck.pdf Heroes: 6 cards, 63.5 × 88.9 mm" in text
    assert "double-sided, long-edge flip, card stock" in text and "flipping on the long edge" in text
    assert "you need 1 sheet of card stock" in text and "Putting the boards together" not in text
    short = build_mini(tmp_path / "short", GAME + "flip: short\n")
    assert "flipping on the short edge" in section_of(short["rulebook"].path)
    single = build_mini(tmp_path / "single", deck=DECK.replace("back: {template: back}\n", ""))
    text = section_of(single["rulebook"].path)
    assert "one-sided, card stock" in text and "double-sided" not in text and "duplex" not in text


def test_the_section_follows_the_paper_the_build_uses(tmp_path):
    folder = make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    (folder / "rulebook.md").write_text(RULES)
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", paper="a4"))
    (rulebook,) = [r for r in results if r.id == "rulebook"]
    assert "laid out for A4 (210 × 297 mm) paper" in section_of(rulebook.path)
