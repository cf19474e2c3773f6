"""The names an expression uses, as Jinja finds them (`meta.find_undeclared_variables`), kept
on this machine (kept.py). Every build checks every expression of every template and rule
for names the deck does not have before drawing a card; finding them parses the expression
and runs Jinja's code generator over it, which was a fifth of a rebuild whose pages are all
kept. The key holds the environment's signature (Jinja leaves the names it defines out)."""

from __future__ import annotations

from . import jinja
from .kept import Kept

KEPT = Kept("names", lambda names: isinstance(names, tuple) and all(isinstance(n, str) for n in names))
"""Each expression's names, by the environment's signature and the expression's text."""


def used(env, source: str) -> frozenset:
    """The names `source` (a template text) uses that `env` (a SafeEnvironment) does not
    define; raises Jinja's TemplateError when it does not parse (and keeps nothing)."""
    key = f"{env.signature()}\0{source}"
    names = KEPT.get(key)
    if names is None:
        names = tuple(sorted(jinja.meta.find_undeclared_variables(env.parse(source))))
        KEPT.put(key, names)
    return frozenset(names)
