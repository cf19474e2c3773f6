"""The one Jinja2 environment used for template text and rule expressions: sandboxed,
immutable, strict about undefined names, and guarded against expressions that would
exhaust memory or time (a card file is untrusted input)."""

from __future__ import annotations

import operator
import re

from jinja2 import StrictUndefined
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_RESULT = 100_000
"""Longest string or list an expression may build with * (characters or items)."""
MAX_EXPONENT = 64
"""Largest exponent for ** (2 ** 64 is plenty for a card)."""
_SIZED_METHODS = {"ljust", "rjust", "center", "zfill", "expandtabs", "format", "format_map"}
_WIDE_FORMAT = re.compile(r"%[-#0 +]*(\*|\d{6,}|\.\d{6,})")


class SafeEnvironment(ImmutableSandboxedEnvironment):
    """ImmutableSandboxedEnvironment plus caps on * and ** and on padding methods."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, **options):
        super().__init__(**options)
        for name in ("center", "indent", "format", "wordwrap", "truncate"):
            self.filters[name] = _capped(self.filters[name])

    def call_binop(self, context, op, left, right):
        if op == "**":
            if isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT or \
                    isinstance(left, int) and isinstance(right, int) and left.bit_length() * abs(right) > 4096:
                raise SecurityError(f"{left} ** {right} is too large a number")
            return operator.pow(left, right)
        if op == "%":
            if isinstance(left, str) and _WIDE_FORMAT.search(left):
                raise SecurityError("format widths over 99999 are not allowed")
            return operator.mod(left, right)
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_RESULT:
                raise SecurityError(f"repeating a text or list {n} times makes it longer than {MAX_RESULT}")
        return operator.mul(left, right)

    def is_safe_attribute(self, obj, attr, value):
        if isinstance(obj, str) and attr in _SIZED_METHODS and attr != "join":
            return False  # padding to a huge width is a memory bomb; use a filter such as center
        return super().is_safe_attribute(obj, attr, value)


def _capped(fn):
    """A filter whose numeric arguments (widths) are capped."""
    def capped(*args, **kwargs):
        values = list(args[1:]) + list(kwargs.values())
        if any(isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_RESULT for v in values):
            raise SecurityError(f"a width over {MAX_RESULT} is not allowed")
        if fn.__name__ == "do_format" and args and isinstance(args[0], str) and _WIDE_FORMAT.search(args[0]):
            raise SecurityError("format widths over 99999 are not allowed")
        return fn(*args, **kwargs)
    for attr in ("jinja_pass_arg",):
        if hasattr(fn, attr):
            setattr(capped, attr, getattr(fn, attr))
    capped.__name__ = fn.__name__
    return capped


def environment() -> SafeEnvironment:
    return SafeEnvironment(undefined=StrictUndefined, autoescape=False)
