"""Expand card entries into the physical cards to print: copies, codes and backs."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from ..errors import InputError, Problem
from .cards import CardData, DeckSource
from .loader import GameSource


@dataclass(slots=True)
class PrintCard:
    """One physical card: the entry it comes from, which copy it is, and its code. Read only
    (not frozen: a frozen dataclass takes twice as long to make, and a long deck's cards are
    made again for each sheet they are laid out on)."""

    entry: CardData
    code: str
    copy: int          # 1-based copy number
    front: str         # front template name
    back: str | None   # back template name (None: single-sided)
    unique_back: bool  # the back is drawn from this card's fields


def assign_numbers(game: GameSource) -> dict[str, array]:
    """Code numbers for every card entry of the game: pinned numbers first, then the
    next free number in deck order. Returns {deck id: each entry's number, by entry index}."""
    numbers = {deck.id: array("l", deck.cards.numbers) for deck in game.decks}   # (0: not pinned)
    taken, problems = {}, []
    for deck in game.decks:
        for index, number in enumerate(deck.cards.numbers):
            if number:
                if number in taken:
                    line = deck.cards.lines[index] or None
                    problems.append(Problem(deck.cards_path, line if deck.sheet_path else
                                            deck.doc.line(("cards", index, "number")),
                                            f"number {number} is already used by {taken[number]}; "
                                            "numbers must be unique"))
                taken[number] = f"{deck.id} cards[{index}]"
    if problems:
        raise InputError(problems)
    nxt = 1
    for deck in game.decks:
        mine = numbers[deck.id]
        if not taken:       # (nothing pinned: the deck's entries numbered on in a row)
            numbers[deck.id] = array("l", range(nxt, nxt + len(mine)))
            nxt += len(mine)
            continue
        for i in range(len(mine)):
            if mine[i]:
                continue
            while nxt in taken:
                nxt += 1
            mine[i] = nxt
            nxt += 1
    return numbers


def code_for(game: GameSource, number: int) -> str:
    return f"{game.game.code}-{number:03d}"


def expand(game: GameSource, deck: DeckSource, numbers: dict) -> PrintCards:
    """The deck's physical cards, in deck-file order, copies together."""
    return PrintCards(game.game.code, deck, numbers[deck.id])


class PrintCards(Sequence):
    """A deck's physical cards (or a run of them), made from its entries when asked for
    rather than kept: a 20,000-card deck is then not 20,000 PrintCards and codes held for
    the whole build. A slice is another such run; iterating makes each entry's CardData once
    for all its copies."""

    __slots__ = ("prefix", "deck", "numbers", "starts", "lo", "hi")

    def __init__(self, prefix: str, deck: DeckSource, numbers: array):
        self.prefix, self.deck, self.numbers = prefix, deck, numbers
        self.starts = array("l", accumulate(deck.cards.counts, initial=0))   # each entry's first card, counting copies
        self.lo, self.hi = 0, self.starts.pop()

    def _as(self, other: PrintCards, lo: int, hi: int) -> PrintCards:
        """This (made with __new__) as the run lo:hi of the same cards as `other`."""
        self.prefix, self.deck, self.numbers, self.starts = other.prefix, other.deck, other.numbers, other.starts
        self.lo, self.hi = lo, hi
        return self

    def __len__(self) -> int:
        return self.hi - self.lo

    def __getitem__(self, i):
        if isinstance(i, slice):
            lo, hi, step = i.indices(len(self))
            if step != 1:
                return [self[j] for j in range(lo, hi, step)]
            return PrintCards.__new__(PrintCards)._as(self, self.lo + lo, self.lo + max(lo, hi))
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("card index out of range")
        at = self.lo + i
        j = bisect_right(self.starts, at) - 1
        return self._card(self.deck.cards[j], at - self.starts[j] + 1)

    def __iter__(self):
        at, hi, starts = self.lo, self.hi, self.starts
        if at >= hi:
            return
        j = bisect_right(starts, at) - 1
        row, numbers, prefix = self.deck.cards.row, self.numbers, self.prefix
        while at < hi:
            start = starts[j]
            entry = row(j)
            last = min(entry.count, hi - start)     # (its last copy in this run)
            if start + last > at:
                code, front, (back, unique) = f"{prefix}-{numbers[j]:03d}", entry.template, self._back(entry.back)
                for n in range(at - start + 1, last + 1):
                    yield PrintCard(entry, code, n, front, back, unique)
                at = start + last
            j += 1

    def __repr__(self) -> str:
        return f"<PrintCards {self.deck.id} [{self.lo}:{self.hi}]>"

    def looks(self) -> set[tuple[str, str | None, bool]]:
        """The distinct (front, back, unique back) of these cards, read from their entries'
        templates without making each card."""
        if self.lo >= self.hi:
            return set()
        first, last = bisect_right(self.starts, self.lo) - 1, bisect_right(self.starts, self.hi - 1)
        cards = self.deck.cards      # (straight from the card table's columns)
        rows = zip(cards.counts[first:last], cards.templates[first:last], cards.backs[first:last])
        return {(front,) + self._back(back) for count, front, back in set(rows) if count}

    def plain(self) -> tuple:
        """These cards as one plain value (see `plain`), read off the card table's columns
        without making any card: the code prefix, where the run starts in its first entry and
        how many cards it has, and, for each entry it takes cards from, its index (the first
        one's), count, code number, templates and field values."""
        at, hi, starts = self.lo, self.hi, self.starts
        if at >= hi:
            return ()
        first, last = bisect_right(starts, at) - 1, bisect_right(starts, hi - 1)
        table = self.deck.cards
        return (self.prefix, at - starts[first], hi - at, first, table.counts[first:last].tobytes(),
                self.numbers[first:last].tobytes(), table.templates[first:last], table.backs[first:last],
                [column[first:last] for column in table.values])

    def plain_backs(self) -> tuple:
        """What these cards' back faces are made from as one plain value (see `plain_backs`),
        read off the card table's columns."""
        at, hi, starts = self.lo, self.hi, self.starts
        if at >= hi:
            return ()
        first, last = bisect_right(starts, at) - 1, bisect_right(starts, hi - 1)
        table, common = self.deck.cards, self.deck.deck.back
        if common is not None and common.per_card or any(table.backs[first:last]):
            return self.plain()
        return (at - starts[first], hi - at, first, table.counts[first:last].tobytes(), table.templates[first:last])

    def _back(self, own: str | None) -> tuple[str | None, bool]:
        common = self.deck.deck.back
        if own:
            return own, True
        if common:
            return common.template, common.per_card
        return None, False

    def _card(self, entry: CardData, n: int) -> PrintCard:
        code = f"{self.prefix}-{self.numbers[entry.index]:03d}"
        return PrintCard(entry, code, n, entry.template, *self._back(entry.back))


def plain(cards) -> tuple | list[tuple]:
    """Some physical cards as a plain value (text, numbers, bytes, lists and tuples of them)
    that stands for what their faces are made from: each card's entry index, code, copy,
    count, templates and field values (with the deck's common back, which it does not
    repeat). The same cards give an equal value, any other cards an unequal one. A deck's
    PrintCards reads it off its card table at once; a list (a reprint's chosen cards) is
    taken card by card."""
    if isinstance(cards, PrintCards):
        return cards.plain()
    return [(c.entry.index, c.code, c.copy, c.entry.count, c.front, c.back, c.unique_back,
             tuple(c.entry.fields.values())) for c in cards]


def joined(runs: list) -> Sequence:
    """Runs of cards, one after another, as one: a run of the deck's PrintCards when they are
    runs of it in a row (a volume's sheets), else a list of their cards."""
    first = runs[0] if runs else None
    if isinstance(first, PrintCards) and all(
            isinstance(b, PrintCards) and b.deck is a.deck and b.numbers is a.numbers and b.lo == a.hi
            for a, b in zip(runs, runs[1:])):
        return PrintCards.__new__(PrintCards)._as(first, first.lo, runs[-1].hi)
    return [card for run in runs for card in run]


def plain_backs(cards) -> tuple | list[tuple]:
    """What the backs of some physical cards are made from, as a plain value (as `plain`):
    when none has a back of its own (each shows the deck's common back, or none), only which
    entry each card is of, which copy, and its front's template (a round card's back is cut
    round); otherwise the cards whole."""
    if isinstance(cards, PrintCards):
        return cards.plain_backs()
    if any(c.unique_back for c in cards):
        return plain(cards)
    return [(c.entry.index, c.copy, c.front, c.back) for c in cards]


def looks(cards) -> set[tuple[str, str | None, bool]]:
    """The distinct (front, back, unique back) of some physical cards: a deck's PrintCards
    reads them off its entries, a list (a reprint's chosen cards) card by card."""
    if isinstance(cards, PrintCards):
        return cards.looks()
    return {(c.front, c.back, c.unique_back) for c in cards}

