"""The game's data as a rulebook's Jinja2 expressions see it: decks, cards and boards by
name, counts that follow the data, and generated Markdown (the components table, card
lists, what is reconstructed). A name the game lacks raises a RefError, which the source
stage turns into `rulebook.md:line: ...`."""

from __future__ import annotations

from ..errors import did_you_mean
from ..game.expand import PrintCard
from ..game.cards import DeckSource
from ..game.loader import GameSource

NAME_FIELDS = ("title", "name")
"""Fields a card is named by in a rulebook (else its code)."""


class RefError(Exception):
    """A rulebook names a deck, card, board or field that the game does not have."""


def _md(value) -> str:
    """A data value as Markdown inline text: lists joined, Markdown's punctuation escaped."""
    if value is None or value == "":
        return "–"
    if isinstance(value, (list, tuple)):
        return ", ".join(_md(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_md(v)}" for k, v in value.items())
    text = " ".join(str(value).split())
    for ch in "\\|*_[]<>`#":
        text = text.replace(ch, "\\" + ch)
    return text


def _heading(field: str) -> str:
    """A column heading for a field: 'start_cfc' -> 'Start CFC', 'vp' -> 'VP'."""
    words = field.split("_")
    return " ".join(w.upper() if len(w) <= 3 and i == len(words) - 1 or len(words) == 1 and len(w) <= 2
                    else (w.capitalize() if i == 0 else w) for i, w in enumerate(words))


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n" + "\n".join(lines) + "\n"


class Card:
    """One card entry: its fields as attributes, plus count, code and name."""

    def __init__(self, deck: "Deck", index: int, fields: dict, count: int, code: str):
        self._deck, self._index, self._fields = deck, index, fields
        self.count, self.code = count, code
        self.name = next((str(fields[f]) for f in NAME_FIELDS if fields.get(f)), code)

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        if key in self._fields:
            return self._fields[key]
        raise RefError(f"deck '{self._deck.id}' has no field '{key}'"
                       + did_you_mean(key, list(self._fields) + ["count", "code", "name"]))

    def __str__(self):
        return self.name


class Cards:
    """A list of card entries with its totals: a whole deck or a selection of one."""

    def __init__(self, deck: "Deck", cards: list[Card]):
        self._deck, self.cards = deck, cards

    @property
    def count(self) -> int:
        """Cards printed, copies counted."""
        return sum(c.count for c in self.cards)

    @property
    def entries(self) -> int:
        """Distinct card entries."""
        return len(self.cards)

    def where(self, **wanted) -> "Cards":
        for key in wanted:
            if key not in self._deck.fields:
                raise RefError(f"deck '{self._deck.id}' has no field '{key}'" + did_you_mean(key, self._deck.fields))
        return Cards(self._deck, [c for c in self.cards if all(c._fields.get(k) == v for k, v in wanted.items())])

    def values(self, field: str) -> list:
        if field not in self._deck.fields:
            raise RefError(f"deck '{self._deck.id}' has no field '{field}'" + did_you_mean(field, self._deck.fields))
        seen = []
        for c in self.cards:
            v = c._fields.get(field)
            if v is not None and v not in seen:
                seen.append(v)
        return seen

    def __iter__(self):
        return iter(self.cards)

    def __len__(self):
        return len(self.cards)


class Deck(Cards):
    """A deck of the game, as a rulebook names it: decks.<id>."""

    def __init__(self, source: DeckSource, printed: list[PrintCard]):
        self.id, self.name = source.id, source.deck.name
        self.fields = list(source.deck.fields)
        self.size = source.size
        self.pack = source.deck.pack
        first = {}
        for p in printed:
            first.setdefault(p.entry.index, p.code)
        cards = [Card(self, c.index, c.fields, c.count, first.get(c.index, "")) for c in source.cards]
        super().__init__(self, cards)

    def card(self, name: str) -> Card:
        for c in self.cards:
            if name in (c.name, c.code):
                return c
        raise RefError(f"deck '{self.id}' has no card '{name}'" + did_you_mean(name, [c.name for c in self.cards]))

    def __str__(self):
        return self.name


class Board:
    """A board of the game: boards.<id>."""

    def __init__(self, source):
        b = source.board
        self.id, self.name = source.id, b.name
        self.width, self.height = (int(v) if float(v).is_integer() else v for v in b.size)
        self.sides = 2 if b.back else 1

    def __str__(self):
        return self.name


class Named:
    """decks / boards: attribute access by id, with a 'did you mean' for a wrong one."""

    def __init__(self, kind: str, items: dict):
        self._kind, self._items = kind, items

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        return self[key]

    def __getitem__(self, key):
        if key not in self._items:
            raise RefError(f"the game has no {self._kind} '{key}'" + did_you_mean(key, self._items))
        return self._items[key]

    def __iter__(self):
        return iter(self._items.values())

    def __len__(self):
        return len(self._items)


class Facts:
    """Everything a rulebook's expressions can name, built from the loaded game."""

    def __init__(self, game: GameSource, printed: dict[str, list[PrintCard]]):
        self.game = game
        self.decks = Named("deck", {d.id: Deck(d, printed.get(d.id, [])) for d in game.decks})
        self.boards = Named("board", {b.id: Board(b) for b in game.boards})

    def names(self) -> dict:
        g = self.game.game
        return {
            "game": {"title": g.title, "code": g.code},
            "decks": self.decks,
            "boards": self.boards,
            "card": self.card,
            "components": self.components,
            "card_list": self.card_list,
            "reconstructed": self.reconstructed,
        }

    def card(self, deck: str, name: str) -> Card:
        return self.decks[deck].card(str(name))

    def components(self) -> str:
        """A Markdown table of every deck and board with its count."""
        rows = []
        for d in self.decks:
            w, h = d.size
            what = "pieces" if d.pack else "cards"
            size = "" if d.pack else f" ({w:g} × {h:g} mm)"
            rows.append([_md(d.name) + size, f"{d.count} {what if d.count != 1 else what[:-1]}"])
        for b in self.boards:
            sides = ", two-sided" if b.sides == 2 else ""
            rows.append([f"{_md(b.name)} ({b.width:g} × {b.height:g} mm{sides})", "1 board"])
        return _table(["Component", "Count"], rows)

    def card_list(self, deck: str, *fields: str) -> str:
        """A Markdown table: one row per card entry, its count and the given fields."""
        d = self.decks[deck]
        fields = fields or (next((f for f in NAME_FIELDS if f in d.fields), None) or "code",)
        for f in fields:
            if f not in d.fields and f not in ("code", "name"):
                raise RefError(f"deck '{d.id}' has no field '{f}'" + did_you_mean(f, d.fields))
        counts = any(c.count != 1 for c in d.cards)
        header = (["×"] if counts else []) + [_heading(f) for f in fields]
        rows = []
        for c in d.cards:
            values = [_md(getattr(c, f)) for f in fields]
            rows.append(([str(c.count)] if counts else []) + values)
        return _table(header, rows)

    def reconstructed(self) -> str:
        """A Markdown list of the decks whose cards are marked `provenance: recon` or `partial`."""
        lines = []
        for d in self.decks:
            if "provenance" not in d.fields:
                continue
            recon = d.where(provenance="recon").count
            partial = d.where(provenance="partial").count
            parts = []
            if recon:
                parts.append(f"{recon} of {d.count} reconstructed for this kit")
            if partial:
                parts.append(f"{partial} of {d.count} completed for this kit from partial information")
            if parts:
                lines.append(f"- {_md(d.name)}: " + "; ".join(parts) + ".")
        if not lines:
            return "\nNo card of this kit is marked as reconstructed.\n"
        return "\n" + "\n".join(lines) + "\n"
