"""`each`: an expression every card must satisfy, e.g. `each: "cost == 0"`, with an
optional `message` saying what is wrong in words."""

from .base import Finding

ORDER = 50
"""Where `each` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """An expression every card must satisfy, e.g. "cost == 0"."""
"""What the rule's `each:` key holds, as the reference says it."""
COMPANIONS = {"message": (str | None, """What to say when `each` fails (default: the expression).""")}
"""Rule keys that go with `each:` only: name -> (type, meaning)."""

Spec = str


def validate(ctx, spec):
    ctx.expr(spec)


def evaluate(ctx, spec, group):
    fn = ctx.expr(spec)
    for card in group:
        if not ctx.true(fn, card):
            yield Finding(f"card {card.code} ({card.title}) breaks: {ctx.rule.message or spec}", card, [card.code])
