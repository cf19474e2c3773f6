"""`allowed`: the values a field may take: a list, or a number range and step. For a list
field (e.g. four corner numbers) every item is checked."""

from typing import Any

from ...sources.validation import Schema
from .base import Finding

ORDER = 70
"""Where `allowed` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """The values a field may take."""
"""What the rule's `allowed:` key holds, as the reference says it."""


class Spec(Schema):
    """The values a field may take."""

    field: str
    """The field checked."""
    values: list[Any] | None = None
    """The only values allowed."""
    min: float | None = None
    """Smallest number allowed."""
    max: float | None = None
    """Largest number allowed."""
    multiple_of: float | None = None
    """Numbers must be a multiple of this."""
    empty: bool = True
    """An empty (missing) value passes; set false to require the field too."""


def validate(ctx, spec):
    ctx.need_field(spec.field)
    for value in spec.values or []:
        ctx.need_value(spec.field, value)


def _problem(spec, value):
    if value in (None, "", []):
        return None if spec.empty else "is missing"
    if spec.values is not None and value not in spec.values:
        return f"= {value!r} is not one of: {', '.join(map(str, spec.values))}"
    if spec.min is None and spec.max is None and spec.multiple_of is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"= {value!r} is not a number"
    if spec.min is not None and value < spec.min:
        return f"= {value} is below {spec.min:g}"
    if spec.max is not None and value > spec.max:
        return f"= {value} is above {spec.max:g}"
    if spec.multiple_of and abs(value / spec.multiple_of - round(value / spec.multiple_of)) > 1e-9:
        return f"= {value} is not a multiple of {spec.multiple_of:g}"
    return None


def evaluate(ctx, spec, group):
    for card in group:
        value = card.get(spec.field)
        if isinstance(value, list) and value:
            problem = next((p for p in (_problem(spec, item) for item in value) if p), None)
        else:
            problem = _problem(spec, value)
        if problem:
            yield Finding(f"card {card.code} ({card.title}): {spec.field} {problem}", card, [card.code])
