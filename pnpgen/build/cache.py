"""The build cache: every sheet page drawn is kept, compressed, under a key made of what the
page prints, so the next build copies the pages whose cards did not change and draws only
the rest, and still writes the same bytes as a clean build.

What makes that safe. A page's content stream is a function of what it draws and of the
PDF's font state (which code each character got). reportlab hands out codes in order of
first use, so an edit on sheet 3 could re-code the text of sheet 40; instead every font of a
PDF is given all its characters up front, in code-point order (`seed_fonts`), and the key
includes that character set. What a page adds to the document besides its stream (the
forms and images it uses, transparency states) is recorded with it and replayed. A page the
recorder cannot vouch for (spot colours, anything unexpected) is simply not kept.

A page is kept under its content digest (what it prints, fonts aside) joined with the font
state (`PageKeys`). Beside the pages the store keeps, under each page's input key (what its
cards are made from: inputs.py), what laying it out told the build (facts.py), so that a
rebuild finds a page it can copy without laying it out; and, for each PDF, its key (every
page's key, its fonts and forms) and the digest of the file written, so that a PDF whose key
has not changed and that is still in place is not written again.

The store is one SQLite file, out/.cache/pages.sqlite; each PDF keeps only the pages and the
facts its last build used. What is read back is checked: every stored page carries a digest of
its bytes (and every facts row a checksum), so a damaged one is a miss and is drawn anew, never
copied into a PDF. Builds of the same out/ at once share the store safely: each waits its turn
(a busy timeout) to write it, and a store that is busy or unwritable is left as it is, never
taken for a damaged one and removed."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Callable

import reportlab
from reportlab.pdfbase import pdfmetrics

from .. import ops
from ..files import shown
from ..layout import svg
from ..layout.fingerprint import Fingerprints
from ..pdf.canvas import SheetPage
from ..pdf.replay import Entry

FORMAT = 3
"""Bumped when what is stored changes meaning; also the store's SQLite user_version, so a store
of another format is read as empty and its tables made anew at commit."""

BUSY_SECONDS = 120.0
"""How long a build waits for another build of the same out/ that is writing the store."""

TABLES = ("page", "used", "facts", "volume")
MEMO = 1024
"""How many slots, marks and shared bodies a PageKeys keeps what it made of."""


def _salt() -> str:
    """Drawing code and reportlab: a new version of either draws anew."""
    package = Path(__file__).parent.parent
    h = hashlib.sha256(f"{FORMAT}:{reportlab.Version}".encode())
    for path in sorted(package.glob("pdf/*.py")) + [package / "build/cache.py", package / "layout/fingerprint.py"]:
        h.update(path.read_bytes())
    return h.hexdigest()


_SALT: str | None = None


def charset(pages: list[SheetPage], forms: dict, slug_font: str) -> dict[str, str]:
    """Every font a PDF draws with, and the characters outside printable ASCII it draws:
    {font name: sorted characters}."""
    chars: dict[str, set] = {}
    seen: set[int] = set()      # bodies and texts walked already (a text every card shows: once a page)

    def take(font: str, text: str) -> None:
        found = chars.get(font)
        if found is None:
            found = chars[font] = set()
        if not (text.isascii() and text.isprintable()):    # (printable ASCII is left out below)
            found.update(text)

    def walk(body):
        for op in body:
            kind = type(op)
            if kind is ops.Text:
                if id(op) in seen:
                    continue
                seen.add(id(op))
                for _x, _y, runs in op.lines:
                    for run in runs:
                        if not run.icon:
                            take(run.font, run.text)
            elif kind is ops.Group:
                walk(op.body)

    for form in forms.values():
        walk(form.body)
    for page in pages:
        for _slot, body, _h, _shape in page.cards:
            if id(body) not in seen:
                seen.add(id(body))
                walk(body)
        if page.slug:
            take(slug_font, page.slug[1])
    # printable ASCII has fixed codes in every font (reportlab's asciiReadable), so only the
    # rest is seeded: a new ASCII letter in one title leaves every other page as it was
    return {font: "".join(sorted(c for c in cs if not (32 <= ord(c) < 128 or c == "\xa0")))
            for font, cs in sorted(chars.items())}


def font_key(fonts: dict[str, str]) -> str:
    """The seeded font state: names, characters and the files behind them."""
    h = hashlib.sha256()
    for name, chars in fonts.items():
        font = pdfmetrics.getFont(name)
        path = Path(getattr(font.face, "filename", "") or "")
        try:
            st = path.stat()
            where = f"{path}:{st.st_size}:{st.st_mtime_ns}"
        except OSError:
            where = str(path)
        h.update(f"{name}\0{where}\0{chars}\0".encode())
    return h.hexdigest()


class PageKeys:
    """A page's content digest (what it prints: its cards' drawings, marks and slug, not the
    PDF's font state) and the key its drawing is kept under (that digest with the font state)."""

    def __init__(self, forms: dict, root: Path, page_size: tuple, bleed: float):
        global _SALT
        if _SALT is None:
            _SALT = _salt()
        self.fp = Fingerprints(forms, root)
        self.base = f"{_SALT}:{page_size}:{bleed}"
        self._made: dict[tuple, tuple] = {}     # ids of objects -> (the objects, what was made of them)

    def content(self, page: SheetPage, known: dict[int, str] | None = None) -> str:
        """The page's content digest; `known`: digests of its bodies computed already (the
        manifest's), by id of the body, taken as they are rather than walked again. What the
        sheet's pages share (a slot, the marks, a common back) is put in bytes once."""
        parts = [self.base.encode()]
        for slot, body, card_h, shape in page.cards:
            d = known.get(id(body)) if known else None
            if d is None:
                d = self._once((body,), lambda: self.fp.face(body))
            where, path = self._once((slot, card_h, shape), lambda: (
                f"({slot.clip!r}, {slot.transform!r}, {card_h!r}, {shape!r}, ".encode(),
                repr(slot.path).encode() if slot.path else b""))    # (a polygon's clip: its back page has no cut lines)
            parts += (where, f"{d!r}, {form_names(body)!r})".encode(), path)
        parts.append(self._once((page.ticks, page.marks, page.cuts),
                                lambda: repr((page.ticks, page.marks, page.cuts)).encode()))
        if page.slug:
            s = page.slug[0].slug
            parts.append(repr((s.x, s.y, s.angle, s.height, page.slug[1])).encode())
        return hashlib.sha256(b"".join(parts)).hexdigest()

    def _once(self, objects: tuple, make):
        """What `make()` makes of `objects`, made once while they are alive: kept with them,
        so that no other object can have their ids meanwhile."""
        key = tuple(map(id, objects))
        entry = self._made.get(key)
        if entry is None:
            if len(self._made) >= MEMO:
                self._made.clear()
            entry = self._made[key] = (objects, make())
        return entry[1]

    def drawn(self, content: str, fonts: str) -> str:
        """The key of a page of content digest `content` drawn with the font state `fonts` (font_key)."""
        return hashlib.sha256(f"{self.base}:{fonts}:{content}".encode()).hexdigest()


def form_names(body) -> tuple[str, ...]:
    """The forms a body draws, by name. A digest knows a form by what it draws, but a page's
    stream calls it by name, and a template's forms are numbered by element: with an element
    taken out before it, the same drawing has another name, and a kept page would call a form
    the new PDF does not have."""
    out = []
    for op in body:
        kind = type(op)
        if kind is ops.Form:
            out.append(op.name)
        elif kind is ops.Group:
            out.extend(form_names(op.body))
    return tuple(out)


def page_images(page: SheetPage) -> list[str]:
    """The image sources a page draws outside forms, in order of first use (an SVG by its
    `svg.replay_key`: its form is defined where the page first draws it)."""
    out: list[str] = []

    def walk(body):
        for op in body:
            kind = type(op)
            if kind is ops.Image or kind is ops.Svg:
                key = op.src if kind is ops.Image else svg.replay_key(op.src, op.color)
                if key not in out:
                    out.append(key)
            elif kind is ops.Group:
                walk(op.body)

    seen = set()
    for _slot, body, _h, _shape in page.cards:
        if id(body) not in seen:
            seen.add(id(body))
            walk(body)
    return out


class PageCache:
    """The on-disk store of drawn pages, or nothing at all when `path` is None. Pages drawn by
    this build (and which pages each PDF uses) go to a private temporary database, not to
    memory, until `commit`, which a build calls only once all its files are in place and
    which copies them into the store: a failed build leaves no new file in out/, not even
    the cache."""

    def __init__(self, path: Path | None, note: Callable[[str], None] = lambda message: None):
        self.path = path
        self.note = note    # says what the cache could not use or keep (a build's progress line)
        self.db = None      # the store as the last build left it: pages to copy
        self.new = None     # this build's pages and the pages each of its PDFs uses (_new)
        self.added = 0      # pages put into `new`
        self.damaged = 0    # kept pages that failed their check (drawn anew)
        if path is not None and path.is_file():
            self.db = _open_store(path)

    def _new(self):
        if self.new is None and self.path is not None:
            self.new = _open("")    # SQLite's private temporary database: spills to disk, gone when closed
        return self.new

    def get(self, key: str) -> Entry | None:
        """The page kept under `key`, or None: none kept, or the one kept fails its check (a
        damaged page is drawn anew, and the new drawing takes its place at commit)."""
        for db in (self.new if self.added else None, self.db):
            if db is None:
                continue
            try:
                row = db.execute("SELECT content, meta, checksum FROM page WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error:
                continue
            if row is None:
                continue
            entry = _entry(key, *row)
            if entry is not None:
                return entry
            self.damaged += 1
            self.note(f"{shown(self.path)}: a kept page ({key[:12]}) is damaged (it fails its check); "
                      "drawing it anew")
        return None

    def holds(self, key: str) -> bool:
        """Whether the store (as the last build left it) has the page `key`."""
        if self.db is None:
            return False
        try:
            return self.db.execute("SELECT 1 FROM page WHERE key = ?", (key,)).fetchone() is not None
        except sqlite3.Error:
            return False

    def held(self, keys: list[str]) -> set[str]:
        """Which of the pages `keys` this build or the last one kept (asked of the store a few
        hundred keys at a time)."""
        found: set[str] = set()
        for db in (self.new if self.added else None, self.db):
            if db is None:
                continue
            try:
                found.update(key for (key,) in _rows_of(db, "SELECT key FROM page", keys))
            except sqlite3.Error:
                pass
        return found

    def facts(self, keys: list[str]) -> dict[str, str]:
        """The facts the last build kept for these page input keys (as their text), those whose
        check still matches: a damaged row is left out, as if never kept."""
        found: dict[str, str] = {}
        if self.db is None:
            return found
        try:
            for key, data, check in _rows_of(self.db, "SELECT key, data, checksum FROM facts", keys):
                if isinstance(data, str) and check == _check(key, data):
                    found[key] = data
        except sqlite3.Error:
            return {}
        return found

    def put_facts(self, key: str, data: str) -> None:
        db = self._new()
        if db is None:
            return
        try:
            db.execute("INSERT OR REPLACE INTO facts VALUES (?, ?, ?)", (key, data, _check(key, data)))
        except sqlite3.Error:
            pass

    def volume(self, pdf: str) -> tuple[str, str] | None:
        """(key, file digest) of the PDF `pdf` as the last build wrote it."""
        if self.db is None:
            return None
        try:
            row = self.db.execute("SELECT key, digest FROM volume WHERE pdf = ?", (pdf,)).fetchone()
        except sqlite3.Error:
            return None
        return (row[0], row[1]) if row else None

    def put_volume(self, pdf: str, key: str, digest: str) -> None:
        db = self._new()
        if db is None:
            return
        try:
            db.execute("INSERT OR REPLACE INTO volume VALUES (?, ?, ?)", (pdf, key, digest))
        except sqlite3.Error:
            pass

    def put(self, key: str, entry: Entry) -> None:
        db = self._new()
        if db is None:
            return
        meta = json.dumps({"forms": entry.forms, "images": entry.images,
                           "gstates": [[list(t), name] for t, name in entry.gstates]})
        try:
            db.execute("INSERT OR REPLACE INTO page VALUES (?, ?, ?, ?)",
                       (key, entry.content, meta, _page_check(key, entry.content, meta)))
            self.added += 1
        except sqlite3.Error:
            pass

    def keep(self, pdf: str, keys: list[str]) -> None:
        """Remember that `pdf` uses exactly these pages and facts (the others it used go at commit)."""
        db = self._new()
        if db is None:
            return
        try:
            db.execute("DELETE FROM used WHERE pdf = ?", (pdf,))
            db.executemany("INSERT OR IGNORE INTO used VALUES (?, ?)", [(pdf, k) for k in keys])
        except sqlite3.Error:
            pass

    def commit(self) -> None:
        """Copy the new pages into the store and forget the ones no PDF uses any more. A
        store SQLite cannot read is replaced; one that stays busy or cannot be written is
        left as it is (this build's pages are not kept)."""
        if self.new is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        if self.db is not None:        # (this build's own reading connection: closed before it writes)
            self.db.close()
            self.db = None
        new = self.new
        new.commit()
        for attempt in range(2):
            try:
                _copy_into_store(new, self.path)
                break
            except sqlite3.OperationalError as exc:    # busy past the timeout, read-only, disk full
                self.note(f"{shown(self.path)}: this build's pages not kept ({exc}); the next build draws them")
                break
            except sqlite3.DatabaseError:              # not a database, or a damaged one: start it again
                self.note(f"{shown(self.path)}: damaged; made anew")
                if attempt or not _removed(self.path):
                    break
        with new:
            for table in TABLES:
                new.execute(f"DELETE FROM {table}")
        self.added = 0

    def close(self) -> None:
        for db in (self.db, self.new):
            if db is not None:
                try:
                    db.close()
                except sqlite3.Error:
                    pass
        self.db = self.new = None


def prune_images(converted, store: Path, game: str) -> None:
    """After a build of `game`: remove its resampled art (out/.cache/images) that no page the
    page store at `store` keeps for its PDFs draws and that this build did not ask for
    (`converted`: layout/resources.py's Converted, with its ImageStore)."""
    if not converted.store.stale():
        return
    drawn = _images_drawn(store, game)
    if drawn is not None:
        converted.store.prune({name for name in map(converted.entry_name, drawn) if name is not None})


def _images_drawn(path: Path, game: str) -> set[str] | None:
    """The image keys (ops' `src`) of every page the store at `path` keeps for the PDFs of
    `game`: the art its PDFs draw, whether this build wrote them or left them in place.
    None when the store cannot be read (then nothing is known to be unused)."""
    db = _open_store(path)
    if db is None:
        return None
    prefix = f"{game}/"
    found: set[str] = set()
    try:
        rows = db.execute("SELECT page.meta FROM used JOIN page ON page.key = used.key "
                          "WHERE substr(used.pdf, 1, ?) = ?", (len(prefix), prefix))
        for (meta,) in rows:
            found.update(src for src in json.loads(meta)["images"] if isinstance(src, str))
    except (sqlite3.Error, ValueError, KeyError, TypeError):
        return None
    finally:
        db.close()
    return found


def _tables(db, schema: str = "") -> None:
    db.execute(f"CREATE TABLE IF NOT EXISTS {schema}page (key TEXT PRIMARY KEY, content BLOB, meta TEXT, "
               "checksum TEXT)")
    db.execute(f"CREATE TABLE IF NOT EXISTS {schema}used (pdf TEXT, key TEXT, PRIMARY KEY (pdf, key))")
    db.execute(f"CREATE TABLE IF NOT EXISTS {schema}facts (key TEXT PRIMARY KEY, data TEXT, checksum TEXT)")
    db.execute(f"CREATE TABLE IF NOT EXISTS {schema}volume (pdf TEXT PRIMARY KEY, key TEXT, digest TEXT)")


def _copy_into_store(new, path: Path) -> None:
    """This build's pages, facts and volumes (in `new`) into the store at `path`, in one
    transaction that holds the store from its start (BEGIN IMMEDIATE: another build writing
    it is waited for, never interleaved with); a store of another format is emptied first."""
    new.execute("ATTACH DATABASE ? AS store", (str(path),))
    try:
        new.execute("BEGIN IMMEDIATE")
        with new:
            if new.execute("PRAGMA store.user_version").fetchone()[0] != FORMAT:
                for table in TABLES:
                    new.execute(f"DROP TABLE IF EXISTS store.{table}")
                new.execute(f"PRAGMA store.user_version = {FORMAT}")
            _tables(new, "store.")
            _touched(new)
            for table in ("page", "facts", "volume"):
                new.execute(f"INSERT OR REPLACE INTO store.{table} SELECT * FROM {table}")
            new.execute("DELETE FROM store.used WHERE pdf IN (SELECT DISTINCT pdf FROM used)")
            new.execute("INSERT OR IGNORE INTO store.used SELECT * FROM used")
            new.execute("DELETE FROM temp.touched WHERE key IN (SELECT key FROM store.used)")
            for table in ("page", "facts"):     # (what no PDF uses now: the other keys' use is as it was)
                new.execute(f"DELETE FROM store.{table} WHERE key IN (SELECT key FROM temp.touched)")
            new.execute("DELETE FROM store.volume WHERE pdf NOT IN (SELECT pdf FROM store.used)")
    finally:
        try:
            new.execute("DETACH DATABASE store")
        except sqlite3.Error:
            pass


def _rows_of(db, select: str, keys: list[str]):
    """The rows `select` (a query of one table, with no WHERE) gives for these keys, asked a
    few hundred keys at a time (SQLite caps the values one statement takes)."""
    for start in range(0, len(keys), 500):
        chunk = keys[start:start + 500]
        yield from db.execute(f"{select} WHERE key IN ({','.join('?' * len(chunk))})", chunk).fetchall()


def _touched(new) -> None:
    """The keys whose use this commit may change, in temp.touched: the ones this build's PDFs
    used before it, and the ones it adds. Every other kept page and facts row is used, as the
    last commit left it, so only these need looking at to drop what no PDF uses any more."""
    new.execute("CREATE TEMP TABLE IF NOT EXISTS touched (key TEXT PRIMARY KEY)")
    new.execute("DELETE FROM temp.touched")
    new.execute("INSERT OR IGNORE INTO temp.touched SELECT key FROM store.used "
                "WHERE pdf IN (SELECT DISTINCT pdf FROM used)")
    new.execute("INSERT OR IGNORE INTO temp.touched SELECT key FROM page UNION SELECT key FROM facts")


def _removed(path: Path) -> bool:
    try:
        path.unlink()
        return True
    except OSError:
        return False


def _check(key: str, data: str) -> str:
    """A facts row's checksum: a row changed by anything but this code no longer matches."""
    return hashlib.sha256(f"{key}\0{data}".encode()).hexdigest()[:32]


def _page_check(key: str, content: bytes, meta: str) -> str:
    """A stored page's digest: of its key, what it adds to the PDF and its content stream."""
    h = hashlib.sha256(f"{key}\0{meta}\0".encode())
    h.update(content)
    return h.hexdigest()


def _entry(key: str, content, meta, checksum) -> Entry | None:
    """A stored page as an Entry, or None when its row fails its digest or is not the shape
    `put` writes."""
    if not isinstance(content, bytes) or not isinstance(meta, str) or checksum != _page_check(key, content, meta):
        return None
    try:
        parsed = json.loads(meta)
        return Entry(content, parsed["forms"], parsed["images"], [(tuple(t), name) for t, name in parsed["gstates"]])
    except (ValueError, KeyError, TypeError):
        return None


def _open_store(path: Path):
    """A connection to the store as the last build left it, or None when it is of another
    format or cannot be read (built around as if there were none)."""
    db = _open(str(path), tables=False)
    try:
        if db is not None and db.execute("PRAGMA user_version").fetchone()[0] == FORMAT:
            return db
    except sqlite3.Error:
        pass
    if db is not None:
        db.close()
    return None


def _open(where: str, tables: bool = True):
    """A connection (with the cache's tables, if `tables`), or None: a damaged or unwritable
    cache is built around as if clean."""
    try:
        db = sqlite3.connect(where, timeout=BUSY_SECONDS)
        db.execute("PRAGMA cache_size = -512")     # KiB of pages held in memory (SQLite's default is 2 MB)
        if tables:
            _tables(db)
        return db
    except (OSError, sqlite3.Error):
        return None
