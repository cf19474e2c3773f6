"""Transparency flattened for PDF/X-1a, which allows none. A face (a card, a token, a board
side, a deck's common back) that draws anything see-through (an element with `opacity:`
below 1, a #rrggbbaa colour, an image partly see-through over more than SOFT_SHARE of its
pixels, an SVG drawn with opacity) is drawn in RGB on a page of its own, rendered there with
pdfium at the flattening resolution, converted to the press's CMYK through the press profile
(colour.py) and put into the PDF/X file as one form: the rendered face in bands of at most
BAND pixel rows (so that a board never holds all its pixels at once), placed wherever the
face is drawn. A face with no transparency is drawn as vectors exactly as before.

`Transparency` says what in a drawing is see-through; `Flattener` is the painter's hook for
a PDF/X canvas; `face_notes` locates, per template, the element that makes its faces
flattened, for the warning a PDF/X build or export gives."""

from __future__ import annotations

import hashlib
import io
import zlib
from pathlib import Path
from typing import Callable

from PIL import Image as PILImage
from reportlab.pdfgen.canvas import Canvas

from .. import ops
from ..errors import Notice
from ..layout import svg
from ..layout.layouter import ICON
from ..layout.resources import CONVERTED, PRINTED
from .colour import FLATTEN_PPI, PressColours

BAND = 1024
"""Pixel rows rendered, converted and drawn at a time."""
SOFT_SHARE = 0.05
"""An image more than this share of whose pixels are partly see-through has soft transparency
(a shadow, a glow, a veil): its face is flattened. Below it, smoothed edges are keyed out."""
FORM = "flat:"
"""The prefix of a flattened face's form."""
MM = 72 / 25.4
OPACITY, COLOUR = "opacity", "opacity or a see-through (#rrggbbaa) colour"
SOFT_IMAGE, SVG = "an image with soft (partly see-through) pixels", "an SVG drawn with opacity"


def _see_through(colour) -> bool:
    alpha = getattr(colour, "alpha", None) if colour is not None else None
    return alpha is not None and float(alpha) < 1


class Transparency:
    """What is see-through in drawings: each op walked, the forms it places followed, each image
    and SVG read once (images by their key into `images`, Converted or a plain dict)."""

    def __init__(self, forms: dict, images):
        self.forms, self.images = forms, images
        self.flat: set[str] = set()              # forms drawn flattened already: opaque now
        self._forms: dict[str, str | None] = {}
        self._sources: dict[str, str | None] = {}

    def of(self, body) -> str | None:
        """What first makes `body` see-through (OPACITY, COLOUR...), or None."""
        for op in body:
            found = self._op(op)
            if found:
                return found
        return None

    def forms_of(self, body, out: set[str] | None = None) -> set[str]:
        """The names of the forms `body` places, those they place included."""
        out = set() if out is None else out
        for op in body:
            if type(op) is ops.Group:
                self.forms_of(op.body, out)
            elif type(op) is ops.Form and op.name not in out and op.name in self.forms:
                out.add(op.name)
                self.forms_of(self.forms[op.name].body, out)
            elif type(op) is ops.Text:
                for _, _, runs in op.lines:
                    out.update(ICON + r.text for r in runs if r.icon and ICON + r.text in self.forms)
        return out

    def _op(self, op) -> str | None:
        kind = type(op)
        if kind in (ops.Rect, ops.Ellipse, ops.Path):
            paint = op.paint
            faded = _see_through(paint.fill) or (paint.width > 0 and _see_through(paint.stroke))
            return COLOUR if faded else None
        if kind is ops.Text:
            return COLOUR if _see_through(op.color) else None
        if getattr(op, "opacity", 1.0) < 1:     # (a group's too: a transparency group)
            return OPACITY
        if kind is ops.Group:
            return self.of(op.body)
        if kind is ops.Form:
            return self._form(op.name)
        if kind is ops.Image:
            return self._source(op.src, lambda: _soft_image(op.src, self.images))
        if kind is ops.Svg:
            return self._source(op.src + repr(op.color), lambda: _svg_transparency(op.src, op.color))
        return None

    def _form(self, name: str) -> str | None:
        if name in self.flat or name not in self.forms:
            return None
        if name not in self._forms:
            self._forms[name] = None          # (a form that places itself is not followed round)
            self._forms[name] = self.of(self.forms[name].body)
        return self._forms[name]

    def _source(self, key: str, read: Callable) -> str | None:
        if key not in self._sources:
            self._sources[key] = read()
        return self._sources[key]


def _soft_image(key: str, images) -> str | None:
    """SOFT_IMAGE when more than SOFT_SHARE of the pixels of the image drawn by `key` are
    neither clear nor solid. Clear and solid pixels print exactly, keyed out (colour.py); so do
    the few soft ones of edges smoothed (art resampled, icons drawn anti-aliased), near enough."""
    if key.startswith(PRINTED):
        mask = getattr(images.get(key), "mask", None)
        if mask is None:
            return None
        alpha = zlib.decompress(mask)
        return SOFT_IMAGE if len(alpha.translate(None, b"\0\xff")) > SOFT_SHARE * len(alpha) else None
    path = Path(images.root) / key[len(CONVERTED):] if key.startswith(CONVERTED) else Path(key)
    with PILImage.open(path) as im:
        if "A" not in im.getbands() and "transparency" not in im.info:
            return None
        counts = (im if "A" in im.getbands() else im.convert("RGBA")).getchannel("A").histogram()
        return SOFT_IMAGE if sum(counts[1:255]) > SOFT_SHARE * sum(counts) else None


def _svg_transparency(src: str, colour) -> str | None:
    """SVG when the SVG's drawing (recoloured as drawn) has a see-through fill or stroke."""
    _, picture = svg.drawing(Path(src), colour)
    stack = [picture]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "contents", ()))
        for name in ("fillOpacity", "strokeOpacity"):
            value = getattr(node, name, None)
            if value is not None and float(value) < 1:
                return SVG
        if _see_through(getattr(node, "fillColor", None)) or _see_through(getattr(node, "strokeColor", None)):
            return SVG
    return None


class Flattener:
    """A PDF/X canvas's flattening: `face` hands back a see-through face's drawing as one
    flattened form (drawn into the canvas once per distinct face), any other face as it is.
    `rgb_painter` makes a painter (pdf.canvas.Painter, RGB) on a canvas, to draw a face to
    render."""

    def __init__(self, c: Canvas, press: PressColours, rgb_painter: Callable, forms: dict, images, bleed: float):
        self.c, self.press, self.rgb_painter, self.bleed, self.ppi = c, press, rgb_painter, bleed, press.flatten_ppi
        self.seen = Transparency(forms, images)
        self.drawn: dict[str, str] = {}       # face digest -> its flattened form
        self.faces = 0                        # faces drawn flattened

    def face(self, body, size: tuple[float, float]):
        """`body` (a face `size` mm, drawn with the canvas's bleed round it) as drawn into the
        PDF/X file: unchanged, or a see-through one as its flattened form."""
        if self.seen.of(body) is None:
            return body
        digest = hashlib.sha256(repr((tuple(body), size, self.bleed, self.ppi)).encode()).hexdigest()[:24]
        name = self.drawn.get(digest)
        if name is None:
            name = self.drawn[digest] = FORM + digest
            self._define(name, body, size)
        self.faces += 1
        return (ops.Form(name),)

    def form(self, name: str, form: ops.FormDef):
        """A face-sized form's body (a board side, a common back) as drawn into the file."""
        body = self.face(form.body, form.size)
        if body is not form.body:
            self.seen.flat.add(name)
        return body

    def _define(self, name: str, body, size: tuple[float, float]) -> None:
        """Draw the form `name`: `body` rendered, band by band, as CMYK images over the face
        and its bleed (each band a pixel row longer than its share, under the next, so that
        no seam shows between them)."""
        (w, h), b = size, self.bleed
        full = (max(1, round((w + 2 * b) / 25.4 * self.ppi)), max(1, round((h + 2 * b) / 25.4 * self.ppi)))
        c = self.c
        c.beginForm(name, -b * MM, -b * MM, (w + b) * MM, (h + b) * MM)
        row_pt = (h + 2 * b) * MM / full[1]
        for top, rows, picture in render_bands(self._rgb_page(body, size), full):
            image, _ = self.press.convert_image(picture)
            c.drawImage(image, -b * MM, (h + b) * MM - (top + rows) * row_pt, (w + 2 * b) * MM, rows * row_pt)
        c.endForm()

    def _rgb_page(self, body, size: tuple[float, float]) -> bytes:
        """A one-page RGB PDF of the face with its bleed, drawn by the RGB painter."""
        (w, h), b = size, self.bleed
        out = io.BytesIO()
        c = Canvas(out, pagesize=((w + 2 * b) * MM, (h + 2 * b) * MM), invariant=1, pageCompression=0)
        painter = self.rgb_painter(c)
        painter.define_forms(sorted(self.seen.forms_of(body)))
        c.translate(b * MM, b * MM)
        painter._draw(body, h)
        c.showPage()
        c.save()
        return out.getvalue()


def render_bands(pdf: bytes, size: tuple[int, int], band: int = BAND):
    """(top row, rows, RGB picture) of the one page of `pdf` rendered onto exactly `size`
    pixels (white where nothing is drawn), BAND rows at a time, each band but the last with
    the first row of the next one under it."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        width, height = size
        for top in range(0, height, band):
            rows = min(band + 1, height - top)
            bitmap = pdfium.PdfBitmap.new_native(width, rows, raw.FPDFBitmap_BGR, rev_byteorder=True)
            bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, rows)
            raw.FPDF_RenderPageBitmap(bitmap, page, 0, -top, width, height, 0, raw.FPDF_REVERSE_BYTE_ORDER)
            yield top, rows, bitmap.to_pil().convert("RGB")
        page.close()
    finally:
        doc.close()


def face_notes(plan, ppi: float = FLATTEN_PPI, decks=None) -> list[Notice]:
    """For a PDF/X file of the game planned (a GamePlan): each template whose faces are drawn
    flattened, located at the element that first makes them see-through (as the template's
    first card draws it), once per template; of the decks and boards whose ids are in `decks`
    when given."""
    notes, said = [], set()
    for deck in list(plan.decks) + list(plan.boards):
        if decks is not None and deck.id not in decks:
            continue
        seen = Transparency({**plan.icons, **deck.layouter.forms}, plan.resources.converted)
        for card, template in _faces_of(deck):
            if template in said:
                continue
            said.add(template)
            note = _template_note(deck.layouter, seen, card, template, ppi)
            if note is not None:
                notes.append(note)
    return notes


def _faces_of(deck):
    """(card, template) of each template a deck or board plan draws, with the first card that
    draws it (None for a common back)."""
    if hasattr(deck, "card"):                     # a board: its one 'card', each side
        return [(deck.card, t) for t in deck.sides]
    out = {}
    for card in deck.cards:
        out.setdefault(card.front, card)
        if card.back:
            out.setdefault(card.back, card if card.unique_back or deck.source.deck.pack else None)
    back = deck.source.deck.back
    if back is not None and not back.per_card:
        out.setdefault(back.template, None)
    return [(card, template) for template, card in out.items()]


def _template_note(layouter, seen: Transparency, card, template: str, ppi: float) -> Notice | None:
    elements = layouter.layout_by_element(card, template)
    found = next(((i, why) for i, body in elements if (why := seen.of(body)) is not None), None)
    if found is None:
        return None
    tpl = layouter.game.templates[template]
    i, why = found
    line = tpl.doc.line(("elements", i)) if isinstance(i, int) else None
    texts = any(type(op) is ops.Text for _, body in elements for op in _walk(body, seen.forms))
    where = f"elements[{i}]: " if isinstance(i, int) else ""
    return Notice(tpl.doc.path, line, f"{where}{why} on this face: in the PDF/X file the face is flattened to a "
                  f"{ppi:g} ppi image" + ("; its text is no longer vector" if texts else ""))


def _walk(body, forms: dict, depth: int = 0):
    """Every op of `body`, groups and forms opened (forms to a few levels)."""
    for op in body:
        yield op
        if type(op) is ops.Group:
            yield from _walk(op.body, forms, depth)
        elif type(op) is ops.Form and op.name in forms and depth < 4:
            yield from _walk(forms[op.name].body, forms, depth + 1)
