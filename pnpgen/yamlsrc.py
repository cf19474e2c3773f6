"""Safe YAML loading that remembers the line of every value.

Card data is untrusted: we compose the node graph with PyYAML's safe loader, then build
plain Python values ourselves, so that (1) no arbitrary objects can be constructed,
(2) alias expansion is bounded ("billion laughs"), (3) duplicate keys are errors, and
(4) every value's line is known, letting validation errors say `file:line`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import InputError

MAX_FILE_BYTES = 5_000_000
MAX_NODES = 200_000  # values produced after alias expansion, per file

Path_ = tuple  # a location inside the document, e.g. ("cards", 3, "title")


@dataclass
class Doc:
    """A loaded YAML file: its data and the line of each location in it."""

    path: Path
    data: object
    lines: dict = field(default_factory=dict)

    def line(self, loc: Path_) -> int | None:
        """The line of `loc`, or of its nearest enclosing value that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get(())

    def error(self, loc: Path_, message: str) -> InputError:
        return InputError.at(self.path, self.line(loc), message)


def load(path: Path, display: Path | str | None = None) -> Doc:
    """Load one YAML file safely. Raises InputError on any problem."""
    shown = display or path
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError.at(shown, None, f"cannot read file: {exc.strerror}")
    if size > MAX_FILE_BYTES:
        raise InputError.at(shown, None, f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(shown, None, f"not UTF-8 text ({exc.reason}); save the file as UTF-8")
    return loads(text, shown)


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
                if len(_tags) > 50_000:
                    _tags.clear()
                tag = _tags[key] = super().resolve(kind, value, implicit)
            return tag
        return super().resolve(kind, value, implicit)


def loads(text: str, shown) -> Doc:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError.at(shown, line, f"invalid YAML: {problem}; check indentation, colons and quotes")
    finally:
        loader.dispose()
    doc = Doc(Path(str(shown)), None)
    if node is None:
        doc.data = None
        doc.lines[()] = 1
        return doc
    builder = _Builder(doc, loader)
    doc.data = builder.build(node, ())
    return doc


_PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


class _Builder:
    def __init__(self, doc: Doc, loader):
        self.doc = doc
        self.loader = loader
        self.count = 0

    def build(self, node, loc):
        self.count += 1
        if self.count > MAX_NODES:
            raise InputError.at(self.doc.path, node.start_mark.line + 1,
                                f"document expands to more than {MAX_NODES} values "
                                "(too many aliases?); simplify the anchors (&) and aliases (*)")
        self.doc.lines.setdefault(loc, node.start_mark.line + 1)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
            raise InputError.at(self.doc.path, node.start_mark.line + 1,
                                f"YAML tag {node.tag!r} is not allowed; card data is plain mappings, lists and values")
        if isinstance(node, yaml.MappingNode):
            self.loader.flatten_mapping(node)  # resolves `<<:` merge keys
            out = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise InputError.at(self.doc.path, key_node.start_mark.line + 1,
                                        "mapping keys must be plain words")
                key = self.scalar(key_node)
                if isinstance(key, (int, float, bool)) or key is None:
                    key = str(key_node.value)
                if key in out:
                    raise InputError.at(self.doc.path, key_node.start_mark.line + 1,
                                        f"duplicate key '{key}'; each key may appear once")
                self.doc.lines[loc + (key,)] = key_node.start_mark.line + 1
                out[key] = self.build(value_node, loc + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, loc + (i,)) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def scalar(self, node):
        tag, value = node.tag, node.value
        if tag == "tag:yaml.org,2002:str":
            return value  # plain text needs no constructor
        if tag == "tag:yaml.org,2002:int" and value.isdigit() and (value[0] != "0" or value == "0"):
            return int(value)  # plain decimals (PyYAML's general int reader is slow)
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise InputError.at(self.doc.path, node.start_mark.line + 1,
                                f"cannot read value {node.value!r}: {getattr(exc, 'problem', exc)}; "
                                "quote it if it is text")
