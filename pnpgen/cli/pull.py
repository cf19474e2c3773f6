"""`pnpgen pull`: fetch the card sheets whose decks name a `source:` on the web, each saved as
the deck's `cards:` file once it reads as a card sheet (builds read only that local copy, so
they stay offline and give the same PDFs from the same files)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from ..build import Project
from ..errors import InputError, Problem
from .options import selected
from .say import Say, talk


@click.command()
@click.argument("game", nargs=-1)
@talk
@click.pass_obj
def pull(project: Project, game, quiet, verbose):
    """Fetch every deck's card sheet from its `source:` address (a CSV address or a Google
    Sheet), for every game or the GAMEs named, and save it as the deck's `cards:` file."""
    say = Say(quiet, verbose)
    from ..game.sheet_sources import sheet_sources
    names = selected(project, game)
    sources = [(name, s) for name in names for s in sheet_sources(project.cards, name)]
    if not sources:
        raise InputError.at(str(project.cards), None, "no deck has a source: to pull from; add source: <address> "
                            "to a deck whose cards: names a .csv, .xlsx or .ods file")
    for name, source in sources:
        rows = _pull_one(source)
        say.out(f"{name}: pulled {source.shown} ({rows} rows under its header) from {source.url}")


def _pull_one(source) -> int:
    """Fetch one card sheet, check that it reads as one, and put it in place; its data rows."""
    from ..files import write_atomically
    from ..sources import remote, spreadsheet
    url = remote.export_url(source.url, source.target.suffix)
    try:
        data = remote.download(url)
    except remote.PullFailed as exc:
        raise InputError(Problem(source.deck_file, source.line, f"source: {exc}")) from None
    with tempfile.TemporaryDirectory(prefix="pnpgen-pull-") as folder:
        trial = Path(folder) / source.target.name
        trial.write_bytes(data)
        table = spreadsheet.read(trial, source.shown, source.deck.sheet)   # (refused here: the old copy stays)
    write_atomically(source.target, data)
    return len(table.rows)
