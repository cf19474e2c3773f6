"""A card deck's sheets, planned and laid out, without drawing: which imposition and how many
cards a sheet (plan_sheets), the forms its cards share (deck_forms), each sheet's cards and
slots (sheet_plans), and its pages with every card laid out into its slot and the slug line
(PageMaker), with what they tell the manifest (record_page)."""

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
    def pages_per_sheet(self) -> int:
        """Pages each sheet prints: its fronts, and its backs when the deck has any."""
        return 2 if self.has_backs else 1

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
        sizes, shapes = [t.size or deck.source.size for t in token_looks], [t.shape for t in token_looks]
        outlines = [t.outline() for t in token_looks]
        if any(outlines):   # hexes nest in offset rows; other polygons are cut along their outlines
            from ..sheets.polypack import pack_polygons     # (only packed decks of shapes need it)
            placed = pack_polygons(page, sizes, shapes, outlines, g.bleed, g.printer_margin, g.cut, flip_edge)
        else:
            placed = pack(page, sizes, shapes, g.bleed, g.printer_margin, flip_edge)
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


FRONT = "FRONT \u00b7 cut this side"
BACK = "BACK"


@dataclass
class SheetPlan:
    """One sheet of a volume before anything is laid out: its cards, its number in the deck
    (from 0), the volume it is in, and the slots its fronts and backs go in."""

    sheet: Sheet
    cards: list
    number: int
    volume: int
    fronts: list
    backs: list


def sheet_plans(sheets: DeckSheets, runs: list, first_sheet: int, volume_index: int) -> list[SheetPlan]:
    """Each sheet of a volume's `runs` (the first of them the deck's sheet `first_sheet`), planned."""
    plans = []
    for number, (sheet, chunk) in enumerate(runs, first_sheet):
        chunk = list(chunk)     # (the deck's cards are made when asked for: once a sheet)
        fronts, backs = sheet.slots_for(len(chunk), sheets.offset)   # backs moved, fronts never
        plans.append(SheetPlan(sheet, chunk, number, volume_index, fronts, backs))
    return plans


class PageMaker:
    """Lays out the pages of a deck's sheets, fronts (side 0) and backs (side 1): each card
    into its slot, with the sheet's marks and slug line. The warnings met on a page can be
    taken as they come (`notes`), each card's as ["card", its place on the sheet, message,
    strict] (its line is the card's, wherever the card is written next time), any other as
    ["at", file, line, message, strict]."""

    def __init__(self, game: GameSource, deck: DeckPlan, sheets: DeckSheets, slug: Slug):
        self.game, self.deck, self.sheets, self.slug = game, deck, sheets, slug
        self.pack = bool(deck.source.deck.pack)

    def slug_text(self, plan: SheetPlan, side: int) -> str:
        return self.slug.text(plan.number, BACK if side else FRONT, plan.volume)

    def page(self, plan: SheetPlan, side: int, notes: list | None = None) -> SheetPage:
        layouter = self.deck.layouter
        layouter.raw = []
        try:
            if side:
                return SheetPage(self._backs(plan, notes), slug=(plan.sheet, self.slug_text(plan, side)))
            n, sheet = len(plan.cards), plan.sheet
            return SheetPage(self._fronts(plan, notes), sheet.ticks_for(n), sheet.marks_for(n),
                             sheet.cuts_for(n) if self.pack else (), (sheet, self.slug_text(plan, side)))
        finally:
            layouter.raw = None

    def _fronts(self, plan: SheetPlan, notes: list | None) -> list:
        """The front of each card of one sheet in its slot: (slot, body, card height, shape)."""
        placed = []
        for k, (slot, card) in enumerate(zip(plan.fronts, plan.cards)):
            body = self._face(card, card.front, k, card, notes)
            placed.append((slot, body, upright_height(slot), self.game.templates[card.front].template.shape))
        return placed

    def _backs(self, plan: SheetPlan, notes: list | None) -> list:
        """The back of each card of one sheet in its (mirrored) slot; a common back is its one form."""
        placed = []
        for k, (slot, card) in enumerate(zip(plan.backs, plan.cards)):
            if card.back is None:
                continue
            if not card.unique_back and not self.pack:
                body = COMMON_BACK
            else:
                body = self._face(card if card.unique_back else None, card.back, k, card, notes)
            placed.append((slot, body, upright_height(slot), self.game.templates[card.front].template.shape))
        return placed

    def _face(self, card, template: str, k: int, printed, notes: list | None) -> list:
        """One face laid out; its warnings into `notes`, said of the card on the sheet when they
        stand at its line."""
        raw = self.deck.layouter.raw
        start = len(raw)
        body = self.deck.layouter.layout(card, template)
        if notes is not None:
            deck_path = self.deck.source.cards_path
            for n in raw[start:]:
                if n.path == deck_path and n.line == printed.entry.line:
                    notes.append(["card", k, n.message, n.strict])
                else:
                    notes.append(["at", str(n.path), n.line, n.message, n.strict])
        return body


def notices(notes: list, plan: SheetPlan, deck_path) -> list[Notice]:
    """The warnings kept with a page (PageMaker's `notes`), located again: a card's at the
    line it is written at now."""
    out = []
    for note in notes:
        if note[0] == "card":
            out.append(Notice(deck_path, plan.cards[note[1]].entry.line, note[2], note[3]))
        else:
            out.append(Notice(note[1], note[2], note[3], note[4]))
    return out


def record_page(record: DeckRecord, game: GameSource, plan: SheetPlan, side: int, page: SheetPage,
                page_index: int) -> None:
    """Record in the manifest where the first copy of each card of a laid-out page went."""
    if not side:
        for (slot, body, _h, _shape), card in zip(page.cards, plan.cards):
            if card.copy == 1:
                record.front(card, body, game.templates[card.front].template, page_index, slot)
        return
    pack = bool(record.deck.deck.pack)
    for (slot, body, _h, _shape), card in zip(page.cards, [c for c in plan.cards if c.back is not None]):
        if card.copy == 1:
            common = not card.unique_back and not pack
            record.back_of(card, None if common else body, game.templates[card.front].template, page_index, slot)


def upright_height(slot) -> float:
    """The height of the card in a slot, in its own upright frame (turned cards swap w and h)."""
    w, h = slot.trim[2], slot.trim[3]
    return w if slot.turned else h
