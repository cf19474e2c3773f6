"""One side of a comparison: what revision, built and compare all speak of, the game's
faces as drawn now or at a revision, or as an earlier build recorded them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..export.faces import DeckFaces
from ..game.loader import GameSource


@dataclass
class Side:
    """One side of a comparison: a game's decks and boards as drawn (or as an earlier build's
    manifest recorded them: PrintedFace), its bleed, its folder (for images converted in
    memory) and its title."""

    decks: list[DeckFaces]
    bleed: float = 0.0
    root: Path | None = None
    title: str = ""

    @classmethod
    def of(cls, game: GameSource, decks: list[DeckFaces]) -> "Side":
        return cls(decks, game.game.bleed, game.root, game.game.title)
