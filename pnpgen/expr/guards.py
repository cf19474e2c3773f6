"""The filters, globals and text methods an expression can call, each wrapped to charge
its work to the budget and to refuse, before doing it, what would build a text or list
past the size limit: a join with a long separator, a replace or indent that multiplies a
text, a format width, lorem ipsum by the million, a sum that copies lists over and over."""

from __future__ import annotations

import builtins
import json
import random
import re
from functools import lru_cache
from itertools import islice

from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter
from jinja2.utils import generate_lorem_ipsum

from .budget import (CALL_STEPS, CHARS_PER_STEP, MAX_BITS, MAX_SIZE, BudgetExceeded, built, charge, size_of, too_big,
                     too_large_a_number, turns, will_build)

_PRINTF = re.compile(r"%(\([^)]*\))?[-#0 +]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?(.)", re.S)
_DIGITS = re.compile(r"\d+")
_WORD = 12
"""Characters a lorem ipsum word takes at most, with its space and punctuation."""
_DIGITS_PER_BIT = 0.30103


def guard_filters(filters: dict) -> dict:
    """Every filter wrapped: its input measured and charged, its output checked."""
    return {name: _guarded(name, fn, _CHECKS.get(name)) for name, fn in filters.items()}


def guard_tests(tests: dict) -> dict:
    """Every test (`is ...`) wrapped: what it looks at charged as read."""
    return {name: _guarded(name, fn, None, result=False) for name, fn in tests.items()}


def _guarded(name: str, fn, check, result: bool = True):
    skip = 1 if getattr(fn, "jinja_pass_arg", None) is not None else 0

    def guarded(*args, **kwargs):
        value = args[skip]
        size = len(value) if type(value) is str else size_of(value)
        if size > MAX_SIZE:
            raise too_big(size)
        charge(CALL_STEPS + size // CHARS_PER_STEP)
        if check is not None:
            value = check(value, args[skip + 1:], kwargs)
            args = args[:skip] + (value,) + args[skip + 1:]
        try:
            out = fn(*args, **kwargs)
        except AttributeError as exc:     # e.g. wordwrap given a number: a type error, as the user sees it
            raise TypeError(f"{name} cannot take {type(value).__name__} ({exc})") from None
        if not result or type(out) is str and len(out) < CHARS_PER_STEP:
            return out
        return built(out)

    if skip:
        guarded.jinja_pass_arg = fn.jinja_pass_arg
    guarded.__name__, guarded.__doc__ = fn.__name__, fn.__doc__
    return guarded


def _arg(args, kwargs, index: int, name: str, default=None):
    return args[index] if len(args) > index else kwargs.get(name, default)


def _taken(value) -> list | str:
    """The items of `value` as a list (a text stays a text), each one charged a step."""
    if isinstance(value, (list, tuple, str)):
        return value
    items = list(islice(turns(value), MAX_SIZE + 1))
    if len(items) > MAX_SIZE:
        raise too_big(len(items))
    return items


def _number(value, name: str) -> int:
    if not isinstance(value, int):
        try:
            value = int(value)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"{name} must be a whole number, not {value!r}") from None
    return value


# --- the checks, one per filter that can multiply what it is given ---------------------------

def _join(value, args, kwargs):
    items = _taken(value)
    separator = str(_arg(args, kwargs, 0, "d", ""))
    will_build(len(separator) * max(len(items) - 1, 0) + size_of(items))
    return items


def _replace(value, args, kwargs):
    old, new = str(_arg(args, kwargs, 0, "old", "")), str(_arg(args, kwargs, 1, "new", ""))
    count = _arg(args, kwargs, 2, "count")
    replaced(str(value), old, new, -1 if count is None else count)
    return value


def replaced(text: str, old: str, new: str, count=-1) -> None:
    """Check text.replace(old, new, count) before it runs."""
    times = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    will_build(len(text) + times * max(len(new) - len(old), 0))


def _indent(value, args, kwargs):
    width = _arg(args, kwargs, 0, "width", 4)
    pad = len(width) if isinstance(width, str) else _number(width, "width")
    text = str(value)
    will_build(pad)
    will_build(len(text) + (text.count("\n") + 2) * max(pad, 0))
    return value


def _center(value, args, kwargs):
    will_build(max(len(str(value)), _number(_arg(args, kwargs, 0, "width", 80), "width")))
    return value


def _wordwrap(value, args, kwargs):
    text = str(value)
    wrap = _arg(args, kwargs, 2, "wrapstring")
    breaks = len(text) + 1 if wrap is None else (len(text) + 1) * len(str(wrap))
    will_build(len(text) + breaks)
    charge(3 * len(text))          # textwrap works a character at a time, slowly
    return value


def _format(value, args, kwargs):
    printf(str(value), kwargs or args)
    return value


def printf(template: str, values) -> None:
    """Check `template % values` before it runs: no width taken from the values (*), and the
    widths plus what each field may insert within the size limit."""
    fields, widths = _printf_fields(template) if len(template) < 200 else _printf_fields.__wrapped__(template)
    if isinstance(values, dict):
        values = list(values.values())
    elif not isinstance(values, (tuple, list)):
        values = [values]
    biggest = max((size_of(v) for v in values), default=0)
    will_build(len(template) + widths + fields * biggest)


@lru_cache(maxsize=256)
def _printf_fields(template: str) -> tuple[int, int]:
    """How many fields a printf-style template has, and the sum of their widths."""
    fields = widths = 0
    for match in _PRINTF.finditer(template):
        if match.group(4) == "%" and not match.group(1) and not match.group(2) and match.group(3) is None:
            continue
        if "*" in (match.group(2), match.group(3)):
            raise BudgetExceeded("a width taken from the values (%*d) is not allowed; write the width as a number")
        widths += int(match.group(2) or 0) + int(match.group(3) or 0)
        fields += 1
    return fields, widths


def _slice(value, args, kwargs):
    slices = _number(_arg(args, kwargs, 0, "slices", 1), "slices")
    will_build(slices)
    charge(max(slices, 0))
    return value


def _batch(value, args, kwargs):
    if _arg(args, kwargs, 1, "fill_with") is not None:
        will_build(_number(_arg(args, kwargs, 0, "linecount", 1), "linecount"))
    return value


def _sum(value, args, kwargs):
    items = _taken(value)
    start = _arg(args, kwargs, 1, "start", 0)
    if _arg(args, kwargs, 0, "attribute") is None and not isinstance(start, (list, tuple, str)) and \
            all(isinstance(item, (int, float)) for item in items):
        return items
    total = size_of(start) + size_of(items)
    will_build(total)
    charge(len(items) * total // 10)    # adding lists copies what is summed so far, each time
    return items


def _int(value, args, kwargs):
    if isinstance(value, (str, bytes)) and len(value.strip()) > MAX_BITS * _DIGITS_PER_BIT + 2:
        raise too_large_a_number()
    return value


def _round(value, args, kwargs):
    precision = _arg(args, kwargs, 0, "precision", 0)
    if isinstance(precision, int) and abs(precision) > MAX_BITS * _DIGITS_PER_BIT:
        raise too_large_a_number()
    return value


def _sorted(value, args, kwargs):
    if isinstance(value, (list, tuple, dict, str)):
        charge(len(value))      # sorting (or grouping) costs a step an item, not one per ten
    return value


def _tojson(value, args, kwargs):
    indent = _arg(args, kwargs, 0, "indent")
    if indent is not None:
        will_build(len(indent) if isinstance(indent, str) else _number(indent, "indent"))
    return value


_CHECKS = {"sort": _sorted, "dictsort": _sorted, "groupby": _sorted, "unique": _sorted, "tojson": _tojson,
           "join": _join, "replace": _replace, "indent": _indent, "center": _center, "wordwrap": _wordwrap,
           "format": _format, "slice": _slice, "batch": _batch, "sum": _sum, "int": _int, "round": _round}


# --- globals ---------------------------------------------------------------------------------

def bounded_range(*args):
    """range(), at most MAX_SIZE numbers long."""
    numbers = range(*args)
    try:
        length = len(numbers)
    except OverflowError:
        length = MAX_SIZE + 1
    if length > MAX_SIZE:
        raise too_big(length)
    return numbers


def bounded_lipsum(n=5, html=True, min=20, max=100):  # noqa: A002 - Jinja's own argument names
    """lipsum(), refused past the size limit (n paragraphs of up to `max` words), and the same
    text for the same arguments in every build (Jinja's draws its words from the `random`
    module's shared generator: it is seeded from the arguments for the call, then put back)."""
    words = _number(n, "n") * builtins.max(_number(min, "min"), _number(max, "max"), 0)
    will_build(builtins.max(words, 0) * _WORD)
    charge(builtins.max(words, 0))
    state = random.getstate()
    random.seed(f"lipsum {n!r} {html!r} {min!r} {max!r}")
    try:
        return generate_lorem_ipsum(n, html, min, max)
    finally:
        random.setstate(state)


def bounded_dumps(value, **kwargs) -> str:
    """json.dumps for the tojson filter, stopped as soon as its text passes the size limit."""
    pieces, length = [], 0
    for piece in json.JSONEncoder(**kwargs).iterencode(value):
        length += len(piece)
        if length > MAX_SIZE:
            raise too_big(length)
        pieces.append(piece)
    will_build(length)
    return "".join(pieces)


# --- methods of a text -----------------------------------------------------------------------

def checked_method(method, args, kwargs):
    """Before a text's join, replace or translate runs: the arguments, possibly taken into a
    list, that it may run with."""
    text, name = method.__self__, method.__name__
    if name == "join" and args:
        items = _taken(args[0])
        will_build(len(text) * max(len(items) - 1, 0) + size_of(items))
        return (items,) + args[1:]
    if name == "replace" and len(args) >= 2:
        replaced(text, str(args[0]), str(args[1]), args[2] if len(args) > 2 else kwargs.get("count", -1))
    elif name == "translate" and args and isinstance(args[0], dict):
        longest = builtins.max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
        will_build(len(text) * longest)
    return args


class _BoundedFields:
    """A str.format formatter that checks each field's width and value before writing it."""

    def format_field(self, value, format_spec: str):
        width = sum(int(d) for d in _DIGITS.findall(format_spec))
        will_build(width)
        will_build(size_of(value) + width)
        return super().format_field(value, format_spec)


class BoundedFormatter(_BoundedFields, SandboxedFormatter):
    pass


class BoundedEscapeFormatter(_BoundedFields, SandboxedEscapeFormatter):
    pass
