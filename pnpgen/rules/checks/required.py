"""`required`: fields every card in scope must give (no empty values)."""

from .base import Finding

ORDER = 60
"""Where `required` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """Fields every card must give."""
"""What the rule's `required:` key holds, as the reference says it."""

Spec = list[str]


def validate(ctx, spec):
    for name in spec:
        ctx.need_field(name)


def evaluate(ctx, spec, group):
    for card in group:
        missing = [name for name in spec if card.get(name) in (None, "", [])]
        if missing:
            yield Finding(f"card {card.code} ({card.title}) lacks {', '.join(missing)}", card, [card.code])
