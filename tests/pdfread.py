"""Read geometry back from our PDFs: a small content-stream walker (pypdf parses the
operators; we track q/Q and cm) that reports card placements and stroked line segments."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m, n):
    """m then n (PDF convention: new CTM = m x CTM)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


@dataclass
class Placement:
    """A card drawn on a page: its clip rectangle and the matrix of its card space (pt)."""

    clip: tuple        # (x, y, w, h) in points (a polygon clip: its bounding box)
    matrix: tuple      # card pt -> page pt
    forms: list        # names of form XObjects drawn directly in it
    path: tuple = ()   # a polygon clip's corners, points


@dataclass
class PageGeometry:
    placements: list
    lines: list        # ((x0, y0), (x1, y1), line width) stroked at page level, points
    polygons: list = None   # (corners, line width) of closed paths stroked at page level, points


def page_geometry(reader: PdfReader, index: int) -> PageGeometry:
    page = reader.pages[index]
    ops = ContentStream(page.get_contents(), reader).operations
    ctm, stack = IDENTITY, []
    placements, lines, polygons = [], [], []
    path, pending_clip, width = [], None, 1.0
    current = None
    for operands, op in ops:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append((ctm, width, current))
        elif op == "Q":
            ctm, width, current = stack.pop()
        elif op == "cm":
            m = tuple(float(v) for v in operands)
            ctm = mul(m, ctm)
            if pending_clip is not None and len(stack) == 1:
                current = Placement(pending_clip[0], ctm, [], pending_clip[1])
                placements.append(current)
                pending_clip = None
        elif op == "w":
            width = float(operands[0])
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            path.append(("re", (x, y, w, h)))
        elif op == "m":
            path.append(("m", apply(ctm, float(operands[0]), float(operands[1]))))
        elif op == "l":
            path.append(("l", apply(ctm, float(operands[0]), float(operands[1]))))
        elif op in ("W", "W*"):
            rects = [p[1] for p in path if p[0] == "re"]
            corners = tuple(p[1] for p in path if p[0] in ("m", "l"))
            if rects and len(stack) == 1:
                pending_clip = (rects[0], ())
            elif len(corners) > 2 and len(stack) == 1:
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                pending_clip = ((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)), corners)
        elif op == "n":
            path = []
        elif op == "h":
            path.append(("h", None))
        elif op in ("S", "s", "B", "B*", "b", "b*", "f", "F", "f*"):
            if op in ("S", "s") and ctm == IDENTITY and (op == "s" or path and path[-1][0] == "h"):
                polygons.append((tuple(pt for kind, pt in path if kind in ("m", "l")), width))
            if op == "S" and ctm == IDENTITY:
                start = None
                for kind, pt in path:
                    if kind == "m":
                        start = pt
                    elif kind == "l" and start is not None:
                        lines.append((start, pt, width))
                        start = pt
            path = []
        elif op == "Do" and current is not None:
            current.forms.append(str(operands[0]))
    return PageGeometry(placements, lines, polygons)


def fonts_of(reader: PdfReader):
    """Every font dictionary used by pages and the form XObjects they draw."""
    seen, out = set(), []

    def walk(resources):
        if not resources:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            if id(font) not in seen:
                seen.add(id(font))
                out.append(font)
        for xobj in (resources.get("/XObject") or {}).values():
            xobj = xobj.get_object()
            if xobj.get("/Subtype") == "/Form" and id(xobj) not in seen:
                seen.add(id(xobj))
                walk(xobj.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return out


def is_embedded(font) -> bool:
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    desc = font.get("/FontDescriptor")
    if desc is None:
        return False
    desc = desc.get_object()
    return any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def code_centres(page, prefix: str) -> dict:
    """{code: (x, y) centre in points} of every card code (`prefix` + 3 digits) printed on a
    pypdfium2 page."""
    textpage = page.get_textpage()
    text = textpage.get_text_range()
    out = {}
    start = text.find(prefix)
    n = len(prefix) + 3
    while start >= 0:
        boxes = [textpage.get_charbox(i) for i in range(start, start + n)]
        out[text[start:start + n]] = ((boxes[0][0] + boxes[-1][2]) / 2,
                                      (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2)
        start = text.find(prefix, start + 1)
    return out


def page_texts(path) -> list[str]:
    """The text of every page of the PDF at `path`, read back with pdfium (much faster than
    pypdf's extract_text on pages of vector art)."""
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def filled_rects(reader: PdfReader, index: int, form: str | None = None) -> list[tuple[tuple, tuple]]:
    """Every rectangle filled in a page's own content (or in its form XObject `form`, e.g.
    '/FormXob.board:mat:a'), in the units of the frame it is drawn in (a card's points):
    ((r, g, b) fill colour, (x, y, w, h))."""
    page = reader.pages[index]
    content = page.get_contents() if form is None else page["/Resources"]["/XObject"][form].get_object()
    fill, stack, pending, found = (0.0, 0.0, 0.0), [], [], []
    for operands, op in ContentStream(content, reader).operations:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append(fill)
        elif op == "Q":
            fill = stack.pop()
        elif op == "rg":
            fill = tuple(round(float(v), 3) for v in operands)
        elif op == "re":
            pending.append(tuple(float(v) for v in operands))
        elif op in ("f", "F", "f*", "B", "B*"):
            found += [(fill, rect) for rect in pending]
            pending = []
        elif op in ("n", "S"):     # a clip (re W n) or an outline: nothing filled
            pending = []
    return found


def placed_images(reader: PdfReader) -> list[tuple]:
    """(XObject, width px, height px, placed width pt, placed height pt, centre (x, y) pt) of
    every image drawn, in forms too, from the content streams' matrices."""
    out = []

    def walk(content, resources, ctm):
        stack = []
        xobjects = (resources or {}).get("/XObject") or {}
        for operands, op in ContentStream(content, reader).operations:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = mul(tuple(float(v) for v in operands), ctm)
            elif op == b"Do":
                xobj = xobjects[operands[0]].get_object()
                if xobj["/Subtype"] == "/Image":
                    a, b, c, d, e, f = ctm
                    out.append((xobj, int(xobj["/Width"]), int(xobj["/Height"]), math.hypot(a, b), math.hypot(c, d),
                                (e + (a + c) / 2, f + (b + d) / 2)))
                else:
                    m = tuple(float(v) for v in xobj.get("/Matrix", IDENTITY))
                    walk(xobj, xobj.get("/Resources"), mul(m, ctm))

    for page in reader.pages:
        walk(page.get_contents(), page["/Resources"], IDENTITY)
    return out


def ppi(placed) -> float:
    _, w, h, pw, ph, _ = placed
    return max(w / (pw / 72), h / (ph / 72))
