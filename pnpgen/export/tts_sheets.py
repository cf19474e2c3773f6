"""Tabletop Simulator deck sheets: how many sheets a deck takes, the grid of each, and the
sheet images. TTS reads a custom deck from a grid of at most 10 x 7 cards whose last slot is
its hidden-card slot (so 69 cards a sheet), in an image it loads as one texture: at most
4096 px a side. The grid is the one that gives the cards the most pixels (up to 300 DPI)."""

from __future__ import annotations

import math
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from PIL import Image

from .faces import DeckFaces, Face, write_pages
from .job import INCH
from .raster import SHARED_LEVEL, render_pages

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


class SheetSaver:
    """Sheet images put together and saved as PNG on threads beside the export: Pillow lets go
    of Python's lock while it reads the tiles and compresses a sheet (most of a sheet's time),
    so the next sheets' faces are drawn and rendered meanwhile. The files are what saving them
    in turn writes. Use it as a context: on leaving, every sheet is saved (or, when the export
    failed, none is started any more) and the tiles' folders are removed."""

    def __init__(self, threads: int = 2):
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="pnpgen-tts-sheets")
        self._pending: list[Future] = []
        self._folders: list[Path] = []
        self.targets: set[Path] = set()
        """Every sheet asked for so far (saved, or being saved)."""

    def save(self, tiles: list[tuple[int, Path]], cols: int, rows: int, size: tuple[int, int], target: Path,
             folder: Path) -> None:
        """Put `tiles` ((slot, PNG file) each) into a sheet of cols x rows slots of `size` px,
        saved at `target`; then remove `folder`, where the tiles are."""
        self.targets.add(target)
        self._pending.append(self._pool.submit(_compose, tiles, cols, rows, size, target, folder))

    def remove(self, folder: Path) -> None:
        """Remove `folder` (a deck's tiles) once every sheet is saved."""
        self._folders.append(folder)

    def __enter__(self) -> SheetSaver:
        return self

    def __exit__(self, kind, error, trace) -> None:
        try:
            if kind is None:
                for future in self._pending:
                    future.result()       # (raises what saving a sheet raised)
        finally:
            self._pool.shutdown(wait=True, cancel_futures=True)
            for folder in self._folders:
                shutil.rmtree(folder, ignore_errors=True)


def write_sheet(deck: DeckFaces, faces: list[Face | None], cols: int, rows: int, size: tuple[int, int],
                tiles: Path, target: Path, workers, saver: SheetSaver) -> None:
    """Render each face at `size` px (trimmed, no bleed) into `tiles`, and have `saver` paste
    them row by row into one sheet image of cols x rows slots; a slot whose face is None stays
    white (a card with no back on a sheet of backs, the hidden slot, the slots after the last card)."""
    tiles.mkdir(parents=True, exist_ok=True)
    drawn = [(slot, face) for slot, face in enumerate(faces) if face is not None]
    names = [tiles / f"{slot}.ppm" for slot, _ in drawn]
    if drawn:
        pdf = tiles / "faces.pdf"
        write_pages(pdf, [face for _, face in drawn], deck, 0.0, deck.name)
        render_pages(pdf, [(i, size, name) for i, name in enumerate(names)], DPI, workers, passing=True)
    saver.save([(slot, name) for (slot, _), name in zip(drawn, names)], cols, rows, size, target, tiles)


def _compose(tiles: list[tuple[int, Path]], cols: int, rows: int, size: tuple[int, int], target: Path,
             folder: Path) -> None:
    """The sheet of `tiles` (see SheetSaver.save), saved as a PNG at `target`; `folder` then removed."""
    sheet = Image.new("RGB", (cols * size[0], rows * size[1]), (255, 255, 255))
    for slot, name in tiles:
        with Image.open(name) as tile:
            sheet.paste(tile, ((slot % cols) * size[0], (slot // cols) * size[1]))
    sheet.save(target, format="PNG", compress_level=SHARED_LEVEL)
    shutil.rmtree(folder, ignore_errors=True)
