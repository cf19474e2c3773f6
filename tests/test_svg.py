"""SVG images and icons: drawn as vector paths (no image XObject), recoloured by `color:`,
fitted as raster images are, shown in PNG exports and rulebook figures, checked safely (a
broken or hostile file is a located error, exit 2; a feature svglib cannot draw is a located
warning), and deterministic, their contents part of the build cache's keys."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game, load
from pnpgen.build.workers import worker_count
from pnpgen.export import export_game

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import fonts_of, is_embedded

GAME = """title: Vectors
code: VEC
icons:
  sword: {image: icons/sword.svg, color: "#c0392b"}
  shield: {image: icons/shield.svg}
"""
DECK = """name: Deck
template: face
fields:
  title: {required: true}
  art: {default: sun}
cards:
  - {title: One, count: 2}
  - {title: Two, art: hill}
"""
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#ffffff", bleed: true}
  - image: {src: "art/{{ art }}.svg", x: 5, y: 5, w: 53.5, h: 40, fit: contain}
  - image: {src: icons/sword.svg, x: 5, y: 50, w: 20, h: 20, color: "#2255aa"}
  - image: {src: icons/sword.svg, x: 35, y: 50, w: 20, h: 20}
  - text: {x: 5, y: 75, w: 53.5, h: 10, text: "{{ title }} :sword: :shield:", size: 14}
"""
SWORD = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><path d="M0 0h512v512H0z"/>'
         '<path fill="#fff" d="M236 32h40v288h64v32h-64v128h-40V352h-64v-32h64z"/></svg>')
"""Our own icon in game-icons.net's form: a black background square, the shape in white."""
SHIELD = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 120"><path fill="#22aa77" stroke="#113355" '
          'stroke-width="6" d="M10 10H90V60Q90 100 50 115Q10 100 10 60Z"/></svg>')
SUN = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
       '<rect width="200" height="100" fill="#88ccff"/><circle cx="60" cy="50" r="40" fill="#ffcc33"/>'
       '<path d="M100 90L150 10L190 90Z" fill="#aa3333"/></svg>')
HILL = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="M0 100Q50 0 100 100Z" '
        'fill="#33aa33"/></svg>')


def svg_game(root, face: str = FACE, game: str = GAME, **files: str):
    """A small game whose art and icons are SVGs (`files` adds or replaces some: 'art/x.svg')."""
    folder = make_game(root, game, DECK, {"face": face}, game_id="vec")
    defaults = {"icons/sword.svg": SWORD, "icons/shield.svg": SHIELD, "art/sun.svg": SUN, "art/hill.svg": HILL}
    for rel, text in {**defaults, **files}.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def build(root, out_name: str = "out", **options):
    result, = build_game(Project(root), "vec", Options(out=root / out_name, **options))
    return result


def xobjects(resources, found=None) -> dict:
    """Every XObject reachable from a page's resources, forms' own resources included: name -> object."""
    found = {} if found is None else found
    for name, ref in ((resources or {}).get("/XObject") or {}).items():
        xobj = ref.get_object()
        found[str(name)] = xobj
        if xobj["/Subtype"] == "/Form":
            xobjects(xobj.get("/Resources"), found)
    return found


def expanded(text: str, found: dict) -> str:
    """A content stream with each form it places (`/FormXob.name Do`) replaced by what that
    form draws, all the way down."""
    def form(match):
        return expanded(found[match[1]].get_data().decode("latin-1"), found)
    return re.sub(r"(/FormXob\.\S+) Do", form, text)


def drawn(found: dict, name: str) -> str:
    """What the form `name` draws, forms within it expanded."""
    return expanded(found[name].get_data().decode("latin-1"), found)


def rg(hex_colour: str, op: str = "rg") -> str:
    """The fill-colour operator (or with op='RG' the stroke-colour one) reportlab writes for
    '#rrggbb', as a regular expression."""
    parts = []
    for i in (1, 3, 5):
        v = int(hex_colour[i:i + 2], 16) / 255
        text = f"{v:.6f}".rstrip("0").rstrip(".") or "0"
        parts.append(re.escape(text[1:] if text.startswith("0.") else text))
    return r"(?<![\d.])" + r"\s+".join(parts) + r"\s+" + op + r"\b"


def test_svg_art_and_icons_print_as_vector_paths_not_images(tmp_path):
    svg_game(tmp_path)
    result = build(tmp_path)
    assert result.cards == 3 and not result.warnings
    reader = PdfReader(result.path)
    page = reader.pages[0]
    own = page.get_contents().get_data().decode("latin-1")
    found = xobjects(page["/Resources"])
    assert not [n for n, x in found.items() if x["/Subtype"] == "/Image"]       # not one picture
    # each SVG in each colour is one form of paths, however many cards place it: the two arts,
    # the sword plain and in blue (the template's), the icons' red sword and shield
    svgs = {n: x.get_data().decode("latin-1") for n, x in found.items() if n.startswith("/FormXob.svg:")}
    assert len(svgs) == 6 and all(re.search(r"\bm\b", text) and re.search(r"\n(f\*?|B\*?|S)\n", text) for text in svgs.values())
    assert len(re.findall(r"/FormXob\.svg:\w+ Do", own)) == 3     # the per-card art, placed on each card
    content = expanded(own, found)
    assert re.search(r"\bm\b.*\bl\b.*\bh\b", content, re.S) and re.search(r"\bc\b", content)  # lines, curves
    for colour in ("#88ccff", "#ffcc33", "#aa3333", "#33aa33", "#c0392b", "#22aa77"):
        assert re.search(rg(colour), content), colour
    assert all(is_embedded(f) for f in fonts_of(reader))      # svglib's Helvetica never comes in


def test_color_recolours_the_icon_and_drops_the_background_square(tmp_path):
    svg_game(tmp_path)
    page = PdfReader(build(tmp_path).path).pages[0]
    found = xobjects(page["/Resources"])
    sword = drawn(found, "/FormXob.icon:sword")
    assert re.search(rg("#c0392b"), sword)                    # the icon's color:
    assert not re.search(rg("#ffffff"), sword) and "512 0 l 512 512 l" not in sword   # no white, no square
    shield = drawn(found, "/FormXob.icon:shield")
    assert re.search(rg("#22aa77"), shield) and re.search(rg("#113355", "RG"), shield)  # as drawn
    # the template's own swords, drawn once in the template's shared form
    template = "".join(drawn(found, n) for n in found if n.startswith("/FormXob.face"))
    assert re.search(rg("#2255aa"), template)                 # the image element's color:
    # the same SVG without color: keeps its black square and white shape
    assert re.search(r"(?<![\d.])0\s+0\s+0\s+rg\s*\n[^Q]*512 0 l 512 512 l", template)
    assert re.search(r"(?<![\d.])1\s+1\s+1\s+rg", template)


def test_svg_prints_in_colour_where_the_box_says(tmp_path):
    """Pixels of a PNG export: the recoloured sword blue in its box, the plain one on black,
    the contained art centred in its box with white above and below."""
    svg_game(tmp_path)
    png = export_game(load(Project(tmp_path), "vec"), "png", tmp_path / "x", dpi=100, bleed=False).folder
    with Image.open(png / "deck" / "VEC-001-front.png") as im:
        face = im.convert("RGB")
    px = 100 / 25.4

    def box(x, y, w, h):
        return face.crop((round(x * px), round(y * px), round((x + w) * px), round((y + h) * px)))

    def share(region, colour, tol=40):
        counts = region.getcolors(region.width * region.height)
        near = sum(n for n, p in counts if all(abs(a - b) <= tol for a, b in zip(p, colour)))
        return near / (region.width * region.height)

    assert 0.05 < share(box(5, 50, 20, 20), (0x22, 0x55, 0xaa)) < 0.5       # a blue sword on white
    assert share(box(5, 50, 20, 20), (0, 0, 0)) == 0
    assert share(box(35, 50, 20, 20), (0, 0, 0)) > 0.5                        # the black square kept
    # 200 x 100 art contained in 53.5 x 40 mm: 53.5 x 26.75 mm, centred; white bands above and below
    assert share(box(5, 5, 53.5, 6), (255, 255, 255), 5) > 0.95
    assert share(box(5, 12, 53.5, 25), (0x88, 0xcc, 0xff)) > 0.3
    assert share(box(5, 39, 53.5, 6), (255, 255, 255), 5) > 0.95


@pytest.mark.parametrize("fit, band", [("cover", False), ("stretch", False), ("contain", True)])
def test_fit_places_svg_art_as_it_places_pictures(tmp_path, fit, band):
    face = FACE.replace("fit: contain", f"fit: {fit}")
    svg_game(tmp_path, face)
    png = export_game(load(Project(tmp_path), "vec"), "png", tmp_path / "x", dpi=100, bleed=False).folder
    with Image.open(png / "deck" / "VEC-001-front.png") as im:
        top = im.convert("RGB").getpixel((round(30 * 100 / 25.4), round(6 * 100 / 25.4)))
    assert (top == (255, 255, 255)) == band


def test_same_svg_game_builds_byte_identical_pdfs(tmp_path):
    svg_game(tmp_path)
    one, two = build(tmp_path, "a"), build(tmp_path, "b")
    assert one.path.read_bytes() == two.path.read_bytes()


def test_an_edited_svg_is_redrawn_by_an_incremental_build(tmp_path):
    folder = svg_game(tmp_path)
    first = build(tmp_path).path.read_bytes()
    assert build(tmp_path).path.read_bytes() == first            # kept as it was
    (folder / "art" / "hill.svg").write_text(HILL.replace("#33aa33", "#993399"))
    reader = PdfReader(build(tmp_path).path)
    content = "".join(expanded(p.get_contents().get_data().decode("latin-1"), xobjects(p["/Resources"]))
                      for p in reader.pages)
    assert re.search(rg("#993399"), content) and not re.search(rg("#33aa33"), content)
    (folder / "icons" / "shield.svg").write_text(SHIELD.replace("#22aa77", "#dd7700"))
    found = xobjects(PdfReader(build(tmp_path).path).pages[0]["/Resources"])
    assert re.search(rg("#dd7700"), drawn(found, "/FormXob.icon:shield"))


BOMB = """<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&c;</text></svg>
"""
XXE = """<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&secret;</text></svg>
"""
OUTSIDE = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
           '<image xlink:href="../../../secret.png" width="10" height="10"/></svg>')


def deep(levels: int) -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' + "<g>" * levels + "</g>" * levels + "</svg>"


@pytest.mark.parametrize("text, says", [
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0', "not well-formed XML"),
    (BOMB, "declares XML entities"),
    (XXE, "declares XML entities"),
    (OUTSIDE, "links to another file"),
    ('<html xmlns="http://www.w3.org/1999/xhtml"/>', "is not an SVG"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 0"/>', "has a viewBox svglib cannot use"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="5"/>', "no usable size"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="1e300" height="1e300"/>', "claims a size of"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="0.1"/>', "more than 1000 times wider"),
    ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image '
     'xlink:href="data:image/svg+xml;base64,PHN2Zy8+" width="1" height="1"/></svg>', "embeds data other than"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><use href="other.svg#a"/></svg>', "links to another file"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a">' + "<rect/>" * 1000 + "</g></defs>"
     + '<use href="#a"/>' * 1000 + "</svg>", "draws more than 20,000 elements once its <use> copies are made"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>',
     "copy each other in a loop"),
    (deep(100), "nests elements more than 64 deep (line 1)"),
    (deep(300), "nests elements more than 64 deep"),
    ('<svg xmlns="http://www.w3.org/2000/svg">' + "<rect/>" * 30_000 + "</svg>",
     "more than 20,000 elements; simplify it or export it as PNG"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><desc>' + "x" * 5_100_000 + "</desc></svg>", "the limit is 5.0 MB"),
])
def test_a_broken_or_hostile_svg_exits_2_naming_it_and_the_line(tmp_path, text, says):
    svg_game(tmp_path, **{"art/hill.svg": text})
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 2, ran.stderr
    assert says in ran.stderr and "art/hill.svg" in ran.stderr and "Traceback" not in ran.stderr
    assert "decks/deck.yaml:8" in ran.stderr and "face.yaml:4: elements[1]" in ran.stderr   # the card, the element
    assert not (tmp_path / "out" / "vec" / "deck.pdf").exists()


def test_a_hostile_svg_icon_is_an_error_at_the_icons_line(tmp_path):
    svg_game(tmp_path, **{"icons/shield.svg": XXE})
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 2
    assert re.search(r"game\.yaml:5: icons\.shield: SVG 'icons/shield.svg' declares XML entities", ran.stderr)


def test_color_on_a_png_is_an_error_that_says_so(tmp_path):
    folder = svg_game(tmp_path, FACE.replace("icons/sword.svg, x: 5", "art/photo.png, x: 5"))
    Image.new("RGB", (20, 20), (9, 9, 9)).save(folder / "art" / "photo.png")
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 2 and "face.yaml:5" in ran.stderr
    assert "color: recolours an SVG; 'art/photo.png' is a PNG or JPEG" in ran.stderr


UNSUPPORTED = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><defs><filter id="blur">'
               '<feGaussianBlur stdDeviation="3"/></filter></defs>'
               '<rect x="10" y="10" width="80" height="80" fill="#33aa33" filter="url(#blur)" opacity="0.5"/>'
               '<foreignObject width="10" height="10"><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>'
               '</svg>')


def test_what_svglib_cannot_draw_is_a_located_warning_and_the_rest_still_prints(tmp_path):
    svg_game(tmp_path, **{"art/hill.svg": UNSUPPORTED})
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    line, = [ln for ln in ran.stderr.splitlines() if "art/hill.svg" in ln]
    assert line.startswith("warning: cards/vec/decks/deck.yaml:") and "card VEC-002" in line and "face.yaml:4" in line
    for feature in ("<filter>", "<foreignObject>", 'filter="..."', 'opacity="..."'):
        assert feature in line
    assert "svglib" not in ran.stderr              # its own log stays out of the terminal
    page = PdfReader(tmp_path / "out" / "vec" / "deck.pdf").pages[0]
    content = expanded(page.get_contents().get_data().decode("latin-1"), xobjects(page["/Resources"]))
    assert re.search(rg("#33aa33"), content)       # the square itself is drawn
    ran = pnpgen("--root", tmp_path, "build", "vec", "--strict", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 0                     # (a left-out effect is not a --strict failure)


def test_text_in_an_svg_is_set_in_an_embedded_font_and_said(tmp_path):
    text = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40"><text x="5" y="30" '
            'font-family="Comic Sans MS" font-size="20">Hi</text></svg>')
    svg_game(tmp_path, **{"art/sun.svg": text})
    result = build(tmp_path)
    assert any("its text is set in pnpgen's sans" in str(w) for w in result.warnings)
    reader = PdfReader(result.path)
    assert all(is_embedded(f) for f in fonts_of(reader))
    assert "Hi" in reader.pages[0].extract_text()


def test_an_svg_icon_warns_once_at_its_line(tmp_path):
    svg_game(tmp_path, **{"icons/shield.svg": UNSUPPORTED})
    result = build(tmp_path)
    warned = [str(w) for w in result.warnings if "icons/shield.svg" in str(w)]
    assert len(warned) == 1 and "game.yaml:5: icons.shield:" in warned[0] and "<filter>" in warned[0]


def test_rulebook_figures_draw_svg_as_vectors(tmp_path):
    folder = svg_game(tmp_path)
    (folder / "rulebook.md").write_text("# Rules\n\nStrike with :sword:.\n\n![The sun](art/sun.svg)\n")
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    reader = PdfReader(tmp_path / "out" / "vec" / "rulebook.pdf")
    content = "".join(p.get_contents().get_data().decode("latin-1") for p in reader.pages)
    found = {}
    for p in reader.pages:
        xobjects(p["/Resources"], found)
    assert not [n for n, x in found.items() if x["/Subtype"] == "/Image"]
    everything = content + "".join(x.get_data().decode("latin-1") for x in found.values())
    for colour in ("#88ccff", "#aa3333", "#c0392b"):            # the figure, and the inline icon
        assert re.search(rg(colour), everything), colour
    at, = [i for i, p in enumerate(reader.pages) if "The sun" in p.extract_text()]   # the figure's page
    image = pdfium.PdfDocument(tmp_path / "out" / "vec" / "rulebook.pdf")[at].render(scale=2).to_pil().convert("RGB")
    colours = {c: n for n, c in image.getcolors(1 << 22)}
    assert colours.get((0x88, 0xcc, 0xff), 0) > 10_000 and colours.get((0xaa, 0x33, 0x33), 0) > 1_000
    assert colours.get((0xc0, 0x39, 0x2b), 0) > 10                 # the red sword inline in the text



def test_worker_processes_draw_svgs_byte_for_byte_as_one_process(tmp_path):
    long_deck = ("name: Deck\ntemplate: face\nfields: {title: {required: true}, art: {default: sun}}\ncards:\n"
                 + "\n".join(f"  - {{title: Card {i}, art: {('sun', 'hill', 'odd')[i % 3]}}}" for i in range(200)))
    folder = svg_game(tmp_path, **{"art/odd.svg": UNSUPPORTED})
    (folder / "decks" / "deck.yaml").write_text(long_deck + "\n")
    shared, alone = build(tmp_path, "many", workers=2, cache=False), build(tmp_path, "one", workers=1, cache=False)
    assert alone.sheets == shared.sheets and worker_count(shared.sheets, 2) == 2   # (two workers really drew)
    assert shared.path.read_bytes() == alone.path.read_bytes()
    assert [str(w) for w in shared.warnings] == [str(w) for w in alone.warnings]
    assert any("art/odd.svg" in str(w) and "<filter>" in str(w) for w in alone.warnings)


def test_a_picture_embedded_in_an_svg_is_drawn_inline_and_kept_by_the_cache(tmp_path):
    from base64 import b64encode
    from io import BytesIO
    png = BytesIO()
    Image.new("RGB", (4, 4), (200, 20, 20)).save(png, "PNG")
    embedded = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                'viewBox="0 0 10 10"><image width="10" height="10" xlink:href="data:image/png;base64,'
                + b64encode(png.getvalue()).decode() + '"/></svg>')
    svg_game(tmp_path, **{"art/hill.svg": embedded})
    first = build(tmp_path)
    warning, = first.warnings
    assert "card VEC-002: SVG 'art/hill.svg': the picture it embeds prints as pixels, without its transparency" \
        in str(warning) and str(warning).endswith("templates/vec/face.yaml:4: elements[1])")
    reader = PdfReader(first.path)
    assert not [n for n, x in xobjects(reader.pages[0]["/Resources"]).items() if x["/Subtype"] == "/Image"]
    found = xobjects(reader.pages[0]["/Resources"])
    assert "\nBI" in expanded(reader.pages[0].get_contents().get_data().decode("latin-1"), found)   # inline
    kept = build(tmp_path)
    assert kept.kept == kept.pages and kept.path.read_bytes() == first.path.read_bytes()


def test_color_paints_fills_and_strokes_of_an_icon_on_a_transparent_ground(tmp_path):
    """game-icons.net's other form (a black shape, no square) and a stroked shape: all one colour."""
    plain = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><path d="M40 40h200v200H40z"/></svg>'
    game = GAME.replace("shield: {image: icons/shield.svg}", 'shield: {image: icons/shield.svg, color: "#336699"}')
    game += '  coin: {image: icons/coin.svg, color: "#336699"}\n'
    svg_game(tmp_path, FACE.replace(":shield:", ":shield: :coin:"), game, **{"icons/coin.svg": plain})
    found = xobjects(PdfReader(build(tmp_path).path).pages[0]["/Resources"])
    shield = drawn(found, "/FormXob.icon:shield")
    assert re.search(rg("#336699"), shield) and re.search(rg("#336699", "RG"), shield)   # fill and stroke
    assert not re.search(rg("#22aa77"), shield)
    coin = drawn(found, "/FormXob.icon:coin")
    assert re.search(rg("#336699"), coin) and re.search(r"\b40 40 m\b", coin)


def test_color_on_a_png_icon_or_a_vector_icon_is_an_error_at_its_line(tmp_path):
    folder = svg_game(tmp_path, game=GAME.replace("icons/shield.svg}", 'icons/shield.png, color: red}'))
    Image.new("RGB", (20, 20), (9, 9, 9)).save(folder / "icons" / "shield.png")
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 2 and "game.yaml:5: icons.shield: color: recolours an SVG icon" in ran.stderr
    (folder / "game.yaml").write_text(GAME + '  dot: {size: [10, 10], color: red, elements: [{circle: {x: 5, y: 5, r: 4}}]}\n')
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 2 and "game.yaml:6" in ran.stderr and "color: recolours an SVG icon" in ran.stderr


def test_kept_pages_define_their_svg_forms_and_match_a_clean_build(tmp_path):
    """An SVG's form is defined where a page first draws it; a page copied from the cache
    defines it at the same place, so an incremental build writes a clean build's bytes."""
    folder = svg_game(tmp_path)

    def write_deck(edited: str) -> None:
        arts = ["hill"] * 9 + ["sun"] * 9 + ["hill", "sun"] * 9      # the sun first met on the second sheet
        rows = [f"  - {{title: \"{edited if i == 1 else f'Card {i}'}\", art: {a}}}" for i, a in enumerate(arts)]
        (folder / "decks" / "deck.yaml").write_text("name: Deck\ntemplate: face\nfields: {title: {required: true}, "
                                                     "art: {default: sun}}\ncards:\n" + "\n".join(rows) + "\n")

    write_deck("Card 1")
    first = build(tmp_path)
    assert first.pages >= 4 and first.kept == 0
    write_deck("Card one, renamed")                                  # the first sheet changes, not the sun's
    edited = build(tmp_path)
    assert edited.drawn == 1 and edited.kept == edited.pages - 1
    clean = build(tmp_path, "clean", cache=False)
    assert edited.path.read_bytes() == clean.path.read_bytes()
    reader = PdfReader(edited.path)
    svgs = {n for p in reader.pages for n in xobjects(p["/Resources"]) if n.startswith("/FormXob.svg:")}
    assert len(svgs) == 6


def test_an_svg_rulebook_figure_warns_at_its_rulebook_line_as_a_card_image_does(tmp_path):
    """What svglib cannot draw in a figure's SVG is said at the figure's line of rulebook.md
    (the cover's at its `cover:` line); the rest of the picture still prints."""
    folder = svg_game(tmp_path, **{"art/hill.svg": UNSUPPORTED})
    (folder / "rulebook.md").write_text("---\ncover: ['art/hill.svg']\n---\n# Rules\n\nPlay.\n\n"
                                        "![A hill](art/hill.svg)\n\n![The sun](art/sun.svg)\n")
    ran = pnpgen("--root", tmp_path, "build", "vec", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    said = [ln for ln in ran.stderr.splitlines() if "rulebook.md" in ln]
    assert [ln.split(": figure")[0] for ln in said] == ["warning: cards/vec/rulebook.md:2",
                                                          "warning: cards/vec/rulebook.md:8"], said
    for line in said:
        assert ": figure: SVG 'art/hill.svg': cannot draw" in line
        assert all(feature in line for feature in ("<filter>", "<foreignObject>"))
    assert "sun.svg" not in ran.stderr               # an SVG drawn whole says nothing
    reader = PdfReader(tmp_path / "out" / "vec" / "rulebook.pdf")
    found = {}
    for p in reader.pages:
        xobjects(p["/Resources"], found)
    everything = "".join(x.get_data().decode("latin-1") for x in found.values())
    assert re.search(rg("#33aa33"), everything)      # the square itself is drawn
