"""The one Jinja2 environment for template text, rule expressions and rulebooks: sandboxed,
immutable, strict about undefined names, and run under a budget of work and size.

A card file is untrusted input, so every evaluation is metered (budget.py): loop turns,
calls, the size of every text, list and number it builds, how deep its calls nest, and a
wall clock. guards.py wraps what can be called (filters, globals, text methods) to refuse
what would pass the limits before it is done; compiler.py bounds how deep an expression may
nest and meters `for` loops and `~`; sandbox.py is the environment that puts it together.

Nothing here is loaded until first asked for (`expr.environment`, `expr.MAX_SIZE`), nor is
Jinja2 (jinja.py): a game whose templates say only '{{ name }}' is drawn without either."""

import importlib

_FROM = {**dict.fromkeys(("Budget", "BudgetExceeded", "CALL_STEPS", "CHARS_PER_STEP", "MAX_BITS", "MAX_DEPTH",
                          "MAX_NESTING", "MAX_SECONDS", "MAX_SIZE", "MAX_STEPS"), "budget"),
         **dict.fromkeys(("SafeEnvironment", "environment"), "sandbox")}
"""Each name this package offers, and the module of it that holds it."""

__all__ = sorted(_FROM)


def __getattr__(name: str):
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_FROM[name]}"), name)
    globals()[name] = value
    return value
