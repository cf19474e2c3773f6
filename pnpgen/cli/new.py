"""`pnpgen new`: start a game that builds as it stands."""

from __future__ import annotations

import click

from ..build import Project


@click.command()
@click.argument("game")
@click.option("--title", default=None, help="The game's name (default: from GAME; my-game gives My Game).")
@click.option("--code", default=None, help="Card-code prefix, 2 to 6 capitals (default: from GAME).")
@click.pass_obj
def new(project: Project, game, title, code):
    """Start a game that builds as it stands: cards/GAME/ (game, a deck, rules) and
    templates/GAME/ (front, back). Its YAML files point an editor at schemas/ (written
    too) for key completion and checking. Refuses a name that is taken."""
    from ..schema.scaffold import new_game
    for path in new_game(project, game, title, code):
        click.echo(f"wrote {path}")
    click.echo(f"next: pnpgen build {game}")
