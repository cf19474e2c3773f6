"""The layout vocabulary: one small module per element kind, found here by name.

A template's `elements:` list holds entries like `- rect: {x: 0, y: 0, w: 63.5, h: 10}`.
Each module of this package except `base` is one element: its file name is the YAML key
and its `ELEMENT` the model class. Adding an element is adding a file."""

import importlib
import pkgutil
import re
import sys

from pydantic import Field, create_model, model_validator

from ..sources.validation import Schema

ELEMENTS = {}
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name != "base":
        ELEMENTS[_info.name] = importlib.import_module(f"{__name__}.{_info.name}").ELEMENT


class _Entry(Schema):
    """One entry of a template's `elements:` list: exactly one element key."""

    @model_validator(mode="after")
    def _exactly_one(self):
        set_ = [k for k in type(self).model_fields if getattr(self, k) is not None]
        if len(set_) != 1:
            raise ValueError("each element is one of: " + ", ".join(type(self).model_fields)
                             + (f" (this one has {', '.join(set_)})" if set_ else ""))
        return self

    @property
    def element(self):
        for k in type(self).model_fields:
            value = getattr(self, k)
            if value is not None:
                return value


def _summary(cls) -> str:
    doc = (sys.modules[cls.__module__].__doc__ or "").strip()
    return re.sub(r"\s+", " ", doc.split(":", 1)[-1].split(". ")[0]).strip().rstrip(".") + "."


ElementEntry = create_model(
    "ElementEntry", __base__=_Entry,
    **{name: (cls | None, Field(None, description=_summary(cls))) for name, cls in ELEMENTS.items()})
"""An element entry: one key per module of pnpgen/elements/."""
for _cls in ELEMENTS.values():  # elements holding elements (slots' draw:) refer to ElementEntry
    _cls.model_rebuild(_types_namespace={"ElementEntry": ElementEntry})
