"""The YAML reference, read off the models: every key, its type, default and docstring.
`pnpgen schema` prints it; docs/reference.md is the same text as Markdown."""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
import types
import typing
from functools import lru_cache

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from ..sheets import custom_layout
from ..elements import ELEMENTS, OneElement
from ..elements.base import EXPRESSION_ALLOWED
from ..layout.layouter import VARIABLES
from . import kinds, limits, sizes

SIZE = "size (a name such as poker, or [w, h] mm; names in mm: `sizes`)"
PAPER = "paper (a name such as letter or a4, or [w, h] mm)"

TOPICS: dict[str, tuple[str, type[BaseModel]]] = {name: (t.where, t.model) for name, t in kinds.TOPICS.items()}
"""Topic -> (where its keys are written, its model): read off pnpgen.schema.kinds."""


def type_name(annotation) -> str:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation == tuple[float, float]:
        return "[x, y]"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(type_name(a) for a in args if a is not type(None)) + \
            (" or none" if type(None) in args else "")
    if origin is typing.Literal:
        return " or ".join(repr(a) if isinstance(a, str) else str(a).lower() for a in args)
    if origin is typing.Annotated:
        if any(isinstance(m, OneElement) for m in annotation.__metadata__):
            return "element"
        if EXPRESSION_ALLOWED in annotation.__metadata__:
            return type_name(args[0]) + " or expression"
        return SIZE if args and args[0] == tuple[float, float] else type_name(args[0])
    if origin is tuple and len(args) == 2:
        return "[x, y]"
    if origin in (list, tuple):
        return f"list of {type_name(args[0])}" if args else "list"
    if origin is dict:
        return f"map of {type_name(args[1])}"
    if annotation is typing.Any:
        return "any"
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return {"CodeMark": "code", "ElementEntry": "element", "FieldSpec": "field", "Back": "back",
                    "Icon": "icon", "Rule": "rule", "Range": "{min, max}", "LayoutSlot": "slot",
                    "LayoutGrid": "grid", "HexGenerate": "hexmap"}.get(annotation.__name__, "mapping")
        return {"str": "text", "float": "number", "int": "whole number", "bool": "true/false"}.get(
            annotation.__name__, annotation.__name__)
    return str(annotation)


@lru_cache(maxsize=None)
def docstrings(cls: type) -> dict[str, str]:
    """{attribute: the docstring written under it}, for a class and its bases."""
    out = {}
    for klass in reversed(cls.__mro__):
        if klass in (object, BaseModel) or not klass.__module__.startswith("pnpgen"):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError):   # made by create_model: its keys carry their descriptions
            continue
        body = tree.body[0].body
        for stmt, after in zip(body, body[1:]):
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and \
                    isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and \
                    isinstance(after.value.value, str):
                out[stmt.target.id] = inspect.cleandoc(after.value.value)
    return out


def rows(cls: type[BaseModel]):
    for name, info in cls.model_fields.items():
        default = info.default
        if default is PydanticUndefined:
            shown = "required"
        elif default is None or default == {} or default == []:
            shown = ""
        elif isinstance(default, BaseModel):
            shown = ""
        else:
            shown = repr(default) if isinstance(default, str) else str(default).lower() \
                if isinstance(default, bool) else str(default)
        text = re.sub(r"\s+", " ", info.description or docstrings(cls).get(name, "")).strip()
        kind = SIZE if info.metadata and info.annotation == tuple[float, float] else type_name(info.annotation)
        if EXPRESSION_ALLOWED in info.metadata:
            kind += " or expression"
        if any(getattr(m, "func", None) is custom_layout._paper for m in info.metadata):
            kind = PAPER
        yield name, kind, shown, text


def summary(cls) -> str:
    doc = (cls.__doc__ or "").strip()
    module_doc = sys.modules[cls.__module__].__doc__ or ""
    if cls in ELEMENTS.values():
        doc = module_doc.strip()
    return re.sub(r"\s+", " ", doc)


VARIABLES_TOPIC = "variables"
VARIABLES_INTRO = ("The names a template's expressions (`{{ ... }}`, `when:`) can use; a common back "
                   "sees all but the card's fields and card.code.")


def text(topic: str) -> str:
    if topic == limits.TOPIC:
        return limits.text()
    if topic == sizes.TOPIC:
        return sizes.text()
    if topic == VARIABLES_TOPIC:
        return "\n".join([f"{topic}: names in template expressions", f"  {VARIABLES_INTRO}"] +
                          [f"  {name}: {kind}\n      {doc}" for name, kind, doc in VARIABLES])
    where, cls = TOPICS[topic]
    out = [f"{topic}: {where}", f"  {summary(cls)}"]
    for name, kind, default, doc in rows(cls):
        d = f" = {default}" if default and default != "required" else " (required)" if default == "required" else ""
        out.append(f"  {name}: {kind}{d}")
        if doc:
            out.append(f"      {doc}")
    return "\n".join(out)


def markdown() -> str:
    out = ["# YAML reference", "",
           "Generated from the models by `pnpgen schema --markdown`; every key of every file,",
           "with its type, default and meaning. Sizes and positions are millimetres; a position is",
           "measured from the card's trim corner, top-left, y downwards.", ""]
    for topic, (where, cls) in TOPICS.items():
        out += [f"## {topic}", "", f"{where}. {summary(cls)}", "", "| key | type | default | meaning |",
                "|---|---|---|---|"]
        for name, kind, default, doc in rows(cls):
            out.append(f"| `{name}` | {kind} | {default.replace('|', '/')} | {doc.replace('|', '/')} |")
        out.append("")
        if topic == "template":
            out += [f"## {VARIABLES_TOPIC}", "", VARIABLES_INTRO, "", "| name | type | meaning |", "|---|---|---|"]
            out += [f"| `{name}` | {kind} | {doc} |" for name, kind, doc in VARIABLES]
            out.append("")
    return "\n".join(out + sizes.markdown() + limits.markdown())
