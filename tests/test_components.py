"""Components, not fake decks: a board is drawn by a layouter of the board itself (no one-card
deck stands in for it), each kind of component reports its own result and record, `build
--strict` plans the game once, and loading and planning a deck read its card table's columns
instead of making every card."""

from __future__ import annotations

import json

import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen.build import BoardResult, DeckResult, Options, Project, RulebookResult, build_game, load, plan_game
from pnpgen.export.faces import BoardFaces, DeckFaces, deck_faces
from pnpgen.game.expand import assign_numbers, expand
from pnpgen.game.cards import CardTable, DeckSource
from pnpgen.game.loader import BoardSource
from pnpgen.layout.layouter import Layouter

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import page_texts

GAME = "title: Components\ncode: CMP\n"
FACE = "size: poker\nelements:\n  - text: {x: 6, y: 6, w: 51.5, h: 9, text: \"{{ title }}\"}\n"
BOARD = """name: Ford map
size: [150, 100]
template: map
back: map-back
fields:
  motto: Hold the ford
"""
MAP = """size: [150, 100]
code: false
elements:
  - rect: {w: 150, h: 100, fill: "#d8e8c8", bleed: true}
  - text: {x: 20, y: 40, w: 110, h: 10, text: "{{ deck.name }} / {{ deck.id }} / {{ motto }}", size: 12}
"""
MAP_BACK = """size: [150, 100]
code: false
elements:
  - rect: {w: 150, h: 100, fill: "#334455", bleed: true}
"""
RULEBOOK = "---\ntitle: Components\n---\n\n# How to play\n\nCross the ford.\n"


def _deck(n: int, pinned: dict[int, int] | None = None) -> str:
    pinned = pinned or {}
    rows = [f"  - {{title: \"Card {i + 1}\"" + (f", number: {pinned[i]}" if i in pinned else "") + "}"
            for i in range(n)]
    return "name: Tiles\ntemplate: face\nfields:\n  title: {}\ncards:\n" + "\n".join(rows) + "\n"


def _game(root, cards: int = 9, pinned=None, board: str = BOARD, map_template: str = MAP, rulebook: bool = False):
    folder = make_game(root, GAME, _deck(cards, pinned), {"face": FACE, "map": map_template, "map-back": MAP_BACK},
                       deck_id="tiles")
    (folder / "boards").mkdir()
    (folder / "boards" / "ford.yaml").write_text(board)
    if rulebook:
        (folder / "rulebook.md").write_text(RULEBOOK)
    return folder


def test_a_board_is_drawn_by_a_layouter_of_the_board_itself(tmp_path):
    """The board's layouter draws the BoardSource, whose name and id its template sees as
    deck.name and deck.id, as a deck's template sees the deck's; the built board prints them."""
    _game(tmp_path)
    game = load(Project(tmp_path), "mini")
    plan = plan_game(game)
    (board,), (deck,) = plan.boards, plan.decks
    assert board.layouter.component is game.boards[0] and isinstance(board.layouter.component, BoardSource)
    assert deck.layouter.component is game.decks[0] and isinstance(deck.layouter.component, DeckSource)
    assert (board.layouter.component.kind, deck.layouter.component.kind) == ("board", "deck")
    assert board.layouter.size == (150, 100) and board.card.entry.fields == {"motto": "Hold the ford"}
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", cache=False))
    (mat,) = [r for r in results if r.kind == "board"]
    texts = page_texts(mat.path)
    assert any("Ford map / ford / Hold the ford" in t for t in texts)


def test_an_unknown_name_in_a_board_template_names_the_board_and_its_fields(tmp_path):
    _game(tmp_path, map_template=MAP.replace("{{ motto }}", "{{ mottto }}"))
    ran = pnpgen("--root", str(tmp_path), "build", "--out", str(tmp_path / "out"))
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    line = MAP.splitlines().index(next(ln for ln in MAP.splitlines() if "text:" in ln)) + 1
    assert f"map.yaml:{line}: elements[1]: undefined name 'mottto'" in ran.stderr
    assert "did you mean 'motto'" in ran.stderr and "the board 'ford' declares: motto" in ran.stderr
    assert not (tmp_path / "out" / "mini").exists() or not list((tmp_path / "out" / "mini").glob("*.pdf"))


def test_each_kind_of_component_reports_its_own_result_and_the_summary_counts_them(tmp_path):
    _game(tmp_path, rulebook=True)
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", cache=False))
    deck, board, rulebook = results
    assert (type(deck), type(board), type(rulebook)) == (DeckResult, BoardResult, RulebookResult)
    assert [r.kind for r in results] == ["deck", "board", "rulebook"]
    assert [r.id for r in results] == ["tiles", "ford", "rulebook"]
    assert deck.cards == 9 and deck.pages == len(PdfReader(deck.path).pages) == deck.sheets == 2   # single-sided
    assert board.sheets >= 1 and board.pages == len(PdfReader(board.path).pages)
    assert rulebook.sheets == 0 and rulebook.pages == len(PdfReader(rulebook.path).pages) >= 1
    ran = pnpgen("--root", str(tmp_path), "build", "--no-cache", "--out", str(tmp_path / "again"))
    assert ran.returncode == 0, ran.stderr
    sheets = deck.sheets + board.sheets
    assert ran.stdout.strip() == (f"mini: 3 PDFs, {sheets} sheet{'s' if sheets != 1 else ''} of cards and tokens, "
                                  f"0 warnings, in {tmp_path / 'again' / 'mini'}")
    book = json.loads((tmp_path / "out" / "mini" / "manifest.json").read_text())
    assert {d["id"]: (d["kind"], d["name"], d["pack"]) for d in book["decks"]} == {
        "tiles": ("deck", "Tiles", False), "ford": ("board", "Ford map", False)}


def test_build_strict_plans_the_game_once(tmp_path, monkeypatch):
    """The print check --strict runs looks at the plan the build then draws from: one layouter
    for the deck and one for the board, not two of each."""
    _game(tmp_path)
    made = []
    init = Layouter.__init__

    def counted(self, game, component, *args, **kwargs):
        made.append(component.id)
        init(self, game, component, *args, **kwargs)
    monkeypatch.setattr(Layouter, "__init__", counted)
    ran = pnpgen("--root", str(tmp_path), "build", "--strict", "--no-cache", "--out", str(tmp_path / "out"))
    assert ran.returncode == 0, ran.stderr
    assert sorted(made) == ["ford", "tiles"]
    assert (tmp_path / "out" / "mini" / "tiles.pdf").is_file() and (tmp_path / "out" / "mini" / "ford.pdf").is_file()


def test_loading_and_planning_read_the_card_table_not_each_card(tmp_path, monkeypatch):
    """Templates wanted, the size and outline checks, code numbers and the plan read the card
    table's columns: no card's data is made until something draws it. Pinned numbers are kept
    and the others numbered on in deck order, skipping them."""
    _game(tmp_path, cards=300, pinned={4: 2, 10: 500})
    made = []
    row = CardTable.row     # (where an entry's data is made: indexing the table, or iterating the cards)

    def counted(self, i):
        made.append(i)
        return row(self, i)
    monkeypatch.setattr(CardTable, "row", counted)
    game = load(Project(tmp_path), "mini")
    plan = plan_game(game)
    assert made == []
    codes = [card.code for card in plan.decks[0].cards]
    assert len(codes) == 300 and len(made) == 300     # each entry's data made once, as its cards are drawn
    assert codes[:6] == ["CMP-001", "CMP-003", "CMP-004", "CMP-005", "CMP-002", "CMP-006"]
    assert codes[10] == "CMP-500" and len(set(codes)) == 300
    assert expand(game, game.decks[0], assign_numbers(game))[10].code == "CMP-500"


def test_a_boards_sides_export_as_board_faces(tmp_path):
    """Exports take a board as BoardFaces (side B behind side A), beside the decks' DeckFaces;
    `export png` writes its sides at the board resolution."""
    _game(tmp_path)
    faces = deck_faces(load(Project(tmp_path), "mini"), boards=True)
    assert [type(f) for f in faces] == [DeckFaces, BoardFaces] and [f.kind for f in faces] == ["deck", "board"]
    board = faces[1]
    assert [f.code for f in board.faces()] == ["a", "b"] and board.back_of(board.fronts[0]) is board.backs[0]
    ran = pnpgen("--root", str(tmp_path), "export", "png", "--dpi", "100", "--no-bleed",
                 "--out", str(tmp_path / "out"))
    assert ran.returncode == 0, ran.stderr
    for side in "ab":
        with Image.open(tmp_path / "out" / "mini" / "png" / "boards" / f"ford-{side}.png") as im:
            assert im.size == (round(150 / 25.4 * 100), round(100 / 25.4 * 100))
    assert len(list((tmp_path / "out" / "mini" / "png" / "tiles").glob("*-front.png"))) == 9


@pytest.mark.parametrize("pinned", [{3: 7, 5: 7}])
def test_a_number_pinned_twice_is_refused_at_the_second(tmp_path, pinned):
    folder = _game(tmp_path, pinned=pinned)
    ran = pnpgen("--root", str(tmp_path), "build", "--out", str(tmp_path / "out"))
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    lines = (folder / "decks" / "tiles.yaml").read_text().splitlines()
    second = next(i for i, ln in enumerate(lines, 1) if "Card 6" in ln)
    assert f"tiles.yaml:{second}: number 7 is already used by tiles cards[3]; numbers must be unique" in ran.stderr
