"""`hexmap`: a board's hex map (a fixed map in its fields, or the one its seed generates)
must be fit for play: only the game's terrain codes, a start hex (Swarm's Den) for each
player, as far apart as the board allows or wherever the designer put them, land that
impassable terrain (Swarm's Water) never cuts in two, no patch of one terrain larger than
allowed, and (optionally) a terrain mix near the share asked for. Each constraint can be
turned off, and a game names its own terrains. Problems are reported at the board file."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ...maps import hexmap
from ...sources.validation import Schema
from .base import Finding, Range, RuleCard

ORDER = 130
"""Where `hexmap` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """A board's hex map (fixed or generated) that must be fit for play (starts, impassable terrain, patches, mix)."""
"""What the rule's `hexmap:` key holds, as the reference says it."""


class Spec(Schema):
    """A hex board and the rules its map must meet."""

    board: str | None = None
    """The board file's name (boards/<name>.yaml); default: the game's only board."""
    field: str = "hexes"
    """The board field holding the map's rows."""
    codes: list[str] | None = None
    """The terrain codes a hex may hold (each must appear on a big enough board); default: the
    codes of `terrains`, else Swarm's ten (1-9 and 0)."""
    terrains: dict[str, str] | None = None
    """The game's own terrain table, code -> name, e.g. {L: Landing, D: Deep water, G: Grass}:
    messages call terrains by these names, a hex may hold only these codes (unless `codes`
    says otherwise), and Swarm's small limit for Mud and Sand no longer applies. Default:
    Swarm's ten terrains (6 Den, 5 Water, 7 Mud, 0 Sand, ...)."""
    players: int = Field(4, ge=1, le=8)
    """Start hexes the map must have, one for each player."""
    den: str = "6"
    """The start terrain's code: each player starts on a hex of it (Swarm's Den)."""
    water: str | list[str] = "5"
    """The impassable terrain's code, or a list of codes (deep water, cliffs): what `connected`
    keeps from cutting the land in two, and kept to patches of 3 unless `max_cluster` says
    otherwise (Swarm's Water)."""
    starts: Literal["spread", "placed", "off"] = "spread"
    """spread: the start hexes must be as far apart as the board allows (Swarm's corners);
    placed: the starts are wherever the map has the start terrain, and it must have one for
    each player; off (or false): start hexes are not checked."""
    connected: bool = True
    """Every hex that is not impassable can be reached from every other without crossing
    impassable terrain (false: not checked)."""
    clusters: bool = True
    """No patch of one terrain (hexes of it touching) larger than its limit (false: not checked)."""
    max_cluster: dict[str, int] = {}
    """Terrain code -> largest connected patch allowed (default 3 for impassable terrain and
    Swarm's Mud and Sand, 5 for any other)."""
    share: Range | None = None
    """Each code's share of the hexes, in whole percent, e.g. {min: 6, max: 14}."""

    @field_validator("starts", mode="before")
    @classmethod
    def _off(cls, value):
        return "off" if value is False else value   # (YAML reads a bare off as false)

    @model_validator(mode="after")
    def _named(self):
        waters = [self.water] if isinstance(self.water, str) else self.water
        if not waters:
            raise ValueError("water: give the impassable terrain's code, or a list of codes")
        if self.den in waters:
            raise ValueError(f"den '{self.den}' is also impassable (water); the start terrain must be land")
        if self.terrains is not None:
            unnamed = [c for c in [self.den, *waters] if c not in self.terrains]
            if unnamed:
                raise ValueError(f"{', '.join(unnamed)}: the start or impassable code is not one of terrains "
                                 f"({', '.join(self.terrains)}); add it there with its name")
        return self

    @property
    def allowed(self) -> set[str] | None:
        """The codes a hex may hold (None: Swarm's)."""
        if self.codes:
            return set(self.codes)
        return set(self.terrains) if self.terrains else None


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
                            spec.allowed)
    except hexmap.HexError as exc:
        yield Finding(f"board {board.id}: {exc}", at)
        return
    found = hexmap.problems(grid, spec.players, spec.den, spec.water, spec.max_cluster or None,
                            names=spec.terrains, starts=spec.starts, connected=spec.connected,
                            clusters=spec.clusters)
    for problem in found:
        yield Finding(f"board {board.id}: {problem}", at)
    if spec.share is not None:
        total = len(grid.hexes())  # hexes written '-' are not on the board and not counted
        for code in sorted(spec.allowed or {grid.terrain(*h) for h in grid.hexes()}):
            pct = round(100 * len(grid.find(code)) / total)
            lo, hi = ctx.bound(spec.share.min), ctx.bound(spec.share.max)
            if (lo is not None and pct < lo) or (hi is not None and pct > hi):
                yield Finding(f"board {board.id}: terrain {code} covers {pct} % of the hexes "
                              f"(expected {lo if lo is not None else 0}-{hi if hi is not None else 100} %)", at)
