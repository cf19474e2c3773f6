"""The print checks: one small module per kind, found here by name.

Each module is one check; its file name is the check's name (`print-<name>` in reports). It
has `ORDER` (where it runs and is listed), `DOC` (what it looks for, for the reference),
`PIXELS` (whether it reads the rendered background) and `inspect(face, limits, under)`,
which yields a Hit per problem on one face; `under` (a raster.Backgrounds) measures the
contrast of a colour with what is drawn under some card points. A check that compares faces
with each other sets `ACROSS = True` and is given a fourth argument, `seen`, a dict of its own
that lasts for the whole game. Adding a check is adding a file."""

import importlib
import pkgutil

_MODULES = [importlib.import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__)]

CHECKS = {module.__name__.rsplit(".", 1)[1]: module for module in sorted(_MODULES, key=lambda m: m.ORDER)}
"""Check name -> its module, in ORDER."""

ACROSS = frozenset(name for name, module in CHECKS.items() if getattr(module, "ACROSS", False))
"""The checks that compare faces with each other (given `seen`); the others look at one face at a time."""
