"""Properties of the built card sheets, read back from the PDFs."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnpgen import presets
from pnpgen.build import Options, build_game, load
from pnpgen.sheets.impose import impose

from .pdfread import MM, apply, code_centres, fonts_of, is_embedded, page_geometry

TOL = 0.05 * MM  # 0.05 mm, in points


def deck_result(built, game, deck):
    return next(r for r in built[game] if r.id == deck)


def sheet_for(project, game_id, deck_id, paper="letter"):
    game = load(project, game_id)
    deck = next(d for d in game.decks if d.id == deck_id)
    g = game.game
    return impose(presets.papers()[paper], deck.size, g.bleed, g.printer_margin, g.cut, g.flip), deck


def test_crop_marks_lie_on_every_trim_line_outside_the_art(built, project):
    result = deck_result(built, "swarm", "common")
    reader = PdfReader(result.path)
    geo = page_geometry(reader, 0)
    placements = geo.placements
    assert len(placements) == result.per_sheet
    W, H = (float(v) for v in reader.pages[0].mediabox[2:])
    sheet, _ = sheet_for(project, "swarm", "common")
    # trim lines, as read back from the placed cards (matrix applied to the card's corners)
    w, h = (v * MM for v in sheet.card)
    xs, ys = set(), set()
    for p in placements:
        corners = [apply(p.matrix, u, v) for u, v in ((0, 0), (w, 0), (0, h), (w, h))]
        xs |= {round(c[0], 3) for c in corners}
        ys |= {round(c[1], 3) for c in corners}
    marks = [line for line in geo.lines if abs(line[2] - 0.25) < 1e-6]
    vertical = [m for m in marks if abs(m[0][0] - m[1][0]) < 1e-6]
    horizontal = [m for m in marks if abs(m[0][1] - m[1][1]) < 1e-6]
    assert vertical and horizontal
    for x in xs:
        assert any(abs(m[0][0] - x) < TOL for m in vertical), f"no crop mark at x={x / MM:.2f} mm"
    for y in ys:
        assert any(abs(m[0][1] - y) < TOL for m in horizontal), f"no crop mark at y={y / MM:.2f} mm"
    # every mark is outside every card's clip (bleed) area and inside the printable page
    margin = project and load(project, "swarm").game.printer_margin * MM
    for (x0, y0), (x1, y1), _ in marks:
        for p in placements:
            cx, cy, cw, ch = p.clip
            assert max(x0, x1) <= cx + 1e-6 or min(x0, x1) >= cx + cw - 1e-6 or \
                max(y0, y1) <= cy + 1e-6 or min(y0, y1) >= cy + ch - 1e-6, "crop mark over a card"
        for x, y in ((x0, y0), (x1, y1)):
            assert margin - 0.01 <= x <= W - margin + 0.01 and margin - 0.01 <= y <= H - margin + 0.01


@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_back_lands_behind_its_own_front(project, tmp_path, flip):
    result = next(r for r in build_game(project, "swarm", Options(out=tmp_path, flip=flip, rulebook=False)) if r.id == "common")
    reader = PdfReader(result.path)
    W, H = (float(v) for v in reader.pages[0].mediabox[2:])
    sheet, deck = sheet_for(project, "swarm", "common")
    w, h = (v * MM for v in deck.size)
    for page in (0, 2):
        fronts = page_geometry(reader, page).placements
        backs = page_geometry(reader, page + 1).placements
        assert len(fronts) == len(backs) > 0
        for front, back in zip(fronts, backs):
            for u, v in ((0, 0), (w, 0), (w * 0.3, h * 0.8), (w, h)):
                # the point (u, v) of the card's front and the point (w - u, v) of its back are
                # the same spot of paper once the sheet is turned over the flip edge
                fx, fy = apply(front.matrix, u, v)
                bx, by = apply(back.matrix, w - u, v)
                turned = (W - bx, by) if flip == "long" else (bx, H - by)
                assert turned == pytest.approx((fx, fy), abs=0.01)
            # and the clip (bleed area) turns over onto the front's clip
            fx, fy, fw, fh = front.clip
            bx, by, bw, bh = back.clip
            if flip == "long":
                assert (W - bx - bw, by, bw, bh) == pytest.approx((fx, fy, fw, fh), abs=0.01)
            else:
                assert (bx, H - by - bh, bw, bh) == pytest.approx((fx, fy, fw, fh), abs=0.01)


def test_common_back_is_drawn_once_and_reused(built):
    result = deck_result(built, "swarm", "common")
    reader = PdfReader(result.path)
    back_page = page_geometry(reader, 1)
    assert all(p.forms == ["/FormXob.back:common"] for p in back_page.placements)
    xobjects = reader.pages[1]["/Resources"]["/XObject"]
    assert list(xobjects.keys()) == ["/FormXob.back:common"]


def test_bleed_is_printed_beyond_the_trim(built, project):
    """Pixels just outside the outer trim edges carry the card's background colour, and the
    page beyond the bleed is white paper."""
    result = deck_result(built, "swarm", "common")
    sheet, _ = sheet_for(project, "swarm", "common")
    dpi = 100
    image = pdfium.PdfDocument(str(result.path))[0].render(scale=dpi / 72).to_pil().convert("RGB")
    H = sheet.page[1]

    def px(x_mm, y_mm):
        return image.getpixel((round(x_mm / 25.4 * dpi), round((H - y_mm) / 25.4 * dpi)))

    b = sheet.bleed
    x0 = min(s.trim[0] for s in sheet.fronts)
    y_mid = sheet.fronts[0].trim[1] + sheet.fronts[0].trim[3] / 3
    inside_bleed = px(x0 - b / 2, y_mid)
    beyond_bleed = px(x0 - b - 0.7, y_mid)
    assert inside_bleed == pytest.approx((0x2f, 0x5a, 0x36), abs=12)  # the evolution green
    assert beyond_bleed == (255, 255, 255)


def test_fonts_are_all_embedded_truetype(built):
    for results in built.values():
        for r in results:
            fonts = fonts_of(PdfReader(r.path))
            assert fonts, r.path
            for font in fonts:
                assert font["/Subtype"] in ("/TrueType", "/Type0"), font["/BaseFont"]
                assert is_embedded(font), f"{r.path}: {font['/BaseFont']} is not embedded"


def test_every_card_code_is_printed_once_per_copy(built):
    result = deck_result(built, "swarm", "common")
    pdf = pdfium.PdfDocument(str(result.path))
    codes = []
    for i in range(0, len(pdf), 2):
        text = pdf[i].get_textpage().get_text_range()
        codes += [t for t in text.split() if t.startswith("SWM-")]
    assert len(codes) == 73
    assert sorted(codes) == [f"SWM-{n:03d}" for n in range(1, 74)]


def test_paper_override_sets_the_page_size(project, tmp_path):
    results = build_game(project, "swarm", Options(out=tmp_path, paper="a4", rulebook=False))
    box = PdfReader(results[0].path).pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((595.28, 841.89), abs=0.01)


def test_builds_are_byte_identical(tmp_path, built, built_out):
    """`pnpgen build` in a fresh process with another hash seed than this one writes the same
    bytes as the session's build of every game (made in a test worker, among other tests)."""
    def digests(out):
        return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.rglob("*.pdf"))}

    ours = os.environ.get("PYTHONHASHSEED")
    env = dict(os.environ, PYTHONHASHSEED="2" if ours == "1" else "1")    # (unset here: a random seed)
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-m", "pnpgen", "build", "--out", str(out)],
                   check=True, env=env, cwd=os.path.dirname(os.path.dirname(__file__)))
    fresh = digests(out)
    assert set(fresh) >= {f"{g}/{r.path.name}" for g, results in built.items() for r in results}
    assert fresh == digests(built_out)
    assert len(fresh) >= 9   # every game: card decks and boards


UNIQUE_GAME = "title: Mini\ncode: MIN\npaper: letter\n"
UNIQUE_DECK = """name: Maps
template: face
back: {template: map, per_card: true}
fields:
  title: {required: true}
cards:
%s
""" % "\n".join(f"  - {{title: Card{i}}}" for i in range(1, 12))
UNIQUE_FACE = """size: poker
elements:
  - rect: {w: 63.5, h: 88.9, fill: "#ffeecc", bleed: true}
  - text: {x: 5, y: 5, w: 53.5, h: 10, text: "{{ title }}", size: 12}
"""
UNIQUE_BACK = """size: poker
elements:
  - rect: {w: 63.5, h: 88.9, fill: "#ccddff", bleed: true}
  - text: {x: 5, y: 40, w: 53.5, h: 10, text: "back of {{ title }}", size: 12, align: center}
"""


@pytest.mark.parametrize("paper,flip", [("letter", "long"), ("a4", "short")])
def test_unique_backs_print_their_code_behind_their_own_front(tmp_path, paper, flip):
    from pnpgen.build import Project

    from .minigame import make_game
    make_game(tmp_path, UNIQUE_GAME, UNIQUE_DECK, {"face": UNIQUE_FACE, "map": UNIQUE_BACK})
    result, = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out", paper=paper, flip=flip))
    pdf = pdfium.PdfDocument(str(result.path))
    assert len(pdf) == 2 * result.sheets == 4
    W, H = pdf[0].get_size()
    seen = 0
    for sheet in range(result.sheets):
        fronts, backs = code_centres(pdf[2 * sheet], "MIN-"), code_centres(pdf[2 * sheet + 1], "MIN-")
        assert set(fronts) == set(backs) and fronts
        for code, (fx, fy) in fronts.items():
            bx, by = backs[code]
            turned = (W - bx, by) if flip == "long" else (bx, H - by)
            assert turned == pytest.approx((fx, fy), abs=0.5 * MM), code
            seen += 1
    assert seen == 11
