"""What building each component of a game reports: the files written, pages, and the
warnings noticed while drawing. Each kind of component has its own result (a deck's,
a board's, the rulebook's); what a summary needs of any of them is a `Result`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol

from ..errors import Notice


class Result(Protocol):
    """What every component's result tells: which it is, its files, pages and warnings."""

    kind: ClassVar[str]           # "deck", "board" or "rulebook"
    path: Path                    # its PDF (the first, for a deck split into volumes)
    pages: int
    warnings: list[Notice]

    @property
    def id(self) -> str: ...      # the deck's or board's id; "rulebook"

    @property
    def files(self) -> list[Path]: ...    # every PDF it wrote

    @property
    def sheets(self) -> int: ...  # sheets of paper of cards, tokens and board tiles it printed


@dataclass
class DeckResult:
    """What building one deck wrote: files, counts, warnings."""

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
    kind: ClassVar[str] = "deck"

    @property
    def id(self) -> str:
        return self.deck

    @property
    def files(self) -> list[Path]:
        return self.volumes or [self.path]


@dataclass
class BoardResult:
    """What building one board wrote: its PDF, the sheets of paper it takes (tiles, or one
    poster page), its pages and warnings."""

    board: str
    path: Path
    sheets: int
    pages: int
    warnings: list[Notice] = field(default_factory=list)
    kind: ClassVar[str] = "board"
    saved: ClassVar[int] = 0

    @property
    def id(self) -> str:
        return self.board

    @property
    def files(self) -> list[Path]:
        return [self.path]


@dataclass
class RulebookResult:
    """What building the rulebook wrote (or, under --no-check, why it did not: its warnings)."""

    path: Path
    pages: int
    warnings: list[Notice] = field(default_factory=list)
    kind: ClassVar[str] = "rulebook"
    id: ClassVar[str] = "rulebook"
    sheets: ClassVar[int] = 0     # (sheets of cards and tokens: none; a booklet's are its own)
    saved: ClassVar[int] = 0

    @property
    def files(self) -> list[Path]:
        return [self.path]
