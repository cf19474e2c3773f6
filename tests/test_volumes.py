"""A very long deck is split into volumes (reportlab holds a PDF's pages in memory until it is
saved): the sheets, codes and registration carry on across the files."""

from __future__ import annotations

import pypdfium2 as pdfium
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game

from .minigame import make_game

GAME = "title: Long Game\ncode: LG\n"
DECK = "name: Long deck\ntemplate: face\nback: {template: back}\nfields:\n  title: {required: true}\ncards:\n" + \
       "\n".join(f"  - {{title: Card {i + 1}}}" for i in range(30)) + "\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""
BACK = "size: poker\nelements:\n  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: '#6a2a2a', bleed: true}\n"


def test_a_long_deck_is_split_into_volumes_that_carry_on(tmp_path):
    make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    (result,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", volume_sheets=2))
    out = tmp_path / "out" / "mini"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["deck-1.pdf", "deck-2.pdf"]
    assert result.volumes == [out / "deck-1.pdf", out / "deck-2.pdf"] and result.sheets == 4
    pages = [len(PdfReader(p).pages) for p in result.volumes]
    assert pages == [4, 2 * (result.sheets - 2)]            # fronts and backs, two sheets a volume
    first = pdfium.PdfDocument(str(out / "deck-2.pdf"))[0].get_textpage().get_text_range()
    assert "sheet 3 of 4 (volume 2 of 2)" in first         # sheets are numbered across volumes
    assert "LG-017" in first and "LG-016" not in first      # and the cards carry on where volume 1 stopped
    assert not list(out.glob(".*.part"))


def test_a_deck_within_one_volume_keeps_its_one_file(tmp_path):
    make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    (result,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    assert result.volumes == [result.path] and result.path.name == "deck.pdf"
    text = pdfium.PdfDocument(str(result.path))[0].get_textpage().get_text_range()
    assert "volume" not in text
