"""`count`: how many cards (copies included) the rule's scope holds: `count: 73`, or
`count: {min: 12}`, `{max: 5}`, `{min: 7, max: 9}`."""

from .base import Finding, Range, cards, outside, total

Spec = int | Range


def validate(ctx, spec):
    pass


def evaluate(ctx, spec, group):
    have = total(group)
    expected = outside(ctx, have, spec)
    if expected:
        yield Finding(f"{cards(have)}, {expected}")
