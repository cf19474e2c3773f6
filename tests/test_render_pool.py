"""Rendering faces to pixels (pnpgen.export.raster): each page at exactly the size asked for,
and, inside one_pool (an export), one set of worker processes for every sheet rendered, not
one per sheet. A sheet's tiles pass through raw pixel files that read back as drawn."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pnpgen.export import raster


def _pages(path, colours):
    """A PDF of one 100 x 140 pt page per colour, filled with it."""
    canvas = Canvas(str(path), pagesize=(100, 140))
    for r, g, b in colours:
        canvas.setFillColorRGB(r / 255, g / 255, b / 255)
        canvas.rect(0, 0, 100, 140, stroke=0, fill=1)
        canvas.showPage()
    canvas.save()


def test_one_pool_renders_every_sheet_with_the_same_workers(tmp_path, monkeypatch):
    started = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            started.append(self)
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(raster, "ProcessPoolExecutor", Counted)
    colours = [(i * 9 % 256, 200 - i * 5, 40) for i in range(raster.PARALLEL_FROM + 2)]
    pdf = tmp_path / "pages.pdf"
    _pages(pdf, colours)

    def jobs(folder, suffix):
        return [(i, (50 + i, 70), tmp_path / folder / f"{i}.{suffix}") for i in range(len(colours))]
    for folder in ("a", "b", "c"):
        (tmp_path / folder).mkdir()
    raster.render_pages(pdf, jobs("a", "png"), 72, workers=2)          # alone: workers of its own
    assert len(started) == 1
    with raster.one_pool(2):
        raster.render_pages(pdf, jobs("b", "png"), 72)
        raster.render_pages(pdf, jobs("c", "ppm"), 72, passing=True)
    assert len(started) == 2                                         # one more, for both
    for folder, suffix, kind in (("a", "png", "PNG"), ("b", "png", "PNG"), ("c", "ppm", "PPM")):
        for i, colour in enumerate(colours):
            with Image.open(tmp_path / folder / f"{i}.{suffix}") as image:
                assert image.format == kind and image.size == (50 + i, 70)
                assert image.convert("RGB").getpixel((image.width // 2, 35)) == colour
    assert not list(tmp_path.rglob("*.part"))
