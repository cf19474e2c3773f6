"""The layout vocabulary: one small module per element kind, found here by name.

A template's `elements:` list holds entries like `- rect: {x: 0, y: 0, w: 63.5, h: 10}`.
Each module of this package except `base` is one element: its file name is the YAML key
and its `ELEMENT` the model class. Adding an element is adding a file.

An element's module is imported, and its model made, when a template first draws it (a game
of rectangles and text makes those two models, not all eleven: some 40 ms of every start-up).
ElementEntry, the model of an entry with every key, is made only for the reference and the
JSON Schemas, and for an entry that is not one known key with a value (for its messages)."""

import importlib
import pkgutil
import re
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from functools import lru_cache
from typing import Annotated, Any

from pydantic import Field, create_model, model_validator
from pydantic_core import core_schema

from ..sources.validation import Schema, keys_of

NAMES = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name != "base"))
"""Every element's key: the module names of this package."""


class _Elements(Mapping):
    """name -> element model class; an element's module is imported when it is first asked for."""

    def __getitem__(self, name):
        if name not in NAMES:
            raise KeyError(name)
        return importlib.import_module(f"{__name__}.{name}").ELEMENT

    def __contains__(self, name):
        return name in NAMES

    def __iter__(self):
        return iter(NAMES)

    def __len__(self):
        return len(NAMES)


ELEMENTS = _Elements()
"""Every element's model class by its key."""


class _Entry(Schema):
    """One entry of a template's `elements:` list: exactly one element key."""

    @model_validator(mode="after")
    def _exactly_one(self):
        set_ = [k for k in keys_of(type(self)) if getattr(self, k) is not None]
        if len(set_) != 1:
            raise ValueError("each element is one of: " + ", ".join(keys_of(type(self)))
                             + (f" (this one has {', '.join(set_)})" if set_ else ""))
        return self

    @property
    def element(self):
        """The element the entry holds (read for every element of every card drawn)."""
        for k in keys_of(type(self)):
            value = getattr(self, k)
            if value is not None:
                return value

    @property
    def kind(self) -> str:
        """The element's key: rect, text..."""
        return next(k for k in keys_of(type(self)) if getattr(self, k) is not None)


def _summary(cls) -> str:
    doc = (sys.modules[cls.__module__].__doc__ or "").strip()
    return re.sub(r"\s+", " ", doc.split(":", 1)[-1].split(". ")[0]).strip().rstrip(".") + "."


@lru_cache(maxsize=None)
def _entry_of(*names: str) -> type:
    """The entry model with a key for each element of `names`: with one, what checks an entry
    of that element; with all, ElementEntry. Named so that pickle finds it here."""
    model_name = "ElementEntry" if names == NAMES else f"ElementEntry_{names[0]}"
    keys = {name: ELEMENTS[name] for name in names}
    model = create_model(model_name, __base__=_Entry, __module__=__name__,
                         **{name: (cls | None, Field(None, description=_summary(cls))) for name, cls in keys.items()})
    globals()[model_name] = model
    return model


def __getattr__(attribute: str):
    """ElementEntry (every key), made when first asked for; the one-key entry models by name."""
    if attribute == "ElementEntry":
        return _entry_of(*NAMES)
    if attribute.startswith("ElementEntry_") and attribute[13:] in NAMES:
        return _entry_of(attribute[13:])
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


def one_element(value, info=None):
    """`value` checked as an entry of an `elements:` list: an entry of one known key with a
    value by that element's model alone; anything else (no key, two keys, an unknown key, a key
    with no value) by ElementEntry, whose messages say what is wrong. The entry's `element`
    is the element."""
    context = info.context if info is not None else None
    if type(value) is dict and len(value) == 1:
        ((name, body),) = value.items()
        if name in NAMES and body is not None:
            return _entry_of(name).model_validate(value, context=context)
    return _entry_of(*NAMES).model_validate(value, context=context)


_IN_ENTRY: ContextVar[bool] = ContextVar("in_entry", default=False)
"""True while ElementEntry's JSON Schema is made (a group's draw: holds entries too)."""


class OneElement:
    """Marks a type as an entry of an `elements:` list (`list[Annotated[Any, OneElement()]]`),
    checked by one_element. The reference shows it as "element"; its JSON Schema is ElementEntry's."""

    def __get_pydantic_core_schema__(self, source, handler):
        return core_schema.with_info_plain_validator_function(one_element)

    def __get_pydantic_json_schema__(self, schema, handler):
        entry = _entry_of(*NAMES).__pydantic_core_schema__
        ref = core_schema.definition_reference_schema(entry["ref"])
        if _IN_ENTRY.get():                 # an entry within an entry: refer to the one being made
            return handler(ref)
        making = _IN_ENTRY.set(True)
        try:
            return handler(core_schema.definitions_schema(ref, [entry]))
        finally:
            _IN_ENTRY.reset(making)


Entries = list[Annotated[Any, OneElement()]]
"""The type of an `elements:` list (a template's, a vector icon's, a group's and slots' draw:)."""
