"""Transparency: `opacity:` on elements and '#rrggbbaa' colours reach the PDF as ExtGState
alpha (/ca for fills, text and images, /CA for strokes), blend with what lies under them in
every rendering (the sheets, PNG exports), end with the element that set them, and leave
bundled output as it was."""

from __future__ import annotations

import json
import re

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game, load
from pnpgen.export import export_game
from pnpgen.printcheck.raster import contrast

from .clirun import pnpgen
from .minigame import make_game

BLUE, RED, WHITE = (0x22, 0x44, 0xcc), (0xcc, 0x22, 0x22), (0xff, 0xff, 0xff)
GAME = "title: Glass\ncode: GL\n"
DECK = ("name: Panes\ntemplate: face\nfields:\n  title: {required: true}\ncards:\n"
        "  - {title: Alpha}\n")
FACE = """code: false
elements:
  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}
  - rect: {x: 10, y: 10, w: 40, h: 20, fill: white, opacity: 0.5}
  - rect: {x: 10, y: 35, w: 10, h: 10, fill: '#cc2222'}
  - rect: {x: 25, y: 35, w: 10, h: 10, fill: '#ffffff80', opacity: 0.5}
  - image: {src: art/red.png, x: 40, y: 35, w: 10, h: 10, opacity: 0.25}
  - line: {points: [[5, 60], [55, 60]], stroke: '#00000080', stroke_width: 2, opacity: 0.5}
  - text: {x: 5, y: 70, w: 50, h: 10, text: '{{ title }}', color: black, opacity: 0.6}
  - rect: {x: 40, y: 10, w: 10, h: 10, fill: '#cc2222'}
"""


def blend(top, under, alpha):
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top, under))


def glass(tmp_path, face=FACE, deck=DECK, game=GAME):
    folder = make_game(tmp_path, game, deck, {"face": face})
    (folder / "art").mkdir(exist_ok=True)
    Image.new("RGB", (8, 8), RED).save(folder / "art" / "red.png")
    return folder


def alphas(path) -> dict[str, set[float]]:
    """Every /ca and /CA value of every transparency state the PDF's pages and forms name."""
    found = {"/ca": set(), "/CA": set()}
    reader = PdfReader(str(path))
    seen = set()

    def walk(resources):
        if resources is None or id(resources) in seen:
            return
        seen.add(id(resources))
        resources = resources.get_object()
        for state in (resources.get("/ExtGState") or {}).values():
            for key in found:
                if key in state.get_object():
                    found[key].add(round(float(state.get_object()[key]), 3))
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def face_png(tmp_path, dpi=100):
    """The one face, exported as a PNG without bleed: (image, pixel of a card point in mm)."""
    result = export_game(load(Project(tmp_path), "mini"), "png", tmp_path / "png", dpi=dpi, bleed=False)
    image = Image.open(result.folder / "deck" / "GL-001-front.png").convert("RGB")
    return image, lambda x, y: image.getpixel((round(x / 25.4 * dpi), round(y / 25.4 * dpi)))


def test_opacity_and_rrggbbaa_reach_the_pdf_as_fill_and_stroke_alpha(tmp_path):
    glass(tmp_path)
    (result,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    found = alphas(result.path)
    # the panel 0.5, '#ffffff80' x 0.5, the image 0.25, the text 0.6; the line's stroke 0x80/255 x 0.5
    assert {0.5, round(0x80 / 255 * 0.5, 3), 0.25, 0.6} <= found["/ca"]
    assert round(0x80 / 255 * 0.5, 3) in found["/CA"]
    assert max(found["/ca"] | found["/CA"]) <= 1


def test_a_translucent_panel_blends_with_what_is_under_it_and_nothing_after_it_fades(tmp_path):
    glass(tmp_path)
    image, px = face_png(tmp_path)
    assert px(20, 20) == pytest.approx(blend(WHITE, BLUE, 0.5), abs=2)            # the panel
    assert px(30, 40) == pytest.approx(blend(WHITE, BLUE, 0x80 / 255 * 0.5), abs=2)
    assert px(45, 40) == pytest.approx(blend(RED, BLUE, 0.25), abs=2)             # the faded image
    assert px(15, 40) == pytest.approx(RED, abs=1)      # drawn after the panel: solid
    assert px(45, 15) == pytest.approx(RED, abs=1)      # drawn over the panel, after it: solid red
    assert px(30, 60) == pytest.approx(blend((0, 0, 0), BLUE, 0x80 / 255 * 0.5), abs=3)  # the line


def test_the_sheet_prints_the_same_blend_as_the_export(tmp_path):
    glass(tmp_path)
    (result,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    page = pdfium.PdfDocument(str(result.path))[0].render(scale=100 / 72).to_pil().convert("RGB")
    colours = {c for _, c in page.getcolors(maxcolors=1 << 24)}
    want = tuple(round(v) for v in blend(WHITE, BLUE, 0.5))
    assert any(all(abs(a - b) <= 2 for a, b in zip(c, want)) for c in colours)


def test_translucent_output_is_byte_identical_run_to_run_and_from_the_cache(tmp_path):
    glass(tmp_path)
    first = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "a"))[0].path.read_bytes()
    again = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "a"))[0].path.read_bytes()  # cached pages
    fresh = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "b", cache=False))[0].path.read_bytes()
    assert first == again == fresh


def test_the_grid_default_line_colour_is_a_translucent_black(tmp_path):
    face = ("code: false\nelements:\n  - rect: {w: 999, h: 999, fill: white, bleed: true}\n"
            "  - grid: {cells: ['. . .', '. . .'], x: 5, y: 5, cell: 10, line_width: 1}\n")
    glass(tmp_path, face=face)
    ran = pnpgen("build", "-q", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert round(0x55 / 255, 3) in alphas(tmp_path / "out" / "mini" / "deck.pdf")["/CA"]
    image, px = face_png(tmp_path)
    assert px(15, 10) == pytest.approx(blend((0, 0, 0), WHITE, 0x55 / 255), abs=3)   # on the line x = 15


@pytest.mark.parametrize("value, needle", [
    ("1.5", "less than or equal to 1"), ("-0.1", "greater than or equal to 0"), ("half", "expected a number")])
def test_an_opacity_out_of_range_is_located_and_says_the_range(tmp_path, value, needle):
    face = f"code: false\nelements:\n  - rect: {{w: 5, h: 5, fill: red, opacity: {value}}}\n"
    glass(tmp_path, face=face)
    ran = pnpgen("build", cwd=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "templates/mini/face.yaml:3:" in ran.stderr and "opacity" in ran.stderr and needle in ran.stderr


def print_findings(root) -> list[dict]:
    ran = pnpgen("check", "--format", "json", cwd=root)
    assert "Traceback" not in ran.stderr, ran.stderr
    return [f for f in json.loads(ran.stdout)["print"] if f["rule"] == "print-contrast"]


def test_the_contrast_check_reads_text_against_the_blended_panel_under_it(tmp_path):
    face = ("code: false\nelements:\n  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}\n"
            "  - rect: {x: 5, y: 5, w: 50, h: 20, fill: white, opacity: 0.5}\n"
            "  - text: {x: 8, y: 10, w: 44, h: 10, text: '{{ title }}', size: 12, color: white}\n")
    glass(tmp_path, face=face)
    (found,) = print_findings(tmp_path)
    under = re.search(r"on #([0-9a-f]{6}) has contrast", found["message"]).group(1)
    assert tuple(bytes.fromhex(under)) == pytest.approx(blend(WHITE, BLUE, 0.5), abs=2)
    assert found["value"] == pytest.approx(contrast(WHITE, tuple(bytes.fromhex(under))), abs=0.05)


@pytest.mark.parametrize("opacity, finds", [(1, False), (0.2, True)])
def test_translucent_text_is_measured_as_the_ink_it_shows(tmp_path, opacity, finds):
    face = ("code: false\nelements:\n  - rect: {w: 999, h: 999, fill: white, bleed: true}\n"
            f"  - text: {{x: 8, y: 10, w: 44, h: 10, text: '{{{{ title }}}}', size: 12, color: black, "
            f"opacity: {opacity}}}\n")
    glass(tmp_path, face=face)
    found = print_findings(tmp_path)
    assert bool(found) == finds
    if finds:
        seen = blend((0, 0, 0), WHITE, 0.2)        # black at 20 % on white shows as light grey
        assert "in #000000 at 20 % opacity on #ffffff" in found[0]["message"]
        assert found[0]["value"] == pytest.approx(contrast(tuple(round(v) for v in seen), WHITE), abs=0.05)


def test_a_board_keeps_its_translucent_parts_on_every_tile(tmp_path):
    """A board is drawn once as a form and shown through each tile's window: the form must
    carry its transparency states, or the panel would print solid."""
    folder = glass(tmp_path)
    (folder / "boards").mkdir()
    (folder / "boards" / "map.yaml").write_text("name: Map\nsize: [300, 200]\ntemplate: map\n")
    (tmp_path / "templates" / "mini" / "map.yaml").write_text(
        "size: [300, 200]\ncode: false\nelements:\n  - rect: {w: 300, h: 200, fill: '#2244cc', bleed: true}\n"
        "  - rect: {x: 0, y: 0, w: 300, h: 200, fill: white, opacity: 0.5}\n")
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    (board,) = [r for r in results if r.id == "map"]
    assert 0.5 in alphas(board.path)["/ca"]
    document = pdfium.PdfDocument(str(board.path))
    want = tuple(round(v) for v in blend(WHITE, BLUE, 0.5))
    for index in range(1, len(document)):         # page 0 shows how the tiles go together
        page = document[index].render(scale=50 / 72).to_pil().convert("RGB")
        colours = {c for _, c in page.getcolors(maxcolors=1 << 24)}
        assert any(all(abs(a - b) <= 2 for a, b in zip(c, want)) for c in colours), index


@pytest.mark.parametrize("shop", ["tgc", "mpc"])
def test_shop_uploads_show_the_panel_blended(tmp_path, shop):
    glass(tmp_path)
    result = export_game(load(Project(tmp_path), "mini"), shop, tmp_path / "shop")
    (png,) = [p for p in result.folder.rglob("*.png") if "back" not in p.name]
    with Image.open(png) as image:
        w, h = image.size
        dpi = w / ((63.5 + 2 * 3.175) / 25.4)                 # the upload's size, with its bleed
        pixel = image.convert("RGB").getpixel((round((3.175 + 20) / 25.4 * dpi), round((3.175 + 20) / 25.4 * dpi)))
    assert pixel == pytest.approx(blend(WHITE, BLUE, 0.5), abs=3)


def print_lines(root) -> list[dict]:
    ran = pnpgen("check", "--format", "json", cwd=root)
    return [f for f in json.loads(ran.stdout)["print"] if f["rule"] == "print-lines"]


@pytest.mark.parametrize("opacity, finds", [(1, False), (0.15, True)])
def test_a_faint_line_is_measured_as_the_ink_it_shows(tmp_path, opacity, finds):
    face = ("code: false\nelements:\n  - rect: {w: 999, h: 999, fill: white, bleed: true}\n"
            f"  - line: {{points: [[5, 20], [55, 20]], stroke: black, stroke_width: 0.5, opacity: {opacity}}}\n")
    glass(tmp_path, face=face)
    found = print_lines(tmp_path)
    assert bool(found) == finds
    if finds:
        seen = tuple(round(v) for v in blend((0, 0, 0), WHITE, 0.15))
        assert "line in #000000 at 15 % opacity on #ffffff" in found[0]["message"]
        assert found[0]["value"] == pytest.approx(contrast(seen, WHITE), abs=0.05)
