"""What an element receives while it draws: the card's names, the game's resolved
resources, the size of the frame it draws in, and a place to note what it noticed.
An element needs nothing else, so a new element is one new file in elements/."""

from __future__ import annotations

import re

from .. import expr
from ..elements.base import has_expr
from ..expr import jinja
from . import svg
from .resources import Resources

_SIMPLE = re.compile(r"^\{\{\s*(?!(?:true|false|none|True|False|None)\s*\}\})([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$")
"""'{{ name }}', looked up without Jinja (true, false and none are Jinja's constants, not names)."""


def plain_name(value: str) -> str | None:
    """The name in a template string that is just '{{ name }}', or None."""
    simple = _SIMPLE.match(value)
    return simple.group(1) if simple else None


_SINGLE = re.compile(r"^\{\{(?!.*\{\{)(.*)\}\}$", re.S)


_ENV = None
_COMPILED: dict[str, object] = {}
_CONDITIONS: dict[str, object] = {}
_NATIVES: dict[str, object] = {}
_MAX_COMPILED = 20_000


class Expressions:
    """Each template string compiled once, evaluated against any card's names. The
    environment has no per-game state, so compiled strings are shared by every game and
    every build in the process: a preview that reloads a game on each save compiles only
    the strings that are new. A '{{ name }}' is looked up without Jinja, which is loaded
    (with the environment) only for the first string that needs it."""

    def __init__(self):
        if len(_COMPILED) + len(_CONDITIONS) + len(_NATIVES) > _MAX_COMPILED:
            for cache in (_COMPILED, _CONDITIONS, _NATIVES):
                cache.clear()
        self._compiled, self._conditions, self._natives = _COMPILED, _CONDITIONS, _NATIVES

    @property
    def env(self):
        """The sandboxed Jinja environment (expr.environment), made when first asked for."""
        global _ENV
        if _ENV is None:
            _ENV = expr.environment()
        return _ENV

    def _compile(self, value: str):
        tpl = self._compiled.get(value)
        if tpl is None:
            # '{{ name }}' is most of what templates say: look it up without a Jinja render
            tpl = self._compiled[value] = plain_name(value) or self.env.from_string(value)
        return tpl

    def lookup(self, value: str, names: dict):
        """The value of '{{ name }}' itself (a list stays a list), or None if `value` is
        not a single name."""
        tpl = self._compile(value)
        if not isinstance(tpl, str):
            return None
        try:
            return names[tpl]
        except KeyError:
            raise jinja.UndefinedError(f"'{tpl}' is undefined") from None

    def native(self, value: str, names: dict):
        """The value of a string that is one expression, '{{ ... }}', as the object it
        evaluates to (a list stays a list); None if the string is more than one expression."""
        tpl = self._compile(value)
        if isinstance(tpl, str):
            return self.lookup(value, names)
        single = _SINGLE.match(value)
        if single is None:
            return None
        source = single.group(1)
        fn = self._natives.get(source)
        if fn is None:
            fn = self._natives[source] = self.env.compile_expression(source, undefined_to_none=False)
        return fn(names)     # (the names as one mapping: no keyword arguments made of them)

    def render(self, value: str, names: dict) -> str:
        tpl = self._compile(value)
        if isinstance(tpl, str):
            result = self.lookup(value, names)
            return result if isinstance(result, str) else str(result)
        return tpl.render(names)

    def condition(self, source: str, names: dict) -> bool:
        fn = self._conditions.get(source)
        if fn is None:
            fn = self._conditions[source] = self.env.compile_expression(source)
        return bool(fn(names))


class Context:
    """One card (or a shared form) being drawn in a frame of `width` x `height` mm, cut to
    `shape` (the template's: rect, round, hex-flat, hex-pointy or polygon)."""

    __slots__ = ("res", "exprs", "names", "width", "height", "bleed", "notes", "text_cache", "shape")

    def __init__(self, res: Resources, exprs: Expressions, names: dict, size, bleed: float,
                 text_cache: dict, shape: str = "rect"):
        self.res = res
        self.exprs = exprs
        self.names = names
        self.width, self.height = size
        self.bleed = bleed
        self.notes: list[tuple[str, bool]] = []
        """(message, strict) noted by elements; the layouter locates and reports them."""
        self.text_cache = text_cache
        self.shape = shape

    def within(self, names: dict | None = None, size=None) -> "Context":
        """A context for a sub-frame (a slot, an icon): more names, another size (a frame of
        another size is a rectangle, not the template's cut shape)."""
        sub = Context(self.res, self.exprs, {**self.names, **names} if names else self.names,
                      size or (self.width, self.height), self.bleed, self.text_cache,
                      self.shape if size is None else "rect")
        sub.notes = self.notes
        return sub

    # --- values ------------------------------------------------------------------------
    def eval(self, value):
        """A template string rendered against the card's names (plain strings as they are)."""
        return self.exprs.render(value, self.names) if has_expr(value) else value

    def value(self, value):
        """Like eval, but a string that is one expression gives the object itself (a list,
        a number): '{{ corners }}', "{{ pattern|map('join', ' ')|list }}"."""
        if not has_expr(value):
            return value
        found = self.exprs.native(value, self.names)
        return found if found is not None else self.exprs.render(value, self.names)

    def condition(self, source: str) -> bool:
        return self.exprs.condition(source, self.names)

    def color(self, value):
        return None if value is None else self.res.color(self.eval(value))

    # --- resources -----------------------------------------------------------------------
    def font(self, name: str) -> str:
        return self.res.font(name)

    def bold_of(self, key: str) -> str:
        return self.res.bold_of(key)

    def font_for(self, key: str, char: str) -> str | None:
        return self.res.font_for(key, char)

    def image(self, src: str):
        return self.res.image(src)

    def is_svg(self, key: str) -> bool:
        """Whether an image's key (from `image`) is an SVG, drawn as vector paths."""
        return svg.is_svg(key)

    def svg_warnings(self, key: str) -> tuple[str, ...]:
        return self.res.svg_warnings(key)

    def image_size(self, src: str):
        return self.res.image_size(src)

    def place_image(self, src: str, w: float, h: float) -> str:
        return self.res.place(src, w, h)

    @property
    def icons(self) -> dict[str, float]:
        return self.res.icons

    def warn(self, message: str, strict: bool = False) -> None:
        self.notes.append((message, strict))
