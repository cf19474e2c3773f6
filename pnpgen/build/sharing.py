"""Which cards go onto shared sheets (game.yaml `share_sheets`), planned before anything is
drawn: decks of one card size on the automatic grid, with the same paper, flip edge, back
offset and sides, pool what does not fill a sheet of their own (a deck smaller than a sheet,
the part-filled last sheet of a bigger one) onto sheets they share, when that saves a sheet.
Each deck keeps its full sheets in its own PDF; the shared sheets of one card size go into
one PDF, out/<game>/shared-<w>x<h>.pdf. The plan is arithmetic on the decks' sheets, so the
build, `pnpgen list` and the rulebook's printing section all say the same; the build alone
also keeps apart decks that would define one form name differently (a shared PDF holds each
form once), which a template's static parts, drawn alike for every deck of one size, do not."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..game.expand import PrintCard
from ..game.loader import GameSource
from ..sheets.impose import Sheet
from .options import Options
from .pages import DeckSheets, deck_forms, plan_sheets
from .plan import COMMON_BACK_FORM, DeckPlan, GamePlan


@dataclass
class SharedSheets:
    """One shared PDF: its name (no .pdf), the sheet every page uses, the paper, flip edge
    and back offset, whether it has back pages, each deck's cards on it (in deck order) and
    the sheets, each a list of (deck, card)."""

    name: str
    sheet: Sheet
    page: tuple[float, float]
    flip_edge: str
    offset: tuple[float, float]
    has_backs: bool
    parts: list[tuple[DeckPlan, list[PrintCard]]] = field(default_factory=list)

    @property
    def per_sheet(self) -> int:
        return self.sheet.per_sheet

    def runs(self) -> list[list[tuple[DeckPlan, PrintCard]]]:
        """The cards of every part, in order, cut into sheets."""
        placed = [(deck, card) for deck, cards in self.parts for card in cards]
        n = self.per_sheet
        return [placed[i:i + n] for i in range(0, len(placed), n)]

    @property
    def sheets(self) -> int:
        cards = sum(len(cards) for _, cards in self.parts)
        return -(-cards // self.per_sheet)

    @property
    def pages_per_sheet(self) -> int:
        return 2 if self.has_backs else 1

    @property
    def saved(self) -> int:
        """The sheets sharing saves: one each part would have taken alone, less those shared."""
        alone = sum(-(-len(cards) // self.per_sheet) for _, cards in self.parts)
        return alone - self.sheets


@dataclass
class Sharing:
    """A game's sharing plan: how many of each deck's cards stay on its own sheets (every
    deck not named keeps all of them) and the shared PDFs."""

    own: dict[str, int] = field(default_factory=dict)
    shared: list[SharedSheets] = field(default_factory=list)

    def own_cards(self, deck: DeckPlan, cards: Sequence[PrintCard]) -> Sequence[PrintCard]:
        """The cards of a deck printed on its own sheets."""
        return cards[:self.own.get(deck.id, len(cards))]

    def own_sheets(self, deck_id: str, sheets: DeckSheets) -> int:
        """The sheets a deck prints on its own, of its `sheets` (those of all its cards): its
        full sheets when it shares, all of them otherwise."""
        if deck_id not in self.own:
            return sheets.sheets
        return self.own[deck_id] // sheets.per_sheet

    @property
    def saved(self) -> int:
        return sum(s.saved for s in self.shared)

    def files_of(self, deck_id: str) -> list[str]:
        """The shared PDFs (names, no .pdf) a deck has cards in."""
        return [s.name for s in self.shared if any(d.id == deck_id for d, _ in s.parts)]


def plan_sharing(game: GameSource, decks: list[DeckPlan], sheets: dict[str, DeckSheets],
                 forms: Callable[[DeckPlan], dict] | None = None) -> Sharing:
    """The sharing plan of a game's decks, each with its planned `sheets` (by deck id).
    `forms` (a deck -> its forms), when given, keeps apart decks that would define a shared
    form differently (the shared PDF holds each form once); it is asked only about decks that
    could share with another."""
    plan = Sharing()
    if game.game.share_sheets == "none":
        return plan
    groups: dict[tuple, list[tuple[DeckPlan, int]]] = {}
    for deck in decks:
        s = sheets[deck.id]
        if deck.source.deck.pack or deck.source.deck.per_player or not s.runs or len(deck.cards) % s.per_sheet == 0:
            continue      # (a player's set prints once a player: on sheets of its own)      # (a player's set prints once a player: on sheets of its own)
        key = (s.runs[0][0], s.page, s.flip_edge, s.offset, s.has_backs)
        groups.setdefault(key, []).append((deck, len(deck.cards) % s.per_sheet))
    for (sheet, page, flip, offset, backs), tails in groups.items():
        if len(tails) < 2:
            continue        # (a deck alone has no one to share with)
        chosen = _pooled(_agreeing(tails, forms), sheet.per_sheet)
        if not chosen:
            continue
        w, h = chosen[0][0].source.size
        shared = SharedSheets(_name(f"shared-{w:g}x{h:g}", plan, game), sheet, page, flip, offset, backs)
        for deck, tail in chosen:
            plan.own[deck.id] = len(deck.cards) - tail
            shared.parts.append((deck, list(deck.cards[len(deck.cards) - tail:])))
        plan.shared.append(shared)
    return plan


def _name(base: str, plan: Sharing, game: GameSource) -> str:
    """A shared PDF's name, kept apart from every deck's, board's and other shared PDF's."""
    taken = {d.id for d in [*game.decks, *game.boards]} | {s.name for s in plan.shared} | {"rulebook", "manifest"}
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    return name


def _agreeing(tails: list[tuple[DeckPlan, int]], forms: Callable[[DeckPlan], dict] | None) \
        -> list[tuple[DeckPlan, int]]:
    """The decks (in order) whose forms agree, name by name, with those of the decks before them."""
    if forms is None:
        return tails
    seen: dict = {}
    out = []
    for deck, tail in tails:
        own = {k: v for k, v in forms(deck).items() if k != COMMON_BACK_FORM}
        if all(seen.get(k, v) == v for k, v in own.items()):
            seen.update(own)
            out.append((deck, tail))
    return out


def _pooled(tails: list[tuple[DeckPlan, int]], per_sheet: int) -> list[tuple[DeckPlan, int]]:
    """The decks whose part-filled sheets go onto shared sheets, in deck order: the most of
    them, smallest first, that together take fewer sheets than apart; none when no sheet is
    saved."""
    by_size = sorted(range(len(tails)), key=lambda i: (tails[i][1], i))
    best, total = 0, 0
    for k, i in enumerate(by_size, 1):
        total += tails[i][1]
        if -(-total // per_sheet) < k:
            best = k
    chosen = set(by_size[:best])
    return [t for i, t in enumerate(tails) if i in chosen]


def custom_laid(game: GameSource, decks: list[DeckPlan], options: Options) -> set[str]:
    """The decks a custom sheet layout lays out (they keep their own sheets)."""
    if options.layout is None:
        return set()
    return {d.id for d in decks if not d.source.deck.pack
            and options.layout.for_deck(game, d.source, options.flip)[0] is not None}


def share_game(plan: GamePlan, options: Options, forms: bool = True) -> Sharing:
    """The sharing plan of a planned game built with `options` (its sheet layout filled in).
    With `forms`, each deck's forms are prepared (as drawing it would) so that decks whose
    forms disagree keep apart."""
    decks, game = plan.decks, plan.game
    if game.game.share_sheets == "none":
        return Sharing()
    sheets = {d.id: plan_sheets(game, d, d.cards, options) for d in decks}
    laid = custom_laid(game, decks, options)
    shareable = [d for d in decks if d.id not in laid]
    return plan_sharing(game, shareable, sheets,
                        (lambda deck: deck_forms(deck, deck.cards, plan.icons)) if forms else None)
