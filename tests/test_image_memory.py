"""Image memory and the image cache: a PNG read a band of rows at a time comes out pixel for
pixel as Pillow decodes it whole, and a damaged one is a located error; resampling a large
PNG never holds its decoded pixels (peak memory of a real process); out/.cache/images keeps
the art a game draws and loses what it no longer draws."""

from __future__ import annotations

import random
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from pypdf import PdfReader

from pnpgen.errors import LayoutError
from pnpgen.layout import images

from .clirun import pnpgen
from .fresh import python_fresh
from .minigame import make_game

ROOT = Path(__file__).resolve().parent.parent


def noisy(size, mode, seed=1) -> Image.Image:
    """Many colours and sharp edges, so every PNG row filter gets used (random bytes: as
    incompressible as Pillow's effect_noise, made in a tenth of the time, and the same each run)."""
    rnd = random.Random(seed)
    im = Image.merge("RGB", [Image.frombytes("L", size, rnd.randbytes(size[0] * size[1])) for _ in range(3)])
    draw = ImageDraw.Draw(im)
    for _ in range(20):
        x, y = rnd.randrange(size[0]), rnd.randrange(size[1])
        draw.rectangle((x, y, x + rnd.randrange(5, 200), y + rnd.randrange(5, 200)),
                       fill=tuple(rnd.randrange(256) for _ in range(3)))
    if "A" in mode:
        alpha = Image.linear_gradient("L").resize(size)
        return Image.merge(mode, [*im.convert(mode[:-1]).split(), alpha])
    return im.convert(mode)


def joined(source, rows: int) -> Image.Image:
    out = Image.new(source.mode, source.size)
    top = 0
    for band in source.bands(rows):
        assert band.mode == source.mode and band.width == source.size[0] and band.height <= rows
        out.paste(band, (0, top))
        top += band.height
    assert top == source.size[1]
    return out


@pytest.mark.parametrize("mode", ["L", "LA", "RGB", "RGBA"])
@pytest.mark.parametrize("optimize", [False, True])
def test_a_png_read_in_bands_is_the_png_decoded_whole(tmp_path, mode, optimize):
    path = tmp_path / "a.png"
    art = noisy((301, 257), mode)
    art.save(path, optimize=optimize)
    for rows in (1, 7, 64, 300):
        with images.load(path, "art/a.png") as source:
            assert type(source).__name__ == "_Named"      # banded, not decoded whole
            assert joined(source, rows).tobytes() == art.tobytes(), rows


def test_other_images_are_decoded_whole_and_cut_into_bands(tmp_path):
    path = tmp_path / "a.png"
    art = noisy((120, 90), "RGB").convert("P", palette=Image.Palette.ADAPTIVE)
    art.save(path)
    with images.load(path, "art/a.png", whole=lambda im: im.convert("RGB")) as source:
        assert source.mode == "RGB" and type(source).__name__ == "WholeImage"
        assert joined(source, 16).tobytes() == art.convert("RGB").tobytes()


def _damaged_in_its_data(path: Path) -> None:
    """Flip bytes inside the first IDAT chunk's data, with its checksum made right again, so
    only decoding finds it."""
    data = bytearray(path.read_bytes())
    at = data.index(b"IDAT")
    length = int.from_bytes(data[at - 4:at], "big")
    for k in range(length // 3, length // 3 + 40):
        data[at + 4 + k] ^= 0x5A
    crc = zlib.crc32(bytes(data[at:at + 4 + length]))
    data[at + 4 + length:at + 8 + length] = crc.to_bytes(4, "big")
    path.write_bytes(bytes(data))


def test_a_png_damaged_in_its_data_is_an_error_naming_it(tmp_path):
    path = tmp_path / "a.png"
    noisy((400, 300), "RGBA").save(path)
    _damaged_in_its_data(path)
    with pytest.raises(LayoutError, match=r"cannot read image 'art/a.png': the file is damaged"):
        images.check(path, "art/a.png")


PEAK = """
import resource, sys
from pathlib import Path
from pnpgen.layout import images, printres
from pnpgen.layout.resources import _resamplable
def resample(path, size):
    with images.load(Path(path), "art/" + Path(path).name, size, _resamplable) as source:
        return printres.resample(source, size, "k")
resample(sys.argv[2], (75, 105))       # (first a small one: what the first resampling imports is not counted)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
made = resample(sys.argv[1], (750, 1050))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) / 1024, made.width, made.height, made.mask is not None)
"""


def test_resampling_a_large_png_never_holds_its_pixels(tmp_path):
    """3000 x 4200 RGBA is 50 MB decoded: the process resampling it grows by a fraction of
    that (measured by the kernel: the peak resident memory of a real process)."""
    path = tmp_path / "big.png"
    noisy((3000, 4200), "RGBA").save(path, compress_level=0)         # (stored, not deflated: quick to write)
    noisy((300, 420), "RGBA").save(tmp_path / "small.png", compress_level=0)
    # (started through a launcher, so that its peak starts at its own: tests/fresh.py)
    ran = python_fresh(PEAK, str(path), str(tmp_path / "small.png"), capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert ran.returncode == 0, ran.stderr
    grew, w, h, masked = ran.stdout.split()
    assert (int(w), int(h), masked) == (750, 1050, "True")
    assert float(grew) < 30, f"resampling grew the process by {float(grew):.0f} MB"


GAME = "title: Art\ncode: ART\n"
DECK = """name: Deck
template: face
fields: {title: {required: true}, art: {required: true}}
cards:
%s
"""
FACE = """size: poker
elements:
  - image: {src: "art/{{ art }}", x: 0, y: 0, w: 63.5, h: 88.9, bleed: true}
"""


def _art_game(root: Path, game: str, arts: list[str]) -> Path:
    folder = make_game(root, GAME, DECK % "\n".join(f"  - {{title: C{i}, art: {a}}}" for i, a in enumerate(arts)),
                       {"face": FACE}, game_id=game)
    (folder / "art").mkdir(exist_ok=True)
    for i, name in enumerate(arts):
        noisy((1500, 2100), "RGB", seed=i).save(folder / "art" / name, compress_level=1)
    return folder


def _entries(out: Path, game: str) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (out / ".cache" / "images").glob(f"{game}.*.img")}


def test_the_image_cache_loses_the_art_a_game_no_longer_draws(tmp_path):
    out = tmp_path / "out"
    folder = _art_game(tmp_path, "mini", ["a.png", "b.png", "c.png"])
    _art_game(tmp_path, "other", ["d.png"])
    legacy = out / ".cache" / "images" / ("0" * 64 + ".img")      # an entry named after no game
    for game in ("mini", "other"):
        ran = pnpgen("--root", tmp_path, "build", game, "--out", out, cwd=tmp_path)
        assert ran.returncode == 0, ran.stderr
    legacy.write_bytes(b"old")
    first, others = _entries(out, "mini"), _entries(out, "other")
    assert len(first) == 3 and len(others) == 1
    # nothing changed (the PDF stays as it is, nothing drawn): every entry stays
    assert pnpgen("--root", tmp_path, "build", "mini", "--out", out, cwd=tmp_path).returncode == 0
    assert _entries(out, "mini") == first
    # one card's title edited (the PDF written again from the kept pages): every entry stays
    deck = folder / "decks" / "deck.yaml"
    deck.write_text(deck.read_text().replace("title: C0", "title: C zero"))
    assert pnpgen("--root", tmp_path, "build", "mini", "--out", out, cwd=tmp_path).returncode == 0
    assert _entries(out, "mini") == first
    # the card drawing c.png gone: its resampled art goes with it, the rest (and the other game's) stay
    deck.write_text(deck.read_text().replace("  - {title: C2, art: c.png}\n", ""))
    assert pnpgen("--root", tmp_path, "build", "mini", "--out", out, cwd=tmp_path).returncode == 0
    now = _entries(out, "mini")
    assert len(now) == 2 and set(now) < set(first) and now == {k: first[k] for k in now}
    assert _entries(out, "other") == others
    assert not legacy.exists()


def _drawn_with(tmp_path: Path, name: str, images_to_draw) -> bytes:
    from pnpgen import fonts
    from pnpgen.pdf.canvas import CardCanvas
    from pnpgen.pdf.replay import draw_image
    path = tmp_path / name
    canvas = CardCanvas(str(path), (210, 297), "T", {}, 3.0, fonts.builtin("sans"))
    for k, image in enumerate(images_to_draw):
        draw_image(canvas.c, image, 20 + 10 * k, 20, 200, 280)
        canvas.page()
    canvas.save()
    return path.read_bytes()


def test_art_put_in_after_saving_is_the_pdf_reportlab_writes_with_it_in_memory(tmp_path):
    """A resampled image's streams are copied into the saved PDF from its cache entry: the file
    is byte for byte the one written with the streams in memory (a soft mask too, and an image
    drawn twice stored once)."""
    from pnpgen.layout import printres
    from pnpgen.layout.rows import WholeImage
    made = [printres.resample(WholeImage(noisy((900, 1200), mode, seed=k)), (300, 400), f"print:300x400:{k}.png")
            for k, mode in enumerate(["RGBA", "RGB", "L"])]
    stored = []
    for k, image in enumerate(made):
        (tmp_path / f"{k}.img").write_bytes(image.dump())
        stored.append(printres.StoredImage.read(tmp_path / f"{k}.img"))
    assert made[0].mask is not None and stored[0].mask_length == len(made[0].mask)
    in_memory = _drawn_with(tmp_path, "memory.pdf", made + made[:1])
    spliced = _drawn_with(tmp_path, "spliced.pdf", stored + stored[:1])
    assert spliced == in_memory and b"pnpgen-deferred-stream" not in spliced
    assert all(image.data in spliced for image in made)


KEEP_PEAK = """
import os, subprocess, sys
proc = subprocess.Popen([sys.executable, "-m", "pnpgen", *sys.argv[1:]])
_, status, usage = os.wait4(proc.pid, 0)
print(status, usage.ru_maxrss / 1024)
"""


def _peak_mb(root: Path, *args) -> float:
    ran = subprocess.run([sys.executable, "-c", KEEP_PEAK, "--root", str(root), "build", "mini", "-q", *args],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    status, peak = ran.stdout.split()
    assert status == "0", ran.stderr
    return float(peak)


def test_keep_images_puts_originals_in_without_holding_them(tmp_path):
    """Four 1600 x 2300 RGBA originals (a PDF of over 30 MB kept as they are): the build's
    peak memory grows by a fraction of that over the same build resampling them."""
    arts = [f"a{k}.png" for k in range(4)]
    folder = make_game(tmp_path, GAME, DECK % "\n".join(f"  - {{title: C{k}, art: {a}}}" for k, a in enumerate(arts)),
                       {"face": FACE})
    (folder / "art").mkdir()
    for k, name in enumerate(arts):
        noisy((1600, 2300), "RGBA", seed=k).save(folder / "art" / name, compress_level=0)     # (quick to write)
    resampled = _peak_mb(tmp_path, "--out", str(tmp_path / "small"))
    kept = _peak_mb(tmp_path, "--out", str(tmp_path / "kept"), "--keep-images", "--no-cache")
    size = (tmp_path / "kept" / "mini" / "deck.pdf").stat().st_size / 2 ** 20
    assert size > 30, size
    assert kept - resampled < 20, (kept, resampled, size)
    reader = PdfReader(tmp_path / "kept" / "mini" / "deck.pdf")
    placed = [x.get_object() for x in reader.pages[0]["/Resources"]["/XObject"].values()]
    placed = [x for x in placed if x["/Subtype"] == "/Image"]
    assert len(placed) == 4 and all("/SMask" in x and (x["/Width"], x["/Height"]) == (1600, 2300) for x in placed)
    originals = set()
    for name in arts:
        with Image.open(folder / "art" / name) as original:
            originals.add(original.tobytes())
    assert {_rgba(x).tobytes() for x in placed} == originals


def _rgba(image) -> Image.Image:
    """A PDF image of 8-bit RGB with an 8-bit grey soft mask, as RGBA (what pypdf's
    decode_as_image gives, in a tenth of the time)."""
    mask = image["/SMask"].get_object()
    size = (image["/Width"], image["/Height"])
    for part, space in ((image, "/DeviceRGB"), (mask, "/DeviceGray")):
        assert part["/ColorSpace"] == space and part["/BitsPerComponent"] == 8 and "/DecodeParms" not in part
        assert list(part.get("/Decode", [0, 1] * (3 if space == "/DeviceRGB" else 1))) == \
            [0, 1] * (3 if space == "/DeviceRGB" else 1)
        assert (part["/Width"], part["/Height"]) == size
    rgb, alpha = Image.frombytes("RGB", size, image.get_data()), Image.frombytes("L", size, mask.get_data())
    return Image.merge("RGBA", [*rgb.split(), alpha])
