"""Tile a board larger than the paper over several pages, or place it whole on one poster
page. Pure geometry in millimetres: page coordinates with the origin at the page's
bottom-left and y up (as in PDF), board coordinates from its top-left with y down (as a
designer measures it); nothing is drawn here.

A board is tiled with its bleed and a frame for crop marks round it (the *content*). Pages
overlap by `overlap` mm, more than a printer's unprintable margin, so no part of the board
is lost. At each seam the later tile is cut along the middle of the overlap and glued over
the earlier one; alignment marks in the outer frame, at three quarters of the overlap,
appear on both tiles and are laid one over the other."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError

FRAME = 6.0          # room round the board's bleed for crop marks and alignment marks, mm
LABEL_ROOM = 6.0     # strip at the foot of a page for the tile label, mm
MARK_GAP = 1.0       # between the bleed and a crop mark, mm
MARK_LEN = 5.0


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


def tile(page, board, bleed, margin, overlap) -> Layout:
    """Tiles covering the board on as few pages as possible (portrait or landscape)."""
    cx, cy, cw, ch = _content(board, bleed)
    best = None
    for W, H in (page, (page[1], page[0])):
        pw, ph = W - 2 * margin, H - 2 * margin - LABEL_ROOM
        if pw <= overlap or ph <= overlap:
            continue
        cols = max(1, math.ceil((cw - overlap) / (pw - overlap)))
        rows = max(1, math.ceil((ch - overlap) / (ph - overlap)))
        key = (cols * rows, W > H)
        if best is None or key < best[0]:
            best = (key, (W, H), pw, ph, cols, rows)
    if best is None:
        raise InputError.at("(settings)", None, f"overlap {overlap:g} mm leaves no room on the page")
    _, (W, H), pw, ph, cols, rows = best
    # the tiled span is a little larger than the content: centre the content in it
    span_w, span_h = cols * pw - (cols - 1) * overlap, rows * ph - (rows - 1) * overlap
    x0, y0 = cx - (span_w - cw) / 2, cy - (span_h - ch) / 2
    marks_b = _crop_marks(board, bleed)
    tiles = []
    for r in range(rows):
        for c in range(cols):
            wx, wy = x0 + c * (pw - overlap), y0 + r * (ph - overlap)
            window = (wx, wy, pw, ph)
            # board (x, y down) -> page: the window's top-left at the printable top-left
            left, top = margin, H - margin
            place = (1, 0, 0, -1, left - wx, top + wy)
            clip = (left, top - ph, pw, ph)
            cuts, marks = [], []
            seam_x = [x0 + i * (pw - overlap) for i in range(1, cols)]     # left edge of tile i
            seam_y = [y0 + i * (ph - overlap) for i in range(1, rows)]
            # cut this tile along the middle of its left and top overlaps
            if c > 0:
                x = wx + overlap / 2
                cuts.append(((x, wy), (x, wy + ph)))
            if r > 0:
                y = wy + overlap / 2
                cuts.append(((wx, y), (wx + pw, y)))
            # alignment marks in the outer frame, at 3/4 of each overlap, on both tiles
            for sx in seam_x:
                x = sx + overlap * 0.75
                if wx <= x <= wx + pw:
                    for y in (-(bleed + FRAME / 2), board[1] + bleed + FRAME / 2):
                        if wy <= y <= wy + ph:
                            marks += _cross(x, y)
            for sy in seam_y:
                y = sy + overlap * 0.75
                if wy <= y <= wy + ph:
                    for x in (-(bleed + FRAME / 2), board[0] + bleed + FRAME / 2):
                        if wx <= x <= wx + pw:
                            marks += _cross(x, y)
            marks += [m for m in marks_b if _inside_window(m, window)]
            tiles.append(Tile(c, r, f"{_letters(c)}{r + 1}", window, place, clip,
                              tuple(_to_page(place, s) for s in cuts), tuple(_to_page(place, m) for m in marks)))
    return Layout((W, H), board, bleed, overlap, cols, rows, tuple(tiles), False)


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


def _cross(x, y, r=3.0):
    return [((x - r, y), (x + r, y)), ((x, y - r), (x, y + r))]


def _inside_window(seg, window):
    (x0, y0), (x1, y1) = seg
    wx, wy, ww, wh = window
    return all(wx <= x <= wx + ww and wy <= y <= wy + wh for x, y in ((x0, y0), (x1, y1)))


def _to_page(place, seg):
    a, b, c, d, e, f = place
    return tuple((a * x + c * y + e, b * x + d * y + f) for x, y in seg)


def _letters(n: int) -> str:
    out = ""
    n += 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out
