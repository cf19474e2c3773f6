"""Input keys: what a sheet page is made from, hashed without laying anything out, so that a
rebuild can find what it learnt about the page last time (its facts: facts.py) and the page
itself in the build cache before doing any work for it.

A page's input key hashes its cards with the page's geometry (slots, marks, cuts, the slug
line and its text), the deck's settings (everything in its file but the cards) and the
environment. Of a card it takes what a template sees (its code, copy, count, entry,
templates and field values: docs/reference.md, "variables"); the environment is pnpgen's code, the
libraries it lays out and draws with, every template the game loads, game.yaml, and every
other file in the game folder but its decks, card sheets, boards, rules and rulebook, each known by its
path, size and modification time (500 MB of art is not read each build). Anything else a
card could print differently for changes one of these, so a page whose key is kept was laid
out from the same inputs and prints the same."""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
from pathlib import Path

import PIL
import pydantic
import reportlab

from .. import __version__, fonts
from ..files import stat_text
from ..game.expand import joined, plain, plain_backs
from ..game.loader import GameSource
from ..sheets.impose import Sheet
from .cache import FORMAT
from .pages import DeckSheets
from .plan import DeckPlan

NOT_READ_BY_CARDS = ("decks", "boards", "rules.yaml", "rulebook.md")
"""Entries of a game folder that no card's layout reads (deck and board files are also left
out wherever game.yaml lists them)."""

_CODE: str | None = None


def code_digest() -> str:
    """pnpgen's code and presets, where it is installed (each file known by its path, size and
    modification time, as the game folder's files are: installing or editing one writes it
    anew), and the versions of pnpgen, Python and the libraries that read, lay out and draw:
    another version lays every page out anew. (Jinja2 is known by its package's first file,
    as pnpgen's files are, so that a game that never loads it is not made to load it here.)"""
    global _CODE
    if _CODE is None:
        _CODE = package_digest(Path(__file__).resolve().parent.parent, sorted(set(fonts.BUILTIN.values())))
    return _CODE


def package_digest(package: Path, fonts_used: list[Path]) -> str:
    """code_digest of the package at `package`, with its built-in fonts `fonts_used`."""
    jinja2 = importlib.util.find_spec("jinja2")
    h = hashlib.sha256(f"{FORMAT}:{package}:{__version__}:{sys.version}:{reportlab.Version}:"
                       f"{stat_text(Path(jinja2.origin))}:{PIL.__version__}:{pydantic.VERSION}".encode())
    for path in sorted(package.rglob("*.py")) + sorted((package / "presets").rglob("*.yaml")) + fonts_used:
        h.update(stat_text(path).encode())
    return h.hexdigest()


def environment(game: GameSource, out: Path, every_file: bool = False) -> str:
    """What every card of the game is laid out with: the code, the game folder (where it is,
    game.yaml, its other files by size and time) and every template it loads (its text, and
    its path as warnings name it). With `every_file`, the files no card reads count too (its
    decks, card sheets, boards, rules and rulebook: what a rulebook is made from)."""
    h = hashlib.sha256(code_digest().encode())
    root = game.root.resolve()
    h.update(f"{root}\0{game.doc.path}\0".encode())
    h.update((root / "game.yaml").read_bytes())
    for name, tpl in sorted(game.templates.items()):
        h.update(f"\0{name}\0{tpl.doc.path}\0{tpl.path.resolve()}\0".encode())
        h.update(tpl.path.read_bytes())
    skipped = {out.resolve()}
    if not every_file:
        skipped |= {root / name for name in NOT_READ_BY_CARDS}
        skipped |= {p.resolve() for p in [*(d.path for d in game.decks), *(b.path for b in game.boards)]}
        skipped |= {d.sheet_path for d in game.decks if d.sheet_path}   # (read whole: its cells are in the card keys)
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if here / d not in skipped)
        for name in sorted(names):
            path = here / name
            if path not in skipped:
                h.update(stat_text(path).encode())
    return h.hexdigest()


class InputKeys:
    """The input keys of one deck's pages (see the module docstring)."""

    def __init__(self, game: GameSource, deck: DeckPlan, sheets: DeckSheets, out: Path):
        source = deck.source
        self.base = hashlib.sha256(environment(game, out).encode())
        self.base.update(f"{source.id}\0{source.doc.path}\0{source.size}\0".encode())
        self.base.update(source.deck.model_dump_json().encode())
        self.base.update(deck.layouter.res.image_settings.text().encode())   # (--image-ppi, --keep-images)
        self.digest = self.base.hexdigest()
        """The deck's and the game's part of every key."""
        self.sheets = sheets
        self._pack = bool(source.deck.pack)
        self._geometry: dict[tuple, tuple[bytes, bytes]] = {}

    def sheet(self, sheet: Sheet, cards, slugs: list[str]) -> list[str]:
        """The input keys of the front page and (when the deck has backs) the back page of a
        sheet holding `cards` (a run of the deck's cards, or a list of them); `slugs`: their
        slug lines' text. Worked out from the cards as plain values (game/expand.py), so
        nothing is laid out or even made for a sheet whose pages the build cache knows. (A
        back page of common backs takes which entry and copy is in each slot: it tells the
        manifest so.)"""
        front_geometry, back_geometry = self.geometry(sheet, len(cards))
        front = hashlib.sha256(front_geometry + _packed((slugs[0], plain(cards)))).hexdigest()
        if len(slugs) == 1:
            return [front]
        backs = plain(cards) if self._pack else plain_backs(cards)     # (a packed token draws each back)
        return [front, hashlib.sha256(back_geometry + _packed((slugs[1], backs))).hexdigest()]

    def volume(self, runs: list, first_sheet: int, index: int, slug) -> str:
        """The key of a volume's facts (facts.VolumeFacts): what all its pages are made from,
        as their input keys take it, but at once: its cards as one plain value, the geometry
        and cards of each sheet, and its slug lines (`slug`, a pages.Slug, with the volume's
        first sheet and its index, gives every one of them)."""
        h = hashlib.sha256(b"volume\0" + repr((slug, first_sheet, index, self.sheets.pages_per_sheet)).encode())
        counts = []
        for sheet, cards in runs:
            counts.append(len(cards))
            h.update(b"".join(self.geometry(sheet, counts[-1])))
        h.update(_packed((counts, plain(joined([cards for _, cards in runs])))))
        return h.hexdigest()

    def geometry(self, sheet: Sheet, n: int) -> tuple[bytes, bytes]:
        """What the front and back pages of a sheet of `n` cards are made from besides their
        cards and slug text: the game and the deck (`digest`), slots, marks, cuts, where the
        slug goes. The same for every full sheet of a deck, so
        worked out once."""
        key = (id(sheet), n)
        found = self._geometry.get(key)
        if found is None:
            fronts, backs = sheet.slots_for(n, self.sheets.offset)    # (as the sheet's plan has them)
            common = self.digest.encode() + repr((self.sheets.page, sheet.slug, sheet.bleed)).encode()
            front = repr((fronts, sheet.ticks_for(n), sheet.marks_for(n), sheet.cuts_for(n) if self._pack else ()))
            found = self._geometry[key] = (hashlib.sha256(common + front.encode()).digest(),
                                           hashlib.sha256(common + repr(backs).encode()).digest())
        return found


def _packed(value) -> bytes:
    """`value` (plain values: text, numbers, bytes, None, tuples and lists of them) as bytes
    that tell apart any two values that differ, types included: marshal's version 2, which
    writes each value out in full (no references to values met before, so equal values always
    give the same bytes); the repr of a value marshal cannot write (a date in a list field)."""
    try:
        return b"m" + marshal.dumps(value, 2)
    except ValueError:
        return b"r" + repr(value).encode()
