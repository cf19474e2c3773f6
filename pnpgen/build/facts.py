"""What laying a sheet page out tells the build, kept in the build cache under the page's input
key (inputs.py) so that a rebuild knows it without laying the page out again: the characters
the page draws in each font (for seeding the PDF's fonts) and the files of those fonts, the
page's content digest (the key of its drawing, fonts aside: cache.PageKeys), the manifest's
events for the cards on it, and its warnings as they came (repeats and all, each card's at
that card), to be taken in in page order as a clean build takes them."""

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
from .manifest import DeckRecord
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
    ok = (isinstance(chars, dict) and isinstance(used, dict) and used.keys() == chars.keys()
          and all(isinstance(c, str) for c in chars.values()) and all(map(_origin_shape, used.values()))
          and isinstance(content, str) and (events is None or isinstance(events, list))
          and isinstance(warnings, list) and all(map(_note_shape, warnings)))
    return PageFacts(chars, used, content, events, warnings) if ok else None


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


def fonts_ready(facts: PageFacts) -> bool:
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
