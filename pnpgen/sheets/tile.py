"""Tile a board larger than the paper over several pages, or place it whole on one poster
page. Pure geometry in millimetres: page coordinates with the origin at the page's
bottom-left and y up (as in PDF), board coordinates from its top-left with y down (as a
designer measures it); nothing is drawn here.

A board is tiled with its bleed and a frame for crop marks round it (the *content*). Pages
overlap by `overlap` mm, more than a printer's unprintable margin, so no part of the board
is lost. At each seam the later tile is cut (along the middle of the overlap, moved where
that would cut text or a region the board keeps whole: seams.py) and glued over the earlier
one; alignment marks in the outer frame meet across the cut, in sight on both tiles."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError
from ..sources.spreadsheet import column_letters   # pages are named as spreadsheet cells are: B2
from .seams import crossed, place_cuts

FRAME = 6.0          # room round the board's bleed for crop marks and alignment marks, mm
LABEL_ROOM = 6.0     # strip at the foot of a page for the tile label, mm
MARK_GAP = 1.0       # between the bleed and a crop mark, mm
MARK_LEN = 5.0
SEAM_MARK = 5.0      # each half of a seam's alignment line, mm


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: the part of the board it shows."""

    col: int
    row: int
    label: str           # "B2": column letter, row number
    window: tuple        # (x, y, w, h): the part of the content shown, board mm (y down)
    place: tuple         # (a, b, c, d, e, f): board mm (y down) -> page mm (y up)
    clip: tuple          # (x, y, w, h) on the page: where this tile prints
    cuts: tuple          # "cut here" lines ((x0, y0), (x1, y1)), page mm
    marks: tuple         # alignment and crop marks ((x0, y0), (x1, y1)), page mm


@dataclass(frozen=True)
class Layout:
    """How a board goes onto paper: tiles (one for a poster), on pages of `page` size."""

    page: tuple          # (W, H) mm, as used (turned to landscape when that needs fewer pages)
    board: tuple         # (w, h) mm, trim
    bleed: float
    overlap: float
    cols: int
    rows: int
    tiles: tuple
    poster: bool
    cuts_x: tuple = ()   # board mm of each vertical seam (where the later page is cut), left to right
    cuts_y: tuple = ()   # board mm of each horizontal seam, top to bottom


def _content(board, bleed):
    """The area tiled, in board mm: the board, its bleed and the frame for marks."""
    m = bleed + FRAME
    return (-m, -m, board[0] + 2 * m, board[1] + 2 * m)


def _crop_marks(board, bleed):
    """Crop marks at the board's four corners, board mm: two short lines a corner, outside the bleed."""
    w, h = board
    out = []
    for x, sx in ((0, -1), (w, 1)):
        for y, sy in ((0, -1), (h, 1)):
            a = bleed + MARK_GAP
            out.append(((x + sx * a, y), (x + sx * (a + MARK_LEN), y)))
            out.append(((x, y + sy * a), (x, y + sy * (a + MARK_LEN))))
    return out


def tile(page, board, bleed, margin, overlap, keeps=()) -> Layout:
    """Tiles covering the board on as few pages as possible (portrait or landscape), their
    seams placed round `keeps` (seams.Keep boxes: text, named regions); when no seam of the
    fewest pages can go round them, a column or row more is tried before giving up."""
    cx, cy, cw, ch = _content(board, bleed)
    grids = _grids(page, margin, overlap, cw, ch)
    if not grids:
        raise InputError.at("(settings)", None, f"overlap {overlap:g} mm leaves no room on the page")
    spans_x = [(k.box[0], k.box[2], k.weight) for k in keeps]
    spans_y = [(k.box[1], k.box[3], k.weight) for k in keeps]
    best = None
    for pages, (W, H), pw, ph, cols, rows in grids:
        cuts_x = place_cuts(cx, cw, pw, overlap, cols, spans_x)
        cuts_y = place_cuts(cy, ch, ph, overlap, rows, spans_y)
        weight = sum(k.weight for k, _, _ in crossed(list(keeps), cuts_x, cuts_y))
        if best is None or weight < best[0]:
            best = (weight, (W, H), pw, ph, cuts_x, cuts_y)
        if weight == 0:
            break
    _, (W, H), pw, ph, cuts_x, cuts_y = best
    tiles = _tiles(board, bleed, margin, overlap, (W, H), (pw, ph), cuts_x, cuts_y)
    return Layout((W, H), board, bleed, overlap, len(cuts_x) + 1, len(cuts_y) + 1, tiles, False,
                  tuple(cuts_x), tuple(cuts_y))


def _grids(page, margin, overlap, cw, ch) -> list:
    """The ways to tile content cw x ch: (pages, page size, printable w and h, columns, rows),
    portrait and landscape, each with the fewest tiles and with one column or one row more;
    fewest pages first (portrait before landscape among equals)."""
    out = []
    for W, H in (page, (page[1], page[0])):
        pw, ph = W - 2 * margin, H - 2 * margin - LABEL_ROOM
        if pw <= overlap or ph <= overlap:
            continue
        cols = max(1, math.ceil((cw - overlap) / (pw - overlap)))
        rows = max(1, math.ceil((ch - overlap) / (ph - overlap)))
        for extra, (c, r) in enumerate(((cols, rows), (cols + 1, rows), (cols, rows + 1))):
            out.append(((c * r, extra > 0, W > H), (W, H), pw, ph, c, r))
    return [(key[0], *rest) for key, *rest in sorted(out, key=lambda grid: grid[0])]


def _tiles(board, bleed, margin, overlap, page, printable, cuts_x, cuts_y) -> tuple:
    """The tiles of a board cut at `cuts_x` and `cuts_y` (board mm) on pages of `page` size."""
    cx, cy, cw, ch = _content(board, bleed)
    (W, H), (pw, ph) = page, printable
    starts_x = _starts(cx, cw, pw, overlap, cuts_x)
    starts_y = _starts(cy, ch, ph, overlap, cuts_y)
    marks_b = _crop_marks(board, bleed)
    frames = ((-(bleed + FRAME / 2), board[1] + bleed + FRAME / 2), (-(bleed + FRAME / 2), board[0] + bleed + FRAME / 2))
    tiles = []
    for r in range(len(starts_y)):
        for c in range(len(starts_x)):
            window = (starts_x[c], starts_y[r], pw, ph)
            # board (x, y down) -> page: the window's top-left at the printable top-left
            left, top = margin, H - margin
            place = (1, 0, 0, -1, left - window[0], top + window[1])
            clip = (left, top - ph, pw, ph)
            cuts = _own_cuts(window, c, r, cuts_x, cuts_y)
            marks = _seam_marks(window, c, r, cuts_x, cuts_y, frames)
            marks += [m for m in marks_b if _inside_window(m, window)]
            tiles.append(Tile(c, r, f"{column_letters(c)}{r + 1}", window, place, clip,
                              tuple(_to_page(place, s) for s in cuts), tuple(_to_page(place, m) for m in marks)))
    return tuple(tiles)


def _starts(lo: float, length: float, window: float, overlap: float, cuts: list[float]) -> list[float]:
    """Where each tile's window starts along an axis: a tile after a cut starts `overlap / 2`
    before it; the first tile has what it shows (the content up to `overlap / 2` past the
    first cut; alone, all of it) centred in its window."""
    shown = (cuts[0] + overlap / 2 if cuts else lo + length) - lo
    return [lo - (window - shown) / 2] + [x - overlap / 2 for x in cuts]


def _own_cuts(window, c: int, r: int, cuts_x, cuts_y) -> list:
    """The tile's 'cut here' lines, board mm: along its left and top seams, across its window."""
    wx, wy, pw, ph = window
    out = []
    if c > 0:
        out.append(((cuts_x[c - 1], wy), (cuts_x[c - 1], wy + ph)))
    if r > 0:
        out.append(((wx, cuts_y[r - 1]), (wx + pw, cuts_y[r - 1])))
    return out


def _seam_marks(window, c: int, r: int, cuts_x, cuts_y, frames) -> list:
    """Alignment marks in the frame round the board, board mm, that stay in sight once the
    pages overlap: at each seam the page underneath has a line ending in an arrow at the
    cut, and the page laid over it a line starting at its cut edge; laid right, the edge
    meets the arrow tips and the two lines run on as one."""
    wx, wy, pw, ph = window
    marks = []
    for i, x in enumerate(cuts_x):
        if i not in (c - 1, c):
            continue
        for y in frames[0]:
            if wy <= y <= wy + ph:
                marks += _arrow_in(x, y, "x") if i == c else _line_out(x, y, "x")
    for i, y in enumerate(cuts_y):
        if i not in (r - 1, r):
            continue
        for x in frames[1]:
            if wx <= x <= wx + pw:
                marks += _arrow_in(y, x, "y") if i == r else _line_out(y, x, "y")
    return marks


def _arrow_in(at: float, across: float, axis: str) -> list:
    """On the page underneath: a line up to the cut and an arrowhead whose tip is on it."""
    segs = [((at - SEAM_MARK, across), (at, across)), ((at - 1.5, across - 1.0), (at, across)),
            ((at - 1.5, across + 1.0), (at, across))]
    return segs if axis == "x" else [tuple((b, a) for a, b in seg) for seg in segs]


def _line_out(at: float, across: float, axis: str) -> list:
    """On the page laid over: a line from its cut edge on, where the other page's line runs on."""
    seg = ((at, across), (at + SEAM_MARK, across))
    return [seg] if axis == "x" else [tuple((b, a) for a, b in seg)]


def poster(page, board, bleed, margin) -> Layout:
    """The whole board on one page of `page` size, at 100 %, centred, with crop marks."""
    cx, cy, cw, ch = _content(board, bleed)
    for W, H in (page, (page[1], page[0])):
        if cw <= W - 2 * margin and ch <= H - 2 * margin:
            break
    else:
        raise InputError.at("(settings)", None,
                            f"a {board[0]:g} x {board[1]:g} mm board does not fit on a {page[0]:g} x {page[1]:g} mm "
                            "poster with its bleed and crop marks; choose a larger --poster size")
    left, top = (W - board[0]) / 2, (H + board[1]) / 2
    place = (1, 0, 0, -1, left, top)
    clip = (left + cx, top - cy - ch, cw, ch)
    marks = tuple(_to_page(place, m) for m in _crop_marks(board, bleed))
    only = Tile(0, 0, "A1", (cx, cy, cw, ch), place, clip, (), marks)
    return Layout((W, H), board, bleed, 0.0, 1, 1, (only,), True)


def _inside_window(seg, window):
    (x0, y0), (x1, y1) = seg
    wx, wy, ww, wh = window
    return all(wx <= x <= wx + ww and wy <= y <= wy + wh for x, y in ((x0, y0), (x1, y1)))


def _to_page(place, seg):
    a, b, c, d, e, f = place
    return tuple((a * x + c * y + e, b * x + d * y + f) for x, y in seg)
