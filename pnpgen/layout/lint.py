"""Check a template before any card is drawn: the syntax and names of every expression
(an error), and text boxes that reach into the cut's margin of error (a warning)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..errors import InputError, Notice, did_you_mean
from ..expr import jinja
from ..expr import names as expr_names
from ..game.loader import GameSource, TemplateSource
from .context import plain_name

if TYPE_CHECKING:
    from .context import Expressions
    from .layouter import Component

BUILTIN_NAMES = {"card", "game", "deck", "colors"}
"""Names every template sees beside the deck's fields (see `pnpgen schema variables`)."""


def footprint(text) -> tuple[float, float, float, float]:
    """The card area a (possibly rotated) text box covers: x0, y0, x1, y1."""
    a = math.radians(text.rotate)
    boxw, boxh = (text.h, text.w) if text.rotate % 180 == 90 else (text.w, text.h)
    hw = abs(boxw * math.cos(a)) / 2 + abs(boxh * math.sin(a)) / 2
    hh = abs(boxw * math.sin(a)) / 2 + abs(boxh * math.cos(a)) / 2
    cx, cy = text.x + text.w / 2, text.y + text.h / 2
    return cx - hw, cy - hh, cx + hw, cy + hh


def _inside(box, width, height, inset) -> bool:
    x0, y0, x1, y1 = box
    return x0 >= inset - 1e-6 and y0 >= inset - 1e-6 and x1 <= width - inset + 1e-6 and y1 <= height - inset + 1e-6


def check_template(game: GameSource, deck: Component, template: TemplateSource, exprs: Expressions,
                   common: bool, extra_names=()) -> list[Notice]:
    """Raise InputError for a bad or unknown name in any expression; return warnings. A
    common back may use only game, deck, colors and card; other templates also the fields of
    `deck` (a layouter's Component: a deck or a board) and `extra_names`, e.g. a slot's names.
    A '{{ name }}' of one of those names is fine without parsing it (or loading Jinja)."""
    known = (BUILTIN_NAMES if common else set(deck.field_names) | BUILTIN_NAMES) | set(extra_names)
    width, height = template.template.size or deck.size   # a packed deck's cards differ in size
    safe = deck.safe if deck.safe is not None else game.game.safe
    notices, allowed = [], None    # (allowed: `known` and the environment's globals, once Jinja is needed)
    for i, entry in enumerate(template.template.elements):
        el = entry.element
        line = template.doc.line(("elements", i))
        if entry.kind == "text" and not common and not el.has_numeric_expressions() and not _inside(footprint(el), width, height, safe):
            notices.append(Notice(template.doc.path, line,
                                  f"elements[{i}]: text box reaches into the outer {safe:g} mm of the card, where a cut "
                                  "that lands a little off can clip it; keep it inside the safe zone"))
        for src, shown, local in el.expressions_with_names():
            plain = plain_name(src)
            if plain is not None and plain != "not" and (plain in known or plain in local):
                continue      # (Jinja reads it as that name, or as none at all: self, a global)
            allowed = allowed or known | set(exprs.env.globals)
            try:
                names = expr_names.used(exprs.env, src)     # (kept on this machine: expr/names.py)
            except jinja.TemplateError as exc:
                raise InputError.at(template.doc.path, line,
                                    f"elements[{i}]: bad expression {shown!r}: {exc.message}") from None
            for name in sorted(names - allowed - set(local)):
                if common:
                    hint = ("; a common back is drawn once for every card, so it cannot use card "
                            "fields: set per_card: true on the deck's back")
                else:
                    hint = did_you_mean(name, (allowed | set(local)) - set(exprs.env.globals)) + \
                        f"; the {deck.kind} '{deck.id}' declares: {', '.join(deck.field_names) or 'no fields'}"
                raise InputError.at(template.doc.path, line,
                                    f"elements[{i}]: undefined name '{name}' in {shown!r}{hint}")
    return notices
