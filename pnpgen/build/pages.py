"""A card deck's sheets, planned and laid out, without drawing: which imposition and how many
cards a sheet (plan_sheets), the forms its cards share (deck_forms), and each sheet's pages
with every card laid out into its slot and the slug line (assemble_pages)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .. import presets
from ..errors import Notice
from ..game.expand import PrintCard, looks
from ..game.loader import GameSource
from ..ops import FormDef
from ..pdf.canvas import SheetPage
from ..sheets.impose import Sheet, impose, pack
from .manifest import DeckRecord
from .options import Options
from .plan import COMMON_BACK, COMMON_BACK_FORM, DeckPlan


@dataclass
class DeckSheets:
    """Where a deck's cards go: the paper (mm), the flip edge, the back offset, and each
    sheet's imposition with the cards it holds."""

    page: tuple[float, float]
    flip_edge: str
    offset: tuple[float, float]
    runs: list[tuple[Sheet, Sequence[PrintCard]]]
    has_backs: bool
    notes: list[Notice] = field(default_factory=list)   # from a custom sheet layout

    @property
    def sheets(self) -> int:
        return len(self.runs)

    @property
    def per_sheet(self) -> int:
        return max(sheet.per_sheet for sheet, _ in self.runs) if self.runs else 0

    def volumes(self, sheets_each: int) -> list[list[tuple[Sheet, Sequence[PrintCard]]]]:
        """The sheets split into volumes of at most `sheets_each`: reportlab keeps every page
        of a PDF in memory until it is saved, so this keeps a 20,000-card build as small as a
        2,000-card one."""
        size = max(1, sheets_each)
        return [self.runs[i:i + size] for i in range(0, len(self.runs), size)]


def plan_sheets(game: GameSource, deck: DeckPlan, cards: Sequence[PrintCard], options: Options) -> DeckSheets:
    """Choose the imposition: tokens packed at their own sizes, a custom sheet layout, or the
    automatic grid. Pure geometry: nothing is drawn."""
    g = game.game
    page = presets.papers()[options.paper or g.paper]
    flip_edge = options.flip or g.flip
    offset = options.back_offset if options.back_offset is not None else g.back_offset
    has_backs = any(back for _, back, _ in looks(cards))
    if deck.source.deck.pack:   # tokens: each at its own size and shape, as many to a sheet as fit
        token_looks = [game.templates[c.front].template for c in cards]
        placed = pack(page, [t.size or deck.source.size for t in token_looks], [t.shape for t in token_looks],
                      g.bleed, g.printer_margin, flip_edge)
        starts = [sum(p.per_sheet for p in placed[:i]) for i in range(len(placed))]
        runs = [(p, cards[a:a + p.per_sheet]) for p, a in zip(placed, starts)]
        return DeckSheets(page, flip_edge, offset, runs, has_backs)
    sheet, notes = options.layout.for_deck(game, deck.source, options.flip) if options.layout else (None, [])
    if sheet is None:
        sheet = impose(page, deck.source.size, g.bleed, g.printer_margin, g.cut, flip_edge)
    else:   # a custom layout: its own paper and (unless --flip) its own flip edge
        page, flip_edge = sheet.page, sheet.flip
    n = sheet.per_sheet
    runs = [(sheet, cards[i:i + n]) for i in range(0, len(cards), n)]
    return DeckSheets(page, flip_edge, offset, runs, has_backs, notes)


def deck_forms(deck: DeckPlan, cards: Sequence[PrintCard], icons: dict) -> dict[str, FormDef]:
    """Every shared form the deck's sheets call, each template prepared before drawing:
    the common back, the icons, and the forms of every template its cards use."""
    kinds = looks(cards)
    for name in sorted({front for front, _, _ in kinds} | {back for _, back, _ in kinds if back}):
        deck.layouter.plan(name)
    forms = {}
    common = deck.common_back_form()
    if common is not None:
        forms[COMMON_BACK_FORM] = common
    forms.update(icons)
    forms.update(deck.layouter.forms)
    return forms


@dataclass
class Slug:
    """The line printed at the foot of every sheet: game, deck, sheet n of m, side, how to print."""

    game_title: str
    deck_name: str
    note: str
    sheets: int
    volumes: int
    flip_edge: str
    has_backs: bool
    offset: tuple[float, float]

    def text(self, sheet: int, side: str, volume: int) -> str:
        flip = "long-edge" if self.flip_edge == "long" else "short-edge"
        how = f", duplex {flip} flip" if self.has_backs else ", single-sided"
        if side == "BACK" and any(self.offset):   # say so: a stray back offset is then easy to spot
            side += f" (shifted {self.offset[0]:+.2f}, {self.offset[1]:+.2f} mm)"
        in_volume = f" (volume {volume + 1} of {self.volumes})" if self.volumes > 1 else ""
        note = f" \u00b7 {self.note}" if self.note else ""
        return (f"{self.game_title} \u00b7 {self.deck_name}{note} \u00b7 sheet {sheet + 1} of {self.sheets}{in_volume}"
                f" \u00b7 {side} \u00b7 print at 100 % (actual size){how}")


def assemble_pages(game: GameSource, deck: DeckPlan, sheets: DeckSheets, volume: list, first_sheet: int,
                   volume_index: int, slug: Slug, record: DeckRecord | None = None,
                   first_page: int = 0) -> list[SheetPage]:
    """The pages of one volume (or of a run of its sheets whose first page is `first_page`),
    fronts and (when the deck has backs) backs in turn: each card laid out into its slot,
    with the sheet's marks and slug line."""
    pages: list[SheetPage] = []
    for s, (sheet, chunk) in enumerate(volume, first_sheet):
        chunk = list(chunk)     # (the deck's cards are made when asked for: once a sheet)
        fronts, backs = sheet.slots_for(len(chunk), sheets.offset)   # backs moved, fronts never
        pages.append(SheetPage(_fronts(game, deck, fronts, chunk, sheet, first_page + len(pages), record),
                               sheet.ticks_for(len(chunk)), sheet.marks_for(len(chunk)),
                               sheet.cuts_for(len(chunk)) if deck.source.deck.pack else (),
                               (sheet, slug.text(s, "FRONT \u00b7 cut this side", volume_index))))
        if sheets.has_backs:
            pages.append(SheetPage(_backs(game, deck, backs, chunk, sheet, first_page + len(pages), record),
                                   slug=(sheet, slug.text(s, "BACK", volume_index))))
    return pages


def _fronts(game: GameSource, deck: DeckPlan, slots, chunk, sheet: Sheet, page_index: int,
            record: DeckRecord | None) -> list:
    """The front of each card of one sheet in its slot: (slot, body, card height, shape)."""
    placed = []
    for slot, card in zip(slots, chunk):
        look = game.templates[card.front].template
        body = deck.layouter.layout(card, card.front)
        placed.append((slot, body, upright_height(slot), look.shape))
        if record is not None and card.copy == 1:
            record.front(card, body, look, page_index, slot)
    return placed


def _backs(game: GameSource, deck: DeckPlan, slots, chunk, sheet: Sheet, page_index: int,
           record: DeckRecord | None) -> list:
    """The back of each card of one sheet in its (mirrored) slot; a common back is its one form."""
    placed = []
    for slot, card in zip(slots, chunk):
        if card.back is None:
            continue
        common = not card.unique_back and not deck.source.deck.pack
        body = COMMON_BACK if common else deck.layouter.layout(card if card.unique_back else None, card.back)
        look = game.templates[card.front].template
        placed.append((slot, body, upright_height(slot), look.shape))
        if record is not None and card.copy == 1:
            record.back_of(card, None if common else body, look, page_index, slot)
    return placed


def upright_height(slot) -> float:
    """The height of the card in a slot, in its own upright frame (turned cards swap w and h)."""
    w, h = slot.trim[2], slot.trim[3]
    return w if slot.turned else h
