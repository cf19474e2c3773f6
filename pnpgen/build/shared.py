"""Draw a shared PDF (sharing.py plans it): the sheets several decks of one card size share.
Each card is laid out by its own deck's layouter into its slot, and on a back page each slot
carries its own deck's back (a deck's common back is one form, `back:<deck id>`, placed
behind each of its cards), registered behind its front under the same flip edge and back
offset as the decks' own sheets. The slug line names the decks on each sheet; the manifest
records each card in its own deck, in this file. The few shared sheets are drawn each build
(the build cache keeps the decks' own sheets), and a file that comes out byte for byte as the
one in place is left there untouched."""

from __future__ import annotations

import glob
import re
from pathlib import Path

from .. import files, fonts
from ..errors import Notice
from ..game.loader import GameSource
from ..ops import Form
from ..pdf.canvas import CardCanvas, SheetPage
from .cache import PageCache, PageKeys, charset, font_key, page_images
from .manifest import DeckRecord, Manifest
from .options import Options
from .pages import Slug, deck_forms, upright_height
from .plan import COMMON_BACK_FORM, DeckPlan
from .results import DeckResult
from .sharing import SharedSheets, Sharing
from .volumes import Volume, file_digest, save_volume

BACK_FORM = "back:"
"""The form of a deck's common back on a shared sheet: this and the deck's id."""


def shared_forms(shared: SharedSheets, icons: dict) -> dict:
    """Every form the shared sheets call: each deck's, its common back renamed for the deck."""
    out: dict = {}
    for deck, cards in shared.parts:
        for name, form in deck_forms(deck, cards, icons).items():
            out[BACK_FORM + deck.id if name == COMMON_BACK_FORM else name] = form
    return out


SLUG_DECKS = 80
"""The most characters the decks of a shared sheet take on its slug line (which is not
shrunk to fit): beyond it, the decks' ids, and then only the first of them."""


def on_sheet(chunk: list[tuple[DeckPlan, object]]) -> str:
    """The decks on one shared sheet and their cards there: 'shared: Pilots 1, Expansion 3'
    (their ids when the names are too long, the first of them and 'N more' when those are)."""
    counts: dict[str, list] = {}        # deck id -> [its name, its cards here]
    for deck, _ in chunk:
        counts.setdefault(deck.id, [deck.source.deck.name, 0])[1] += 1
    said = ", ".join(f"{name} {n}" for name, n in counts.values())
    if len(said) > SLUG_DECKS:
        parts = [f"{deck_id} {n}" for deck_id, (_, n) in counts.items()]
        k = len(parts)
        while k > 1 and len(", ".join(parts[:k])) > SLUG_DECKS:
            k -= 1
        said = ", ".join(parts[:k]) + (f" and {len(parts) - k} more decks" if k < len(parts) else "")
    return "shared: " + said


class SharedPages:
    """Lays out a shared PDF's pages, recording each first copy in its deck's manifest record
    and keeping the warnings its layout gives that its deck had not given yet."""

    def __init__(self, game: GameSource, shared: SharedSheets, records: dict[str, DeckRecord] | None,
                 options: Options):
        self.game, self.shared, self.records = game, shared, records
        self.slug_note = options.slug_note
        self.warnings: list[Notice] = []

    def pages(self) -> list[SheetPage]:
        shared, out = self.shared, []
        runs = shared.runs()
        for number, chunk in enumerate(runs):
            slug = Slug(self.game.game.title, on_sheet(chunk), self.slug_note, len(runs), 1, shared.flip_edge,
                        shared.has_backs, shared.offset)
            fronts, backs = shared.sheet.slots_for(len(chunk), shared.offset)   # backs moved, fronts never
            out.append(self._front(chunk, fronts, slug.text(number, "FRONT \u00b7 cut this side", 0), len(out)))
            if shared.has_backs:
                out.append(self._back(chunk, backs, slug.text(number, "BACK", 0), len(out)))
        return out

    def _front(self, chunk, slots, slug: str, page_index: int) -> SheetPage:
        sheet, placed = self.shared.sheet, []
        for (deck, card), slot in zip(chunk, slots):
            body = self._layout(deck, card, card.front)
            look = self.game.templates[card.front].template
            placed.append((slot, body, upright_height(slot), look.shape))
            if self.records is not None and card.copy == 1:
                self.records[deck.id].front(card, body, look, page_index, slot)
        n = len(chunk)
        return SheetPage(placed, sheet.ticks_for(n), sheet.marks_for(n), (), (sheet, slug))

    def _back(self, chunk, slots, slug: str, page_index: int) -> SheetPage:
        placed = []
        for (deck, card), slot in zip(chunk, slots):
            if card.back is None:
                continue
            body = self._layout(deck, card, card.back) if card.unique_back else [Form(BACK_FORM + deck.id)]
            look = self.game.templates[card.front].template
            placed.append((slot, body, upright_height(slot), look.shape))
            if self.records is not None and card.copy == 1:
                self.records[deck.id].back_of(card, body if card.unique_back else None, look, page_index, slot)
        return SheetPage(placed, slug=(self.shared.sheet, slug))

    def _layout(self, deck: DeckPlan, card, template: str) -> list:
        """One face by its deck's layouter; the warnings it gives that its deck had not, kept."""
        layouter = deck.layouter
        before = len(layouter.warnings)
        body = layouter.layout(card, template)
        self.warnings += layouter.warnings[before:]
        return body


def build_shared(game: GameSource, shared: SharedSheets, icons: dict, records: dict[str, DeckRecord] | None,
                 outdir: Path, options: Options, cache: PageCache) -> tuple[DeckResult, list[tuple[str, Path]]]:
    """Draw a shared PDF into a temporary file beside its target: (its result, [(temporary,
    target)], none when the file in place is the same). With `records` (deck id -> its
    manifest record), its cards are recorded there; pages the build `cache` holds are copied."""
    forms = shared_forms(shared, icons)
    target = outdir / f"{shared.name}.pdf"
    if records is not None:
        for deck, _ in shared.parts:
            records[deck.id].file(target.name)
    maker = SharedPages(game, shared, records, options)
    pages = maker.pages()
    if records is not None:
        for deck, _ in shared.parts:
            records[deck.id].finish()
    volume = Volume(shared.name, target, f"{game.game.title} - shared sheets", [], 0, 0, options.press())
    with files.Staged() as staged:
        tmp = staged.add(target)
        kept = _write(game, shared, volume, tmp, pages, forms, cache)
        written = staged.written if file_digest(tmp) != file_digest(target) else []   # (the same: left in place)
        staged.written = [] if written else staged.written
    cards = sum(len(c) for _, c in shared.parts)
    result = DeckResult(shared.name, target, cards, shared.sheets, len(pages), shared.per_sheet, maker.warnings,
                        [target], kept, len(pages) - kept)
    return result, written


def _write(game: GameSource, shared: SharedSheets, volume: Volume, tmp: str, pages: list[SheetPage], forms: dict,
           cache: PageCache) -> int:
    """The shared PDF's pages into `tmp`, each copied from the build cache when it holds its
    drawing (its content with the PDF's font state, as a deck's pages are), drawn (and kept
    there) otherwise; returns the pages copied."""
    slug_font = fonts.builtin("sans")
    chars = charset(pages, forms, slug_font)
    keys: list[str] = []
    if cache.path is not None:
        page_keys, state = PageKeys(forms, game.root, shared.page, game.game.bleed), font_key(chars)
        keys = [page_keys.drawn(page_keys.content(page), state) for page in pages]
    canvas = CardCanvas(tmp, shared.page, volume.title, forms, game.game.bleed, slug_font, game.game.credits,
                        shared.parts[0][0].layouter.res.converted, volume.press)
    canvas.seed_fonts(chars)
    canvas.define_forms(sorted(forms))
    kept = 0
    for p, page in enumerate(pages):
        held = cache.get(keys[p]) if keys else None
        if held is not None:
            canvas.replay_page(held)
            kept += 1
            continue
        canvas.draw_page(page, slug_font)
        if not keys:
            canvas.page()
            continue
        entry = canvas.record_page(page_images(page))
        if entry is not None:
            cache.put(keys[p], entry)
    save_volume(canvas, volume, tmp)
    if keys:
        cache.keep(f"{game.id}/{volume.name}", keys)
    return kept


def shared_only(deck: DeckPlan, icons: dict, book: Manifest | None, target: Path) -> DeckResult:
    """A deck whose every card is on shared sheets: its manifest record (filled in when they
    are drawn) and its result, no file of its own."""
    if book is not None:
        forms = deck_forms(deck, deck.cards, icons)
        record = book.deck(deck.source, forms)
        if COMMON_BACK_FORM in forms:
            record.common_back(forms[COMMON_BACK_FORM].body)
    return DeckResult(deck.id, target, len(deck.cards), 0, 0, 0, list(deck.layouter.warnings), [])


def remove_stale(outdir: Path, game: GameSource, sharing: Sharing) -> list[Path]:
    """Remove the PDFs an earlier build left that this one's sharing makes wrong to print: a
    shared PDF it did not write, and the own PDF (or volumes) of a deck whose every card is now
    on shared sheets. Returns them."""
    own = {d.id for d in [*game.decks, *game.boards]}
    written = {s.name for s in sharing.shared}
    gone = [p for p in sorted(outdir.glob("shared-*.pdf")) if p.stem not in written | own
            and re.sub(r"-\d+$", "", p.stem) not in own]
    for deck in game.decks:
        if sharing.own.get(deck.id, -1) == 0:
            volumes = sorted(outdir.glob(f"{glob.escape(deck.id)}-*.pdf"))
            gone += [outdir / f"{deck.id}.pdf"] + [p for p in volumes if p.stem not in own
                                                    and re.fullmatch(r"\d+", p.stem[len(deck.id) + 1:])]
    removed = [p for p in gone if p.is_file()]
    for path in removed:
        files.remove_quietly(path)
    return removed
