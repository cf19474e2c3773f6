"""The bundled example games: where they are at run time, and what each one is.

An installed wheel carries them as package data, pnpgen/examples/cards/<game>/ and
pnpgen/examples/templates/<game>/ (setup.py copies them in when the wheel is built); a source
checkout or an editable install reads the repository's own cards/ and templates/. `pnpgen
examples` lists them and `pnpgen new NAME --example GAME` copies one (from_example.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..build import Project, games
from ..errors import UsageProblem, did_you_mean
from ..game.models import Game
from ..sources import validation, yamlsrc

PACKAGE = Path(__file__).resolve().parent.parent
"""The installed pnpgen package folder."""
INSTALLED = PACKAGE / "examples"
"""Where a wheel keeps the bundled games (cards/ and templates/ under it)."""
CHECKOUT = PACKAGE.parent
"""The repository around the package, when pnpgen runs from a checkout or an editable install."""


@dataclass(frozen=True)
class Example:
    """A bundled game: its id (its folder's name), its title and one line on what it is."""

    id: str
    title: str
    summary: str


def examples_project() -> Project:
    """The bundled games as a project (its cards/ and templates/), wherever pnpgen runs from.
    Raises UsageProblem when this installation has none."""
    for root in (INSTALLED, CHECKOUT):
        if (root / "cards").is_dir() and (root / "templates").is_dir() and games(Project(root)):
            if root == INSTALLED or (root / "pyproject.toml").is_file():
                return Project(root)
    raise UsageProblem(f"{INSTALLED}: this pnpgen was installed without its example games; reinstall it "
                       "from its wheel (pip install pnpgen) or from a checkout of the repository")


def check_example(game_id: str) -> Project:
    """The examples' project, once `game_id` is known to be one of them (else UsageProblem,
    exit status 2, naming the games there are)."""
    project = examples_project()
    known = games(project)
    if game_id not in known:
        raise UsageProblem(f"no example game '{game_id}'{did_you_mean(game_id, known)}; "
                           "`pnpgen examples` lists them")
    return project


def describe(project: Project, game_id: str) -> Example:
    """A game's id, title (validated as the loader does) and the first sentence of the comment
    at the top of its game.yaml."""
    path = project.cards / game_id / "game.yaml"
    game = validation.validate(Game, yamlsrc.load(path))
    return Example(game_id, game.title, summary(path.read_text(encoding="utf-8"), game.title))


def summary(text: str, title: str) -> str:
    """The first sentence of a YAML file's opening comment (schema lines skipped), without a
    leading 'Title:'; empty when the file opens with no comment."""
    words = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        comment = line.lstrip("#").strip()
        if comment.startswith("yaml-language-server:"):
            continue
        if not comment and words:
            break
        words.append(comment)
    prose = " ".join(w for w in words if w)
    first = re.match(r"(.+?[.!?])(?=\s|$)", prose)
    sentence = first[1] if first else prose
    if sentence.lower().startswith(title.lower() + ":"):
        sentence = sentence[len(title) + 1:].strip()
        sentence = sentence[:1].upper() + sentence[1:]
    return sentence


def bundled() -> list[Example]:
    """Every bundled game, described, by id."""
    project = examples_project()
    return [describe(project, game_id) for game_id in games(project)]
