"""Exports: PNG faces that match the sheets, print-shop uploads at the exact pixel sizes their
uploaders check, DriveThruCards PDFs, and Tabletop Simulator decks within TTS's limits."""

from __future__ import annotations

import csv
import json

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnpgen.build import Options, Project, build_game, load
from pnpgen.errors import InputError
from pnpgen.export import export_game
from pnpgen.export.raster import _rendered
from pnpgen.export.tts_sheets import MAX_PX, PER_SHEET
from pnpgen.sheets.impose import impose

from .minigame import make_game

GAME = "title: Mini Quest\ncode: MQ\n"
FACE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - rect: {x: 10, y: 10, w: 20, h: 20, fill: "#ffd400"}
  - text: {x: 5, y: 40, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""
BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#6a2a2a", bleed: true}
"""


def deck(n: int, card_size: str = "poker") -> str:
    cards = "\n".join(f"  - {{title: Card {i}, count: {1 + i % 2}}}" for i in range(n))
    return f"name: Heroes\ncard_size: {card_size}\ntemplate: face\nback: {{template: back}}\nfields:\n" \
           f"  title: {{required: true}}\ncards:\n{cards}\n"


def mini(tmp_path, n=3, card_size="poker"):
    make_game(tmp_path, GAME, deck(n, card_size), {"face": FACE.replace("size: poker", f"size: {card_size}"),
                                                  "back": BACK.replace("size: poker", f"size: {card_size}")})
    return load(Project(tmp_path), "mini")


def test_png_faces_are_named_by_code_at_the_asked_dpi_with_or_without_bleed(tmp_path):
    game = mini(tmp_path)
    result = export_game(game, "png", tmp_path / "out")
    folder = result.folder / "deck"
    names = sorted(p.name for p in folder.glob("*.png"))
    assert names == ["MQ-001-front.png", "MQ-002-front.png", "MQ-003-front.png", "back-back.png"]
    with Image.open(folder / "MQ-001-front.png") as im:
        assert im.size == (825, 1125)                       # (63.5 + 2 x 3.175) mm at 300 DPI
        assert im.getpixel((5, 5))[:3] == (0x2a, 0x6f, 0x3a)  # art reaches into the bleed
        assert round(im.info["dpi"][0]) == 300
    trimmed = export_game(game, "png", tmp_path / "out", dpi=150, bleed=False)
    with Image.open(trimmed.folder / "deck" / "MQ-001-front.png") as im:
        assert im.size == (375, 525)
    rows = list(csv.DictReader(open(folder / "cards.csv", encoding="utf-8")))
    assert [(r["code"], r["title"], r["copies"]) for r in rows] == [("MQ-001", "Card 0", "1"), ("MQ-002", "Card 1", "2"),
                                                                     ("MQ-003", "Card 2", "1")]


def test_a_png_face_is_the_card_as_the_sheet_prints_it(tmp_path):
    game = mini(tmp_path)
    png = export_game(game, "png", tmp_path / "out", bleed=False).folder / "deck" / "MQ-001-front.png"
    (sheet_result,) = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "pdf"))
    page = pdfium.PdfDocument(str(sheet_result.path))[0]
    scale = 300 / 72
    sheet = page.render(scale=scale).to_pil().convert("RGB")
    slot = impose((215.9, 279.4), (63.5, 88.9), 3.175, 5, "auto", "long").slots_for(1)[0][0]
    x, y, w, h = slot.trim                                  # mm from the page's bottom-left
    left, top = round(x / 25.4 * 300), round((279.4 - y - h) / 25.4 * 300)
    cut = sheet.crop((left, top, left + round(w / 25.4 * 300), top + round(h / 25.4 * 300)))
    with Image.open(png) as face:
        face = face.convert("RGB")
        # poker cards are turned on Letter: compare with the slot turned either way, keep the match
        diff = min(_difference(face, cut.rotate(angle, expand=True)) for angle in (0, 90, 270))
    assert diff < 4        # mean difference per channel: the same drawing, anti-aliasing aside


def _difference(a: Image.Image, b: Image.Image) -> float:
    if a.size != b.size:
        return 255.0
    from PIL import ImageChops, ImageStat
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.mark.parametrize("shop, size", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_shop_uploads_have_the_exact_pixel_size_and_folder_layout(tmp_path, shop, size):
    game = mini(tmp_path)
    result = export_game(game, shop, tmp_path / "out")
    folder = result.folder / "deck"
    fronts = sorted(folder.glob("fronts/*.png"))
    assert [p.stem for p in fronts] == ["MQ-001", "MQ-002", "MQ-003"]
    for p in fronts + [folder / "back.png"]:
        with Image.open(p) as im:
            assert im.size == size and im.mode == "RGB"
    with Image.open(folder / "back.png") as im:
        assert im.getpixel((size[0] // 2, size[1] // 2)) == (0x6a, 0x2a, 0x2a)
    assert not (folder / "backs").exists()                 # one common back


def test_shop_sizes_follow_the_rule_for_other_card_sizes(tmp_path):
    game = mini(tmp_path, card_size="tarot")
    folder = export_game(game, "tgc", tmp_path / "out").folder / "deck"
    with Image.open(next(folder.glob("fronts/*.png"))) as im:
        assert im.size == (900, 1500)                       # 2.75 x 4.75 in x 300 + 75


def test_a_deck_size_the_shop_does_not_make_is_named_with_its_sizes(tmp_path):
    game = mini(tmp_path, card_size="mini-us")
    result = export_game(game, "tgc", tmp_path / "out")
    (note,) = [n for n in result.notes if n.startswith("warning")]
    assert "41 x 63 mm" in note and "The Game Crafter has no card of that size" in note and "poker 2.5 x 3.5 in" in note
    assert not (result.folder / "deck").exists()


def test_dtc_is_one_pdf_a_card_a_page_with_its_bleed(tmp_path):
    game = mini(tmp_path)                                   # 3 cards, 1 + 2 + 1 copies, a common back
    folder = export_game(game, "dtc", tmp_path / "out").folder / "deck"
    reader = PdfReader(folder / "deck.pdf")
    assert len(reader.pages) == 8                           # each copy: its front, then the common back
    for page in reader.pages:
        assert (round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1)) == (198.0, 270.0)
    doc = pdfium.PdfDocument(str(folder / "deck.pdf"))
    middles = [doc[i].render(scale=1).to_pil().convert("RGB").getpixel((99, 135)) for i in range(8)]
    front, back = (0x2a, 0x6f, 0x3a), (0x6a, 0x2a, 0x2a)   # printed in CMYK now: close, not equal
    for i, pixel in enumerate(middles):
        assert max(abs(a - b) for a, b in zip(pixel, back if i % 2 else front)) < 16, (i, pixel)


def test_tts_deck_is_valid_json_within_the_sheet_limits(tmp_path):
    game = mini(tmp_path, n=75)                              # more than 69 different cards: two sheets
    result = export_game(game, "tts", tmp_path / "out", url_base="https://example.org/kit/")
    data = json.loads((result.folder / "deck.json").read_text())
    (obj,) = data["ObjectStates"]
    assert obj["Name"] == "DeckCustom"
    copies = sum(1 + i % 2 for i in range(75))
    assert len(obj["DeckIDs"]) == len(obj["ContainedObjects"]) == copies
    assert len(obj["CustomDeck"]) == 2
    for key, sheet in obj["CustomDeck"].items():
        cols, rows = sheet["NumWidth"], sheet["NumHeight"]
        assert 2 <= cols <= 10 and 2 <= rows <= 7
        assert sheet["FaceURL"].startswith("https://example.org/kit/") and sheet["BackURL"].startswith("https://")
        with Image.open(result.folder / sheet["FaceURL"].rsplit("/", 1)[1]) as im:
            assert im.width <= MAX_PX and im.height <= MAX_PX
            assert im.width % cols == 0 and im.height % rows == 0
        ids = [c for c in obj["DeckIDs"] if c // 100 == int(key)]
        assert ids and max(i % 100 for i in ids) < cols * rows - 1   # the last slot stays free
        assert len({i % 100 for i in ids}) <= PER_SHEET
    names = {c["Nickname"] for c in obj["ContainedObjects"]}
    assert "Card 0" in names and "Card 74" in names


def test_exports_are_byte_identical_across_runs(tmp_path):
    game = mini(tmp_path)
    for fmt in ("png", "tts", "dtc"):
        one = export_game(game, fmt, tmp_path / "a", url_base="https://example.org/x/" if fmt == "tts" else None).folder
        two = export_game(game, fmt, tmp_path / "b", url_base="https://example.org/x/" if fmt == "tts" else None).folder
        files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
        assert files and files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
        for f in files:
            assert (one / f).read_bytes() == (two / f).read_bytes(), f


def test_an_output_path_that_cannot_be_written_is_a_clear_error(tmp_path):
    game = mini(tmp_path)
    (tmp_path / "blocked").write_text("a file, not a folder")
    with pytest.raises(InputError) as err:
        export_game(game, "png", tmp_path / "blocked")
    assert "cannot write here" in str(err.value)



def _with_board(tmp_path):
    mini(tmp_path)
    folder = tmp_path / "cards" / "mini"
    (folder / "boards").mkdir()
    (folder / "boards" / "mat.yaml").write_text("name: Play mat\nsize: [200, 150]\ntemplate: mat\nback: mat-b\n")
    (tmp_path / "templates" / "mini" / "mat.yaml").write_text(
        "size: [200, 150]\nelements:\n  - rect: {x: 0, y: 0, w: 200, h: 150, fill: '#1d5c8a', bleed: true}\n")
    (tmp_path / "templates" / "mini" / "mat-b.yaml").write_text(
        "size: [200, 150]\nelements:\n  - rect: {x: 0, y: 0, w: 200, h: 150, fill: '#8a5c1d', bleed: true}\n")
    return load(Project(tmp_path), "mini")


def test_boards_export_as_png_sides_and_as_a_tts_custom_board(tmp_path):
    game = _with_board(tmp_path)
    png = export_game(game, "png", tmp_path / "out", bleed=False).folder / "boards"
    for side, colour in (("a", (0x1d, 0x5c, 0x8a)), ("b", (0x8a, 0x5c, 0x1d))):
        with Image.open(png / f"mat-{side}.png") as im:
            assert im.size == (round(200 / 25.4 * 150), round(150 / 25.4 * 150))   # boards at 150 DPI at most
            assert im.convert("RGB").getpixel((im.width // 2, im.height // 2)) == colour
    tts = export_game(game, "tts", tmp_path / "out", url_base="https://example.org/").folder
    states = json.loads((tts / "mat.json").read_text())["ObjectStates"]
    assert [s["Name"] for s in states] == ["Custom_Board", "Custom_Board"]
    assert states[0]["CustomImage"]["ImageURL"] == "https://example.org/mat-a.png"
    with Image.open(tts / "mat-a.png") as im:
        assert max(im.size) <= MAX_PX and abs(im.width / im.height - 200 / 150) < 0.01
    assert not list(tts.glob(".*"))            # no working files left behind


def test_round_tokens_export_with_transparent_corners_and_as_tts_tokens_in_a_bag(tmp_path):
    game = mini(tmp_path)
    folder = tmp_path / "cards" / "mini"
    (folder / "decks" / "coins.yaml").write_text(
        "name: Coins\npack: true\ntemplate: coin\nfields:\n  title: {required: true}\n"
        "cards:\n  - {title: Gold, count: 4}\n  - {title: Silver, count: 2}\n")
    (tmp_path / "templates" / "mini" / "coin.yaml").write_text(
        "size: [20, 20]\nshape: round\nelements:\n  - rect: {x: 0, y: 0, w: 20, h: 20, fill: '#d4a017', bleed: true}\n")
    game = load(Project(tmp_path), "mini")
    png = export_game(game, "png", tmp_path / "out", bleed=False).folder / "coins"
    with Image.open(png / "MQ-001-front.png") as im:     # coins.yaml comes first by name: MQ-001
        assert im.mode == "RGBA" and im.size == (236, 236)
        assert im.getpixel((2, 2))[3] == 0                      # outside the disc: transparent
        assert im.getpixel((118, 118)) == (0xd4, 0xa0, 0x17, 255)
    tts = export_game(game, "tts", tmp_path / "out", url_base="https://example.org/u/").folder
    (bag,) = json.loads((tts / "coins.json").read_text())["ObjectStates"]
    assert bag["Name"] == "Bag" and len(bag["ContainedObjects"]) == 6
    token = bag["ContainedObjects"][0]
    assert token["Name"] == "Custom_Token" and token["CustomImage"]["ImageURL"] == "https://example.org/u/coins-MQ-001.png"
    with Image.open(tts / "coins-MQ-001.png") as im:
        assert im.mode == "RGBA" and im.getpixel((1, 1))[3] == 0


@pytest.mark.parametrize("alpha", [False, True])
def test_a_face_pdfium_draws_a_pixel_too_big_is_cut_to_size_not_resampled(tmp_path, alpha):
    mm = 72 / 25.4
    size = (69.5 * mm, 94.9 * mm)       # a poker card with 3 mm of bleed: 820.9 x 1120.9 px at 300 DPI
    pdf = tmp_path / "face.pdf"
    c = Canvas(str(pdf), pagesize=size, invariant=1)
    for i in range(0, 95):              # fine stripes across and down, which resampling would blur
        c.rect(i * mm, 0, 0.5 * mm, size[1], stroke=0, fill=1)
        c.rect(0, i * mm, size[0], 0.5 * mm, stroke=0, fill=1)
    c.save()
    page = pdfium.PdfDocument(str(pdf))[0]
    w, h = 821, 1121
    drawn = page.render(scale=w / page.get_size()[0], may_draw_forms=False).to_pil().convert("RGB")
    assert drawn.size in ((w + 1, h), (w, h + 1), (w + 1, h + 1))      # pdfium rounds up
    assert len(drawn.getcolors()) == 2 and len(drawn.resize((w, h)).getcolors(4096)) > 2    # resampling blurs
    image = _rendered(page, w, h, alpha)
    assert image.size == (w, h) and image.mode == ("RGBA" if alpha else "RGB")
    crisp = {(0, 0, 0, 255), (255, 255, 255, 0)} if alpha else {(0, 0, 0), (255, 255, 255)}
    assert {colour for _, colour in image.getcolors()} == crisp       # cut to size: as crisp as pdfium drew it
