"""What laying a sheet page out tells the build, kept in the build cache under the page's input
key (inputs.py) so that a rebuild knows it without laying the page out again: the characters
the page draws in each font (for seeding the PDF's fonts) and the files of those fonts, the
page's content digest (the key of its drawing, fonts aside: cache.PageKeys), the manifest's
events for the cards on it, and its warnings as they came (repeats and all, each card's at
that card), to be taken in in page order as a clean build takes them. Beside them, the facts of
all the pages of a volume together (VolumeFacts), with the manifest rows taking them in made,
so that a rebuild takes in a volume none of whose pages changed at once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .. import fonts
from ..errors import InputError
from ..game.loader import GameSource
from ..layout.fingerprint import Fingerprints
from ..pdf.canvas import SheetPage
from .cache import PageKeys, charset
from .manifest import DeckRecord, RecordPart
from .pages import PageMaker, SheetPlan, record_page
from .plan import DeckPlan


@dataclass
class PageFacts:
    """What laying one page out told the build (see the module docstring)."""

    chars: dict[str, str]             # font -> the characters outside printable ASCII it draws there
    fonts: dict[str, list | None]     # font -> [name, file] it was registered from
    content: str | None               # the page's content digest (None: no build cache)
    events: list | None               # the manifest's events, on page 0 (None: no manifest)
    warnings: list                    # as PageMaker notes them

    def text(self) -> str:
        return json.dumps([self.chars, self.fonts, self.content, self.events, self.warnings],
                          ensure_ascii=False, separators=(",", ":"))


def read(text: str) -> PageFacts | None:
    """Facts from their text (a row whose checksum matched: written by this code for this very
    page), or None when they are not the shape `PageFacts.text` writes (then the page is laid
    out again, as if no facts were kept)."""
    try:
        chars, used, content, events, warnings = json.loads(text)
    except (ValueError, TypeError):
        return None
    ok = (_fonts_shape(chars, used)
          and isinstance(content, str) and (events is None or isinstance(events, list))
          and isinstance(warnings, list) and all(map(_note_shape, warnings)))
    return PageFacts(chars, used, content, events, warnings) if ok else None


def _fonts_shape(chars, used) -> bool:
    """The characters drawn in each font and the fonts' origins, as kept: two dicts of one set of fonts."""
    return (isinstance(chars, dict) and isinstance(used, dict) and used.keys() == chars.keys()
            and all(isinstance(c, str) for c in chars.values()) and all(map(_origin_shape, used.values())))


def _origin_shape(origin) -> bool:
    """A font's origin as kept: None, or [name, file]."""
    return origin is None or (isinstance(origin, list) and len(origin) == 2 and all(isinstance(o, str) for o in origin))


def _note_shape(note) -> bool:
    """A warning as PageMaker notes it: ["card", index, message, strict] or ["at", path, line, message, strict]."""
    if not isinstance(note, list) or not note:
        return False
    if note[0] == "card":
        return len(note) == 4 and isinstance(note[1], int) and isinstance(note[2], str)
    return (note[0] == "at" and len(note) == 5 and isinstance(note[1], str) and isinstance(note[3], str)
            and (note[2] is None or isinstance(note[2], int)))


@dataclass
class VolumeFacts:
    """What all the pages of a volume told the build, taken together, kept in the build cache
    under the volume's input key (inputs.InputKeys.volume), so that a rebuild that finds the volume unchanged
    takes it in at once instead of page by page: the characters its pages draw in each font
    and the files of those fonts, each page's content digest, the warnings of the pages that
    gave any ([page, warnings]), and what taking its pages in did to the deck's manifest
    record (manifest.RecordPart; None: no manifest)."""

    chars: dict[str, str]
    fonts: dict[str, list | None]
    contents: list[str]
    notes: list
    part: RecordPart | None

    def text(self) -> str:
        part = self.part.as_list() if self.part is not None else None
        return json.dumps([self.chars, self.fonts, self.contents, self.notes, part], ensure_ascii=False,
                          separators=(",", ":"))


def read_volume(text: str, pages: int) -> VolumeFacts | None:
    """A volume's facts from their text (see `read`), or None when they are not the shape
    `VolumeFacts.text` writes for a volume of `pages` pages."""
    try:
        chars, used, contents, notes, part = json.loads(text)
    except (ValueError, TypeError):
        return None
    ok = (_fonts_shape(chars, used)
          and isinstance(contents, list) and len(contents) == pages and all(isinstance(c, str) for c in contents)
          and isinstance(notes, list) and all(_page_notes_shape(n, pages) for n in notes)
          and (part is None or _part_shape(part)))
    if not ok:
        return None
    if part is not None:
        part = RecordPart(*part[:4], part[4].split("\n") if part[4] else [])
    return VolumeFacts(chars, used, contents, notes, part)


def _page_notes_shape(item, pages: int) -> bool:
    """[page, its warnings], as VolumeFacts keeps them."""
    return (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and 0 <= item[0] < pages
            and isinstance(item[1], list) and all(map(_note_shape, item[1])))


def _part_shape(part) -> bool:
    """A RecordPart as VolumeFacts keeps it: [file, [[slot key, index]...], {code: shape},
    [page, slot] or None, its rows as JSON, one a line]."""
    if not (isinstance(part, list) and len(part) == 5):
        return False
    file, slots, shapes, back, rows = part
    return (isinstance(file, int) and isinstance(slots, list) and all(map(_slot_shape, slots))
            and isinstance(shapes, dict) and all(isinstance(v, str) for v in shapes.values())
            and (back is None or isinstance(back, list) and len(back) == 2 and all(isinstance(b, int) for b in back))
            and isinstance(rows, str))


def _slot_shape(slot) -> bool:
    """[slot key (numbers), index into the record's slots]."""
    return (isinstance(slot, list) and len(slot) == 2 and isinstance(slot[0], list) and isinstance(slot[1], int)
            and all(type(v) in (int, float) for v in slot[0]))


def fonts_ready(facts: PageFacts | VolumeFacts) -> bool:
    """Register the fonts the page's facts name, as laying it out would have; False when one
    cannot be had under the same name (its file gone or replaced by another)."""
    for name, origin in facts.fonts.items():
        if fonts.known(name):
            continue
        if origin is None:
            return False
        try:
            if fonts.ensure(origin[0], Path(origin[1])) != name:
                return False
        except InputError:
            return False
    return True


class FactFinder:
    """Lays pages out and says what each told (used by the build and its worker processes alike)."""

    def __init__(self, game: GameSource, deck: DeckPlan, maker: PageMaker, prints: Fingerprints | None,
                 keys: PageKeys | None, slug_font: str):
        self.game, self.maker, self.keys, self.slug_font = game, maker, keys, slug_font
        self.capture = None
        if prints is not None:          # a record that keeps its events rather than rows
            self.capture = DeckRecord(deck.source, prints)
            self.capture.log = []

    def lay_out(self, plan: SheetPlan, side: int) -> tuple[SheetPage, PageFacts]:
        """One page laid out, and its facts."""
        notes: list = []
        page = self.maker.page(plan, side, notes)
        events, known = None, None
        if self.capture is not None:
            record_page(self.capture, self.game, plan, side, page, 0)
            events, self.capture.log = self.capture.log, []
            known = self.capture.digested()
        content = self.keys.content(page, known) if self.keys is not None else None
        chars = charset([page], {}, self.slug_font)
        origins = {}
        for name in chars:
            origin = fonts.origin(name)
            origins[name] = None if origin is None else [origin[0], str(origin[1])]
        return page, PageFacts(chars, origins, content, events, notes)
