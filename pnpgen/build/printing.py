"""How a game's kit goes onto paper, worked out without drawing anything: the paper and flip
edge the build uses, each deck's sheets (the automatic grid, a custom layout or packed
tokens) and each board's tiles, and for each player count the game supports, the sheets of
each file that count needs (read off the same sheet plan: which sheets hold the cards those
players use). The print checks' margin check, the rulebook's printing section and `pnpgen
list` all read these facts, so they say what the build does."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import presets
from ..rulebook.assembly import folds
from ..rulebook.printing import Kit, KitFile
from ..sheets.tile import Layout
from .boards import board_layout
from .options import Options
from .pages import DeckSheets, plan_sheets
from .plan import GamePlan, has_rulebook, with_game_layout
from .sharing import Sharing, share_game


@dataclass
class Printing:
    """A game's kit on paper: `paper` (its name) and `page` (mm), the flip edge, the printer
    margin the sheets keep clear (mm), each deck's sheets and each board's layout, by id."""

    paper: str
    page: tuple[float, float]
    flip: str
    margin: float
    decks: dict[str, DeckSheets]
    boards: dict[str, Layout]
    sharing: Sharing = field(default_factory=Sharing)     # the sheets decks share


def printing(plan: GamePlan, options: Options | None = None) -> Printing:
    """The kit of a planned game as the build with `options` (default: game.yaml's settings)
    would print it."""
    game = plan.game
    g = game.game
    options = with_game_layout(game, options or Options())
    paper = options.paper or g.paper
    page = presets.papers()[paper]
    decks = {deck.id: plan_sheets(game, deck, deck.cards, options) for deck in plan.decks}
    boards = {board.id: board_layout(game, board, options) for board in plan.boards}
    return Printing(paper, page, options.flip or g.flip, g.printer_margin, decks, boards,
                    share_game(plan, options, forms=False))


def kit(plan: GamePlan, paper: Printing, options: Options | None = None) -> Kit:
    """The kit's files and how each prints, as the rulebook's printing section and `pnpgen
    list` tell it."""
    options = options or Options()
    players = plan.game.game.players
    out = Kit(paper.paper, paper.flip, rulebook=has_rulebook(plan.game), booklet=options.booklet,
              players=(players.min, players.max) if players else None)
    for deck in plan.decks:
        sheets = paper.decks[deck.id]
        out.crop_marks |= any(getattr(sheet, "marks", ()) for sheet, _ in sheets.runs)
        out.ticks |= any(getattr(sheet, "ticks", ()) for sheet, _ in sheets.runs)
        own = paper.sharing.own_sheets(deck.id, sheets)
        if not own:     # (no card, or every card on shared sheets)
            continue
        out.files.append(KitFile(deck.id, _deck_files(deck.id, own, options.volume_sheets),
                                 "tokens" if deck.source.deck.pack else "cards", deck.source.deck.name,
                                 _holds(deck, sheets, paper.sharing), own, own * sheets.pages_per_sheet,
                                 sheets.has_backs, getattr(sheets.runs[0][0], "cut", "outline")))
        _deck_players(out, deck, sheets)
        if deck.source.deck.pack:
            out.files[-1].standee = _standee(deck)
        out.files[-1].spinner = _spinner(deck)
    for shared in paper.sharing.shared:
        out.files.append(KitFile(shared.name, f"{shared.name}.pdf", "cards", "shared sheets", _shared_holds(shared),
                                 shared.sheets, shared.sheets * shared.pages_per_sheet, shared.has_backs,
                                 shared.sheet.cut))
    for board in plan.boards:
        layout, b = paper.boards[board.id], board.source.board
        sides = 2 if b.back else 1
        pages = sides * (len(layout.tiles) + (1 if len(layout.tiles) > 1 and not layout.poster else 0))
        w, h = b.size
        where = "on one page" if len(layout.tiles) == 1 else \
            f"on {len(layout.tiles)} pages to tape together, after a page that maps them"
        out.files.append(KitFile(board.id, f"{board.id}.pdf", "board", b.name,
                                 f"{b.name}: a {w:g} × {h:g} mm board{', two-sided' if sides == 2 else ''}, "
                                 f"{where}", pages, pages, sides == 2))
        out.layouts[board.id] = layout
        if out.players and b.per_player:
            _scale(out.files[-1], out.players, lambda n, f: (n * f.sheets, ""), "copy")
    return out


def _scale(f: KitFile, players: tuple[int, int], count, how: str) -> None:
    """Fill a file's sheets (and which pages) for each player count, as `count(n, f)` gives them."""
    f.per_player = how
    for n in range(players[0], players[1] + 1):
        f.players[n], f.pages_for[n] = count(n, f)


def _deck_players(out: Kit, deck, sheets: DeckSheets) -> None:
    """A deck's sheets for each player count: every copy of one player's set, or the sheets of
    the plan that hold a card the players use (see the Deck model's `per_player`)."""
    whose = deck.source.deck.per_player
    if not out.players or whose is False or not out.files or out.files[-1].id != deck.id:
        return
    if whose is True:
        _scale(out.files[-1], out.players, lambda n, f: (n * f.sheets, ""), "copy")
        return
    held = [{_owner(card.entry.fields.get(whose)) for card in cards} for _, cards in sheets.runs]
    order = list(dict.fromkeys(owner for entry in deck.source.cards
                               if (owner := _owner(entry.fields.get(whose))) is not None))

    def count(n: int, f: KitFile) -> tuple[int, str]:
        used = set(order[:n]) | {None}
        needed = [i for i, values in enumerate(held) if values & used]
        return len(needed), _pages(needed, sheets.pages_per_sheet) if len(needed) < len(held) else ""
    _scale(out.files[-1], out.players, count, whose)


def _standee(deck) -> str:
    """The code of the deck's first card that folds into a standee (three folds: its template's
    dashed lines right across it), laying out one card of each front template; '' for none."""
    tried = set()
    for card in deck.cards:
        if card.front in tried:
            continue
        tried.add(card.front)
        size = deck.layouter.game.templates[card.front].template.size or deck.source.size
        if len(folds(deck.layouter.layout(card, card.front), size, deck.layouter.forms)) == 3:
            return card.code
    return ""


def _spinner(deck) -> str:
    """The code of the deck's first round card whose name has the word 'spinner' (a spinner's
    dial), or ''."""
    for entry in deck.source.cards:
        name = str(entry.fields.get("title") or entry.fields.get("name") or "")
        if "spinner" in name.lower().split() and deck.layouter.game.templates[entry.template].template.shape == "round":
            return next(c.code for c in deck.cards if c.entry.index == entry.index)
    return ""


def _owner(value):
    """A card's owner as a key: None when it has none (the card is everyone's)."""
    return None if value is None or value == "" else str(value)


def _pages(sheets: list[int], per_sheet: int) -> str:
    """The pages of these sheets (0-based) as a print dialog takes them: '1-4, 7-8'."""
    spans: list[list[int]] = []
    for i in sheets:
        first, last = i * per_sheet + 1, (i + 1) * per_sheet
        if spans and spans[-1][1] == first - 1:
            spans[-1][1] = last
        else:
            spans.append([first, last])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans)


def _deck_files(deck_id: str, sheets: int, each: int) -> str:
    """The deck's file, or its volumes' files when it is split."""
    volumes = -(-sheets // max(1, each))
    return f"{deck_id}.pdf" if volumes == 1 else f"{deck_id}-1.pdf to {deck_id}-{volumes}.pdf"


def _holds(deck, sheets: DeckSheets, sharing: Sharing) -> str:
    """What a deck's file holds, in words: 'Common: 54 cards, 63.5 × 88.9 mm, 9 a sheet'
    (and where the rest are when some are on shared sheets)."""
    n, name = len(deck.cards), deck.source.deck.name
    if deck.source.deck.pack:
        return f"{name}: {n} piece{'s' if n != 1 else ''} at their own sizes"
    w, h = deck.source.size
    own = len(sharing.own_cards(deck, deck.cards))
    rest = "".join(f" ({n - own} more on {file}.pdf)" for file in sharing.files_of(deck.id))
    return f"{name}: {own} card{'s' if own != 1 else ''}, {w:g} × {h:g} mm, {sheets.per_sheet} a sheet{rest}"


def _shared_holds(shared) -> str:
    """What a shared file holds: 'Shared sheets: Pilot 1, Expansion 3 cards, 88.9 × 88.9 mm, 6 a sheet'."""
    w, h = shared.parts[0][0].source.size
    decks = ", ".join(f"{deck.source.deck.name} {len(cards)}" for deck, cards in shared.parts)
    return f"Shared sheets: {decks} cards, {w:g} × {h:g} mm, {shared.per_sheet} a sheet"
