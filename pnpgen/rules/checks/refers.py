"""`refers`: a field names something that must exist in another deck, e.g. "a Promotion
names a Persona of the deck" or "every soldier names a town on the board"."""

from pydantic import Field

from ...errors import did_you_mean
from ...sources.validation import Schema
from .base import Finding

ORDER = 90
"""Where `refers` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """A field that names something in another deck."""
"""What the rule's `refers:` key holds, as the reference says it."""


class Spec(Schema):
    """A field that names something in another deck."""

    field: str
    """The field holding the reference (a value or a list of values)."""
    to: str = Field(pattern=r"^[a-z][a-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_]*$")
    """Where the named things live, as deck.field (e.g. main.title)."""
    where: str | None = None
    """Only targets satisfying this expression count (e.g. "type in ['Hero', 'Operative']")."""


def validate(ctx, spec):
    ctx.need_field(spec.field)
    deck, name = spec.to.split(".")
    ctx.need_deck(deck)
    ctx.need_field(name, ctx.fields_of([deck]))
    if spec.where:
        ctx.expr(spec.where, set(ctx.fields_of([deck])) | {"card"})


def evaluate(ctx, spec, group):
    deck, name = spec.to.split(".")
    where = ctx.expr(spec.where, set(ctx.fields_of([deck])) | {"card"}) if spec.where else None
    targets = {str(c.get(name)) for c in ctx.cards_of(deck) if where is None or ctx.true(where, c, variant=False)}
    for card in group:
        value = card.get(spec.field)
        if value in (None, ""):
            continue
        for v in value if isinstance(value, list) else [value]:
            if str(v) not in targets:
                yield Finding(f"card {card.code} ({card.title}): {spec.field} = {v!r} names nothing in "
                              f"{spec.to}{did_you_mean(v, targets)}", card, [card.code])
