"""Shared fixtures: the bundled games are built once per test session into a temp folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnpgen.build.game import Options, Project, build_game, games

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def project() -> Project:
    return Project(ROOT)


@pytest.fixture(scope="session")
def built(tmp_path_factory, project):
    """{game id: [DeckResult, ...]} for every bundled game, built on Letter."""
    out = tmp_path_factory.mktemp("out")
    return {g: build_game(project, g, Options(out=out)) for g in games(project)}


@pytest.fixture
def scratch(tmp_path) -> Path:
    """A writable copy of the project's cards/ and templates/ to break on purpose."""
    for part in ("cards", "templates"):
        shutil.copytree(ROOT / part, tmp_path / part)
    return tmp_path
