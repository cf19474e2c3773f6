"""`each`: an expression every card must satisfy, e.g. `each: "cost == 0"`, with an
optional `message` saying what is wrong in words."""

from .base import Finding

Spec = str


def validate(ctx, spec):
    ctx.expr(spec)


def evaluate(ctx, spec, group):
    fn = ctx.expr(spec)
    for card in group:
        if not ctx.true(fn, card):
            yield Finding(f"card {card.code} ({card.title}) breaks: {ctx.rule.message or spec}", card, [card.code])
