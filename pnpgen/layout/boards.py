"""Boards, mats and other sheets larger than a card: a board's face is laid out as a card's
is (the same templates and elements, by a layouter of the board), then tiled over pages
or put whole on a poster page (tile.py) instead of imposed in a grid of cards."""

from __future__ import annotations

from ..errors import InputError
from ..game.expand import PrintCard
from ..game.cards import CardData
from ..game.loader import BoardSource


def board_fields(board: BoardSource, seed: int | None = None) -> dict:
    """The names the board's template sees: its `fields`, plus a generated map's rows and
    the seed that made them."""
    fields = dict(board.board.fields)
    gen = board.board.hexmap
    if gen is not None:
        from ..maps import hexmap  # only boards that generate a map need the generator
        used = gen.seed if seed is None else seed
        try:
            made = hexmap.generate(gen.cols, gen.rows, gen.top, gen.weights, used, gen.players, gen.den, gen.water,
                                   gen.max_cluster or None, gen.shape)
        except hexmap.HexError as exc:
            raise InputError.at(board.doc.path, board.doc.line(("hexmap",)), f"hexmap: {exc}") from None
        fields[gen.field] = made.rows_text()
        fields["seed"] = used
        fields["players"] = gen.players
    return fields


def board_card(board: BoardSource, seed: int | None = None) -> PrintCard:
    """The board's one face, drawn from its fields (`seed`: another generated map) by a layouter
    of the board itself, as a card's face is; side A is its front, side B its back."""
    b = board.board
    entry = CardData(0, board.doc.line(()), board_fields(board, seed), 1, b.template, b.back, None)
    return PrintCard(entry, "", 1, b.template, b.back, True)
