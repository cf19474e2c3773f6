"""Tabletop Simulator deck sheets: how many sheets a deck takes, the grid of each, and the
sheet images. TTS reads a custom deck from a grid of at most 10 x 7 cards whose last slot is
its hidden-card slot (so 69 cards a sheet), in an image it loads as one texture: at most
4096 px a side. The grid is the one that gives the cards the most pixels (up to 300 DPI)."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image

from .faces import DeckFaces, Face, write_pages
from .job import INCH
from .raster import render_pages

MAX_COLS, MAX_ROWS, MIN_SIDE, MAX_PX = 10, 7, 2, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1
DPI = 300
"""Faces are drawn at up to this resolution; less where the sheet's 4096 px would be exceeded."""


def runs(n: int) -> list[range]:
    """The cards of each sheet: as few sheets as hold n cards, shared out evenly (two sheets
    of 37 and 36 cards get larger cards than one of 69 and one of 4)."""
    sheets = max(1, math.ceil(n / PER_SHEET))
    per = math.ceil(n / sheets)
    return [range(start, min(start + per, n)) for start in range(0, n, per)]


def card_px(trim: tuple[float, float], cols: int, rows: int) -> tuple[int, int]:
    """A card's pixel size on a sheet of cols x rows: its trim at DPI, shrunk so that the
    sheet stays within MAX_PX both ways."""
    w, h = trim
    scale = min(DPI / INCH, MAX_PX / cols / w, MAX_PX / rows / h)
    return int(w * scale), int(h * scale)


def grid(n: int, trim: tuple[float, float]) -> tuple[int, int]:
    """Columns and rows for n cards (n <= PER_SHEET) and the hidden slot: of the grids TTS
    takes (2 to 10 columns, 2 to 7 rows), the one whose cards get the most pixels; among
    equals, the one with fewest slots, then fewest columns."""
    grids = [(cols, rows) for cols in range(MIN_SIDE, MAX_COLS + 1) for rows in range(MIN_SIDE, MAX_ROWS + 1)
             if cols * rows >= n + 1]
    return min(grids, key=lambda g: (-card_px(trim, *g)[0], -card_px(trim, *g)[1], g[0] * g[1], g[0]))


def write_sheet(deck: DeckFaces, faces: list[Face | None], cols: int, rows: int, size: tuple[int, int],
                tiles: Path, target: Path, workers) -> None:
    """Render each face at `size` px (trimmed, no bleed) and paste them row by row into one
    sheet image of cols x rows slots; a slot whose face is None stays white (a card with no
    back on a sheet of backs, the hidden slot, the slots after the last card)."""
    tiles.mkdir(parents=True, exist_ok=True)
    drawn = [(slot, face) for slot, face in enumerate(faces) if face is not None]
    names = [tiles / f"{slot}.png" for slot, _ in drawn]
    if drawn:
        pdf = tiles / "faces.pdf"
        write_pages(pdf, [face for _, face in drawn], deck, 0.0, deck.name)
        render_pages(pdf, [(i, size, name) for i, name in enumerate(names)], DPI, workers, passing=True)
    sheet = Image.new("RGB", (cols * size[0], rows * size[1]), (255, 255, 255))
    for (slot, _), name in zip(drawn, names):
        with Image.open(name) as tile:
            sheet.paste(tile, ((slot % cols) * size[0], (slot // cols) * size[1]))
    sheet.save(target, format="PNG")
