"""Print-shop PDFs: `pnpgen export dtc` and `pnpgen build --pdfx` write PDF/X-1a:2003 files
that pass a preflight reading them back (tests/preflight.py): CMYK converted through the
shipped press profile, close to the RGB the templates ask for, greys in black ink alone,
see-through pixels keyed out instead of soft masks, trim and bleed boxes where the cut is,
and DriveThruCards' page order: every card's front followed by its back."""

from __future__ import annotations

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageCms, ImageStat
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen.build import Project, load
from pnpgen.export import export_game
from pnpgen.pdf.colour import KEY_MASK, PROFILE, PressColours

from .clirun import pnpgen
from .conftest import ROOT
from .minigame import make_game
from .preflight import preflight

INCH_PT = 72.0
GAME = "title: Print Test\ncode: PT\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - text: {x: 5, y: 40, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#333333"}
"""
OWN_BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#1f4e9a", bleed: true}
"""
COMMON_BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#6a2a2a", bleed: true}
"""
GREEN, BLUE, RED = (0x2a, 0x6f, 0x3a), (0x1f, 0x4e, 0x9a), (0x6a, 0x2a, 0x2a)


def _cmyk_to_srgb():
    press = ImageCms.ImageCmsProfile(str(PROFILE))
    return ImageCms.buildTransform(press, ImageCms.createProfile("sRGB"), "CMYK", "RGB",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def _seen_through_profile(cmyk: tuple[float, ...]) -> tuple[int, int, int]:
    """The sRGB a CMYK (0-1) colour prints as, by the press profile."""
    pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))
    return ImageCms.applyTransform(pixel, _cmyk_to_srgb()).getpixel((0, 0))


def _fills(stream, reader) -> list[tuple[float, ...]]:
    """The CMYK fill colours (k operands) a content stream sets, in order."""
    return [tuple(float(v) for v in operands) for operands, op in ContentStream(stream, reader).operations
            if op == b"k"]


def _middle(doc, index: int) -> tuple[int, int, int]:
    image = doc[index].render(scale=1).to_pil().convert("RGB")
    return image.getpixel((image.width // 2, image.height // 2))


def _near(pixel, colour, within=16) -> bool:
    return max(abs(a - b) for a, b in zip(pixel, colour)) < within


def mixed_deck(tmp_path):
    """A deck of a card with its own back (2 copies) and one wearing the deck's common back,
    and a second deck of one single-sided card."""
    deck = ("name: Mixed\ncard_size: poker\ntemplate: face\nback: {template: common}\nfields:\n"
            "  title: {required: true}\ncards:\n  - {title: Own, count: 2, back: own}\n  - {title: Plain}\n")
    make_game(tmp_path, GAME, deck, {"face": FACE, "own": OWN_BACK, "common": COMMON_BACK})
    single = "name: Single\ncard_size: poker\ntemplate: face\nfields:\n  title: {required: true}\ncards:\n" \
             "  - {title: Alone}\n"
    (tmp_path / "cards" / "mini" / "decks" / "single.yaml").write_text(single)
    return load(Project(tmp_path), "mini")


def test_dtc_pages_go_front_then_back_for_every_copy(tmp_path):
    result = export_game(mixed_deck(tmp_path), "dtc", tmp_path / "out")
    path = result.folder / "deck" / "deck.pdf"
    assert preflight(path) == []
    doc = pdfium.PdfDocument(str(path))
    assert len(doc) == 6                                  # Own x 2 and Plain, each a front and a back
    wanted = [GREEN, BLUE, GREEN, BLUE, GREEN, RED]       # own back behind its copies; the common back behind Plain
    seen = [_middle(doc, i) for i in range(6)]
    assert all(_near(p, w) for p, w in zip(seen, wanted)), seen
    alone = result.folder / "single" / "single.pdf"
    assert preflight(alone) == []
    blank = pdfium.PdfDocument(str(alone))
    assert len(blank) == 2 and _near(_middle(blank, 0), GREEN)
    assert blank[1].render(scale=1).to_pil().convert("RGB").getextrema() == ((255, 255),) * 3  # no back: blank
    assert any("PDF/X-1a:2003" in note for note in result.notes)


def test_dtc_boxes_mark_the_cut_and_the_bleed(tmp_path):
    path = export_game(mixed_deck(tmp_path), "dtc", tmp_path / "out").folder / "deck" / "deck.pdf"
    for page in PdfReader(path).pages:
        media = [float(v) for v in page.mediabox]
        assert [float(v) for v in page.bleedbox] == media
        trim = [float(v) for v in page.trimbox]
        eighth = INCH_PT / 8
        assert trim == pytest.approx([eighth, eighth, media[2] - eighth, media[3] - eighth], abs=0.01)
        assert trim[2] - trim[0] == pytest.approx(2.5 * INCH_PT, abs=0.01)   # a poker card: 2.5 x 3.5 in
        assert trim[3] - trim[1] == pytest.approx(3.5 * INCH_PT, abs=0.01)


def test_colours_print_close_to_the_rgb_asked_for_and_greys_in_black_ink_alone(tmp_path):
    path = export_game(mixed_deck(tmp_path), "dtc", tmp_path / "out").folder / "deck" / "deck.pdf"
    reader = PdfReader(path)
    forms = reader.pages[0]["/Resources"]["/XObject"]
    fills = [f for name in forms for f in _fills(forms[name].get_object(), reader)]
    fills += _fills(reader.pages[0].get_contents(), reader)
    greens = [f for f in fills if f[0] > 0.3]
    assert greens, fills
    assert _near(_seen_through_profile(greens[0]), GREEN, within=6)     # the card's green, through the profile
    greys = [f for f in fills if f[:3] == (0.0, 0.0, 0.0)]
    assert any(0.3 < f[3] < 1 for f in greys), fills                   # #333333 text: black ink only
    assert len(greys) + len(greens) == len(fills)


def test_a_see_through_image_is_keyed_out_not_soft_masked(tmp_path):
    deck = "name: Pics\ncard_size: poker\ntemplate: face\nfields:\n  title: {}\ncards:\n  - {title: A}\n"
    make_game(tmp_path, GAME, deck,
              {"face": FACE + "  - image: {x: 10, y: 10, w: 40, h: 40, src: ring.png}\n"})
    ring = Image.new("RGBA", (40, 40), (0, 0, 0, 0))                 # transparent, with a yellow frame
    for x in range(40):
        for y in range(40):
            if min(x, y, 39 - x, 39 - y) < 6:
                ring.putpixel((x, y), (255, 212, 0, 255))
    ring.save(tmp_path / "cards" / "mini" / "ring.png")
    path = export_game(load(Project(tmp_path), "mini"), "dtc", tmp_path / "out").folder / "deck" / "deck.pdf"
    assert preflight(path) == []
    reader = PdfReader(path)
    drawn = [ref.get_object() for ref in _xobjects(reader.pages[0]["/Resources"])]
    (image,) = [thing for thing in drawn if thing["/Subtype"] == "/Image"]
    assert image["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in image
    assert [int(v) for v in image["/Mask"]] == KEY_MASK
    page = pdfium.PdfDocument(str(path))[0].render(scale=4).to_pil().convert("RGB")
    mm = 4 * 72 / 25.4
    inside = page.getpixel((round((3.175 + 30) * mm), round((3.175 + 30) * mm)))   # the hole: the card shows through
    frame = page.getpixel((round((3.175 + 11) * mm), round((3.175 + 30) * mm)))
    assert _near(inside, GREEN) and _near(frame, (255, 212, 0), within=50), (inside, frame)


def _xobjects(resources):
    for ref in (resources.get("/XObject") or {}).values():
        thing = ref.get_object()
        yield ref
        if thing["/Subtype"] == "/Form":
            yield from _xobjects(thing.get("/Resources") or {})


def test_the_press_profile_keeps_ink_within_its_limit_so_the_key_is_never_a_colour():
    press = PressColours()
    darkest = press.cmyk((1, 2, 3))                  # near-black, not grey: all four inks
    assert sum((darkest.cyan, darkest.magenta, darkest.yellow, darkest.black)) <= 3.0 + 1e-3
    image = Image.new("RGB", (64, 64))
    image.putdata([(r * 4, g * 4, (r + g) % 256) for r in range(64) for g in range(64)])
    reader, mask = press.convert_image(image)
    assert mask is None
    data = reader.getRGBData()
    pixels = {tuple(data[i:i + 4]) for i in range(0, len(data), 4)}
    assert len(pixels) > 100 and max(sum(p) for p in pixels) <= 3 * 255 + 4 and tuple(KEY_MASK[::2]) not in pixels


# (`pnpgen export dtc` of every bundled game passes the preflight: test_export_bundled.py, beside
# the check of its pages, on the one export of them)


@pytest.fixture(scope="module")
def pdfx_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdfx")
    ran = pnpgen("--root", ROOT, "build", "--pdfx", "--out", out, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr
    return out, ran


def test_build_pdfx_makes_every_deck_and_board_of_the_bundled_games_pass_preflight(pdfx_out, bundled_games):
    out, ran = pdfx_out
    pdfs = [p for g in bundled_games for p in sorted((out / g).glob("*.pdf")) if p.stem != "rulebook"]
    assert len(pdfs) >= 2 * len(bundled_games)
    for pdf in pdfs:
        assert preflight(pdf) == [], pdf
    assert "rulebook.pdf files are not PDF/X" in ran.stderr


def test_the_plain_build_is_not_pdfx_and_the_preflight_says_so(built_out):
    problems = preflight(built_out / "swarm" / "common.pdf")
    assert "/GTS_PDFXVersion is None" in problems
    assert any("colour operator rg" in p for p in problems) and any("no TrimBox" in p for p in problems)


def test_the_preflight_finds_an_inline_image_and_an_rgb_fill(tmp_path):
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].Contents = pdf.make_stream(b"1 0 0 rg 0 0 10 10 re f q 9 0 0 9 20 20 cm "
                                            b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x80 EI Q")
    pdf.save(tmp_path / "inline.pdf")
    problems = preflight(tmp_path / "inline.pdf")
    assert "page 1: colour operator BI" in problems and "page 1: colour operator rg" in problems, problems


def test_build_pdfx_is_byte_identical_across_runs_and_looks_like_the_rgb_build(pdfx_out, built_out, tmp_path):
    out, _ = pdfx_out
    again = pnpgen("--root", ROOT, "build", "swarm", "--pdfx", "--out", tmp_path, cwd=ROOT)
    assert again.returncode == 0, again.stderr
    for pdf in sorted((out / "swarm").glob("*.pdf")):
        assert pdf.read_bytes() == (tmp_path / "swarm" / pdf.name).read_bytes(), pdf
    cmyk = pdfium.PdfDocument(str(out / "swarm" / "board.pdf"))[1].render(scale=0.5).to_pil().convert("RGB")
    rgb = pdfium.PdfDocument(str(built_out / "swarm" / "board.pdf"))[1].render(scale=0.5).to_pil().convert("RGB")
    assert cmyk.size == rgb.size
    assert max(ImageStat.Stat(ImageChops.difference(cmyk, rgb)).mean) < 8   # the same picture, in print colours


def test_a_pdfx_poster_is_trimmed_at_the_board(tmp_path):
    ran = pnpgen("--root", ROOT, "build", "swarm", "--pdfx", "--poster", "a2", "--out", tmp_path, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr
    board = tmp_path / "swarm" / "board.pdf"
    assert preflight(board) == []
    page = PdfReader(board).pages[0]
    trim, bleed, media = ([float(v) for v in box] for box in (page.trimbox, page.bleedbox, page.mediabox))
    assert trim != media and bleed != media
    assert bleed[0] < trim[0] and bleed[2] > trim[2]     # the bleed runs past the cut


def test_the_profile_ships_with_its_licence():
    assert PROFILE.is_file() and PROFILE.read_bytes()[36:40] == b"acsp"
    licence = (PROFILE.parent / "LICENSE-GRACoL-TR006.txt").read_text()
    assert "CC0" in licence and "CGATS/GRACoL TR 006" in licence
    assert len(PROFILE.read_bytes()) < 200_000                 # embedded in every PDF/X file
