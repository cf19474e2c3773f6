"""Where a project keeps its games, templates and output, and finding and loading its games."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..game import reread
from ..game.loader import GameSource, discover, is_plain_name, load_game
from .inputs import code_digest
from .options import Options


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


def load(project: Project, game_id: str, options: Options | None = None) -> GameSource:
    """The game `game_id`, read and checked; for a build that uses its cache (`options`), a
    long deck file is read again in part after an edit, from the memo the last build kept in
    <out>/.cache/decks/<game> (game/reread.py)."""
    kept = None
    if options is not None and options.cache and is_plain_name(game_id):
        kept = reread.Kept(options.out / ".cache" / "decks" / game_id, code_digest())
    return load_game(project.cards, project.templates, game_id, kept)


def game_name(project: Project, name: str) -> str:
    """A GAME argument as the game's name, which names its output folder out/<game>/: a plain
    name as it is, or a path to a game's folder in the project's cards/ as that folder's name.
    Any other path is refused, so that no GAME argument can write outside the output folder."""
    if is_plain_name(name):
        return name
    try:
        folder = Path(name).expanduser().resolve()
        cards = project.cards.resolve()
    except (OSError, RuntimeError, ValueError):
        folder = cards = None
    if folder is not None and folder.parent == cards and is_plain_name(folder.name):
        return folder.name
    raise InputError.at(f"pnpgen: GAME {name}", None, f"not a game of this project: name a game by its folder "
                        f"under {project.cards}/ (e.g. {next(iter(games(project)), 'swarm')}), not a path elsewhere")
