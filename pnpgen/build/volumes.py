"""Write a deck's volumes (one PDF each), doing for each only the work its changes need.

For each volume: work out each page's input key from its sheet's cards (inputs.py); take each
page's facts (facts.py) from the build cache, and lay out, here or in worker processes
(workers.py), only the pages it has none for (a sheet is planned only then); seed the PDF's
fonts with every character the pages draw; then put each page into the PDF, copied from the
cache when it holds the page's drawing (its content digest with the font state) and drawn
otherwise. A volume whose pages, fonts and forms are all as the last build wrote them, and
whose PDF is still in place as written, is not written at all; when the facts of all its
pages are kept together under their input keys (facts.VolumeFacts), it is not even looked at
page by page. The manifest's rows and the warnings come from the facts in page order, so
they are those of a clean build."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .. import files, fonts
from ..game.loader import GameSource
from ..pdf.canvas import CardCanvas
from ..pdf.colour import PressColours
from ..pdf.pdfx import make_pdfx
from ..pdf.replay import Entry
from . import workers
from .cache import PageCache, PageKeys, charset, font_key, page_images
from .facts import FactFinder, PageFacts, VolumeFacts, fonts_ready, read, read_volume
from .inputs import InputKeys
from .manifest import DeckRecord, RecordPart
from .pages import BACK, FRONT, DeckSheets, PageMaker, Slug, notices, sheet_plans
from .plan import DeckPlan


@dataclass
class Volume:
    """One PDF of a deck: where it goes, its title, its sheets (those of `runs`, the first of
    them the deck's sheet `first_sheet`) and its place among the deck's volumes."""

    name: str
    target: Path
    title: str
    runs: list
    first_sheet: int
    index: int
    press: PressColours | None = None    # PDF/X: drawn in the press's CMYK, made PDF/X when saved


@dataclass
class VolumeWork:
    """A volume on its way into its PDF: its sheets planned, each page's input key and facts,
    the pages laid out here, the font set, the key each page's drawing is kept under, the
    workers drawing for it, and whether its file stays as it is."""

    volume: Volume
    plans: list
    keys: list
    facts: list
    laid: dict = field(default_factory=dict)
    fonts: dict = field(default_factory=dict)
    drawn_keys: list = field(default_factory=list)
    shared: workers.Shared | None = None
    key: str | None = None
    stays: bool = False
    facts_key: str | None = None     # its facts, all pages together (facts.VolumeFacts), are kept under


def open_volume(game: GameSource, deck: DeckPlan, sheets: DeckSheets, volume: Volume, tmp: str, forms: dict,
                fonts_used: dict[str, str], slug_font: str) -> CardCanvas:
    """The volume's PDF, its fonts seeded and its shared forms defined, ready for pages."""
    g = game.game
    canvas = CardCanvas(tmp, sheets.page, volume.title, forms, g.bleed, slug_font, g.credits,
                        deck.layouter.res.converted, volume.press)
    canvas.seed_fonts(fonts_used)
    canvas.define_forms(sorted(forms))
    return canvas


def save_volume(canvas: CardCanvas, volume: Volume, tmp: str) -> None:
    try:
        canvas.save()
    except OSError as exc:
        raise files.unwritable(volume.target, exc) from None
    if volume.press is not None:
        make_pdfx(tmp, volume.press)
    files.finish(tmp, volume.target)


def file_digest(path: Path | str) -> str | None:
    """The SHA-256 of a file's bytes, or None when it cannot be read (or is not there)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


class DeckWriter:
    """Writes a deck's volumes in order (see the module docstring). A volume whose pages are
    drawn by workers is finished while the next volume is laid out and its workers draw."""

    def __init__(self, game: GameSource, deck: DeckPlan, sheets: DeckSheets, forms: dict, slug: Slug,
                 cache: PageCache, record: DeckRecord | None, wanted: int | None, staged: files.Staged,
                 out: Path, step=lambda label, done, total: None):
        self.game, self.deck, self.sheets, self.forms = game, deck, sheets, forms
        self.step = step          # told the pages done so far (options.step)
        self.cache, self.record, self.wanted, self.staged = cache, record, wanted, staged
        self.slug_font = fonts.builtin("sans")
        self.maker = PageMaker(game, deck, sheets, slug)
        self.page_keys = self.inputs = None
        if cache.path is not None:
            self.page_keys = PageKeys(forms, game.root, sheets.page, game.game.bleed)
            self.inputs = InputKeys(game, deck, sheets, out)
        self.finder = FactFinder(game, deck, self.maker, record.prints if record else None, self.page_keys,
                                 self.slug_font)
        self.job = workers.Job(self.finder, self.page_keys, cache.path, sheets, forms, game.game.bleed,
                               deck.layouter.res.converted)
        self.per_sheet = sheets.pages_per_sheet
        self.forms_chars = charset([], forms, self.slug_font)
        self.kept = self.drawn = 0
        self.done, self.total = 0, sheets.sheets * self.per_sheet

    def write_all(self, volumes: list[Volume]) -> tuple[int, int]:
        """Write (or keep) every volume; returns (pages kept, pages drawn)."""
        pending = None
        try:
            for volume in volumes:
                work = self._prepare(volume)
                if pending is not None:
                    pending, done = None, pending
                    self._finish(done)
                if work.shared is None:
                    self._finish(work)
                else:
                    pending = work
            if pending is not None:
                pending, done = None, pending
                self._finish(done)
        finally:
            if pending is not None and pending.shared is not None:
                workers.stop(pending.shared.parts)
        return self.kept, self.drawn

    # --- before the PDF: facts, fonts, keys ----------------------------------------------------
    def _prepare(self, volume: Volume) -> VolumeWork:
        """The volume's facts (kept or found now: here or by workers), its font set, its drawn
        pages' keys and whether its file stays; workers started for the pages to draw."""
        facts_key = None
        if self.inputs is not None:
            facts_key = self.inputs.volume(volume.runs, volume.first_sheet, volume.index, self.maker.slug)
            kept = self._kept(volume, facts_key)
            if kept is not None:
                return kept
        keys = self._keys(volume) if self.inputs is not None else [None] * (len(volume.runs) * self.per_sheet)
        work = VolumeWork(volume, [None] * len(volume.runs), keys, self._recall(keys), facts_key=facts_key)
        missing = [p for p, facts in enumerate(work.facts) if facts is None]
        work.shared = self._fork(work, missing)
        if work.shared is None:
            for p in missing:
                work.laid[p], work.facts[p] = self.finder.lay_out(*self._where(work, p))
                self._remember(work, p)
        chars = workers.merge_charsets([f.chars for f in work.facts])
        work.fonts = workers.merge_charsets([self.forms_chars, chars])
        part = self._take_in(work)
        if facts_key is not None:
            self.cache.put_facts(facts_key, self._summary(work, chars, part).text())
        if self.page_keys is not None:
            fonts_state = font_key(work.fonts)
            work.drawn_keys = [self.page_keys.drawn(f.content, fonts_state) for f in work.facts]
            work.stays = self._stays(work, fonts_state)
        if work.shared is None and not work.stays and len(missing) < len(keys):
            held = self.cache.held(work.drawn_keys)
            work.shared = self._fork(work, [p for p, k in enumerate(work.drawn_keys) if k not in held])
        if work.shared is not None:
            if work.stays:
                workers.stop(work.shared.parts)
                work.shared = None
            else:
                for part in work.shared.parts:
                    part.conn.send(work.fonts)
        work.facts = work.plans = []    # (taken in: a long deck holds one volume's facts and cards at once)
        return work

    def _keys(self, volume: Volume) -> list[str]:
        """Each page's input key, from the cards of the volume's sheets (none laid out, or made)."""
        sides, slug, keys = (FRONT, BACK)[:self.per_sheet], self.maker.slug, []
        for j, (sheet, cards) in enumerate(volume.runs):
            number = volume.first_sheet + j      # (as the sheet's plan has it: sheet_plans)
            keys += self.inputs.sheet(sheet, cards, [slug.text(number, side, volume.index) for side in sides])
        return keys

    def _take_in(self, work: VolumeWork) -> RecordPart | None:
        """The volume's warnings and manifest rows, from its pages' facts in page order (what
        that did to the manifest's record, returned). (The next volume is prepared before this
        one's PDF is written, never before this.)"""
        deck_path = self.deck.source.doc.path
        for p, facts in enumerate(work.facts):
            if facts.warnings:
                self.deck.layouter.absorb(notices(facts.warnings, self._where(work, p)[0], deck_path))
        if self.record is None:
            return None
        self.record.start_part(work.volume.target.name)
        for p, facts in enumerate(work.facts):
            self.record.replay(facts.events, p)
        self.record.finish()
        return self.record.end_part()

    def _summary(self, work: VolumeWork, chars: dict, part: RecordPart | None) -> VolumeFacts:
        """The facts of all the volume's pages together (`chars`: the characters they draw)."""
        origins: dict = {}
        for facts in work.facts:
            for name, origin in facts.fonts.items():
                origins.setdefault(name, origin)
        notes = [[p, facts.warnings] for p, facts in enumerate(work.facts) if facts.warnings]
        return VolumeFacts(chars, {name: origins[name] for name in chars}, [f.content for f in work.facts], notes,
                           part)

    def _kept(self, volume: Volume, facts_key: str) -> VolumeWork | None:
        """The volume taken in at once from the facts kept for all its pages together, when
        the cache has them and its PDF stays as it is (None: taken in page by page). Its
        pages' input keys are not even worked out: the cache keeps what it kept for it."""
        text = self.cache.facts([facts_key]).get(facts_key)
        facts = read_volume(text, len(volume.runs) * self.per_sheet) if text is not None else None
        if facts is None or not fonts_ready(facts) or self.record is not None and (
                facts.part is None or not self.record.fits(facts.part)):
            return None
        work = VolumeWork(volume, [], [], [], facts_key=facts_key)
        work.fonts = workers.merge_charsets([self.forms_chars, facts.chars])
        fonts_state = font_key(work.fonts)
        work.drawn_keys = [self.page_keys.drawn(content, fonts_state) for content in facts.contents]
        if not self._stays(work, fonts_state):
            return None
        work.stays = True
        deck_path = self.deck.source.doc.path
        for p, notes in facts.notes:
            self.deck.layouter.absorb(notices(notes, self._where(work, p)[0], deck_path))
        if self.record is not None:
            self.record.take_part(facts.part, volume.target.name)
        return work

    def _where(self, work: VolumeWork, p: int):
        """The sheet plan and side of page `p` of a volume: planned when first asked for (a
        sheet whose pages the cache knows is never planned), and again once the volume's plans
        are let go."""
        j, volume = p // self.per_sheet, work.volume
        plan = work.plans[j] if work.plans else None
        if plan is None:
            (plan,) = sheet_plans(self.sheets, volume.runs[j:j + 1], volume.first_sheet + j, volume.index)
            if work.plans:
                work.plans[j] = plan
        return plan, p % self.per_sheet

    def _planned(self, work: VolumeWork) -> None:
        """Every sheet of the volume planned (as workers find them)."""
        for j, plan in enumerate(work.plans):
            if plan is None:
                self._where(work, j * self.per_sheet)

    def _recall(self, keys: list) -> list[PageFacts | None]:
        """The facts the cache keeps for each page, None where it has none this build can use."""
        if self.inputs is None:
            return [None] * len(keys)
        kept = self.cache.facts(keys)
        out = []
        for key in keys:
            facts = read(kept[key]) if key in kept else None
            usable = facts is not None and (facts.events is not None or self.record is None) and fonts_ready(facts)
            out.append(facts if usable else None)
        return out

    def _remember(self, work: VolumeWork, p: int) -> None:
        if work.keys[p] is not None:
            self.cache.put_facts(work.keys[p], work.facts[p].text())

    def _fork(self, work: VolumeWork, pages: list[int]) -> workers.Shared | None:
        """Workers for `pages` (sorted), laid out by them where the volume has no facts for them;
        None when they are better done here, or cannot be (a font the build cannot match)."""
        count = workers.worker_count(len(pages) // self.per_sheet, self.wanted)
        if count <= 1:
            return None
        self._planned(work)
        shared = workers.Shared(workers.shares(pages, count))
        try:
            for part in shared.parts:
                self.job.start(part, work)
            for part in shared.parts:
                for p, facts in workers.receive(part, "laid")[0]:
                    if not fonts_ready(facts):
                        raise workers.NotShared(p)
                    work.facts[p] = facts
                    self._remember(work, p)
        except workers.NotShared:
            workers.stop(shared.parts)
            return None
        except BaseException:
            workers.stop(shared.parts)
            raise
        return shared

    def _stays(self, work: VolumeWork, fonts_state: str) -> bool:
        """Whether the volume's PDF in place is the one this build would write: the same key
        (every page's drawing, the fonts, the forms, the title) and the same file as written."""
        volume = work.volume
        h = hashlib.sha256(f"{self.inputs.digest}\0{volume.name}\0{volume.title}\0{fonts_state}\0".encode())
        h.update(repr(sorted(self.forms)).encode())
        for key in work.drawn_keys:
            h.update(key.encode())
        work.key = h.hexdigest()
        known = self.cache.volume(self._pdf(volume))
        return known is not None and known[0] == work.key and file_digest(volume.target) == known[1]

    def _pdf(self, volume: Volume) -> str:
        return f"{self.game.id}/{volume.name}"

    # --- the PDF ---------------------------------------------------------------------------------
    def _finish(self, work: VolumeWork) -> None:
        """Put the volume's pages into its PDF, unless the file stays."""
        volume = work.volume
        if work.stays:
            self.kept += len(work.drawn_keys)
            if work.keys:       # (taken in at once: the cache keeps what it kept for it, as it is)
                self.cache.keep(self._pdf(volume), work.keys + [work.facts_key] + work.drawn_keys)
            self._count(len(work.drawn_keys))
            return
        tmp = self.staged.add(volume.target)
        canvas = open_volume(self.game, self.deck, self.sheets, volume, tmp, self.forms, work.fonts, self.slug_font)
        used: list[str] = []
        try:
            from_workers = workers.Drawn(work.shared)
            for p in range(len(work.keys)):
                entry = self._put_page(canvas, work, p, from_workers)
                if entry is not None and work.drawn_keys:
                    used.append(work.drawn_keys[p])
                self._count(1)
        finally:
            if work.shared is not None:
                workers.stop(work.shared.parts)
        save_volume(canvas, volume, tmp)
        if self.page_keys is not None:
            self.cache.put_volume(self._pdf(volume), work.key, file_digest(tmp) or "")
            self.cache.keep(self._pdf(volume), work.keys + [work.facts_key] + used)

    def _count(self, pages: int) -> None:
        self.done += pages
        self.step(f"{self.game.id}/{self.deck.id}", self.done, self.total)

    def _put_page(self, canvas: CardCanvas, work: VolumeWork, p: int, from_workers) -> Entry | None:
        """Page `p` into the PDF: copied from the cache, as a worker drew it, or drawn here
        (laid out first if need be). Returns the entry kept for it."""
        key = work.drawn_keys[p] if work.drawn_keys else None
        held = self.cache.get(key) if key is not None else None
        if held is not None:
            canvas.replay_page(held)
            self.kept += 1
            return held
        self.drawn += 1
        entry = from_workers.entry(p)
        if entry is not None:
            canvas.replay_page(entry)
        else:
            page = work.laid.pop(p, None) or self.maker.page(*self._where(work, p))
            canvas.draw_page(page, self.slug_font)
            if key is None and not from_workers.any:
                canvas.page()
                return None
            entry = canvas.record_page(page_images(page))
        if entry is not None and key is not None:
            self.cache.put(key, entry)
        return entry
