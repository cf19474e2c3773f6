"""Shared fixtures: the bundled games are built once per test session into a temp folder."""

from __future__ import annotations

import compileall
import os
import pickle
import shutil
import signal
import sys
from pathlib import Path

import pytest

from pnpgen import files
from pnpgen.build import Options, Project, build_game, games
from pnpgen.build import facts as facts_module

ROOT = Path(__file__).resolve().parent.parent

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    # A suite started in the background by a shell without job control (`pytest &` in a
    # script) inherits Ctrl-C ignored, and so would every pnpgen it starts: the tests that
    # stop a preview with Ctrl-C, as a user does, could not. Its processes take Ctrl-C again.
    signal.signal(signal.SIGINT, signal.default_int_handler)

SLOWEST_FILES = ["test_package.py", "test_fuzz.py", "test_hostile.py", "test_preview_changes.py", "test_pdfx.py",
                 "test_preview.py", "test_export_bundled.py", "test_hexmap.py", "test_flatten.py",
                 "test_export_files.py", "test_image_memory.py", "test_sheets.py", "test_kept_rulebook.py",
                 "test_rules.py", "test_image_resolution.py", "test_concurrent_builds.py", "test_changes.py",
                 "test_rulebook_typesetting.py", "test_printcheck.py", "test_cli_quiet.py"]
"""The files that take longest, longest first: pytest-xdist gives each worker a whole file
(--dist loadfile) in the order collected, and a long file started last would leave the other
workers waiting. The others follow in their own order."""


def pytest_configure(config):
    """Compiled bytecode is kept, even where PYTHONDONTWRITEBYTECODE asks Python not to (as on
    some CI machines): the suite starts some seventy Python processes, and each would compile
    pnpgen again (half a second), each worker its test files (several seconds). pnpgen is
    compiled once before the workers start; the workers keep their rewritten test files. (In
    __pycache__ folders, as Python's default is: git ignores them.)"""
    sys.dont_write_bytecode = False
    if not hasattr(config, "workerinput"):      # (the run itself, not one of its workers)
        compileall.compile_dir(ROOT / "pnpgen", quiet=2)


def pytest_collection_modifyitems(items):
    rank = {name: n for n, name in enumerate(SLOWEST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # (stable: a file's tests keep their order)


@pytest.fixture(scope="session")
def project() -> Project:
    return Project(ROOT)


@pytest.fixture(scope="session")
def bundled_games(project) -> list[str]:
    """The ids of the bundled games; never empty, so a test that loops over them cannot pass on nothing."""
    found = games(project)
    assert found, f"no bundled games found under {project.cards}"
    return found


@pytest.fixture(scope="session")
def built(tmp_path_factory, project, bundled_games):
    """{game id: [its results: DeckResult, BoardResult, RulebookResult]} for every bundled game,
    built on Letter once per test run: the first worker to ask builds them and leaves its
    results where the others look first (the run's temp folder), so that the five games are
    not built again on every core. (Two that ask at once both build; either's results will do.)"""
    here = tmp_path_factory.getbasetemp()
    shared = (here.parent if os.environ.get("PYTEST_XDIST_WORKER") else here) / "bundled-built.pickle"
    if shared.exists():
        return pickle.loads(shared.read_bytes())
    out = tmp_path_factory.mktemp("out")
    result = {g: build_game(project, g, Options(out=out)) for g in bundled_games}
    assert result and all(result.values()), "a bundled game built no deck"
    files.write_atomically(shared, pickle.dumps(result))     # (whole or not at all, for a worker that looks now)
    return result


@pytest.fixture(scope="session")
def built_out(built) -> Path:
    """The folder `built` wrote into: out/<game>/<deck>.pdf and manifest.json, and out/.cache.
    Tests only read it (or copy it): the other workers read it too."""
    (out,) = {r.path.parent.parent for results in built.values() for r in results}
    return out


@pytest.fixture(scope="session")
def good_swarm(tmp_path_factory):
    """A copy of the project's cards/ and templates/ on which `pnpgen build swarm --out out`
    was run once, in the project folder, as a user would: (the folder, the run). Tests that need
    an earlier good build copy its out/ (cache and all); they must not write into it."""
    from .clirun import pnpgen
    root = tmp_path_factory.mktemp("good")
    for part in ("cards", "templates"):
        shutil.copytree(ROOT / part, root / part)
    return root, pnpgen("--root", root, "build", "swarm", "--out", root / "out", cwd=root)


@pytest.fixture
def scratch(tmp_path) -> Path:
    """A writable copy of the project's cards/ and templates/ to break on purpose."""
    for part in ("cards", "templates"):
        shutil.copytree(ROOT / part, tmp_path / part)
    return tmp_path


@pytest.fixture
def laid_out(monkeypatch) -> list:
    """Every page this process lays out to learn its facts, as (sheet number, side)."""
    pages = []
    lay_out = facts_module.FactFinder.lay_out

    def counted(self, plan, side):
        pages.append((plan.number, side))
        return lay_out(self, plan, side)
    monkeypatch.setattr(facts_module.FactFinder, "lay_out", counted)
    return pages
