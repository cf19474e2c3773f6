"""How the print checks read a background: the colours pdfium renders, taken from its bitmap
without a copy, at sample points laid over each text's letters in card millimetres."""

from __future__ import annotations

import io

import numpy as np
import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from pnpgen.printcheck.checks.contrast import samples
from pnpgen.printcheck.faces import apply
from pnpgen.printcheck.raster import DPI, _rgb, least_contrast


def _page(colours: list[str]) -> bytes:
    """A 30 x 20 mm page of vertical stripes, one per colour."""
    buffer = io.BytesIO()
    mm = 72 / 25.4
    c = Canvas(buffer, pagesize=(30 * mm, 20 * mm), invariant=1)
    width = 30 / len(colours)
    for i, colour in enumerate(colours):
        c.setFillColor(colour)
        c.rect(i * width * mm, 0, width * mm, 20 * mm, stroke=0, fill=1)
    c.showPage()
    c.save()
    return buffer.getvalue()


def test_a_rendered_bitmap_reads_as_the_rgb_pillow_makes_of_it():
    doc = pdfium.PdfDocument(_page(["#336699", "#cc2200", "#ffee00"]))
    bitmap = doc[0].render(scale=DPI / 72)
    pixels = _rgb(bitmap)
    assert pixels.shape == (bitmap.height, bitmap.width, 3)
    assert np.array_equal(pixels, np.asarray(bitmap.to_pil().convert("RGB")))
    middle = bitmap.height // 2
    assert [tuple(pixels[middle, x].tolist()) for x in (10, bitmap.width // 2, bitmap.width - 10)] == [
        (0x33, 0x66, 0x99), (0xCC, 0x22, 0x00), (0xFF, 0xEE, 0x00)]
    bitmap.close()
    doc.close()


class _Text:
    """What the contrast check knows of a line of text."""

    def __init__(self, letters, baseline, em, matrix):
        self.letters, self.baseline, self.em, self.matrix = letters, baseline, em, matrix


@pytest.mark.parametrize("matrix", [(1, 0, 0, 1, 0, 0), (0.0, 1.0, -1.0, 0.0, 40.0, 5.0),
                                    (0.8660254, 0.5, -0.5, 0.8660254, 3.25, -1.5)])
def test_samples_cover_each_letter_run_row_by_row_where_it_prints(matrix):
    text = _Text([(2.0, 9.5), (12.0, 12.3)], baseline=20.0, em=4.2, matrix=matrix)
    points = samples(text)
    height = 0.72 * 4.2
    rows = max(2, min(8, int(np.ceil(height / 0.25))))      # 0.25 mm apart, 2 to 8 rows
    columns = [max(2, min(64, int(np.ceil((x1 - x0) / 0.25)))) for x0, x1 in text.letters]
    assert points.shape == (rows * sum(columns), 2)
    expected = []
    for (x0, x1), n in zip(text.letters, columns):
        for j in range(rows):
            y = 20.0 - height + height * (j + 0.5) / rows
            expected += [apply(matrix, x0 + (x1 - x0) * (i + 0.5) / n, y) for i in range(n)]
    assert np.allclose(points, expected, rtol=0, atol=1e-9)
    assert samples(_Text([], 20.0, 4.2, matrix)).shape == (0, 2)


def test_the_least_contrast_forgives_only_the_worst_share_of_the_samples():
    black, white, grey = (0, 0, 0), (255, 255, 255), (119, 119, 119)
    under = np.array([white] * 85 + [grey] * 15)
    assert least_contrast(black, under, share=0.1) == (pytest.approx(4.69, abs=0.01), grey)   # 15 % grey: counted
    assert least_contrast(black, under, share=0.2)[1] == white                                # 20 % may be worse
    assert least_contrast(black, [white] * 9 + [grey], share=0.1)[1] == white                 # a list reads alike
    assert least_contrast(white, under, share=0.1, alpha=0.5)[1] == white    # half-white on grey shows lighter grey
