"""The card sheets `pnpgen pull` fetches for a game: every deck file whose `source:` gives a
web address, read on its own (its card sheet may not be there yet), with where its local copy
goes (its `cards:` file, confined to the game folder)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..sources import validation, yamlsrc
from .loader import confined, deck_files
from .models import Deck


@dataclass
class SheetSource:
    """One deck's card sheet and where it is fetched from."""

    deck_file: Path      # the deck file, as messages show it
    line: int | None     # the line of its `source:`
    url: str
    deck: Deck
    target: Path         # the card sheet (links followed), inside the game folder
    shown: str           # the card sheet as messages show it


def sheet_sources(cards_dir: Path, game_id: str) -> list[SheetSource]:
    """The game's decks that have a `source:`, in deck order."""
    src, paths = deck_files(cards_dir, game_id)
    found = []
    for path in paths:
        doc = yamlsrc.load(path, src.rel(path))
        if not isinstance(doc.data, dict) or "source" not in doc.data:
            continue
        deck = validation.validate(Deck, doc)
        try:
            target = confined(src.root, deck.cards)
        except ValueError as exc:
            raise doc.error(("cards",), f"cards: {exc}") from None
        found.append(SheetSource(doc.path, doc.line(("source",)), deck.source, deck, target,
                                 src.rel(src.root / deck.cards)))
    return found
