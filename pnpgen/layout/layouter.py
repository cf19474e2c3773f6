"""Lay out cards: evaluate a template's elements against a card's fields and return
positioned draw operations (ops.py), in card millimetres. Pure with respect to output:
nothing here touches a PDF.

Elements that look the same on every card (no expressions, no `when`) are grouped into
runs that are drawn once as shared forms; only the rest is evaluated per card. What an
element needs while it draws comes in a Context (context.py); what it notices comes back
in the context's notes, which the layouter locates at the template's and the card's line."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .. import fonts, ops
from . import svg
from .context import Context, Expressions
from .nearmiss import draws_art, face_misses
from ..errors import InputError, LayoutError, Notice
from ..expr import jinja
from ..game.expand import PrintCard
from ..game.loader import GameSource, TemplateSource
from .resources import Resources

ICON = "icon:"
"""Prefix of an icon's form name (':' cannot occur in a template's name)."""


VARIABLES = (
    ("<field>", "any", "Each field the deck declares, with the card's value or the field's default; in a "
     "board's template, each of the board's `fields` (and a generated map's field, `seed` and `players`)."),
    ("card.code", "text", "The card's code, e.g. SWM-017 (empty on a common back)."),
    ("card.copy", "whole number", "Which copy of the card this is, from 1."),
    ("card.count", "whole number", "How many copies of the card are printed."),
    ("card.width", "number", "The trim width, mm, of what is drawn: the card, a packed token (its template's "
     "size) or a board; e.g. `w: \"{{ card.width }}\"` (every size name in mm: `sizes`)."),
    ("card.height", "number", "The trim height, mm (of the card, token or board)."),
    ("card.bleed", "number", "The game's bleed, mm."),
    ("card.safe", "number", "The safe-zone inset, mm: the deck's `safe`, or the game's."),
    ("deck.name", "text", "The deck's name (in a board's template, the board's)."),
    ("deck.id", "text", "The deck's file name without .yaml (in a board's template, the board's)."),
    ("game.title", "text", "The game's title."),
    ("game.code", "text", "The game's card-code prefix."),
    ("colors", "map of text", "The game's named colours, e.g. colors.ink or colors[type|lower]."),
    ("value, slot, index", "any, text, whole number", "Inside a `slots` element's draw: the slot's value, "
     "its position name (n, ne, ...) and its place in the list, from 0."),
)
"""The names a template's expressions can use (documented by `pnpgen schema variables`)."""


class Component(Protocol):
    """What the layouter needs of what it draws: a deck (game.cards.DeckSource) or a board
    (BoardSource), each a component of its own kind."""

    kind: str                    # "deck" or "board"
    id: str                      # its file name without .yaml: `deck.id` to a template

    @property
    def name(self) -> str: ...   # `deck.name` to a template

    @property
    def size(self) -> tuple[float, float]: ...   # the trim, mm, of a face (a template may set its own)

    @property
    def safe(self) -> float | None: ...   # its safe-zone inset, mm (None: the game's)

    @property
    def field_names(self) -> Collection[str]: ...   # the names its faces' fields give a template

    @property
    def cards_path(self) -> Path: ...   # the file a face's fields are written in (a card's line is a line of it)


@dataclass
class Plan:
    """A template prepared for one deck: ('form', name, the operation placing it) and
    ('element', index, element) steps."""

    source: TemplateSource
    steps: list


def icon_forms(game: GameSource, res: Resources, exprs: Expressions) -> dict[str, ops.FormDef]:
    """Each icon drawn once, as a form that text places inline at its own size."""
    forms = {}
    for name, icon in sorted(game.game.icons.items()):
        try:
            if icon.image is not None:
                key, _ = res.image(icon.image)
                box = (res.icon_height(name) * res.icons[name], res.icon_height(name))
                if svg.is_svg(key):
                    body = [ops.Svg(key, 0, 0, box[0], box[1], None, res.icon_colors.get(name))]
                else:
                    body = [ops.Image(key, 0, 0, box[0], box[1], None)]
            else:
                box = icon.size
                ctx = Context(res, exprs, {}, box, 0.0, {})
                body = [op for entry in icon.elements for op in entry.element.draw_ops(ctx)]
        except (LayoutError, jinja.TemplateError) as exc:
            raise InputError.at(game.doc.path, game.doc.line(("icons", name)), f"icons.{name}: {exc}") from None
        forms[ICON + name] = ops.FormDef(box, tuple(body), bleed=False)
    return forms


class Layouter:
    """Turns the cards of one deck (or the face of a board) into draw operations."""

    def __init__(self, game: GameSource, component: Component, res: Resources | None = None,
                 exprs: Expressions | None = None):
        self.game = game
        self.component = component
        self.size = component.size
        self.res = res or Resources(game)
        self.exprs = exprs or Expressions()
        self.forms: dict[str, ops.FormDef] = {}
        """Shared forms of this deck's templates, by name."""
        self.warnings: list[Notice] = []
        self.raw: list[Notice] | None = None
        """When a list: the warnings of the cards laid out go there as they come, repeats and
        all, not to `warnings` (the build keeps them with each page and takes them in, in page
        order, with `absorb`)."""
        self._seen: set[str] = set()
        self._plans: dict[str, Plan] = {}
        self._text_cache: dict = {}
        self._static: dict = {}
        self._edges_checked: set[str] = set()
        """Templates whose elements shared by every card were checked for near misses."""
        g = game.game
        self._shared = {"game": {"title": g.title, "code": g.code},
                        "deck": {"name": component.name, "id": component.id}, "colors": dict(g.colors)}

    # --- plans: which elements are drawn once ------------------------------------------
    def plan(self, name: str) -> Plan:
        plan = self._plans.get(name)
        if plan is None:
            plan = self._plans[name] = self._make_plan(self.game.templates[name])
        return plan

    def _make_plan(self, tpl: TemplateSource) -> Plan:
        steps, run = [], []

        def flush():
            if run:
                form = f"{tpl.name}.{run[0][0]}"
                ctx = self._context(None, tpl)
                body = []
                for i, el in run:
                    body += self._element_ops(ctx, tpl, i, el, None)
                self.forms[form] = ops.FormDef(tpl.template.size or self.size, tuple(body), bleed=True)
                steps.append(("form", form, ops.Form(form)))
                run.clear()

        for i, entry in enumerate(tpl.template.elements):
            el = entry.element
            if el.is_static():
                run.append((i, el))
            else:
                flush()
                steps.append(("element", i, el))
        flush()
        return Plan(tpl, steps)

    # --- laying out a card ----------------------------------------------------------------
    def layout(self, card: PrintCard | None, template: str) -> list:
        """Draw operations for `card` (None for a common back) with `template`."""
        out = []
        for _, body in self._drawn(card, template, shared=True):
            out += body
        return out

    def layout_by_element(self, card: PrintCard | None, template: str) -> list[tuple[int | str | None, list]]:
        """What `layout` draws, told element by element, for checks that name the template line
        that drew each thing: (element index, its operations) in drawing order, elements that
        are the same on every card included (laid out here, not placed as shared forms), then
        ("code", [the code mark]) when the card's code is printed."""
        return list(self._drawn(card, template, shared=False))

    def _drawn(self, card: PrintCard | None, template: str, shared: bool):
        plan = self.plan(template)
        tpl = plan.source
        ctx = self._context(card, tpl)
        drawn = {}   # element index -> its operations, for the near-miss check
        art = tpl.name not in self._edges_checked    # art that may miss: once for what every card shares
        for step in plan.steps:
            if step[0] == "form":
                if shared:
                    yield None, [step[2]]
                else:
                    yield from self._static_run(tpl, step[1])
                continue
            _, i, el = step
            if el.when is not None:
                try:
                    if not ctx.condition(el.when):
                        continue
                except (jinja.TemplateError, TypeError, ValueError, ArithmeticError) as exc:
                    raise self._locate(tpl, i, card, f"when: {el.when!r}: {getattr(exc, 'message', None) or exc}")
            body = drawn[i] = self._element_ops(ctx, tpl, i, el, card)
            art = art or draws_art(body)
            yield i, body
        if art:
            self._check_edges(plan, drawn, ctx)
        if card is not None and card.code and tpl.template.code is not False:
            try:
                yield "code", [self._code_mark(ctx, tpl.template.code, card.code)]
            except LayoutError as exc:
                raise InputError.at(tpl.doc.path, tpl.doc.line(("code",)), f"code: {exc}") from None
            except (jinja.TemplateError, TypeError, ValueError, ArithmeticError) as exc:    # as an element's are
                raise InputError.at(tpl.doc.path, tpl.doc.line(("code",)),
                                    f"code: cannot evaluate: {getattr(exc, 'message', None) or exc}") from None

    def _check_edges(self, plan: Plan, drawn: dict, ctx: Context) -> None:
        """Note the near misses (nearmiss.py) of a face whose own elements drew `drawn`, at
        their template lines: the template is what to change, whichever card shows it."""
        tpl = plan.source
        self._edges_checked.add(tpl.name)
        face = []
        for step in plan.steps:
            if step[0] == "form":
                face += self._static_run(tpl, step[1])
            elif step[1] in drawn:
                face.append((step[1], drawn[step[1]]))
        for i, miss in face_misses(face, ctx.width, ctx.height, ctx.bleed):
            self._note(tpl, i, None, miss.message(ctx.width, ctx.height), True)

    def _static_run(self, tpl: TemplateSource, form: str):
        """The elements of one shared form (a run of static elements from the index its name
        ends in), each with its own operations; laid out once per template."""
        key = (tpl.name, form)
        if key not in self._static:
            elements = tpl.template.elements
            first = i = int(form.rsplit(".", 1)[1])
            while i < len(elements) and elements[i].element.is_static():
                i += 1
            ctx = self._context(None, tpl)
            self._static[key] = [(j, self._element_ops(ctx, tpl, j, elements[j].element, None))
                                 for j in range(first, i)]
        return self._static[key]

    def _context(self, card: PrintCard | None, tpl: TemplateSource) -> Context:
        """The names a template sees: the card's fields plus game, deck, colors and card; the
        frame is the template's size (a packed deck's cards differ) or the deck's."""
        size = tpl.template.size or self.size
        w, h = size
        safe = self.component.safe if self.component.safe is not None else self.game.game.safe
        info = {"width": w, "height": h, "bleed": self.game.game.bleed, "safe": safe}
        if card is None:
            names = {**self._shared, "card": info}
        else:
            info.update(code=card.code, copy=card.copy, count=card.entry.count)
            names = {**self._shared, **card.entry.fields, "card": info}
        return Context(self.res, self.exprs, names, size, self.game.game.bleed, self._text_cache,
                       tpl.template.shape)

    def _element_ops(self, ctx: Context, tpl, i, el, card):
        try:
            result = el.draw_ops(ctx)
        except LayoutError as exc:
            raise self._locate(tpl, i, card, str(exc))
        except jinja.UndefinedError as exc:
            raise self._locate(tpl, i, card, f"{exc.message}; check the field names in the template")
        except (jinja.TemplateError, TypeError, ValueError, ArithmeticError) as exc:
            raise self._locate(tpl, i, card, f"cannot evaluate: {getattr(exc, 'message', None) or exc}")
        if ctx.notes:
            for message, strict in ctx.notes:
                self._note(tpl, i, card, message, strict)
            ctx.notes.clear()
        return result

    def _note(self, tpl, i, card, message, strict):
        """A warning at the card's line (its data is what the designer changes), naming the
        template's line too; each is reported once, not once per copy."""
        where = f"{tpl.doc.path}:{tpl.doc.line(('elements', i))}: elements[{i}]"
        if card is None:
            notice = Notice(tpl.doc.path, tpl.doc.line(("elements", i)), f"elements[{i}]: {message}", strict)
        else:
            notice = Notice(self.component.cards_path, card.entry.line, f"card {card.code}: {message} ({where})", strict)
        if self.raw is not None:
            self.raw.append(notice)
        else:
            self.absorb([notice])

    def absorb(self, notices) -> None:
        """Keep each warning once, in order (also those a worker process's layout gave)."""
        for notice in notices:
            key = str(notice)
            if key not in self._seen:
                self._seen.add(key)
                self.warnings.append(notice)

    def _locate(self, tpl, i, card, message) -> InputError:
        where = ""
        if card is not None:
            where = f" (card {card.code}, {self.component.cards_path}:{card.entry.line})"
        return InputError.at(tpl.doc.path, tpl.doc.line(("elements", i)), f"elements[{i}]: {message}{where}")

    def _code_mark(self, ctx: Context, mark, code: str):
        key = ctx.font("sans")
        size = mark.size
        pt = 25.4 / 72
        w = fonts.width(code, key) * size * pt
        width, height = ctx.width, ctx.height
        x0 = 0.0 if mark.x is None else mark.x
        bw = width if mark.w is None else mark.w
        y = height - 2.3 if mark.y is None else mark.y
        if mark.align == "center":
            x = x0 + (bw - w) / 2
        else:
            x = x0 + bw - w if mark.align == "right" else x0
        return ops.Text(((x, y, (ops.Run(0.0, code, key, False, w),)),), size,
                        ctx.color(mark.color), 0.0, 0.0, 0.0)
