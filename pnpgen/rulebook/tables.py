"""Column widths of a rulebook table. Each column is at least as wide as its longest
unbreakable word (a number, a short word, a word with its icon and punctuation), so a cell
wraps only between words; what room is left goes to the columns whose text would like more.
A table whose words do not fit its column side by side is set first with tighter cell
padding, then in smaller type, down to `MIN_SIZE`; only past that are its longest words
broken, and the build says so."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

TIGHT_PADDING = 2.0
"""Cell padding (pt, each side) of a table that does not fit with the normal padding."""
MIN_SIZE = 7.0
"""The smallest type (pt) a table is shrunk to before its longest words break."""
SLACK = 0.5
"""Room (pt) a column keeps beyond its longest word, so that rounding never breaks it."""
SPACE = re.compile(r"(\s+)")


@dataclass(frozen=True)
class Fit:
    """How a table is set: column widths and cell padding in points, and its type scale."""

    widths: list[float]
    padding: float
    scale: float          # of the cells' type size: 1 as styled, less when shrunk
    fits: bool            # every word fits its column whole
    needed: float = 0.0   # the width (pt) its words need side by side at MIN_SIZE, when they do not fit


def measure(cell: Paragraph) -> tuple[float, float]:
    """(the widest unbreakable word, the whole text on one line) of a cell, in points."""
    widest = current = line = 0.0
    for frag in cell.frags:
        cb = getattr(frag, "cbDefn", None)
        if cb is not None:          # an inline icon belongs to the word it touches
            width = float(getattr(cb, "width", 0) or 0)
            current, line = current + width, line + width
            continue
        if hasattr(frag, "lineBreak"):
            widest, current = max(widest, current), 0.0
            continue
        for piece in SPACE.split(frag.text or ""):
            width = stringWidth(piece, frag.fontName, frag.fontSize)
            line += width
            if piece.isspace():
                widest, current = max(widest, current), 0.0
            else:
                current += width
    return max(widest, current), line


def fit(rows: list[list[Paragraph]], width: float, padding: float, size: float) -> Fit:
    """The column widths (filling `width`, points) for cells typeset at `size` pt."""
    ncols = len(rows[0])
    words, lines = [0.0] * ncols, [0.0] * ncols
    for row in rows:
        for i, cell in enumerate(row):
            word, line = measure(cell)
            words[i], lines[i] = max(words[i], word), max(lines[i], line)
    for pad in (padding, TIGHT_PADDING):
        least = [w + 2 * pad + SLACK for w in words]
        if sum(least) <= width:
            return Fit(_share(least, [w + 2 * pad + SLACK for w in lines], width), pad, 1.0, True)
    room = width - (2 * TIGHT_PADDING + SLACK) * ncols
    scale = max(room / sum(words), MIN_SIZE / size) if room > 0 and sum(words) else MIN_SIZE / size
    least = [w * scale + 2 * TIGHT_PADDING + SLACK for w in words]
    if sum(least) <= width + 1e-6:
        extra = 2 * TIGHT_PADDING + SLACK
        return Fit(_share(least, [w * scale + extra for w in lines], width), TIGHT_PADDING, scale, True)
    return Fit([width * w / sum(least) for w in least], TIGHT_PADDING, scale, False, sum(least))


def _share(least: list[float], want: list[float], width: float) -> list[float]:
    """Widths of at least `least` that fill `width`: the room left goes to the columns by how
    much more their widest line would like, or by their width when every line fits."""
    want = [max(w, m) for w, m in zip(want, least)]
    if sum(want) <= width:
        extra = width - sum(want)
        return [w + extra * w / sum(want) for w in want]
    spare = width - sum(least)
    more = [w - m for w, m in zip(want, least)]
    return [m + spare * x / sum(more) for m, x in zip(least, more)]
