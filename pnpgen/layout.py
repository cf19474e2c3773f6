"""Lay out cards: evaluate a template's elements against a card's fields and return
positioned draw operations (ops.py), in card millimetres. Pure with respect to output:
nothing here touches a PDF.

Elements that look the same on every card (no expressions, no `when`) are grouped into
runs that render once as shared forms; only the rest is evaluated per card."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from jinja2 import TemplateError, UndefinedError, meta
from PIL import Image as PILImage
from reportlab.lib import colors as rl_colors

from . import expr, fonts, ops
from .elements.base import has_expr
from .errors import InputError, did_you_mean
from .expand import PrintCard
from .game import DeckSource, GameSource, TemplateSource, confined

MAX_IMAGE_BYTES = 50_000_000
MAX_IMAGE_PIXELS = 80_000_000
PILImage.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
BUILTIN_NAMES = {"card", "game", "deck", "colors"}
_SIMPLE = re.compile(r"^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$")


def _footprint(text) -> tuple[float, float, float, float]:
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


class LayoutError(Exception):
    """A problem found while evaluating one element; located by the caller."""


@dataclass
class Plan:
    """A template prepared for one deck: ('form', name) and ('element', index, element) steps."""

    source: TemplateSource
    steps: list


class Layouter:
    """Turns the cards of one deck into draw operations."""

    def __init__(self, game: GameSource, deck: DeckSource):
        self.game = game
        self.deck = deck
        self.width, self.height = deck.size
        self.bleed = game.game.bleed
        self.env = expr.environment()
        self._compiled: dict[str, object] = {}
        self._conditions: dict[str, object] = {}
        self._colors: dict = {}
        self._images: dict = {}
        self._fonts: dict = {}
        self.forms: dict[str, tuple[tuple[float, float], list]] = {}  # name -> (size mm, ops)
        self.warnings: list[str] = []
        self.text_cache: dict = {}
        self.vars: dict = {}
        self._where = ""
        g = game.game
        self._shared_vars = {"game": {"title": g.title, "code": g.code},
                             "deck": {"name": deck.deck.name, "id": deck.id}, "colors": dict(g.colors)}
        self.icons = {}  # name -> aspect (w / h)
        self._prepare_icons()
        self._plans: dict[str, Plan] = {}

    # --- the context elements call back into -------------------------------------------
    def eval(self, value: str) -> str:
        if not has_expr(value):
            return value
        tpl = self._compiled.get(value)
        if tpl is None:
            simple = _SIMPLE.match(value)
            # '{{ name }}' is most of what templates say: look it up without a Jinja render
            tpl = self._compiled[value] = simple.group(1) if simple else self.env.from_string(value)
        if isinstance(tpl, str):
            try:
                result = self.vars[tpl]
            except KeyError:
                raise UndefinedError(f"'{tpl}' is undefined") from None
            return result if isinstance(result, str) else str(result)
        return tpl.render(self.vars)

    def color(self, value):
        if value is None:
            return None
        value = self.eval(value)
        try:
            return self._colors[value]
        except KeyError:
            pass
        name = value.strip()
        if name.lower() in ("", "none", "transparent"):
            result = None
        else:
            palette = self.game.game.colors
            spec = palette.get(name, name)
            try:
                result = rl_colors.toColor(spec)
            except Exception:  # reportlab raises ValueError, AssertionError, ... on odd input
                raise LayoutError(f"unknown colour '{value}'{did_you_mean(name, palette)}; "
                                  "use '#rrggbb', a colour name or one of the game's colors") from None
        self._colors[value] = result
        return result

    def font(self, name: str) -> str:
        key = self._fonts.get(name)
        if key is None:
            if name in self.game.game.fonts:
                path = confined(self.game.root, self.game.game.fonts[name])
                if not path.is_file():
                    raise LayoutError(f"font file '{self.game.game.fonts[name]}' not found")
            elif name in fonts.BUILTIN:
                path = fonts.BUILTIN[name]
            else:
                raise LayoutError(f"unknown font '{name}'{did_you_mean(name, set(fonts.BUILTIN) | set(self.game.game.fonts))}")
            key = self._fonts[name] = fonts.ensure(name, path)
        return key

    def bold_of(self, key: str) -> str:
        for name, k in self._fonts.items():
            if k == key:
                for cand in (name + "-bold", name.replace("-italic", "") + "-bold"):
                    if cand in fonts.BUILTIN or cand in self.game.game.fonts:
                        return self.font(cand)
        return self.font("sans-bold")

    def image(self, src: str):
        """(absolute path, (w, h) px) of an image in the game folder, checked once."""
        if src in self._images:
            return self._images[src]
        try:
            path = confined(self.game.root, src)
        except ValueError as exc:
            raise LayoutError(str(exc)) from None
        if not path.is_file():
            raise LayoutError(f"image '{src}' not found in {self.game.root.name}/")
        if path.stat().st_size > MAX_IMAGE_BYTES:
            raise LayoutError(f"image '{src}' is larger than {MAX_IMAGE_BYTES // 1_000_000} MB")
        try:
            with PILImage.open(path) as im:
                if im.format not in ("PNG", "JPEG"):
                    raise LayoutError(f"image '{src}' is {im.format}; use PNG or JPEG")
                size = im.size
        except (OSError, PILImage.DecompressionBombError) as exc:
            raise LayoutError(f"cannot read image '{src}': {exc}") from None
        self._images[src] = (str(path), size)
        return self._images[src]

    def warn(self, message: str) -> None:
        self.warnings.append(f"{self._where}: {message}")

    # --- checking -------------------------------------------------------------------------
    def check(self, template: TemplateSource, common: bool) -> None:
        """Syntax and names of every expression, before any card is drawn. A common back may
        use only game, deck and colors; other templates may use the deck's fields."""
        allowed = {"game", "deck", "colors", "card"} if common else set(self.deck.deck.fields) | BUILTIN_NAMES
        allowed |= set(self.env.globals)
        safe = self.game.game.safe
        for i, entry in enumerate(template.template.elements):
            el = entry.element
            if entry.text is not None and not common and not _inside(_footprint(el), self.width, self.height, safe):
                self.warnings.append(f"{template.doc.path}:{template.doc.line(('elements', i))}: elements[{i}]: "
                                     f"text box reaches into the outer {safe:g} mm of the card, where a cut "
                                     "that lands a little off can clip it; keep it inside the safe zone")
            sources = [("{{ (%s) }}" % el.when, el.when)] if el.when else []
            sources += [(s, s) for s in el.expressions()]
            for src, shown in sources:
                line = template.doc.line(("elements", i))
                try:
                    names = meta.find_undeclared_variables(self.env.parse(src))
                except TemplateError as exc:
                    raise InputError.at(template.doc.path, line,
                                        f"elements[{i}]: bad expression {shown!r}: {exc.message}") from None
                for name in sorted(names - allowed):
                    if common:
                        hint = ("; a common back is drawn once for every card, so it cannot use card "
                                "fields: set per_card: true on the deck's back")
                    else:
                        hint = did_you_mean(name, allowed - set(self.env.globals)) + \
                            f"; the deck '{self.deck.id}' declares: {', '.join(self.deck.deck.fields) or 'no fields'}"
                    raise InputError.at(template.doc.path, line,
                                        f"elements[{i}]: undefined name '{name}' in {shown!r}{hint}")

    # --- laying out ---------------------------------------------------------------------
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
                self._where = str(tpl.path)
                self.vars = self._base_vars(None)
                out = []
                for i, el in run:
                    out += self._element_ops(tpl, i, el, None)
                self.forms[form] = ((self.width, self.height), out)
                steps.append(("form", form))
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

    def layout(self, card: PrintCard | None, template: str) -> list:
        """Draw operations for `card` (None for a common back) with `template`."""
        plan = self.plan(template)
        tpl = plan.source
        self.vars = self._base_vars(card)
        self._where = f"{card.code}" if card else f"{self.deck.id} back"
        out = []
        for step in plan.steps:
            if step[0] == "form":
                out.append(ops.Form(step[1]))
                continue
            _, i, el = step
            if el.when is not None and not self._condition(tpl, i, el.when, card):
                continue
            out += self._element_ops(tpl, i, el, card)
        if card is not None and tpl.template.code is not False:
            try:
                out.append(self._code_mark(tpl.template.code, card.code))
            except LayoutError as exc:
                raise InputError.at(tpl.doc.path, tpl.doc.line(("code",)), f"code: {exc}") from None
        return out

    def _condition(self, tpl, i, expr, card):
        fn = self._conditions.get(expr)
        if fn is None:
            fn = self._conditions[expr] = self.env.compile_expression(expr)
        try:
            return bool(fn(**self.vars))
        except (TemplateError, TypeError, ValueError, ArithmeticError) as exc:
            raise self._locate(tpl, i, card, f"when: {expr!r}: {getattr(exc, 'message', None) or exc}")

    def _element_ops(self, tpl, i, el, card):
        try:
            return el.ops(self)
        except LayoutError as exc:
            raise self._locate(tpl, i, card, str(exc))
        except UndefinedError as exc:
            raise self._locate(tpl, i, card, f"{exc.message}; check the field names in the template")
        except (TemplateError, TypeError, ValueError, ArithmeticError) as exc:
            raise self._locate(tpl, i, card, f"cannot evaluate: {getattr(exc, 'message', None) or exc}")

    def _locate(self, tpl, i, card, message) -> InputError:
        where = ""
        if card is not None:
            where = f" (card {card.code}, {self.deck.doc.path}:{card.entry.line})"
        return InputError.at(tpl.doc.path, tpl.doc.line(("elements", i)), f"elements[{i}]: {message}{where}")

    def _base_vars(self, card: PrintCard | None) -> dict:
        """The names a template sees: the card's fields plus game, deck, colors and card."""
        shared = self._shared_vars
        card_info = {"width": self.width, "height": self.height, "bleed": self.bleed,
                     "safe": self.game.game.safe}
        if card is None:
            return {**shared, "card": card_info}
        card_info.update(code=card.code, copy=card.copy, count=card.entry.count)
        return {**shared, **card.entry.fields, "card": card_info}

    def _code_mark(self, mark, code: str):
        key = self.font("sans")
        size = mark.size
        pt = 25.4 / 72
        w = fonts.width(code, key) * size * pt
        x0 = 0.0 if mark.x is None else mark.x
        bw = self.width if mark.w is None else mark.w
        y = self.height - 2.3 if mark.y is None else mark.y
        x = {"left": x0, "center": x0 + (bw - w) / 2, "right": x0 + bw - w}[mark.align]
        return ops.Text(((x, y, (ops.Run(0.0, code, key, False, w),)),), size,
                        self.color(mark.color), 0.0, 0.0, 0.0)

    # --- icons ----------------------------------------------------------------------------
    def _prepare_icons(self):
        for name, icon in sorted(self.game.game.icons.items()):
            where = ("icons", name)
            try:
                if icon.image is not None:
                    path, (pw, ph) = self.image(icon.image)
                    box = (10.0 * pw / ph, 10.0)
                    body = [ops.Image(path, 0, 0, box[0], box[1], None)]
                else:
                    box = icon.size
                    saved = (self.width, self.height)
                    self.width, self.height = box
                    body = []
                    for entry in icon.elements:
                        body += entry.element.ops(self)
                    self.width, self.height = saved
            except LayoutError as exc:
                raise InputError.at(self.game.doc.path, self.game.doc.line(where), f"icons.{name}: {exc}") from None
            self.forms[f"icon.{name}"] = (box, body)
            self.icons[name] = box[0] / box[1]

