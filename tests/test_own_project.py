"""A designer's own project, end to end: a deck whose cards are an XLSX workbook, an SVG icon
and one card's SVG art, large PNG and JPEG art, a sheet of hex tiles and a translucent panel,
built as the README says and read back: vectors, print resolution, hexagonal cuts with
registered backs, opacity, and a spreadsheet error that names its cell."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from pypdf import PdfReader

from .clirun import pnpgen
from .pdfread import MM, page_geometry, page_texts
from .sheetfiles import write_xlsx
from .pdfread import placed_images, ppi
from .test_opacity import alphas

GAME = """title: Lanterns
code: LAN
icons:
  flame: {image: icons/flame.svg, color: "#8a3b00"}
"""
DECK = """name: Lanterns
template: face
cards: sheets/lanterns.xlsx
fields:
  title: {required: true}
  cost: {type: int, default: 1}
  art: {default: dusk.png}
"""
FACE = """size: poker
elements:
  - rect: {w: 63.5, h: 88.9, fill: "#1d2b3a", bleed: true}
  - image: {src: "art/{{ art }}", w: 63.5, h: 88.9, bleed: true}
  - rect: {x: 4, y: 58, w: 55.5, h: 24, r: 2, fill: "#ffffff", opacity: 0.75}
  - text: {x: 6, y: 60, w: 51.5, h: 9, text: "{{ title }}", size: 12, color: "#000000"}
  - text: {x: 6, y: 70, w: 51.5, h: 9, text: ":flame: {{ cost }}", size: 11, color: "#000000"}
"""
TILES = """name: Islands
template: tile
pack: true
back: {template: tile-back}
fields: {terrain: {}}
cards:
  - {terrain: Reef, count: 10}
  - {terrain: Cove, count: 9}
"""
W, H = 60.0, 69.282
TILE = f"""size: [{W}, {H}]
shape: hex-pointy
code: {{y: 55}}
elements:
  - rect: {{w: {W}, h: {H}, fill: "#2e7d8c", bleed: true}}
  - text: {{x: 10, y: 28, w: 40, h: 12, text: "{{{{ terrain }}}}", size: 12, align: center, color: "#ffffff"}}
"""
TILE_BACK = f"""size: [{W}, {H}]
shape: hex-pointy
code: false
elements:
  - rect: {{w: {W}, h: {H}, fill: "#123456", bleed: true}}
"""
FLAME = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><path d="M0 0h512v512H0z"/>'
         '<path fill="#fff" d="M256 40c60 90 120 150 120 250a120 120 0 0 1-240 0c0-60 40-110 60-140'
         'c10 50 30 80 60 90c-20-70 0-140 0-200z"/></svg>')
MOON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 280"><rect width="200" height="280" '
        'fill="#223"/><circle cx="100" cy="110" r="60" fill="#f5e6a8"/><circle cx="125" cy="95" r="55" '
        'fill="#223"/></svg>')
ROWS = [["title", "cost", "art", "count"],
        ["Harbour Light", 2, "dusk.png", 2],
        ["Night Market", 3, "market.jpg", 1],
        ["Moonrise", 1, "moon.svg", 1]]


def painting(size, mode, seed) -> Image.Image:
    """Large art with detail everywhere (so resampling has something to lose)."""
    noise = Image.effect_noise(size, 60 + seed).convert("L")
    return Image.merge("RGB", (noise, noise.rotate(90, expand=False), Image.linear_gradient("L").resize(size))) \
        .convert(mode)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("own")
    game = root / "cards" / "lanterns"
    for sub in ("decks", "sheets", "art", "icons"):
        (game / sub).mkdir(parents=True)
    (root / "templates" / "lanterns").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    (game / "decks" / "lanterns.yaml").write_text(DECK)
    (game / "decks" / "tiles.yaml").write_text(TILES)
    write_xlsx(game / "sheets" / "lanterns.xlsx", {"Sheet1": ROWS})
    (game / "icons" / "flame.svg").write_text(FLAME)
    (game / "art" / "moon.svg").write_text(MOON)
    painting((2100, 2940), "RGBA", 1).save(game / "art" / "dusk.png", compress_level=1)     # (quick to write)
    buffer = io.BytesIO()
    painting((2400, 3360), "RGB", 2).save(buffer, "JPEG", quality=90)
    (game / "art" / "market.jpg").write_bytes(buffer.getvalue())
    for name, text in (("face", FACE), ("tile", TILE), ("tile-back", TILE_BACK)):
        (root / "templates" / "lanterns" / f"{name}.yaml").write_text(text)
    ran = pnpgen("build", "lanterns", cwd=root)
    assert ran.returncode == 0, ran.stderr
    return root


def test_the_workbook_deck_prints_each_row_and_its_copies(project):
    text = " ".join(page_texts(project / "out" / "lanterns" / "lanterns.pdf"))
    assert text.count("Harbour Light") == 2 and "Night Market" in text and "Moonrise" in text


def test_raster_art_is_at_print_resolution_and_svgs_are_vectors(project):
    reader = PdfReader(project / "out" / "lanterns" / "lanterns.pdf")
    drawn = placed_images(reader)
    # the PNG and the JPEG only (twice for the card with two copies): the SVG art and the SVG
    # icon are vector forms, never images
    assert len(drawn) == 3 and len({id(x[0]) for x in drawn}) <= 3
    assert all(280 <= ppi(placed) <= 460 for placed in drawn), [ppi(p) for p in drawn]
    forms = [x.get_object() for x in reader.pages[0]["/Resources"]["/XObject"].values()
             if x.get_object()["/Subtype"] == "/Form"]
    assert any(b" re" in f.get_data() or b" c\n" in f.get_data() or b" l\n" in f.get_data() for f in forms)


def test_the_panel_is_translucent(project):
    assert 0.75 in alphas(project / "out" / "lanterns" / "lanterns.pdf")["/ca"]


def test_hex_tiles_are_cut_as_hexagons_with_their_backs_behind_them(project):
    reader = PdfReader(project / "out" / "lanterns" / "tiles.pdf")
    assert len(reader.pages) == 4                      # 19 tiles nest on two sheets, each with its backs
    page_w = float(reader.pages[0].mediabox.width)
    for front in (0, 2):
        cuts = [corners for corners, width in page_geometry(reader, front).polygons if width == pytest.approx(0.3)]
        assert cuts and all(len(corners) == 6 for corners in cuts)
        fronts, backs = page_geometry(reader, front).placements, page_geometry(reader, front + 1).placements
        assert len(fronts) == len(backs) == len(cuts)
        for f, b in zip(fronts, backs):
            fx = sum(x for x, _ in f.path) / len(f.path)
            bx = sum(x for x, _ in b.path) / len(b.path)
            assert bx == pytest.approx(page_w - fx, abs=0.01 * MM)


def test_a_bad_cell_is_named_as_a_spreadsheet_user_reads_it(project, tmp_path):
    import shutil
    copy = tmp_path / "copy"
    shutil.copytree(project / "cards", copy / "cards")
    shutil.copytree(project / "templates", copy / "templates")
    rows = [row[:] for row in ROWS]
    rows[2][1] = "two"
    write_xlsx(copy / "cards" / "lanterns" / "sheets" / "lanterns.xlsx", {"Sheet1": rows})
    ran = pnpgen("build", "lanterns", cwd=copy)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "lanterns.xlsx: Sheet1!B3 (cost): expected a whole number, got 'two'" in ran.stderr, ran.stderr
    assert not (copy / "out" / "lanterns" / "lanterns.pdf").exists()
