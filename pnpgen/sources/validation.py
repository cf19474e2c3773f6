"""Shared pieces of the YAML schema: the strict base model, sizes, and turning pydantic's
validation errors into `file:line: key: what is wrong` messages."""

# (no "from __future__ import annotations" here, nor in any module that makes models: see Schema)

from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from .. import presets
from ..errors import InputError, Problem, did_you_mean
from .yamlsrc import Doc


class Schema(BaseModel):
    """Base of every YAML model: unknown keys are errors with a 'did you mean' hint,
    and each attribute's docstring documents its key (read by pnpgen.reference; not at
    run time, where reading source code would slow every start-up).

    A module that makes models writes its annotations as plain expressions, without `from
    __future__ import annotations`: pydantic reads every field's annotation, and those of each
    base class again for every subclass, as the models are made at start-up, and an annotation
    kept as a string costs it a compile each time (about 5 ms of every start)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any):
        if isinstance(data, dict):
            known = keys_of(cls)
            for key in data:
                if key not in known:
                    raise PydanticCustomError(
                        "unknown_key", "unknown key '{key}'{hint}",
                        {"key": str(key), "hint": did_you_mean(key, known)})
        return data


@cache
def keys_of(model: type[BaseModel]) -> dict[str, None]:
    """The keys of `model`, in order (a dict, so that `in` is quick): its model_fields, read
    once per model. (pydantic answers model_fields through a descriptor that costs some 3 us a
    time, and every element of every template read, and of every card drawn, asks.)"""
    return dict.fromkeys(model.model_fields)


def named_size(value: Any, table: dict, kind: str, low: float, names: str) -> tuple[float, float]:
    """A size written as a name from `table` or [w, h] ({w: , h: } too) in millimetres,
    each side from `low` to 1200; `kind` names it in messages (size, paper)."""
    if isinstance(value, str):
        if value in table:
            return table[value]
        raise PydanticCustomError(kind, "unknown {kind} '{v}'{hint}; or give [width, height] in mm",
                                  {"kind": kind, "v": value, "hint": did_you_mean(value, table)})
    if isinstance(value, dict) and set(value) == {"w", "h"}:
        value = [value["w"], value["h"]]
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        w, h = float(value[0]), float(value[1])
        if not (low <= w <= 1200 and low <= h <= 1200):
            raise PydanticCustomError(kind, "{kind} {w} x {h} mm is outside {low}..1200 mm",
                                      {"kind": kind, "w": w, "h": h, "low": f"{low:g}"})
        return (w, h)
    raise PydanticCustomError(kind, "expected a {kind} name ({names}) or [width, height] in mm",
                              {"kind": kind, "names": names})


def _size(value: Any) -> tuple[float, float]:
    """A card size: a preset name, [w, h] or {w: , h: } in millimetres."""
    return named_size(value, presets.card_sizes(), "size", 10, "poker, bridge, mini, tarot, square...")


Size = Annotated[tuple[float, float], BeforeValidator(_size)]
"""A size in mm, written as a preset name or [w, h]."""


_FRIENDLY = {
    "missing": "required key is missing",
    "float_parsing": "expected a number",
    "float_type": "expected a number",
    "int_parsing": "expected a whole number",
    "int_type": "expected a whole number",
    "int_from_float": "expected a whole number",
    "string_type": "expected text",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "list_type": "expected a list",
    "dict_type": "expected a mapping of keys to values",
    "model_type": "expected a mapping of keys to values",
}


def _where(loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def validate(model: type[BaseModel], doc: Doc, data=None, base_loc: tuple = ()):
    """Validate `data` (default: the whole doc) against `model`, translating errors."""
    data = doc.data if data is None else data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError(translate(exc, doc, base_loc)) from None


def translate(exc: ValidationError, doc: Doc, base_loc: tuple = ()) -> list[Problem]:
    problems, seen = [], set()
    for err in exc.errors(include_url=False):
        # pydantic inserts union-member and function names into loc; keep only real keys
        loc = tuple(p for p in err["loc"] if isinstance(p, int) or not _is_internal(p))
        loc = base_loc + loc
        kind = err["type"]
        ctx = err.get("ctx") or {}
        if kind == "unknown_key":
            line_loc = loc + (ctx.get("key"),)
            msg = err["msg"]
        else:
            line_loc = loc
            msg = _FRIENDLY.get(kind, err["msg"].removeprefix("Value error, "))
            if kind not in ("missing",) and "input" in err and not isinstance(err["input"], (dict, list)):
                msg += f", got {err['input']!r}"
        where = _where(loc[len(base_loc):] if kind != "unknown_key" else loc[len(base_loc):])
        text = f"{where}: {msg}" if where else msg
        key = (doc.line(line_loc), text)
        if key in seen:
            continue
        seen.add(key)
        problems.append(Problem(doc.path, doc.line(line_loc), text))
    return problems


def _is_internal(part: str) -> bool:
    return part.startswith(("function-", "tagged-union", "union[", "literal[", "nullable[", "json-or-python")) or \
        part in ("str", "int", "float", "bool", "list[...]", "dict[str,...]", "tuple[float, float]") or \
        "[" in part and part.endswith("]") and not part.startswith("[")
