"""`hexmap`: a board's hex map (a fixed map in its fields, or the one its seed generates)
must be fit for play: only the game's terrain codes, a Den for each player with the start
Dens as far apart as the board allows, land that water never cuts in two, no patch of one
terrain larger than allowed, and (optionally) a terrain mix near the share asked for.
Problems are reported at the board file."""

from __future__ import annotations

from pydantic import Field

from ...maps import hexmap
from ...sources.validation import Schema
from .base import Finding, Range, RuleCard

ORDER = 130
"""Where `hexmap` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """A board's hex map (fixed or generated) that must be fit for play (Dens, water, patches, mix)."""
"""What the rule's `hexmap:` key holds, as the reference says it."""


class Spec(Schema):
    """A hex board and the rules its map must meet."""

    board: str | None = None
    """The board file's name (boards/<name>.yaml); default: the game's only board."""
    field: str = "hexes"
    """The board field holding the map's rows."""
    codes: list[str] | None = None
    """The terrain codes a hex may hold (each must appear on a big enough board)."""
    players: int = Field(4, ge=1, le=8)
    """Start Dens the map must have room for."""
    den: str = "6"
    """The Den's terrain code."""
    water: str = "5"
    """The impassable terrain's code."""
    max_cluster: dict[str, int] = {}
    """Terrain code -> largest connected patch allowed (defaults as the generator's)."""
    share: Range | None = None
    """Each code's share of the hexes, in whole percent, e.g. {min: 6, max: 14}."""




def validate(ctx, spec):
    board = ctx.board(spec.board)
    gen = board.board.hexmap
    if spec.field not in board.board.fields and not (gen and gen.field == spec.field):
        raise ctx.problem(f"board '{board.id}' has no field '{spec.field}' and generates none", "hexmap")


def evaluate(ctx, spec, group):
    from ...layout.boards import board_fields
    board = ctx.board(spec.board)
    key = "hexmap" if board.board.hexmap else "fields"
    at = RuleCard(board.id, board.id, 1, {}, ctx.game.rel(board.path), board.doc.line((key,)))
    fields = board_fields(board)
    try:
        grid = hexmap.parse(fields.get(spec.field), board.board.hexmap.top if board.board.hexmap else "flat",
                            set(spec.codes) if spec.codes else None)
    except hexmap.HexError as exc:
        yield Finding(f"board {board.id}: {exc}", at)
        return
    for problem in hexmap.problems(grid, spec.players, spec.den, spec.water, spec.max_cluster or None):
        yield Finding(f"board {board.id}: {problem}", at)
    if spec.share is not None:
        total = len(grid.hexes())  # hexes written '-' are not on the board and not counted
        for code in sorted(spec.codes or {grid.terrain(*h) for h in grid.hexes()}):
            pct = round(100 * len(grid.find(code)) / total)
            lo, hi = ctx.bound(spec.share.min), ctx.bound(spec.share.max)
            if (lo is not None and pct < lo) or (hi is not None and pct > hi):
                yield Finding(f"board {board.id}: terrain {code} covers {pct} % of the hexes "
                              f"(expected {lo if lo is not None else 0}-{hi if hi is not None else 100} %)", at)
