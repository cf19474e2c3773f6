"""Rulebooks: facts drawn from the data, figures drawn from the real cards, broken
references as located errors, numbered pages and contents, typography, and the booklet's
saddle-stitch page order."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from pypdf import PdfReader
from reportlab.platypus import Paragraph

from pnpgen.build import Options, Project, build_game
from pnpgen.errors import InputError
from pnpgen.rulebook import printing as rulebook_printing
from pnpgen.rulebook.booklet import page_order
from pnpgen.rulebook.document import PageSpec, RulebookDoc
from pnpgen.rulebook.figures import Figure
from pnpgen.rulebook.wrapping import WrapOnce

from .minigame import make_game
from .pdfread import fonts_of, is_embedded

GAME = "title: Mini Quest\ncode: MQ\n"
DECK = """name: Heroes
template: face
back: {template: back}
fields:
  title: {required: true}
  role: {choices: [Fighter, Healer]}
cards:
  - {title: Knight, role: Fighter, count: 3}
  - {title: Cleric, role: Healer, count: 2}
  - {title: Squire, role: Fighter}
"""
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - text: {x: 5, y: 10, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""
BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#6a2a2a", bleed: true}
"""
LOREM = ("Heroes travel the long roads between the villages, trading stories and supplies while the "
         "weather turns against them and the nights grow colder. ")
RULES = """---
title: Mini Quest
subtitle: A test of the rulebook press
players: 1-3
credit: Card faces reconstructed for this kit.
---
# Overview

The deck holds {{ decks.deck.count }} cards in {{ decks.deck.entries }} kinds: \
{{ decks.deck.where(role='Fighter').count }} Fighters and {{ decks.deck.where(role='Healer').count }} Healers.
The {{ card('deck', 'Knight').name }} comes {{ card('deck', 'Knight').count }} times.

## Components

{{ components() }}

![The Knight](<card:deck/Knight>) ![Its back](<back:deck/Knight>)

# Play

%s

::: example A turn
The Cleric heals.
:::

## Winning

%s

# Appendix

{{ card_list('deck', 'title', 'role') }}
""" % ("\n\n".join([LOREM * 3] * 6), "\n\n".join([LOREM * 2] * 8))


def mini(tmp_path, rules: str = RULES):
    folder = make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    (folder / "rulebook.md").write_text(rules)
    return folder


def build(tmp_path, **kw):
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", **kw))
    return {r.id: r for r in results}


def page_texts(path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


def test_counts_and_tables_come_from_the_data(tmp_path):
    mini(tmp_path)
    results = build(tmp_path)
    text = " ".join(" ".join(page_texts(results["rulebook"].path)).split())
    assert "The deck holds 6 cards in 3 kinds: 4 Fighters and 2 Healers." in text
    assert "The Knight comes 3 times." in text
    assert "Heroes (63.5 × 88.9 mm) 6 cards" in text            # the components table
    assert re.search(r"3 Knight Fighter 2 Cleric Healer 1 Squire Fighter", text)   # the card list
    assert "Card faces reconstructed for this kit." in text


def test_a_change_in_the_data_changes_the_rulebook(tmp_path):
    folder = mini(tmp_path)
    deck = folder / "decks" / "deck.yaml"
    deck.write_text(deck.read_text().replace("{title: Knight, role: Fighter, count: 3}",
                                             "{title: Knight, role: Fighter, count: 5}"))
    text = " ".join(" ".join(page_texts(build(tmp_path)["rulebook"].path)).split())
    assert "The deck holds 8 cards in 3 kinds: 6 Fighters" in text and "comes 5 times" in text


def test_figures_are_the_real_cards_drawn_as_vector_art(tmp_path):
    mini(tmp_path)
    path = build(tmp_path)["rulebook"].path
    pdf = pdfium.PdfDocument(str(path))
    texts = page_texts(path)
    page = next(i for i, t in enumerate(texts) if "Its back" in t)
    assert "Knight" in texts[page] and "MQ-001" in texts[page]    # the card's own title and code
    image = pdf[page].render(scale=1).to_pil().convert("RGB")
    colors = {image.getpixel((x, y)) for x in range(0, image.width, 2) for y in range(0, image.height, 2)}
    assert (0x2a, 0x6f, 0x3a) in colors and (0x6a, 0x2a, 0x2a) in colors   # the face's and the back's fill
    reader = PdfReader(path)
    assert not any("/Image" in str(x.get_object().get("/Subtype")) for p in reader.pages
                   for x in ((p["/Resources"].get("/XObject") or {}).values()))   # vectors, not pictures


def test_every_font_is_embedded_and_body_text_is_at_least_9_points(tmp_path):
    mini(tmp_path, RULES.replace("![The Knight](<card:deck/Knight>) ![Its back](<back:deck/Knight>)", ""))
    path = build(tmp_path)["rulebook"].path
    fonts = fonts_of(PdfReader(path))
    assert fonts and all(is_embedded(f) for f in fonts)
    pdf = pdfium.PdfDocument(str(path))
    sizes = set()
    for i in range(1, len(pdf)):    # the title page shows cards as cover art, small print and all
        tp = pdf[i].get_textpage()
        for c in range(tp.count_chars()):
            if tp.get_text_range(c, 1).strip():
                sizes.add(round(pdfium_raw.FPDFText_GetFontSize(tp.raw, c), 1))
    assert sizes and min(sizes) >= 9


def test_pages_are_numbered_and_the_contents_point_at_them(tmp_path):
    mini(tmp_path)
    path = build(tmp_path)["rulebook"].path
    pdf = pdfium.PdfDocument(str(path))
    assert len(pdf) >= 4
    for i in range(1, len(pdf)):
        w, h = pdf[i].get_size()
        footer = pdf[i].get_textpage().get_text_bounded(0, 0, w, 19 * 72 / 25.4)
        assert str(i + 1) in footer.split(), f"page {i + 1} has no number in its footer: {footer!r}"
    texts = page_texts(path)
    contents = texts[1]
    assert contents.startswith("Contents") or "Contents" in contents
    for heading in ("Overview", "Components", "Play", "Winning", "Appendix"):
        m = re.search(rf"^{heading}[ .]*(\d+)\s*$", contents, re.M)
        assert m, f"{heading} missing from the contents"
        listed = int(m.group(1))
        found = next(i + 1 for i, t in enumerate(texts[2:], 2) if re.search(rf"^{heading}\s*$", t, re.M))
        assert listed == found, f"{heading}: contents say page {listed}, it is on page {found}"


def _figures_drawn(monkeypatch) -> list:
    """A list that grows by one each time a rulebook figure is drawn."""
    drawn, draw = [], Figure.draw

    def counted(self):
        drawn.append(self)
        draw(self)
    monkeypatch.setattr(Figure, "draw", counted)
    return drawn


def test_a_book_with_contents_draws_its_pages_once_and_prints_as_if_every_pass_drew_them(tmp_path, monkeypatch):
    mini(tmp_path)
    drawn = _figures_drawn(monkeypatch)
    sketched = build(tmp_path)["rulebook"]
    once = len(drawn)
    with monkeypatch.context() as m:        # every pass drawn, as reportlab's own multi-pass build does
        m.setattr(RulebookDoc, "_on_progress", lambda self, kind, count: None)
        drawn.clear()
        results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "drawn"))
        everything = next(r for r in results if r.id == "rulebook")
    assert once > 0 and len(drawn) == 2 * once         # two passes, the first one sketched
    assert sketched.path.read_bytes() == everything.path.read_bytes() and sketched.pages == everything.pages


def test_each_paragraph_breaks_its_lines_once_for_both_passes_and_prints_as_if_broken_each_time(tmp_path,
                                                                                                  monkeypatch):
    mini(tmp_path)
    broken, breaks = [], Paragraph.breakLines

    def counted(self, widths):
        broken.append(self)
        return breaks(self, widths)
    monkeypatch.setattr(Paragraph, "breakLines", counted)
    kept = build(tmp_path)["rulebook"]
    once = len(broken)
    with monkeypatch.context() as m:        # every wrap breaks the lines again, as reportlab's own Paragraph does
        m.setattr(WrapOnce, "wrap", Paragraph.wrap)
        broken.clear()
        results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "again"))
        again = next(r for r in results if r.id == "rulebook")
    assert once > 50 and len(broken) > 1.8 * once
    assert kept.path.read_bytes() == again.path.read_bytes() and kept.pages == again.pages


def test_a_book_whose_contents_list_nothing_still_prints_its_pages(tmp_path, monkeypatch):
    mini(tmp_path, "No heading at all: the contents stay empty.\n\n{{ components() }}\n")
    monkeypatch.setattr(rulebook_printing, "append", lambda src, kit: None)   # (its section has headings)
    drawn = _figures_drawn(monkeypatch)
    path = build(tmp_path)["rulebook"].path
    texts = page_texts(path)
    assert "Contents" in texts[1] and "the contents stay empty" in " ".join(texts[2:])
    assert "Printing and building" not in " ".join(texts)
    assert drawn and fonts_of(PdfReader(path))


def test_no_heading_is_left_at_the_foot_of_a_column(tmp_path):
    # every third heading is followed straight by a call-out box rather than by text
    headings = "\n\n".join(f"## Heading {i}\n\n" + (f"::: note Box {i}\n{LOREM * 2}\n:::\n\n" if i % 3 == 0 else "")
                           + LOREM * (1 + i % 4) for i in range(40))
    mini(tmp_path, "# Rules\n\n" + headings)
    path = build(tmp_path)["rulebook"].path
    pdf = pdfium.PdfDocument(str(path))
    spec = PageSpec.for_paper((215.9, 279.4))
    floor = (spec.margin + 6) * 72 / 25.4      # the frame's bottom, points
    checked = 0
    for i in range(2, len(pdf)):
        tp = pdf[i].get_textpage()
        for m in re.finditer(r"Heading \d+", tp.get_text_range()):
            left, bottom, right, top = tp.get_charbox(m.start())
            assert bottom > floor + 2 * 13, f"page {i + 1}: '{m.group()}' ends its column"
            checked += 1
    assert checked == 40


def test_long_words_are_hyphenated(tmp_path):
    words = "incomprehensibilities extraordinarily characteristically " * 30
    mini(tmp_path, "# Words\n\n" + words)
    text = page_texts(build(tmp_path)["rulebook"].path)[2]
    # pdfium reports a hyphen the line breaker added as U+FFFE
    assert re.search("[a-z]\ufffe\\s*[a-z]", text), "no word is hyphenated at a line end"


def test_output_is_byte_identical_across_builds(tmp_path):
    mini(tmp_path)
    first = build(tmp_path, booklet=True)
    one = first["rulebook"].path.read_bytes(), (first["rulebook"].path.parent / "rulebook-booklet.pdf").read_bytes()
    again = build(tmp_path, booklet=True)
    two = again["rulebook"].path.read_bytes(), (again["rulebook"].path.parent / "rulebook-booklet.pdf").read_bytes()
    assert one == two


@pytest.mark.parametrize("pages", range(1, 18))
def test_booklet_page_order_folds_into_reading_order(pages):
    """Fold the printed stack: page p (from 0) of n sits on sheet min(p, n-1-p) // 2, on the
    front's right / back's left in the first half of the book, and the mirror in the second."""
    sides = page_order(pages)
    n = len(sides) * 2
    assert n % 4 == 0 and 0 <= n - pages < 4
    placed = [p for side in sides for p in side if p is not None]
    assert sorted(placed) == list(range(pages))
    for p in range(pages):
        q = min(p, n - 1 - p)
        front, back = sides[2 * (q // 2)], sides[2 * (q // 2) + 1]
        if p < n // 2:
            assert (front[1] if q % 2 == 0 else back[0]) == p
        else:
            assert (front[0] if q % 2 == 0 else back[1]) == p


def test_booklet_pdf_puts_each_page_in_its_place(tmp_path):
    mini(tmp_path)
    results = build(tmp_path, booklet=True)
    booklet = results["rulebook"].path.parent / "rulebook-booklet.pdf"
    pdf = pdfium.PdfDocument(str(booklet))
    w, h = pdf[0].get_size()
    assert (round(w), round(h)) == (792, 612)               # Letter, landscape: two half-letter pages
    sides = page_order(_half_pages(tmp_path))
    assert len(pdf) == len(sides)
    for i, (left, right) in enumerate(sides):
        tp = pdf[i].get_textpage()
        for half, index in ((0, left), (1, right)):
            text = tp.get_text_bounded(half * w / 2, 0, (half + 1) * w / 2, 40)   # the footer strip
            if index is None or index == 0:                 # blank pages and the title page: no number
                assert not re.search(r"\b\d+\b", text), (i, half, text)
            else:
                assert str(index + 1) in text.split(), (i, half, index, text)


def _half_pages(tmp_path) -> int:
    """How many pages the rules take on half-letter: the booklet's halves that hold text."""
    booklet = tmp_path / "out" / "mini" / "rulebook-booklet.pdf"
    pdf = pdfium.PdfDocument(str(booklet))
    w, h = pdf[0].get_size()
    count = 0
    for i in range(len(pdf)):
        tp = pdf[i].get_textpage()
        for half in (0, 1):
            text = tp.get_text_bounded(half * w / 2, 0, (half + 1) * w / 2, h)
            count += bool(text.strip())
    return count


@pytest.mark.parametrize("change, line, message", [
    ("{{ decks.deck.count }}", "{{ card('deck', 'Knigth').count }}", "deck 'deck' has no card 'Knigth' (did you mean 'Knight'?)"),
    ("{{ decks.deck.count }}", "{{ decks.dek.count }}", "the game has no deck 'dek' (did you mean 'deck'?)"),
    ("where(role='Fighter')", "where(rol='Fighter')", "deck 'deck' has no field 'rol' (did you mean 'role'?)"),
    ("<card:deck/Knight>", "<card:deck/Night>", "deck 'deck' has no card 'Night' (did you mean 'Knight'?)"),
    ("<back:deck/Knight>", "<board:map>", "the game has no board 'map'"),
    ("{{ decks.deck.count }}", "{{ decks.deck.count ", "template syntax"),
])
def test_a_reference_to_something_the_game_lacks_is_a_located_error(tmp_path, change, line, message):
    assert change in RULES
    mini(tmp_path, RULES.replace(change, line, 1))
    with pytest.raises(InputError) as err:
        build(tmp_path)
    problem, = err.value.problems
    source_line = next(i for i, text in enumerate(RULES.replace(change, line, 1).splitlines(), 1) if line in text)
    assert str(problem.path).endswith("rulebook.md") and problem.line == source_line
    assert message in problem.message
    assert not (tmp_path / "out" / "mini").exists() or not any((tmp_path / "out" / "mini").iterdir())


def test_front_matter_keys_are_checked(tmp_path):
    mini(tmp_path, RULES.replace("players: 1-3", "player: 1-3"))
    with pytest.raises(InputError) as err:
        build(tmp_path)
    problem, = err.value.problems
    assert problem.line == 4 and "did you mean 'players'" in problem.message


def test_a_game_without_a_rulebook_builds_as_before(tmp_path):
    folder = mini(tmp_path)
    (folder / "rulebook.md").unlink()
    results = build(tmp_path)
    assert "rulebook" not in results and not (tmp_path / "out" / "mini" / "rulebook.pdf").exists()


def test_check_catches_a_broken_rulebook_reference_for_ci(tmp_path):
    from click.testing import CliRunner

    from pnpgen.cli import main

    mini(tmp_path, RULES.replace("<card:deck/Knight>", "<card:deck/Night>"))
    run = CliRunner().invoke(main, ["--root", str(tmp_path), "check", "--format", "github"])
    assert run.exit_code == 1          # like a broken deck rule: the rulebook disagrees with the data
    assert "::error file=" in run.output and "rulebook.md,line=" in run.output and "Night" in run.output
    assert not (tmp_path / "out").exists()


def test_a4_paper_gives_an_a4_rulebook_and_an_a5_booklet(tmp_path):
    mini(tmp_path)
    path = build(tmp_path, paper="a4", booklet=True)["rulebook"].path
    page = PdfReader(path).pages[0].mediabox
    assert (round(float(page.width), 1), round(float(page.height), 1)) == (595.3, 841.9)
    sheet = PdfReader(path.parent / "rulebook-booklet.pdf").pages[0].mediabox
    assert (round(float(sheet.width), 1), round(float(sheet.height), 1)) == (841.9, 595.3)


def test_a_spread_joins_cards_edge_to_edge_each_cut_at_its_trim(tmp_path):
    mini(tmp_path, "# Table\n\n![Two backs and a face](<spread:deck/Knight,Cleric;Squire?face=back&width=60>)\n")
    path = build(tmp_path)["rulebook"].path
    pdf = pdfium.PdfDocument(str(path))
    image = pdf[2].render(scale=2).to_pil().convert("RGB")
    back = (0x6a, 0x2a, 0x2a)
    pixels = [(x, y) for x in range(image.width) for y in range(0, image.height, 2)
              if image.getpixel((x, y)) == back]
    assert pixels
    xs, ys = sorted(p[0] for p in pixels), sorted(p[1] for p in pixels)
    # two poker backs side by side over one: 60 mm wide, 2 x 88.9 x 60 / 127 mm tall
    width_mm = (xs[-1] - xs[0] + 1) / 2 * 25.4 / 72
    height_mm = (ys[-1] - ys[0] + 2) / 2 * 25.4 / 72
    # the lower right quarter is empty: the spread's second row holds one card
    quarter = [(x, y) for x, y in pixels if x > (xs[0] + xs[-1]) / 2 + 4 and y > (ys[0] + ys[-1]) / 2 + 4]
    assert not quarter
    assert abs(width_mm - 60) < 1.5 and abs(height_mm - 60 * 2 * 88.9 / 127) < 1.5
    assert (0x2a, 0x6f, 0x3a) not in {image.getpixel((x, y)) for x in range(0, image.width, 3)
                                      for y in range(0, image.height, 3)}   # backs only: no face


def test_cover_figures_come_from_the_front_matter_and_are_checked(tmp_path):
    mini(tmp_path, RULES.replace("players: 1-3", "players: 1-3\ncover: ['card:deck/Cleric']"))
    text = page_texts(build(tmp_path)["rulebook"].path)[0]
    assert "Cleric" in text and "Knight" not in text
    mini(tmp_path, RULES.replace("players: 1-3", "players: 1-3\ncover: ['card:deck/Clerc']"))
    with pytest.raises(InputError) as err:
        build(tmp_path)
    problem, = err.value.problems
    assert problem.line == 5 and "did you mean 'Cleric'" in problem.message


def test_a_character_no_font_has_is_a_located_warning_and_an_error_under_strict(tmp_path):
    mini(tmp_path, RULES.replace("# Play", "# Play \U0001F40A \u2605"))   # a crocodile no face has; a star only sans has
    line = next(i for i, t in enumerate(RULES.splitlines(), 1) if t == "# Play")
    warnings = build(tmp_path)["rulebook"].warnings
    assert [(w.line, "U+1F40A" in w.message) for w in warnings] == [(line, True)]
    with pytest.raises(InputError) as err:
        build(tmp_path, strict=True)
    assert "U+1F40A" in str(err.value) and "--strict" in str(err.value)
    assert not list((tmp_path / "out" / "mini").glob(".*.part"))     # no temporary file left behind


def test_a_character_only_the_sans_face_has_is_set_in_it(tmp_path):
    mini(tmp_path, "# Stars\n\nThe rarest counters carry a \u2605 and a \u2726.\n")
    result = build(tmp_path)["rulebook"]
    assert not result.warnings
    pdf = pdfium.PdfDocument(str(result.path))
    tp = pdf[2].get_textpage()
    text = tp.get_text_range()
    for star in ("\u2605", "\u2726"):
        i = text.index(star)
        assert pdfium_raw.FPDFText_GetFontSize(tp.raw, i) >= 9
        box = tp.get_charbox(i)
        assert box[2] - box[0] > 2      # drawn with a real glyph, not a zero-width gap


BUNDLED = sorted(p.parent.name for p in (Path(__file__).resolve().parent.parent / "cards").glob("*/rulebook.md"))
assert BUNDLED, "no bundled game has a rulebook.md: the test below would pass on nothing"


@pytest.mark.parametrize("game", BUNDLED)
def test_each_bundled_rulebook_lists_the_components_the_kit_prints(built, project, game):
    from pnpgen.build import load

    result = next(r for r in built[game] if r.id == "rulebook")
    texts = page_texts(result.path)
    assert len(texts) >= 4 and "Contents" in texts[1]
    text = " ".join(" ".join(texts).split())
    source = load(project, game)
    for deck in source.decks:
        count = sum(c.count for c in deck.cards)        # counted here, independently of the rulebook code
        unit = ("piece" if deck.deck.pack else "card") + ("s" if count != 1 else "")
        size = "" if deck.deck.pack else f" ({deck.size[0]:g} × {deck.size[1]:g} mm)"
        assert f"{' '.join(deck.deck.name.split())}{size} {count} {unit}" in text, (game, deck.id)
    for board in source.boards:
        assert " ".join(board.board.name.split()) in text
    assert "reconstructed for this" in text.lower()    # what the kit invents is credited as such
    assert all(is_embedded(f) for f in fonts_of(PdfReader(result.path)))


def test_hyphenation_breaks_only_where_the_dictionary_allows_and_keeps_every_letter(tmp_path):
    import pyphen

    words = ("Place the turn-order markers by the concurrent-use icon and the extraordinarily "
             "incomprehensible characteristically long-standing reconstruction notes; ") * 12
    mini(tmp_path, "# Words\n\n" + words)
    text = page_texts(build(tmp_path)["rulebook"].path)[2]
    body = text[text.index("Place"):]
    assert " ".join(body.replace("\ufffe", "").split()) == words.strip()   # nothing lost, hyphens kept
    dic = pyphen.Pyphen(lang="en_US")
    breaks = 0
    for m in re.finditer(r"([^\W\d_]+)\ufffe\s*([^\W\d_]+)", body):
        head, tail = m.group(1), m.group(2)
        assert len(head) in dic.positions(head + tail), f"{head}-{tail} is not a dictionary break"
        breaks += 1
    assert breaks


def test_a_heading_over_a_long_table_starts_where_the_text_left_off(tmp_path):
    rows = "\n".join(f"| Row {i} | value {i} |" for i in range(60))
    mini(tmp_path, f"# Start\n\n{LOREM}\n\n## Big table\n\n| Name | Value |\n|---|---|\n{rows}\n")
    path = build(tmp_path)["rulebook"].path
    texts = page_texts(path)
    assert "Big table" in texts[2] and "Row 0" in texts[2]     # same page as the text before it
    tp = pdfium.PdfDocument(str(path))[2].get_textpage()
    start = tp.get_text_range().index("Big table")
    h = pdfium.PdfDocument(str(path))[2].get_size()[1]
    assert tp.get_charbox(start)[1] > h / 2                    # high in the first column, not moved on


def test_a_spread_card_may_name_its_own_deck_and_face(tmp_path):
    mini(tmp_path, "# Table\n\n![A face among backs](<spread:deck/Knight,front:Cleric,deck/Squire?face=back&width=90>)\n")
    path = build(tmp_path)["rulebook"].path
    image = pdfium.PdfDocument(str(path))[2].render(scale=2).to_pil().convert("RGB")
    colours = [image.getpixel((x, y)) for y in range(0, image.height, 3) for x in range(0, image.width, 3)]
    assert (0x2a, 0x6f, 0x3a) in colours and (0x6a, 0x2a, 0x2a) in colours   # one face, two backs
    with pytest.raises(InputError) as err:
        mini(tmp_path, "# T\n\n![x](<spread:deck/back:Clerc>)\n")
        build(tmp_path)
    assert "did you mean 'Cleric'" in str(err.value)
