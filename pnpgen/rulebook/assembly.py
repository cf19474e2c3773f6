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


def folds(body, size: tuple, forms: dict | None = None) -> tuple[float, ...]:
    """Where a face folds: the heights (mm from its top) of the dashed lines drawn right
    across it, as a standee's template marks its folds; () when it has none. `forms` are the
    shared forms the face may call (the layouter's)."""
    w = size[0]
    found = set()
    for op in _flat(body, forms or {}):
        if type(op) is ops.Path and not op.closed and op.paint.dash and len(op.points) == 2:
            (x0, y0), (x1, y1) = op.points
            if abs(y0 - y1) < 0.01 and min(x0, x1) <= 0.5 and max(x0, x1) >= w - 0.5:
                found.add(round(y0, 3))
    return tuple(sorted(found))


def _flat(body, forms: dict):
    """The operations of a face, each shared form it calls replaced by what that draws."""
    for op in body:
        if type(op) is ops.Form and op.name in forms:
            yield from _flat(forms[op.name].body, forms)
        else:
            yield op


def standee(face: list, size: tuple, where: tuple) -> tuple[list, tuple]:
    """A standee as it is cut and as it stands: the face flat (its own folds dashed) with each
    fold named, and beside it, seen from the side, the two panels back to back and the end
    tabs folded out as its base. `where` are its three folds (mm from the top). Returns the
    operations and the view (x, y, w, h), mm, y down."""
    w, h = size
    top_fold, middle, bottom_fold = where
    body = [ops.Group((1, 0, 0, 1, 0, 0), tuple(face), (0, 0, w, h))]
    for y, name in ((top_fold, "fold"), (middle, "fold: the top"), (bottom_fold, "fold")):
        body += _note(name, w + 1.5, y, 7.0, left=True)
    panel, tab_a, tab_b = middle - top_fold, top_fold, h - bottom_fold
    ox, base = w + 38 + tab_a, 12 + panel
    stroke = ops.Paint(None, INK, 0.6)
    body.append(ops.Path(((ox - 0.5 - tab_a, base), (ox - 0.5, base), (ox, base - panel), (ox + 0.5, base),
                          (ox + 0.5 + tab_b, base)), False, stroke))
    body += _note("the top", ox, base - panel - 3, 7.0)
    body += _note("glue", ox + 2.5, base - panel / 2, 7.0, left=True)
    body += _note("tabs out: the base", ox, base + 4, 7.0)
    return body, (0, 0, ox + 22, max(h, base + 7))


def _note(text: str, x: float, y: float, size: float, left: bool = False) -> list:
    """A short note at `size` pt: centred on x, or starting at x when `left`; y its middle."""
    font = fonts.builtin("sans")
    em = size * 25.4 / 72
    width = fonts.width(text, font) * em
    x0 = x if left else x - width / 2
    return [ops.Text(((x0, y + 0.36 * em, (ops.Run(0.0, text, font, False, width),)),), size, INK, 0.0, x, y)]


CLIP = Color(0.45, 0.48, 0.52)
GRAPHITE = Color(0.2, 0.2, 0.2)


def spinner(face: list, size: tuple) -> tuple[list, tuple]:
    """A spinner dial with a paper clip lying on it, one end loop round a pencil point held
    upright on the dial's centre, and notes saying so. Returns the operations and the view
    (x, y, w, h), mm, y down."""
    w, h = size
    cx, cy, r = w / 2, h / 2, min(w, h) / 2
    length, wide = 0.75 * r, 0.18 * r          # a paper clip about a third of the dial across
    loop = ops.Paint(None, CLIP, max(0.5, 0.012 * r))
    clip = (ops.Rect(-wide / 2, -wide / 2, length, wide, wide / 2, loop),
            ops.Rect(-wide / 2 + 0.25 * wide, -wide / 4, length - 0.5 * wide, wide / 2, wide / 4, loop))
    turn = (0.866, -0.5, 0.5, 0.866, cx, cy)   # the clip at 30 degrees, its end loop at the centre
    body = [ops.Group((1, 0, 0, 1, 0, 0), tuple(face), (0, 0, w, h)), ops.Group(turn, clip)]
    body.append(ops.Ellipse(cx, cy, 0.035 * r, 0.035 * r, ops.Paint(GRAPHITE, Color(1, 1, 1), 0.3)))
    size = 7.0 * w / SHOWN_WIDTH                 # about 7 pt as the rulebook prints it
    em = size * 25.4 / 72
    body += _note("pencil point upright on the centre, through the clip's end loop:", cx, h + 1.0 * em, size)
    body += _note("flick the clip, and its far end points to the spin", cx, h + 2.3 * em, size)
    return body, (0, 0, w, h + 3.0 * em)
