"""Transparency flattened in PDF/X-1a files (`pnpgen export dtc`, `pnpgen build --pdfx`): a
face that draws anything see-through is rendered and placed as one CMYK image, so the panel
prints as the blend the RGB build shows, not solid; faces without transparency stay vectors;
the file still passes the preflight (tests/preflight.py), and each template flattened is
named in a located warning."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen.build import Project, load
from pnpgen.cli.export import _counter
from pnpgen.cli.say import Say
from pnpgen.export import export_game
from pnpgen.pdf.flatten import render_bands

from .clirun import pnpgen
from .minigame import make_game
from .preflight import preflight

BLUE, RED, GREEN = (0x22, 0x44, 0xcc), (0xcc, 0x22, 0x22), (0x22, 0xcc, 0x44)
DTC_BLEED = 25.4 / 8
GAME = "title: Glass\ncode: GL\n"
DECK = ("name: Panes\ncard_size: poker\ntemplate: face\nback: {template: plain}\nfields:\n"
        "  title: {required: true}\ncards:\n  - {title: Alpha, count: 2}\n  - {title: Beta}\n")
PANEL = """size: poker
elements:
  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}
  - rect: {x: 10, y: 10, w: 40, h: 30, fill: '#cc2222', opacity: 0.6}
  - text: {x: 5, y: 70, w: 50, h: 10, text: '{{ title }}', color: black}
"""
PLAIN = """size: poker
elements:
  - rect: {w: 999, h: 999, fill: '#22cc44', bleed: true}
  - text: {x: 5, y: 40, w: 50, h: 10, text: 'Glass back', color: black}
  - rect: {x: 10, y: 50, w: 40, h: 20, fill: 'SWATCH'}
"""
"""The back: vector, with a swatch of the colour a test expects, printed solid for comparison
(the press profile moves colours, so a PDF/X pixel is compared with a PDF/X swatch)."""


def blend(top, under, alpha):
    return tuple(round(alpha * t + (1 - alpha) * u) for t, u in zip(top, under))


def near(pixel, colour, within=14) -> bool:
    return max(abs(a - b) for a, b in zip(pixel, colour)) <= within


def glass(tmp_path, face=PANEL, swatch=blend(RED, BLUE, 0.6)):
    return make_game(tmp_path, GAME, DECK, {"face": face, "plain": PLAIN.replace("SWATCH", hex_of(swatch))})


def hex_of(rgb) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def dtc(tmp_path):
    return export_game(load(Project(tmp_path), "mini"), "dtc", tmp_path / "out").folder / "deck" / "deck.pdf"


def dtc_pixel(path, page: int, x: float, y: float, dpi: float = 100):
    """The colour of card point (x, y) mm on a page of a DriveThruCards file, rendered at `dpi`."""
    image = pdfium.PdfDocument(str(path))[page].render(scale=dpi / 72).to_pil().convert("RGB")
    return image.getpixel((round((DTC_BLEED + x) / 25.4 * dpi), round((DTC_BLEED + y) / 25.4 * dpi)))


def images_drawn(reader, page) -> list:
    """Every image XObject a page draws, forms followed."""
    found, stack = [], [page["/Resources"]]
    while stack:
        for ref in (stack.pop().get("/XObject") or {}).values():
            thing = ref.get_object()
            if thing["/Subtype"] == "/Image":
                found.append(thing)
            else:
                stack.append(thing.get("/Resources") or {})
    return found


def test_a_translucent_panel_prints_as_the_blend_in_the_dtc_file(tmp_path):
    glass(tmp_path)
    path = dtc(tmp_path)
    assert preflight(path) == []
    panel, swatch = dtc_pixel(path, 0, 30, 25), dtc_pixel(path, 1, 30, 60)
    assert near(panel, swatch, within=6), (panel, swatch)      # 60 % red over the blue: the blend
    assert near(dtc_pixel(path, 0, 55, 5), dtc_pixel(path, 0, 5, 5), within=2)   # the blue round it
    assert not near(panel, dtc_pixel(path, 0, 5, 5), within=40)
    reader = PdfReader(path)
    bands = images_drawn(reader, reader.pages[0])        # the face rendered, a band of rows at a time
    assert all(b["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in b for b in bands)
    assert {b["/Width"] for b in bands} == {round((63.5 + 2 * DTC_BLEED) / 25.4 * 600)}  # with its bleed, 600 ppi
    assert sum(b["/Height"] - 1 for b in bands) + 1 == round((88.9 + 2 * DTC_BLEED) / 25.4 * 600)
    texts = [pdfium.PdfDocument(str(path))[i].get_textpage().get_text_range() for i in (0, 1)]
    assert texts[0].strip() == "" and "Glass back" in texts[1]   # the flattened face has no text left


def test_a_face_without_transparency_stays_vector(tmp_path):
    glass(tmp_path)
    path = dtc(tmp_path)
    reader = PdfReader(path)
    back = reader.pages[1]
    assert images_drawn(reader, back) == []
    drawn = back.get_contents().get_data()
    assert b"/FormXob.plain.0 Do" in drawn and b"flat" not in drawn    # its vector form, as before
    assert "Glass back" in pdfium.PdfDocument(str(path))[1].get_textpage().get_text_range()
    assert dtc_pixel(path, 1, 30, 25) == dtc_pixel(path, 1, 5, 5) != dtc_pixel(path, 0, 30, 25)


def test_a_soft_edged_png_over_a_fill_prints_as_the_blend(tmp_path):
    face = ("size: poker\nelements:\n  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}\n"
            "  - image: {src: veil.png, x: 10, y: 10, w: 40, h: 30}\n")
    folder = glass(tmp_path, face=face, swatch=blend(RED, BLUE, 128 / 255))
    Image.new("RGBA", (40, 30), RED + (128,)).save(folder / "veil.png")    # red, half see-through
    path = dtc(tmp_path)
    assert preflight(path) == []
    pixel, swatch = dtc_pixel(path, 0, 30, 25), dtc_pixel(path, 1, 30, 60)
    assert near(pixel, swatch, within=6), (pixel, swatch)
    assert not near(pixel, dtc_pixel(path, 0, 5, 5), within=40)     # not the blue under it either


def test_an_svg_drawn_with_opacity_prints_as_the_blend(tmp_path):
    face = ("size: poker\nelements:\n  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}\n"
            "  - image: {src: veil.svg, x: 10, y: 10, w: 40, h: 30}\n")
    folder = glass(tmp_path, face=face)
    (folder / "veil.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">'
                                     '<rect width="40" height="30" fill="#cc2222" fill-opacity="0.6"/></svg>')
    path = dtc(tmp_path)
    assert preflight(path) == []
    pixel, swatch = dtc_pixel(path, 0, 30, 25), dtc_pixel(path, 1, 30, 60)
    assert near(pixel, swatch, within=6), (pixel, swatch)


def test_a_translucent_group_prints_as_one_blend_in_the_dtc_file(tmp_path):
    """A group with opacity (a transparency group in the RGB build) is see-through too: its two
    overlapping red parts print as one 60 % blend over the blue, where they overlap as well."""
    face = ("size: poker\nelements:\n  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}\n"
            "  - group:\n      opacity: 0.6\n      draw:\n"
            "        - rect: {x: 10, y: 10, w: 30, h: 30, fill: '#cc2222'}\n"
            "        - rect: {x: 20, y: 20, w: 30, h: 30, fill: '#cc2222'}\n")
    glass(tmp_path, face=face)
    path = dtc(tmp_path)
    assert preflight(path) == []
    swatch = dtc_pixel(path, 1, 30, 60)
    for x, y in ((15, 15), (25, 25), (45, 45)):      # the first part, the overlap, the second
        assert near(dtc_pixel(path, 0, x, y), swatch, within=6), (x, y, dtc_pixel(path, 0, x, y), swatch)


def test_a_keyed_out_png_with_smoothed_edges_is_not_flattened(tmp_path):
    """Pixels clear or solid print exactly with a colour key, and a hole's smoothed rim (under
    5 % of the pixels) near enough: the face stays vector."""
    face = ("size: poker\nelements:\n  - rect: {w: 999, h: 999, fill: '#2244cc', bleed: true}\n"
            "  - image: {src: hole.png, x: 10, y: 10, w: 40, h: 30}\n")
    folder = glass(tmp_path, face=face)
    hole = Image.new("RGBA", (200, 150), RED + (255,))
    hole.paste(RED + (128,), (49, 49, 151, 101))                   # a one-pixel soft rim: 1 % of the pixels
    hole.paste((0, 0, 0, 0), (50, 50, 150, 100))
    hole.save(folder / "hole.png")
    reader = PdfReader(dtc(tmp_path))
    (image,) = images_drawn(reader, reader.pages[0])
    assert image["/Width"] == 200 and "/Mask" in image            # the art itself, keyed; not a render


def test_build_pdfx_sheets_show_the_blend_and_pass_preflight(tmp_path):
    glass(tmp_path)
    ran = pnpgen("build", "--pdfx", "-q", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    deck = tmp_path / "out" / "mini" / "deck.pdf"
    assert preflight(deck) == []
    fronts, backs = (pdfium.PdfDocument(str(deck))[i].render(scale=100 / 72).to_pil().convert("RGB")
                     for i in (0, 1))
    colours = {c for n, c in fronts.getcolors(maxcolors=1 << 24) if n > 200}
    swatch = {c for n, c in backs.getcolors(maxcolors=1 << 24) if n > 200} - {(255, 255, 255)}
    assert any(near(c, s, within=6) for c in colours for s in swatch)      # the blend, as the swatch


def test_flattened_files_are_byte_identical_run_to_run(tmp_path):
    glass(tmp_path)
    first = dtc(tmp_path).read_bytes()
    assert dtc(tmp_path).read_bytes() == first
    for run in ("a", "b"):
        assert pnpgen("build", "--pdfx", "-q", "--out", f"out-{run}", cwd=tmp_path).returncode == 0
    assert (tmp_path / "out-a/mini/deck.pdf").read_bytes() == (tmp_path / "out-b/mini/deck.pdf").read_bytes()


def test_a_board_side_is_flattened_on_every_tile(tmp_path):
    want = blend((255, 255, 255), BLUE, 0.5)
    folder = glass(tmp_path, swatch=want)
    (folder / "boards").mkdir()
    (folder / "boards" / "map.yaml").write_text("name: Map\nsize: [330, 100]\ntemplate: map\n")
    (tmp_path / "templates" / "mini" / "map.yaml").write_text(
        "size: [330, 100]\ncode: false\nelements:\n  - rect: {w: 330, h: 100, fill: '#2244cc', bleed: true}\n"
        "  - rect: {x: 0, y: 0, w: 330, h: 100, fill: white, opacity: 0.5}\n")
    ran = pnpgen("build", "--pdfx", "-q", "--flatten-ppi", "150", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    board = tmp_path / "out" / "mini" / "map.pdf"
    assert preflight(board) == []
    document = pdfium.PdfDocument(str(board))
    swatch = dtc_pixel(dtc(tmp_path), 1, 30, 60)
    assert len(document) >= 3
    for index in range(1, len(document)):         # page 0 shows how the tiles go together
        page = document[index].render(scale=30 / 72).to_pil().convert("RGB")
        colours = {c for n, c in page.getcolors(maxcolors=1 << 24) if n > 100}
        assert any(near(c, swatch, within=6) for c in colours), (index, swatch, colours)


def test_bands_put_together_are_the_whole_render(tmp_path):
    """A face is rendered a band of rows at a time (a board never needs all its pixels at
    once); the bands, each laid from its top row, make exactly the picture rendered whole."""
    glass(tmp_path)
    ran = pnpgen("build", "-q", cwd=tmp_path)                 # the RGB build: a PDF to render
    assert ran.returncode == 0, ran.stderr
    pdf = (tmp_path / "out" / "mini" / "deck.pdf").read_bytes()
    size = (170, 220)
    ((_, rows, whole),) = list(render_bands(pdf, size, band=1000))
    assert rows == 220 and whole.size == size
    bands = list(render_bands(pdf, size, band=64))
    assert [(top, rows) for top, rows, _ in bands] == [(0, 65), (64, 65), (128, 65), (192, 28)]
    laid = Image.new("RGB", size)
    for top, _, picture in bands:
        laid.paste(picture, (0, top))
    assert laid.tobytes() == whole.tobytes()


def test_the_preflight_finds_the_alpha_of_an_rgb_build(tmp_path):
    """The preflight helper itself sees what flattening removes."""
    glass(tmp_path)
    assert pnpgen("build", "-q", cwd=tmp_path).returncode == 0
    problems = preflight(tmp_path / "out" / "mini" / "deck.pdf")
    assert any("/ca 0.6" in p for p in problems), problems


WARNING = ("warning: templates/mini/face.yaml:4: elements[1]: opacity or a see-through (#rrggbbaa) colour on this "
           "face: in the PDF/X file the face is flattened to a {ppi} ppi image; its text is no longer vector")


@pytest.mark.parametrize("command", [("export", "dtc"), ("build", "--pdfx")])
def test_each_template_flattened_is_named_at_its_line_once_and_not_under_quiet(tmp_path, command):
    glass(tmp_path)
    ran = pnpgen(*command, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.count("flattened") == 1                 # face.yaml, once for its three cards; not plain.yaml
    assert WARNING.format(ppi=600) in ran.stderr
    quiet = pnpgen(*command, "-q", cwd=tmp_path)
    assert quiet.returncode == 0 and "flattened" not in quiet.stderr + quiet.stdout


def test_the_flattening_resolution_is_settable_and_checked(tmp_path):
    glass(tmp_path)
    ran = pnpgen("export", "dtc", "--flatten-ppi", "150", cwd=tmp_path)
    assert ran.returncode == 0 and WARNING.format(ppi=150) in ran.stderr
    reader = PdfReader(tmp_path / "out" / "mini" / "dtc" / "deck" / "deck.pdf")
    (band,) = images_drawn(reader, reader.pages[0])                 # 413 x 563 px: one band
    assert (band["/Width"], band["/Height"]) == (round(69.85 / 25.4 * 150), round(95.25 / 25.4 * 150))
    bad = pnpgen("build", "--pdfx", "--flatten-ppi", "10", cwd=tmp_path)
    assert bad.returncode == 2 and "--flatten-ppi" in bad.stderr and "Traceback" not in bad.stderr


# --- export progress: faces drawn of the faces in all ------------------------------------------

MIXED = ("name: Panes\ncard_size: poker\ntemplate: face\nback: {template: plain}\nfields:\n"
         "  title: {required: true}\ncards:\n  - {title: Alpha, count: 2}\n  - {title: Beta}\n"
         "  - {title: Gamma, back: plain}\n")
TOKENS = ("name: Chits\ncard_size: [20, 20]\npack: true\ntemplate: chit\nback: {template: chit}\n"
          "fields:\n  title: {}\ncards:\n  - {title: A, count: 5}\n  - {title: B}\n")


@pytest.mark.parametrize("fmt, total", [("png", 9), ("dtc", 8), ("tgc", 5), ("tts", 10)])
def test_an_export_counts_to_the_total_it_announced(tmp_path, fmt, total):
    """Each format's count, announced before it starts and reached exactly at the end. png: the
    deck's 3 fronts, Gamma's own back and the common back, and the 2 tokens' fronts and backs;
    dtc: a page for each copy's front and back (Alpha twice, Beta, Gamma); tgc: the deck's 5
    faces (no tokens); tts: the fronts' sheet and, as Gamma has its own back, a back in each of
    the 3 slots, and the tokens' 4 faces."""
    make_game(tmp_path, GAME, MIXED, {"face": PANEL, "plain": PLAIN.replace("SWATCH", "#000000"),
                                      "chit": "size: [20, 20]\nelements:\n  - rect: {w: 20, h: 20, fill: red}\n"})
    (tmp_path / "cards" / "mini" / "decks" / "chits.yaml").write_text(TOKENS)
    told = []
    result = export_game(load(Project(tmp_path), "mini"), fmt, tmp_path / "out", dpi=60,
                         rendered=lambda done, of: told.append((done, of)))
    assert {of for _, of in told} == {total}
    assert told[-1][0] == total and [d for d, _ in told] == sorted(d for d, _ in told)
    if fmt == "png":          # one PNG a face drawn (and a cards.csv a deck)
        assert len(list(result.folder.rglob("*.png"))) == total


def test_a_run_off_a_terminal_prints_the_summary_only(tmp_path):
    glass(tmp_path)
    ran = pnpgen("export", "png", "--dpi", "60", cwd=tmp_path)
    assert ran.returncode == 0 and ran.stderr == ""
    assert ran.stdout.splitlines() == ["mini: 4 files in out/mini/png", "  3 card faces at 60 DPI with 3.175 mm bleed"]


def test_on_a_terminal_the_progress_line_shows_the_total(capsys):
    say = Say()
    say.live = True                      # as on a terminal
    _counter(say, "mini: png")(5, 12)
    line = capsys.readouterr().err
    assert line.startswith("\rmini: png: 5/12 faces drawn [########............]")
