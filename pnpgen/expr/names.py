"""The names an expression uses, as Jinja finds them (`meta.find_undeclared_variables`), kept
on this machine (kept.py). Every build checks every expression of every template and rule
for names the deck does not have before drawing a card; finding them parses the expression
and runs Jinja's code generator over it, which was a fifth of a rebuild whose pages are all
kept. The key holds the names the environment defines (Jinja leaves those out)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from . import jinja
from .kept import Kept

KEPT = Kept("names", lambda names: isinstance(names, tuple) and all(isinstance(n, str) for n in names))
"""Each expression's names, by the environment's globals and the expression's text."""
_defines: WeakKeyDictionary = WeakKeyDictionary()
"""Each environment's globals, as one text."""


def used(env, source: str) -> frozenset:
    """The names `source` (a template text) uses that `env` does not define; raises Jinja's
    TemplateError when it does not parse (and keeps nothing)."""
    defined = _defines.get(env)
    if defined is None:
        defined = _defines[env] = " ".join(sorted(env.globals))
    key = f"{defined}\0{source}"
    names = KEPT.get(key)
    if names is None:
        names = tuple(sorted(jinja.meta.find_undeclared_variables(env.parse(source))))
        KEPT.put(key, names)
    return frozenset(names)
