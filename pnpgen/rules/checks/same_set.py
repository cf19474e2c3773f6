"""`same_set`: every group holds the same collection of values, e.g. "every captain has
the same 9 map cards". Groups are compared with the most common collection."""

from collections import Counter, defaultdict

from ...sources.validation import Schema
from .base import Finding, hashable

ORDER = 80
"""Where `same_set` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """Every group holds the same values."""
"""What the rule's `same_set:` key holds, as the reference says it."""


class Spec(Schema):
    """Every group holds the same values."""

    group_by: str
    """The field whose values form the groups."""
    field: str
    """The field whose values are compared (copies counted)."""


def validate(ctx, spec):
    ctx.need_field(spec.group_by)
    ctx.need_field(spec.field)


def _listing(counter):
    return ", ".join(f"{v}" + (f" x{n}" if n > 1 else "") for v, n in sorted(counter.items(), key=str))


def evaluate(ctx, spec, group):
    groups = defaultdict(Counter)
    for card in group:
        groups[str(card.get(spec.group_by))][hashable(card.get(spec.field))] += card.count
    if len(groups) < 2:
        return
    collections = list(groups.values())
    ref_key, reference = max(groups.items(), key=lambda kv: (collections.count(kv[1]), kv[0]))
    for key, values in sorted(groups.items()):
        if values != reference:
            parts = []
            if reference - values:
                parts.append("lacks " + _listing(reference - values))
            if values - reference:
                parts.append("has extra " + _listing(values - reference))
            yield Finding(f"{spec.group_by} = {key} {' and '.join(parts)} "
                          f"(compared with {spec.group_by} = {ref_key})")
