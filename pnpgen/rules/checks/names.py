"""`names`: a checklist of the cards that must be present, by a field (usually title);
with `exact` (the default) nothing else may be there. It names missing and stray cards."""

from collections import Counter

from pydantic import Field

from ...errors import did_you_mean
from ...sources.validation import Schema
from .base import Finding, cards

ORDER = 40
"""Where `names` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """The cards that must be present, by name."""
"""What the rule's `names:` key holds, as the reference says it."""


class Spec(Schema):
    """A checklist: the cards that must be there, by the value of a field."""

    field: str = "title"
    """The field naming a card."""
    values: list[str] = Field(min_length=1)
    """Every value that must be present."""
    exact: bool = True
    """No cards other than these may be present."""


def validate(ctx, spec):
    ctx.need_field(spec.field)


def evaluate(ctx, spec, group):
    present = Counter()
    for card in group:
        present[str(card.get(spec.field))] += card.count
    wanted = [str(v) for v in spec.values]
    missing = [v for v in wanted if present[v] == 0]
    if missing:
        yield Finding(f"missing {cards(len(missing))}: " + ", ".join(missing))
    if spec.exact:
        listed = set(wanted)
        for card in group:
            value = str(card.get(spec.field))
            if value not in listed:
                yield Finding(f"card {card.code} ({spec.field} = {value!r}) is not on the list"
                              f"{did_you_mean(value, missing or wanted)}", card, [card.code])
