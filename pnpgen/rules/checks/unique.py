"""`unique`: a field (or several fields together) that no two cards share. A second copy
of a card counts as a repeat, so `unique: title` means "one copy of each card"."""

from .base import Finding, hashable

ORDER = 30
"""Where `unique` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """A field (or fields together) that no two cards share; copies count as repeats."""
"""What the rule's `unique:` key holds, as the reference says it."""

Spec = str | list[str]


def _keys(spec):
    return [spec] if isinstance(spec, str) else spec


def validate(ctx, spec):
    for name in _keys(spec):
        ctx.need_field(name)


def evaluate(ctx, spec, group):
    keys = _keys(spec)
    seen = {}
    for card in group:
        shown = ", ".join(f"{k} = {card.get(k)!r}" for k in keys)
        if card.count > 1:
            yield Finding(f"card {card.code} ({shown}) has {card.count} copies; only one is allowed",
                          card, [card.code])
        key = tuple(hashable(card.get(k)) for k in keys)
        if key in seen:
            first = seen[key]
            yield Finding(f"card {card.code} repeats {shown} of card {first.code} ({first.path}:{first.line})",
                          card, [card.code, first.code])
        else:
            seen[key] = card
