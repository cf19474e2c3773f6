"""A deck's card entries as loaded, kept column by column (CardTable, each entry a CardData
when asked for), and the deck file they came from (DeckSource)."""

from __future__ import annotations

from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from ..sources import yamlsrc
from .models import Deck


@dataclass(slots=True)
class CardData:
    """One card entry of a deck file, validated, with defaults filled in."""

    index: int            # position in the deck file
    line: int | None      # line of the entry in the deck file
    fields: dict          # field values (declared fields only)
    count: int
    template: str
    back: str | None      # a back template for this card alone
    number: int | None    # pinned code number
    own_template: bool = True  # the card names its template (else the deck's applies)


class CardTable(Sequence):
    """A deck file's card entries, kept column by column: a list of values per field and an
    array per setting. Indexing gives a CardData, made afresh. A 20,000-card deck takes about
    60 bytes a card here plus its distinct values, against 340 as one CardData and dict each;
    repeated text is kept once by the YAML loader (yamlsrc), so columns mostly hold pointers."""

    def __init__(self, names):
        self.names = tuple(names)                  # the deck's declared fields, in order
        self.values = [[] for _ in self.names]     # one column per field
        self.lines = array("l")                    # 0: no line
        self.counts = array("l")
        self.numbers = array("l")                  # 0: no pinned number
        self.templates: list[str] = []             # (the same few names, shared)
        self.backs: list[str | None] = []
        self.own = bytearray()                     # the card names its own template

    def append(self, card: CardData) -> None:
        if card.index != len(self.counts) or tuple(card.fields) != self.names:
            raise ValueError("cards are appended in deck order, with the deck's fields")
        self.add(card.fields.values(), card.line, card.count, card.template, card.back, card.number,
                 card.own_template)

    def add(self, values, line: int | None, count: int, template: str, back: str | None, number: int | None,
            own: bool) -> None:
        """The next card entry, its field `values` in the order of the deck's fields."""
        for column, value in zip(self.values, values):
            column.append(value)
        self.lines.append(line or 0)
        self.counts.append(count)
        self.numbers.append(number or 0)
        self.templates.append(template)
        self.backs.append(back)
        self.own.append(own)

    def __len__(self) -> int:
        return len(self.counts)

    def template_names(self) -> set[str]:
        """Every template its cards name, fronts and their own backs."""
        return set(self.templates) | set(filter(None, self.backs))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("card index out of range")
        return self.row(i)

    def row(self, i: int) -> CardData:
        """Entry `i` (0 <= i < len), made afresh."""
        return CardData(i, self.lines[i] or None, {n: col[i] for n, col in zip(self.names, self.values)},
                        self.counts[i], self.templates[i], self.backs[i], self.numbers[i] or None, bool(self.own[i]))


@dataclass
class DeckSource:
    """A deck file as loaded: its id, path, parsed document and model."""

    id: str
    path: Path
    doc: yamlsrc.Doc
    deck: Deck
    size: tuple[float, float]
    cards: CardTable
    sheet_path: Path | None = None   # the card sheet its cards were read from (links followed)
    sheet_shown: str | None = None   # that card sheet, as messages show it

    kind: ClassVar[str] = "deck"

    @property
    def name(self) -> str:
        return self.deck.name

    @property
    def safe(self) -> float | None:
        """The deck's own safe-zone inset, mm (None: the game's)."""
        return self.deck.safe

    @property
    def field_names(self) -> Collection[str]:
        """The fields its templates may use beside the built-in names."""
        return self.deck.fields

    @property
    def cards_path(self) -> Path:
        """The file its cards are written in, as messages show it: a card's `line` is a line of
        it, or (in a card sheet) a row."""
        return Path(self.sheet_shown) if self.sheet_shown else self.doc.path
