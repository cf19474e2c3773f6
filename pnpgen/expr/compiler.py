"""What changes when an expression is compiled: its parse tree may nest only so deep (the
parser, Jinja's compiler and Python's are all recursive); every `for` loop's turn and every
macro's run is charged as many steps as its body has operations; `~` and a comparison go
through the environment, which measures what they join or compare."""

from __future__ import annotations

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, optimizeconst
from jinja2.exceptions import TemplateSyntaxError

from .budget import MAX_NESTING

LOOP_FILTER = "_loop_turns"
"""The filter every `for` loop's items pass through: (items, steps a turn) -> budget.turns."""
CHARGE_FILTER = "_charge_steps"
"""The filter a macro's (or a call block's) body starts with: (steps) -> budget.charge."""


def too_deep(lineno: int | None) -> TemplateSyntaxError:
    return TemplateSyntaxError(f"this expression does more than {MAX_NESTING} levels of brackets, filters or "
                               "blocks inside one another; split it up", lineno or 1)


def too_deep_for_python(lineno: int | None) -> TemplateSyntaxError:
    return TemplateSyntaxError("this expression does more loops or blocks inside one another than Python can compile "
                               "(about 20 loops); split it up, e.g. into macros", lineno or 1)


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


def meter(tree: nodes.Template, environment) -> None:
    """Send the items of every `for` loop in `tree` through LOOP_FILTER, and start every
    macro and call block with CHARGE_FILTER, each weighed by its body (once)."""
    for node in list(tree.find_all((nodes.For, nodes.Macro, nodes.CallBlock))):
        if isinstance(node, nodes.For):
            _meter_loop(node, environment)
        else:
            _meter_function(node, environment)


def _meter_function(function: nodes.Macro | nodes.CallBlock, environment) -> None:
    first = function.body[0] if function.body else None
    if isinstance(first, nodes.ExprStmt) and isinstance(first.node, nodes.Filter) and first.node.name == CHARGE_FILTER:
        return
    charge = nodes.Filter(nodes.Const(1 + weight(function.body)), CHARGE_FILTER, [], [], None, None,
                          lineno=function.lineno)
    function.body.insert(0, nodes.ExprStmt(charge, lineno=function.lineno))
    function.body[0].set_environment(environment)


def _meter_loop(loop: nodes.For, environment) -> None:
    items = loop.iter
    if isinstance(items, nodes.Filter) and items.name == LOOP_FILTER:
        return
    steps = 1 + weight(loop.body + ([loop.test] if loop.test is not None else []))
    loop.iter = nodes.Filter(items, LOOP_FILTER, [nodes.Const(steps)], [], None, None, lineno=items.lineno)
    loop.iter.set_environment(environment)


def weight(body: list) -> int:
    """The operations in `body`, without the bodies of the loops, macros and call blocks in
    it (each of those charges its own, each time it runs)."""
    count, stack = 0, list(body)
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, nodes.For):
            stack.extend(n for n in (node.target, node.iter) if n is not None)
            stack.extend(node.else_)
        elif isinstance(node, nodes.CallBlock):
            stack.append(node.call)
        elif not isinstance(node, nodes.Macro):
            stack.extend(node.iter_child_nodes())
    return count


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
    """Jinja's code generator with `a ~ b` compiled to environment.joined((a, b)), and a
    comparison of two values (not a chain such as a < b < c) to environment.compared."""

    @optimizeconst
    def visit_Compare(self, node: nodes.Compare, frame) -> None:
        if len(node.ops) != 1:
            return super().visit_Compare(node, frame)
        self.write(f"environment.compared({node.ops[0].op!r}, ")
        self.visit(node.expr, frame)
        self.write(", ")
        self.visit(node.ops[0].expr, frame)
        self.write(")")

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.joined((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")
