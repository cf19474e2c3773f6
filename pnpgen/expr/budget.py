"""What one evaluation of a template, rule expression or rulebook may spend, and the meter
that counts it. A budget is opened when an evaluation starts (`run`) and is found by the
sandbox's hooks through a context variable; every loop turn, call and piece of text or list
built is charged to it, and the first limit passed stops the evaluation with
BudgetExceeded (a SecurityError, so every caller that reports template errors reports it).

The limits are counted, not timed, so the same input fails or passes on every machine; the
clock is only a last guard against work the counting cannot see."""

from __future__ import annotations

import time
from contextvars import ContextVar

from jinja2.exceptions import SecurityError
from jinja2.utils import Namespace

MAX_STEPS = 1_000_000
"""Work per evaluation. A loop turn costs one step plus one per operation in the loop's body,
as does each run of a macro; a call costs CALL_STEPS; building, reading or comparing text or
a list costs one step per CHARS_PER_STEP characters or items."""
CHARS_PER_STEP = 10
CALL_STEPS = 5
"""Steps a call (or a filter) costs: it is slower than the operations it is weighed against."""
MAX_SIZE = 1_000_000
"""The longest text (characters) or list (items, with what they hold) one value may be."""
MAX_BITS = 4096
"""The largest number, in bits (about 1,233 decimal digits)."""
MAX_DEPTH = 50
"""How deep calls may nest (a macro that calls a macro that calls...)."""
MAX_NESTING = 100
"""How deep an expression may nest when it is read (brackets, filters, blocks)."""
MAX_SECONDS = 3.0
"""Wall-clock time per evaluation."""
_CLOCK_EVERY = 256
"""Steps between two looks at the clock."""


class BudgetExceeded(SecurityError):
    """An evaluation that would do more than its budget allows."""


def too_much_work() -> BudgetExceeded:
    return BudgetExceeded(f"this expression does more than {MAX_STEPS:,} steps of work (loop turns, calls, "
                          "text built); make it simpler")


def too_big(size: int) -> BudgetExceeded:
    return BudgetExceeded(f"this expression does more than {MAX_SIZE:,} characters or items in one text or list "
                          f"(this one would hold {size:,}); make it smaller")


def too_large_a_number() -> BudgetExceeded:
    return BudgetExceeded(f"this expression does more than {MAX_BITS:,}-bit numbers (about "
                          f"{int(MAX_BITS * 0.30103):,} digits); use smaller numbers")


def too_deep() -> BudgetExceeded:
    return BudgetExceeded(f"this expression does more than {MAX_DEPTH} calls inside one another (does a "
                          "macro call itself without end?); give the recursion a way out")


def too_slow() -> BudgetExceeded:
    return BudgetExceeded(f"this expression does more than {MAX_SECONDS:g} seconds of work; make it simpler")


class Budget:
    """The meter of one evaluation."""

    __slots__ = ("steps", "depth", "deadline", "_look_at")

    def __init__(self, seconds: float | None = None):
        self.steps = 0
        self.depth = 0
        self.deadline = time.monotonic() + (MAX_SECONDS if seconds is None else seconds)
        self._look_at = _CLOCK_EVERY

    def charge(self, steps: int = 1) -> None:
        self.steps += steps
        if self.steps >= self._look_at:
            self._look()

    def _look(self) -> None:
        if self.steps > MAX_STEPS:
            raise too_much_work()
        if time.monotonic() > self.deadline:
            raise too_slow()
        self._look_at = min(self.steps + _CLOCK_EVERY, MAX_STEPS + 1)


_CURRENT: ContextVar[Budget | None] = ContextVar("pnpgen_expr_budget", default=None)


def current() -> Budget | None:
    """The budget of the evaluation under way (None outside one, e.g. while compiling)."""
    return _CURRENT.get()


def charge(steps: int) -> None:
    budget = _CURRENT.get()
    if budget is not None:
        budget.charge(steps)


def run(fn, *args, **kwargs):
    """fn(...) under a budget of its own, or under the one already open (an evaluation
    started inside another shares its budget). Python's own recursion limit and a failed
    allocation become BudgetExceeded too, keeping the traceback (and so the template line)."""
    if _CURRENT.get() is not None:
        return fn(*args, **kwargs)
    token = _CURRENT.set(Budget())
    try:
        return fn(*args, **kwargs)
    except RecursionError as exc:
        raise too_deep().with_traceback(exc.__traceback__) from None
    except MemoryError as exc:
        raise too_big(MAX_SIZE + 1).with_traceback(exc.__traceback__) from None
    finally:
        _CURRENT.reset(token)


def size_of(value, limit: int = MAX_SIZE) -> int:
    """About how many characters `value` takes written out: a text's length, a number's
    digits, a list's items and all they hold. Stops counting past `limit` (a list that holds
    the same long list many times is measured no further than that)."""
    kind = type(value)
    if kind is str:
        return len(value)
    if kind is int:
        return value.bit_length() // 3 + 1
    if kind not in (list, tuple, dict, set, frozenset, Namespace) and not isinstance(value, (str, list, tuple, dict)):
        return 1
    total, stack = 0, [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += len(item) + 1
            stack.extend(item)
        elif isinstance(item, dict):
            total += 2 * len(item) + 1
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, Namespace):
            stack.append(object.__getattribute__(item, "_Namespace__attrs"))
        elif type(item) is int:
            total += item.bit_length() // 3 + 1
        else:
            total += 1
    return total


def built(value):
    """`value`, checked and charged as something an expression just made."""
    kind = type(value)
    if kind is str:
        size = len(value)
    elif kind is int or isinstance(value, int):
        if value.bit_length() > MAX_BITS:
            raise too_large_a_number()
        return value
    elif kind is float or value is None:
        return value
    else:
        size = size_of(value)
    if size > MAX_SIZE:
        raise too_big(size)
    if size >= CHARS_PER_STEP:
        charge(size // CHARS_PER_STEP)
    return value


def will_build(size: int) -> None:
    """Before building something of `size` characters or items: refuse it if it is too big,
    else charge it."""
    if size > MAX_SIZE:
        raise too_big(size)
    if size >= CHARS_PER_STEP:
        charge(size // CHARS_PER_STEP)


def will_read(value) -> None:
    """Charge reading `value` (a filter that scans a text or list)."""
    if isinstance(value, (str, list, tuple, dict)) and len(value) >= CHARS_PER_STEP:
        charge(len(value) // CHARS_PER_STEP)


def turns(iterable, steps: int = 1):
    """`iterable`, `steps` charged per item taken from it (a `for` loop's turn)."""
    budget = _CURRENT.get()
    if budget is None:
        yield from iterable
        return
    for item in iterable:
        budget.steps += steps            # (Budget.charge, inline: a loop turn is the commonest charge)
        if budget.steps >= budget._look_at:
            budget._look()
        yield item
