"""Random small edits of the bundled YAML (a deleted line, a stray character, a duplicated
line...) must give either a build or an InputError: never any other exception, which the
CLI would show as a traceback. So must hostile expressions (loops in loops, joins with long
separators, runaway macros...) written into a template, a rule or a rulebook, and they must
stop quickly, without a memory spike. A fixed seed keeps the run repeatable; PNPGEN_FUZZ=N
runs N rounds of each (more than the default: e.g. PNPGEN_FUZZ=1000), and tools/fuzz.py
runs more kinds."""

from __future__ import annotations

import json
import os
import random
import re
import resource
import shutil
import time
from collections import Counter
from pathlib import Path

from pnpgen.build import Options, Project, build_loaded, load
from pnpgen.errors import InputError
from pnpgen.rules.ruleset import check_game

from .fresh import python_fresh

ROOT = Path(__file__).resolve().parent.parent
TOKENS = ["", " ", "-", ":", "{", "}", "[", "]", '"', "'", "{{", "}}", "0", "-1", "1e9", "null", "true",
          "\n", "  ", "x", "*a", "&a", "!!str", "|", "%", ".", ",", "9999999", "nan", "inf", "#"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    k = rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        del lines[k]
    elif op == 1:
        i = rng.randrange(len(lines[k]) + 1)
        lines[k] = lines[k][:i] + rng.choice(TOKENS) + lines[k][i:]
    elif op == 2 and lines[k]:
        i = rng.randrange(len(lines[k]))
        lines[k] = lines[k][:i] + lines[k][i + 1:]
    else:
        lines.insert(k, lines[rng.randrange(len(lines))])
    return "\n".join(lines)


# --- hostile expressions -------------------------------------------------------------------------
ATOMS = ["'x'", "'ab' * 50000", "99999", "-1", "range(99999)", "lipsum(99)", "[1, 2, 3]", "2 ** 60", "none", "title",
         "card", "'%s'", "'{:>9}'"]
SHAPES = ["{a} ~ {b}", "{a}|join({b})", "{a}|replace('', {b})", "{a}|indent({n})", "{a} * {n}", "{a} ** {n}",
          "{a}|sum(start=[])", "{a}|batch({n})|list", "{a}|center({n})", "'{{:>{n}}}'.format({a})", "'%{n}d' % {a}",
          "{a}|wordwrap({n})", "[{a}, {b}, {a}]", "{a}|tojson({n})", "{a}|string", "{a}|map('string')|list",
          "{a} + {b}", "{a}|length", "{a}[{n}:]", "{a} == {b}", "{a} in {b}", "lipsum({n})", "range({n})",
          "{a}|format({b})", "({a})", "{a}|slice({n})|list", "{a}|int", "{a}|round({n})", "{a}.split()|join({b})"]
NUMBERS = ["0", "1", "-1", "7", "99999", "10 ** 9", "2 ** 64"]
STATEMENTS = [
    "{{% for i in {a} %}}{{% for j in {b} %}}{{{{ {c} }}}}{{% endfor %}}{{% endfor %}}",
    "{{% macro m(n) %}}{{{{ m({a}) }}}}{{% endmacro %}}{{{{ m({b}) }}}}",
    "{{% macro m(n) %}}{{% if n %}}{{{{ m(n - 1) }}}}{{{{ m(n - 1) }}}}{{% endif %}}{{% endmacro %}}{{{{ m({n}) }}}}",
    "{{% set ns = namespace(v={a}) %}}{{% for i in range({n}) %}}{{% set ns.v = ns.v ~ ns.v %}}{{% endfor %}}"
    "{{{{ ns.v|length }}}}",
    "{{% set ns = namespace(v={a}) %}}{{% for i in range({n}) %}}{{% set ns.v = ns.v * ns.v %}}{{% endfor %}}{{{{ ns.v }}}}",
    "{{% for i in {a} recursive %}}{{{{ loop({b}) }}}}{{% endfor %}}",
    "{{{{ {c} }}}}",
]
_EXPRESSION_IN_TEXT = re.compile(r"\{\{.*?\}\}")
_RULE_EXPRESSION = re.compile(r"^(\s*(?:- )?(?:where|each): )(?![>|])(.+)$", re.M)


def hostile_expression(rng: random.Random, depth: int = 3) -> str:
    """A random composition of the shapes that, unchecked, loop, build or recurse without end."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(ATOMS)
    return rng.choice(SHAPES).format(a=hostile_expression(rng, depth - 1), b=hostile_expression(rng, depth - 1),
                                     n=rng.choice(NUMBERS))


def hostile_template(rng: random.Random) -> str:
    return rng.choice(STATEMENTS).format(a=hostile_expression(rng, 2), b=hostile_expression(rng, 2),
                                         c=hostile_expression(rng), n=rng.choice(NUMBERS))


def mutate_template(text: str, rng: random.Random) -> str:
    """One `{{ ... }}` of a template (or rulebook) replaced by a hostile template, quoted as the
    YAML scalar around it needs (single quotes doubled inside '...')."""
    found = list(_EXPRESSION_IN_TEXT.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    new = hostile_template(rng)
    line_start = text.rfind("\n", 0, match.start()) + 1
    before = text[line_start:match.start()]
    if before.rfind("'") > before.rfind('"'):
        new = new.replace("'", "''")
    elif before.rfind('"') > before.rfind("'"):
        new = new.replace('"', '\\"')
    return text[:match.start()] + new + text[match.end():]


def mutate_rule(text: str, rng: random.Random) -> str:
    """One rule's `where:` or `each:` replaced by a hostile expression."""
    found = list(_RULE_EXPRESSION.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    return text[:match.start(2)] + json.dumps(hostile_expression(rng)) + text[match.end(2):]


MUTATORS = {
    "yaml": (mutate, ("cards/**/*.yaml", "templates/**/*.yaml")),
    "template": (mutate_template, ("templates/**/*.yaml",)),
    "rule": (mutate_rule, ("cards/*/rules.yaml",)),
    "rulebook": (mutate_template, ("cards/*/rulebook.md",)),
}
ROUND_SECONDS = 30.0
"""A round (load, check and build one whole game) that takes longer ran away."""
PEAK_MB = 600
"""A round that takes the process's peak memory past this built something too big."""


def fuzz(root: Path, seed: int, rounds: int, kinds=("yaml",), outcomes: Counter | None = None) -> list[str]:
    """Mutate, build, restore, `rounds` times; return a description of every crash, and of
    every round that ran longer than ROUND_SECONDS or took memory past PEAK_MB. `outcomes`
    counts the rounds that built, that stopped at bad input, and that stopped at a budget."""
    outcomes = Counter() if outcomes is None else outcomes
    rng = random.Random(seed)
    files = [(kind, path) for kind in kinds for pattern in MUTATORS[kind][1] for path in sorted(root.glob(pattern))]
    crashes = []
    for n in range(rounds):
        kind, path = rng.choice(files)
        original = path.read_text()
        path.write_text(MUTATORS[kind][0](original, rng))
        game = path.relative_to(root).parts[1]
        start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        try:
            source = load(Project(root), game)
            check_game(source)
            build_loaded(source, Options(out=root / "out"))
            outcomes["built"] += 1
        except InputError as exc:
            outcomes["budget" if "this expression does more than" in str(exc) else "bad input"] += 1
        except Exception as exc:  # noqa: BLE001 - any other exception is the bug we look for
            crashes.append(f"round {n}: {path.relative_to(root)}: {type(exc).__name__}: {exc}")
        finally:
            path.write_text(original)
        seconds, peak = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        if seconds > ROUND_SECONDS or peak > PEAK_MB >= before:     # (the peak is the process's, so far)
            crashes.append(f"round {n}: {path.relative_to(root)}: ran {seconds:.1f} s, peak {peak:.0f} MB")
    return crashes


def rounds(default: int) -> int:
    """`default` rounds, or PNPGEN_FUZZ's number when that is more."""
    return max(default, int(os.environ.get("PNPGEN_FUZZ") or 0))


CHILD = """
import json, resource, sys
from collections import Counter
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))     # a memory bomb fails a round, not the machine
sys.path.insert(0, sys.argv[1])
from tests.test_fuzz import fuzz
outcomes = Counter()
crashes = fuzz(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), tuple(sys.argv[5:]), outcomes)
print(json.dumps({"crashes": crashes, "outcomes": outcomes}))
"""


def fuzz_in_a_process(root: Path, seed: int, rounds: int, kinds=("yaml",)) -> tuple[list[str], Counter]:
    """fuzz() of a copy of the project in a process of its own, so that PEAK_MB is measured
    against that process's own peak (started from a launcher: tests/fresh.py), not against
    whatever the tests run before in this one left behind: (crashes, outcomes)."""
    for part in ("cards", "templates"):
        shutil.copytree(ROOT / part, root / part)
    ran = python_fresh(CHILD, str(ROOT), str(root), str(seed), str(rounds), *kinds, capture_output=True, text=True,
                       cwd=root, timeout=rounds * ROUND_SECONDS + 60)
    assert ran.returncode == 0, ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    return result["crashes"], Counter(result["outcomes"])


def test_random_edits_never_crash(tmp_path):
    # (60 rounds until the suite was made to run in parallel: 30 give the same mix of builds
    # and located errors, every file kind of every bundled game a candidate each round)
    n = rounds(30)
    crashes, outcomes = fuzz_in_a_process(tmp_path, 2026, n)
    assert crashes == [] and sum(outcomes.values()) == n, outcomes
    assert outcomes["built"] >= 5 and outcomes["bad input"] >= 5, outcomes     # both ways out were taken


def test_hostile_expressions_stop_quickly_and_never_crash(tmp_path):
    n = rounds(21)     # (the first 21 rounds of seed 19 hold 5 that the budget stops)
    crashes, outcomes = fuzz_in_a_process(tmp_path, 19, n, ("template", "rule", "rulebook"))
    assert crashes == []
    assert sum(outcomes.values()) == n and outcomes["budget"] >= 5, outcomes     # the budget is what stopped them


def test_the_hostile_mutators_write_what_they_say():
    rng = random.Random(5)
    template = 'elements:\n  - text: {text: "{{ title }}"}\n  - text: {text: \'{{ cost }}\'}\n'
    mutated = [mutate_template(template, rng) for _ in range(20)]
    assert all(m != template and m.count("\n") == template.count("\n") for m in mutated)
    import yaml
    assert all(isinstance(yaml.safe_load(m)["elements"], list) for m in mutated)    # still YAML: it reaches Jinja
    rules = 'rules:\n  - id: A\n    where: "type == \'x\'"\n    count: 3\n  - id: B\n    each: >-\n      a == 1\n'
    mutated_rules = [mutate_rule(rules, rng) for _ in range(10)]
    assert all(yaml.safe_load(m)["rules"][1]["each"] == "a == 1" for m in mutated_rules)     # a folded one is left
    assert all(yaml.safe_load(m)["rules"][0]["where"] != "type == 'x'" for m in mutated_rules)
