"""Every expression runs under a budget (pnpgen/expr): an expression that would loop, build or
recurse without end stops within a second or two with `file:line: this expression does more
than ...` and exit status 2, whether it is in a card template (`pnpgen build`), a rule
(`pnpgen check`) or a rulebook; memory stays bounded while it does; the preview recovers once
the file is fixed. Normal expressions give what they always gave.

Each hostile expression is written into a small game's file by the test, at a line the test
knows, and run through the command a designer would run."""

from __future__ import annotations

import json
import re
import textwrap
import time
from pathlib import Path

import pytest

from pnpgen import expr
from pnpgen.build import Project
from pnpgen.expr import budget
from pnpgen.sources import yamlsrc
from pnpgen.preview.live import Live

from .clirun import pnpgen
from .fresh import python_fresh
from .minigame import make_game

ROOT = Path(__file__).resolve().parent.parent
SECONDS = 2.0
"""Each hostile case must stop within this much CPU time, start-up of the command included
(CPU time, not wall time: a machine busy with other work must not fail the test)."""

GAME = "title: Mini Quest\ncode: MQ\n"
DECK = """name: Heroes
template: face
back: {template: back}
fields:
  title: {required: true}
cards:
  - {title: Alpha}
  - {title: Beta}
"""
BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#6a2a2a", bleed: true}
"""
GOOD_TEXT = "{{ title }}"


def face(text: str) -> str:
    """A card template whose text element (line 4) says `text` (JSON quoting is YAML quoting)."""
    return ("size: poker\nelements:\n"
            '  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}\n'
            f"  - text: {{x: 5, y: 10, w: 53.5, h: 12, text: {json.dumps(text)}, size: 14}}\n")


FACE_LINE = 4


def rules(where: str) -> str:
    """A rules file whose one rule (line 2) selects cards with `where`."""
    return f"rules:\n  - id: R1\n    text: Any number of cards.\n    where: {json.dumps(where)}\n    count: {{min: 0}}\n"


RULE_LINE, WHERE_LINE = 2, 4


def game(root: Path, text: str = GOOD_TEXT, where: str | None = None) -> Path:
    return make_game(root, GAME, DECK, {"face": face(text), "back": BACK},
                     rules(where) if where is not None else None)


# --- the hostile cases ---------------------------------------------------------------------------
# (id, expression or template text, what the message says). The first group are expressions
# (usable in a rule's `where` as well as a card's text); the second need statements.

EXPRESSIONS = [
    ("join", 'range(99999)|join("x" * 99999)|length', "characters or items in one text or list"),
    ("lipsum", "lipsum(10 ** 6)|length", "characters or items in one text or list"),
    ("replace", '("x" * 99999)|replace("", "y" * 99999)|length', "characters or items in one text or list"),
    ("indent", '("x\\n" * 50000)|indent(99999)|length', "characters or items in one text or list"),
    ("center", '"x"|center(10 ** 9)|length', "characters or items in one text or list"),
    ("format-width", '"{:>999999999}".format(1)|length', "characters or items in one text or list"),
    ("printf-width", '("%999999999d" % 1)|length', "characters or items in one text or list"),
    ("repeat-fields", '("%s" * 99999)|format(*(["y" * 99999] * 9))|length', "characters or items in one text or list"),
    ("sum-of-lists", "range(99999)|batch(1)|sum(start=[])|length", "steps of work"),
    ("map-join", "range(999999)|map('string')|join|length", "steps of work"),
    ("number", "7 ** 3000 * 7 ** 3000", "4,096-bit numbers"),
    ("nested", "+".join(["1"] * 3000), "levels of brackets, filters or blocks"),
    ("brackets", "(" * 300 + "1" + ")" * 300, "levels of brackets, filters or blocks"),
]
STATEMENTS = [
    ("nested-loops", "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}", "steps of work"),
    ("doubling-macro", '{% macro d(s, n) %}{{ d(s ~ s, n - 1) if n else s|length }}{% endmacro %}{{ d("ab", 60) }}',
     "characters or items in one text or list"),
    ("doubling-loop", '{% set ns = namespace(s="ab") %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}'
                      "{% endfor %}{{ ns.s|length }}", "characters or items in one text or list"),
    ("squaring", "{% set ns = namespace(n=3) %}{% for i in range(60) %}{% set ns.n = ns.n * ns.n %}{% endfor %}"
                 "{{ ns.n }}", "4,096-bit numbers"),
    ("recursive-macro", "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}", "calls inside one another"),
    ("fan-out-macro", "{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ m(45) }}",
     "steps of work"),
    ("shared-lists", '{% set a = "x" * 999999 %}{% set b = [a, a, a, a, a, a, a, a, a, a] %}{{ [b, b, b, b, b] }}',
     "characters or items in one text or list"),
    ("output", "{% for i in range(999999) %}{{ i }}{% endfor %}", "characters or items in one text or list"),
    ("wordwrap", '{% for i in range(99999) %}{{ ("ab " * 99999)|wordwrap(1)|length }}{% endfor %}', "steps of work"),
    ("compare", '{% set s = "x" * 999999 %}{% for i in range(999999) %}{% if s == s ~ "" %}{% endif %}{% endfor %}',
     "steps of work"),
]
TEMPLATE_CASES = [(name, "{{ " + source + " }}", needle) for name, source, needle in EXPRESSIONS] + STATEMENTS


def located(stderr: str, rel: str, line: int) -> list[str]:
    """stderr's lines that start `<...>rel:line: `."""
    pattern = re.compile(r"^(?:\S*/)?" + re.escape(rel) + f":{line}: ")
    return [ln for ln in stderr.splitlines() if pattern.match(ln)]


def assert_stopped(ran, seconds: float, rel: str, line: int, *needles: str) -> None:
    assert "Traceback" not in ran.stderr, ran.stderr
    assert ran.returncode == 2, f"exit status {ran.returncode}: {ran.stderr}"
    lines = located(ran.stderr, rel, line)
    assert lines, f"no '{rel}:{line}: ' line in:\n{ran.stderr}"
    assert any(all(n in ln for n in needles) for ln in lines), f"{needles} not in {lines}"
    assert seconds < SECONDS, f"took {seconds:.2f} s"


def timed(*args, cwd):
    start = time.process_time()
    ran = pnpgen(*args, cwd=cwd)
    return ran, time.process_time() - start


@pytest.mark.parametrize("text, needle", [c[1:] for c in TEMPLATE_CASES], ids=[c[0] for c in TEMPLATE_CASES])
def test_a_card_template_that_asks_too_much_stops_at_its_line(tmp_path, text, needle):
    game(tmp_path, text)
    ran, seconds = timed("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert_stopped(ran, seconds, "templates/mini/face.yaml", FACE_LINE, "this expression does more than", needle)
    assert not list((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("source, needle", [c[1:] for c in EXPRESSIONS], ids=[c[0] for c in EXPRESSIONS])
def test_a_rule_expression_that_asks_too_much_stops_at_the_rule(tmp_path, source, needle):
    """At the rule when it is run; at its `where:` when it is read (too deep to compile)."""
    game(tmp_path, where=source)
    ran, seconds = timed("--root", tmp_path, "check", "mini", cwd=tmp_path)
    line = WHERE_LINE if "levels" in needle else RULE_LINE
    assert_stopped(ran, seconds, "cards/mini/rules.yaml", line, "this expression does more than", needle)


RULEBOOK = """---
title: Mini Quest
---
# Overview

The deck holds {{ decks.deck.count }} cards.

%s

The end.
"""
RULEBOOK_LINE = 8       # (the front matter's lines count)
RULEBOOK_CASES = [c for c in TEMPLATE_CASES if c[0] in ("join", "lipsum", "indent", "number", "nested", "nested-loops",
                                                          "doubling-macro", "squaring", "fan-out-macro", "output")]


@pytest.mark.parametrize("text, needle", [c[1:] for c in RULEBOOK_CASES], ids=[c[0] for c in RULEBOOK_CASES])
def test_a_rulebook_that_asks_too_much_stops_at_its_line(tmp_path, text, needle):
    folder = game(tmp_path)
    (folder / "rulebook.md").write_text(RULEBOOK % text)
    ran, seconds = timed("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert_stopped(ran, seconds, "cards/mini/rulebook.md", RULEBOOK_LINE, "this expression does more than", needle)


def test_a_recursive_macro_in_a_rulebook_is_located_at_the_call_that_recurses(tmp_path):
    folder = game(tmp_path)
    body = "{% macro count_down(n) %}\n{{ n }},\n{{ count_down(n - 1) }}\n{% endmacro %}\n{{ count_down(3) }}"
    (folder / "rulebook.md").write_text(RULEBOOK % body)
    ran, seconds = timed("--root", tmp_path, "build", "mini", "--out", tmp_path / "out", cwd=tmp_path)
    assert_stopped(ran, seconds, "cards/mini/rulebook.md", RULEBOOK_LINE + 2, f"more than {expr.MAX_DEPTH} calls")


# --- memory ------------------------------------------------------------------------------------------

CHILD = textwrap.dedent("""
    import json, resource, sys, tempfile, time
    from pathlib import Path
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))     # a regression fails, not the machine
    sys.path.insert(0, sys.argv[1])
    from tests.clirun import pnpgen
    from tests.test_budget import game
    out = []
    for text in json.loads(sys.argv[2]):
        with tempfile.TemporaryDirectory() as tmp:
            game(Path(tmp), text)
            ran = pnpgen("--root", tmp, "build", "mini", "--out", Path(tmp) / "out", cwd=tmp)
            out.append(ran.returncode)
    print(json.dumps({"codes": out, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""")


def test_hostile_templates_stay_within_a_few_hundred_megabytes(tmp_path):
    """Every hostile template, one after the other in one process: the peak stays near a normal
    build's (each would take gigabytes unchecked)."""
    texts = [GOOD_TEXT] + [text for _, text, _ in TEMPLATE_CASES]
    # (started through a launcher: its peak is its own, not this process's: tests/fresh.py)
    proc = python_fresh(CHILD, str(ROOT), json.dumps(texts), capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["codes"] == [0] + [2] * len(TEMPLATE_CASES)
    assert result["peak_mb"] < 300, result


# --- the preview --------------------------------------------------------------------------------------

def test_the_preview_reports_a_runaway_template_and_recovers_when_it_is_fixed(tmp_path):
    game(tmp_path)
    live = Live(Project(tmp_path))
    live.refresh()
    template = tmp_path / "templates" / "mini" / "face.yaml"
    template.write_text(face("{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"))
    start = time.process_time()
    live.refresh()
    assert time.process_time() - start < SECONDS and not live.busy
    state = json.loads(live.state_json())
    (errors,) = [g["errors"] for g in state["games"] if g["id"] == "mini"]
    assert len(errors) == 1 and errors[0].startswith(f"{template}:{FACE_LINE}: ")
    assert "this expression does more than" in errors[0]
    template.write_text(face("{{ title|upper }}"))
    live.refresh()
    state = json.loads(live.state_json())
    (mini,) = [g for g in state["games"] if g["id"] == "mini"]
    assert mini["errors"] == [] and not mini["stale"]


# --- what stays as it was ------------------------------------------------------------------------------

@pytest.mark.parametrize("source, names, expected", [
    ("{% for x in items %}{{ loop.index }}:{{ x }}{% if not loop.last %}, {% endif %}{% endfor %}",
     {"items": ["a", "b"]}, "1:a, 2:b"),
    ("{% macro down(n) %}{{ n }}{% if n %} {{ down(n - 1) }}{% endif %}{% endmacro %}{{ down(40)|length }}", {},
     str(len(" ".join(str(n) for n in range(40, -1, -1))))),
    ("{{ range(100000)|join(',')|length }}", {}, str(len(",".join(map(str, range(100000)))))),
    ("{% for i in tree recursive %}{{ i.n }}({{ loop(i.kids) }}){% endfor %}",
     {"tree": [{"n": 1, "kids": [{"n": 2, "kids": []}]}, {"n": 3, "kids": []}]}, "1(2())3()"),
    ("{{ '%05.1f|%-4s|' % (3.14159, 'ab') }}{{ '{:>4}|{:.2f}'.format('x', 2.5) }}", {}, "003.1|ab  |   x|2.50"),
    ("{{ 2 ** 64 }} {{ (2 ** 64) * (2 ** 64) }} {{ 'ab' * 3 }} {{ [1] + [2] }} {{ 'a' ~ 1 ~ none }}", {},
     f"{2 ** 64} {2 ** 128} ababab [1, 2] a1None"),
    ("{{ ('x' * 10)|replace('x', 'yy')|wordwrap(8)|indent(2, true) }}", {}, "  yyyyyyyy\n  yyyyyyyy\n  yyyy"),
    ("{{ [1, 2, 3]|sum }} {{ [[1], [2]]|sum(start=[]) }} {{ {'b': 1, 'a': 2}|tojson }}", {},
     '6 [1, 2] {"a": 2, "b": 1}'),
])
def test_expressions_within_the_budget_give_what_they_gave(source, names, expected):
    assert expr.environment().from_string(source).render(**names) == expected


def test_a_rule_expression_within_the_budget_is_evaluated_as_before():
    env = expr.environment()
    assert env.compile_expression("a * 2 + b|length > 5")(a=2, b="xy") is True
    assert env.compile_expression("'x' in names and n ** 2 == 9")(names=["x"], n=3) is True


def test_the_wall_clock_stops_what_the_counting_lets_through(monkeypatch):
    """The clock is the last guard; here it is set to nothing, so the first look at it stops."""
    monkeypatch.setattr(budget, "MAX_SECONDS", 0.0)
    with pytest.raises(expr.BudgetExceeded, match="more than 0 seconds"):
        expr.environment().from_string("{% for i in range(10000) %}{% endfor %}").render()
    monkeypatch.undo()
    assert expr.environment().from_string("{% for i in range(10000) %}{% endfor %}.").render() == "."


def test_loops_nested_deeper_than_python_compiles_are_a_located_syntax_error():
    """Python compiles at most 20 blocks inside one another; Jinja's loops become Python's."""
    from jinja2 import TemplateSyntaxError
    source = "".join("{%% for a%d in [1] %%}\n" % i for i in range(25)) + "x" + "{% endfor %}" * 25
    with pytest.raises(TemplateSyntaxError, match="than Python can compile") as err:
        expr.environment().from_string(source)
    assert err.value.lineno == 25                # the innermost loop
    fifteen = "".join("{%% for a%d in [1] %%}" % i for i in range(15)) + "x" + "{% endfor %}" * 15
    assert expr.environment().from_string(fifteen).render() == "x"


def test_evaluations_are_metered_one_by_one():
    """A budget belongs to one evaluation: using most of it twice in a row is fine."""
    env = expr.environment()
    heavy = env.from_string("{% for i in range(300000) %}{% endfor %}done")
    assert [heavy.render(), heavy.render()] == ["done", "done"]
    assert budget.current() is None


def test_the_limits_are_listed_from_the_numbers_that_enforce_them(tmp_path):
    ran = pnpgen("schema", "limits", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert f"  steps: {expr.MAX_STEPS:,} an evaluation" in lines
    assert f"  text or list: {expr.MAX_SIZE:,} characters or items" in lines
    assert f"  calls inside calls: {expr.MAX_DEPTH}" in lines
    assert f"  YAML nesting: {yamlsrc.MAX_DEPTH} levels" in lines and f"  YAML whole number: {yamlsrc.MAX_DIGITS} digits" in lines
    assert "## limits" in (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
