"""What the expression language works out about a text is kept on this machine
(pnpgen/expr/kept.py): the names an expression uses (names.py) and the Python source Jinja
generates for it (sandbox.py). What is kept is what Jinja gives, a later process takes it
without parsing or generating, errors are raised as Jinja raises them and never kept, and a
damaged, foreign, oversized or unwritable cache is no error."""

from __future__ import annotations

import marshal

import pytest
from jinja2 import TemplateSyntaxError, meta

from pnpgen import expr
from pnpgen.expr import kept, names, sandbox
from pnpgen.expr.sandbox import SafeEnvironment

SOURCES = ["{{ title }}", "{{ card.width - 2 * card.safe }}", "{% for x in range(n) %}{{ x ~ y }}{% endfor %}",
           "{{ (kind == 'Hive') and count > 1 }}", "{{ range(2)|join(',') }}{{ self }}", "plain text"]
LOOPS = "{% for i in range(9999) %}{% for j in range(9999) %}{% endfor %}{% endfor %}"   # (no output: the loops are metered)
NAMES = {"title": "Hive", "card": {"width": 63.5, "safe": 3}, "n": 3, "y": "!", "kind": "Hive", "count": 2}


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """The kept answers as a new process finds them (nothing read yet), the cache folder in
    tmp_path; calling it starts such a process again. What this process had is put back after."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    before = [(store, store.values, store.added) for store in kept._STORES]
    compiled = dict(sandbox.COMPILED)

    def restart():
        for store in kept._STORES:
            store.forget()
        sandbox.COMPILED.clear()
    restart()
    yield restart
    for store, values, added in before:
        store.values, store.added = values, added
    sandbox.COMPILED.clear()
    sandbox.COMPILED.update(compiled)


def _refuse(monkeypatch, *methods):
    for method in methods:
        monkeypatch.setattr(SafeEnvironment, method, lambda self, *a, **k: pytest.fail(f"{method} was called"))


def test_names_are_jinjas_and_a_later_process_takes_them_without_parsing(fresh, monkeypatch):
    env = expr.environment()
    found = {s: names.used(env, s) for s in SOURCES}
    assert found == {s: frozenset(meta.find_undeclared_variables(env.parse(s))) for s in SOURCES}
    assert found["{{ title }}"] == {"title"} and found["{{ range(2)|join(',') }}{{ self }}"] == frozenset()
    kept.keep_all()
    fresh()
    _refuse(monkeypatch, "parse", "_parse")
    assert {s: names.used(expr.environment(), s) for s in SOURCES} == found
    assert len(marshal.loads(names.KEPT.path().read_bytes())) == len(SOURCES)


def test_generated_code_renders_the_same_in_a_later_process_without_parsing_or_generating(fresh, monkeypatch):
    env = expr.environment()
    rendered = {s: env.from_string(s).render(NAMES) for s in SOURCES}
    value = env.compile_expression("count * 2 + card.safe")(**NAMES)
    assert rendered["{{ title }}"] == "Hive" and rendered[SOURCES[2]] == "0!1!2!" and value == 7
    env.from_string(LOOPS)
    kept.keep_all()
    fresh()
    _refuse(monkeypatch, "_parse", "_generate")
    later = expr.environment()
    assert {s: later.from_string(s).render(NAMES) for s in SOURCES} == rendered
    assert later.compile_expression("count * 2 + card.safe")(**NAMES) == value
    with pytest.raises(expr.BudgetExceeded):      # the kept code is metered as the generated code was
        later.from_string(LOOPS).render()


def test_a_text_is_compiled_by_python_once_in_a_process_for_every_environment(fresh, monkeypatch):
    """A build, a check and a preview's every rebuild make environments of their own: the code
    Python compiled for a text serves them all, renders the same and is metered the same."""
    first = expr.environment()
    rendered = {s: first.from_string(s).render(NAMES) for s in SOURCES}
    value = first.compile_expression("count * 2 + card.safe")(**NAMES)
    first.from_string(LOOPS)
    _refuse(monkeypatch, "_compile")
    later = expr.environment()
    assert {s: later.from_string(s).render(NAMES) for s in SOURCES} == rendered
    assert later.compile_expression("count * 2 + card.safe")(**NAMES) == value
    with pytest.raises(expr.BudgetExceeded):
        later.from_string(LOOPS).render()
    with pytest.raises(pytest.fail.Exception, match="_compile was called"):     # (a new text is compiled)
        later.from_string("{{ title ~ '!' }}")
    monkeypatch.undo()
    monkeypatch.setattr(sandbox, "MAX_COMPILED", 2)       # (never more than so many codes are held...)
    assert [later.from_string("{{ %d + 1 }}" % n).render() for n in range(5)] == ["1", "2", "3", "4", "5"]
    assert 0 < len(sandbox.COMPILED) <= 2
    longest = max(map(len, sandbox.COMPILED))
    monkeypatch.setattr(sandbox, "MAX_COMPILED", 100)
    monkeypatch.setattr(sandbox, "MAX_COMPILED_CHARS", 3 * longest)     # (...nor so much source behind them)
    assert [later.from_string("{{ %d * 2 }}" % n).render() for n in range(9)] == [str(2 * n) for n in range(9)]
    assert 0 < sum(map(len, sandbox.COMPILED)) <= 3 * longest and len(sandbox.COMPILED) < 9


@pytest.mark.parametrize("bad", ["{{ title | }}", "{% for x in y %}", "{{ x|shout }}"])
def test_an_error_is_raised_as_jinja_raises_it_each_time_and_never_kept(fresh, bad):
    shown = []
    for _ in range(2):
        with pytest.raises(TemplateSyntaxError) as raised:
            expr.environment().from_string(bad)
        shown.append((raised.value.message, str(raised.value), raised.value.lineno))
    assert shown[0] == shown[1]
    with pytest.raises(TemplateSyntaxError):
        expr.environment().compile_expression(bad.strip("{} "))
    kept.keep_all()
    assert all(not store.values for store in kept._STORES)


def test_an_environment_with_other_filters_or_globals_has_answers_of_its_own(fresh):
    plain, more = expr.environment(), expr.environment()
    more.globals["hexes"] = lambda: []
    more.filters["shout"] = str.upper
    assert names.used(plain, "{{ hexes }}") == {"hexes"} and names.used(more, "{{ hexes }}") == frozenset()
    assert more.from_string("{{ 'a'|shout }}").render() == "A"
    with pytest.raises(TemplateSyntaxError, match="No filter named 'shout'"):
        plain.from_string("{{ 'a'|shout }}")
    plain.filters["shout"] = str.upper           # (a filter added after its first compile)
    assert plain.from_string("{{ 'a'|shout }}").render() == "A"


@pytest.mark.parametrize("content", [b"", b"not marshal data", marshal.dumps([1, 2]),
                                     marshal.dumps({"{{ x }}": ["x"]}), marshal.dumps({"{{ x }}": (1,)}),
                                     marshal.dumps({"{{ x }}": "def root(): pass"} | {1: "x"})])
def test_a_damaged_or_foreign_file_is_read_as_nothing_and_written_anew(fresh, content):
    env = expr.environment()
    for store in kept._STORES:
        store.path().parent.mkdir(parents=True, exist_ok=True)
        store.path().write_bytes(content)
    assert names.used(env, "{{ title }}") == {"title"}
    assert env.from_string("{{ title }}!").render(title="Hive") == "Hive!"
    kept.keep_all()
    fresh()
    assert len(kept._load(names.KEPT.path(), names.KEPT.valid)) == 1
    assert len(kept._load(sandbox.GENERATED.path(), sandbox.GENERATED.valid)) == 1


def test_a_file_too_large_to_be_ours_is_not_read(fresh, monkeypatch):
    env = expr.environment()
    path = names.KEPT.path()
    path.parent.mkdir(parents=True)
    path.write_bytes(marshal.dumps({f"{env.signature()}\0{{{{ title }}}}": ("wrong",)}))
    assert names.used(env, "{{ title }}") == {"wrong"}       # (read, when small enough: the key is right)
    fresh()
    monkeypatch.setattr(kept, "MAX_BYTES", path.stat().st_size - 1)
    assert names.used(env, "{{ title }}") == {"title"}


def test_what_another_process_kept_meanwhile_is_kept_too(fresh):
    env = expr.environment()
    names.used(env, "{{ a }}")
    kept.keep_all()
    fresh()
    names.used(env, "{{ b }}")          # (this process read the file: a)
    other = {**kept._load(names.KEPT.path(), names.KEPT.valid), "elsewhere\0{{ c }}": ("c",)}
    names.KEPT.path().write_bytes(marshal.dumps(other))
    kept.keep_all()
    assert {k.split("\0")[-1] for k in kept._load(names.KEPT.path(), names.KEPT.valid)} == \
        {"{{ a }}", "{{ b }}", "{{ c }}"}


def test_a_long_text_is_not_kept_and_a_full_file_keeps_what_this_process_used(fresh, monkeypatch):
    env = expr.environment()
    names.used(env, "{{ a }}" + " " * kept.MAX_TEXT)       # (a rulebook's whole source: not kept)
    names.used(env, "{{ b }}")
    kept.keep_all()
    assert [k.split("\0")[-1] for k in kept._load(names.KEPT.path(), names.KEPT.valid)] == ["{{ b }}"]
    fresh()
    names.used(env, "{{ c }}")
    monkeypatch.setattr(kept, "MAX_WRITE", 10)               # (b and c together would be too large)
    kept.keep_all()
    assert [k.split("\0")[-1] for k in kept._load(names.KEPT.path(), names.KEPT.valid)] == ["{{ c }}"]


def test_another_versions_file_not_written_for_a_month_is_removed(fresh):
    import os
    import time
    folder = names.KEPT.path().parent
    folder.mkdir(parents=True)
    old, recent, other_kind = folder / "names-old.marshal", folder / "names-recent.marshal", folder / "fonts-old.marshal"
    for path in (old, recent, other_kind):
        path.write_bytes(marshal.dumps({}))
    month = time.time() - (kept.STALE_DAYS + 1) * 86400
    os.utime(old, (month, month))
    os.utime(other_kind, (month, month))
    names.used(expr.environment(), "{{ a }}")
    kept.keep_all()
    assert sorted(p.name for p in folder.iterdir()) == sorted([names.KEPT.path().name, "names-recent.marshal",
                                                               "fonts-old.marshal"])


def test_a_cache_folder_that_cannot_be_written_is_no_error(fresh, tmp_path):
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    env = expr.environment()
    assert names.used(env, "{{ title }}") == {"title"}
    assert env.from_string("{{ title }}").render(title="x") == "x"
    kept.keep_all()             # (nothing written, nothing raised)
    assert names.used(env, "{{ title }}") == {"title"}


def test_a_templates_own_globals_come_before_the_environments_and_stay_its_own():
    env = SafeEnvironment()
    assert env.from_string("{{ range(3)|list }}").render() == "[0, 1, 2]"      # the environment's, bounded
    assert env.from_string("{{ range }} {{ x }}", globals={"range": "mine", "x": 1}).render() == "mine 1"
    assert env.from_string("{{ x is defined }} {{ range(2)|list }}").render() == "False [0, 1]"
    assert "x" not in env.globals and env.globals["range"] != "mine"
