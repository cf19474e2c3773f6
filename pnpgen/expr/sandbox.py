"""SafeEnvironment: Jinja's immutable sandbox with every way an expression can spend work or
memory going through the budget: calls, operators, subscripts, filters, output, `~` and
loops; compiling refuses what nests too deep. Templates and expressions it makes run
each evaluation under a budget of its own."""

from __future__ import annotations

import hashlib
import operator
import types
import warnings
from functools import update_wrapper
from itertools import islice

from jinja2 import StrictUndefined, nodes
from jinja2.environment import Template, TemplateExpression
from jinja2.exceptions import TemplateSyntaxError
from jinja2.parser import Parser
from jinja2.runtime import LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import pass_context
from markupsafe import Markup

from . import guards
from .kept import Kept
from .budget import (CALL_STEPS, CHARS_PER_STEP, MAX_BITS, MAX_DEPTH, MAX_SIZE, built, charge, current, run, size_of,
                     too_big, too_deep, too_large_a_number, turns, will_build, will_read)
from .compiler import (CHARGE_FILTER, LOOP_FILTER, MeteredCodeGenerator, check_nesting, meter, parser_line,
                       too_deep_for_python)
from .compiler import too_deep as nested_too_deep

GENERATED = Kept("generated", lambda source: isinstance(source, str))
"""The Python source Jinja generated for each text (SafeEnvironment._code)."""
COMPILED: dict[str, object] = {}
"""Python's code for each generated source, in this process: a build compiles each text it
draws, a check each rule, and a preview does both again at every save. Code objects are
never changed (each template runs its code in a namespace of its own), so one serves all."""
MAX_COMPILED = 4096
"""Codes kept in COMPILED at most (started afresh when full)."""
MAX_COMPILED_CHARS = 8_000_000
"""Characters of generated source behind the codes in COMPILED at most (started afresh past
it): a preview open for hours on a long rulebook compiles a new text at every save."""
_compiled_chars = 0
_SIZED_METHODS = {"ljust", "rjust", "center", "zfill", "expandtabs"}
"""Text methods that pad to a width: refused (the center filter does it within limits)."""
_TEXT_METHODS = {"join", "replace", "translate"}
"""Text methods whose arguments are checked before they run (guards.checked_method)."""


def _remember(generated: str, code) -> None:
    """Put `code` in COMPILED under its generated source, within MAX_COMPILED codes and
    MAX_COMPILED_CHARS characters."""
    global _compiled_chars
    if len(COMPILED) >= MAX_COMPILED or _compiled_chars + len(generated) > MAX_COMPILED_CHARS:
        COMPILED.clear()
        _compiled_chars = 0
    if len(generated) <= MAX_COMPILED_CHARS:
        COMPILED[generated] = code
        _compiled_chars += len(generated)


class BudgetedTemplate(Template):
    """A template whose every render runs under a budget."""

    def render(self, *args, **kwargs) -> str:
        return run(Template.render, self, *args, **kwargs)


class BudgetedExpression(TemplateExpression):
    """A compiled expression whose every evaluation runs under a budget."""

    def __call__(self, *args, **kwargs):
        return run(TemplateExpression.__call__, self, *args, **kwargs)


@pass_context
def _loop_turns(context, items, steps=1):
    return turns(items, steps)


@pass_context
def _charge_steps(context, steps):
    charge(steps)


class SafeEnvironment(ImmutableSandboxedEnvironment):
    """ImmutableSandboxedEnvironment metered by the budget (budget.py, guards.py)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = MeteredCodeGenerator
    template_class = BudgetedTemplate

    def __init__(self, **options):
        super().__init__(finalize=_finalize, **options)
        self.filters = guards.guard_filters(self.filters)
        self.filters.update({LOOP_FILTER: _loop_turns, CHARGE_FILTER: _charge_steps})
        self.tests = guards.guard_tests(self.tests)
        self.globals.update(range=guards.bounded_range, lipsum=guards.bounded_lipsum)
        self.policies["json.dumps_function"] = guards.bounded_dumps
        self._deepest = 1
        """The line of the deepest node of the template compiled last: where Python's own
        compiler gives up first, if it does."""
        self._checked: tuple = (None, 1)
        """The tree parsed last and the line of its deepest node (not measured twice)."""
        self._signature: tuple | None = None
        """How many globals, filters and tests it had, and their digest, when last asked (`signature`)."""

    def make_globals(self, d):
        """A template's globals as one plain dict: the environment's (set once, above) under the
        template's own. Jinja chains the two instead, to see globals added later, which pnpgen
        never adds; reading the chain at every render was half of rendering a short text."""
        return {**self.globals, **(d or {})}

    # --- running -------------------------------------------------------------------------
    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        budget = current()
        owner = getattr(__obj, "__self__", None) if isinstance(__obj, types.BuiltinMethodType) else None
        if isinstance(owner, (str, list, tuple, dict)):     # a method of a text or list: it reads it
            will_read(owner)
            if isinstance(owner, str) and __obj.__name__ in _TEXT_METHODS:
                args = guards.checked_method(__obj, args, kwargs)
        elif isinstance(__obj, LoopContext) and args:     # a recursive loop's next level
            args = (turns(args[0]),) + args[1:]
        if budget is None:
            return built(super().call(__context, __obj, *args, **kwargs))
        budget.charge(CALL_STEPS)
        budget.depth += 1
        try:
            if budget.depth > MAX_DEPTH:
                raise too_deep()
            return built(super().call(__context, __obj, *args, **kwargs))
        finally:
            budget.depth -= 1

    def call_binop(self, context, op, left, right):
        if op == "+":
            return _plus(left, right)
        if op == "*":
            return _times(left, right)
        if op == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0 and left.bit_length() * right > MAX_BITS:
                raise too_large_a_number()
            return operator.pow(left, right)
        if isinstance(left, str):                                             # op == "%"
            guards.printf(left, right)
            return built(operator.mod(left, right))
        return operator.mod(left, right)

    def getitem(self, obj, argument):
        value = super().getitem(obj, argument)
        return built(value) if type(argument) is slice else value

    def is_safe_attribute(self, obj, attr, value):
        if isinstance(obj, str) and attr in _SIZED_METHODS:
            return False  # padding to a huge width is a memory bomb; use a filter such as center
        return super().is_safe_attribute(obj, attr, value)

    def wrap_str_format(self, value):
        """str.format and format_map, through a formatter that checks every field."""
        if not isinstance(value, (types.MethodType, types.BuiltinMethodType)) or \
                value.__name__ not in ("format", "format_map") or not isinstance(value.__self__, str):
            return None
        text = value.__self__
        formatter = guards.BoundedEscapeFormatter(self, escape=text.escape) if isinstance(text, Markup) \
            else guards.BoundedFormatter(self)
        is_map = value.__name__ == "format_map"

        def wrapper(*args, **kwargs):
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                args, kwargs = (), args[0]
            return type(text)(formatter.vformat(text, args, kwargs))

        return update_wrapper(wrapper, value)

    @staticmethod
    def joined(values) -> str:
        """`a ~ b ~ ...`: measured before it is joined."""
        total = 0
        for value in values:
            total += len(value) if type(value) is str else size_of(value)
        will_build(total)
        return "".join(map(str, values))

    @staticmethod
    def compared(op: str, left, right) -> bool:
        """`left op right`, charged by the length of what is compared (or searched)."""
        if isinstance(right, (str, list, tuple, dict)) and len(right) >= CHARS_PER_STEP:
            charge(len(right) // CHARS_PER_STEP)
        return _COMPARE[op](left, right)

    @staticmethod
    def concat(pieces) -> str:
        """A template's (or a macro's, or a block's) output, stopped once it is too long."""
        if type(pieces) is list:          # a macro's or a block's: references to what is measured already
            length = sum(map(len, pieces))
        else:                             # a template's, as it is made: taken a few pieces at a time
            out, length = [], 0
            while True:
                chunk = list(islice(pieces, _CHUNK))
                length += sum(map(len, chunk))
                if length > MAX_SIZE and hasattr(pieces, "throw"):
                    pieces.throw(too_big(length))       # raised inside the template, so its line is known
                out += chunk
                if len(chunk) < _CHUNK:
                    break
            pieces = out
        will_build(length)
        return "".join(pieces)

    # --- compiling -----------------------------------------------------------------------
    def _parse(self, source, name, filename):
        try:
            tree = super()._parse(source, name, filename)
        except RecursionError as exc:
            raise nested_too_deep(parser_line(exc)) from None
        self._checked = (tree, check_nesting(tree))
        return tree

    def _generate(self, source, name, filename, defer_init=False):
        checked, deepest = self._checked
        self._deepest = deepest if checked is source else check_nesting(source)
        meter(source, self)
        try:
            return super()._generate(source, name, filename, defer_init)
        except RecursionError:
            raise nested_too_deep(self._deepest) from None

    def _compile(self, source, filename):
        try:
            with warnings.catch_warnings():     # Python's remarks on the generated code ("99[1]") are not the user's
                warnings.simplefilter("ignore", SyntaxWarning)
                return super()._compile(source, filename)
        except (SyntaxError, RecursionError, MemoryError):   # Python's own nesting limits
            raise too_deep_for_python(self._deepest) from None

    def compile(self, *args, **kwargs):
        return run(super().compile, *args, **kwargs)

    def from_string(self, source, globals=None, template_class=None):
        """As Jinja's, with the Python source generated for a text kept (see `_code`)."""
        if not isinstance(source, str):
            return super().from_string(source, globals, template_class)
        code = self._code("template", source, lambda: source)
        return (template_class or self.template_class).from_code(self, code, self.make_globals(globals), None)

    def compile_expression(self, source: str, undefined_to_none: bool = True) -> BudgetedExpression:
        code = self._code("expression", source, lambda: self._expression_tree(source))
        template = self.template_class.from_code(self, code, self.make_globals(None), None)
        return BudgetedExpression(template, undefined_to_none)

    def _code(self, kind: str, text: str, tree):
        """The code of `text`: the Python source Jinja generates for it (from `tree()`: the text,
        or its parsed tree), kept on this machine (kept.py) once it compiled, then compiled by
        Python, once in this process (COMPILED). The environment's `signature` is part of the key."""
        key = f"{kind}\0{self.signature()}\0{text}"
        generated = GENERATED.get(key)
        fresh = generated is None
        if fresh:
            generated = self.compile(tree(), raw=True)     # (a syntax error is raised as Jinja raises it)
        code = COMPILED.get(generated)
        if code is None:
            try:
                code = run(self._compile, generated, "<template>")
            except TemplateSyntaxError:     # (as Jinja's compile hands on one from Python's compiler)
                self.handle_exception(source=text if kind == "template" else None)
            _remember(generated, code)
        if fresh:
            GENERATED.put(key, generated)
        return code

    def signature(self) -> str:
        """A short digest of the names of its globals, filters and tests, part of every key kept
        for it (kept.py): Jinja refuses a filter or test it lacks while compiling, and leaves a
        global out of an expression's names. Worked out again when one is added."""
        counted = (len(self.globals), len(self.filters), len(self.tests))
        if self._signature is None or self._signature[0] != counted:
            names = "\0".join([*sorted(self.globals), "|", *sorted(self.filters), "|", *sorted(self.tests)])
            self._signature = (counted, hashlib.sha256(names.encode()).hexdigest()[:16])
        return self._signature[1]

    def _expression_tree(self, source: str) -> nodes.Template:
        """`source` parsed as one expression, assigned to `result`; raises a syntax error."""
        parser = Parser(self, source, state="variable")
        try:
            expr = parser.parse_expression()
            if not parser.stream.eos:
                raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno, None, None)
            expr.set_environment(self)
        except RecursionError as exc:
            self._syntax_error(nested_too_deep(parser_line(exc)), source)
        except TemplateSyntaxError as exc:
            self._syntax_error(exc, source)
        return nodes.Template([nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)], lineno=1)

    def _syntax_error(self, exc: TemplateSyntaxError, source: str):
        try:
            raise exc from None
        except TemplateSyntaxError:
            self.handle_exception(source=source)


_COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "lteq": operator.le, "gt": operator.gt,
            "gteq": operator.ge, "in": lambda a, b: a in b, "notin": lambda a, b: a not in b}


def _finalize(value):
    """Every `{{ ... }}` written out: measured (a list that holds a long list many times
    would print as a very long text), its text checked and charged."""
    kind = type(value)
    if kind is str:
        if len(value) < CHARS_PER_STEP:
            return value
    elif kind is int or kind is float:
        return str(value)                # (a number has at most MAX_BITS: a short text)
    else:
        will_build(size_of(value))
        value = str(value)
    will_build(len(value))
    return value


_NUMBERS = (int, float, bool)
_CHUNK = 64
"""Pieces of a template's output taken at a time, and measured, as it is made."""


def _plus(left, right):
    if type(left) in _NUMBERS and type(right) in _NUMBERS:
        return left + right
    if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
        will_build(size_of(left) + size_of(right))
    return operator.add(left, right)


def _times(left, right):
    if type(left) is float or type(right) is float:
        return left * right
    for seq, n in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple)) and isinstance(n, int):
            will_build(size_of(seq) * max(n, 0))
            return operator.mul(left, right)
    if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > MAX_BITS + 1:
        raise too_large_a_number()
    return operator.mul(left, right)


def environment() -> SafeEnvironment:
    return SafeEnvironment(undefined=StrictUndefined, autoescape=False)
