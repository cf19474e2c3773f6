"""What every layout element shares: an optional `when` condition, paint, and numeric keys
that may be expressions evaluated for each card (`w: "{{ card.width - 2 * card.safe }}"`)."""

# (no "from __future__ import annotations" where models are made: see sources.validation.Schema)

from functools import cache
from typing import Annotated, ClassVar, get_args

from pydantic import ConfigDict, Field, ValidationError, WrapValidator, model_validator
from pydantic_core import PydanticCustomError

from ..errors import LayoutError
from ..expr import jinja
from ..ops import Paint
from ..sources.validation import Schema, keys_of


def has_expr(value) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


class NumberExpression(str):
    """A numeric key written as an expression, kept as written when the template is read and
    evaluated to a number for each card as it is drawn (Element.resolved)."""


def _number_or_expression(value, handler):
    if has_expr(value):
        return NumberExpression(value)
    try:
        return handler(value)
    except ValidationError as exc:
        if isinstance(value, str) and exc.errors()[0]["type"] in ("float_parsing", "int_parsing"):
            raise PydanticCustomError("number_or_expression", "expected a number or an expression such as "
                                      "'{{ card.width - 6 }}'") from None
        raise


EXPRESSION_ALLOWED = WrapValidator(_number_or_expression)
"""Marks a number type that also takes an expression (read by the reference and JSON Schemas)."""


def number(*, whole: bool = False, **limits):
    """The type of a numeric key: a number within `limits` (pydantic's ge, gt, le...), or an
    expression '{{ ... }}' whose value, worked out per card, must be such a number."""
    return Annotated[int if whole else float, Field(**limits), EXPRESSION_ALLOWED]


Coord = number(ge=-1000, le=1000, allow_inf_nan=False)
"""A position in mm; anything beyond a metre from the card is a typo."""
Point = tuple[Coord, Coord]
Dash = Annotated[list[Annotated[float, Field(gt=0, le=100)]], Field(max_length=8)]
Opacity = number(ge=0, le=1, allow_inf_nan=False)
"""How opaque what an element paints is: 1 hides what lies under it, 0 is not seen at all."""


def faded(color, opacity: float):
    """`color` (a reportlab colour, or None for no paint) with its alpha multiplied by
    `opacity`; the very same object when opacity is 1 (colours are shared, never changed)."""
    if color is None or opacity >= 1:
        return color
    return color.clone(alpha=float(color.alpha) * opacity)


def _may_hold_expressions(annotation, depth: int = 0) -> bool:
    """Whether a value of `annotation` can hold a NumberExpression: the type is, or has inside
    it (a point, a list of points), a number(...) type."""
    args = get_args(annotation)
    return depth < 8 and any(arg is EXPRESSION_ALLOWED or _may_hold_expressions(arg, depth + 1) for arg in args)


@cache
def numeric_keys(model: type) -> tuple[str, ...]:
    """The keys of an element model whose value can be, or hold, a numeric expression (every
    key but `when` whose type is, or holds, a number(...) type), worked out once per model."""
    return tuple(name for name, field in model.model_fields.items() if name != "when" and (
        EXPRESSION_ALLOWED in field.metadata or _may_hold_expressions(field.annotation)))


def _held_expressions(value) -> list[NumberExpression]:
    """The numeric expressions a key's value holds (itself, or in a list of points). Asked of
    every numeric key of every element read, so a plain number is answered first."""
    if type(value) is float or type(value) is int or value is None:
        return []
    if isinstance(value, NumberExpression):
        return [value]
    if isinstance(value, (list, tuple)):
        return [e for item in value for e in _held_expressions(item)]
    return []


class Element(Schema):
    """Base of the element vocabulary. Positions are mm from the trim box's top-left."""

    model_config = ConfigDict(defer_build=True)     # (made when first used: see elements.OneElement)

    when: str | None = None
    """A Jinja2 condition over the card's fields; the element is drawn only when it is true,
    e.g. `when: "type == 'Event'"`."""

    # plain attributes of the instance, not pydantic private ones: read for every element of
    # every card, they must cost no more than any attribute
    _numeric: ClassVar[tuple] = ()
    """The keys whose value is (or holds) a numeric expression, found once when it is read."""
    _origin: ClassVar[object] = None
    """Set on a resolved copy: what it was resolved from and to (a stable cache key)."""

    @model_validator(mode="after")
    def _find_numeric_expressions(self):
        found = tuple(name for name in numeric_keys(type(self)) if _held_expressions(getattr(self, name)))
        if found:
            object.__setattr__(self, "_numeric", found)
        return self

    def expressions(self) -> list[str]:
        """Every Jinja2 template string this element holds (for checks and static detection)."""
        out = []
        for name in keys_of(type(self)):
            value = getattr(self, name)
            if name != "when" and has_expr(value):
                out.append(value)
            elif name in self._numeric and not isinstance(value, str):
                out += _held_expressions(value)
        return out

    def has_numeric_expressions(self) -> bool:
        return bool(self._numeric)

    @property
    def cache_key(self):
        """Identifies what this element draws for a cache of its work (text laid out): a
        resolved copy by its original and the numbers it was given."""
        return id(self) if self._origin is None else self._origin

    def resolved(self, ctx) -> "Element":
        """This element with every numeric expression evaluated against the card being drawn
        and checked as the key's number would be (itself when it has none). Raises
        LayoutError naming the key, the expression and what it gave."""
        if not self._numeric:
            return self
        given = {name: getattr(self, name) for name in self.model_fields_set}
        evaluated = {name: _evaluated(getattr(self, name), name, ctx) for name in self._numeric}
        try:
            copy = type(self).model_validate({**given, **evaluated})
        except ValidationError as exc:
            raise LayoutError(_explained(exc, self, evaluated)) from None
        object.__setattr__(copy, "_origin", (id(self), repr(sorted(evaluated.items()))))
        return copy

    def draw_ops(self, ctx) -> list:
        """The element's operations for the card being drawn, numeric expressions evaluated."""
        return (self.resolved(ctx) if self._numeric else self).ops(ctx)

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


def _evaluated(value, key: str, ctx):
    """A key's value with each numeric expression in it replaced by the number it gives."""
    if isinstance(value, NumberExpression):
        found = ctx.value(value)
        if isinstance(found, jinja.Undefined):
            raise LayoutError(f"{key}: {str(value)!r}: {found._undefined_message}")
        if isinstance(found, str) and not has_expr(found):
            try:
                found = float(found)
            except ValueError:
                pass
        if isinstance(found, bool) or not isinstance(found, (int, float)):
            raise LayoutError(f"{key}: {str(value)!r} gives {found!r}, not a number; a numeric key's "
                              "expression must work out to a number, e.g. '{{ card.width - 6 }}'")
        return found
    if isinstance(value, (list, tuple)):
        return type(value)(_evaluated(item, key, ctx) for item in value)
    return value


def _explained(exc: ValidationError, element: Element, evaluated: dict) -> str:
    """A resolved element's first validation error, with the expression that led to it."""
    err = exc.errors(include_url=False)[0]
    key = next((part for part in err["loc"] if isinstance(part, str) and part in evaluated), None)
    reason = err["msg"].removeprefix("Value error, ").removeprefix("Input ")
    if key is None:
        return reason
    source = ", ".join(repr(str(e)) for e in _held_expressions(getattr(element, key)))
    return f"{key}: {source} gives {err.get('input', evaluated[key])!r}, which {reason}"


class Painted(Element):
    fill: str | None = None
    """Fill colour: '#rrggbb' ('#rrggbbaa' for a translucent one: its last two digits are its
    opacity, 00 clear to ff solid), a colour name, a name from the game's `colors`, or an
    expression."""
    stroke: str | None = None
    """Outline colour (none when omitted)."""
    stroke_width: number(ge=0, le=20) = 0.3
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
