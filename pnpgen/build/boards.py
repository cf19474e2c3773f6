"""A board onto paper: each side drawn once as a form, then placed on tiles that overlap
for taping together, or whole on one poster page."""

from __future__ import annotations

from pathlib import Path

from .. import files, fonts, presets
from ..game.loader import GameSource
from ..ops import FormDef
from ..pdf.canvas import BoardCanvas
from ..pdf.pdfx import make_pdfx, set_boxes
from ..printcheck.boards import board_tiling, region_keeps, side_keeps
from ..sheets.tile import poster
from .manifest import Manifest
from .options import Options
from .plan import BoardPlan
from .results import BoardResult


def board_forms(board: BoardPlan, icons: dict) -> tuple[dict[str, FormDef], list[tuple[str, str]]]:
    """The board's forms (icons, each side, the forms its templates share) and its sides as
    (form name, template) pairs."""
    b = board.source.board
    sides = [(f"board:{board.id}:a", b.template)] + ([(f"board:{board.id}:b", b.back)] if b.back else [])
    forms = dict(icons)
    for name, template in sides:
        forms[name] = FormDef(b.size, tuple(board.layouter.layout(board.card, template)), True)
    forms.update(board.layouter.forms)
    return forms, sides


def build_board(game: GameSource, board: BoardPlan, icons: dict, outdir: Path, options: Options,
                manifest: Manifest | None = None) -> tuple[BoardResult, str]:
    """Draw a board (each side once, as a form) onto tiles or a poster page, into a temporary
    file; returns the result and that file, for the caller to rename into place."""
    g, b = game.game, board.source.board
    forms, sides = board_forms(board, icons)
    layout = board_layout(game, board, options, [forms[name].body for name, _ in sides])
    target = outdir / f"{board.id}.pdf"
    with files.Staged() as staged:
        tmp = staged.add(target)
        font = fonts.builtin("sans")
        press = options.press()
        canvas = BoardCanvas(tmp, layout.page, f"{g.title} - {b.name}", forms, g.bleed, font, g.credits,
                             board.layouter.res.converted, press)
        canvas.define_forms(sorted(forms), faces=[name for name, _ in sides])
        if press is not None and layout.poster:   # the board is cut out of the poster at its trim
            set_boxes(canvas.c, poster_trim(layout), layout.tiles[0].clip)
        pages, placed = _draw_sides(canvas, layout, sides, g.title, b, font)
        try:
            canvas.save()
        except OSError as exc:
            raise files.unwritable(target, exc) from None
        if press is not None:
            make_pdfx(tmp, press)
        files.finish(tmp, target)
        if manifest is not None:
            manifest.board(board.source, forms, sides, layout, placed)
        staged.written = []
    return BoardResult(board.id, target, len(layout.tiles), pages, list(board.layouter.warnings)), tmp


def board_layout(game: GameSource, board: BoardPlan, options: Options, bodies: list | None = None):
    """How the board goes onto paper with `options`: whole on a poster page, or tiled with its
    seams round its text (that of `bodies`, each side's drawing, laid out here when not given)
    and its `keep_whole:` regions."""
    g, b = game.game, board.source.board
    if options.poster:
        return poster(presets.papers()[options.poster], b.size, g.bleed, g.printer_margin)
    if bodies is None:
        bodies = [tuple(board.layouter.layout(board.card, template)) for template in board.sides]
    keeps = region_keeps(board.source)
    for body in bodies:
        keeps += side_keeps(game.id, board.id, b.size, g.bleed, body)
    return board_tiling(g, b, keeps, options.paper)


def poster_trim(layout) -> tuple[float, float, float, float]:
    """Where a poster page's board is cut: its trim, page mm (x, y, w, h), y up."""
    a, b, c, d, left, top = layout.tiles[0].place
    board_w, board_h = layout.board
    return (left, top - board_h, board_w, board_h)


def _draw_sides(canvas: BoardCanvas, layout, sides: list, game_title: str, b, font: str) -> tuple[int, dict]:
    """Each side's assembly page (when tiled) and tiles; returns the pages drawn and, per side,
    the (page, tile) pairs the manifest records."""
    pages = 0
    placed: dict[int, list] = {}
    for side, (form, _) in enumerate(sides):
        if not layout.poster and len(layout.tiles) > 1:
            canvas.assembly(layout, form, f"{b.name}" + (f", side {'AB'[side]}" if len(sides) > 1 else ""),
                            font, len(sides))
            pages += 1
        for t in layout.tiles:
            where = "poster" if layout.poster else f"page {t.label} (column {t.label[:-len(str(t.row + 1))]} of " \
                f"{layout.cols}, row {t.row + 1} of {layout.rows})"
            side_name = f" \u00b7 side {'AB'[side]}" if len(sides) > 1 else ""
            canvas.tile(layout, t, form, b.size[1], f"{game_title} \u00b7 {b.name}{side_name} \u00b7 {where} \u00b7 "
                        "print at 100 % (actual size)", font)
            placed.setdefault(side, []).append((pages, t))
            pages += 1
    return pages, placed
