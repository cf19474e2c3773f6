"""`opacity:` on a `group` makes the group translucent as a whole: its elements are put
together first (the one on top hides what it overlaps) and the result is faded as one, so two
overlapping opaque shapes in a 50 % group show one colour where they overlap, not the one
under through the one on top. Read back from the sheets rendered with pdfium, from the PNG
export, and from the PDF's objects (a transparency group placed with /ca and /CA)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game, load
from pnpgen.export import export_game

from .minigame import make_game

RED, BLUE, WHITE = (0xcc, 0x22, 0x22), (0x22, 0x44, 0xcc), (0xff, 0xff, 0xff)
GAME = "title: Glass\ncode: GL\n"
DECK = """name: Panes
template: face
fields: {top: {default: '#2244cc'}}
cards:
  - {count: 2}
  - {top: '#2244cc', count: 1}
"""
FACE = """size: poker
code: false
elements:
  - rect: {w: 63.5, h: 88.9, fill: white, bleed: true}
  - group:                        # the same on every card: drawn once, in the deck's shared form
      x: 10
      y: 10
      opacity: 0.5
      draw:
        - rect: {x: 0, y: 0, w: 30, h: 20, fill: '#cc2222'}
        - rect: {x: 15, y: 0, w: 30, h: 20, fill: '#2244cc'}
  - group:                        # a card's own: drawn on its page
      x: 10
      y: 50
      opacity: 0.5
      draw:
        - rect: {x: 0, y: 0, w: 30, h: 20, fill: '#cc2222'}
        - rect: {x: 15, y: 0, w: 30, h: 20, fill: '{{ top }}'}
"""


def blend(top, under, alpha):
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top, under))


def near(found, expected, tolerance=3) -> bool:
    return all(abs(f - e) <= tolerance for f, e in zip(found, expected))


HALF_RED, HALF_BLUE = blend(RED, WHITE, 0.5), blend(BLUE, WHITE, 0.5)
SEEN_THROUGH = blend(BLUE, HALF_RED, 0.5)     # what per-shape opacity gives where they overlap


@pytest.fixture
def glass(tmp_path):
    make_game(tmp_path, GAME, DECK, {"face": FACE})
    return tmp_path


def test_the_sheets_show_one_colour_where_the_groups_shapes_overlap(glass):
    (result,) = build_game(Project(glass), "mini", Options(out=glass / "out"))
    page = pdfium.PdfDocument(str(result.path))[0].render(scale=100 / 72).to_pil().convert("RGB")
    counts = {colour: n for n, colour in page.getcolors(1 << 20)}

    def pixels(colour):
        return sum(n for c, n in counts.items() if near(c, colour))
    # 3 cards x 2 groups: each group 15 x 20 mm of half red, 30 x 20 of half blue (overlap included)
    mm2 = (100 / 25.4) ** 2
    assert pixels(HALF_RED) == pytest.approx(6 * 15 * 20 * mm2, rel=0.05)
    assert pixels(HALF_BLUE) == pytest.approx(6 * 30 * 20 * mm2, rel=0.05)
    assert pixels(SEEN_THROUGH) == 0


def test_the_pdf_holds_a_transparency_group_placed_at_half_opacity(glass):
    (result,) = build_game(Project(glass), "mini", Options(out=glass / "out"))
    reader = PdfReader(str(result.path))
    groups, alphas, seen = [], set(), set()

    def walk(resources):
        resources = resources.get_object() if resources is not None else None
        if resources is None or id(resources) in seen:
            return
        seen.add(id(resources))
        for state in (resources.get("/ExtGState") or {}).values():
            state = state.get_object()
            alphas.update((key, float(state[key])) for key in ("/ca", "/CA") if key in state)
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if "/Group" in xobject:
                groups.append(xobject["/Group"]["/S"])
            walk(xobject.get("/Resources"))

    walk(reader.pages[0]["/Resources"])
    assert groups and set(groups) == {"/Transparency"}
    assert len(groups) == 2       # the shared group once; the cards' own (alike) once, placed three times
    assert alphas == {("/ca", 0.5), ("/CA", 0.5)}


def test_the_png_export_shows_the_same(glass):
    dpi = 100
    result = export_game(load(Project(glass), "mini"), "png", glass / "png", dpi=dpi, bleed=False)
    image = Image.open(result.folder / "deck" / "GL-001-front.png").convert("RGB")

    def at(x, y):
        return image.getpixel((round(x / 25.4 * dpi), round(y / 25.4 * dpi)))
    for top in (10, 50):
        assert near(at(17, top + 10), HALF_RED)          # the red alone
        assert near(at(32, top + 10), HALF_BLUE)         # where they overlap: the blue on top, alone
        assert near(at(47, top + 10), HALF_BLUE)         # the blue alone
        assert near(at(32, top + 25), WHITE)             # under the group


def test_a_build_that_keeps_pages_is_byte_identical_to_a_fresh_one(tmp_path):
    """Two sheets, the first card's group only on the first; the last card changed after a
    first build: the build keeps the pages it can (a page placing a translucent group of its
    own is drawn again, so its group's form is in the new PDF) and writes the very bytes a
    build without the cache writes."""
    deck = DECK.replace("  - {count: 2}\n", "  - {top: '#8822cc', count: 2}\n" + "  - {top: '#2244cc'}\n" * 9)
    make_game(tmp_path, GAME, deck, {"face": FACE})
    build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    deck_file = tmp_path / "cards" / "mini" / "decks" / "deck.yaml"
    deck_file.write_text(deck.replace("  - {top: '#2244cc', count: 1}", "  - {top: '#22cc44', count: 1}"))
    (kept,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    (fresh,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "fresh", cache=False))
    assert len(PdfReader(str(fresh.path)).pages) == 2
    assert kept.path.read_bytes() == fresh.path.read_bytes()
