"""What every rule check shares: the cards as rules see them, findings, number ranges."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import model_validator

from ...sources.validation import Schema


@dataclass
class RuleCard:
    """A card entry as the rules see it (copies are a count, not repeated entries)."""

    deck: str
    code: str
    count: int
    fields: dict
    path: str
    line: int | None

    @property
    def title(self) -> str:
        for key in ("title", "name"):
            if self.fields.get(key):
                return str(self.fields[key])
        return self.code

    def get(self, name: str) -> Any:
        return self.fields.get(name)


@dataclass
class Finding:
    """One thing a check found wrong: about a card (located at it) or about the whole scope
    (located at the rule)."""

    message: str
    card: RuleCard | None = None
    codes: list[str] = field(default_factory=list)


class Range(Schema):
    """A number range; bounds may be expressions over the rule's variants, e.g. '2 * players'."""

    min: int | str | None = None
    """Smallest allowed value."""
    max: int | str | None = None
    """Largest allowed value."""

    @model_validator(mode="after")
    def _some(self):
        if self.min is None and self.max is None:
            raise ValueError("give min:, max: or both")
        return self


def cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def total(group) -> int:
    return sum(c.count for c in group)


def outside(ctx, have: int, want) -> str | None:
    """None when `have` meets `want` (an int or a Range), else what was expected."""
    if isinstance(want, int):
        return None if have == want else f"expected exactly {want}"
    lo, hi = ctx.bound(want.min), ctx.bound(want.max)
    if (lo is not None and have < lo) or (hi is not None and have > hi):
        if lo is not None and hi is not None:
            return f"expected between {lo} and {hi}"
        return f"expected at least {lo}" if lo is not None else f"expected at most {hi}"
    return None


def hashable(value):
    """A field's value as a key: lists and mappings (a list field's items may be either) as
    tuples, however deep."""
    if isinstance(value, list):
        return tuple(hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), hashable(v)) for k, v in value.items()))
    return value
