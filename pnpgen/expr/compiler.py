"""What changes when an expression is compiled: its parse tree may nest only so deep (the
parser, Jinja's compiler and Python's are all recursive), every `for` loop takes its items
through the budget's meter, and `~` joins through the environment, which measures what it
joins."""

from __future__ import annotations

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, optimizeconst
from jinja2.exceptions import TemplateSyntaxError

from .budget import MAX_NESTING

LOOP_FILTER = "_loop_turns"
"""The filter every `for` loop's items pass through (budget.turns)."""


def too_deep(lineno: int | None) -> TemplateSyntaxError:
    return TemplateSyntaxError(f"this expression does more than {MAX_NESTING} levels of brackets, filters or "
                               "blocks inside one another; split it up", lineno or 1)


def check_nesting(tree: nodes.Node) -> int:
    """Raise if `tree` nests deeper than MAX_NESTING; else the line of its deepest node
    (where Python's compiler would give up first, if it did)."""
    deepest, line = 0, getattr(tree, "lineno", 1)
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest, line = depth, getattr(node, "lineno", line)
            if depth > MAX_NESTING:
                raise too_deep(line)
        stack.extend((child, depth + 1) for child in node.iter_child_nodes())
    return line


def meter_loops(tree: nodes.Template, environment) -> None:
    """Send the items of every `for` loop in `tree` through LOOP_FILTER (once)."""
    for loop in tree.find_all(nodes.For):
        items = loop.iter
        if isinstance(items, nodes.Filter) and items.name == LOOP_FILTER:
            continue
        loop.iter = nodes.Filter(items, LOOP_FILTER, [], [], None, None, lineno=items.lineno)
        loop.iter.set_environment(environment)


def parser_line(exc: BaseException) -> int | None:
    """The line the parser had reached when `exc` (a RecursionError) stopped it."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        stream = getattr(tb.tb_frame.f_locals.get("self"), "stream", None)
        current = getattr(stream, "current", None)
        if current is not None:
            line = current.lineno
        tb = tb.tb_next
    return line


class MeteredCodeGenerator(CodeGenerator):
    """Jinja's code generator with `a ~ b` compiled to environment.joined((a, b))."""

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.joined((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")
