"""Safe YAML loading that remembers the line of every value.

Card data is untrusted: we compose the node graph with PyYAML's safe loader, then build
plain Python values ourselves, so that (1) no arbitrary objects can be constructed,
(2) alias expansion is bounded ("billion laughs"), (3) duplicate keys are errors, (4) how
deep values nest and how many digits a number has are bounded, and (5) every value's line
is known, letting validation errors say `file:line`.
"""

from __future__ import annotations

import copy
import hashlib
import io
import marshal
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml

from ..errors import InputError

MAX_FILE_BYTES = 5_000_000
MAX_NODES = 200_000  # values produced after alias expansion, per file
MAX_DEPTH = 64       # lists and mappings inside one another (card data needs a handful)
MAX_DIGITS = 30      # digits of a whole number (a longer one is an id: quote it as text)

Path_ = tuple  # a location inside the document, e.g. ("cards", 3, "title")


@dataclass
class Doc:
    """A loaded YAML file: its data and the line of each location in it."""

    path: Path
    data: object
    lines: dict = field(default_factory=dict)
    rows: dict = field(default_factory=dict)   # list key -> array of each item's line (0: none of its own)

    def line(self, loc: Path_) -> int | None:
        """The line of `loc`, or of its nearest enclosing value that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            if len(loc) == 2 and loc[0] in self.rows and isinstance(loc[1], int) and 0 <= loc[1] < len(
                    self.rows[loc[0]]) and self.rows[loc[0]][loc[1]]:
                return self.rows[loc[0]][loc[1]]
            loc = loc[:-1]
        return self.lines.get(())

    def error(self, loc: Path_, message: str) -> InputError:
        return InputError.at(self.path, self.line(loc), message)


@dataclass
class Stream:
    """Hand the items of one top-level list to `take` as they are read instead of keeping
    them, so that a 20,000-card deck is never 20,000 raw mappings at once. `take(doc, i, item,
    head)` gets each item with the top-level mapping as read so far (`head`: the keys written
    before the list). When more top-level keys follow the list, `late` is set: the heads
    `take` saw were not the whole mapping, and the caller reads the file again whole."""

    key: str
    take: Callable[[Doc, int, object, dict], None]
    count: int | None = None     # items handed over (None: the list was not streamed)
    late: bool = False
    spans: Spans | None = None   # where each item is, when asked for (game/reread.py)


@dataclass
class Spans:
    """Where a streamed list's items are in their file, for reading it again after an edit
    (game/reread.py): the list's indentation, each item's first line and size."""

    column: int = -1          # the column of the list's dashes (-1: a [flow] list)
    starts: list = field(default_factory=list)   # each item's first line
    sizes: list = field(default_factory=list)    # how many values each item counts toward MAX_NODES
    nodes: int = 0            # how many the whole file counts
    plain: bool = True        # no anchor, alias or merge (<<) anywhere in the file


def load(path: Path, display: Path | str | None = None, stream: Stream | None = None) -> Doc:
    """Load one YAML file safely. Raises InputError on any problem."""
    shown = display or path
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError.at(shown, None, f"cannot read file: {exc.strerror}")
    if size > MAX_FILE_BYTES:
        raise InputError.at(shown, None, f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")
    try:
        if stream is None and size <= READ_AGAIN_BYTES:
            return _read_again(path.read_bytes(), shown)
        # the parser reads the file in pieces: a 3 MB deck file is never held whole, twice
        # (as text, and as the UTF-8 bytes PyYAML would make of it for libyaml)
        with open(path, "rb") as source:
            return loads(source, shown, stream)
    except OSError as exc:
        raise InputError.at(shown, None, f"cannot read file: {exc.strerror}")


READ_AGAIN_BYTES = 256_000
"""A file this small is remembered, by its bytes, once read (see _read_again)."""
READ_AGAIN_FILES = 512
"""How many files a process remembers (past that, it starts again)."""
_read: dict[bytes, bytes] = {}


def _read_again(data: bytes, shown) -> Doc:
    """The Doc of a small file's bytes: as this process read the same bytes before, when it
    did (a preview reloads a game on every save, and the game's templates rarely changed;
    `pnpgen changes` reads two states of one game), unmarshalled afresh so that no two
    callers share a value; else parsed. (A file marshal cannot write, a date in it, is
    parsed each time.)"""
    key = hashlib.sha256(data).digest()
    kept = _read.get(key)
    if kept is not None:
        value, lines, rows = marshal.loads(kept)
        return Doc(Path(str(shown)), value, lines, rows)
    doc = loads(io.BytesIO(data), shown)
    try:
        kept = marshal.dumps((doc.data, doc.lines, doc.rows))
    except ValueError:
        return doc
    if len(_read) >= READ_AGAIN_FILES:
        _read.clear()
    _read[key] = kept
    return doc


# libyaml's parser when PyYAML has it (about 10x faster); the same safe constructor either way
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_tags: dict = {}


class _Loader(_Base):
    def resolve(self, kind, value, implicit):
        # keys and repeated values resolve to the same tag: remember it (the regex scan is slow)
        if kind is yaml.ScalarNode:
            key = (value, implicit)
            tag = _tags.get(key)
            if tag is None:
                if len(_tags) > 1024:    # keys and common values recur; card titles do not
                    _tags.clear()
                tag = _tags[key] = super().resolve(kind, value, implicit)
            return tag
        return super().resolve(kind, value, implicit)


def loads(text, shown, stream: Stream | None = None) -> Doc:
    """Parse `text` (a string, or a binary file open for reading) event by event into plain
    values and their lines. No node graph is kept (a 20,000-card deck's graph would take
    several times the memory of its values); with `stream`, the items of one top-level list
    are not kept either (see Stream)."""
    loader = _Loader(text)
    doc = Doc(Path(str(shown)), None)
    try:
        loader.get_event()                                   # stream start
        if loader.check_event(yaml.StreamEndEvent):
            doc.lines[()] = 1
            return doc
        loader.get_event()                                   # document start
        builder = _Builder(doc, loader, stream)
        doc.data = builder.value((), None)
        if stream is not None and stream.spans is not None:
            stream.spans.nodes = builder.count
        loader.get_event()                                   # document end
        if not loader.check_event(yaml.StreamEndEvent):
            event = loader.peek_event()
            raise InputError.at(shown, event.start_mark.line + 1, "a second YAML document ('---') is not "
                                "allowed; keep one document per file")
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError.at(shown, line, f"invalid YAML: {problem}; check indentation, colons and quotes")
    except yaml.reader.ReaderError as exc:     # bytes that are not UTF-8, or a control character
        line = _line_at(text, exc.position)
        if isinstance(exc.character, int) and exc.character >= 0 and "UTF" not in str(exc.reason):
            raise InputError.at(shown, line, f"character U+{exc.character:04X} is not allowed in YAML "
                                f"({exc.reason}); delete it, or write it as an escape in a quoted text") from None
        raise InputError.at(shown, line, f"not UTF-8 text ({exc.reason}); save the file as UTF-8") from None
    finally:
        loader.dispose()
    return doc


def _line_at(source, offset: int) -> int | None:
    """The line of a byte offset into `source` (a string or a binary file), for a reader error."""
    try:
        if isinstance(source, str):
            data = source.encode("utf-8", "surrogatepass")[:offset]
        else:
            source.seek(0)
            data = source.read(offset)
        return data.count(b"\n") + 1
    except (OSError, ValueError, TypeError):
        return None


def _depth(value) -> int:
    """How many lists and mappings deep `value` goes (0 for a plain value)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


_PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
_MERGE = "tag:yaml.org,2002:merge"
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_DECIMAL = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?")
"""A float as most are written (no `_`, no base-60): read by float() as PyYAML reads it."""
_Scalar, _Alias, _MappingStart, _MappingEnd, _SequenceStart = (
    yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.MappingEndEvent, yaml.SequenceStartEvent)


class _Builder:
    """Builds values from parser events, recording the line of every location. An alias
    repeats its anchor's value (a copy) and lines, and counts toward MAX_NODES."""

    def __init__(self, doc: Doc, loader, stream: Stream | None = None):
        self.doc = doc
        self.loader = loader
        self.stream = stream
        self.count = 0
        self.anchors: dict[str, tuple] = {}   # anchor -> (value, [(relative loc, line)], size)
        self.strings: dict[str, str] = {}

    def _counted(self, n: int, line: int) -> None:
        self.count += n
        if self.count > MAX_NODES:
            raise InputError.at(self.doc.path, line, f"document expands to more than {MAX_NODES} values "
                                "(too many aliases?); simplify the anchors (&) and aliases (*)")

    def _nested(self, depth: int, line: int) -> None:
        if depth > MAX_DEPTH:
            raise InputError.at(self.doc.path, line, f"lists and mappings nested more than {MAX_DEPTH} deep; "
                                "card data needs only a few levels: check the brackets and indentation")

    def value(self, loc, parent: int | None):
        """The value at `loc`; its line is recorded only where it differs from `parent`'s
        (Doc.line falls back to the nearest recorded ancestor, so nothing is lost, and a deck
        of one-line card entries keeps one line a card instead of one a field)."""
        return self._value_of(self.loader.get_event(), loc, parent)

    def _value_of(self, event, loc, parent: int | None):
        """The value at `loc` that `event` starts (see `value`)."""
        line = event.start_mark.line + 1
        kind = type(event)
        if kind is _Alias:
            return self._alias(event, loc, line)
        self.count += 1
        if self.count > MAX_NODES:
            self._counted(0, line)
        lines = self.doc.lines
        if line != parent or not loc:
            lines.setdefault(loc, line)
        if kind is _Scalar and not event.anchor:     # (most values: read straight off the event)
            return self._scalar(event)
        shown = lines.get(loc, parent)   # the line a lookup of `loc` answers
        start, count = len(lines), self.count
        if kind is _Scalar:
            out = self._scalar(event)
        elif kind is _MappingStart or kind is _SequenceStart:
            self._nested(len(loc) + 1, line)
            if event.tag not in (None, "!") and event.tag not in _PLAIN_TAGS:
                raise InputError.at(self.doc.path, line, f"YAML tag {event.tag!r} is not allowed; card data is "
                                    "plain mappings, lists and values")
            out = self.mapping(loc, shown) if kind is _MappingStart else self.sequence(loc, shown)
        else:   # pragma: no cover - the parser only yields the events above here
            raise InputError.at(self.doc.path, line, "unexpected YAML structure")
        if event.anchor:
            self._not_plain()
            lines = [(k[len(loc):], v) for k, v in list(self.doc.lines.items())[start - 1:] if k[:len(loc)] == loc]
            self.anchors[event.anchor] = (out, lines, self.count - count + 1, _depth(out))
        return out

    def _alias(self, event, loc, line: int):
        """An alias: a copy of its anchor's value, its lines repeated at `loc`."""
        if event.anchor not in self.anchors:
            raise InputError.at(self.doc.path, line, f"unknown alias *{event.anchor}; define &{event.anchor} first")
        value, lines, size, depth = self.anchors[event.anchor]
        self._not_plain()
        self._counted(size, line)
        self._nested(len(loc) + depth, line)
        for rel, at in lines:
            self.doc.lines.setdefault(loc + rel, at)
        return copy.deepcopy(value)

    def _not_plain(self) -> None:
        if self.stream is not None and self.stream.spans is not None:
            self.stream.spans.plain = False

    def sequence(self, loc, line: int) -> list:
        out = []
        while not self.loader.check_event(yaml.SequenceEndEvent):
            out.append(self.value(loc + (len(out),), line))
        self.loader.get_event()
        return out

    def streamed(self, loc, own: int, head: dict) -> list:
        """The top-level list at `loc`, its items handed to the stream as they are read; an
        empty list stands in its place. (Its own line is recorded as value() would.)"""
        event = self.loader.get_event()
        line = event.start_mark.line + 1
        self._counted(1, line)
        if line != own:
            self.doc.lines.setdefault(loc, line)
        shown = self.doc.lines.get(loc, own)
        spans = self.stream.spans
        if spans is not None:
            spans.column = -1 if event.flow_style else event.start_mark.column
        i = 0
        while not self.loader.check_event(yaml.SequenceEndEvent):
            if spans is not None:
                spans.starts.append(self.loader.peek_event().start_mark.line + 1)
                before = self.count
            self.stream.take(self.doc, i, self.value(loc + (i,), shown), head)
            if spans is not None:
                spans.sizes.append(self.count - before)
            i += 1
        self.loader.get_event()
        self.stream.count = i
        return []

    def mapping(self, loc, own: int) -> dict:
        out, merged = {}, []
        get_event = self.loader.get_event
        while True:
            event = get_event()
            kind = type(event)
            if kind is _MappingEnd:
                break
            line = event.start_mark.line + 1
            if kind is not _Scalar:
                raise InputError.at(self.doc.path, line, "mapping keys must be plain words")
            if event.value == "<<" and self._tag(event) == _MERGE:     # `<<: *base` merges a mapping's keys
                value = self.value(loc + ("<<",), own)
                for part in value if isinstance(value, list) else [value]:
                    if not isinstance(part, dict):
                        raise InputError.at(self.doc.path, line, "<< merges a mapping (or a list of them)")
                    merged.append((part, line))
                self._not_plain()
                continue
            key = self._scalar(event)
            if isinstance(key, (int, float, bool)) or key is None:
                key = str(event.value)
            if key in out:
                raise InputError.at(self.doc.path, line, f"duplicate key '{key}'; each key may appear once")
            if line != own:
                self.doc.lines[loc + (key,)] = line
            if not loc and self.stream is not None:
                if self.stream.count is not None:
                    self.stream.late = True       # a key after the streamed list
                elif key == self.stream.key and self._plain_list_next():
                    out[key] = self.streamed((key,), line, out)
                    continue
            event = get_event()
            if type(event) is _Scalar and not event.anchor:   # (as _value_of reads it, without its call)
                at = event.start_mark.line + 1
                self.count += 1
                if self.count > MAX_NODES:
                    self._counted(0, at)
                if at != line:
                    self.doc.lines.setdefault(loc + (key,), at)
                out[key] = self._scalar(event)
            else:
                out[key] = self._value_of(event, loc + (key,), line)
        if merged and not loc and self.stream is not None and self.stream.count is not None:
            self.stream.late = True                    # merged keys come in after the streamed list
        for part, line in merged:                      # keys written out win over merged ones
            for key, value in part.items():
                if key not in out:
                    out[key] = value
                    self.doc.lines.setdefault(loc + (key,), line)
        return out

    def _plain_list_next(self) -> bool:
        """The next value is a list with no anchor (an anchored list is kept whole: an alias
        may repeat it)."""
        event = self.loader.peek_event()
        return isinstance(event, yaml.SequenceStartEvent) and not event.anchor and \
            event.tag in (None, "!", "tag:yaml.org,2002:seq")

    def _tag(self, event) -> str:
        """A scalar event's tag: its own, or the one its text resolves to (remembered)."""
        tag = event.tag
        if tag is None or tag == "!":
            implicit = event.implicit
            if not implicit[0]:       # quoted (or '!'): text, as the resolver says of any such scalar
                return _STR
            tag = _tags.get((event.value, implicit)) or self.loader.resolve(yaml.ScalarNode, event.value, implicit)
        return tag

    def _scalar(self, event):
        """A scalar event's value: text as it is (see `scalar`; a quoted scalar is text, as the
        resolver says of any), anything else by `scalar` from its node."""
        value = event.value
        if event.tag is None and not event.implicit[0]:
            return self.strings.setdefault(value, value)
        tag = self._tag(event)
        if tag == _STR:
            return self.strings.setdefault(value, value)
        if tag == _INT and value.isdigit() and len(value) <= MAX_DIGITS and (value[0] != "0" or value == "0"):
            return int(value)      # (a plain decimal, as `scalar` reads it)
        if tag == _FLOAT and _DECIMAL.fullmatch(value):
            return float(value)    # (as PyYAML's constructor reads it, without making a node for it)
        return self.scalar(yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style))

    def scalar(self, node):
        tag, value = node.tag, node.value
        if tag == _STR:
            # plain text needs no constructor; a text that repeats (a type, a rules line) is
            # kept once, however many cards carry it
            return self.strings.setdefault(value, value)
        if tag == _INT:
            digits = sum(ch.isalnum() for ch in value)
            if digits > MAX_DIGITS:
                raise InputError.at(self.doc.path, node.start_mark.line + 1,
                                    f"a number of {digits} digits; numbers may have at most {MAX_DIGITS} "
                                    "(quote it if it is text, such as an id)")
            if value.isdigit() and (value[0] != "0" or value == "0"):
                return int(value)  # plain decimals (PyYAML's general int reader is slow)
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise InputError.at(self.doc.path, node.start_mark.line + 1,
                                f"cannot read value {node.value!r}: {getattr(exc, 'problem', exc)}; "
                                "quote it if it is text")
