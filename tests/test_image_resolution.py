"""Print-resolution images: art finer than images.max_ppi where it is printed is resampled to
images.ppi, read back from the PDF (each image's pixels against the size it is placed at);
JPEGs within the limit go in byte for byte; --keep-images keeps originals; a rebuild takes the
resampled art from out/.cache without decoding it; every image mode survives."""

from __future__ import annotations

import io
import random

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat
from pypdf import PdfReader

from pnpgen.build import Options, Project, build_game
from pnpgen.layout import images as image_files

from .clirun import pnpgen
from .minigame import make_game
from .pdfread import placed_images, ppi

GAME = "title: Art\ncode: ART\n"
DECK = """name: Deck
template: face
back: {template: back}
fields:
  title: {required: true}
  art: {required: true}
cards:
%s
"""
FACE = """size: poker
elements:
  - image: {src: "art/{{ art }}", x: 0, y: 0, w: 63.5, h: 88.9, bleed: true}
  - text: {x: 5, y: 5, w: 53.5, h: 10, text: "{{ title }}", size: 12}
"""
BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#223344", bleed: true}
"""


def deck_of(arts: list[str]) -> str:
    return DECK % "\n".join(f"  - {{title: Card {i}, art: {name}}}" for i, name in enumerate(arts))


def painting(size=(1500, 2100), seed=1, mode="RGBA") -> Image.Image:
    """Art with many colours: a smooth colour field, a gradient and strokes."""
    rnd = random.Random(seed)
    small = Image.new("RGB", (5, 7))
    small.putdata([tuple(rnd.randrange(256) for _ in range(3)) for _ in range(35)])
    im = small.resize(size, Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(im)
    for _ in range(8):
        x, y, r = rnd.randrange(size[0]), rnd.randrange(size[1]), rnd.randrange(20, 300)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=(0, 0, 0), width=9)
    return im.convert(mode)


def game_with(tmp_path, arts: dict[str, Image.Image | bytes], game: str = GAME, deck: list[str] | None = None):
    folder = make_game(tmp_path, game, deck_of(deck or sorted(arts)), {"face": FACE, "back": BACK})
    (folder / "art").mkdir()
    for name, art in arts.items():
        if isinstance(art, bytes):
            (folder / "art" / name).write_bytes(art)
        else:
            art.save(folder / "art" / name, **({"compress_level": 1} if name.endswith(".png") else {}))  # (quick)
    return folder


def codec(xobj) -> str:
    """The image's (one) filter."""
    (name,) = xobj["/Filter"]
    return str(name)


def build(tmp_path, *args):
    ran = pnpgen("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", *args, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    return PdfReader(tmp_path / "out" / "mini" / "deck.pdf")


def test_fine_art_is_resampled_to_print_resolution(tmp_path):
    game_with(tmp_path, {"a.png": painting(), "b.png": painting(seed=2, mode="RGB")})
    drawn = placed_images(build(tmp_path))
    assert len(drawn) == 2 * 1          # one card each, fronts only (the backs draw no image)
    for placed in drawn:
        assert 280 <= ppi(placed) <= 460, ppi(placed)
    # a file of 1500 x 2100 px over the card and its bleed (69.85 x 95.25 mm) is ~545 ppi
    assert all(placed[1] < 1500 for placed in drawn)


def test_art_within_the_limit_and_jpeg_pass_through_untouched(tmp_path):
    jpeg = io.BytesIO()
    painting((700, 1000), mode="RGB").save(jpeg, "JPEG", quality=85)
    game_with(tmp_path, {"a.jpg": jpeg.getvalue(), "b.png": painting((700, 1000), mode="RGB")})
    drawn = placed_images(build(tmp_path))
    assert {placed[1] for placed in drawn} == {700}        # both kept at their own 700 x 1000 px (~255 ppi)
    streams = [xobj._data for xobj, *_ in drawn if codec(xobj) == "/DCTDecode"]
    assert jpeg.getvalue() in streams       # the JPEG, byte for byte


def test_a_fine_jpeg_is_resampled(tmp_path):
    jpeg = io.BytesIO()
    painting((2400, 3300), mode="RGB").save(jpeg, "JPEG", quality=90)
    game_with(tmp_path, {"a.jpg": jpeg.getvalue()})
    (placed,) = placed_images(build(tmp_path))
    assert ppi(placed) <= 460 and codec(placed[0]) == "/DCTDecode"   # a photo: JPEG again


def test_keep_images_and_image_ppi_options(tmp_path):
    game_with(tmp_path, {"a.png": painting()})
    (kept,) = placed_images(build(tmp_path, "--keep-images"))
    assert (kept[1], kept[2]) == (1500, 2100)
    (coarse,) = placed_images(build(tmp_path, "--image-ppi", "150"))
    assert 140 <= ppi(coarse) <= 230


def test_game_setting_and_its_errors(tmp_path):
    game_with(tmp_path, {"a.png": painting()}, game=GAME + "images: {resample: false}\n")
    (kept,) = placed_images(build(tmp_path))
    assert kept[1] == 1500
    (tmp_path / "cards" / "mini" / "game.yaml").write_text(GAME + "images: {ppi: 600, max_ppi: 450}\n")
    ran = pnpgen("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert ran.returncode == 2
    assert "game.yaml:3" in ran.stderr and "max_ppi" in ran.stderr and "Traceback" not in ran.stderr


def test_a_pdfx_build_puts_the_resampled_art_in_cmyk(tmp_path):
    see_through = painting()       # clear or solid (soft alpha would flatten the face: test_flatten.py)
    see_through.putalpha(Image.linear_gradient("L").resize(see_through.size).point(lambda a: 255 * (a > 127)))
    game_with(tmp_path, {"a.png": see_through, "b.png": painting(seed=2, mode="RGB")})
    drawn = placed_images(build(tmp_path, "--pdfx"))
    assert len(drawn) == 2
    for placed in drawn:
        assert 280 <= ppi(placed) <= 460 and placed[0]["/ColorSpace"] == "/DeviceCMYK"


def test_line_art_stays_lossless_and_photos_may_be_jpeg(tmp_path):
    lines = Image.new("RGB", (1500, 2100), "white")
    draw = ImageDraw.Draw(lines)
    for k in range(0, 1500, 60):
        draw.line((k, 0, 1500 - k, 2100), fill=(200, 0, 0), width=5)
    game_with(tmp_path, {"a.png": lines, "b.png": painting(mode="RGB")})
    kinds = sorted(codec(xobj) for xobj, *_ in placed_images(build(tmp_path)))
    assert kinds == ["/DCTDecode", "/FlateDecode"]


def test_transparency_is_kept_as_a_soft_mask_and_dropped_when_opaque(tmp_path):
    see_through = painting()
    see_through.putalpha(Image.linear_gradient("L").resize(see_through.size))
    game_with(tmp_path, {"a.png": see_through, "b.png": painting()})
    drawn = placed_images(build(tmp_path))
    masks = sorted("/SMask" in xobj for xobj, *_ in drawn)
    assert masks == [False, True]
    pdf = pdfium.PdfDocument(tmp_path / "out" / "mini" / "deck.pdf")
    try:
        first = pdf[0].render(scale=0.5).to_pil().convert("RGB")
    finally:
        pdf.close()
    assert first.size[0] > 100


def test_rebuild_takes_resampled_art_from_the_cache(tmp_path, monkeypatch):
    arts = {f"a{i}.png": painting(seed=i) for i in range(3)}
    game_with(tmp_path, arts)
    out = tmp_path / "out"
    first, = build_game(Project(tmp_path), "mini", Options(out=out))
    assert len(list((out / ".cache" / "images").glob("*.img"))) == 3
    decoded = []
    real_load = image_files.load
    monkeypatch.setattr(image_files, "load", lambda *a, **k: decoded.append(a[1]) or real_load(*a, **k))
    before = first.path.read_bytes()
    # a card's text edited: its page is laid out again, every page of the PDF is written again
    deck = tmp_path / "cards" / "mini" / "decks" / "deck.yaml"
    deck.write_text(deck.read_text().replace("Card 1", "Card One"))
    again, = build_game(Project(tmp_path), "mini", Options(out=out))
    assert decoded == []
    assert again.path.read_bytes() != before and placed_images(PdfReader(again.path))
    # the same bytes as a clean build of the same input
    clean, = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "clean", cache=False))
    assert clean.path.read_bytes() == again.path.read_bytes()
    assert sorted(decoded) == sorted(f"art/{name}" for name in arts)   # (without the cache: each once)


def test_art_used_by_many_cards_is_decoded_once(tmp_path, monkeypatch):
    game_with(tmp_path, {"a.png": painting()}, deck=["a.png"] * 12)
    decoded = []
    real_load = image_files.load
    monkeypatch.setattr(image_files, "load", lambda *a, **k: decoded.append(a[1]) or real_load(*a, **k))
    result, = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    assert decoded == ["art/a.png"]
    drawn = placed_images(PdfReader(result.path))
    assert len(drawn) == 12
    assert len({placed[0].indirect_reference.idnum for placed in drawn}) == 1   # stored once


def _mode_art(mode: str) -> Image.Image | bytes:
    base = painting((1200, 1700), mode="RGB")
    if mode == "CMYK":
        out = io.BytesIO()
        base.convert("CMYK").save(out, "JPEG", quality=90)
        return out.getvalue()
    if mode == "I;16":
        return base.convert("L").point(lambda v: v * 256, "I").convert("I;16")
    if mode == "P":
        im = base.convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
        im.info["transparency"] = 0
        return im
    if mode == "LA":
        return Image.merge("LA", [base.convert("L"), Image.linear_gradient("L").resize(base.size)])
    return base.convert(mode)


def render(pdf_path, box) -> Image.Image:
    """The first page rendered at 1 px a point, cropped to `box` (x0, y0, x1, y1 pt, y up)."""
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        page = pdf[0].render(scale=1).to_pil().convert("RGB")
    finally:
        pdf.close()
    x0, y0, x1, y1 = box
    return page.crop((int(x0), int(page.size[1] - y1), int(x1), int(page.size[1] - y0)))


@pytest.mark.parametrize("mode", ["1", "L", "LA", "P", "RGB", "RGBA", "CMYK", "I;16"])
def test_every_image_mode_survives_resampling(tmp_path, mode):
    art = _mode_art(mode)
    name = "a.jpg" if mode == "CMYK" else "a.png"
    game_with(tmp_path, {name: art})
    if not isinstance(art, bytes):
        with Image.open(tmp_path / "cards" / "mini" / "art" / name) as im:
            assert im.mode == mode
    (placed,) = placed_images(build(tmp_path))
    assert 280 <= ppi(placed) <= 460
    resampled = tmp_path / "resampled.pdf"
    (tmp_path / "out" / "mini" / "deck.pdf").rename(resampled)
    ((_, w, h, *_),) = placed_images(build(tmp_path, "--keep-images"))
    assert (w, h) == (1200, 1700)
    (x, y), pw, ph = placed[5], placed[3], placed[4]
    box = (x - pw / 2 + 20, y - ph / 2 + 20, x + pw / 2 - 20, y + ph / 2 - 40)    # the art, the title aside
    now, before = render(resampled, box), render(tmp_path / "out" / "mini" / "deck.pdf", box)
    lo, hi = zip(*now.getextrema())
    assert max(hi) - min(lo) > 100, (mode, now.getextrema())     # art, not blank paper or black
    # the same picture as the original drawn as it is (colours, transparency), up to resampling
    difference = ImageStat.Stat(ImageChops.difference(now, before)).mean
    assert max(difference) < 6, (mode, difference)
