"""Assembly figures for the rulebook's printing section, drawn from the build's own board
layout (a sheets.tile.Layout): over the board, each page's part of it with the page's name,
the order to tape the pages in, and the seams where a page is cut to lie over its neighbour.
Pure: a layout in, draw operations in the board's mm (y down) out; figures.Components lays
them over the board's own art (the address `kit:tiles/BOARD`)."""

from __future__ import annotations

from reportlab.lib.colors import Color

from .. import fonts, ops
from ..sheets.tile import Layout

SHOWN_WIDTH = 80.0
"""About how wide (mm) the rulebook prints the figure: its text and lines are sized for it."""
LABEL_PT = 10.0
"""The page names' size as printed, pt."""
INK = Color(0.1, 0.1, 0.1)
VEIL = Color(1, 1, 1, 0.55)      # over the board art, so the grid reads
SEAM = Color(0.78, 0.1, 0.1)


def taping_order(layout: Layout) -> list:
    """The tiles in the order to tape them: row by row from the top left, so each page is
    laid over pages already joined (its cut edges are its top and left)."""
    return sorted(layout.tiles, key=lambda t: (t.row, t.col))


def tile_overlay(layout: Layout) -> list:
    """Draw operations (board mm, y down) over the board: a veil, each page's part of the
    board outlined with its taping number and name, and the seams dashed."""
    w, h = layout.board
    k = w / SHOWN_WIDTH                       # board mm per printed mm
    thin = ops.Paint(None, INK, 0.25 * k)
    body = [ops.Rect(0, 0, w, h, 0, ops.Paint(VEIL, None))]
    for order, t in enumerate(taping_order(layout), 1):
        x0, y0, x1, y1 = _on_board(t.window, layout.board)
        body.append(ops.Rect(x0, y0, x1 - x0, y1 - y0, 0, thin))
        body += _label(f"{order}: {t.label}", (x0 + x1) / 2, (y0 + y1) / 2, LABEL_PT * k)
    seam = ops.Paint(None, SEAM, 0.5 * k, (2.0 * k, 1.2 * k))
    body += [ops.Path(((x, 0.0), (x, h)), False, seam) for x in layout.cuts_x]
    body += [ops.Path(((0.0, y), (w, y)), False, seam) for y in layout.cuts_y]
    return body


def _on_board(window: tuple, board: tuple) -> tuple:
    """A tile's window cut to the board's trim: (x0, y0, x1, y1)."""
    x, y, w, h = window
    return (max(x, 0.0), max(y, 0.0), min(x + w, board[0]), min(y + h, board[1]))


def _label(text: str, cx: float, cy: float, size: float) -> list:
    """`text` centred on (cx, cy) at `size` pt (in the board's frame), bold, on a white plate."""
    font = fonts.builtin("sans-bold")
    em = size * 25.4 / 72
    width = fonts.width(text, font) * em
    plate = ops.Rect(cx - width / 2 - 0.4 * em, cy - 0.7 * em, width + 0.8 * em, 1.4 * em, 0.3 * em,
                     ops.Paint(Color(1, 1, 1), INK, 0.02 * em))
    baseline = cy + 0.36 * em
    return [plate, ops.Text(((cx - width / 2, baseline, (ops.Run(0.0, text, font, False, width),)),), size, INK,
                            0.0, cx, cy)]
