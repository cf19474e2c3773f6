"""A long deck file read again after an edit: the card entries the edit did not touch are
taken as the last build checked them, and only those around the edit are parsed again.

After a build reads a deck file of at least MIN_BYTES whole (its cards a block list, last in
the file; no anchor, alias, merge or directive anywhere; only \\n or \\r\\n line breaks), it
keeps a memo under out/.cache/decks/<game>: the file's bytes, where each card entry starts
(its line and byte, at the list's dash column) and the checked entries, column by column,
behind a digest of it all (a memo that fails it is not used). The next build compares the file
with the memo's bytes: the text they share at the start and at the end is unchanged, so only
the entries overlapping the rest, with one more on each side, are parsed again, as a document
of their own (`cards:` over those lines), and checked; the entries before them keep their
lines, those after move by the lines the edit added or removed. Anything else (an edit above
the first card, a fragment that does not read as entries of the same list, a problem in an
entry, a memo made by other code) is answered by reading the file whole, so the result and
every message are those of a whole read."""

from __future__ import annotations

import hashlib
import io
import json
from array import array
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from .. import files
from ..errors import InputError
from ..sources import yamlsrc

MIN_BYTES = 200_000
"""Smaller deck files are read whole: keeping a memo would cost about what it saves."""
FORMAT = 2
"""Raised when what a memo holds changes shape."""
NUMBERS = ("starts", "offsets", "sizes", "lines", "counts", "numbers", "rows")
"""A memo's per-entry whole numbers, each kept as an array("l") (`rows`: each entry's own
line, 0: none; `lines`, `counts`, `numbers`: the card table's columns)."""


@dataclass
class Memo:
    """What a whole read of a deck file left: its bytes (`source`) and, per card entry, where
    it starts (`starts` lines, `offsets` bytes), how many values it counts (`sizes`) and its
    checked row: `values` (column by column), `lines`, `counts`, `numbers`, `templates`,
    `backs`, `own` (bytes: 1 where the entry names its template) and `rows`. `head` is the
    mapping before `cards:`, `header` the lines of everything but the entries, `deep` the
    lines kept inside entries ([entry, rest of the location, line]), `nodes` the file's count of
    values and `column` its list's dash column."""

    source: bytes
    head: dict
    header: list
    column: int
    nodes: int
    values: list
    templates: list
    backs: list
    own: bytes
    deep: list
    starts: array
    offsets: array
    sizes: array
    lines: array
    counts: array
    numbers: array
    rows: array


@dataclass
class Edit:
    """The entries `first` to `last` of a memo, replaced in the new file by `fragment` (None:
    the file is as it was); it starts at line `line`, and what follows it moved by `lines`
    lines and `shift` bytes."""

    first: int
    last: int
    fragment: bytes | None
    line: int
    lines: int
    shift: int


@dataclass
class Fresh:
    """The entries of an edit's fragment, parsed: each entry's value, first line, byte
    offset (in the file) and size, and the lines of every location inside them (as
    ("cards", entry of the fragment, ...) -> line in the file)."""

    items: list
    starts: list
    offsets: list
    sizes: list
    lines: dict


class Kept:
    """Where a game's memos are kept (out/.cache/decks/<game>) and the code they are good
    for. A memo is one file: a line with the digest of the rest and the length of its JSON
    part, the JSON part, then the file's bytes and each array of NUMBERS, each read straight
    into its own object."""

    def __init__(self, folder: Path, code: str):
        self.folder, self.code = folder, code
        self.asked: set[str] = set()      # the memos this load asked for or kept

    def _entry(self, path: Path) -> tuple[Path, str]:
        real = str(path.resolve())
        entry = self.folder / (hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:32] + ".deck")
        self.asked.add(entry.name)
        return entry, real

    def prune(self) -> None:
        """Remove the memos of the folder (one game's) that this load did not ask for: of deck
        files gone, renamed or now too short."""
        try:
            stale = [entry for entry in self.folder.glob("*.deck") if entry.name not in self.asked]
        except OSError:
            return
        for entry in stale:
            files.remove_quietly(entry)

    def recall(self, path: Path) -> Memo | None:
        """The memo of the deck file at `path`, or None (none kept, unreadable, damaged, or
        another code's)."""
        entry, real = self._entry(path)
        try:
            with open(entry, "rb") as f:
                digest, size = f.readline(100).split()
                check = hashlib.sha256(text := f.read(int(size)))
                kept = json.loads(text)
                if kept.pop("format") != FORMAT or kept.pop("code") != self.code or kept.pop("path") != real \
                        or kept.pop("itemsize") != array("l").itemsize:
                    return None
                parts = {}
                for name in ("source", "own", *NUMBERS):
                    parts[name] = f.read(kept.pop(name))
                    check.update(parts[name])
                if check.hexdigest().encode() != digest or f.read(1):
                    return None        # (damaged: a bad disk, a copy cut short, a hand edit)
            kept["header"] = [(tuple(loc), line) for loc, line in kept["header"]]
            kept["deep"] = [(i, tuple(rest), line) for i, rest, line in kept["deep"]]
            for name in NUMBERS:
                parts[name] = array("l", parts[name])
            memo = Memo(**kept, **parts)
            if not _sound(memo):
                return None
            _share_texts(memo.values)
            return memo
        except (OSError, ValueError, TypeError, KeyError, AttributeError, OverflowError):
            return None

    def keep(self, path: Path, memo: Memo) -> None:
        """Keep `memo` for the deck file at `path`; a folder that cannot be written is no error."""
        entry, real = self._entry(path)
        parts = [memo.source, memo.own, *(memoryview(getattr(memo, name)).cast("B") for name in NUMBERS)]
        state = {"format": FORMAT, "code": self.code, "path": real, "itemsize": array("l").itemsize,
                 "head": memo.head, "header": memo.header, "column": memo.column, "nodes": memo.nodes,
                 "values": memo.values, "templates": memo.templates, "backs": memo.backs, "deep": memo.deep,
                 **{name: len(part) for name, part in zip(("source", "own", *NUMBERS), parts)}}
        try:
            text = json.dumps(state, ensure_ascii=True, separators=(",", ":")).encode()
            check = hashlib.sha256(text)
            for part in parts:
                check.update(part)
            entry.parent.mkdir(parents=True, exist_ok=True)
            files.write_atomically(entry, [check.hexdigest().encode() + b" %d\n" % len(text), text, *parts])
        except (OSError, ValueError, TypeError, InputError):
            pass


def _sound(memo: Memo) -> bool:
    """Whether a memo holds what a build keeps, as to shape and type (it raises TypeError or
    ValueError where not), so that nothing a hand edit made of it reaches the build. (Its
    digest tells damage; like the page cache, it is not proof against a forged one.)"""
    n = len(memo.starts)
    columns = [memo.values, memo.templates, memo.backs, memo.header, memo.deep]
    if not n or type(memo.head) is not dict or not all(type(c) is list for c in columns):
        return False
    if not all(len(c) == n for c in [memo.own, memo.templates, memo.backs, *memo.values,
                                     *(getattr(memo, name) for name in NUMBERS)]):
        return False
    if not all(type(c) is list for c in memo.values):
        return False
    "".join(memo.templates) + "".join(b for b in memo.backs if b is not None)
    array("l", [memo.column, memo.nodes, *(line for _, line in memo.header), *(i for i, _, _ in memo.deep),
                *(line for _, _, line in memo.deep)])
    if not all(type(loc) is tuple for loc, _ in memo.header):
        return False
    return all(type(rest) is tuple for _, rest, _ in memo.deep)


def _share_texts(columns: list) -> None:
    """A text many entries repeat kept once, as a whole read keeps it (yamlsrc)."""
    strings: dict = {}
    for column in columns:
        column[:] = [strings.setdefault(v, v) if v.__class__ is str else v for v in column]


def starts_at(data: bytes, starts: list, column: int, first_line: int = 1, base: int = 0) -> tuple | None:
    """Where the entries that start on lines `starts` of `data` (whose first line is line
    `first_line`) begin: the line of each one's dash, at `column` after nothing but spaces, on
    the entry's first line or alone on the line above it; and that line's byte offset (plus
    `base`). None if an entry has no such dash."""
    lines, offsets, line, at, above = [], [], first_line, 0, -1
    for start in starts:
        while line < start:
            above, at = at, data.find(b"\n", at) + 1
            if at == 0:
                return None
            line += 1
        if _dash(data, at, column, False):
            lines.append(line)
            offsets.append(base + at)
        elif above >= 0 and _dash(data, above, column, True) and (not offsets or offsets[-1] < base + above):
            lines.append(line - 1)
            offsets.append(base + above)
        else:
            return None
    return lines, offsets


def _dash(data: bytes, at: int, column: int, alone: bool) -> bool:
    """Whether the line at byte `at` holds a dash at `column` after spaces (and, if `alone`,
    nothing after it)."""
    if data[at + column:at + column + 1] != b"-" or data[at:at + column].strip(b" "):
        return False
    end = data.find(b"\n", at)
    return not alone or not data[at + column + 1:end if end >= 0 else len(data)].strip(b" \r")


_OTHER_BREAKS = (b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
"""Line breaks YAML knows besides \\n and \\r\\n (NEL, LS, PS): text with one of them, or with a
lone \\r, is read whole (this module counts lines by \\n, as libyaml then would not)."""


def plain_breaks(data: bytes) -> bool:
    """Whether every line break in `data` is \\n or \\r\\n."""
    return (b"\r" not in data or b"\r" not in data.replace(b"\r\n", b"")) and \
        not any(b in data for b in _OTHER_BREAKS)


def find_edit(memo: Memo, data: bytes) -> Edit | None:
    """Which of the memo's entries the new bytes `data` replace, or None when the edit
    reaches above the first entry."""
    old, n = memo.source, len(memo.starts)
    if old == data:
        return Edit(n, n - 1, None, 0, 0, 0)
    same = _shared_start(old, data)
    tail = _shared_end(old, data, min(len(old), len(data)) - same)
    if same < memo.offsets[0]:
        return None
    first = max(0, bisect_right(memo.offsets, same) - 1 - 1)
    last = min(n - 1, bisect_right(memo.offsets, max(same, len(old) - tail - 1)) - 1 + 1)
    start = memo.offsets[first]
    end = memo.offsets[last + 1] if last + 1 < n else len(old)
    shift = len(data) - len(old)
    if end + shift < start:
        return None
    fragment = data[start:end + shift]
    if not plain_breaks(fragment):
        return None
    return Edit(first, last, fragment, memo.starts[first], fragment.count(b"\n") - old.count(b"\n", start, end), shift)


def _shared_start(a: bytes, b: bytes) -> int:
    """How many bytes `a` and `b` share at their start."""
    n, step, at = min(len(a), len(b)), 1 << 14, 0
    while at < n and a[at:at + step] == b[at:at + step]:
        at += step
    while at < n and a[at] == b[at]:
        at += 1
    return min(at, n)


def _shared_end(a: bytes, b: bytes, limit: int) -> int:
    """How many bytes (at most `limit`) `a` and `b` share at their end."""
    step, k, la, lb = 1 << 14, 0, len(a), len(b)
    while k + step <= limit and a[la - k - step:la - k] == b[lb - k - step:lb - k]:
        k += step
    while k < limit and a[la - k - 1] == b[lb - k - 1]:
        k += 1
    return k


_ABOVE = b"_: 0\ncards:\n"
"""Above a fragment: a key on the document's first line and `cards:` on the next, so the
entries' lines are recorded as in the file (where `cards:` is not the first line either)."""


def parse(memo: Memo, edit: Edit, shown) -> Fresh | None:
    """The entries of `edit`'s fragment, read as `cards:` over those lines would be, or None
    when they do not read as plain entries of the same list (the file is then read whole)."""
    items: list = []
    stream = yamlsrc.Stream("cards", lambda doc, i, item, head: items.append(item), spans=yamlsrc.Spans())
    text = _ABOVE + edit.fragment
    try:
        doc = yamlsrc.loads(io.BytesIO(text), shown, stream)
    except InputError:
        return None
    spans = stream.spans
    if (stream.count is None or stream.late or not spans.plain or spans.column != memo.column
            or not isinstance(doc.data, dict) or list(doc.data) != ["_", "cards"]
            or not all(isinstance(item, dict) for item in items)):
        return None
    to_file = edit.line - 3             # (the fragment's first line is the file's line edit.line)
    found = starts_at(text, spans.starts, memo.column, 1, memo.offsets[edit.first] - len(_ABOVE))
    if found is None:
        return None
    lines = {loc: line + to_file for loc, line in doc.lines.items()
             if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int)}
    return Fresh(items, [s + to_file for s in found[0]], found[1], spans.sizes, lines)
