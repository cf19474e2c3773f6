"""Saddle-stitch imposition: a rulebook laid out on half-size pages is placed two to a
sheet side, in the order that reads right once the printed stack is folded in half and
stapled on the fold. The page order is a pure function; pypdf places the pages."""

from __future__ import annotations

from pypdf import PdfReader, PdfWriter, Transformation


def page_order(pages: int) -> list[tuple[int | None, int | None]]:
    """For n pages, the (left, right) page index (0-based) of each sheet side in print
    order: front of sheet 1, back of sheet 1, front of sheet 2, ... None is a blank page,
    added so that the count is a multiple of four."""
    n = (pages + 3) // 4 * 4
    sides = []
    for s in range(n // 4):
        sides.append((n - 1 - 2 * s, 2 * s))          # front: last-but-2s on the left
        sides.append((2 * s + 1, n - 2 - 2 * s))      # back
    return [tuple(p if p < pages else None for p in side) for side in sides]


def impose(src: str, dest: str, sheet: tuple[float, float], title: str) -> int:
    """Write the booklet of the PDF at `src` onto landscape sheets `sheet` (w, h in points,
    w > h) at `dest`; returns the number of sheet sides."""
    reader = PdfReader(src)
    writer = PdfWriter()
    w, h = sheet
    for left, right in page_order(len(reader.pages)):
        side = writer.add_blank_page(w, h)
        for slot, index in ((0, left), (1, right)):
            if index is None:
                continue
            page = reader.pages[index]
            pw, ph = float(page.mediabox.width), float(page.mediabox.height)
            x = slot * w / 2 + (w / 2 - pw) / 2
            y = (h - ph) / 2
            side.merge_transformed_page(page, Transformation().translate(x, y))
    writer.add_metadata({"/Title": title, "/Creator": "pnpgen", "/Producer": "pnpgen (pypdf)"})
    with open(dest, "wb") as f:
        writer.write(f)
    return len(writer.pages)
