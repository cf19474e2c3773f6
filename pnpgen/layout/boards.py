"""Boards, mats and other sheets larger than a card: a board is laid out like a single card
whose face is the whole board (the same templates and elements), then tiled over pages
or put whole on a poster page (tile.py) instead of imposed in a grid of cards."""

from __future__ import annotations

from ..errors import InputError
from ..game.expand import PrintCard
from ..game.loader import BoardSource, CardData, DeckSource, GameSource
from ..game.models import Deck, FieldSpec


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


def board_card(game: GameSource, board: BoardSource, seed: int | None = None) -> tuple[DeckSource, PrintCard]:
    """The board as a one-card deck, so that the card layouter draws it unchanged."""
    fields = board_fields(board, seed)
    b = board.board
    deck = Deck.model_construct(name=b.name, template=b.template, back=None, card_size=b.size, safe=None,
                                fields={k: FieldSpec() for k in fields}, cards=[])
    entry = CardData(0, board.doc.line(()), fields, 1, b.template, b.back, None)
    source = DeckSource(board.id, board.path, board.doc, deck, b.size, [entry])
    return source, PrintCard(entry, "", 1, b.template, b.back, True)
