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


COUNTED = "name: Counted\ntemplate: face\nback: {template: back}\nfields:\n  title: {required: true}\n  kind: {}\ncards:\n" \
          "  - {title: A, count: 2}\n  - {title: B, count: 0}\n  - {title: C, count: 3, number: 40}\n" \
          "  - {title: D, kind: x}\n  - {title: E, count: 0}\n  - {title: F, count: 7}\n  - {title: G, count: 0}\n"


def test_physical_cards_are_made_on_demand_and_agree_however_they_are_asked_for(tmp_path):
    from pnpgen.build import load
    from pnpgen.game.expand import assign_numbers, expand

    make_game(tmp_path, GAME, COUNTED, {"face": FACE, "back": BACK})
    game = load(Project(tmp_path), "mini")
    deck = game.decks[0]
    # the entries, read back from their columns: fields, counts, pinned numbers, lines
    assert [c.fields for c in deck.cards][:4] == [{"title": "A", "kind": None}, {"title": "B", "kind": None},
                                                  {"title": "C", "kind": None}, {"title": "D", "kind": "x"}]
    assert [c.count for c in deck.cards] == [2, 0, 3, 1, 0, 7, 0]
    assert [c.number for c in deck.cards] == [None, None, 40, None, None, None, None]
    assert [c.line for c in deck.cards] == list(range(8, 15)) and deck.cards[-1].fields["title"] == "G"
    cards = expand(game, deck, assign_numbers(game))
    # every entry has its number, printed or not (B and E keep 002 and 004)
    wanted = [(t, n, code) for t, count, code in (("A", 2, "LG-001"), ("C", 3, "LG-040"), ("D", 1, "LG-003"),
                                                 ("F", 7, "LG-005")) for n in range(1, count + 1)]
    assert [(c.entry.fields["title"], c.copy, c.code) for c in cards] == wanted
    assert len(cards) == 13 and [cards[i] for i in range(13)] == list(cards) and cards[-1] == list(cards)[-1]
    for lo in range(14):           # every run of them, as sheets and volumes take them
        for hi in range(lo, 15):
            run = cards[lo:hi]
            assert list(run) == list(cards)[lo:hi] and len(run) == len(wanted[lo:hi])
            assert list(run[1:3]) == list(cards)[lo:hi][1:3]


def test_the_copies_of_one_card_carry_on_across_a_volume_boundary(tmp_path):
    deck = DECK.replace("  - {title: Card 8}", "  - {title: Card 8, count: 3}")
    make_game(tmp_path, GAME, deck, {"face": FACE, "back": BACK})
    (result,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", volume_sheets=1))
    per = result.per_sheet
    assert per < 10 and result.cards == 32
    fronts = [pdfium.PdfDocument(str(p))[0].get_textpage().get_text_range() for p in result.volumes[:2]]
    copies = [text.count("LG-008") for text in fronts]
    assert sum(copies) == 3 and copies == [per - 7, 3 - (per - 7)]   # card 8's copies fill slots 8..10
    assert "LG-009" not in fronts[0] and "LG-009" in fronts[1]       # and the next card follows them


def test_a_build_whose_files_cannot_all_be_put_in_place_leaves_no_manifest_describing_them(tmp_path):
    import pytest

    from pnpgen.errors import InputError

    make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    options = Options(out=tmp_path / "out", volume_sheets=2)
    build_game(Project(tmp_path), "mini", options)
    out = tmp_path / "out" / "mini"
    assert (out / "manifest.json").is_file()
    (out / "deck-2.pdf").unlink()
    (out / "deck-2.pdf").mkdir()            # the second volume cannot be renamed into place
    (tmp_path / "cards" / "mini" / "decks" / "deck.yaml").write_text(DECK.replace("Card 1}", "Card one}"))
    with pytest.raises(InputError) as err:
        build_game(Project(tmp_path), "mini", options)
    assert "deck-2.pdf" in str(err.value) and "cannot write" in str(err.value)
    # the first volume is the new one: a manifest of the old build would now describe it wrongly
    assert "Card one" in pdfium.PdfDocument(str(out / "deck-1.pdf"))[0].get_textpage().get_text_range()
    assert not (out / "manifest.json").exists() and not list(out.glob(".*.part"))
