"""The build manifest, out/<game>/manifest.json: what each card of a build printed and where.
`pnpgen build` writes it beside the game's PDFs (a temporary file renamed into place with
them, so a failed build leaves none); `pnpgen changes --since <build folder>` reads it
(pnpgen.revisions.built) to compare a kept build with the working tree by what the cards
print, and cuts the pictures of the cards as they were out of those PDFs.

It is deterministic (sorted keys, no timestamps: the same build writes the same bytes) and
holds one row per card entry, not per copy:

- `format` (FORMAT), `game`, `title`, the game's `bleed`; lengths in mm, page rectangles
  from the page's bottom-left corner with y up (as in PDF);
- per deck: `id`, `name`, `kind` ("deck", or "board"), `pack`, `size` (its cards' trim),
  `files` (its PDFs, volumes in order), `slots` (each distinct trim rectangle a card was
  printed in: [x, y, w, h, turn], `turn` the degrees the card is turned anticlockwise on the
  page: 0, 90, 180 or 270), `shapes` (code -> shape of the cards that are not rectangles:
  round tokens),
  `back` (the deck's common back: its digest and where the first card wearing it has it),
  and `cards`, rows of CARD_COLUMNS: code, title, count, the front's digest and its code-blind
  digest, the card's own back's two (null when it wears the deck's common back or none),
  then where its first copy is printed: file (an index into `files`), the front's page
  (0-based) and slot (an index into `slots`), the back's page and slot (null: no back);
- a board is a deck of one row (code: the board's id; "front" is side A, "back" side B) with
  its `size` and `pieces`: per side, the parts of it (trim and bleed) each page shows, as
  [page, x, y, w, h, page x, page y]: a rectangle of the board (mm from its top-left corner,
  y down) printed at 100 % with its top-left corner at that point of the page.

The digests are those pnpgen.revisions.compare computes (Fingerprints.faces, on the bodies the
build lays out anyway, in one walk that also gives the build cache its page keys): the full one
and one blind to the card's own code, with which a card that only moved to another code is
told from one that changed."""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__, files
from ..errors import InputError
from ..layout.fingerprint import Fingerprints
from ..ops import FormDef
from .plan import COMMON_BACK_FORM

FORMAT = 1
"""Bumped when the manifest's meaning changes; a manifest of another format is refused."""
NAME = "manifest.json"
KIND = "pnpgen build manifest"
CARD_COLUMNS = ("code", "title", "count", "front", "front_blind", "back", "back_blind",
                "file", "front_page", "front_slot", "back_page", "back_slot")


def card_title(card) -> str:
    """A card's title for people, as export.faces names it: its title or name field, or its code."""
    fields = card.entry.fields
    title = fields.get("title") or fields.get("name")
    return str(title) if title else card.code


def turn_of(transform) -> int:
    """The quarter turns (degrees anticlockwise) of a card -> page transform."""
    return round(math.degrees(math.atan2(transform[1], transform[0])) / 90) % 4 * 90


def _mm(v: float) -> float:
    return round(float(v), 4) + 0.0      # (+ 0.0: no "-0.0")


@dataclass
class RecordPart:
    """What taking in one volume's pages did to a deck's record (DeckRecord.start_part), kept
    with the volume's facts so that a rebuild does the same again at once (DeckRecord.take_part)
    when the volume has not changed: the file's index, each slot its cards are in (its key
    and its index, in the order first used), the shapes of its cards that are not rectangles,
    the first common back on it (page, slot index) and its complete rows, as JSON."""

    file: int
    slots: list = field(default_factory=list)
    shapes: dict = field(default_factory=dict)
    back: list | None = None
    rows: list = field(default_factory=list)
    seen: set = field(default_factory=set, repr=False, compare=False)   # (the slot keys in `slots`)

    def as_list(self) -> list:
        """As kept (facts.VolumeFacts): the rows one a line (JSON writes no line break inside one)."""
        return [self.file, self.slots, self.shapes, self.back, "\n".join(self.rows)]


class DeckRecord:
    """One deck's part of the manifest, filled in while the build lays its sheets out."""

    def __init__(self, deck, prints: Fingerprints | None):
        self.deck = deck                        # a deck's or a board's source (its `kind` says which)
        self.prints = prints
        self.files: list[str] = []
        self.slots: dict[tuple, int] = {}
        self._slots: dict = {}                  # Slot -> its key in `slots`
        self._fresh: list = []                  # (body, digest) digested since the last `digested`
        self.rows: dict[int, list] = {}         # card entry index -> row, until it is complete
        self.done = Spool()                     # the complete rows, in deck order
        self.back: dict | None = None           # the common back
        self.shapes: dict[str, str] = {}        # code -> shape, for the cards that are not rectangles
        self.extra: dict = {}                   # a board's size and pieces
        self._file = 0
        self.log: list | None = None            # events kept to replay later (a page's facts), not applied
        self._part: RecordPart | None = None    # what is being done, kept (start_part)

    def file(self, name: str) -> None:
        """The PDF (a volume) the cards recorded next are printed in."""
        self.files.append(name)
        self._file = len(self.files) - 1

    def _slot_key(self, slot) -> tuple:
        """A slot as the manifest lists it: its trim rectangle (rounded) and its turn."""
        key = self._slots.get(slot)
        if key is None:
            x, y, w, h = slot.trim
            key = self._slots[slot] = (_mm(x), _mm(y), _mm(w), _mm(h), turn_of(slot.transform))
        return key

    def _slot(self, key) -> int:
        """The index into `slots` of a slot key (a list once it has been through JSON)."""
        key = tuple(key)
        index = self.slots.get(key)
        if index is None:
            index = self.slots[key] = len(self.slots)
        part = self._part
        if part is not None and key not in part.seen:
            part.seen.add(key)
            part.slots.append([list(key), index])
        return index

    def start_part(self, name: str) -> None:
        """The cards recorded next are printed in the PDF `name` (as `file`); keep what is done
        from here (rows, slots, shapes, the common back's place) as a RecordPart, until `end_part`."""
        self.file(name)
        self._part = RecordPart(self._file)

    def end_part(self) -> RecordPart:
        part, self._part = self._part, None
        return part

    def fits(self, part: RecordPart) -> bool:
        """Whether `part`, kept from another build, would do here, in the next file, just what
        its events would: the same file index, and each of its slots the index it had there."""
        if part.file != len(self.files):
            return False
        new = len(self.slots)
        for key, index in part.slots:
            known = self.slots.get(tuple(key))
            if known is None:
                known, new = new, new + 1
            if known != index:
                return False
        return True

    def take_part(self, part: RecordPart, name: str) -> None:
        """Do again what a kept part did in the PDF `name` (`fits` says it does the same here)."""
        self.file(name)
        for key, _ in part.slots:
            self._slot(key)
        self.shapes.update(part.shapes)
        if part.back is not None and self.back is not None and self.back["page"] is None:
            self.back.update(file=self._file, page=part.back[0], slot=part.back[1])
        self.done.extend(part.rows)

    def digested(self) -> dict[int, str]:
        """The faces digested since the last call, by id of their body (still alive): the build
        cache's digest of their page takes them as they are rather than walking them again."""
        out = {id(body): digest for body, digest in self._fresh}
        self._fresh = []
        return out

    def finish(self) -> None:
        """Move the rows recorded so far, complete, to the spool."""
        kept = self._part.rows if self._part is not None else None
        for row in self.rows.values():
            line = _flat(row)
            self.done.add(line)
            if kept is not None:
                kept.append(line)
        self.rows = {}

    def common_back(self, body) -> None:
        digest = self.prints.face(body, self.deck.size, "rect")
        self.back = {"digest": digest, "file": None, "page": None, "slot": None}

    def front(self, card, body, look, page: int, slot) -> None:
        """The first copy of a card, its front laid out as `body` on `page` in `slot`."""
        full, blind = self.prints.faces(body, look.size or self.deck.size, look.shape, card.code)
        self._fresh.append((body, full))
        self._apply(("front", card.entry.index, card.code, card_title(card), card.entry.count, full, blind,
                     look.shape, page, self._slot_key(slot)))

    def back_of(self, card, body, look, page: int, slot) -> None:
        """The back of a card's first copy: its own (`body`), or the common back (None)."""
        if card.entry.index not in self.rows and self.log is None:
            return
        digests = None
        if body is not None:
            digests = self.prints.faces(body, look.size or self.deck.size, look.shape, card.code)
            self._fresh.append((body, digests[0]))
        self._apply(("back", card.entry.index, digests, page, self._slot_key(slot)))

    def _apply(self, event: tuple) -> None:
        """Fill the rows in with one card side recorded (by this process, or kept in a page's
        facts: see `replay`). An event is JSON-able: ("front", entry index, code, title, count,
        digest, blind digest, shape, page, slot key) or ("back", entry index, [digest, blind
        digest] or None for the common back, page, slot key); a record with a `log` keeps the
        event there rather than filling a row."""
        if self.log is not None:
            self.log.append(event)
            return
        if event[0] == "front":
            _, index, code, title, count, full, blind, shape, page, slot = event
            if shape != "rect":
                self.shapes[code] = shape
                if self._part is not None:
                    self._part.shapes[code] = shape
            self.rows[index] = [code, title, count, full, blind, None, None, self._file, page, self._slot(slot),
                                None, None]
            return
        _, index, digests, page, slot = event
        row = self.rows.get(index)
        if row is None:
            return
        if digests is not None:
            row[5], row[6] = digests
        row[10], row[11] = page, self._slot(slot)
        if digests is None and self._part is not None and self._part.back is None:
            self._part.back = [page, row[11]]
        if digests is None and self.back is not None and self.back["page"] is None:
            self.back.update(file=self._file, page=page, slot=row[11])

    def replay(self, events: list, page: int | None = None) -> None:
        """Take in card sides recorded earlier, in the order they were recorded; with `page`,
        each is put on that page of the current file (events of one page kept in its facts)."""
        for event in events:
            self._apply(event if page is None else (*event[:-2], page, event[-1]))

    def as_dict(self) -> dict:
        self.finish()
        d = self.deck
        out = {"id": d.id, "name": d.name, "kind": d.kind, "pack": d.kind == "deck" and bool(d.deck.pack),
               "files": self.files, "slots": [list(k) for k in self.slots], "back": self.back, "cards": self.done}
        if d.kind == "deck":     # (a board's size is among its extra)
            out["size"] = [_mm(v) for v in d.size]
        if self.shapes:
            out["shapes"] = self.shapes
        out.update(self.extra)
        return out


class Manifest:
    """A game's manifest, deck by deck and board by board, as the build goes."""

    def __init__(self, game):
        self.game = game
        self.decks: list[DeckRecord] = []

    def deck(self, deck, forms: dict) -> DeckRecord:
        record = DeckRecord(deck, Fingerprints(forms, self.game.root))
        self.decks.append(record)
        return record

    def record_of(self, deck) -> DeckRecord:
        """The record of a deck (its source) already in the manifest."""
        return next(r for r in self.decks if r.deck is deck and r.deck.kind == "deck")

    def empty_deck(self, deck, forms: dict, common_back: FormDef | None) -> None:
        """A deck with no card to print: listed, with its common back, so that cards added to it
        later are compared with it."""
        record = self.deck(deck, forms)
        if common_back is not None:
            forms[COMMON_BACK_FORM] = common_back
            record.common_back(list(common_back.body))

    def board(self, board, forms: dict, sides: list, layout, placed: dict) -> None:
        """A board: each side's digest (the form drawn on its pages) and the pieces of it each
        page shows. `placed`: side index -> [(page, tile)]."""
        b = board.board
        record = DeckRecord(board, Fingerprints(forms, self.game.root))
        self.decks.append(record)
        record.file(f"{board.id}.pdf")
        prints = [record.prints.face(forms[name].body, b.size, "rect") for name, _ in sides]
        pieces = {}
        for side, key in enumerate(("front", "back")[:len(sides)]):
            pieces[key] = [p for page, t in placed.get(side, []) for p in [_piece(page, t, b.size, layout.bleed)] if p]
        back = prints[1] if len(prints) > 1 else None

        def first(key):
            return pieces[key][0][0] if pieces.get(key) else None
        record.rows[0] = [board.id, b.name, 1, prints[0], prints[0], back, back, 0, first("front"), None,
                          first("back"), None]
        record.extra = {"size": [_mm(v) for v in b.size], "pieces": pieces}

    def as_dict(self) -> dict:
        g = self.game
        return {"format": FORMAT, "kind": KIND, "generator": f"pnpgen {__version__}", "game": g.id,
                "title": g.game.title, "bleed": _mm(g.game.bleed), "units": "mm",
                "origin": "page rectangles from the page's bottom-left corner, y up (as in PDF); "
                          "board pieces from the board's top-left corner, y down",
                "card_columns": list(CARD_COLUMNS), "decks": [d.as_dict() for d in self.decks]}

    def text(self) -> str:
        return "".join(chunks(self.as_dict())) + "\n"

    def write(self, outdir: Path) -> tuple[str, Path]:
        """Write the manifest to a temporary file beside its target; returns (temporary, target)
        for the build to rename into place with the PDFs."""
        target = outdir / NAME
        try:
            tmp = files.temp_beside(target)
        except InputError:
            self.close()
            raise
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.writelines(chunks(self.as_dict()))
                f.write("\n")
            files.finish(tmp, target)
        except (OSError, InputError) as exc:
            files.remove_quietly(tmp)
            raise (files.unwritable(target, exc) if isinstance(exc, OSError) else exc) from None
        finally:
            self.close()
        return tmp, target

    def close(self) -> None:
        """Let go of the decks' spools (a failed build calls this too)."""
        for record in self.decks:
            record.done.close()


def _piece(page: int, tile, size, bleed: float):
    """The part of a board (with its bleed) a tile's page shows: [page, x, y, w, h, page x, page y]."""
    a, b, c, d, e, f = tile.place        # board mm (y down) -> page mm (y up): x + e, f - y
    if (a, b, c, d) != (1, 0, 0, -1):
        return None
    cx, cy, cw, ch = tile.clip
    x0, x1 = max(cx - e, -bleed), min(cx + cw - e, size[0] + bleed)
    y0, y1 = max(f - (cy + ch), -bleed), min(f - cy, size[1] + bleed)
    if x1 - x0 <= 1e-6 or y1 - y0 <= 1e-6:
        return None
    return [page, _mm(x0), _mm(y0), _mm(x1 - x0), _mm(y1 - y0), _mm(e + x0), _mm(f - y0)]


class Raw(str):
    """A value already written as JSON."""


class Spool:
    """Rows already written as JSON, one a line, kept in an anonymous temporary file rather
    than in memory until the manifest is written (a 20,000-card deck's rows are 5 MB)."""

    def __init__(self):
        self.file = None
        self.count = 0

    def add(self, row_json: str) -> None:
        if self.file is None:
            self.file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")
        self.file.write(row_json + "\n")      # (JSON escapes every newline inside a row)
        self.count += 1

    def extend(self, rows_json: list[str]) -> None:
        """Rows one after another, as `add` takes each."""
        if rows_json:
            self.add("\n".join(rows_json))
            self.count += len(rows_json) - 1

    def __iter__(self):
        if self.file is not None:
            self.file.seek(0)
            for line in self.file:
                yield Raw(line[:-1])

    def joined(self, separator: str):
        """The rows with `separator` between each two, in pieces of some 64 KB."""
        if self.file is None:
            return
        self.file.seek(0)
        between = ""
        while True:
            piece = self.file.read(1 << 16)
            if not piece:
                return
            piece += self.file.readline()       # (to the end of the row it stopped in)
            yield between + piece[:-1].replace("\n", separator)
            between = separator

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def chunks(value, indent: str = ""):
    """JSON with sorted keys, readable and compact (a list of rows one row a line), in pieces
    to write one after another (a 20,000-row manifest is never one string)."""
    inner = indent + " "
    if isinstance(value, dict) and value:
        yield "{"
        for i, (k, v) in enumerate(sorted(value.items())):
            yield f"{',' if i else ''}\n{inner}{json.dumps(k)}: "
            yield from chunks(v, inner)
        yield f"\n{indent}}}"
    elif isinstance(value, Spool) and value.count:
        yield f"[\n{inner}"
        yield from value.joined(f",\n{inner}")
        yield f"\n{indent}]"
    elif isinstance(value, list) and value and all(isinstance(v, (list, dict, Raw)) for v in value):
        yield "["
        for i, v in enumerate(value):
            yield f"{',' if i else ''}\n{inner}"
            if isinstance(v, dict):
                yield from chunks(v, inner)
            else:
                yield v if isinstance(v, Raw) else _flat(v)
        yield f"\n{indent}]"
    elif isinstance(value, Spool):
        yield "[]"
    else:
        yield value if isinstance(value, Raw) else _flat(value)


_FLAT = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _flat(value) -> str:
    return _FLAT.encode(value)


def read(path: Path, shown: str | None = None) -> dict:
    """A manifest's content, or InputError saying why it cannot be used."""
    where = shown or str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError.at(where, None, f"cannot read it: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise InputError.at(where, None, f"not a manifest pnpgen can read ({exc}): rebuild that folder with "
                            "`pnpgen build`, or compare with a git revision") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise InputError.at(where, None, "not a manifest `pnpgen build` wrote: give the folder an earlier build "
                            "wrote (out/ or out/<game>/), a project folder or a git revision")
    if data.get("format") != FORMAT:
        raise InputError.at(where, None, f"written by another version of pnpgen (manifest format "
                            f"{data.get('format')!r}; this pnpgen reads format {FORMAT}): rebuild it with this "
                            "pnpgen (from the same cards), or compare with a git revision")
    return data
