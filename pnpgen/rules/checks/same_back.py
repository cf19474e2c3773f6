"""`same_back: true`: the decks in scope share one common back, so that they shuffle
together without giving cards away."""

from .base import Finding

ORDER = 100
"""Where `same_back` stands among a rule's keys (in the schema, the reference and errors)."""
DOC = """All the decks share one common back design (true)."""
"""What the rule's `same_back:` key holds, as the reference says it."""

Spec = bool


def validate(ctx, spec):
    pass


def evaluate(ctx, spec, group):
    backs = {}
    for deck in ctx.decks:
        back = ctx.deck(deck).deck.back
        backs[deck] = None if back is None or back.per_card else back.template
    if len(set(backs.values())) != 1 or None in backs.values():
        shown = ", ".join(f"{d}: {b or 'no common back'}" for d, b in backs.items())
        yield Finding(f"the decks do not share one common back ({shown})")
