"""Jinja2's own names (`jinja.TemplateError`, `jinja.UndefinedError`, `jinja.meta`), Jinja2
imported the first time one is asked for: an `except (jinja.TemplateError, ...)` clause
loads it only when an exception reaches it, and no Jinja error exists before Jinja does."""

import importlib


def __getattr__(name: str):
    jinja2 = importlib.import_module("jinja2")
    value = getattr(jinja2, name, None)
    if value is None:
        try:
            value = importlib.import_module(f"jinja2.{name}")   # (a module: meta)
        except ImportError:
            raise AttributeError(f"jinja2 has no attribute {name!r}") from None
    globals()[name] = value
    return value
