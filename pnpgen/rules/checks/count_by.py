"""`count_by`: how many cards per value of a field, e.g. "67 Evolution and 6 Event" or
"2 bullets per colour"."""

from collections import defaultdict

from pydantic import model_validator

from ...sources.validation import Schema
from .base import Finding, Range, cards, outside, total

ORDER = 20
"""Where `count_by` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """How many cards have each value of a field."""
"""What the rule's `count_by:` key holds, as the reference says it."""


class Spec(Schema):
    """Count the cards (copies included) per value of a field."""

    field: str
    """The field to group by."""
    expect: dict[str, int] | None = None
    """Exact count per value, e.g. {Stack: 15, Attack: 10}."""
    each: int | Range | None = None
    """A count every group must have (e.g. 2 bullets per colour)."""
    others: bool = False
    """Allow values that `expect` does not list."""

    @model_validator(mode="after")
    def _one(self):
        if self.expect is None and self.each is None:
            raise ValueError("give expect: {value: count, ...} or each: N")
        return self


def validate(ctx, spec):
    ctx.need_field(spec.field)
    for value in spec.expect or {}:
        ctx.need_value(spec.field, value)


def evaluate(ctx, spec, group):
    groups = defaultdict(list)
    for card in group:
        groups[str(card.get(spec.field))].append(card)
    if spec.expect is not None:
        for value, want in spec.expect.items():
            have = total(groups.get(str(value), []))
            if have != want:
                yield Finding(f"{cards(have)} with {spec.field} = {value}, expected {want}")
        if not spec.others:
            listed = {str(v) for v in spec.expect}
            for value, members in groups.items():
                if value not in listed:
                    for card in members:
                        yield Finding(f"card {card.code} has {spec.field} = {card.get(spec.field)!r}, which the "
                                      f"rule does not allow (expected one of: {', '.join(map(str, spec.expect))})",
                                      card, [card.code])
    if spec.each is not None:
        for value, members in sorted(groups.items()):
            have = total(members)
            expected = outside(ctx, have, spec.each)
            if expected:
                yield Finding(f"{cards(have)} with {spec.field} = {value}, {expected.replace('exactly ', '')}")
