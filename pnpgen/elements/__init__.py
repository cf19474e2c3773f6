"""The layout vocabulary: one small module per element kind, found here by name.

A template's `elements:` list holds entries like `- rect: {x: 0, y: 0, w: 63.5, h: 10}`.
Each module of this package except `base` is one element: its file name is the YAML key
and its `ELEMENT` the model class. Adding an element is adding a file."""

import importlib
import pkgutil

ELEMENTS = {}
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name != "base":
        ELEMENTS[_info.name] = importlib.import_module(f"{__name__}.{_info.name}").ELEMENT
