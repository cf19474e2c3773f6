"""Expand card entries into the physical cards to print: copies, codes and backs."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError, Problem
from .game import CardData, DeckSource, GameSource


@dataclass(frozen=True, slots=True)
class PrintCard:
    """One physical card: the entry it comes from, which copy it is, and its code."""

    entry: CardData
    code: str
    copy: int          # 1-based copy number
    front: str         # front template name
    back: str | None   # back template name (None: single-sided)
    unique_back: bool  # the back is drawn from this card's fields


def assign_numbers(game: GameSource) -> dict[tuple[str, int], int]:
    """Code numbers for every card entry of the game: pinned numbers first, then the
    next free number in deck order. Returns {(deck id, entry index): number}."""
    numbers, taken, problems = {}, {}, []
    for deck in game.decks:
        for card in deck.cards:
            if card.number is not None:
                if card.number in taken:
                    other = taken[card.number]
                    problems.append(Problem(deck.doc.path, deck.doc.line(("cards", card.index, "number")),
                                            f"number {card.number} is already used by {other}; numbers must be unique"))
                taken[card.number] = f"{deck.id} cards[{card.index}]"
                numbers[(deck.id, card.index)] = card.number
    if problems:
        raise InputError(problems)
    nxt = 1
    for deck in game.decks:
        for card in deck.cards:
            if (deck.id, card.index) in numbers:
                continue
            while nxt in taken:
                nxt += 1
            numbers[(deck.id, card.index)] = nxt
            taken[nxt] = f"{deck.id} cards[{card.index}]"
    return numbers


def code_for(game: GameSource, number: int) -> str:
    return f"{game.game.code}-{number:03d}"


def expand(game: GameSource, deck: DeckSource, numbers: dict) -> list[PrintCard]:
    """The deck's physical cards, in deck-file order, copies together."""
    out = []
    common = deck.deck.back
    for card in deck.cards:
        code = code_for(game, numbers[(deck.id, card.index)])
        if card.back:
            back, unique = card.back, True
        elif common:
            back, unique = common.template, common.per_card
        else:
            back, unique = None, False
        for copy in range(1, card.count + 1):
            out.append(PrintCard(card, code, copy, card.template, back, unique))
    return out
