"""Where a project keeps its games, templates and output, and finding and loading its games."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..game.loader import GameSource, discover, load_game


@dataclass
class Project:
    """Where games, templates and output live."""

    root: Path = Path(".")

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    @property
    def templates(self) -> Path:
        return self.root / "templates"


def games(project: Project) -> list[str]:
    return discover(project.cards)


def load(project: Project, game_id: str) -> GameSource:
    return load_game(project.cards, project.templates, game_id)
