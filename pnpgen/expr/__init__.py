"""The one Jinja2 environment for template text, rule expressions and rulebooks: sandboxed,
immutable, strict about undefined names, and run under a budget of work and size.

A card file is untrusted input, so every evaluation is metered (budget.py): loop turns,
calls, the size of every text, list and number it builds, how deep its calls nest, and a
wall clock. guards.py wraps what can be called (filters, globals, text methods) to refuse
what would pass the limits before it is done; compiler.py bounds how deep an expression may
nest and meters `for` loops and `~`; sandbox.py is the environment that puts it together."""

from .budget import (CALL_STEPS, CHARS_PER_STEP, MAX_BITS, MAX_DEPTH, MAX_NESTING, MAX_SECONDS, MAX_SIZE,
                     MAX_STEPS, Budget, BudgetExceeded)
from .sandbox import SafeEnvironment, environment

__all__ = ["Budget", "BudgetExceeded", "CALL_STEPS", "CHARS_PER_STEP", "MAX_BITS", "MAX_DEPTH", "MAX_NESTING",
           "MAX_SECONDS", "MAX_SIZE", "MAX_STEPS", "SafeEnvironment", "environment"]
