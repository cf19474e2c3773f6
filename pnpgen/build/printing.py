"""How a game's kit goes onto paper, worked out without drawing anything: the paper and flip
edge the build uses, each deck's sheets (the automatic grid, a custom layout or packed
tokens) and each board's tiles. The print checks' margin check, the rulebook's printing
section and `pnpgen list` all read these facts, so they say what the build does."""

from __future__ import annotations

from dataclasses import dataclass

from .. import presets
from ..sheets.tile import Layout, poster, tile
from .options import Options
from .pages import DeckSheets, plan_sheets
from .plan import GamePlan, with_game_layout


@dataclass
class Printing:
    """A game's kit on paper: `paper` (its name) and `page` (mm), the flip edge, the printer
    margin the sheets keep clear (mm), each deck's sheets and each board's layout, by id."""

    paper: str
    page: tuple[float, float]
    flip: str
    margin: float
    decks: dict[str, DeckSheets]
    boards: dict[str, Layout]


def printing(plan: GamePlan, options: Options | None = None) -> Printing:
    """The kit of a planned game as the build with `options` (default: game.yaml's settings)
    would print it."""
    game = plan.game
    g = game.game
    options = with_game_layout(game, options or Options())
    paper = options.paper or g.paper
    page = presets.papers()[paper]
    decks = {deck.id: plan_sheets(game, deck, deck.cards, options) for deck in plan.decks}
    boards = {}
    for board in plan.boards:
        b = board.source.board
        boards[board.id] = poster(presets.papers()[options.poster], b.size, g.bleed, g.printer_margin) \
            if options.poster else tile(page, b.size, g.bleed, g.printer_margin, b.overlap)
    return Printing(paper, page, options.flip or g.flip, g.printer_margin, decks, boards)
