"""JSON Schemas of the YAML files, for editors: with a `# yaml-language-server: $schema=...`
line at its top, a YAML file gets key completion, hover text and checking as it is typed.

The schemas are generated from the same pydantic models that validate the files, so they
cannot drift from what the loader accepts. They are written for JSON Schema draft-07, the
draft the YAML language server implements. Where the loader is more lenient than the
models' plain JSON Schema says (sizes by name, the text pydantic turns into numbers and
booleans, YAML 1.1 words such as `yes` that an editor reads as text) the schema is widened
to match: a schema that rejects a file pnpgen builds would teach designers to ignore it."""

from __future__ import annotations

import inspect
import json
import os
import re
from pathlib import Path

from pydantic.json_schema import GenerateJsonSchema

from ..game import models
from ..sources import validation
from .. import files, presets
from . import kinds, reference
from ..rules import ruleset
from ..sheets import custom_layout
from ..rules.checks import CHECKS
from .. import elements
from ..elements import ELEMENTS
from ..elements.base import EXPRESSION_ALLOWED

KINDS = {name: (kind.schema_where or kind.where, kind.model) for name, kind in kinds.EDITABLE.items()}
"""One schema per kind of file (pnpgen.schema.kinds): kind -> (its title, its model)."""

SCHEMA_DIR = "schemas"
"""Where the schemas go in a project (beside cards/ and templates/)."""

DRAFT = "http://json-schema.org/draft-07/schema#"

_SIZE = validation._size
"""The loader's size validator: a preset name, [w, h] or {w:, h:}."""

# pydantic's lax mode reads these texts as numbers and booleans (and true as 1, 1 as true);
# so must the schema
_NUMBER_TEXT = (r"^\s*[+-]?(?:(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?"
                r"|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])\s*$")
_INTEGER_TEXT = r"^\s*[+-]?\d[\d_]*(?:\.0*)?\s*$"
_BOOLEAN_TEXT = (r"^(?:[01]|[tT](?:[rR][uU][eE])?|[fF](?:[aA][lL][sS][eE])?|[yY](?:[eE][sS])?|[nN][oO]?"
                 r"|[oO][nN]|[oO][fF][fF])$")

LAX = {
    "number": {"type": ["number", "string", "boolean"], "pattern": _NUMBER_TEXT,
               "patternErrorMessage": "expected a number"},
    "integer": {"type": ["integer", "string", "boolean"], "pattern": _INTEGER_TEXT,
                "patternErrorMessage": "expected a whole number"},
    "boolean": {"anyOf": [{"type": "boolean"}, {"enum": [0, 1]},
                          {"type": "string", "pattern": _BOOLEAN_TEXT, "patternErrorMessage": "expected true or false"}]},
}
"""Definitions shared by every number, whole number and true/false key: what pydantic accepts."""
_LAX = "x-pnpgen-lax"  # marks a schema as one of LAX while pydantic generates it


def _strip_type(schema: dict) -> dict:
    return {k: v for k, v in schema.items() if k != "type"}


def filename(kind: str) -> str:
    return f"{kind}.schema.json"


def _one(description: str) -> str:
    return re.sub(r"\s+", " ", description).strip()


_GIVEN = {"type": ["object", "array", "string", "number", "boolean"],
          "errorMessage": "expected a value here: a key left empty counts as not given"}
"""Anything but null (a `not` would do, but editors can only say 'not allowed' of it)."""


def _exactly_one(groups: dict[str, list[str]]) -> list[dict]:
    """A `oneOf` mirroring a model validator that wants exactly one group of keys given (and
    not null, which pydantic reads as not given)."""
    return [{"required": keys, "properties": {k: _GIVEN for k in keys}} for keys in groups.values()]


def _named_size_schema(table: dict, kind: str, low: float) -> dict:
    """What pnpgen.schema.named_size accepts: a name from `table`, [w, h] or {w:, h:} in mm."""
    side = {"type": "number", "minimum": low, "maximum": 1200}
    return {"anyOf": [{"type": "string", "enum": list(table)},
                      {"type": "array", "items": [side, side], "minItems": 2, "maxItems": 2},
                      {"type": "object", "properties": {"w": side, "h": side}, "required": ["w", "h"],
                       "additionalProperties": False}],
            "description": f"A {kind} name (" + ", ".join(table) + ") or [width, height] in mm."}


def _size_schema() -> dict:
    return _named_size_schema(presets.card_sizes(), "size", 10)


def _paper_schema() -> dict:
    return _named_size_schema(presets.papers(), "paper", 50)


def _card_schema() -> dict:
    """A deck's card: its fields are the deck's own (checked by the loader, not here); the
    reserved keys are checked as pnpgen.game._card checks them."""
    props = {"count": {"type": "integer", "minimum": 0, "maximum": models.MAX_COUNT},
             "template": {"type": "string"},
             "back": {"type": ["string", "null"]},
             "number": {"type": ["integer", "null"], "minimum": 1, "maximum": 99999}}
    for key, text in models.RESERVED.items():
        props[key]["description"] = text[0].upper() + text[1:] + "."
    return {"type": "object", "properties": props}


class _Generator(GenerateJsonSchema):
    """pydantic's generator, told about pnpgen's custom validators and docstrings."""

    def field_title_should_be_set(self, schema) -> bool:
        return False  # "Stroke Width" says less than the description under it

    # numbers and booleans refer to the lenient definitions of LAX (see _draft7)
    def float_schema(self, schema):
        return {**_strip_type(super().float_schema(schema)), _LAX: "number"}

    def int_schema(self, schema):
        return {**_strip_type(super().int_schema(schema)), _LAX: "integer"}

    def bool_schema(self, schema):
        return {_LAX: "boolean"}

    def literal_schema(self, schema):
        out = super().literal_schema(schema)
        values = schema["expected"]
        if values and all(isinstance(v, bool) for v in values):   # Literal[False] takes 0 too
            return {"enum": [*values, *(int(v) for v in values)]}
        return out

    def function_wrap_schema(self, schema):
        inner = super().function_wrap_schema(schema)
        if schema["function"]["function"] is EXPRESSION_ALLOWED.func:   # a number, or an expression
            return {"anyOf": [inner, {"type": "string", "pattern": r"\{\{|\{%",
                                      "description": "An expression giving the number for each card."}]}
        return inner

    def function_before_schema(self, schema):
        if schema["function"]["function"] is _SIZE:
            return _size_schema()
        if schema["function"]["function"] is custom_layout._paper:
            return _paper_schema()
        return super().function_before_schema(schema)

    def model_schema(self, schema):
        out = super().model_schema(schema)
        cls = schema["cls"]
        try:
            docs = reference.docstrings(cls)
        except (OSError, TypeError):   # a class made by create_model has no source to read
            docs = {}
        for name, prop in out.get("properties", {}).items():
            text = cls.model_fields[name].description or docs.get(name)
            if text:
                prop["description"] = _one(text)
        # an element's summary is its module's docstring; ElementEntry's is its base's
        summary = _one(out.get("description") or reference.summary(cls) or inspect.getdoc(cls) or "")
        if summary:
            out["description"] = summary
        if cls is elements.ElementEntry:
            out["oneOf"] = _exactly_one({name: [name] for name in ELEMENTS})
        elif cls is ruleset.Rule:
            out["oneOf"] = _exactly_one({name: [name] for name in CHECKS})
        elif cls is models.Icon:
            out["oneOf"] = _exactly_one({"image": ["image"], "vector": ["elements", "size"]})
        elif cls is models.Deck:
            listed, _sheet = out["properties"]["cards"]["oneOf"]    # (a list of cards, or a card sheet's name)
            listed["items"] = _card_schema()
        return out


def _draft7(node, names=False):
    """pydantic writes draft 2020-12; rewrite the little that differs for draft-07 readers,
    and drop `default: null` (it says nothing and editors would insert it)."""
    if isinstance(node, list):
        return [_draft7(v) for v in node]
    if not isinstance(node, dict):
        return node
    if names:   # a map of property or definition names: each value is a schema
        return {k: _draft7(v) for k, v in node.items()}
    out = {}
    for key, value in node.items():
        if key == "default" and value is None:
            continue
        if key == _LAX:
            key, value = "$ref", f"#/definitions/{value}"
        if key == "$ref":
            value = value.replace("#/$defs/", "#/definitions/")
        key = {"prefixItems": "items", "$defs": "definitions"}.get(key, key)
        out[key] = _draft7(value, names=key in ("properties", "definitions", "patternProperties"))
    if "$ref" in out and len(out) > 1:  # draft-07 ignores a $ref's siblings
        out = {"allOf": [{"$ref": out.pop("$ref")}], **out}
    return out


def json_schema(kind: str) -> dict:
    """The JSON Schema (draft-07) of one kind of file."""
    where, cls = KINDS[kind]
    body = _draft7(cls.model_json_schema(schema_generator=_Generator))
    body.setdefault("definitions", {}).update(LAX)
    body["title"] = f"pnpgen {kind}: {where}"
    return {"$schema": DRAFT, **body}


def dumps(kind: str) -> str:
    return json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n"


def write(folder: Path, kinds=None) -> list[Path]:
    """Write the schemas into `folder` (created if need be); return the files written. A folder
    that refuses is an InputError saying so."""
    out = []
    for kind in kinds or KINDS:
        path = folder / filename(kind)
        data = dumps(kind).encode("utf-8")
        if not _holds(path, data):
            files.write_atomically(path, data)
        out.append(path)
    return out


def _holds(path: Path, data: bytes) -> bool:
    try:
        return path.is_file() and path.read_bytes() == data
    except OSError:
        return False


def modeline(yaml_path: Path, schema_path: Path) -> str:
    """The first line that points the YAML language server at a schema, by a path relative
    to the YAML file so the project can be moved or shared."""
    rel = os.path.relpath(schema_path.resolve(), yaml_path.resolve().parent)
    return f"# yaml-language-server: $schema={Path(rel).as_posix()}"
