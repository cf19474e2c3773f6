"""What every layout element shares: an optional `when` condition, and paint."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ..ops import Paint
from ..sources.validation import Schema

Coord = Annotated[float, Field(ge=-1000, le=1000, allow_inf_nan=False)]
"""A position in mm; anything beyond a metre from the card is a typo."""
Point = tuple[Coord, Coord]
Dash = Annotated[list[Annotated[float, Field(gt=0, le=100)]], Field(max_length=8)]
Opacity = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
"""How opaque what an element paints is: 1 hides what lies under it, 0 is not seen at all."""


def faded(color, opacity: float):
    """`color` (a reportlab colour, or None for no paint) with its alpha multiplied by
    `opacity`; the very same object when opacity is 1 (colours are shared, never changed)."""
    if color is None or opacity >= 1:
        return color
    return color.clone(alpha=float(color.alpha) * opacity)


def has_expr(value) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


class Element(Schema):
    """Base of the element vocabulary. Positions are mm from the trim box's top-left."""

    when: str | None = None
    """A Jinja2 condition over the card's fields; the element is drawn only when it is true,
    e.g. `when: "type == 'Event'"`."""

    def expressions(self) -> list[str]:
        """Every Jinja2 template string this element holds (for checks and static detection)."""
        out = []
        for name in type(self).model_fields:
            value = getattr(self, name)
            if name != "when" and has_expr(value):
                out.append(value)
        return out

    def expressions_with_names(self):
        """(source, as shown in errors, names this element itself adds) for each expression,
        `when` included; the names a template may use are checked against these."""
        out = [("{{ (%s) }}" % self.when, self.when, ())] if self.when else []
        return out + [(s, s, ()) for s in self.expressions()]

    def is_static(self) -> bool:
        """True when the element looks the same on every card, so it can be drawn once."""
        return self.when is None and not self.expressions()

    def ops(self, ctx) -> list:  # pragma: no cover - each element overrides
        raise NotImplementedError


class Painted(Element):
    fill: str | None = None
    """Fill colour: '#rrggbb' ('#rrggbbaa' for a translucent one: its last two digits are its
    opacity, 00 clear to ff solid), a colour name, a name from the game's `colors`, or an
    expression."""
    stroke: str | None = None
    """Outline colour (none when omitted)."""
    stroke_width: float = Field(0.3, ge=0, le=20)
    """Outline width in mm."""
    dash: Dash | None = None
    """Dash pattern in mm, e.g. [1, 0.5]."""
    opacity: Opacity = 1
    """How opaque the fill and outline are, 0 to 1 (0.5 lets half of what lies under them
    show through); it multiplies the transparency a '#rrggbbaa' colour already has."""

    def paint(self, ctx) -> Paint:
        return Paint(faded(ctx.color(self.fill), self.opacity), faded(ctx.color(self.stroke), self.opacity),
                     self.stroke_width, tuple(self.dash or ()))


def bleed_box(x, y, w, h, ctx):
    """Grow a box by the bleed on each side that touches (or passes) the trim edge."""
    b, cw, ch = ctx.bleed, ctx.width, ctx.height
    x0, y0, x1, y1 = x, y, x + w, y + h
    if x0 <= 0.01:
        x0 = min(x0, -b)
    if y0 <= 0.01:
        y0 = min(y0, -b)
    if x1 >= cw - 0.01:
        x1 = max(x1, cw + b)
    if y1 >= ch - 0.01:
        y1 = max(y1, ch + b)
    return x0, y0, x1 - x0, y1 - y0
