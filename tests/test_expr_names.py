"""The names an expression uses are kept on this machine (pnpgen/expr/names.py): what is kept
is what Jinja finds, a later process takes it without parsing, and a damaged, foreign or
unwritable cache is no error."""

from __future__ import annotations

import marshal

import pytest
from jinja2 import TemplateError, meta

from pnpgen import expr
from pnpgen.expr import names

SOURCES = ["{{ title }}", "{{ card.width - 2 * card.safe }}", "{% for x in range(n) %}{{ x ~ y }}{% endfor %}",
           "{{ (kind == 'Hive') and count > 1 }}", "{{ lipsum(2) }}{{ self }}", "plain text"]


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """names.py as a new process finds it, with its cache folder in tmp_path."""
    def restart():
        monkeypatch.setattr(names, "_kept", None)
        monkeypatch.setattr(names, "_added", 0)
        monkeypatch.setattr(names, "_path", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    restart()
    return restart


def test_the_names_are_jinjas_and_a_later_process_takes_them_without_parsing(fresh, tmp_path, monkeypatch):
    env = expr.environment()
    found = {s: names.used(env, s) for s in SOURCES}
    assert found == {s: frozenset(meta.find_undeclared_variables(env.parse(s))) for s in SOURCES}
    assert found["{{ title }}"] == {"title"} and found["{{ lipsum(2) }}{{ self }}"] == frozenset()
    names.keep()
    (kept,) = (tmp_path / "cache" / "pnpgen").glob("names-*.marshal")
    fresh()
    later = expr.environment()
    monkeypatch.setattr(type(later), "parse", lambda self, source: pytest.fail(f"parsed {source!r} again"))
    assert {s: names.used(later, s) for s in SOURCES} == found
    assert len(marshal.loads(kept.read_bytes())) == len(SOURCES)


def test_an_environment_that_defines_more_names_has_names_of_its_own(fresh):
    plain, more = expr.environment(), expr.environment()
    more.globals["hexes"] = lambda: []
    assert names.used(plain, "{{ hexes }}") == {"hexes"}
    assert names.used(more, "{{ hexes }}") == frozenset()


def test_a_bad_expression_is_not_kept_and_says_what_is_wrong_each_time(fresh):
    env = expr.environment()
    for _ in range(2):
        with pytest.raises(TemplateError):
            names.used(env, "{{ title | }}")
    names.keep()
    assert names._added == 0 and not names._kept


@pytest.mark.parametrize("content", [b"", b"not marshal data", marshal.dumps([1, 2]),
                                     marshal.dumps({"{{ x }}": ["x"]}), marshal.dumps({"{{ x }}": (1,)})])
def test_a_damaged_or_foreign_file_is_read_as_nothing_and_written_anew(fresh, content):
    env = expr.environment()
    path = names._file()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert names.used(env, "{{ title }}") == {"title"}
    names.keep()
    fresh()
    assert names._load(path) == {f"{' '.join(sorted(env.globals))}\0{{{{ title }}}}": ("title",)}


def test_a_file_too_large_to_be_ours_is_not_read(fresh, monkeypatch):
    env = expr.environment()
    path = names._file()
    path.parent.mkdir(parents=True)
    path.write_bytes(marshal.dumps({f"{' '.join(sorted(env.globals))}\0{{{{ title }}}}": ("wrong",)}))
    monkeypatch.setattr(names, "MAX_BYTES", path.stat().st_size - 1)
    assert names.used(env, "{{ title }}") == {"title"}


def test_a_cache_folder_that_cannot_be_written_is_no_error(fresh, tmp_path):
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    env = expr.environment()
    assert names.used(env, "{{ title }}") == {"title"}
    names.keep()            # (nothing written, nothing raised)
    assert names.used(env, "{{ title }}") == {"title"}
