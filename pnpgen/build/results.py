"""What building each component of a game reports: the files written, pages, and the
warnings noticed while drawing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Notice


@dataclass
class DeckResult:
    """What building one deck (or board) wrote: files, counts, warnings."""

    deck: str
    path: Path
    cards: int
    sheets: int
    pages: int
    per_sheet: int
    warnings: list[Notice] = field(default_factory=list)
    volumes: list[Path] = field(default_factory=list)   # every PDF of the deck, when split into volumes
    kept: int = 0      # pages copied from the build cache
    drawn: int = 0     # pages drawn anew
    saved: int = 0     # sheets saved by sharing them (a shared PDF's result)
