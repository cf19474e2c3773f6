"""Write one volume of a deck (one PDF): seed its fonts, define its shared forms, put in each
page (copied from the build cache, drawn here, or drawn by worker processes: workers.py),
save it beside its target."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import files, fonts
from ..game.loader import GameSource
from ..pdf.canvas import CardCanvas, SheetPage
from ..pdf.colour import PressColours
from ..pdf.pdfx import make_pdfx
from ..pdf.replay import Entry
from .cache import PageCache, PageKeys, charset, font_key, page_images
from .manifest import DeckRecord
from .pages import DeckSheets, Slug, assemble_pages
from . import workers
from .plan import DeckPlan


@dataclass
class Volume:
    """One PDF of a deck: where it goes, its temporary file, its title, its sheets (those of
    `runs`, the first of them the deck's sheet `first_sheet`) and, once laid out, its pages."""

    name: str
    target: Path
    tmp: str
    title: str
    runs: list
    first_sheet: int
    index: int
    press: PressColours | None = None    # PDF/X: drawn in the press's CMYK, made PDF/X when saved
    pages: list[SheetPage] = field(default_factory=list)


def open_volume(game: GameSource, deck: DeckPlan, sheets: DeckSheets, volume: Volume, forms: dict,
                fonts_used: dict[str, str], slug_font: str) -> CardCanvas:
    """The volume's PDF, its fonts seeded and its shared forms defined, ready for pages."""
    g = game.game
    canvas = CardCanvas(volume.tmp, sheets.page, volume.title, forms, g.bleed, slug_font, g.credits,
                        deck.layouter.res.converted, volume.press)
    canvas.seed_fonts(fonts_used)
    canvas.define_forms(sorted(forms))
    return canvas


def save_volume(canvas: CardCanvas, volume: Volume) -> None:
    try:
        canvas.save()
    except OSError as exc:
        raise files.unwritable(volume.target, exc) from None
    if volume.press is not None:
        make_pdfx(volume.tmp, volume.press)
    files.finish(volume.tmp, volume.target)


def write_volume(game: GameSource, deck: DeckPlan, sheets: DeckSheets, volume: Volume, forms: dict,
                 cache: PageCache, record: DeckRecord | None) -> tuple[int, int]:
    """Draw one volume's laid-out pages into its temporary file, copying each page the cache
    holds and keeping each page it draws; returns (pages kept, pages drawn)."""
    slug_font = fonts.ensure("sans", fonts.BUILTIN["sans"])
    fonts_used = charset(volume.pages, forms, slug_font)
    canvas = open_volume(game, deck, sheets, volume, forms, fonts_used, slug_font)
    if cache.path is None:          # nothing to copy or keep: draw, no keys
        if record is not None:
            record.share(None)
        for sheet_page in volume.pages:
            canvas.draw_page(sheet_page, slug_font)
            canvas.page()
        drawn, volume.pages = len(volume.pages), []
        save_volume(canvas, volume)
        return 0, drawn
    keys = PageKeys(forms, game.root, font_key(fonts_used), sheets.page, game.game.bleed)
    if record is not None:
        record.share(keys)      # the faces it digested are not walked again for the page keys
    kept = drawn = 0
    used = []
    for sheet_page in volume.pages:
        key = keys.key(sheet_page)
        entry = cache.get(key)
        if entry is not None:
            canvas.replay_page(entry)
            kept += 1
        else:
            canvas.draw_page(sheet_page, slug_font)
            entry = canvas.record_page(page_images(sheet_page))
            drawn += 1
            if entry is not None:
                cache.put(key, entry)
        if entry is not None:
            used.append(key)
    volume.pages = []
    save_volume(canvas, volume)
    cache.keep(f"{game.id}/{volume.name}", used)
    return kept, drawn


class DeckWriter:
    """Writes a deck's volumes in order: each laid out and drawn here, or, when long enough, by
    worker processes, the next volume's workers laying out while this process puts the last
    volume's pages into its PDF."""

    def __init__(self, game: GameSource, deck: DeckPlan, sheets: DeckSheets, forms: dict, slug: Slug,
                 cache: PageCache, record: DeckRecord | None, wanted: int | None):
        self.game, self.deck, self.sheets, self.forms, self.slug = game, deck, sheets, forms, slug
        self.cache, self.record, self.wanted = cache, record, wanted
        self.job = workers.Job(game, deck, sheets, forms, slug, record.prints if record else None, cache.path)
        self.kept = self.drawn = 0

    def write_all(self, volumes: list[Volume]) -> tuple[int, int]:
        """Write every volume; returns (pages kept from the cache, pages drawn)."""
        pending = None
        try:
            for volume in volumes:
                shared = self._start(volume)
                if pending is not None:
                    pending, done = None, pending
                    self._finish(done)
                if shared is None:
                    self._write_here(volume)
                else:
                    pending = shared
            if pending is not None:
                pending, done = None, pending
                self._finish(done)
        finally:
            if pending is not None:
                workers.stop(pending.parts)
        return self.kept, self.drawn

    def _write_here(self, volume: Volume) -> None:
        if self.record is not None:
            self.record.file(volume.target.name)
        volume.pages = assemble_pages(self.game, self.deck, self.sheets, volume.runs, volume.first_sheet,
                                      volume.index, self.slug, self.record)
        kept, drawn = write_volume(self.game, self.deck, self.sheets, volume, self.forms, self.cache, self.record)
        self.kept, self.drawn = self.kept + kept, self.drawn + drawn

    def _start(self, volume: Volume) -> workers.Shared | None:
        """Fork the volume's workers, take in their layout and hand them the font set; None when
        the volume is better (or can only be) written here."""
        count = workers.worker_count(len(volume.runs), self.wanted)
        if count <= 1:
            return None
        per_sheet = 2 if self.sheets.has_backs else 1
        shared = workers.Shared(volume, workers.shares(volume.runs, volume.first_sheet, per_sheet, count))
        try:
            for part in shared.parts:
                self.job.start(part, volume.index)
            shared.fonts = self.job.gather_fonts(shared.parts)
            for part in shared.parts:
                part.conn.send(shared.fonts)
        except workers.NotShared:
            workers.stop(shared.parts)
            return None
        except BaseException:
            workers.stop(shared.parts)
            raise
        return shared

    def _finish(self, shared: workers.Shared) -> None:
        """Put the pages the workers drew (or the cache holds) into the volume's PDF, in order."""
        volume, record, cache = shared.volume, self.record, self.cache
        if record is not None:
            record.file(volume.target.name)
        slug_font = fonts.ensure("sans", fonts.BUILTIN["sans"])
        canvas = open_volume(self.game, self.deck, self.sheets, volume, self.forms, shared.fonts, slug_font)
        used: list[str] = []
        try:
            for part in shared.parts:
                pages, events = workers.receive(part, "drawn")
                if record is not None:
                    record.replay(events)
                for i, (key, drawn) in enumerate(pages):
                    entry = self._put_page(canvas, shared, part, i, key, drawn and Entry(*drawn), slug_font)
                    if key is not None and entry is not None:
                        used.append(key)
            if record is not None:
                record.share(None)
        finally:
            workers.stop(shared.parts)
        save_volume(canvas, volume)
        if cache.path is not None:
            cache.keep(f"{self.game.id}/{volume.name}", used)

    def _put_page(self, canvas: CardCanvas, shared, part, i: int, key, entry, slug_font: str):
        """One page of a worker's part into the PDF: from the cache, as the worker drew it, or
        (a page it could not vouch for) laid out and drawn here. Returns the entry kept."""
        held = self.cache.get(key) if key is not None else None
        if held is not None:
            canvas.replay_page(held)
            self.kept += 1
            return held
        self.drawn += 1
        if entry is None:
            per_sheet = 2 if self.sheets.has_backs else 1
            j = i // per_sheet
            page = assemble_pages(self.game, self.deck, self.sheets, part.runs[j:j + 1], part.first_sheet + j,
                                  shared.volume.index, self.slug, None, part.first_page + j * per_sheet)[i % per_sheet]
            canvas.draw_page(page, slug_font)
            entry = canvas.record_page(page_images(page))
        else:
            canvas.replay_page(entry)
        if entry is not None and key is not None:
            self.cache.put(key, entry)
        return entry
