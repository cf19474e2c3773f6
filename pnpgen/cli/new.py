"""`pnpgen new`: start a game that builds as it stands, blank or copied from a bundled example."""

from __future__ import annotations

import click

from ..build import Project
from ..files import shown
from .say import Say, talk


@click.command()
@click.argument("game")
@click.option("--title", default=None, help="The game's name (default: from GAME; my-game gives My Game).")
@click.option("--code", default=None, help="Card-code prefix, 2 to 6 capitals (default: from GAME).")
@click.option("--example", "example", default=None, metavar="ID",
              help="Start from a copy of a bundled game instead (`pnpgen examples` lists them).")
@talk
@click.pass_obj
def new(project: Project, game, title, code, example, quiet, verbose):
    """Start a game that builds as it stands: cards/GAME/ (game, a deck, rules) and
    templates/GAME/ (front, back). Its YAML files point an editor at schemas/ (written
    too) for key completion and checking. With --example ID, cards/GAME/ and
    templates/GAME/ are a copy of that bundled game instead. Refuses a name that is taken."""
    say = Say(quiet, verbose)
    if example is not None:
        _from_example(project, game, example, title, code, say)
        return
    from ..schema.scaffold import new_game
    for path in new_game(project, game, title, code):
        say.out(f"wrote {path}")
    say.out(f"next: pnpgen build {game}")


def _from_example(project: Project, game: str, example: str, title, code, say: Say) -> None:
    if title is not None or code is not None:
        raise click.UsageError("--title and --code name a blank game; a copied example keeps its own "
                               f"(change title: and code: in cards/{game}/game.yaml afterwards)")
    from ..schema.from_example import copy_example
    for folder in copy_example(project, example, game):
        copied = sorted(path for path in folder.rglob("*") if path.is_file())
        say.out(f"copied {len(copied)} files into {shown(folder)}/")
        say.wrote([shown(path) for path in copied])
    say.out(f"next: pnpgen build {game}")
