"""Where a tiled board's seams fall: the boxes it keeps whole (every line of text on either
side, and the regions its file names) and the tiling that goes round them, the same for the
build, which cuts the board there, and the `print-seams` check, which reports what it could not."""

from __future__ import annotations

from .. import presets
from ..sheets.seams import Keep
from ..sheets.tile import Layout, tile
from .faces import Face, Where, read_face

REGION_WEIGHT = 3.0
"""Crossing a region the designer named costs as much as crossing three lines of text."""


def text_keeps(face: Face) -> list[Keep]:
    """A box round each line of text on a laid-out face (its turned corners' bounds)."""
    out = []
    for text in face.texts:
        xs, ys = zip(*text.corners())
        out.append(Keep((min(xs), min(ys), max(xs), max(ys)), f"text {text.text[:40]!r}", 1.0, text.where))
    return out


def region_keeps(board_source) -> list[Keep]:
    """The board file's `keep_whole:` regions, each located at its entry."""
    doc = board_source.doc
    return [Keep((r.x, r.y, r.x + r.w, r.y + r.h), f"region {r.name!r}", REGION_WEIGHT,
                 Where(str(doc.path), doc.line(("keep_whole", i)), f"keep_whole[{i}]"))
            for i, r in enumerate(board_source.board.keep_whole)]


def side_keeps(game_id: str, board_id: str, size, bleed: float, body) -> list[Keep]:
    """The text boxes of one side of a board, from its drawing (unlocated: for the build)."""
    face = Face(game_id, board_id, "", "a", None, size, "rect", bleed)
    read_face(face, [(0, body)], lambda index: Where("", None, ""))
    return text_keeps(face)


def board_tiling(game_model, board_model, keeps: list[Keep], paper: str | None = None) -> Layout:
    """The tiles of a board on the game's paper (or `paper`), seams round `keeps`."""
    page = presets.papers()[paper or game_model.paper]
    return tile(page, board_model.size, game_model.bleed, game_model.printer_margin, board_model.overlap, keeps)

