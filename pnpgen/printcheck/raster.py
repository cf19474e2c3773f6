"""What is drawn under the text: each face's background (the face less its text and thin
lines) drawn by the PDF painter and rendered by pdfium, then read at the sample points (as
numpy arrays, straight from pdfium's bitmaps), and the WCAG contrast ratio between two colours."""

from __future__ import annotations

import io

import numpy as np
from reportlab.pdfgen.canvas import Canvas

from .. import fonts
from ..pdf.canvas import MM, Painter
from .faces import Face

REMEMBERED = 20_000
"""Measures kept for reuse (then forgotten all at once: memory stays flat)."""
DPI = 150
"""Resolution the backgrounds are rendered at: 0.17 mm a pixel, finer than any text's stroke."""


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


_LINEAR = [_linear(i) for i in range(256)]


def luminance(color: tuple) -> float:
    """WCAG relative luminance of an (r, g, b) colour, channels 0..255."""
    r, g, b = color
    return 0.2126 * _LINEAR[r] + 0.7152 * _LINEAR[g] + 0.0722 * _LINEAR[b]


def contrast(a: tuple, b: tuple) -> float:
    """WCAG contrast ratio of two colours (0..255 channels): 1 (the same) to 21 (black on white)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


SHARE = 0.1
"""The share of a text's box whose background may contrast less than the measure: a thin
stripe or the edge of a shape under a word does not make it unreadable."""


def blend(top: tuple, under: tuple, alpha: float) -> tuple:
    """What `top` (0..255 channels) at opacity `alpha` shows as over `under`."""
    if alpha >= 1:
        return top
    return tuple(round(alpha * t + (1 - alpha) * u) for t, u in zip(top, under))


def least_contrast(ink: tuple, under, share: float = SHARE,
                   alpha: float = 1.0) -> tuple[float, tuple]:
    """The contrast of `ink` (at opacity `alpha`: blended with each colour under it) against
    what is under it (`under`: the colour of each sample, an (n, 3) array or a list of (r, g,
    b), channels 0..255), all but the worst `share` of the samples at least this much: (ratio,
    the background colour that gives it)."""
    rgb = np.asarray(under, dtype=np.int64).reshape(-1, 3)
    values, counts = np.unique((rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2], return_counts=True)
    colours = [(v >> 16, (v >> 8) & 255, v & 255) for v in values.tolist()]
    ranked = sorted((contrast(blend(ink, c, alpha), c), c, n) for c, n in zip(colours, counts.tolist()))
    allowed = int(len(rgb) * share)      # samples that may contrast less
    for ratio, color, n in ranked:
        if n > allowed:
            return ratio, color
        allowed -= n
    return ranked[-1][:2]


def to255(color: tuple) -> tuple:
    return tuple(round(c * 255) for c in color)


def hex_of(color: tuple) -> str:
    return "#%02x%02x%02x" % color


def opacity_note(alpha: float) -> str:
    """' at 40 % opacity' for translucent ink, nothing for solid."""
    return "" if alpha >= 1 else f" at {round(alpha * 100)} % opacity"


class Backgrounds:
    """The rendered backgrounds of some faces of a deck (faces whose backgrounds draw the
    same are rendered once); the faces are checked a few at a time, so memory stays flat."""

    def __init__(self, forms: dict, images: dict):
        self.forms = forms        # the icon forms a background may place
        self.images = images      # images converted in memory, by key
        self._pixels: dict[int, np.ndarray] = {}     # id of a face -> its background's pixels (a view of a bitmap)
        self._bitmaps: list = []                      # pdfium's bitmaps of those pixels: kept alive with them
        self._keys: dict[int, str] = {}
        self._measured: dict[tuple, tuple] = {}

    def prepare(self, faces: list[Face]) -> None:
        """Render the backgrounds of `faces` (a few of one deck's) in one PDF, in place of
        those rendered before."""
        self._pixels, self._keys = {}, {}
        self._release()
        pages, index = [], {}
        for face in faces:
            key = self._keys[id(face)] = repr((face.size, face.bleed, face.background))
            if key not in index:
                index[key] = len(pages)
                pages.append(face)
            self._pixels[id(face)] = index[key]
        rendered = self._render(pages)
        for face in faces:
            self._pixels[id(face)] = rendered[self._pixels[id(face)]]

    def _release(self) -> None:
        """Free the bitmaps rendered last (their pixels are no longer looked at)."""
        for bitmap in self._bitmaps:
            bitmap.close()
        self._bitmaps = []

    def contrast(self, face: Face, ink: tuple, token, points, share: float = SHARE,
                 alpha: float = 1.0) -> tuple[float, tuple]:
        """least_contrast of `ink` (at opacity `alpha`) over the background of `face` at the
        card points `points()` gives; `token` stands for those points, so the same thing on a
        background that draws the same (the same label on every card of a template) is
        measured once. Translucent shapes in the background are rendered blended, as printed."""
        key = (self._keys[id(face)], ink, token, share, alpha)
        found = self._measured.get(key)
        if found is None:
            if len(self._measured) >= REMEMBERED:
                self._measured.clear()
            found = self._measured[key] = least_contrast(ink, self.pixels(face, points()), share, alpha)
        return found

    def pixels(self, face: Face, points) -> np.ndarray:
        """The colour drawn under each card point (mm, y down; an (n, 2) array or a list of
        pairs) of `face`: an (n, 3) array, 0..255 channels."""
        image = self._pixels[id(face)]
        h, w, k = image.shape[0], image.shape[1], DPI / 25.4
        xy = np.asarray(points, dtype=float).reshape(-1, 2)
        px = np.clip(((xy[:, 0] + face.bleed) * k).astype(np.int64), 0, w - 1)    # (truncated, as int() does)
        py = np.clip(((xy[:, 1] + face.bleed) * k).astype(np.int64), 0, h - 1)
        return image[py, px]

    def _render(self, pages: list[Face]) -> list:
        import pypdfium2 as pdfium

        buffer = io.BytesIO()
        font = fonts.builtin("sans")
        c = Canvas(buffer, pagesize=(MM, MM), invariant=1, initialFontName=font, initialFontSize=6)
        painter = Painter(c, self.forms, pages[0].bleed, self.images)
        painter.define_forms(sorted(self.forms))
        for face in pages:
            w, h = face.size
            c.setPageSize(((w + 2 * face.bleed) * MM, (h + 2 * face.bleed) * MM))
            c.translate(face.bleed * MM, face.bleed * MM)
            painter._draw(face.background, h)
            c.showPage()
        c.save()
        doc = pdfium.PdfDocument(buffer.getvalue())
        try:
            self._bitmaps = [doc[i].render(scale=DPI / 72) for i in range(len(doc))]
        finally:
            doc.close()
        return [_rgb(bitmap) for bitmap in self._bitmaps]


def _rgb(bitmap) -> np.ndarray:
    """A pdfium bitmap's pixels as an (h, w, 3) RGB array: a view of its memory, no copy
    (a page rendered without transparency is blue, green, red: the channels read in reverse)."""
    return bitmap.to_numpy()[:, :, 2::-1]
