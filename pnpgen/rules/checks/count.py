"""`count`: how many cards (copies included) the rule's scope holds: `count: 73`, or
`count: {min: 12}`, `{max: 5}`, `{min: 7, max: 9}`."""

from .base import Finding, Range, cards, outside, total

ORDER = 10
"""Where `count` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """How many cards (copies included) there are: a number or {min:, max:}."""
"""What the rule's `count:` key holds, as the reference says it."""

Spec = int | Range


def validate(ctx, spec):
    pass


def evaluate(ctx, spec, group):
    have = total(group)
    expected = outside(ctx, have, spec)
    if expected:
        yield Finding(f"{cards(have)}, {expected}")
